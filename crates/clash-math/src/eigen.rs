//! Eigen-decomposition of symmetric 3x3 matrices: by cyclic Jacobi rotations
//! (Ericson, RTCD §4.3.3), and in closed form for fitting, where speed
//! matters more than the last digits.

use crate::Scalar;
use nalgebra::{Matrix3, Vector3};

/// Eigenvalues and eigenvectors of a symmetric 3x3 matrix.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SymmetricEigen3<T: Scalar> {
    /// Eigenvalues in decreasing order: `values[0] >= values[1] >= values[2]`.
    pub values: Vector3<T>,
    /// Unit eigenvectors as columns, column `i` for `values[i]`; the columns form
    /// a right-handed orthonormal basis (determinant `+1`).
    pub vectors: Matrix3<T>,
    /// Number of Jacobi sweeps performed.
    pub sweeps: u32,
}

/// Largest number of cyclic sweeps. Jacobi converges quadratically; for 3x3
/// matrices 8–10 sweeps reach machine precision, the bound only guards
/// against non-finite input.
pub const MAX_SWEEPS: u32 = 50;

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

/// Eigen-decomposition of the symmetric matrix `m` (only its upper
/// triangle is read) in closed form: about five times faster than
/// [`jacobi_eigen`], for bounding-volume fits that run once per tree node.
///
/// The characteristic cubic is reduced as in the trigonometric solution
/// (Smith, "Eigenvalues of a symmetric 3 × 3 matrix", CACM 1961): with
/// `q` the mean eigenvalue and `b = m − qI` scaled to `‖b‖² = 6`, the roots
/// are `2 cos(φ + 2πk/3)` with `cos 3φ = det(b) / 2`. Only the root
/// farthest from the other two is computed, by a polynomial approximation
/// and one Newton step where the cubic is convex (no trigonometric
/// functions). Its eigenvector is the
/// largest cross product of two rows of `m − λI`; the other two
/// come from one exact Jacobi rotation (RTCD §4.3.3) of the 2x2 block of
/// `m` in the plane orthogonal to it, so repeated roots need no special
/// case. The vectors always form a right-handed orthonormal basis (to
/// rounding); near repeated roots the eigenvalues and vectors are accurate
/// to about `sqrt(ε)` relative to `|m|` rather than `ε` (use
/// [`jacobi_eigen`] when that matters). `sweeps` is 0. Non-finite input
/// gives the identity basis.
///
/// ```
/// use clash_math::{Matrix3, symmetric_eigen_closed_form};
/// let m = Matrix3::new(2.0_f64, 1.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 5.0);
/// let e = symmetric_eigen_closed_form(&m);
/// assert!((e.values - nalgebra::Vector3::new(5.0, 3.0, 1.0)).amax() < 1e-12);
/// assert!((m * e.vectors.column(1) - e.vectors.column(1) * 3.0).amax() < 1e-12);
/// ```
pub fn symmetric_eigen_closed_form<T: Scalar>(m: &Matrix3<T>) -> SymmetricEigen3<T> {
    let [e] = closed_form_lanes([m]);
    e
}

/// [`symmetric_eigen_closed_form`] of two matrices at once, each answer as
/// the single solve gives it. The solve is a chain of dependent square
/// roots and divisions (its latency, not its instruction count, bounds
/// it); two independent chains, written step by step side by side, keep
/// the processor busy during each other's waits. A tree builder solves the
/// two children of a node together.
pub fn symmetric_eigen_closed_form_x2<T: Scalar>(m: [&Matrix3<T>; 2]) -> [SymmetricEigen3<T>; 2] {
    closed_form_lanes(m)
}

