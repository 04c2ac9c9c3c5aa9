//! Rectangle-swept spheres (lozenges), RTCD §4.5.2; the distance test is in
//! `overlap.rs`, the fit in `fit.rs`.

mod fit;
mod overlap;

use crate::{Aabb, BoundingVolume, FitError, FitVolume, FlatVolume, Obb};
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Triangle, TriangleMoments, Vector3};
use serde::{Deserialize, Serialize};

/// Rectangle-swept sphere (lozenge), RTCD §4.5.2: points within `radius` of the
/// rectangle `center + axes.col(0) * u + axes.col(1) * v`, `|u| <= half_lengths[0]`,
/// `|v| <= half_lengths[1]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Rss<T: Scalar> {
    /// Centre of the rectangle.
    pub center: Point3<T>,
    /// Orthonormal right-handed frame; the rectangle spans columns 0 and 1, column 2 is its normal.
    pub axes: Matrix3<T>,
    /// Rectangle half-lengths along columns 0 and 1.
    pub half_lengths: [T; 2],
    /// Sweep radius (non-negative).
    pub radius: T,
}

impl<T: Scalar> Rss<T> {
    /// The four rectangle corners, in order around the rectangle.
    pub fn rectangle_corners(&self) -> [Point3<T>; 4] {
        let u = self.axes.column(0) * self.half_lengths[0];
        let v = self.axes.column(1) * self.half_lengths[1];
        [
            self.center - u - v,
            self.center + u - v,
            self.center + u + v,
            self.center - u + v,
        ]
    }

    /// The point of the rectangle closest to `p` (RTCD §5.1.4 in two dimensions).
    pub fn closest_rectangle_point(&self, p: &Point3<T>) -> Point3<T> {
        let d = p - self.center;
        let mut q = self.center;
        for k in 0..2 {
            let axis = self.axes.column(k);
            let x = d
                .dot(&axis)
                .max_of(-self.half_lengths[k])
                .min_of(self.half_lengths[k]);
            q += axis * x;
        }
        q
    }

    /// Distance from `p` to the rectangle.
    pub fn rectangle_distance(&self, p: &Point3<T>) -> T {
        self.rectangle_distance_squared(p).sqrt()
    }

    /// The square of [`Self::rectangle_distance`], whose rounded square root
    /// it is: since a correctly rounded square root is monotone, the largest
    /// distance over a point set is exactly the root of the largest square.
    #[inline]
    pub(crate) fn rectangle_distance_squared(&self, p: &Point3<T>) -> T {
        (p - self.closest_rectangle_point(p)).norm_squared()
    }
}

impl<T: Scalar> Rss<T> {
    /// [`BoundingVolume::overlaps`] with `placement` (see
    /// [`Self::distance_with`]).
    fn overlaps_with(&self, other: &Self, placement: T) -> bool {
        let d2 = (other.center - self.center).norm_squared();
        let touch = self.radius + other.radius;
        if d2 <= touch * touch {
            return true;
        }
        let reach = |s: &Self| {
            (s.half_lengths[0] * s.half_lengths[0] + s.half_lengths[1] * s.half_lengths[1]).sqrt()
                + s.radius
        };
        let coords = self.center.coords.amax() + other.center.coords.amax() + placement;
        let far = (reach(self) + reach(other)) * (T::ONE + T::EPSILON * T::lit(16.0))
            + coords * (T::EPSILON * T::lit(16.0));
        if d2 > far * far {
            return false;
        }
        self.distance_with(other, placement) <= T::ZERO
    }
}

impl<T: Scalar> BoundingVolume<T> for Rss<T> {
    const REFINE_DISTANCE_BOUND: bool = false;

    /// A rectangle over the principal axes of both rectangles' corners, its
    /// radius the largest corner distance plus that volume's radius (distance
    /// to a rectangle is convex, so corners bound each input rectangle).
    fn merge(&self, other: &Self) -> Self {
        let mut corners = [Point3::origin(); 8];
        corners[..4].copy_from_slice(&self.rectangle_corners());
        corners[4..].copy_from_slice(&other.rectangle_corners());
        let axes = clash_math::covariance_of_points(&corners)
            .map(|c| crate::fit::axes::principal_axes(&c.matrix))
            .unwrap_or(self.axes);
        let mut m = Self::rectangle_over(&axes, &corners);
        let need = |s: &Self, m: &Self| {
            s.rectangle_corners()
                .iter()
                .fold(T::ZERO, |acc, c| acc.max_of(m.rectangle_distance(c)))
                + s.radius
        };
        m.radius = need(self, &m).max_of(need(other, &m)) * (T::ONE + T::EPSILON * T::lit(4.0));
        m
    }

    fn contains_point(&self, p: &Point3<T>) -> bool {
        self.rectangle_distance(p) <= self.radius
    }

