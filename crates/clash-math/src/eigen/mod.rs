//! Eigen-decomposition of symmetric 3x3 matrices: by cyclic Jacobi rotations
//! (Ericson, RTCD §4.3.3), and in closed form for fitting, where speed
//! matters more than the last digits.

use crate::{Pair, Scalar};
use core::ops::{Add, Div, Mul, Neg, Sub};
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
#[inline]
pub fn symmetric_eigen_closed_form_x2<T: Scalar>(m: [&Matrix3<T>; 2]) -> [SymmetricEigen3<T>; 2] {
    let [u0, u1] = m.map(upper_triangle);
    let upper = core::array::from_fn(|i| Two::<T>(T::Pair::new(u0[i], u1[i])));
    let (values, vectors) = closed_form::<T, Two<T>>(upper);
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

/// The arithmetic of the closed-form solve on one lane (the scalar itself)
/// or two (`Two`, the scalar's [`Pair`]). Every lane computes what the
/// scalar expression computes, bit for bit, so one code gives single and
/// paired solves alike.
trait Lanes<T: Scalar>:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// One flag per lane.
    type Mask: Copy;
    /// The number of lanes.
    const N: usize;
    /// Every lane `x`.
    fn splat(x: T) -> Self;
    /// Lane `l`.
    fn lane(self, l: usize) -> T;
    /// `self` with lane `l` replaced by `x`.
    fn with_lane(self, l: usize, x: T) -> Self;
    /// Lane-wise absolute value.
    fn abs(self) -> Self;
    /// Lane-wise square root.
    fn sqrt(self) -> Self;
    /// Lane-wise [`Scalar::max_of`].
    fn max_of(self, o: Self) -> Self;
    /// Lane-wise [`Scalar::min_of`].
    fn min_of(self, o: Self) -> Self;
    /// Lane-wise `self > o`.
    fn gt_mask(self, o: Self) -> Self::Mask;
    /// Lane-wise `self >= o`.
    fn ge_mask(self, o: Self) -> Self::Mask;
    /// Lane-wise `self < o`.
    fn lt_mask(self, o: Self) -> Self::Mask;
    /// Lane-wise `self == o`.
    fn eq_mask(self, o: Self) -> Self::Mask;
    /// Lane-wise and.
    fn and(m: Self::Mask, n: Self::Mask) -> Self::Mask;
    /// Every lane set.
    fn all(m: Self::Mask) -> bool;
    /// Some lane set.
    fn any(m: Self::Mask) -> bool;
    /// Lane `l` set.
    fn flag(m: Self::Mask, l: usize) -> bool;
    /// Per lane, `a` where `m` is set and `b` elsewhere.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
}

impl<T: Scalar> Lanes<T> for T {
    type Mask = bool;
    const N: usize = 1;
    #[inline(always)]
    fn splat(x: T) -> Self {
        x
    }
    #[inline(always)]
    fn lane(self, _: usize) -> T {
        self
    }
    #[inline(always)]
    fn with_lane(self, _: usize, x: T) -> Self {
        x
    }
    #[inline(always)]
    fn abs(self) -> Self {
        nalgebra::ComplexField::abs(self)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        nalgebra::ComplexField::sqrt(self)
    }
    #[inline(always)]
    fn max_of(self, o: Self) -> Self {
        Scalar::max_of(self, o)
    }
    #[inline(always)]
    fn min_of(self, o: Self) -> Self {
        Scalar::min_of(self, o)
    }
    #[inline(always)]
    fn gt_mask(self, o: Self) -> bool {
        self > o
    }
    #[inline(always)]
    fn ge_mask(self, o: Self) -> bool {
        self >= o
    }
    #[inline(always)]
    fn lt_mask(self, o: Self) -> bool {
        self < o
    }
    #[inline(always)]
    fn eq_mask(self, o: Self) -> bool {
        self == o
    }

    #[inline(always)]
    fn and(m: bool, n: bool) -> bool {
        m & n
    }
    #[inline(always)]
    fn all(m: bool) -> bool {
        m
    }
    #[inline(always)]
    fn any(m: bool) -> bool {
        m
    }
    #[inline(always)]
    fn flag(m: bool, _: usize) -> bool {
        m
    }
    #[inline(always)]
    fn select(m: bool, a: Self, b: Self) -> Self {
        if m { a } else { b }
    }
}

