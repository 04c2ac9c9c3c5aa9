//! Fitting rectangle-swept spheres along principal axes (RTCD §4.5.2 with the
//! covariance axes of §4.3.3).
use crate::check::{check_points, check_triangles};
use crate::lanes::{self, Lanes};
use crate::obb::PointSet;
use crate::obb_fit::principal_axes;
use crate::{BoundingVolume, FitError, Rss};
use clash_math::{Matrix3, Point3, Scalar, Triangle, TriangleMoments, covariance_of_points};

impl<T: Scalar> Rss<T> {
    /// RSS whose rectangle lies in the plane of the two major principal axes
    /// of the points' covariance (RTCD §4.3.3, §4.5.2). The radius is half the
    /// spread along the minor axis; the rectangle's sides are then pulled in
    /// as far as the rounded rims still cover every point (`u_i ∓ sqrt(r² -
    /// dz_i²)`), and the radius recomputed from exact point/rectangle
    /// distances. The smaller of the pulled-in and the full rectangle is kept.
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
    /// three passes: the extents along the axes (the full rectangle, placed
    /// at the middle of the normal range, and the radius `r` of that slab),
    /// pulling in both sides as far as rims of radius `r` cover every point,
    /// and the pulled-in rectangle's exact radius, with the expression
    /// `contains_point` evaluates; a fourth pass measures the full
    /// rectangle's exact radius when it may be the smaller volume. At most
    /// three points skip the pull-in (they lie in the rectangle's plane). The
    /// volume does not depend on the order of the points.
    pub(crate) fn fit_along<P: PointSet<T> + ?Sized>(axes: &Matrix3<T>, points: &P) -> Self {
        if points.len() <= lanes::FEW {
            Self::fit_along_in::<lanes::One<T>, P>(axes, points)
        } else {
            Self::fit_along_in::<lanes::Two<T>, P>(axes, points)
        }
    }

    /// [`Self::fit_along`] in lanes of type `L`.
    #[inline(always)]
    pub(crate) fn fit_along_in<L: Lanes<T>, P: PointSet<T> + ?Sized>(
        axes: &Matrix3<T>,
        points: &P,
    ) -> Self {
        let origin = points.first();
        let frame = lanes::Frame::<L>::new(axes);
        let (lo, hi) = lanes::spans(&frame, &origin, points);
        let center = origin + axes * ((lo + hi) * T::HALF);
        let half = (hi - lo) * T::HALF;
        let mut full = Self {
            center,
            axes: *axes,
            half_lengths: [half.x, half.y],
            radius: T::ZERO,
        };
        // Radii with the very expression `contains_point` evaluates: the
        // root of the largest squared distance is the largest distance
        // exactly (see `rectangle_distance_squared`).
        let reach = |r: &Self| {
            let rect = lanes::Rectangle::<L>::new(&r.center, r.half_lengths);
            lanes::rectangle_reach(&frame, &rect, points).sqrt()
        };
        if points.len() <= 3 {
            // At most three points (a tree's leaf) lie in the plane of the
            // two major axes (their own, or a lone triangle's frame): the
            // slab's half-height is rounding, rims that thin cannot pull the
            // sides in, and the full rectangle is the volume.
            full.radius = reach(&full);
            return full;
        }
        let (hi, lo) = lanes::rim_bounds(&frame, &center, half.z, points);
        let mut shrunk = full;
        for k in 0..2 {
            let (a, b) = if lo[k] <= hi[k] {
                (lo[k], hi[k])
            } else {
                let m = (lo[k] + hi[k]) * T::HALF;
                (m, m)
            };
            shrunk.center += axes.column(k) * ((a + b) * T::HALF);
            shrunk.half_lengths[k] = (b - a) * T::HALF;
        }
        // The full rectangle spans every point's projection, so its radius
        // is the slab's half-height up to rounding: it is measured only when
        // that estimate does not already lose to the pulled-in rectangle.
        shrunk.radius = reach(&shrunk);
        full.radius = half.z;
        if shrunk.volume() < full.volume() {
            return shrunk;
        }
        full.radius = reach(&full);
        if shrunk.volume() < full.volume() {
            shrunk
        } else {
            full
        }
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
