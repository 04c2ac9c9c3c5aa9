//! Fitting rectangle-swept spheres along principal axes (RTCD §4.5.2 with the
//! covariance axes of §4.3.3).
use crate::check::{check_points, check_triangles};
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
    /// triangle slice needs no corner buffer) in five passes: two for the
    /// full rectangle, one for the radius, one pulling in both sides, one
    /// measuring both candidates' exact radii.
    pub(crate) fn fit_along<P: PointSet<T> + ?Sized>(axes: &Matrix3<T>, points: &P) -> Self {
        let full = Self::rectangle_over_set(axes, points);
        let n = axes.column(2).into_owned();
        let mut r = T::ZERO;
        points.each(|p| r = r.max_of((p - full.center).dot(&n).abs()));
        let side = [axes.column(0).into_owned(), axes.column(1).into_owned()];
        let (mut hi, mut lo) = ([T::NEG_INFINITY; 2], [T::INFINITY; 2]);
        points.each(|p| {
            let d = p - full.center;
            let z = d.dot(&n);
            let s = (r * r - z * z).max_of(T::ZERO).sqrt();
            for k in 0..2 {
                let u = d.dot(&side[k]);
                hi[k] = hi[k].max_of(u - s);
                lo[k] = lo[k].min_of(u + s);
            }
        });
        let mut shrunk = full;
        for k in 0..2 {
            let (a, b) = if lo[k] <= hi[k] {
                (lo[k], hi[k])
            } else {
                let m = (lo[k] + hi[k]) * T::HALF;
                (m, m)
            };
            shrunk.center += side[k] * ((a + b) * T::HALF);
            shrunk.half_lengths[k] = (b - a) * T::HALF;
        }
        // Both radii with the very expression `contains_point` evaluates:
        // the root of the largest squared distance is the largest distance
        // exactly (see `rectangle_distance_squared`), one root per volume.
        let (mut full, mut shrunk) = (full, shrunk);
        let (mut full2, mut shrunk2) = (T::ZERO, T::ZERO);
        points.each(|p| {
            full2 = full2.max_of(full.rectangle_distance_squared(p));
            shrunk2 = shrunk2.max_of(shrunk.rectangle_distance_squared(p));
        });
        full.radius = full2.sqrt();
        shrunk.radius = shrunk2.sqrt();
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