    /// The largest squared rectangle distance over the points, then one
    /// square root: a correctly rounded square root is monotone, so this
    /// is [`Self::contains_point`] of every point (a distance that is not
    /// finite, from overflowing coordinates, fails as it does there for a
    /// finite radius).
    fn contains_points<'a>(&self, points: impl IntoIterator<Item = &'a Point3<T>>) -> bool
    where
        T: 'a,
    {
        let mut far = T::ZERO;
        let mut finite = true;
        for p in points {
            let d2 = self.rectangle_distance_squared(p);
            finite &= d2.finite();
            far = far.max_of(d2);
        }
        finite && far.sqrt() <= self.radius
    }

    /// Every corner of `other`'s rectangle within `r - r_other` of this
    /// rectangle (the distance to a rectangle is convex, so its largest
    /// value on `other`'s rectangle is at a corner, and a ball of radius
    /// `r_other` about a point at distance `t` stays within `t + r_other`),
    /// less `16ε` times the coordinates and sizes involved.
    fn contains_volume(&self, other: &Self) -> bool {
        let slack = T::EPSILON
            * T::lit(16.0)
            * (self.center.coords.amax()
                + other.center.coords.amax()
                + (other.center - self.center).lp_norm(1)
                + self.half_lengths[0]
                + self.half_lengths[1]
                + other.half_lengths[0]
                + other.half_lengths[1]
                + self.radius
                + other.radius);
        let room = self.radius - other.radius - slack;
        room >= T::ZERO
            && other
                .rectangle_corners()
                .iter()
                .all(|q| self.rectangle_distance_squared(q) <= room * room)
    }

    /// Rectangle/rectangle distance against the radius sum (RTCD §4.5.2),
    /// after two cheap early outs on the centre distance: both centres lie on
    /// their rectangles, so a centre distance within the radius sum means
    /// overlap, and one beyond the sum of the bounding-sphere radii
    /// (half-diagonal plus sweep radius) means disjoint.
    fn overlaps(&self, other: &Self) -> bool {
        self.overlaps_with(other, T::ZERO)
    }

    /// [`Self::overlaps`] with `other` placed by the pose's matrix, as
    /// trees place the other tree's triangles; the allowance also covers
    /// the placement's rounding (of `other`'s centre and the translation).
    #[inline]
    fn overlaps_relative(&self, other: &Self, pose: &crate::RelativePose<T>) -> bool {
        let placement = other.center.coords.amax() + pose.translation.amax();
        self.overlaps_with(&other.placed(pose), placement)
    }

    fn transformed(&self, iso: &Isometry3<T>) -> Self {
        let r = iso.rotation.to_rotation_matrix();
        Self {
            center: iso * self.center,
            axes: r.matrix() * self.axes,
            half_lengths: self.half_lengths,
            radius: self.radius,
        }
    }

    fn projection_radius(&self, dir: &Vector3<T>) -> T {
        dir.dot(&self.axes.column(0)).abs() * self.half_lengths[0]
            + dir.dot(&self.axes.column(1)).abs() * self.half_lengths[1]
            + self.radius
    }

    /// The rectangle's normal, across which the half-width is the radius.
    #[inline]
    fn thin_axis(&self) -> Option<(Vector3<T>, T)> {
        Some((self.axes.column(2).into_owned(), self.radius))
    }

    fn center(&self) -> Point3<T> {
        self.center
    }

    /// Steiner's formula for a rectangle `a × b` swept by radius `r`:
    /// `2abr + π r² (a + b) + 4/3 π r³`.
    fn volume(&self) -> T {
        let (a, b, r) = (
            self.half_lengths[0] * T::TWO,
            self.half_lengths[1] * T::TWO,
            self.radius,
        );
        T::TWO * a * b * r + T::pi() * r * r * (a + b) + T::lit(4.0 / 3.0) * T::pi() * r * r * r
    }

    /// `2ab + 2π r (a + b) + 4π r²`.
    fn surface_area(&self) -> T {
        let (a, b, r) = (
            self.half_lengths[0] * T::TWO,
            self.half_lengths[1] * T::TWO,
            self.radius,
        );
        T::TWO * a * b + T::TWO * T::pi() * r * (a + b) + T::lit(4.0) * T::pi() * r * r
    }

    fn distance_lower_bound(&self, other: &Self) -> Option<T> {
        Some(self.distance(other))
    }

    fn aabb(&self) -> Aabb<T> {
        let e = self.axes.column(0).abs() * self.half_lengths[0]
            + self.axes.column(1).abs() * self.half_lengths[1];
        let e = e.add_scalar(self.radius);
        let pad = (self.center.coords.abs() + e) * (T::EPSILON * T::lit(4.0));
        Aabb::from_center_half_extents(self.center, e + pad)
    }

    /// Finite fields, half-lengths and radius not negative (stricter than
    /// the default, which allows a negative half-length the radius
    /// outweighs), axes as [`crate::axes_are_orthonormal`] requires.
    fn is_well_formed(&self) -> bool {
        self.center.iter().all(|x| x.finite())
            && self
                .half_lengths
                .iter()
                .chain([&self.radius])
                .all(|&e| e.finite() && e >= T::ZERO)
            && crate::axes_are_orthonormal(&self.axes)
    }

    fn bounding_obb(&self) -> Obb<T> {
        let r = self.radius;
        let h = Vector3::new(self.half_lengths[0] + r, self.half_lengths[1] + r, r);
        let pad = (self.center.coords.abs().max() + h.max()) * T::EPSILON * T::lit(4.0);
        Obb {
            center: self.center,
            axes: self.axes,
            half_extents: h.add_scalar(pad),
        }
    }
}

