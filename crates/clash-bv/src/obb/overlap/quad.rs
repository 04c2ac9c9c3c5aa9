//! The two-by-two OBB test ([`Obb::overlaps_relative_2x2`]) on four lanes,
//! one SIMD register per value: `f64` in AVX registers on CPUs that have
//! AVX (detected at run time: the crate is compiled for the baseline x86_64
//! target), `f32` in SSE registers (part of the baseline). The lane types
//! implement [`Lanes`] ([`clash_math::simd_lanes!`]).
//!
//! The four pairs `a[i]` × `b[j]` sit in lanes `2i + j`, and the placement
//! and the 15-axis SAT of the parent module run once over them instead of
//! twice over two lanes. SIMD adds, subtracts and multiplies round exactly
//! as scalar code (no fused multiply-add is enabled), so every lane decides
//! bit for bit as the one-pair test; the parent module's test checks it on
//! this machine's CPU, through both lane types.
//!
//! Soundness: the lane types are private to this module. [`F64x4`] values
//! are made only inside [`overlaps_2x2_f64`], compiled for AVX, whose
//! callers check `is_x86_feature_detected!("avx")` first, so its AVX
//! instructions run only on CPUs that have them; [`F32x4`] uses SSE, which
//! every x86_64 CPU has.
use super::{coordinate_magnitude, placed_lanes, relative_to_placed, sat_separated};
use crate::{Obb, RelativePose};
use clash_math::Scalar;
use clash_math::lanes::Lanes;
use core::arch::x86_64::{
    __m128, __m256d, _CMP_EQ_OQ, _CMP_GE_OQ, _CMP_GT_OQ, _CMP_LT_OQ, _mm_add_ps, _mm_and_ps,
    _mm_andnot_ps, _mm_cmpeq_ps, _mm_cmpge_ps, _mm_cmpgt_ps, _mm_cmplt_ps, _mm_div_ps, _mm_max_ps,
    _mm_min_ps, _mm_movemask_ps, _mm_mul_ps, _mm_or_ps, _mm_set_ps, _mm_set1_ps, _mm_sqrt_ps,
    _mm_sub_ps, _mm_xor_ps, _mm256_add_pd, _mm256_and_pd, _mm256_andnot_pd, _mm256_cmp_pd,
    _mm256_div_pd, _mm256_max_pd, _mm256_min_pd, _mm256_movemask_pd, _mm256_mul_pd, _mm256_or_pd,
    _mm256_set_pd, _mm256_set1_pd, _mm256_sqrt_pd, _mm256_sub_pd, _mm256_xor_pd,
};

clash_math::simd_lanes! {
    /// Four `f64` lanes in one AVX register.
    struct F64x4(__m256d) of f64, 4;
    add: _mm256_add_pd, sub: _mm256_sub_pd, mul: _mm256_mul_pd, div: _mm256_div_pd,
    and: _mm256_and_pd, andnot: _mm256_andnot_pd, or: _mm256_or_pd, xor: _mm256_xor_pd,
    set1: _mm256_set1_pd, sqrt: _mm256_sqrt_pd, max: _mm256_max_pd, min: _mm256_min_pd,
    gt: _mm256_cmp_pd::<_CMP_GT_OQ>, ge: _mm256_cmp_pd::<_CMP_GE_OQ>,
    lt: _mm256_cmp_pd::<_CMP_LT_OQ>, eq: _mm256_cmp_pd::<_CMP_EQ_OQ>,
    movemask: _mm256_movemask_pd,
    // The `set` intrinsics take the highest lane first.
    set: |x| _mm256_set_pd(x[3], x[2], x[1], x[0]),
}

clash_math::simd_lanes! {
    /// Four `f32` lanes in one SSE register.
    struct F32x4(__m128) of f32, 4;
    add: _mm_add_ps, sub: _mm_sub_ps, mul: _mm_mul_ps, div: _mm_div_ps,
    and: _mm_and_ps, andnot: _mm_andnot_ps, or: _mm_or_ps, xor: _mm_xor_ps,
    set1: _mm_set1_ps, sqrt: _mm_sqrt_ps, max: _mm_max_ps, min: _mm_min_ps,
    gt: _mm_cmpgt_ps, ge: _mm_cmpge_ps, lt: _mm_cmplt_ps, eq: _mm_cmpeq_ps,
    movemask: _mm_movemask_ps,
    set: |x| _mm_set_ps(x[3], x[2], x[1], x[0]),
}

/// The four pairs `a[i]` × `b[j]` in the lanes `2i + j` of `L`.
#[inline(always)]
fn overlaps_2x2<T: Scalar, L: Lanes<T>>(
    a: [&Obb<T>; 2],
    b: [&Obb<T>; 2],
    pose: &RelativePose<T>,
) -> [[bool; 2]; 2] {
    let (ai, bj) = ([a[0], a[0], a[1], a[1]], [b[0], b[1], b[0], b[1]]);
    // Written out rather than with `array::from_fn`, which the compiler
    // does not always inline into the AVX function (its lane constructors
    // would then be calls that cannot use AVX).
    let lanes = |o: [&Obb<T>; 4], f: &dyn Fn(&Obb<T>) -> T| {
        let x = [f(o[0]), f(o[1]), f(o[2]), f(o[3])];
        L::from_fn(|l| x[l])
    };
    let row = |o: [&Obb<T>; 4], r: usize| {
        [
            lanes(o, &|x| x.axes[(r, 0)]),
            lanes(o, &|x| x.axes[(r, 1)]),
            lanes(o, &|x| x.axes[(r, 2)]),
        ]
    };
    let axes = |o: [&Obb<T>; 4]| [row(o, 0), row(o, 1), row(o, 2)];
    let center = |o: [&Obb<T>; 4]| {
        [
            lanes(o, &|x| x.center[0]),
            lanes(o, &|x| x.center[1]),
            lanes(o, &|x| x.center[2]),
        ]
    };
    let half = |o: [&Obb<T>; 4]| {
        [
            lanes(o, &|x| x.half_extents[0]),
            lanes(o, &|x| x.half_extents[1]),
            lanes(o, &|x| x.half_extents[2]),
        ]
    };
    let (ca, cb) = (center(ai), center(bj));
    let (p, c) = placed_lanes::<T, L>(axes(bj), cb, pose);
    let (r, t) = relative_to_placed(axes(ai), ca, p, c);
    let coords = coordinate_magnitude::<T, L>(cb, pose.translation.amax());
    let sep = sat_separated::<T, L>(half(ai), half(bj), r, t, coords);
    let apart = |l: usize| !L::flag(sep, l);
    [[apart(0), apart(1)], [apart(2), apart(3)]]
}

/// [`Obb::overlaps_relative_2x2`] for `f64` boxes in four AVX lanes.
/// Callers compiled without AVX must check that the CPU has it
/// (`is_x86_feature_detected!("avx")`) before they call.
#[target_feature(enable = "avx")]
pub(super) fn overlaps_2x2_f64(
    a: [&Obb<f64>; 2],
    b: [&Obb<f64>; 2],
    pose: &RelativePose<f64>,
) -> [[bool; 2]; 2] {
    overlaps_2x2::<f64, F64x4>(a, b, pose)
}

/// [`Obb::overlaps_relative_2x2`] for `f32` boxes in four SSE lanes.
#[inline]
pub(super) fn overlaps_2x2_f32(
    a: [&Obb<f32>; 2],
    b: [&Obb<f32>; 2],
    pose: &RelativePose<f32>,
) -> [[bool; 2]; 2] {
    overlaps_2x2::<f32, F32x4>(a, b, pose)
}
