//! The closed-form solve for fitting, where speed matters more than the
//! last digits: one matrix, or two side by side in the lanes of a
//! [`Pair`] (written once over [`Lanes`]).

use super::SymmetricEigen3;
use crate::Scalar;
use crate::lanes::{Lanes, Pair};
use nalgebra::{Matrix3, Vector3};

/// Eigen-decomposition of the symmetric matrix `m` (only its upper
/// triangle is read) in closed form: no iteration, so much cheaper than
/// [`jacobi_eigen`](super::jacobi_eigen), for bounding-volume fits that run once per tree node.
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
/// [`jacobi_eigen`](super::jacobi_eigen) when that matters). `sweeps` is 0. Non-finite input
/// gives the identity basis.
///
/// ```
/// use clash_math::{Matrix3, symmetric_eigen_closed_form};
/// let m = Matrix3::new(2.0_f64, 1.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 5.0);
/// let e = symmetric_eigen_closed_form(&m);
/// assert!((e.values - nalgebra::Vector3::new(5.0, 3.0, 1.0)).amax() < 1e-12);
/// assert!((m * e.vectors.column(1) - e.vectors.column(1) * 3.0).amax() < 1e-12);
/// ```
// Inlined so that a caller keeping only the vectors (a fit) drops the
// eigenvalues' last steps.
#[inline(always)]
pub fn symmetric_eigen_closed_form<T: Scalar>(m: &Matrix3<T>) -> SymmetricEigen3<T> {
    let (values, vectors) = closed_form::<T, T>(upper_triangle(m));
    SymmetricEigen3 {
        values: Vector3::from(values),
        vectors: Matrix3::from_fn(|r, c| vectors[c][r]),
        sweeps: 0,
    }
}

/// [`symmetric_eigen_closed_form`] of two matrices at once, each answer as
/// the single solve gives it, bit for bit: the same steps run on the two
/// matrices in the lanes of the scalar's [`Pair`](crate::Pair) (one SSE2
/// register per value for `f64` on x86_64), whose arithmetic rounds as the
/// scalar's does. A tree builder solves the two children of a node
/// together.
// Internal to the clash crates: clash-bv's paired fits solve through it.
#[doc(hidden)]
#[inline]
pub fn symmetric_eigen_closed_form_x2<T: Scalar>(m: [&Matrix3<T>; 2]) -> [SymmetricEigen3<T>; 2] {
    let [u0, u1] = m.map(upper_triangle);
    let upper = core::array::from_fn(|i| T::Pair::new(u0[i], u1[i]));
    let (values, vectors) = closed_form::<T, T::Pair>(upper);
    let solve = |l: usize| SymmetricEigen3 {
        values: Vector3::from_fn(|i, _| values[i].lane(l)),
        vectors: Matrix3::from_fn(|r, c| vectors[c][r].lane(l)),
        sweeps: 0,
    };
    [solve(0), solve(1)]
}

/// The upper triangle of `m`: `[m00, m11, m22, m01, m02, m12]`.
#[inline(always)]
fn upper_triangle<T: Scalar>(m: &Matrix3<T>) -> [T; 6] {
    [
        m[(0, 0)],
        m[(1, 1)],
        m[(2, 2)],
        m[(0, 1)],
        m[(0, 2)],
        m[(1, 2)],
    ]
}