impl<T: Scalar> FitVolume<T> for Rss<T> {
    /// [`Rss::fit_pca`].
    fn fit_points(points: &[Point3<T>]) -> Result<Self, FitError> {
        Self::fit_pca(points)
    }

    /// [`Rss::fit_pca_triangles`].
    fn fit_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        Self::fit_pca_triangles(triangles)
    }

    /// [`Rss::fit_pca_moments`].
    fn fit_triangles_with_moments(
        triangles: &[Triangle<T>],
        moments: &[TriangleMoments<T>],
    ) -> Result<Self, FitError> {
        Self::fit_pca_moments(triangles, moments)
    }

    /// [`Rss::fit_pca_moments`] with the extents over `corners`.
    fn fit_triangles_with_moments_over(
        triangles: &[Triangle<T>],
        moments: &[TriangleMoments<T>],
        corners: &crate::IndexedPoints<'_, T>,
    ) -> Result<Self, FitError> {
        crate::fit::axes::fit_with_moment_axes(
            triangles,
            moments,
            |axes| Self::fit_along(axes, corners),
            || Self::fit_pca_triangles(triangles),
        )
    }

    const FITS_ALONG_AXES: bool = true;

    /// [`Rss::fit_pca`]'s rectangle and radius along `axes` over `corners`.
    fn fit_along_axes(axes: &Matrix3<T>, corners: &crate::IndexedPoints<'_, T>) -> Option<Self> {
        Some(Self::fit_along(axes, corners))
    }

    /// [`Self::fit_along_axes`] storing the corners' coordinates in
    /// `scratch` for the fit's later passes.
    fn fit_along_axes_with(
        axes: &Matrix3<T>,
        corners: &crate::IndexedPoints<'_, T>,
        scratch: &mut crate::FitScratch<T>,
    ) -> Option<Self> {
        Some(Self::fit_along_stored(axes, corners, scratch))
    }

    /// Both fits side by side in lanes ([`Self::fit_along_axes_with`] of
    /// each, bit for bit).
    fn fit_along_axes_x2_with(
        axes: [&Matrix3<T>; 2],
        corners: [&crate::IndexedPoints<'_, T>; 2],
        scratch: &mut crate::FitScratch<T>,
    ) -> [Option<Self>; 2] {
        Self::fit_along_stored_x2(axes, corners, scratch).map(Some)
    }
}

impl<T: Scalar> FlatVolume<T> for Rss<T> {
    const NAME: &'static str = "rss";

    const FLAT_LEN: usize = 15;

    /// `center` (`x, y, z`), `axes` column by column, `half_lengths`,
    /// `radius`.
    fn write_flat(&self, out: &mut Vec<T>) {
        out.extend_from_slice(self.center.coords.as_slice());
        out.extend_from_slice(self.axes.as_slice());
        out.extend_from_slice(&self.half_lengths);
        out.push(self.radius);
    }

    fn read_flat(flat: &[T]) -> Option<Self> {
        let f: &[T; 15] = flat.try_into().ok()?;
        Some(Self {
            center: Point3::new(f[0], f[1], f[2]),
            axes: Matrix3::from_column_slice(&f[3..12]),
            half_lengths: [f[12], f[13]],
            radius: f[14],
        })
    }
}

impl<T: Scalar> Rss<T> {
    /// Radius-free rectangle in the plane of `axes` (columns 0, 1) spanning
    /// the points' projections, placed at the middle of their normal range.
    pub(crate) fn rectangle_over(axes: &Matrix3<T>, points: &[Point3<T>]) -> Self {
        Self::rectangle_over_set(axes, points)
    }

    /// [`Self::rectangle_over`] over a point set visited in place.
    pub(crate) fn rectangle_over_set<P: crate::fit::point_set::PointSet<T> + ?Sized>(
        axes: &Matrix3<T>,
        points: &P,
    ) -> Self {
        let b = Obb::from_axes_over(axes, points);
        Self {
            center: b.center,
            axes: *axes,
            half_lengths: [b.half_extents[0], b.half_extents[1]],
            radius: T::ZERO,
        }
    }
}
