//! Covariance matrices of point sets, of triangle sets as continuous
//! area-weighted distributions, and of convex hulls (RTCD §4.3.3,
//! Eberly *Dynamic Collision Detection using OBBs* §6.1.2–6.1.3); the
//! triangle moments they can be summed from (`moments.rs`) and the moments
//! of a union (`moment_union.rs`).

mod moment_union;
mod moments;

pub use moments::{MomentSum, MomentsAbout, TriangleMoments, covariance_of_moments};

use crate::{MathError, Scalar, Triangle, hull::ConvexHull, point_is_finite};
use nalgebra::{Matrix3, Point3, Vector3};

/// The mean and covariance matrix of a distribution of points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Covariance<T: Scalar> {
    /// Mean (centre of mass) of the distribution.
    pub mean: Point3<T>,
    /// Covariance matrix about [`Self::mean`] (symmetric, positive semi-definite).
    pub matrix: Matrix3<T>,
}

fn check_points<T: Scalar>(points: &[Point3<T>]) -> Result<(), MathError> {
    if points.is_empty() {
        return Err(MathError::Empty);
    }
    match points.iter().position(|p| !point_is_finite(p)) {
        Some(index) => Err(MathError::NonFinite { index }),
        None => Ok(()),
    }
}

/// Covariance of a finite point set, each point with equal weight (RTCD §4.3.3).
///
/// Computed about a shifted origin (the first point) so that large
/// coordinates far from the origin lose no precision.
///
/// # Errors
/// [`MathError::Empty`] for no points, [`MathError::NonFinite`] for NaN/inf.
pub fn covariance_of_points<T: Scalar>(points: &[Point3<T>]) -> Result<Covariance<T>, MathError> {
    check_points(points)?;
    let origin = points[0];
    let inv_n = T::ONE / T::lit(points.len() as f64);
    let mut sum = Vector3::zeros();
    for p in points {
        sum += p - origin;
    }
    let mean_local = sum * inv_n;
    let mut m = Matrix3::zeros();
    for p in points {
        let d = (p - origin) - mean_local;
        m += d * d.transpose();
    }
    Ok(Covariance {
        mean: origin + mean_local,
        matrix: m * inv_n,
    })
}

/// Covariance of the surface of a triangle set, each triangle a uniform
/// distribution of mass over its area (Eberly §6.1.3, after Gottschalk's
/// OBBTree): for triangle `i` with corners `p, q, r`, area `A_i` and
/// centroid `m_i`,
/// `C = (1/A) Σ A_i/12 (9 m_i m_iᵀ + p pᵀ + q qᵀ + r rᵀ) − m mᵀ`.
///
/// The result does not depend on how a surface is cut into triangles, which
/// is why OBB trees fit with it. When the total area is zero (all triangles
/// degenerate), it falls back to [`covariance_of_points`] of the corners.
///
/// # Errors
/// [`MathError::Empty`] for no triangles, [`MathError::NonFinite`] for NaN/inf.
pub fn covariance_of_triangles<T: Scalar>(
    triangles: &[Triangle<T>],
) -> Result<Covariance<T>, MathError> {
    if triangles.is_empty() {
        return Err(MathError::Empty);
    }
    if let Some(index) = triangles.iter().position(|t| !t.is_finite()) {
        return Err(MathError::NonFinite { index });
    }
    let origin = triangles[0].a;
    let mut area_sum = T::ZERO;
    let mut mean_sum = Vector3::zeros();
    // The six distinct entries of the symmetric second-moment sum:
    // xx, yy, zz, xy, xz, yz.
    let mut second = [T::ZERO; 6];
    let third = T::ONE / T::lit(3.0);
    let twelfth = T::ONE / T::lit(12.0);
    for t in triangles {
        let (p, q, r) = (t.a - origin, t.b - origin, t.c - origin);
        let area = (q - p).cross(&(r - p)).norm() * T::HALF;
        let sum = p + q + r;
        let m = sum * third;
        area_sum += area;
        mean_sum += m * area;
        // 9 m mᵀ + p pᵀ + q qᵀ + r rᵀ, with 9 m mᵀ = sum sumᵀ.
        let w = area * twelfth;
        let entry = |i: usize, j: usize| sum[i] * sum[j] + p[i] * p[j] + q[i] * q[j] + r[i] * r[j];
        second[0] += entry(0, 0) * w;
        second[1] += entry(1, 1) * w;
        second[2] += entry(2, 2) * w;
        second[3] += entry(0, 1) * w;
        second[4] += entry(0, 2) * w;
        second[5] += entry(1, 2) * w;
    }
    let [xx, yy, zz, xy, xz, yz] = second;
    let second = Matrix3::new(xx, xy, xz, xy, yy, yz, xz, yz, zz);
    if area_sum <= T::ZERO || !area_sum.finite() {
        let corners: Vec<Point3<T>> = triangles.iter().flat_map(|t| t.vertices()).collect();
        return covariance_of_points(&corners);
    }
    let mean = mean_sum / area_sum;
    let mut matrix = second / area_sum - mean * mean.transpose();
    // Symmetrise against rounding.
    matrix = (matrix + matrix.transpose()) * T::HALF;
    Ok(Covariance {
        mean: origin + mean,
        matrix,
    })
}

/// Covariance of the convex hull of a point set (Eberly §6.1.2): the hull's
/// surface as a continuous distribution ([`covariance_of_triangles`] of the
/// hull faces), so interior points and uneven sampling of the surface do not
/// bias the axes. For flat or collinear sets, whose hull has no volume, the
/// hull vertices are used as points.
///
/// # Errors
/// [`MathError::Empty`] for no points, [`MathError::NonFinite`] for NaN/inf.
pub fn covariance_of_hull<T: Scalar>(points: &[Point3<T>]) -> Result<Covariance<T>, MathError> {
    check_points(points)?;
    covariance_of_convex_hull(&ConvexHull::new(points)?)
}

/// [`covariance_of_hull`] of a hull already built (fits that also need the
/// hull for other purposes build it once).
///
/// # Errors
/// [`MathError::Empty`] for a hull without vertices.
pub fn covariance_of_convex_hull<T: Scalar>(
    hull: &ConvexHull<T>,
) -> Result<Covariance<T>, MathError> {
    let faces = hull.triangles();
    if faces.is_empty() {
        covariance_of_points(hull.vertices())
    } else {
        covariance_of_triangles(&faces)
    }
}

#[cfg(test)]
mod tests;
