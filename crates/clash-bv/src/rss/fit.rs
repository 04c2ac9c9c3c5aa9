//! Fitting rectangle-swept spheres along principal axes (RTCD §4.5.2 with the
//! covariance axes of §4.3.3).
use crate::fit::axes::principal_axes;
use crate::fit::check::{check_points, check_triangles};
use crate::fit::lanes;
use crate::fit::point_set::PointSet;
use crate::{FitError, IndexedPoints, Rss};
use clash_math::lanes::Lanes;
use clash_math::{
    Matrix3, Point3, Scalar, Triangle, TriangleMoments, Vector3, covariance_of_points,
};
use core::marker::PhantomData;

/// A candidate volume of an RSS fit in lanes `M` (see
/// [`Rss::fit_along`]): the rectangle's centre, its half-lengths along the
/// frame's columns 0 and 1, and the radius.
struct Lozenge<M> {
    center: [M; 3],
    half_lengths: [M; 2],
    radius: M,
}

impl<M: Copy + core::ops::Add<Output = M> + core::ops::Mul<Output = M>> Lozenge<M> {
    /// The volume per lane, rounded as [`Rss`]'s `volume` rounds it:
    /// `2abr + πr²(a + b) + 4/3 πr³`, with `a` and `b` the side lengths.
    #[inline(always)]
    fn volume<T: Scalar>(&self) -> M
    where
        M: Lanes<T>,
    {
        let [h0, h1] = self.half_lengths;
        let (two, r) = (M::splat(T::TWO), self.radius);
        let (a, b) = (h0 * two, h1 * two);
        let pi = M::splat(T::pi());
        let sphere = M::splat(T::lit(4.0 / 3.0) * T::pi());
        two * a * b * r + pi * r * r * (a + b) + sphere * r * r * r
    }
}

impl<T: Scalar> Rss<T> {
    /// RSS whose rectangle lies in the plane of the two major principal axes
    /// of the points' covariance (RTCD §4.3.3, §4.5.2). The radius is half the
    /// spread along the minor axis; the rectangle's sides are then pulled in
    /// as far as the rounded rims still cover every point (`u_i ∓ sqrt(r² -
    /// dz_i²)`), and the radius recomputed from the points' distances to
    /// that rectangle, padded by a bound on their rounding. The smaller of
    /// the pulled-in and the full rectangle is kept.
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn fit_pca(points: &[Point3<T>]) -> Result<Self, FitError> {
        check_points(points)?;
        let cov = covariance_of_points(points)?;
        Ok(Self::fit_along(&principal_axes(&cov.matrix), points))
    }

    /// See [`Rss::fit_pca`]; `points` non-empty and finite. Visits the points
    /// in place ([`PointSet`]: a tree builder fits every node, and a
    /// triangle slice needs no corner buffer), two at a time in lanes, in
    /// three passes over their coordinates `w = axesᵀ (p - o)` about the
    /// first point `o` (recomputed by each pass with the same expression,
    /// so the same values, or stored by the first, see
    /// [`Self::fit_along_stored`]): their extents (the full rectangle,
    /// placed at the middle of the normal range, and the slab's
    /// half-height `r`), pulling in both sides as far as rims of radius `r`
    /// cover every point, and the pulled-in rectangle's largest distance to
    /// a point. Both radii are padded by a bound on every rounding involved
    /// ([`Self::rounding_pad`]), so that each input point tests inside with
    /// the expression `contains_point` evaluates and also lies within the
    /// radius of the rectangle in exact arithmetic. The smaller volume is
    /// kept. At most three points skip the pull-in (they lie in the
    /// rectangle's plane). The volume does not depend on the order of the
    /// points after the first.
    pub(crate) fn fit_along<P: PointSet<T> + ?Sized>(axes: &Matrix3<T>, points: &P) -> Self {
        if points.len() <= lanes::FEW {
            Self::fit_few(axes, points)
        } else {
            Self::fit_along_in::<T::Pair, P>(axes, points)
        }
    }

