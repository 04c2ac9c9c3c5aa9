//! The two-by-two OBB test ([`Obb::overlaps_relative_2x2`]) on four `f64`
//! lanes, one AVX register per value, for CPUs that have AVX (detected at
//! run time: the crate is compiled for the baseline x86_64 target).
//!
//! The four pairs `a[i]` × `b[j]` sit in lanes `2i + j`, and the placement
//! and the 15-axis SAT of the parent module run once over them instead of
//! twice over two lanes. AVX adds, subtracts and multiplies round exactly as
//! SSE2 and scalar code (no fused multiply-add is enabled), so every lane
//! decides bit for bit as the one-pair test; the parent module's test
//! checks it on this machine's CPU.
//!
//! Soundness: [`F64x4`] is private to this module and its values are made
//! only inside [`overlaps_2x2`], whose callers check
//! `is_x86_feature_detected!("avx")` first; so its AVX instructions run only
//! on CPUs that have them.
use super::{Lanes, placed_lanes, relative_to_placed, sat_separated};
use crate::{Obb, RelativePose};
use core::arch::x86_64::{
    __m256d, _CMP_GT_OQ, _mm256_add_pd, _mm256_andnot_pd, _mm256_cmp_pd, _mm256_max_pd,
    _mm256_movemask_pd, _mm256_mul_pd, _mm256_or_pd, _mm256_set_pd, _mm256_set1_pd,
    _mm256_setzero_pd, _mm256_sub_pd,
};
use core::ops::{Add, Mul, Sub};

/// Four `f64` lanes in one AVX register.
#[derive(Clone, Copy)]
struct F64x4(__m256d);

impl F64x4 {
    /// The lanes `(x0, x1, x2, x3)`.
    #[inline(always)]
    fn new(x: [f64; 4]) -> Self {
        // `_mm256_set_pd` takes the highest lane first.
        // SAFETY: F64x4 values are made only inside `overlaps_2x2`, which
        // runs after AVX was detected (module documentation); the intrinsic
        // computes on registers and touches no memory.
        Self(unsafe { _mm256_set_pd(x[3], x[2], x[1], x[0]) })
    }
}

impl Add for F64x4 {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // SAFETY: as in `F64x4::new`.
        Self(unsafe { _mm256_add_pd(self.0, o.0) })
    }
}

impl Sub for F64x4 {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        // SAFETY: as in `F64x4::new`.
        Self(unsafe { _mm256_sub_pd(self.0, o.0) })
    }
}

impl Mul for F64x4 {
    type Output = Self;
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        // SAFETY: as in `F64x4::new`.
        Self(unsafe { _mm256_mul_pd(self.0, o.0) })
    }
}

impl Lanes<f64> for F64x4 {
    type Mask = __m256d;
    #[inline(always)]
    fn splat(x: f64) -> Self {
        // SAFETY: as in `F64x4::new`.
        Self(unsafe { _mm256_set1_pd(x) })
    }
    #[inline(always)]
    fn abs(self) -> Self {
        // SAFETY: as in `F64x4::new`.
        Self(unsafe { _mm256_andnot_pd(_mm256_set1_pd(-0.0), self.0) })
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        // `vmaxpd` returns its second operand unless the first is larger, so
        // with `o` first this is `if o > self { o } else { self }`, the
        // scalar `max_of` (as in clash-math's SSE2 pair).
        // SAFETY: as in `F64x4::new`.
        Self(unsafe { _mm256_max_pd(o.0, self.0) })
    }
    #[inline(always)]
    fn positive(self) -> __m256d {
        // Ordered `>`: false for NaN, as the scalar comparison.
        // SAFETY: as in `F64x4::new`.
        unsafe { _mm256_cmp_pd::<_CMP_GT_OQ>(self.0, _mm256_setzero_pd()) }
    }
    #[inline(always)]
    fn or(m: __m256d, n: __m256d) -> __m256d {
        // SAFETY: as in `F64x4::new`.
        unsafe { _mm256_or_pd(m, n) }
    }
    #[inline(always)]
    fn all(m: __m256d) -> bool {
        // SAFETY: as in `F64x4::new`.
        unsafe { _mm256_movemask_pd(m) == 0b1111 }
    }
}

/// [`Obb::overlaps_relative_2x2`] for `f64` boxes, the four pairs in four
/// lanes: `[i][j]` is `a[i]` against `b[j]` placed by `pose`.
///
/// # Safety
/// The CPU must support AVX (`is_x86_feature_detected!("avx")`).
#[target_feature(enable = "avx")]
pub(super) unsafe fn overlaps_2x2(
    a: [&Obb<f64>; 2],
    b: [&Obb<f64>; 2],
    pose: &RelativePose<f64>,
) -> [[bool; 2]; 2] {
    // Lane k = 2i + j holds a[i] and b[j].
    let (ai, bj) = ([a[0], a[0], a[1], a[1]], [b[0], b[1], b[0], b[1]]);
    let lanes = |f: &dyn Fn(&Obb<f64>) -> f64, o: [&Obb<f64>; 4]| {
        F64x4::new([f(o[0]), f(o[1]), f(o[2]), f(o[3])])
    };
    let axes = |o: [&Obb<f64>; 4]| -> [[F64x4; 3]; 3] {
        core::array::from_fn(|r| core::array::from_fn(|c| lanes(&|x| x.axes[(r, c)], o)))
    };
    let center = |o: [&Obb<f64>; 4]| -> [F64x4; 3] {
        core::array::from_fn(|r| lanes(&|x| x.center[r], o))
    };
    let half = |o: [&Obb<f64>; 4]| -> [F64x4; 3] {
        core::array::from_fn(|r| lanes(&|x| x.half_extents[r], o))
    };
    let (p, c) = placed_lanes::<f64, F64x4>(axes(bj), center(bj), pose);
    let (r, t) = relative_to_placed(axes(ai), center(ai), p, c);
    let separated = sat_separated::<f64, F64x4>(half(ai), half(bj), r, t);
    let bits = _mm256_movemask_pd(separated);
    [
        [bits & 1 == 0, bits & 2 == 0],
        [bits & 4 == 0, bits & 8 == 0],
    ]
}
