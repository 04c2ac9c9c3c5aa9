//! Cyclic Jacobi rotations (Ericson, RTCD §4.3.3): the accurate solver,
//! and the reference the closed form is tested against.

use super::{MAX_SWEEPS, SymmetricEigen3};
use crate::Scalar;
use nalgebra::{Matrix3, Vector3};

/// Eigen-decomposition of the symmetric matrix `m` (only its upper triangle
/// is read) by cyclic Jacobi rotations, RTCD §4.3.3.
///
/// Each rotation zeroes one off-diagonal element; sweeps over the three
/// pairs repeat until the off-diagonal mass is negligible relative to the
/// diagonal (or exactly zero), at most [`MAX_SWEEPS`] times. Repeated and zero
/// eigenvalues need no special care: the rotations leave an orthonormal basis
/// of the eigenspace. The result is sorted by decreasing eigenvalue and made
/// right-handed.
///
/// ```
/// use clash_math::{Matrix3, jacobi_eigen};
/// let m = Matrix3::new(2.0_f64, 1.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 5.0);
/// let e = jacobi_eigen(&m);
/// assert!((e.values[0] - 5.0).abs() < 1e-12);
/// assert!((e.values[1] - 3.0).abs() < 1e-12);
/// assert!((e.values[2] - 1.0).abs() < 1e-12);
/// ```
pub fn jacobi_eigen<T: Scalar>(m: &Matrix3<T>) -> SymmetricEigen3<T> {
    let mut a = Matrix3::from_fn(|r, c| if r <= c { m[(r, c)] } else { m[(c, r)] });
    // Work on a / max|a_ij| so that the squared off-diagonal mass neither
    // underflows (entries below ~1e-154 in f64 once looked converged at once)
    // nor overflows; the eigenvalues are scaled back at the end.
    let scale = a.amax();
    let scale = if scale.finite() && scale > T::ZERO {
        scale
    } else {
        T::ONE
    };
    a /= scale;
    let mut v = Matrix3::<T>::identity();
    let mut sweeps = 0;
    while sweeps < MAX_SWEEPS {
        let off = a[(0, 1)] * a[(0, 1)] + a[(0, 2)] * a[(0, 2)] + a[(1, 2)] * a[(1, 2)];
        let diag = a[(0, 0)] * a[(0, 0)] + a[(1, 1)] * a[(1, 1)] + a[(2, 2)] * a[(2, 2)];
        if !off.finite() || off <= diag * T::EPSILON * T::EPSILON {
            // Converged (this also stops on off == 0 and on NaN).
            break;
        }
        sweeps += 1;
        for (p, q) in [(0usize, 1usize), (0, 2), (1, 2)] {
            let apq = a[(p, q)];
            if apq == T::ZERO {
                continue;
            }
            // Symmetric Schur decomposition of the 2x2 block (RTCD §4.3.3).
            let theta = (a[(q, q)] - a[(p, p)]) / (T::TWO * apq);
            let t = if theta.finite() {
                let r = (T::ONE + theta * theta).sqrt();
                let t = T::ONE / (theta.abs() + if r.finite() { r } else { theta.abs() });
                if theta < T::ZERO { -t } else { t }
            } else {
                T::ZERO
            };
            let c = T::ONE / (T::ONE + t * t).sqrt();
            let s = t * c;
            // A <- J^T A J, V <- V J with J the rotation in the (p, q) plane.
            for k in 0..3 {
                let akp = a[(k, p)];
                let akq = a[(k, q)];
                a[(k, p)] = c * akp - s * akq;
                a[(k, q)] = s * akp + c * akq;
            }
            for k in 0..3 {
                let apk = a[(p, k)];
                let aqk = a[(q, k)];
                a[(p, k)] = c * apk - s * aqk;
                a[(q, k)] = s * apk + c * aqk;
            }
            for k in 0..3 {
                let vkp = v[(k, p)];
                let vkq = v[(k, q)];
                v[(k, p)] = c * vkp - s * vkq;
                v[(k, q)] = s * vkp + c * vkq;
            }
        }
    }
    let mut order = [0usize, 1, 2];
    let d = [a[(0, 0)], a[(1, 1)], a[(2, 2)]];
    order.sort_by(|&i, &j| {
        d[j].partial_cmp(&d[i])
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    let values = Vector3::new(d[order[0]], d[order[1]], d[order[2]]) * scale;
    let col = |i: usize| -> Vector3<T> { v.column(order[i]).into_owned() };
    let mut vectors = Matrix3::from_columns(&[col(0), col(1), col(2)]);
    if vectors.determinant() < T::ZERO {
        let c2: Vector3<T> = -vectors.column(2);
        vectors.set_column(2, &c2);
    }
    SymmetricEigen3 {
        values,
        vectors,
        sweeps,
    }
}
