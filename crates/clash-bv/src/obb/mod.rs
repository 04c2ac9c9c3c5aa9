//! Oriented bounding boxes, RTCD §4.4. The overlap test is in `overlap/`,
//! the PCA fits in `fit.rs`, the tight fit in `tight.rs`.

mod fit;
mod min_area_rect;
pub(crate) mod overlap;
mod tight;

use crate::fit::check::triangle_corners;
use crate::fit::lanes;
use crate::fit::point_set::PointSet;
use crate::{Aabb, BoundingVolume, FitError, FitVolume, FlatVolume};
use clash_math::lanes::Lanes;
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Triangle, TriangleMoments, Vector3};
use serde::{Deserialize, Serialize};

/// Oriented bounding box, RTCD §4.4: the points `center + axes * u` with
/// `|u_i| <= half_extents[i]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Obb<T: Scalar> {
    /// Centre.
    pub center: Point3<T>,
    /// Local axes as the columns of a rotation matrix (orthonormal, right-handed).
    pub axes: Matrix3<T>,
    /// Non-negative half-widths along each local axis.
    pub half_extents: Vector3<T>,
}

impl<T: Scalar> Obb<T> {
    /// The smallest box with the given axes (orthonormal columns) containing
    /// the points: extents from the points' projections on each axis (RTCD §4.4.3).
    /// `points` must be non-empty and finite.
    pub fn from_axes_and_points(axes: &Matrix3<T>, points: &[Point3<T>]) -> Self {
        Self::from_axes_over(axes, points)
    }

    /// [`Self::from_axes_and_points`] over the points of a point set visited
    /// once, two points at a time in lanes (no buffer; a tree builder fits
    /// every node): the extents `[lo, hi]` of the projections about the
    /// first point `o` give the centre `c`, and the half-widths are measured
    /// from `c`'s own projection `s = axesᵀ (c - o)` and padded by a bound
    /// on every rounding involved, so that each input point tests inside
    /// with the very expression `contains_point` evaluates and also lies
    /// inside in exact arithmetic (separating-axis tests stay
    /// conservative).
    ///
    /// The bound (unit roundoff `u = ε/2`; `|a_ij| <= 1` for orthonormal
    /// columns; a dot product of three terms rounds within `γ_3 Σ|x_j y_j|`,
    /// and a subtraction within `u`): with `R = max |p - o|₁` and
    /// `D = |c - o|₁`, the projections of pass one are within `5u R` of
    /// `axesᵀ (p - o)`, `s` is within `5u D` of `axesᵀ (c - o)`, so the exact
    /// `|axesᵀ (p - c)|` is at most `max(hi - s, s - lo) + 5u (R + D)`, and
    /// `contains_point`'s rounded value exceeds the exact one by at most
    /// `5u |p - c|₁ <= 5u (R + D)`: `10u (R + D) = 5ε (R + D)` in all. The
    /// pad `8ε (R + D) + ε max(half)` (1.6 times that) also covers the
    /// rounding of the half-widths themselves and of `R` and `D`, and axes
    /// orthonormal only to rounding. The box does not depend on the order
    /// of the points after the first.
    pub(crate) fn from_axes_over<P: PointSet<T> + ?Sized>(axes: &Matrix3<T>, points: &P) -> Self {
        if points.len() <= lanes::FEW {
            Self::from_axes_in::<T, P>(axes, points)
        } else {
            Self::from_axes_in::<T::Pair, P>(axes, points)
        }
    }

    /// [`Self::from_axes_over`] in lanes of type `L`.
    #[inline(always)]
    pub(crate) fn from_axes_in<L: Lanes<T>, P: PointSet<T> + ?Sized>(
        axes: &Matrix3<T>,
        points: &P,
    ) -> Self {
        let origin = points.first();
        let frame = lanes::Frame::<L>::new(axes);
        let (lo, hi, reach) = lanes::spans_and_reach(&frame, &origin, points);
        let one = |v: Vector3<T>| [v.x, v.y, v.z];
        let (center, half) = Self::box_in_lanes(
            &lanes::Frame::<T>::new(axes),
            &lanes::splat_point(&origin),
            (one(lo), one(hi), reach),
        );
        Self::lane_of(axes, &center, &half, 0)
    }

