//! Fitting capsules along the principal axis of a point set (RTCD §4.5.1
//! with the covariance axes of §4.3.3).
use crate::fit::axes::principal_axes;
use crate::fit::check::{check_points, triangle_corners};
use crate::{Capsule, FitError};
use clash_math::{Matrix3, Point3, Scalar, Segment, Triangle, covariance_of_points};

impl<T: Scalar> Capsule<T> {
    /// Capsule along the principal axis of the points' covariance (RTCD
    /// §4.3.3, §4.5.1): the radius is the largest distance from that line,
    /// and the segment's ends are pulled in as far as the end caps still
    /// cover every point (`t_i ∓ sqrt(r² - d_i²)`), which a capsule allows
    /// and a cylinder would not.
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn fit_pca(points: &[Point3<T>]) -> Result<Self, FitError> {
        check_points(points)?;
        let cov = covariance_of_points(points)?;
        Ok(Self::fit_along(&principal_axes(&cov.matrix), points))
    }

    /// The capsule along column 0 of `axes` through the mean-free frame
    /// (see [`Capsule::fit_pca`]); `points` non-empty and finite.
    pub(crate) fn fit_along(axes: &Matrix3<T>, points: &[Point3<T>]) -> Self {
        let dir = axes.column(0).into_owned();
        let o = points[0];
        // Axial coordinate t and squared radial distance d² of each point,
        // measured from the line through o along dir, then recentred on the
        // radial centre of the set (the line through the bounding square's centre).
        let (mut ylo, mut yhi, mut zlo, mut zhi) =
            (T::INFINITY, T::NEG_INFINITY, T::INFINITY, T::NEG_INFINITY);
        let y_axis = axes.column(1).into_owned();
        let z_axis = axes.column(2).into_owned();
        for p in points {
            let v = p - o;
            let (y, z) = (v.dot(&y_axis), v.dot(&z_axis));
            ylo = ylo.min_of(y);
            yhi = yhi.max_of(y);
            zlo = zlo.min_of(z);
            zhi = zhi.max_of(z);
        }
        let line_o = o + y_axis * ((ylo + yhi) * T::HALF) + z_axis * ((zlo + zhi) * T::HALF);
        let mut r2 = T::ZERO;
        let tr: Vec<(T, T)> = points
            .iter()
            .map(|p| {
                let v = p - line_o;
                let t = v.dot(&dir);
                let d2 = (v - dir * t).norm_squared();
                r2 = r2.max_of(d2);
                (t, d2)
            })
            .collect();
        let (mut hi, mut lo) = (T::NEG_INFINITY, T::INFINITY);
        for &(t, d2) in &tr {
            let s = (r2 - d2).max_of(T::ZERO).sqrt();
            hi = hi.max_of(t - s);
            lo = lo.min_of(t + s);
        }
        let (a, b) = if lo <= hi {
            (lo, hi)
        } else {
            let m = (lo + hi) * T::HALF;
            (m, m)
        };
        let segment = Segment::new(line_o + dir * a, line_o + dir * b);
        // Final radius from exact distances: containment despite rounding.
        let radius = Self::radius_for(&segment, points);
        Self { segment, radius }
    }

    /// Fits from the corners of the triangles, with the principal axis of
    /// the triangles as a continuous distribution (Eberly §6.1.3).
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn fit_pca_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        let corners = triangle_corners(triangles)?;
        let cov = clash_math::covariance_of_triangles(triangles)?;
        let axes = crate::fit::axes::principal_axes(&cov.matrix);
        Ok(Self::fit_along(&axes, &corners))
    }
}
