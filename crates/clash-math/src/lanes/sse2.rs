//! [`F64x2`]: two `f64` lanes in one SSE2 register (part of the x86_64
//! baseline, so the module is compiled only where SSE2 is enabled and its
//! values may be made anywhere).

use super::Pair;
use core::arch::x86_64::{
    __m128d, _mm_add_pd, _mm_and_pd, _mm_andnot_pd, _mm_cmpeq_pd, _mm_cmpge_pd, _mm_cmpgt_pd,
    _mm_cmplt_pd, _mm_div_pd, _mm_max_pd, _mm_min_pd, _mm_movemask_pd, _mm_mul_pd, _mm_or_pd,
    _mm_set_pd, _mm_set1_pd, _mm_sqrt_pd, _mm_sub_pd, _mm_xor_pd,
};

crate::simd_lanes! {
    /// Two `f64` lanes in one SSE2 register.
    pub struct F64x2(__m128d) of f64, 2;
    add: _mm_add_pd, sub: _mm_sub_pd, mul: _mm_mul_pd, div: _mm_div_pd,
    and: _mm_and_pd, andnot: _mm_andnot_pd, or: _mm_or_pd, xor: _mm_xor_pd,
    set1: _mm_set1_pd, sqrt: _mm_sqrt_pd, max: _mm_max_pd, min: _mm_min_pd,
    gt: _mm_cmpgt_pd, ge: _mm_cmpge_pd, lt: _mm_cmplt_pd, eq: _mm_cmpeq_pd,
    movemask: _mm_movemask_pd,
    // `_mm_set_pd` takes the highest lane first.
    set: |x| _mm_set_pd(x[1], x[0]),
}

impl Pair<f64> for F64x2 {
    #[inline(always)]
    fn new(a: f64, b: f64) -> Self {
        Self::from_array([a, b])
    }
    #[inline(always)]
    fn lanes(self) -> [f64; 2] {
        self.to_array()
    }
}