    /// [`Self::from_axes_over`] of two point sets side by side, lane 0
    /// fitting `points[0]` along `axes[0]` and lane 1 `points[1]` along
    /// `axes[1]` ([`lanes::Across`]): each box bit for bit the one fitted
    /// alone.
    pub(crate) fn from_axes_x2(
        axes: [&Matrix3<T>; 2],
        points: [&crate::IndexedPoints<'_, T>; 2],
    ) -> [Self; 2] {
        let sets = lanes::Across([*points[0], *points[1]]);
        let frame = lanes::Frame::across(axes);
        let origin = sets.origin();
        let extents = lanes::spans_and_reach_across(&frame, &origin, &sets, |_| {});
        let (center, half) = Self::box_in_lanes(&frame, &origin, extents);
        [0, 1].map(|lane| Self::lane_of(axes[lane], &center, &half, lane))
    }

    /// The centre and padded half-widths of the box along the axes of
    /// `frame`, per lane, from the first pass's extents `(lo, hi, R)` of
    /// the points' coordinates about `o` (see [`Self::from_axes_over`]).
    #[inline(always)]
    fn box_in_lanes<M: Lanes<T>>(
        frame: &lanes::Frame<M>,
        o: &[M; 3],
        (lo, hi, reach): ([M; 3], [M; 3], M),
    ) -> ([M; 3], [M; 3]) {
        let mid = [0, 1, 2].map(|k| (lo[k] + hi[k]) * M::splat(T::HALF));
        let offset = frame.apply(&mid);
        let center = [0, 1, 2].map(|i| o[i] + offset[i]);
        let d = lanes::sub(&center, o);
        let s = frame.project(&d);
        let half = [0, 1, 2].map(|k| (hi[k] - s[k]).max_of(s[k] - lo[k]));
        let dist = (d[0].abs() + d[1].abs()) + d[2].abs();
        let eps = M::splat(T::EPSILON);
        let widest = half[0].max_of(half[1]).max_of(half[2]);
        let pad = (reach + dist) * eps * M::splat(T::lit(8.0)) + widest * eps;
        (center, half.map(|h| h + pad))
    }

    /// Lane `lane` of a box in lanes ([`Self::box_in_lanes`]) along `axes`.
    #[inline(always)]
    fn lane_of<M: Lanes<T>>(
        axes: &Matrix3<T>,
        center: &[M; 3],
        half: &[M; 3],
        lane: usize,
    ) -> Self {
        Self {
            center: Point3::from(center.map(|x| x.lane(lane))),
            axes: *axes,
            half_extents: Vector3::from(half.map(|x| x.lane(lane))),
        }
    }

    /// The eight corners.
    pub fn corners(&self) -> [Point3<T>; 8] {
        core::array::from_fn(|i| {
            let s = Vector3::new(
                if i & 1 == 0 {
                    -self.half_extents.x
                } else {
                    self.half_extents.x
                },
                if i & 2 == 0 {
                    -self.half_extents.y
                } else {
                    self.half_extents.y
                },
                if i & 4 == 0 {
                    -self.half_extents.z
                } else {
                    self.half_extents.z
                },
            );
            self.center + self.axes * s
        })
    }

    /// The point of the box closest to `p` (RTCD §5.1.4).
    pub fn closest_point(&self, p: &Point3<T>) -> Point3<T> {
        let u = self.axes.tr_mul(&(p - self.center));
        let c = Vector3::from_fn(|k, _| {
            u[k].max_of(-self.half_extents[k])
                .min_of(self.half_extents[k])
        });
        self.center + self.axes * c
    }
}

/// Most triangles [`FitVolume::fit_triangles_tight`] refines in full
/// for an [`Obb`]; larger sets get their axes from a sample of this many.
pub const TIGHT_FIT_SAMPLE: usize = 64;

impl<T: Scalar> BoundingVolume<T> for Obb<T> {
    /// Smallest of three candidate boxes containing both: in the axes of
    /// `self`, of `other`, and of their corners' principal axes (RTCD §6.5.3).
    fn merge(&self, other: &Self) -> Self {
        let mut pts = [Point3::origin(); 16];
        pts[..8].copy_from_slice(&self.corners());
        pts[8..].copy_from_slice(&other.corners());
        let mut best = Self::from_axes_and_points(&self.axes, &pts);
        let mut candidates = vec![other.axes];
        if let Ok(pca) = Self::fit_pca_points(&pts) {
            candidates.push(pca.axes);
        }
        for axes in candidates {
            let b = Self::from_axes_and_points(&axes, &pts);
            if b.volume() < best.volume() {
                best = b;
            }
        }
        best
    }