    /// [`Self::fit_along`] with the points' coordinates stored in `scratch`
    /// by the first pass and read back by the other two: the same volume.
    pub(crate) fn fit_along_stored<P: PointSet<T> + ?Sized>(
        axes: &Matrix3<T>,
        points: &P,
        scratch: &mut crate::FitScratch<T>,
    ) -> Self {
        if points.len() <= lanes::FEW {
            return Self::fit_few(axes, points);
        }
        let frame = lanes::Frame::<T::Pair>::new(axes);
        let origin = points.first();
        let coords = &mut scratch.coords;
        let extents = lanes::spans_and_reach_into(&frame, &origin, points, coords);
        Self::from_coordinates(axes, &origin, extents, points.len(), &coords[..])
    }

    /// [`Self::fit_along_stored`] of two point sets side by side, lane 0
    /// fitting `points[0]` along `axes[0]` and lane 1 `points[1]` along
    /// `axes[1]` ([`lanes::Across`]): each volume bit for bit the one fitted
    /// alone. A tree builder fits a node's two children this way, so that
    /// the two fits' chains of dependent steps (extents, centre,
    /// half-widths, pull-in, radius) overlap.
    pub(crate) fn fit_along_stored_x2(
        axes: [&Matrix3<T>; 2],
        points: [&IndexedPoints<'_, T>; 2],
        scratch: &mut crate::FitScratch<T>,
    ) -> [Self; 2] {
        let sets = lanes::Across([*points[0], *points[1]]);
        let frame = lanes::Frame::<T::Pair>::across(axes);
        let origin = sets.origin();
        let n = [points[0].len(), points[1].len()];
        let pull = n[0] > 3 || n[1] > 3;
        let (full, shrunk) = if n[0].max(n[1]) <= lanes::FEW {
            let mut coords = [[T::Pair::splat(T::ZERO); 3]; lanes::FEW];
            let mut m = 0;
            let extents = lanes::spans_and_reach_across(&frame, &origin, &sets, |u| {
                coords[m] = u;
                m += 1;
            });
            let passes = lanes::AcrossSets::<T>(&coords[..m]);
            Self::lozenges(&frame, &origin, extents, pull, &passes)
        } else {
            let coords = &mut scratch.coords;
            coords.clear();
            coords.reserve(n[0].max(n[1]));
            let extents = lanes::spans_and_reach_across(&frame, &origin, &sets, |u| coords.push(u));
            let passes = lanes::AcrossSets::<T>(&coords[..]);
            Self::lozenges(&frame, &origin, extents, pull, &passes)
        };
        [0, 1].map(|lane| Self::pick(axes[lane], &full, shrunk.as_ref(), lane, n[lane] > 3))
    }

    /// [`Self::fit_along`] of at most [`lanes::FEW`] points, one at a time,
    /// their coordinates kept on the stack by the first pass.
    #[inline(always)]
    fn fit_few<P: PointSet<T> + ?Sized>(axes: &Matrix3<T>, points: &P) -> Self {
        let origin = points.first();
        let frame = lanes::Frame::<T>::new(axes);
        let mut coords = [[T::ZERO; 3]; lanes::FEW];
        let mut n = 0;
        let extents = lanes::spans_and_reach_keeping(&frame, &origin, points, |u| {
            coords[n] = u;
            n += 1;
        });
        Self::from_coordinates(axes, &origin, extents, n, &coords[..n])
    }

    /// [`Self::fit_along`] in lanes of type `L`, the coordinates recomputed
    /// by each pass.
    #[inline(always)]
    pub(crate) fn fit_along_in<L: Lanes<T>, P: PointSet<T> + ?Sized>(
        axes: &Matrix3<T>,
        points: &P,
    ) -> Self {
        let origin = points.first();
        let frame = lanes::Frame::<L>::new(axes);
        let extents = lanes::spans_and_reach(&frame, &origin, points);
        let coords = lanes::Recomputed {
            frame: &frame,
            origin,
            points,
        };
        Self::from_coordinates(axes, &origin, extents, points.len(), &coords)
    }

    /// The fit from the first pass's extents `(lo, hi, R)` of the `n`
    /// points' coordinates about `origin` (in lanes `L`) and the
    /// coordinates themselves (see [`Self::fit_along`]): [`Self::lozenges`]
    /// in a single lane.
    #[inline(always)]
    fn from_coordinates<L: Lanes<T>, C: lanes::Coordinates<L> + ?Sized>(
        axes: &Matrix3<T>,
        origin: &Point3<T>,
        (lo, hi, reach): (Vector3<T>, Vector3<T>, T),
        n: usize,
        coords: &C,
    ) -> Self {
        let frame = lanes::Frame::<T>::new(axes);
        let one = |v: Vector3<T>| [v.x, v.y, v.z];
        let extents = (one(lo), one(hi), reach);
        let passes = lanes::OneSet(coords, PhantomData);
        let (full, shrunk) =
            Self::lozenges(&frame, &lanes::splat_point(origin), extents, n > 3, &passes);
        Self::pick(axes, &full, shrunk.as_ref(), 0, n > 3)
    }

    /// The two candidate volumes of a fit along the axes of `frame`, in
    /// lanes `M` (one fit, or two side by side), from the first pass's
    /// extents `(lo, hi, R)` of the points' coordinates about `o`: the full
    /// rectangle, placed at the middle of the normal range, with the slab's
    /// half-height `r` as radius; and, when `pull_in`, the rectangle whose
    /// sides are pulled in as far as rims of radius `r` cover every point
    /// (side `k` spans `[min(v_k + t), max(v_k - t)]`, see
    /// [`lanes::PullIn`]), its radius the points' largest distance to it.
    /// Both radii are padded by [`Self::rounding_pad`]. The second volume
    /// comes with the two volumes, full first.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn lozenges<M: Lanes<T>, Q: lanes::PullIn<M> + ?Sized>(
        frame: &lanes::Frame<M>,
        o: &[M; 3],
        (lo, hi, reach): ([M; 3], [M; 3], M),
        pull_in: bool,
        passes: &Q,
    ) -> (Lozenge<M>, Option<(Lozenge<M>, [M; 2])>) {
        let half = M::splat(T::HALF);
        let mid = [0, 1, 2].map(|k| (lo[k] + hi[k]) * half);
        let offset = frame.apply(&mid);
        let center = [0, 1, 2].map(|i| o[i] + offset[i]);
        // The half-widths are measured from the centre's own coordinates
        // `s`, so that every `w - s` lies within them as rounded.
        let s = frame.project(&lanes::sub(&center, o));
        let h = [0, 1, 2].map(|k| (hi[k] - s[k]).max_of(s[k] - lo[k]));
        let full = Lozenge {
            center,
            half_lengths: [h[0], h[1]],
            radius: h[2] + Self::rounding_pad(reach, o, &center, h[2]),
        };
        if !pull_in {
            // At most three points (a tree's leaf) lie in the plane of the
            // two major axes (their own, or a lone triangle's frame): the
            // slab's half-height is rounding, rims that thin cannot pull the
            // sides in, and the full rectangle is the volume.
            return (full, None);
        }
        // Side k spans [min(v_k + t), max(v_k - t)]: every point lies
        // within its rim's section of both ends. Crossed bounds (every
        // point near the middle) make the side a point at their middle.
        let (upper, lower) = passes.rim_bounds(&s, h[2]);
        let zero = M::splat(T::ZERO);
        let mid = [0, 1].map(|k| (lower[k] + upper[k]) * half);
        let shrunk_half = [0, 1].map(|k| (upper[k] - lower[k]).max_of(zero) * half);
        let (a0, a1) = (frame.column(0), frame.column(1));
        let shrunk_center = [0, 1, 2].map(|i| (center[i] + a0[i] * mid[0]) + a1[i] * mid[1]);
        let s = frame.project(&lanes::sub(&shrunk_center, o));
        let d = passes.rectangle_reach(&s, shrunk_half).sqrt();
        let shrunk = Lozenge {
            center: shrunk_center,
            half_lengths: shrunk_half,
            radius: d + Self::rounding_pad(reach, o, &shrunk_center, d),
        };
        let volumes = [full.volume(), shrunk.volume()];
        (full, Some((shrunk, volumes)))
    }