/// The closed-form solve of [`symmetric_eigen_closed_form`] on `N`
/// independent matrices, step by step side by side (`N` is 1 or 2).
#[inline(always)]
fn closed_form_lanes<T: Scalar, const N: usize>(m: [&Matrix3<T>; N]) -> [SymmetricEigen3<T>; N] {
    let identity = |values: Vector3<T>| SymmetricEigen3 {
        values,
        vectors: Matrix3::identity(),
        sweeps: 0,
    };
    // Degenerate lanes (non-finite input, a multiple of the identity, no
    // eigenvector found) get their answer here and compute on the identity
    // matrix, whose steps stay finite, until the end.
    let mut special: [Option<SymmetricEigen3<T>>; N] = [None; N];
    // The upper triangle, on scalars.
    let mut upper: [[T; 6]; N] = m.map(|m| {
        [
            m[(0, 0)],
            m[(1, 1)],
            m[(2, 2)],
            m[(0, 1)],
            m[(0, 2)],
            m[(1, 2)],
        ]
    });
    let mut scale: [T; N] = upper.map(|u| u.iter().fold(T::ZERO, |s, x| s.max_of(x.abs())));
    let stand_in = [T::TWO, T::ONE, T::ZERO, T::ZERO, T::ZERO, T::ZERO];
    for l in 0..N {
        if !upper[l].iter().all(|x| x.finite()) || scale[l] == T::ZERO {
            special[l] = Some(identity(Vector3::repeat(T::ZERO)));
            (upper[l], scale[l]) = (stand_in, T::TWO);
        }
    }
    // Scaled, and shifted by the mean eigenvalue q: b = a / scale - q I.
    let inv = scale.map(|s| T::ONE / s);
    let a: [[T; 6]; N] = core::array::from_fn(|l| upper[l].map(|x| x * inv[l]));
    let q: [T; N] = core::array::from_fn(|l| (a[l][0] + a[l][1] + a[l][2]) / T::lit(3.0));
    let b: [[T; 3]; N] = core::array::from_fn(|l| [a[l][0] - q[l], a[l][1] - q[l], a[l][2] - q[l]]);
    let p: [T; N] = core::array::from_fn(|l| {
        let [a01, a02, a12] = [a[l][3], a[l][4], a[l][5]];
        let off = a01 * a01 + a02 * a02 + a12 * a12;
        let [b00, b11, b22] = b[l];
        ((b00 * b00 + b11 * b11 + b22 * b22 + T::TWO * off) / T::lit(6.0)).sqrt()
    });
    let mut p = p;
    let mut a = a;
    let mut b = b;
    let mut q = q;
    for l in 0..N {
        if p[l] == T::ZERO && special[l].is_none() {
            // a multiple of the identity: every basis is an eigenbasis
            special[l] = Some(identity(Vector3::repeat(q[l] * scale[l])));
            let s = stand_in.map(|x| x * T::HALF);
            a[l] = s;
            q[l] = (s[0] + s[1] + s[2]) / T::lit(3.0);
            b[l] = [s[0] - q[l], s[1] - q[l], s[2] - q[l]];
            p[l] =
                ((b[l][0] * b[l][0] + b[l][1] * b[l][1] + b[l][2] * b[l][2]) / T::lit(6.0)).sqrt();
        }
    }
    // The roots of det(λI - b/p) = λ³ - 3λ - 2r, with r = det(b / p) / 2
    // in [-1, 1], are 2 cos(φ + 2πk/3) with cos 3φ = r. The root farthest
    // from the other two (its eigenvector is well conditioned) is the
    // largest when r >= 0 and the smallest otherwise; it is ±λ₁, with λ₁
    // the largest root of λ³ - 3λ - 2|r|, which lies in [√3, 2] and is an
    // analytic function of |r| there: a degree-6 polynomial (least squares
    // on Chebyshev nodes) is within 1.6e-7 of it, and one Newton step (the
    // cubic is convex there with slope at least 6, so the error is at most
    // squared) brings that to rounding.
    let r: [T; N] = core::array::from_fn(|l| {
        let ip = T::ONE / p[l];
        let [b00, b11, b22] = b[l].map(|x| x * ip);
        let [c01, c02, c12] = [a[l][3] * ip, a[l][4] * ip, a[l][5] * ip];
        let det = b00 * (b11 * b22 - c12 * c12) - c01 * (c01 * b22 - c12 * c02)
            + c02 * (c01 * c12 - b11 * c02);
        (det * T::HALF).max_of(-T::ONE).min_of(T::ONE)
    });
    let isolated: [T; N] = core::array::from_fn(|l| {
        let s = r[l].abs();
        let c = [
            1.732_050_964_790_717_2,
            0.333_317_135_461_598_8,
            -0.095_947_340_067_394_54,
            0.047_539_947_854_410_32,
            -0.025_021_070_418_369_14,
            0.010_108_458_986_551_213,
            -0.002_048_215_263_233_847,
        ]
        .map(T::lit);
        // Estrin's scheme: fewer dependent steps than Horner's.
        let s2 = s * s;
        let s4 = s2 * s2;
        let mut root =
            (c[0] + c[1] * s) + (c[2] + c[3] * s) * s2 + ((c[4] + c[5] * s) + c[6] * s2) * s4;
        let three = T::lit(3.0);
        let f = root * root * root - three * root - T::TWO * s;
        root -= f / (three * root * root - three);
        if r[l] >= T::ZERO {
            q[l] + p[l] * root
        } else {
            q[l] - p[l] * root
        }
    });
    // Its eigenvector: the largest cross product of two rows of a - λI,
    // and a vector orthogonal to it (its cross product with x or y, from
    // the unnormalised one), normalised side by side.
    let cross: [(Vector3<T>, T); N] = core::array::from_fn(|l| {
        let [a00, a11, a22, a01, a02, a12] = a[l];
        let iso = isolated[l];
        let rows = [
            Vector3::new(a00 - iso, a01, a02),
            Vector3::new(a01, a11 - iso, a12),
            Vector3::new(a02, a12, a22 - iso),
        ];
        let mut v = rows[0].cross(&rows[1]);
        let mut best = v.norm_squared();
        for c in [rows[0].cross(&rows[2]), rows[1].cross(&rows[2])] {
            let n = c.norm_squared();
            if n > best {
                (v, best) = (c, n);
            }
        }
        (v, best)
    });
    for l in 0..N {
        // (NaN fails the comparison too.)
        let found = cross[l].1 > T::ZERO;
        if !found && special[l].is_none() {
            let other = (T::lit(3.0) * q[l] - isolated[l]) * T::HALF;
            let values = if r[l] >= T::ZERO {
                Vector3::new(isolated[l], other, other)
            } else {
                Vector3::new(other, other, isolated[l])
            };
            special[l] = Some(identity(values * scale[l]));
        }
    }
    // An orthonormal pair (u, w) spanning the plane orthogonal to v, then one
    // Jacobi rotation diagonalising the 2x2 block of a in that plane.
    let vuw: [(Vector3<T>, Vector3<T>, Vector3<T>); N] = core::array::from_fn(|l| {
        let (c, best) = cross[l];
        // v × (1, 0, 0) or v × (0, 1, 0), whichever is longer (|v.x| < 0.57).
        let u = if c.x * c.x < T::lit(0.57 * 0.57) * best {
            Vector3::new(T::ZERO, c.z, -c.y)
        } else {
            Vector3::new(-c.z, T::ZERO, c.x)
        };
        let nu = u.norm_squared();
        if best > T::ZERO && nu > T::ZERO {
            let (v, u) = (c / best.sqrt(), u / nu.sqrt());
            (v, u, v.cross(&u))
        } else {
            (Vector3::x(), Vector3::y(), Vector3::z())
        }
    });
    let block: [(T, T, T); N] = core::array::from_fn(|l| {
        let [a00, a11, a22, a01, a02, a12] = a[l];
        let times = |x: &Vector3<T>| {
            Vector3::new(
                a00 * x.x + a01 * x.y + a02 * x.z,
                a01 * x.x + a11 * x.y + a12 * x.z,
                a02 * x.x + a12 * x.y + a22 * x.z,
            )
        };
        let (_, u, w) = vuw[l];
        let (au, aw) = (times(&u), times(&w));
        (u.dot(&au), u.dot(&aw), w.dot(&aw))
    });
    let rotation: [(T, T, T); N] = core::array::from_fn(|l| {
        let (app, apq, aqq) = block[l];
        if apq == T::ZERO {
            (T::ONE, T::ZERO, T::ZERO)
        } else {
            let theta = (aqq - app) / (T::TWO * apq);
            let t = T::ONE / (theta.abs() + (T::ONE + theta * theta).sqrt());
            let t = if theta < T::ZERO { -t } else { t };
            let c = T::ONE / (T::ONE + t * t).sqrt();
            (c, t * c, t)
        }
    });
    core::array::from_fn(|l| {
        if let Some(e) = special[l] {
            return e;
        }
        let ((v, u, w), (app, apq, aqq), (c, s, t)) = (vuw[l], block[l], rotation[l]);
        let u2 = u * c - w * s;
        let w2 = u * s + w * c;
        // Sorted by decreasing value (three compare-and-swaps).
        let mut pairs = [(isolated[l], v), (app - t * apq, u2), (aqq + t * apq, w2)];
        for (i, j) in [(0, 1), (1, 2), (0, 1)] {
            if pairs[j].0 > pairs[i].0 {
                pairs.swap(i, j);
            }
        }
        let (x, y) = (pairs[0].1, pairs[1].1);
        SymmetricEigen3 {
            values: Vector3::new(pairs[0].0, pairs[1].0, pairs[2].0) * scale[l],
            vectors: Matrix3::from_columns(&[x, y, x.cross(&y)]),
            sweeps: 0,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    fn check(m: &Matrix3<f64>, tol: f64) {
        let e = jacobi_eigen(m);
        let scale = m.abs().max().max(1e-300);
        // orthonormal, right-handed
        let vtv = e.vectors.transpose() * e.vectors;
        assert!(
            (vtv - Matrix3::identity()).abs().max() < 1e-12,
            "{m} -> not orthonormal"
        );
        assert!((e.vectors.determinant() - 1.0).abs() < 1e-12);
        // sorted
        assert!(e.values[0] >= e.values[1] && e.values[1] >= e.values[2]);
        // A v = lambda v
        for i in 0..3 {
            let v = e.vectors.column(i);
            let r = m * v - v * e.values[i];
            assert!(r.norm() <= tol * scale, "residual {} for {m}", r.norm());
        }
        // agrees with nalgebra's SymmetricEigen
        let mut ref_vals: Vec<f64> = m.symmetric_eigen().eigenvalues.iter().copied().collect();
        ref_vals.sort_by(|a, b| b.partial_cmp(a).unwrap());
        for i in 0..3 {
            assert!(
                (ref_vals[i] - e.values[i]).abs() <= tol * scale,
                "{ref_vals:?} vs {}",
                e.values
            );
        }
    }

    /// The closed form against Jacobi (an independent solver): orthonormal
    /// right-handed vectors, sorted values within `tol * |m|`, and each
    /// vector an eigenvector to within `tol * |m|`.
    fn check_closed_form(m: &Matrix3<f64>, tol: f64) {
        let e = symmetric_eigen_closed_form(m);
        let j = jacobi_eigen(m);
        let scale = m.abs().max().max(1e-300);
        let vtv = e.vectors.transpose() * e.vectors;
        assert!(
            (vtv - Matrix3::identity()).abs().max() < 1e-12,
            "{m} -> not orthonormal"
        );
        assert!((e.vectors.determinant() - 1.0).abs() < 1e-12);
        assert!(e.values[0] >= e.values[1] && e.values[1] >= e.values[2]);
        for i in 0..3 {
            assert!(
                (e.values[i] - j.values[i]).abs() <= tol * scale,
                "{m:e}: {:e} vs jacobi {:e}",
                e.values,
                j.values
            );
            let v = e.vectors.column(i);
            let r = m * v - v * e.values[i];
            assert!(r.norm() <= tol * scale, "residual {} for {m}", r.norm());
        }
    }

    #[test]
    fn closed_form_random_matrices() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..20_000 {
            let b = Matrix3::from_fn(|_, _| rng.random_range(-10.0..10.0));
            check_closed_form(&(b + b.transpose()), 1e-9);
        }
    }

    /// Two matrices solved together give each the single solve's answer,
    /// bit for bit, whatever the other is (including the degenerate cases:
    /// non-finite, zero, a multiple of the identity).
    #[test]
    fn closed_form_pairs_match_single_solves() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let mut mats: Vec<Matrix3<f64>> = (0..40)
            .map(|_| {
                let b = Matrix3::from_fn(|_, _| rng.random_range(-10.0..10.0));
                b + b.transpose()
            })
            .collect();
        mats.extend([
            Matrix3::zeros(),
            Matrix3::identity() * 3.0,
            Matrix3::from_diagonal(&Vector3::new(3.0, -1.0, 3.0)),
            Matrix3::new(f64::NAN, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0),
            Matrix3::new(f64::INFINITY, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0),
        ]);
        let bits = |e: &SymmetricEigen3<f64>| {
            let mut v: Vec<u64> = e.values.iter().map(|x| x.to_bits()).collect();
            v.extend(e.vectors.iter().map(|x| x.to_bits()));
            v
        };
        for a in &mats {
            for b in &mats {
                let [ea, eb] = symmetric_eigen_closed_form_x2([a, b]);
                assert_eq!(bits(&ea), bits(&symmetric_eigen_closed_form(a)));
                assert_eq!(bits(&eb), bits(&symmetric_eigen_closed_form(b)));
            }
        }
    }

    #[test]
    fn closed_form_adversarial_matrices() {
        check_closed_form(&Matrix3::zeros(), 1e-12);
        check_closed_form(&Matrix3::identity(), 1e-12);
        check_closed_form(
            &Matrix3::from_diagonal(&Vector3::new(3.0, -1.0, 3.0)),
            1e-12,
        );
        for_each_scaled_matrix(4, |m| check_closed_form(m, 1e-7));
        // non-finite input: still an orthonormal basis, no panic
        for bad in [f64::NAN, f64::INFINITY] {
            let e = symmetric_eigen_closed_form(&Matrix3::new(
                bad, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0,
            ));
            assert_eq!(e.vectors, Matrix3::identity());
        }
        // f32
        let m = Matrix3::new(4.0_f32, 1.0, 2.0, 1.0, 3.0, 0.5, 2.0, 0.5, 1.0);
        let e = symmetric_eigen_closed_form(&m);
        for i in 0..3 {
            let v = e.vectors.column(i);
            assert!((m * v - v * e.values[i]).norm() < 1e-4);
        }
    }

    fn random_rotation(rng: &mut impl rand::Rng) -> Matrix3<f64> {
        let axis = Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        *nalgebra::Rotation3::new(axis * 3.0).matrix()
    }

    #[test]
    fn random_symmetric_matrices() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for _ in 0..20_000 {
            let b = Matrix3::from_fn(|_, _| rng.random_range(-10.0..10.0));
            check(&(b + b.transpose()), 1e-12);
        }
    }

    #[test]
    fn adversarial_matrices() {
        check(&Matrix3::zeros(), 1e-12);
        check(&Matrix3::identity(), 1e-12);
        check(
            &Matrix3::from_diagonal(&Vector3::new(3.0, -1.0, 3.0)),
            1e-12,
        );
        for_each_scaled_matrix(2, |m| check(m, 1e-12));
    }

    /// At scales from 1e-150 to 1e150: random rank-1 matrices and rotated
    /// diagonals with repeated (two and three equal), zero, nearly equal and
    /// tiny eigenvalues.
    fn for_each_scaled_matrix(seed: u64, mut f: impl FnMut(&Matrix3<f64>)) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for scale in [1e-150, 1e-30, 1e-6, 1.0, 1e6, 1e30, 1e150] {
            for _ in 0..200 {
                let r = random_rotation(&mut rng);
                let v = Vector3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                );
                f(&(v * v.transpose() * scale));
                for d in [
                    Vector3::new(2.0, 2.0, -1.0),
                    Vector3::new(1.0, 1.0, 1.0),
                    Vector3::new(5.0, 0.0, 0.0),
                    Vector3::new(1.0, 1e-9, 1e-9),
                    Vector3::new(1.0, 1.0 + 1e-9, 0.5),
                    Vector3::new(0.0, 1e-12, -1e-12),
                ] {
                    let m = r * Matrix3::from_diagonal(&(d * scale)) * r.transpose();
                    f(&((m + m.transpose()) * 0.5));
                }
            }
        }
    }

    #[test]
    fn f32_decomposition() {
        let m = Matrix3::new(4.0_f32, 1.0, 2.0, 1.0, 3.0, 0.5, 2.0, 0.5, 1.0);
        let e = jacobi_eigen(&m);
        for i in 0..3 {
            let v = e.vectors.column(i);
            assert!((m * v - v * e.values[i]).norm() < 1e-5);
        }
        assert!(e.sweeps <= 10);
    }

    #[test]
    fn non_finite_input_terminates() {
        let e = jacobi_eigen(&Matrix3::new(
            f64::NAN,
            1.0,
            0.0,
            1.0,
            1.0,
            0.0,
            0.0,
            0.0,
            1.0,
        ));
        assert!(e.sweeps <= MAX_SWEEPS);
        let e = jacobi_eigen(&Matrix3::new(
            f64::INFINITY,
            1.0,
            0.0,
            1.0,
            1.0,
            0.0,
            0.0,
            0.0,
            1.0,
        ));
        assert!(e.sweeps <= MAX_SWEEPS);
    }
}