    fn contains_point(&self, p: &Point3<T>) -> bool {
        let u = self.axes.tr_mul(&(p - self.center));
        (0..3).all(|k| u[k].abs() <= self.half_extents[k])
    }

    /// Every point's [`Self::contains_point`] test, and-ed without
    /// branches (the same comparisons, so the same answer).
    fn contains_points<'a>(&self, points: impl IntoIterator<Item = &'a Point3<T>>) -> bool
    where
        T: 'a,
    {
        let e = &self.half_extents;
        let mut inside = true;
        for p in points {
            let u = self.axes.tr_mul(&(p - self.center));
            inside &= (u.x.abs() <= e.x) & (u.y.abs() <= e.y) & (u.z.abs() <= e.z);
        }
        inside
    }

    /// Box in box (RTCD §4.4.1's projection radius): along each of this
    /// box's axes, `other`'s centre offset plus its projection radius
    /// stays within the half-width, less `16ε` times the coordinates,
    /// offset and half-widths involved.
    fn contains_volume(&self, other: &Self) -> bool {
        let r = self.axes.tr_mul(&other.axes);
        let d = other.center - self.center;
        let u = self.axes.tr_mul(&d);
        let e = &other.half_extents;
        let slack = T::EPSILON
            * T::lit(16.0)
            * (self.center.coords.amax()
                + other.center.coords.amax()
                + d.lp_norm(1)
                + e.sum()
                + self.half_extents.sum());
        (0..3).all(|k| {
            let reach = r[(k, 0)].abs() * e.x + r[(k, 1)].abs() * e.y + r[(k, 2)].abs() * e.z;
            u[k].abs() + reach + slack <= self.half_extents[k]
        })
    }

    fn is_well_formed(&self) -> bool {
        self.center.iter().all(|x| x.finite())
            && self
                .half_extents
                .iter()
                .all(|&e| e.finite() && e >= T::ZERO)
            && crate::axes_are_orthonormal(&self.axes)
    }

    fn overlaps(&self, other: &Self) -> bool {
        self.overlaps_obb(other)
    }

    /// Relative-frame separating-axis test without building the moved box (RTCD §4.4.1).
    fn overlaps_transformed(&self, other: &Self, other_to_self: &Isometry3<T>) -> bool {
        let r = other_to_self.rotation.to_rotation_matrix();
        let rot = self.axes.transpose() * r.matrix() * other.axes;
        let t = self
            .axes
            .tr_mul(&((other_to_self * other.center) - self.center));
        let translation = other_to_self.translation.vector.amax();
        let coords = other.placement_magnitude(translation);
        overlap::sat_overlap(&self.half_extents, &other.half_extents, &rot, &t, coords)
    }

    /// The relative-frame test (RTCD §4.4.1) with the precomputed rotation.
    #[inline]
    fn overlaps_relative(&self, other: &Self, pose: &crate::RelativePose<T>) -> bool {
        self.overlaps_relative_lanes(other, pose)
    }

    fn transformed(&self, iso: &Isometry3<T>) -> Self {
        let r = iso.rotation.to_rotation_matrix();
        Self {
            center: iso * self.center,
            axes: r.matrix() * self.axes,
            half_extents: self.half_extents,
        }
    }

    fn projection_radius(&self, dir: &Vector3<T>) -> T {
        let l = self.axes.tr_mul(dir);
        l.x.abs() * self.half_extents.x
            + l.y.abs() * self.half_extents.y
            + l.z.abs() * self.half_extents.z
    }

    fn center(&self) -> Point3<T> {
        self.center
    }

    fn volume(&self) -> T {
        let h = self.half_extents;
        T::lit(8.0) * h.x * h.y * h.z
    }

    fn surface_area(&self) -> T {
        let h = self.half_extents;
        T::lit(8.0) * (h.x * h.y + h.y * h.z + h.z * h.x)
    }

    /// The largest separation over the 15 SAT axes (each a valid lower bound,
    /// since projecting onto a unit axis never increases distances).
    fn distance_lower_bound(&self, other: &Self) -> Option<T> {
        Some(self.separation_lower_bound(other))
    }

    /// RTCD §4.2.6 applied to the box's own frame: half-widths `|A| h`.
    fn aabb(&self) -> Aabb<T> {
        let e = self.axes.abs() * self.half_extents;
        let pad = (self.center.coords.abs() + e) * (T::EPSILON * T::lit(4.0));
        Aabb::from_center_half_extents(self.center, e + pad)
    }