    /// Lane `lane` of a fit's candidates ([`Self::lozenges`]): the pulled-in
    /// volume when `pull_in` and it is the smaller, else the full one.
    #[inline(always)]
    fn pick<M: Lanes<T>>(
        axes: &Matrix3<T>,
        full: &Lozenge<M>,
        shrunk: Option<&(Lozenge<M>, [M; 2])>,
        lane: usize,
        pull_in: bool,
    ) -> Self {
        let chosen = match shrunk {
            Some((s, [vf, vs])) if pull_in && vs.lane(lane) < vf.lane(lane) => s,
            _ => full,
        };
        Self {
            center: Point3::from(chosen.center.map(|x| x.lane(lane))),
            axes: *axes,
            half_lengths: chosen.half_lengths.map(|x| x.lane(lane)),
            radius: chosen.radius.lane(lane),
        }
    }

    /// What a fit along axes adds to the largest distance `d` it computed,
    /// in the frame's coordinates about the first point `o`, from its
    /// points to the rectangle centred at `c`, so that every point lies
    /// within the radius both as `contains_point` evaluates it and in exact
    /// arithmetic (`|p - c - a₀ x₀ - a₁ x₁| <= radius` with the stored axes
    /// and `x_k = a_k · (p - c)` clamped to the side).
    ///
    /// The bound (unit roundoff `u = ε/2`; axes orthonormal to within
    /// `η <= 8u`, `|a_ij| <= 1`; `R = max |p - o|₁` from the first pass,
    /// `D = |c - o|₁`): the coordinates `w` are within `5u R` of
    /// `axesᵀ (p - o)` and those of the centre within `5u D` of
    /// `axesᵀ (c - o)`, so `v = w - s` is within `6u (R + D)` of the exact
    /// `V = axesᵀ (p - c)` per coordinate and `10u (R + D)` in length; the
    /// distance from `V` to the rectangle is 1-Lipschitz in `V`, and the
    /// rounded one (a clamp, three squares and a square root) is within
    /// `6u (R + D)` of the exact one; axes off orthonormal by `η` make the
    /// exact expression above exceed that distance by at most
    /// `5η (R + D)`. So the exact expression is at most
    /// `d + (16u + 5η)(R + D) <= d + 28ε (R + D)`. `contains_point`'s
    /// rounding (the difference `p - c`, two dot products, the closest
    /// point `c + a₀ x₀ + a₁ x₁` rounded at the magnitude of `c`, the
    /// difference from `p`, its length) adds at most
    /// `27u (R + D) + 3.5u |c|∞`. In all `d + 42ε (R + D) + 2ε |c|∞`; the
    /// pad `64ε (R + D) + 4ε |c|∞ + 2ε d` also covers the rounding of `R`,
    /// `D` and of the sum itself. (`tests/integration/fit_rounding.rs` checks the
    /// points against the volumes in exact arithmetic; it fails with the
    /// pad divided by eight.) Evaluated lane by lane.
    #[inline(always)]
    fn rounding_pad<M: Lanes<T>>(reach: M, o: &[M; 3], c: &[M; 3], d: M) -> M {
        let e = lanes::sub(c, o);
        let dist = (e[0].abs() + e[1].abs()) + e[2].abs();
        let far = c[0].abs().max_of(c[1].abs()).max_of(c[2].abs());
        let k = |x: f64| M::splat(T::lit(x));
        M::splat(T::EPSILON) * (((reach + dist) * k(64.0) + far * k(4.0)) + d * k(2.0))
    }

