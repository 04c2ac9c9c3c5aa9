//! Oriented boxes from principal component analysis: of the points, of the
//! points' convex hull, and of a triangle set as a continuous distribution
//! (RTCD §4.4.3; Eberly §6.1.1–6.1.3).
use crate::check::{check_points, check_triangles};
use crate::{FitError, Obb};
use clash_math::{
    Matrix3, Point3, Scalar, Triangle, covariance_of_hull, covariance_of_points,
    covariance_of_triangles, jacobi_eigen,
};

/// The eigenvectors of a covariance matrix (right-handed, orthonormal columns,
/// decreasing eigenvalue): the principal axes.
pub(crate) fn principal_axes<T: Scalar>(cov: &Matrix3<T>) -> Matrix3<T> {
    let e = jacobi_eigen(cov);
    // Re-orthonormalise against rounding (Gram–Schmidt, then the cross product).
    let x = e
        .vectors
        .column(0)
        .into_owned()
        .try_normalize(T::ZERO)
        .unwrap_or_else(clash_math::Vector3::x);
    let y0 = e.vectors.column(1).into_owned();
    let y = (y0 - x * x.dot(&y0))
        .try_normalize(T::ZERO)
        .unwrap_or_else(|| any_orthogonal(&x));
    Matrix3::from_columns(&[x, y, x.cross(&y)])
}

/// A unit vector orthogonal to the unit vector `v`.
pub(crate) fn any_orthogonal<T: Scalar>(v: &clash_math::Vector3<T>) -> clash_math::Vector3<T> {
    let a = if v.x.abs() < T::lit(0.57) {
        clash_math::Vector3::x()
    } else {
        clash_math::Vector3::y()
    };
    v.cross(&a).normalize()
}

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
    /// independent of how the surface is tessellated.
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn fit_pca_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        check_triangles(triangles)?;
        let cov = covariance_of_triangles(triangles)?;
        Ok(Self::from_axes_and_iter(
            &principal_axes(&cov.matrix),
            || triangles.iter().flat_map(|t| t.vertices()),
        ))
    }
}
