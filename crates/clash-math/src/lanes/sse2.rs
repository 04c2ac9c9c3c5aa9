//! [`F64x2`]: two `f64` lanes in one SSE2 register (part of the x86_64
//! baseline, so the module is compiled only where SSE2 is enabled).

use super::{Lanes, Pair};
use core::arch::x86_64::{
    __m128d, _mm_add_pd, _mm_and_pd, _mm_andnot_pd, _mm_cmpeq_pd, _mm_cmpge_pd, _mm_cmpgt_pd,
    _mm_cmplt_pd, _mm_cvtsd_f64, _mm_div_pd, _mm_max_pd, _mm_min_pd, _mm_movemask_pd, _mm_mul_pd,
    _mm_or_pd, _mm_set_pd, _mm_set1_pd, _mm_sqrt_pd, _mm_sub_pd, _mm_unpackhi_pd, _mm_xor_pd,
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

impl Lanes<f64> for F64x2 {
    type Mask = __m128d;
    const N: usize = 2;
    #[inline(always)]
    fn splat(x: f64) -> Self {
        // SAFETY: as in `add`.
        Self(unsafe { _mm_set1_pd(x) })
    }
    #[inline(always)]
    fn from_fn(mut f: impl FnMut(usize) -> f64) -> Self {
        let a = f(0);
        Self::new(a, f(1))
    }
    #[inline(always)]
    fn lane(self, l: usize) -> f64 {
        self.lanes()[l]
    }
    #[inline(always)]
    fn with_lane(self, l: usize, x: f64) -> Self {
        let mut v = self.lanes();
        v[l] = x;
        Self::new(v[0], v[1])
    }
    #[inline(always)]
    fn abs(self) -> Self {
        // SAFETY: as in `add`.
        Self(unsafe { _mm_andnot_pd(_mm_set1_pd(-0.0), self.0) })
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        // `sqrtpd` rounds correctly, as `sqrtsd` (f64::sqrt) does.
        // SAFETY: as in `add`.
        Self(unsafe { _mm_sqrt_pd(self.0) })
    }
    #[inline(always)]
    fn max_of(self, o: Self) -> Self {
        // `maxpd` returns its second operand unless the first is larger:
        // `if o > self { o } else { self }` is `max(o, self)` with o first.
        // SAFETY: as in `add`.
        Self(unsafe { _mm_max_pd(o.0, self.0) })
    }
    #[inline(always)]
    fn min_of(self, o: Self) -> Self {
        // `minpd` returns its second operand unless the first is smaller:
        // `if o < self { o } else { self }` is `min(o, self)` with o first.
        // SAFETY: as in `add`.
        Self(unsafe { _mm_min_pd(o.0, self.0) })
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
    fn and(m: __m128d, n: __m128d) -> __m128d {
        // SAFETY: as in `add`.
        unsafe { _mm_and_pd(m, n) }
    }
    #[inline(always)]
    fn or(m: __m128d, n: __m128d) -> __m128d {
        // SAFETY: as in `add`.
        unsafe { _mm_or_pd(m, n) }
    }
    #[inline(always)]
    fn all(m: __m128d) -> bool {
        Self::bits(m) == 3
    }
    #[inline(always)]
    fn any(m: __m128d) -> bool {
        Self::bits(m) != 0
    }
    #[inline(always)]
    fn flag(m: __m128d, l: usize) -> bool {
        Self::bits(m) & (1 << l) != 0
    }
    #[inline(always)]
    fn select(m: __m128d, a: Self, b: Self) -> Self {
        // (m & a) | (!m & b): the masks are all ones or all zeros per lane.
        // SAFETY: as in `add`.
        Self(unsafe { _mm_or_pd(_mm_and_pd(m, a.0), _mm_andnot_pd(m, b.0)) })
    }
}

impl F64x2 {
    /// Bit `l` set when lane `l` of the mask is.
    #[inline(always)]
    fn bits(m: __m128d) -> i32 {
        // SAFETY: as in `add`.
        unsafe { _mm_movemask_pd(m) }
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
