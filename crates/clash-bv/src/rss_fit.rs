//! Fitting rectangle-swept spheres along principal axes (RTCD §4.5.2 with the
//! covariance axes of §4.3.3).
use crate::check::{check_points, check_triangles};
use crate::lanes::{self, Lanes};
use crate::obb::PointSet;
use crate::obb_fit::principal_axes;
use crate::{BoundingVolume, FitError, Rss};
use clash_math::{
    Matrix3, Point3, Scalar, Triangle, TriangleMoments, Vector3, covariance_of_points,
};

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
            Self::fit_along_in::<lanes::Two<T>, P>(axes, points)
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
        let frame = lanes::Frame::<lanes::Two<T>>::new(axes);
        let origin = points.first();
        let coords = &mut scratch.coords;
        let extents = lanes::spans_and_reach_into(&frame, &origin, points, coords);
        Self::from_coordinates(axes, &origin, extents, points.len(), &coords[..])
    }

    /// [`Self::fit_along`] of at most [`lanes::FEW`] points, one at a time,
    /// their coordinates kept on the stack by the first pass.
    #[inline(always)]
    fn fit_few<P: PointSet<T> + ?Sized>(axes: &Matrix3<T>, points: &P) -> Self {
        type L<T> = lanes::One<T>;
        let origin = points.first();
        let frame = lanes::Frame::<L<T>>::new(axes);
        let mut coords = [[L::splat(T::ZERO); 3]; lanes::FEW];
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
    /// points' coordinates about `origin` and the coordinates themselves
    /// (see [`Self::fit_along`]).
    #[inline(always)]
    fn from_coordinates<L: Lanes<T>, C: lanes::Coordinates<L> + ?Sized>(
        axes: &Matrix3<T>,
        origin: &Point3<T>,
        (lo, hi, reach): (Vector3<T>, Vector3<T>, T),
        n: usize,
        coords: &C,
    ) -> Self {
        let center = origin + axes * ((lo + hi) * T::HALF);
        // The half-widths are measured from the centre's own coordinates
        // `s`, so that every `w - s` lies within them as rounded.
        let s = axes.tr_mul(&(center - origin));
        let half = Vector3::from_fn(|k, _| (hi[k] - s[k]).max_of(s[k] - lo[k]));
        let full = Self {
            center,
            axes: *axes,
            half_lengths: [half.x, half.y],
            radius: half.z + Self::rounding_pad(reach, origin, &center, half.z),
        };
        if n <= 3 {
            // At most three points (a tree's leaf) lie in the plane of the
            // two major axes (their own, or a lone triangle's frame): the
            // slab's half-height is rounding, rims that thin cannot pull the
            // sides in, and the full rectangle is the volume.
            return full;
        }
        // Side k spans [min(v_k + t), max(v_k - t)]: every point lies
        // within its rim's section of both ends.
        let (upper, lower) = lanes::rim_bounds(coords, &s, half.z);
        let mut mid = [T::ZERO; 2];
        let mut shrunk_half = [T::ZERO; 2];
        for k in 0..2 {
            let (a, b) = if lower[k] <= upper[k] {
                (lower[k], upper[k])
            } else {
                let m = (lower[k] + upper[k]) * T::HALF;
                (m, m)
            };
            mid[k] = (a + b) * T::HALF;
            shrunk_half[k] = (b - a) * T::HALF;
        }
        let shrunk_center = center + axes.column(0) * mid[0] + axes.column(1) * mid[1];
        let s = axes.tr_mul(&(shrunk_center - origin));
        let d = lanes::rectangle_reach(coords, &s, shrunk_half).sqrt();
        let shrunk = Self {
            center: shrunk_center,
            axes: *axes,
            half_lengths: shrunk_half,
            radius: d + Self::rounding_pad(reach, origin, &shrunk_center, d),
        };
        if shrunk.volume() < full.volume() {
            shrunk
        } else {
            full
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
    /// `D` and of the sum itself. (`tests/fit_rounding.rs` checks the
    /// points against the volumes in exact arithmetic; it fails with the
    /// pad divided by eight.)
    #[inline(always)]
    pub(crate) fn rounding_pad(reach: T, o: &Point3<T>, c: &Point3<T>, d: T) -> T {
        let e = c - o;
        let dist = (e.x.abs() + e.y.abs()) + e.z.abs();
        let far = c.x.abs().max_of(c.y.abs()).max_of(c.z.abs());
        T::EPSILON * ((reach + dist) * T::lit(64.0) + far * T::lit(4.0) + d * T::TWO)
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
            && let Some(axes) = crate::obb_fit::single_triangle_axes(t)
        {
            return Ok(Self::fit_along(&axes, triangles));
        }
        let cov = clash_math::covariance_of_triangles(triangles)?;
        Ok(Self::fit_along(
            &crate::obb_fit::principal_axes(&cov.matrix),
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
        crate::obb_fit::fit_with_moment_axes(
            triangles,
            moments,
            |axes| Self::fit_along(axes, triangles),
            || Self::fit_pca_triangles(triangles),
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::lanes::{One, Two};
    use crate::{FitScratch, Rss};
    use clash_math::{Matrix3, Point3, Rotation3, Vector3};

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
            Rss::fit_along_in::<One<f64>, _>(&axes, &pts[..]),
            Rss::fit_along_in::<Two<f64>, _>(&axes, &pts[..]),
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
