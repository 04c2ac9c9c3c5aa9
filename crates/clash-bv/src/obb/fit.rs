//! Oriented boxes from principal component analysis: of the points, of the
//! points' convex hull, and of a triangle set as a continuous distribution
//! (RTCD §4.4.3; Eberly §6.1.1–6.1.3); the axes are computed in
//! `crate::fit::axes`.

use crate::fit::axes::{fit_with_moment_axes, principal_axes, single_triangle_axes};
use crate::fit::check::{check_points, check_triangles};
use crate::{FitError, Obb};
use clash_math::{
    Point3, Scalar, Triangle, TriangleMoments, covariance_of_hull, covariance_of_points,
    covariance_of_triangles,
};

impl<T: Scalar> Obb<T> {
    /// Box along the principal axes of the points' covariance (RTCD §4.4.3,
    /// Eberly §6.1.1). Sensitive to uneven sampling: dense clusters tilt the axes.
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn fit_pca_points(points: &[Point3<T>]) -> Result<Self, FitError> {
        check_points(points)?;
        let cov = covariance_of_points(points)?;
        Ok(Self::from_axes_and_points(
            &principal_axes(&cov.matrix),
            points,
        ))
    }

    /// Box along the principal axes of the convex hull's surface (Eberly
    /// §6.1.2): interior points and uneven sampling no longer bias the axes.
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn fit_pca_hull(points: &[Point3<T>]) -> Result<Self, FitError> {
        check_points(points)?;
        let cov = covariance_of_hull(points)?;
        Ok(Self::from_axes_and_points(
            &principal_axes(&cov.matrix),
            points,
        ))
    }

    /// Box along the principal axes of the triangles as a continuous,
    /// area-weighted distribution (Eberly §6.1.3, Gottschalk's OBBTree fit):
    /// independent of how the surface is tessellated. A single
    /// non-degenerate triangle (an OBB tree's leaf) gets the flat box along
    /// its longest edge and normal, the smallest box holding it.
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn fit_pca_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        check_triangles(triangles)?;
        if let [t] = triangles
            && let Some(axes) = single_triangle_axes(t)
        {
            return Ok(Self::from_axes_over(&axes, triangles));
        }
        let cov = covariance_of_triangles(triangles)?;
        Ok(Self::from_axes_over(
            &principal_axes(&cov.matrix),
            triangles,
        ))
    }

    /// [`Obb::fit_pca_triangles`] with the covariance summed from the
    /// triangles' moments (`moments[i]` of `triangles[i]`, see
    /// [`TriangleMoments`]): the same box up to rounding in the axes, for a
    /// few multiply-adds per triangle. The extents come from every corner as
    /// in [`Obb::fit_pca_triangles`], so the box contains the triangles
    /// exactly; degenerate and non-finite input take that (checked) fit.
    ///
    /// # Errors
    /// [`FitError::Empty`], [`FitError::NonFinite`], or
    /// [`FitError::MomentsMismatch`] when the slices differ in length.
    pub fn fit_pca_moments(
        triangles: &[Triangle<T>],
        moments: &[TriangleMoments<T>],
    ) -> Result<Self, FitError> {
        fit_with_moment_axes(
            triangles,
            moments,
            |axes| Self::from_axes_over(axes, triangles),
            || Self::fit_pca_triangles(triangles),
        )
    }
}