/// `a × b`, in nalgebra's order of operations.
#[inline(always)]
fn cross<T: Scalar, L: Lanes<T>>(a: [L; 3], b: [L; 3]) -> [L; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `a · b`, in nalgebra's order of operations (so `dot(a, a)` is nalgebra's
/// `norm_squared`, which adds the sum to `+0`: no change, a sum of squares
/// is never `-0`).
#[inline(always)]
fn dot<T: Scalar, L: Lanes<T>>(a: [L; 3], b: [L; 3]) -> L {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The closed-form solve of [`symmetric_eigen_closed_form`] on the upper
/// triangles `[m00, m11, m22, m01, m02, m12]` of one or two matrices (the
/// lanes of `L`): the eigenvalues, sorted, and the eigenvectors as columns
/// (`vectors[i]` for `values[i]`). Every step is the same expression in
/// every lane; degenerate lanes are patched one by one on branches that
/// the usual input never takes.
#[inline(always)]
fn closed_form<T: Scalar, L: Lanes<T>>(mut upper: [L; 6]) -> ([L; 3], [[L; 3]; 3]) {
    let k = L::splat;
    let (zero, one, two, half, three) =
        (k(T::ZERO), k(T::ONE), k(T::TWO), k(T::HALF), k(T::lit(3.0)));
    // Degenerate lanes (non-finite input, a multiple of the identity, no
    // eigenvector found) get their eigenvalues here (their vectors are the
    // identity) and compute on a stand-in matrix, whose steps stay finite,
    // until the end.
    let mut special: [Option<Vector3<T>>; 2] = [None; 2];
    let stand_in = [T::TWO, T::ONE, T::ZERO, T::ZERO, T::ZERO, T::ZERO];
    let mut scale = upper.iter().fold(zero, |s, x| s.max_of(x.abs()));
    // `0 x` is ±0 for finite `x` and NaN otherwise; `scale` is never NaN.
    let finite = upper.iter().fold(zero, |s, &x| s + zero * x).eq_mask(zero);
    let usable = L::and(finite, scale.gt_mask(zero));
    if !L::all(usable) {
        for l in (0..L::N).filter(|&l| !L::flag(usable, l)) {
            special[l] = Some(Vector3::repeat(T::ZERO));
            for (u, s) in upper.iter_mut().zip(stand_in) {
                *u = u.with_lane(l, s);
            }
            scale = scale.with_lane(l, T::TWO);
        }
    }
    // Scaled, and shifted by the mean eigenvalue q: b = a / scale - q I.
    let inv = one / scale;
    let mut a = upper.map(|x| x * inv);
    let mut q = (a[0] + a[1] + a[2]) / three;
    let mut b = [a[0] - q, a[1] - q, a[2] - q];
    let mut p = {
        let off = a[3] * a[3] + a[4] * a[4] + a[5] * a[5];
        let [b00, b11, b22] = b;
        ((b00 * b00 + b11 * b11 + b22 * b22 + two * off) / k(T::lit(6.0))).sqrt()
    };
    let flat = p.eq_mask(zero);
    if L::any(flat) {
        for l in (0..L::N).filter(|&l| L::flag(flat, l)) {
            if special[l].is_some() {
                continue;
            }
            // a multiple of the identity: every basis is an eigenbasis
            special[l] = Some(Vector3::repeat(q.lane(l) * scale.lane(l)));
            let s = stand_in.map(|x| x * T::HALF);
            let ql = (s[0] + s[1] + s[2]) / T::lit(3.0);
            let bl = [s[0] - ql, s[1] - ql, s[2] - ql];
            let pl = ((bl[0] * bl[0] + bl[1] * bl[1] + bl[2] * bl[2]) / T::lit(6.0)).sqrt();
            for (x, s) in a.iter_mut().zip(s) {
                *x = x.with_lane(l, s);
            }
            for (x, s) in b.iter_mut().zip(bl) {
                *x = x.with_lane(l, s);
            }
            (q, p) = (q.with_lane(l, ql), p.with_lane(l, pl));
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
    let r = {
        let ip = one / p;
        let [b00, b11, b22] = b.map(|x| x * ip);
        let [c01, c02, c12] = [a[3] * ip, a[4] * ip, a[5] * ip];
        let det = b00 * (b11 * b22 - c12 * c12) - c01 * (c01 * b22 - c12 * c02)
            + c02 * (c01 * c12 - b11 * c02);
        (det * half).max_of(k(-T::ONE)).min_of(one)
    };
    let isolated = {
        let s = r.abs();
        let c = [
            1.732_050_964_790_717_2,
            0.333_317_135_461_598_8,
            -0.095_947_340_067_394_54,
            0.047_539_947_854_410_32,
            -0.025_021_070_418_369_14,
            0.010_108_458_986_551_213,
            -0.002_048_215_263_233_847,
        ]
        .map(|c| k(T::lit(c)));
        // Estrin's scheme: fewer dependent steps than Horner's.
        let s2 = s * s;
        let s4 = s2 * s2;
        let root =
            (c[0] + c[1] * s) + (c[2] + c[3] * s) * s2 + ((c[4] + c[5] * s) + c[6] * s2) * s4;
        let f = root * root * root - three * root - two * s;
        let root = root - f / (three * root * root - three);
        L::select(r.ge_mask(zero), q + p * root, q - p * root)
    };
    // Its eigenvector: the largest cross product of two rows of a - λI.
    let [a00, a11, a22, a01, a02, a12] = a;
    let rows = [
        [a00 - isolated, a01, a02],
        [a01, a11 - isolated, a12],
        [a02, a12, a22 - isolated],
    ];
    let mut v = cross(rows[0], rows[1]);
    let mut best = dot(v, v);
    for c in [cross(rows[0], rows[2]), cross(rows[1], rows[2])] {
        let n = dot(c, c);
        let longer = n.gt_mask(best);
        v = [0, 1, 2].map(|i| L::select(longer, c[i], v[i]));
        best = L::select(longer, n, best);
    }
    // (NaN fails the comparison too.)
    let found = best.gt_mask(zero);
    if !L::all(found) {
        for l in (0..L::N).filter(|&l| !L::flag(found, l)) {
            if special[l].is_some() {
                continue;
            }
            let (iso, ql) = (isolated.lane(l), q.lane(l));
            let other = (T::lit(3.0) * ql - iso) * T::HALF;
            let values = if r.lane(l) >= T::ZERO {
                Vector3::new(iso, other, other)
            } else {
                Vector3::new(other, other, iso)
            };
            special[l] = Some(values * scale.lane(l));
        }
    }
    // A vector orthogonal to v: v × (1, 0, 0) or v × (0, 1, 0), whichever
    // is longer (|v.x| < 0.57); both normalised side by side, and the
    // third of the orthonormal basis (v, u, w).
    let along_x = (v[0] * v[0]).lt_mask(k(T::lit(0.57 * 0.57)) * best);
    let u = [
        L::select(along_x, zero, -v[2]),
        L::select(along_x, v[2], zero),
        L::select(along_x, -v[1], v[0]),
    ];
    let nu = dot(u, u);
    let unit = L::and(best.gt_mask(zero), nu.gt_mask(zero));
    let (lv, lu) = (best.sqrt(), nu.sqrt());
    let mut v = v.map(|x| x / lv);
    let mut u = u.map(|x| x / lu);
    let mut w = cross(v, u);
    if !L::all(unit) {
        for l in (0..L::N).filter(|&l| !L::flag(unit, l)) {
            let e = |i: usize, j: usize| if i == j { T::ONE } else { T::ZERO };
            for i in 0..3 {
                v[i] = v[i].with_lane(l, e(i, 0));
                u[i] = u[i].with_lane(l, e(i, 1));
                w[i] = w[i].with_lane(l, e(i, 2));
            }
        }
    }
    // One Jacobi rotation diagonalising the 2x2 block of a in the plane
    // (u, w).
    let times = |x: [L; 3]| {
        [
            a00 * x[0] + a01 * x[1] + a02 * x[2],
            a01 * x[0] + a11 * x[1] + a12 * x[2],
            a02 * x[0] + a12 * x[1] + a22 * x[2],
        ]
    };
    let (au, aw) = (times(u), times(w));
    let (app, apq, aqq) = (dot(u, au), dot(u, aw), dot(w, aw));
    let (cos, sin, t) = {
        let theta = (aqq - app) / (two * apq);
        let t = one / (theta.abs() + (one + theta * theta).sqrt());
        let t = L::select(theta.lt_mask(zero), -t, t);
        let c = one / (one + t * t).sqrt();
        let diagonal = apq.eq_mask(zero);
        if L::any(diagonal) {
            (
                L::select(diagonal, one, c),
                L::select(diagonal, zero, t * c),
                L::select(diagonal, zero, t),
            )
        } else {
            (c, t * c, t)
        }
    };
    let u2 = [0, 1, 2].map(|i| u[i] * cos - w[i] * sin);
    let w2 = [0, 1, 2].map(|i| u[i] * sin + w[i] * cos);
    // Sorted by decreasing value (three compare-and-swaps).
    let mut values = [isolated, app - t * apq, aqq + t * apq];
    let mut vectors = [v, u2, w2];
    for (i, j) in [(0, 1), (1, 2), (0, 1)] {
        let swap = values[j].gt_mask(values[i]);
        let (vi, vj) = (values[i], values[j]);
        values[i] = L::select(swap, vj, vi);
        values[j] = L::select(swap, vi, vj);
        let (xi, xj) = (vectors[i], vectors[j]);
        vectors[i] = [0, 1, 2].map(|r| L::select(swap, xj[r], xi[r]));
        vectors[j] = [0, 1, 2].map(|r| L::select(swap, xi[r], xj[r]));
    }
    vectors[2] = cross(vectors[0], vectors[1]);
    let mut values = values.map(|x| x * scale);
    for (l, e) in special.into_iter().enumerate() {
        if let Some(e) = e {
            for i in 0..3 {
                values[i] = values[i].with_lane(l, e[i]);
                for (r, x) in vectors[i].iter_mut().enumerate() {
                    *x = x.with_lane(l, if r == i { T::ONE } else { T::ZERO });
                }
            }
        }
    }
    (values, vectors)
}
