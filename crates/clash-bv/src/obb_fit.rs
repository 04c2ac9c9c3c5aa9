//! Oriented boxes from principal component analysis: of the points, of the
//! points' convex hull, and of a triangle set as a continuous distribution
//! (RTCD §4.4.3; Eberly §6.1.1–6.1.3).
use crate::check::{check_points, check_triangles};
use crate::{FitError, Obb};
use clash_math::{
    Matrix3, MomentSum, Point3, Scalar, Triangle, TriangleMoments, covariance_of_hull,
    covariance_of_moments, covariance_of_points, covariance_of_triangles,
    symmetric_eigen_closed_form, symmetric_eigen_closed_form_x2,
};

/// The eigenvectors of a covariance matrix (right-handed, orthonormal columns,
/// decreasing eigenvalue): the principal axes. Solved in closed form
/// ([`symmetric_eigen_closed_form`]), whose vectors are orthonormal and
/// right-handed to rounding by construction (normalised, then turned by an
/// exact rotation; the third is the cross product of the first two): fits
/// run once per tree node, and any orthonormal frame gives a valid box, so
/// the last digits of the axes matter less than speed.
pub(crate) fn principal_axes<T: Scalar>(cov: &Matrix3<T>) -> Matrix3<T> {
    symmetric_eigen_closed_form(cov).vectors
}

/// [`principal_axes`] of two covariance matrices, solved side by side
/// ([`symmetric_eigen_closed_form_x2`]).
pub(crate) fn principal_axes_x2<T: Scalar>(cov: [&Matrix3<T>; 2]) -> [Matrix3<T>; 2] {
    symmetric_eigen_closed_form_x2(cov).map(|e| e.vectors)
}

/// For one non-degenerate triangle: the frame of its smallest enclosing
/// rectangle (longest edge, the in-plane perpendicular, the unit normal).
/// The rectangle along the longest edge has area twice the triangle's, the
/// least of any rectangle holding it, since both angles on that edge are
/// acute. `None` for a degenerate triangle.
pub(crate) fn single_triangle_axes<T: Scalar>(t: &Triangle<T>) -> Option<Matrix3<T>> {
    let edges = [t.b - t.a, t.c - t.b, t.a - t.c];
    let mut x = edges[0];
    for e in &edges[1..] {
        if e.norm_squared() > x.norm_squared() {
            x = *e;
        }
    }
    let z = edges[0].cross(&edges[1]).try_normalize(T::ZERO)?;
    let y = z.cross(&x).try_normalize(T::ZERO)?;
    Some(Matrix3::from_columns(&[y.cross(&z), y, z]))
}

/// The axes of the default OBB and RSS fits of a lone triangle (a tree's
/// leaf): its longest edge, the in-plane perpendicular and the unit normal,
/// the frame of its smallest enclosing rectangle. `None` for a degenerate
/// triangle, whose fits take the principal axes of its corners.
pub fn lone_triangle_axes<T: Scalar>(t: &Triangle<T>) -> Option<Matrix3<T>> {
    single_triangle_axes(t)
}

/// The principal axes (right-handed, orthonormal columns, decreasing
/// variance) of triangles as a continuous distribution (Eberly §6.1.3)
/// given their moments summed about any origin ([`MomentSum`]): the axes
/// of [`Obb::fit_pca_triangles`] and [`Rss::fit_pca_triangles`] for two or
/// more triangles, up to rounding. `None` when the total area is zero or
/// not finite (the fits then take the checked path over the triangles).
///
/// [`Rss::fit_pca_triangles`]: crate::Rss::fit_pca_triangles
pub fn principal_axes_of_sum<T: Scalar>(sum: &MomentSum) -> Option<Matrix3<T>> {
    sum.covariance()
        .map(|c| principal_axes(&c.matrix.map(T::lit)))
}

/// [`principal_axes_of_sum`] of two sums, solved side by side (a tree
/// builder fits the two children of a node together): the solve is bound
/// by the latency of its square roots and divisions, and two independent
/// ones overlap.
pub fn principal_axes_of_sums<T: Scalar>(sums: [&MomentSum; 2]) -> [Option<Matrix3<T>>; 2] {
    let cov = MomentSum::covariance_x2(sums).map(|c| c.map(|c| c.matrix.map(T::lit)));
    let stand_in = Matrix3::identity();
    let axes = principal_axes_x2([
        cov[0].as_ref().unwrap_or(&stand_in),
        cov[1].as_ref().unwrap_or(&stand_in),
    ]);
    [cov[0].map(|_| axes[0]), cov[1].map(|_| axes[1])]
}

/// The axes [`Obb::fit_pca_triangles`] takes (a lone triangle's own frame,
/// else the principal axes of the continuous distribution, Eberly §6.1.3),
/// from the triangles' moments; `None` when the moments' total area is zero
/// or non-finite (degenerate or non-finite input), where the caller takes the
/// checked path over the triangles. The caller checks that the slices have
/// the same length.
pub(crate) fn pca_axes_of_moments<T: Scalar>(
    triangles: &[Triangle<T>],
    moments: &[TriangleMoments<T>],
) -> Option<Matrix3<T>> {
    debug_assert_eq!(triangles.len(), moments.len());
    if let ([t], [m]) = (triangles, moments) {
        // A non-finite corner makes the area non-finite (NaN or infinite).
        return if m.area > T::ZERO && m.area.finite() {
            single_triangle_axes(t)
        } else {
            None
        };
    }
    covariance_of_moments(moments).map(|c| principal_axes(&c.matrix))
}

/// The moment fits of OBBs and RSSs: checks that `moments` matches
/// `triangles`, then fits `along` the principal axes summed from the
/// moments, or takes `fallback` (the checked fit over the triangles) on
/// degenerate or non-finite input.
pub(crate) fn fit_with_moment_axes<T: Scalar, V>(
    triangles: &[Triangle<T>],
    moments: &[TriangleMoments<T>],
    along: impl FnOnce(&Matrix3<T>) -> V,
    fallback: impl FnOnce() -> Result<V, FitError>,
) -> Result<V, FitError> {
    crate::check::check_moments(triangles, moments)?;
    match pca_axes_of_moments(triangles, moments) {
        Some(axes) => Ok(along(&axes)),
        None => fallback(),
    }
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
