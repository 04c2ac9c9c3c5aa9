//! [`Pair`]: two scalars side by side, for tests that evaluate two
//! independent cases with the same expressions (SSE2 `f64x2` / `f32x4` on
//! x86_64, two plain lanes elsewhere).
//!
//! Each lane computes exactly what the scalar expression computes (IEEE
//! add, subtract, multiply, divide and square root round the same in a SIMD
//! lane; `abs` clears the sign bit and negation flips it; `max` and `min`
//! pick as the scalar comparisons do; comparisons are the scalar's, false
//! on NaN), so code written over `Pair` agrees bit for bit with the same
//! code over the scalar.

use core::ops::{Add, Div, Mul, Neg, Sub};

/// Two lanes of a [`crate::Scalar`]; see the module documentation.
pub trait Pair<T>:
    Copy
    + Send
    + Sync
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The lanes `(a, b)`.
    fn new(a: T, b: T) -> Self;
    /// Both lanes `x`.
    fn splat(x: T) -> Self;
    /// Lane-wise absolute value.
    fn abs(self) -> Self;
    /// Lane-wise maximum (NaN-free input assumed): `if other > self { other }
    /// else { self }` per lane, as [`crate::Scalar::max_of`].
    fn max(self, other: Self) -> Self;
    /// Lane-wise minimum (NaN-free input assumed): `if other < self { other }
    /// else { self }` per lane, as [`crate::Scalar::min_of`].
    fn min(self, other: Self) -> Self;
    /// Lane-wise square root (correctly rounded, as the scalar's).
    fn sqrt(self) -> Self;
    /// Lane-wise `x > 0`.
    fn positive(self) -> [bool; 2] {
        Self::mask_lanes(self.positive_mask())
    }
    /// The two lanes.
    fn lanes(self) -> [T; 2];
    /// One flag per lane, in the form the target compares into.
    type Mask: Copy;
    /// Lane-wise `x > 0` as a mask.
    fn positive_mask(self) -> Self::Mask;
    /// Lane-wise or of two masks.
    fn mask_or(m: Self::Mask, n: Self::Mask) -> Self::Mask;
    /// `true` when both lanes of the mask are set.
    fn mask_all(m: Self::Mask) -> bool;
    /// The mask's two flags.
    fn mask_lanes(m: Self::Mask) -> [bool; 2];
    /// Lane-wise `self > other` as a mask (false where either is NaN).
    fn gt_mask(self, other: Self) -> Self::Mask;
    /// Lane-wise `self >= other` as a mask (false where either is NaN).
    fn ge_mask(self, other: Self) -> Self::Mask;
    /// Lane-wise `self < other` as a mask (false where either is NaN).
    fn lt_mask(self, other: Self) -> Self::Mask;
    /// Lane-wise `self == other` as a mask (false where either is NaN;
    /// `0.0 == -0.0`).
    fn eq_mask(self, other: Self) -> Self::Mask;
    /// Lane-wise and of two masks.
    fn mask_and(m: Self::Mask, n: Self::Mask) -> Self::Mask;
    /// `true` when either lane of the mask is set.
    fn mask_any(m: Self::Mask) -> bool;
    /// Per lane, `a` where the mask is set and `b` elsewhere.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
}

/// Two lanes stored as an array: the portable form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArrayPair<T>(pub [T; 2]);

