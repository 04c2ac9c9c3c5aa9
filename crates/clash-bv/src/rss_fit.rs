//! Fitting rectangle-swept spheres along principal axes (RTCD §4.5.2 with the
//! covariance axes of §4.3.3).
use crate::check::{check_points, triangle_corners};
use crate::obb_fit::principal_axes;
use crate::{BoundingVolume, FitError, Rss};
use clash_math::{Matrix3, Point3, Scalar, Triangle, covariance_of_points};

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

    /// See [`Rss::fit_pca`]; `points` non-empty and finite.
    pub(crate) fn fit_along(axes: &Matrix3<T>, points: &[Point3<T>]) -> Self {
        let full = Self::rectangle_over(axes, points);
        let n = axes.column(2).into_owned();
        let r = points
            .iter()
            .fold(T::ZERO, |m, p| m.max_of((p - full.center).dot(&n).abs()));
        let mut shrunk = full;
        for k in 0..2 {
            let axis = axes.column(k).into_owned();
            let (mut hi, mut lo) = (T::NEG_INFINITY, T::INFINITY);
            for p in points {
                let d = p - full.center;
                let z = d.dot(&n);
                let s = (r * r - z * z).max_of(T::ZERO).sqrt();
                let u = d.dot(&axis);
                hi = hi.max_of(u - s);
                lo = lo.min_of(u + s);
            }
            let (a, b) = if lo <= hi {
                (lo, hi)
            } else {
                let m = (lo + hi) * T::HALF;
                (m, m)
            };
            shrunk.center += axis * ((a + b) * T::HALF);
            shrunk.half_lengths[k] = (b - a) * T::HALF;
        }
        let finish = |mut s: Self| {
            s.radius = points
                .iter()
                .fold(T::ZERO, |m, p| m.max_of(s.rectangle_distance(p)));
            s
        };
        let (full, shrunk) = (finish(full), finish(shrunk));
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
        let corners = triangle_corners(triangles)?;
        if let [t] = triangles
            && let Some(axes) = crate::obb_fit::single_triangle_axes(t)
        {
            return Ok(Self::fit_along(&axes, &corners));
        }
        let cov = clash_math::covariance_of_triangles(triangles)?;
        Ok(Self::fit_along(
            &crate::obb_fit::principal_axes(&cov.matrix),
            &corners,
        ))
    }
}