    fn bounding_obb(&self) -> Obb<T> {
        *self
    }
}

impl<T: Scalar> FitVolume<T> for Obb<T> {
    /// PCA of the points ([`Obb::fit_pca_points`]).
    fn fit_points(points: &[Point3<T>]) -> Result<Self, FitError> {
        Self::fit_pca_points(points)
    }

    /// Continuous PCA of the triangles ([`Obb::fit_pca_triangles`], Eberly §6.1.3).
    fn fit_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        Self::fit_pca_triangles(triangles)
    }

    /// [`Obb::fit_pca_moments`].
    fn fit_triangles_with_moments(
        triangles: &[Triangle<T>],
        moments: &[TriangleMoments<T>],
    ) -> Result<Self, FitError> {
        Self::fit_pca_moments(triangles, moments)
    }

    /// [`Obb::fit_pca_moments`] with the extents over `corners`.
    fn fit_triangles_with_moments_over(
        triangles: &[Triangle<T>],
        moments: &[TriangleMoments<T>],
        corners: &crate::IndexedPoints<'_, T>,
    ) -> Result<Self, FitError> {
        crate::fit::axes::fit_with_moment_axes(
            triangles,
            moments,
            |axes| Self::from_axes_over(axes, corners),
            || Self::fit_pca_triangles(triangles),
        )
    }

    const FITS_ALONG_AXES: bool = true;

    /// The box along `axes` over `corners` (one pass over the corners,
    /// half-widths padded by a rounding bound, see
    /// [`Obb::from_axes_and_points`]).
    fn fit_along_axes(axes: &Matrix3<T>, corners: &crate::IndexedPoints<'_, T>) -> Option<Self> {
        Some(Self::from_axes_over(axes, corners))
    }

    /// Both boxes side by side in lanes ([`Self::fit_along_axes`] of each,
    /// bit for bit).
    fn fit_along_axes_x2_with(
        axes: [&Matrix3<T>; 2],
        corners: [&crate::IndexedPoints<'_, T>; 2],
        _: &mut crate::FitScratch<T>,
    ) -> [Option<Self>; 2] {
        Self::from_axes_x2(axes, corners).map(Some)
    }

    const HAS_TIGHT_FIT: bool = true;

    /// Volume-minimising refinement ([`Obb::fit_tight`]) of the corners.
    /// Above [`TIGHT_FIT_SAMPLE`] triangles, whose hull and rectangle
    /// searches would cost more than the whole rest of a tree build, the
    /// axes come from the refinement of an evenly strided sample of that
    /// many triangles and the extents from every triangle; the result is
    /// then the smaller of that box and the continuous-PCA box
    /// ([`Obb::fit_pca_triangles`]).
    fn fit_triangles_tight(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        if triangles.len() <= TIGHT_FIT_SAMPLE {
            return Self::fit_tight(&triangle_corners(triangles)?);
        }
        let pca = Self::fit_pca_triangles(triangles)?;
        let stride = triangles.len().div_ceil(TIGHT_FIT_SAMPLE);
        let sample: Vec<Triangle<T>> = triangles.iter().step_by(stride).copied().collect();
        let axes = Self::fit_tight(&triangle_corners(&sample)?)?.axes;
        let sampled = Self::from_axes_over(&axes, triangles);
        Ok(if sampled.volume() < pca.volume() {
            sampled
        } else {
            pca
        })
    }
}

impl<T: Scalar> FlatVolume<T> for Obb<T> {
    const NAME: &'static str = "obb";

    const FLAT_LEN: usize = 15;

    /// `center` (`x, y, z`), `axes` column by column, `half_extents`.
    fn write_flat(&self, out: &mut Vec<T>) {
        out.extend_from_slice(self.center.coords.as_slice());
        out.extend_from_slice(self.axes.as_slice());
        out.extend_from_slice(self.half_extents.as_slice());
    }

    fn read_flat(flat: &[T]) -> Option<Self> {
        let f: &[T; 15] = flat.try_into().ok()?;
        Some(Self {
            center: Point3::new(f[0], f[1], f[2]),
            axes: Matrix3::from_column_slice(&f[3..12]),
            half_extents: Vector3::new(f[12], f[13], f[14]),
        })
    }
}