/// Two lanes: the scalar's [`Pair`].
#[derive(Clone, Copy)]
struct Two<T: Scalar>(T::Pair);

macro_rules! two_op {
    ($tr:ident, $f:ident) => {
        impl<T: Scalar> $tr for Two<T> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                Two($tr::$f(self.0, o.0))
            }
        }
    };
}
two_op!(Add, add);
two_op!(Sub, sub);
two_op!(Mul, mul);
two_op!(Div, div);

impl<T: Scalar> Neg for Two<T> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Two(-self.0)
    }
}

impl<T: Scalar> Lanes<T> for Two<T> {
    type Mask = <T::Pair as Pair<T>>::Mask;
    const N: usize = 2;
    #[inline(always)]
    fn splat(x: T) -> Self {
        Two(T::Pair::splat(x))
    }
    #[inline(always)]
    fn lane(self, l: usize) -> T {
        self.0.lanes()[l]
    }
    #[inline(always)]
    fn with_lane(self, l: usize, x: T) -> Self {
        let mut v = self.0.lanes();
        v[l] = x;
        Two(T::Pair::new(v[0], v[1]))
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Two(self.0.abs())
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Two(self.0.sqrt())
    }
    #[inline(always)]
    fn max_of(self, o: Self) -> Self {
        Two(self.0.max(o.0))
    }
    #[inline(always)]
    fn min_of(self, o: Self) -> Self {
        Two(self.0.min(o.0))
    }
    #[inline(always)]
    fn gt_mask(self, o: Self) -> Self::Mask {
        self.0.gt_mask(o.0)
    }
    #[inline(always)]
    fn ge_mask(self, o: Self) -> Self::Mask {
        self.0.ge_mask(o.0)
    }
    #[inline(always)]
    fn lt_mask(self, o: Self) -> Self::Mask {
        self.0.lt_mask(o.0)
    }
    #[inline(always)]
    fn eq_mask(self, o: Self) -> Self::Mask {
        self.0.eq_mask(o.0)
    }