macro_rules! array_pair {
    ($t:ty) => {
        impl Add for ArrayPair<$t> {
            type Output = Self;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                Self([self.0[0] + o.0[0], self.0[1] + o.0[1]])
            }
        }
        impl Sub for ArrayPair<$t> {
            type Output = Self;
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                Self([self.0[0] - o.0[0], self.0[1] - o.0[1]])
            }
        }
        impl Mul for ArrayPair<$t> {
            type Output = Self;
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                Self([self.0[0] * o.0[0], self.0[1] * o.0[1]])
            }
        }
        impl Div for ArrayPair<$t> {
            type Output = Self;
            #[inline(always)]
            fn div(self, o: Self) -> Self {
                Self([self.0[0] / o.0[0], self.0[1] / o.0[1]])
            }
        }
        impl Neg for ArrayPair<$t> {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                Self([-self.0[0], -self.0[1]])
            }
        }
        impl Pair<$t> for ArrayPair<$t> {
            #[inline(always)]
            fn new(a: $t, b: $t) -> Self {
                Self([a, b])
            }
            #[inline(always)]
            fn splat(x: $t) -> Self {
                Self([x, x])
            }
            #[inline(always)]
            fn abs(self) -> Self {
                Self([self.0[0].abs(), self.0[1].abs()])
            }
            #[inline(always)]
            fn max(self, o: Self) -> Self {
                let m = |x: $t, y: $t| if y > x { y } else { x };
                Self([m(self.0[0], o.0[0]), m(self.0[1], o.0[1])])
            }
            #[inline(always)]
            fn min(self, o: Self) -> Self {
                let m = |x: $t, y: $t| if y < x { y } else { x };
                Self([m(self.0[0], o.0[0]), m(self.0[1], o.0[1])])
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                Self([self.0[0].sqrt(), self.0[1].sqrt()])
            }
            #[inline(always)]
            fn lanes(self) -> [$t; 2] {
                self.0
            }
            type Mask = [bool; 2];
            #[inline(always)]
            fn positive_mask(self) -> [bool; 2] {
                [self.0[0] > 0.0, self.0[1] > 0.0]
            }
            #[inline(always)]
            fn mask_or(m: [bool; 2], n: [bool; 2]) -> [bool; 2] {
                [m[0] | n[0], m[1] | n[1]]
            }
            #[inline(always)]
            fn mask_all(m: [bool; 2]) -> bool {
                m[0] & m[1]
            }
            #[inline(always)]
            fn mask_lanes(m: [bool; 2]) -> [bool; 2] {
                m
            }
            #[inline(always)]
            fn gt_mask(self, o: Self) -> [bool; 2] {
                [self.0[0] > o.0[0], self.0[1] > o.0[1]]
            }
            #[inline(always)]
            fn ge_mask(self, o: Self) -> [bool; 2] {
                [self.0[0] >= o.0[0], self.0[1] >= o.0[1]]
            }
            #[inline(always)]
            fn lt_mask(self, o: Self) -> [bool; 2] {
                [self.0[0] < o.0[0], self.0[1] < o.0[1]]
            }
            #[inline(always)]
            fn eq_mask(self, o: Self) -> [bool; 2] {
                [self.0[0] == o.0[0], self.0[1] == o.0[1]]
            }
            #[inline(always)]
            fn mask_and(m: [bool; 2], n: [bool; 2]) -> [bool; 2] {
                [m[0] & n[0], m[1] & n[1]]
            }
            #[inline(always)]
            fn mask_any(m: [bool; 2]) -> bool {
                m[0] | m[1]
            }
            #[inline(always)]
            fn select(m: [bool; 2], a: Self, b: Self) -> Self {
                Self([
                    if m[0] { a.0[0] } else { b.0[0] },
                    if m[1] { a.0[1] } else { b.0[1] },
                ])
            }
        }
    };
}
array_pair!(f32);
array_pair!(f64);

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use super::Pair;
    use core::arch::x86_64::{
        __m128d, _mm_add_pd, _mm_and_pd, _mm_andnot_pd, _mm_cmpeq_pd, _mm_cmpge_pd, _mm_cmpgt_pd,
        _mm_cmplt_pd, _mm_cvtsd_f64, _mm_div_pd, _mm_max_pd, _mm_min_pd, _mm_movemask_pd,
        _mm_mul_pd, _mm_or_pd, _mm_set_pd, _mm_set1_pd, _mm_setzero_pd, _mm_sqrt_pd, _mm_sub_pd,
        _mm_unpackhi_pd, _mm_xor_pd,
    };
    use core::ops::{Add, Div, Mul, Neg, Sub};

    /// Two `f64` lanes in one SSE2 register.
    #[derive(Clone, Copy, Debug)]
    pub struct F64x2(__m128d);

    impl Add for F64x2 {
        type Output = Self;
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            // SAFETY: SSE2 is enabled on this target (the module is compiled only
            // then); the intrinsic computes on registers and touches no memory.
            Self(unsafe { _mm_add_pd(self.0, o.0) })
        }
    }
    impl Sub for F64x2 {
        type Output = Self;
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            // SAFETY: as in `add`.
            Self(unsafe { _mm_sub_pd(self.0, o.0) })
        }
    }
    impl Mul for F64x2 {
        type Output = Self;
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            // SAFETY: as in `add`.
            Self(unsafe { _mm_mul_pd(self.0, o.0) })
        }
    }
    impl Div for F64x2 {
        type Output = Self;
        #[inline(always)]
        fn div(self, o: Self) -> Self {
            // `divpd` rounds correctly, as `divsd` (f64 division) does.
            // SAFETY: as in `add`.
            Self(unsafe { _mm_div_pd(self.0, o.0) })
        }
    }
    impl Neg for F64x2 {
        type Output = Self;
        #[inline(always)]
        fn neg(self) -> Self {
            // Flips the sign bit, as f64 negation does (NaN included).
            // SAFETY: as in `add`.
            Self(unsafe { _mm_xor_pd(self.0, _mm_set1_pd(-0.0)) })
        }
    }
    impl Pair<f64> for F64x2 {
        #[inline(always)]
        fn new(a: f64, b: f64) -> Self {
            // `_mm_set_pd` takes the high lane first.
            // SAFETY: as in `add`.
            Self(unsafe { _mm_set_pd(b, a) })
        }
        #[inline(always)]
        fn splat(x: f64) -> Self {
            // SAFETY: as in `add`.
            Self(unsafe { _mm_set1_pd(x) })
        }
        #[inline(always)]
        fn abs(self) -> Self {
            // SAFETY: as in `add`.
            Self(unsafe { _mm_andnot_pd(_mm_set1_pd(-0.0), self.0) })
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            // `maxpd` returns its second operand unless the first is larger:
            // `if o > self { o } else { self }` is `max(o, self)` with o first.
            // SAFETY: as in `add`.
            Self(unsafe { _mm_max_pd(o.0, self.0) })
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            // `minpd` returns its second operand unless the first is smaller:
            // `if o < self { o } else { self }` is `min(o, self)` with o first.
            // SAFETY: as in `add`.
            Self(unsafe { _mm_min_pd(o.0, self.0) })
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            // `sqrtpd` rounds correctly, as `sqrtsd` (f64::sqrt) does.
            // SAFETY: as in `add`.
            Self(unsafe { _mm_sqrt_pd(self.0) })
        }
        type Mask = __m128d;
        #[inline(always)]
        fn positive_mask(self) -> __m128d {
            // SAFETY: as in `add`.
            unsafe { _mm_cmpgt_pd(self.0, _mm_setzero_pd()) }
        }
        #[inline(always)]
        fn mask_or(m: __m128d, n: __m128d) -> __m128d {
            // SAFETY: as in `add`.
            unsafe { _mm_or_pd(m, n) }
        }
        #[inline(always)]
        fn mask_all(m: __m128d) -> bool {
            // SAFETY: as in `add`.
            unsafe { _mm_movemask_pd(m) == 3 }
        }
        #[inline(always)]
        fn mask_lanes(m: __m128d) -> [bool; 2] {
            // SAFETY: as in `add`.
            let bits = unsafe { _mm_movemask_pd(m) };
            [bits & 1 != 0, bits & 2 != 0]
        }
        #[inline(always)]
        fn gt_mask(self, o: Self) -> __m128d {
            // SAFETY: as in `add`.
            unsafe { _mm_cmpgt_pd(self.0, o.0) }
        }
        #[inline(always)]
        fn ge_mask(self, o: Self) -> __m128d {
            // SAFETY: as in `add`.
            unsafe { _mm_cmpge_pd(self.0, o.0) }
        }
        #[inline(always)]
        fn lt_mask(self, o: Self) -> __m128d {
            // SAFETY: as in `add`.
            unsafe { _mm_cmplt_pd(self.0, o.0) }
        }
        #[inline(always)]
        fn eq_mask(self, o: Self) -> __m128d {
            // SAFETY: as in `add`.
            unsafe { _mm_cmpeq_pd(self.0, o.0) }
        }
        #[inline(always)]
        fn mask_and(m: __m128d, n: __m128d) -> __m128d {
            // SAFETY: as in `add`.
            unsafe { _mm_and_pd(m, n) }
        }
        #[inline(always)]
        fn mask_any(m: __m128d) -> bool {
            // SAFETY: as in `add`.
            unsafe { _mm_movemask_pd(m) != 0 }
        }
        #[inline(always)]
        fn select(m: __m128d, a: Self, b: Self) -> Self {
            // (m & a) | (!m & b): the masks are all ones or all zeros per lane.
            // SAFETY: as in `add`.
            Self(unsafe { _mm_or_pd(_mm_and_pd(m, a.0), _mm_andnot_pd(m, b.0)) })
        }
        #[inline(always)]
        fn lanes(self) -> [f64; 2] {
            // SAFETY: as in `add`.
            unsafe {
                [
                    _mm_cvtsd_f64(self.0),
                    _mm_cvtsd_f64(_mm_unpackhi_pd(self.0, self.0)),
                ]
            }
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub use sse2::F64x2;

/// The pair type of `f64` on this target.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub type PairF64 = F64x2;
/// The pair type of `f64` on this target.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
pub type PairF64 = ArrayPair<f64>;

#[cfg(test)]
mod tests {
    use super::{ArrayPair, Pair, PairF64};

    /// Each lane of a pair computes exactly the scalar expression, including
    /// signed zeros, subnormals, infinities and huge values, for the target's
    /// `f64` pair (SSE2 on x86_64) and the portable array form.
    #[test]
    fn lanes_match_scalar_arithmetic() {
        let vals = [
            0.0,
            -0.0,
            1.0,
            -1.5,
            1e-310,
            -1e-310,
            3.0e300,
            -7.25e-300,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.1,
            2.0f64.sqrt(),
        ];
        fn check<P: Pair<f64>>(a: f64, b: f64, c: f64) {
            let bits = |x: P| x.lanes().map(f64::to_bits);
            let (p, q) = (P::new(a, b), P::new(c, a));
            assert_eq!(p.lanes().map(f64::to_bits), [a.to_bits(), b.to_bits()]);
            assert_eq!(P::splat(c).lanes().map(f64::to_bits), [c.to_bits(); 2]);
            assert_eq!(bits(p + q), [(a + c).to_bits(), (b + a).to_bits()]);
            assert_eq!(bits(p - q), [(a - c).to_bits(), (b - a).to_bits()]);
            assert_eq!(bits(p * q), [(a * c).to_bits(), (b * a).to_bits()]);
            let d = (p / q).lanes();
            for (got, want) in d.into_iter().zip([a / c, b / a]) {
                assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()));
            }
            assert_eq!(bits(p.abs()), [a.abs().to_bits(), b.abs().to_bits()]);
            let m = |x: f64, y: f64| if y > x { y } else { x };
            assert_eq!(bits(p.max(q)), [m(a, c).to_bits(), m(b, a).to_bits()]);
            let n = |x: f64, y: f64| if y < x { y } else { x };
            assert_eq!(bits(p.min(q)), [n(a, c).to_bits(), n(b, a).to_bits()]);
            let r = p.sqrt().lanes();
            for (got, x) in r.into_iter().zip([a, b]) {
                let want = x.sqrt();
                assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()));
            }
            assert_eq!(p.positive(), [a > 0.0, b > 0.0]);
            let (mp, mq) = (p.positive_mask(), q.positive_mask());
            let or = P::mask_lanes(P::mask_or(mp, mq));
            assert_eq!(or, [a > 0.0 || c > 0.0, b > 0.0 || a > 0.0]);
            assert_eq!(P::mask_all(mp), a > 0.0 && b > 0.0);
        }
        /// Division, negation, the comparisons and selection, NaN included
        /// (NaN results compared as NaN, their payload aside).
        fn check_more<P: Pair<f64>>(a: f64, b: f64, c: f64) {
            let same = |got: P, want: [f64; 2]| {
                for (g, w) in got.lanes().into_iter().zip(want) {
                    assert!(
                        g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
                        "{g:e} vs {w:e} for {a:e} {b:e} {c:e}"
                    );
                }
            };
            let (p, q) = (P::new(a, b), P::new(c, a));
            same(p / q, [a / c, b / a]);
            same(-p, [-a, -b]);
            assert_eq!(
                (-p).lanes().map(f64::to_bits),
                [(-a).to_bits(), (-b).to_bits()]
            );
            let lanes = P::mask_lanes;
            assert_eq!(lanes(p.gt_mask(q)), [a > c, b > a]);
            assert_eq!(lanes(p.ge_mask(q)), [a >= c, b >= a]);
            assert_eq!(lanes(p.lt_mask(q)), [a < c, b < a]);
            assert_eq!(lanes(p.eq_mask(q)), [a == c, b == a]);
            let (g, l) = (p.gt_mask(q), p.lt_mask(q));
            assert_eq!(lanes(P::mask_and(g, l)), [false, false]);
            assert_eq!(P::mask_any(g), a > c || b > a);
            assert_eq!(
                P::mask_lanes(P::mask_and(p.ge_mask(q), q.ge_mask(p))),
                [a == c, b == a]
            );
            let s = P::select(g, p, q).lanes().map(f64::to_bits);
            let want = [if a > c { a } else { c }, if b > a { b } else { a }];
            assert_eq!(s, want.map(f64::to_bits));
            let m = |x: f64, y: f64| if y > x { y } else { x };
            same(p.max(q), [m(a, c), m(b, a)]);
            let n = |x: f64, y: f64| if y < x { y } else { x };
            same(p.min(q), [n(a, c), n(b, a)]);
        }
        let more: Vec<f64> = vals.iter().copied().chain([f64::NAN, -2.0, 0.5]).collect();
        for &a in &more {
            for &b in &more {
                for &c in &more {
                    check_more::<PairF64>(a, b, c);
                    check_more::<ArrayPair<f64>>(a, b, c);
                }
            }
        }
        for &a in &vals {
            for &b in &vals {
                for &c in &vals {
                    check::<PairF64>(a, b, c);
                    check::<ArrayPair<f64>>(a, b, c);
                }
            }
        }
    }
}