    /// Fits from the triangles' corners along the principal axes of the
    /// triangles as a continuous distribution (Eberly §6.1.3). A single
    /// non-degenerate triangle (an RSS tree's leaf) gets the rectangle along
    /// its longest edge in its own plane, the smallest one holding it.
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn fit_pca_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        check_triangles(triangles)?;
        if let [t] = triangles
            && let Some(axes) = crate::fit::axes::single_triangle_axes(t)
        {
            return Ok(Self::fit_along(&axes, triangles));
        }
        let cov = clash_math::covariance_of_triangles(triangles)?;
        Ok(Self::fit_along(
            &crate::fit::axes::principal_axes(&cov.matrix),
            triangles,
        ))
    }

    /// [`Rss::fit_pca_triangles`] with the covariance summed from the
    /// triangles' moments (`moments[i]` of `triangles[i]`, see
    /// [`TriangleMoments`], Eberly §6.1.3); the rectangle and radius come
    /// from every corner, so the volume contains the triangles exactly.
    /// Degenerate and non-finite input take the checked fit.
    ///
    /// # Errors
    /// [`FitError::Empty`], [`FitError::NonFinite`], or
    /// [`FitError::MomentsMismatch`] when the slices differ in length.
    pub fn fit_pca_moments(
        triangles: &[Triangle<T>],
        moments: &[TriangleMoments<T>],
    ) -> Result<Self, FitError> {
        crate::fit::axes::fit_with_moment_axes(
            triangles,
            moments,
            |axes| Self::fit_along(axes, triangles),
            || Self::fit_pca_triangles(triangles),
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::{FitScratch, Rss};
    use clash_math::{Matrix3, Point3, Rotation3, Scalar, Vector3};

    /// Points on a lozenge (rectangle `[-2, 2] x [-1, 1]` swept by radius
    /// 0.5, turned and moved): the top and bottom faces' corners and the
    /// rims' outermost points at mid-height. The full rectangle spans
    /// `±2.5 x ±1.5`; pulling in the sides recovers the lozenge itself,
    /// with every way of visiting the points.
    #[test]
    fn pull_in_recovers_a_lozenge() {
        let rot = Rotation3::from_euler_angles(0.3, -0.7, 1.1);
        let c = Point3::new(10.0, -3.0, 4.0);
        let mut local = Vec::new();
        for (x, y) in [(-2.0, -1.0), (2.0, -1.0), (2.0, 1.0), (-2.0, 1.0)] {
            local.push([x, y, 0.5]);
            local.push([x, y, -0.5]);
        }
        for (x, y) in [(2.5, 0.0), (-2.5, 0.0), (0.0, 1.5), (0.0, -1.5), (2.0, 1.5)] {
            local.push([x, y, 0.0]);
        }
        let pts: Vec<Point3<f64>> = local
            .iter()
            .map(|&[x, y, z]| c + rot * Vector3::new(x, y, z))
            .collect();
        let axes: Matrix3<f64> = *rot.matrix();
        let fits = [
            Rss::fit_along_in::<f64, _>(&axes, &pts[..]),
            Rss::fit_along_in::<<f64 as Scalar>::Pair, _>(&axes, &pts[..]),
            Rss::fit_along_stored(&axes, &pts[..], &mut FitScratch::new()),
        ];
        for f in fits {
            assert!((f.half_lengths[0] - 2.0).abs() < 1e-12, "{f:?}");
            assert!((f.half_lengths[1] - 1.0).abs() < 1e-12, "{f:?}");
            assert!((f.radius - 0.5).abs() < 1e-12, "{f:?}");
            assert!((f.center - c).norm() < 1e-12, "{f:?}");
        }
    }
}