    #[inline(always)]
    fn and(m: Self::Mask, n: Self::Mask) -> Self::Mask {
        T::Pair::mask_and(m, n)
    }
    #[inline(always)]
    fn all(m: Self::Mask) -> bool {
        T::Pair::mask_all(m)
    }
    #[inline(always)]
    fn any(m: Self::Mask) -> bool {
        T::Pair::mask_any(m)
    }
    #[inline(always)]
    fn flag(m: Self::Mask, l: usize) -> bool {
        T::Pair::mask_lanes(m)[l]
    }
    #[inline(always)]
    fn select(m: Self::Mask, a: Self, b: Self) -> Self {
        Two(T::Pair::select(m, a.0, b.0))
    }
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
        for a in &mats {
            for b in &mats {
                let [ea, eb] = symmetric_eigen_closed_form_x2([a, b]);
                assert_eq!(bits(&ea), bits(&symmetric_eigen_closed_form(a)));
                assert_eq!(bits(&eb), bits(&symmetric_eigen_closed_form(b)));
            }
        }
    }

    /// The answer's bits: eigenvalues, then the vectors column by column. A
    /// NaN counts as one value whatever its sign and payload (Rust leaves
    /// those unspecified; only a matrix whose largest entry is below about
    /// `1 / MAX`, where `1 / scale` overflows, has NaN eigenvalues).
    fn bits<T: Scalar>(e: &SymmetricEigen3<T>) -> Vec<u64> {
        let bits = |x: &T| {
            let x = x.to_f64();
            if x.is_nan() { u64::MAX } else { x.to_bits() }
        };
        e.values.iter().chain(e.vectors.iter()).map(bits).collect()
    }

    /// Adversarial matrices for the paired solve, in `T`: random ones, every
    /// case of [`for_each_scaled_matrix`] (repeated, zero and nearly equal
    /// eigenvalues, rank 1, scales 1e-150 to 1e150), the same diagonal
    /// (unrotated: the final rotation is the identity), multiples of the
    /// identity (zero, signed zero, tiny, subnormal, huge, negative), a
    /// subnormal and an overflowing scale, and a non-finite or extreme
    /// value in each entry of the upper triangle.
    fn paired_solve_matrices<T: Scalar>() -> Vec<Matrix3<T>> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
        let mut mats: Vec<Matrix3<f64>> = (0..30)
            .map(|_| {
                let b = Matrix3::from_fn(|_, _| rng.random_range(-10.0..10.0));
                b + b.transpose()
            })
            .collect();
        let mut scaled = Vec::new();
        for_each_scaled_matrix(5, |m| scaled.push(*m));
        // A sample of them (all 7 scales, every kind).
        mats.extend(scaled.iter().step_by(23));
        for d in [
            Vector3::new(2.0, 2.0, -1.0),
            Vector3::new(3.0, -1.0, 3.0),
            Vector3::new(-1.0, 3.0, 3.0),
            Vector3::new(5.0, 0.0, 0.0),
            Vector3::new(0.0, 0.0, -5.0),
            Vector3::new(1.0, 2.0, 3.0),
            Vector3::new(3.0, 2.0, 1.0),
            Vector3::new(1.0, 1.0 + 1e-15, 1.0),
        ] {
            for scale in [1e-300, 1e-150, 1.0, 1e150, 1e300] {
                mats.push(Matrix3::from_diagonal(&(d * scale)));
            }
        }
        for x in [0.0, -0.0, 1.0, -2.5, 1e-300, 1e-310, 1e300, f64::MAX] {
            mats.push(Matrix3::identity() * x);
        }
        // Largest entry subnormal (its reciprocal overflows), and entries
        // whose squares overflow unscaled.
        mats.push(Matrix3::repeat(1e-320));
        mats.push(Matrix3::new(
            1e308, 1e308, 0.0, 1e308, -1e308, 1e308, 0.0, 1e308, 1e308,
        ));
        let base = Matrix3::new(1.0, 0.5, 0.25, 0.5, 2.0, 0.125, 0.25, 0.125, 3.0);
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, 1e-310] {
            for (r, c) in [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)] {
                let mut m = base;
                m[(r, c)] = bad;
                m[(c, r)] = bad;
                mats.push(m);
            }
        }
        mats.into_iter().map(|m| m.map(T::lit)).collect()
    }

    /// [`closed_form_pairs_match_single_solves`] over every pair (both
    /// orders, and each matrix with itself) of [`paired_solve_matrices`],
    /// in `f64` (SSE2 lanes on x86_64) and `f32` (array lanes), so that
    /// every degenerate branch is taken by one lane with the other lane
    /// ordinary, degenerate in the same way, or degenerate in another way.
    #[test]
    fn closed_form_pairs_match_single_solves_adversarial() {
        fn run<T: Scalar>() {
            let mats = paired_solve_matrices::<T>();
            let single: Vec<_> = mats
                .iter()
                .map(|m| bits(&symmetric_eigen_closed_form(m)))
                .collect();
            for (a, sa) in mats.iter().zip(&single) {
                for (b, sb) in mats.iter().zip(&single) {
                    let [ea, eb] = symmetric_eigen_closed_form_x2([a, b]);
                    assert_eq!(&bits(&ea), sa, "{a:?} (with {b:?})");
                    assert_eq!(&bits(&eb), sb, "{b:?} (with {a:?})");
                }
            }
        }
        run::<f64>();
        run::<f32>();
    }

    /// The degenerate cases of the paired solve keep the single solve's
    /// answers: the identity basis (zero eigenvalues for non-finite input,
    /// the multiple for a multiple of the identity).
    #[test]
    fn closed_form_pairs_degenerate_answers() {
        let ordinary = Matrix3::new(4.0, 1.0, 2.0, 1.0, 3.0, 0.5, 2.0, 0.5, 1.0);
        let nan = Matrix3::new(f64::NAN, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        let flat = Matrix3::identity() * -2.5;
        for (m, values) in [
            (nan, Vector3::zeros()),
            (Matrix3::zeros(), Vector3::zeros()),
            (flat, Vector3::repeat(-2.5)),
        ] {
            for (pair, lane) in [([&m, &ordinary], 0), ([&ordinary, &m], 1)] {
                let e = symmetric_eigen_closed_form_x2(pair)[lane];
                assert_eq!(e.vectors, Matrix3::identity());
                assert_eq!(e.values, values);
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
