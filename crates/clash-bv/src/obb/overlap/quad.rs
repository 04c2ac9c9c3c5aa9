//! The two-by-two OBB test ([`Obb::overlaps_relative_2x2`]) on four lanes,
//! one SIMD register per value: `f64` in AVX registers on CPUs that have
//! AVX (detected at run time: the crate is compiled for the baseline x86_64
//! target), `f32` in SSE registers (part of the baseline).
//!
//! The four pairs `a[i]` × `b[j]` sit in lanes `2i + j`, and the placement
//! and the 15-axis SAT of the parent module run once over them instead of
//! twice over two lanes. SIMD adds, subtracts and multiplies round exactly
//! as scalar code (no fused multiply-add is enabled), so every lane decides
//! bit for bit as the one-pair test; the parent module's test checks it on
//! this machine's CPU, through both lane types.
//!
//! Soundness: the lane types are private to this module. [`F64x4`] values
//! are made only inside [`overlaps_2x2_f64`], whose callers check
//! `is_x86_feature_detected!("avx")` first, so its AVX instructions run only
//! on CPUs that have them; [`F32x4`] uses SSE, which every x86_64 CPU has.
use super::{Lanes, coordinate_magnitude, placed_lanes, relative_to_placed, sat_separated};
use crate::{Obb, RelativePose};
use clash_math::Scalar;
use core::arch::x86_64::{
    __m128, __m256d, _CMP_GT_OQ, _mm_add_ps, _mm_andnot_ps, _mm_cmpgt_ps, _mm_max_ps,
    _mm_movemask_ps, _mm_mul_ps, _mm_or_ps, _mm_set_ps, _mm_set1_ps, _mm_setzero_ps, _mm_sub_ps,
    _mm256_add_pd, _mm256_andnot_pd, _mm256_cmp_pd, _mm256_max_pd, _mm256_movemask_pd,
    _mm256_mul_pd, _mm256_or_pd, _mm256_set_pd, _mm256_set1_pd, _mm256_setzero_pd, _mm256_sub_pd,
};
use core::ops::{Add, Mul, Sub};

/// Four lanes of `T` with a constructor and the lanes' flags as bits.
trait Quad<T: Scalar>: Lanes<T> {
    /// The lanes `(x0, x1, x2, x3)`.
    fn new(x: [T; 4]) -> Self;
    /// Bit `k` set when lane `k` of the mask is.
    fn bits(m: Self::Mask) -> i32;
}

/// Implements a four-lane type over one register type. `$unsafe_note` is
/// the SAFETY argument of every intrinsic call.
macro_rules! quad {
    ($name:ident, $t:ty, $reg:ty, $doc:literal,
     set: $set:ident, set1: $set1:ident, add: $add:ident, sub: $sub:ident, mul: $mul:ident,
     andnot: $andnot:ident, max: $max:ident, gt: $gt:expr, or: $or:ident, movemask: $movemask:ident) => {
        #[doc = $doc]
        #[derive(Clone, Copy)]
        struct $name($reg);

        impl Add for $name {
            type Output = Self;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                // SAFETY: see the module documentation (lane values exist
                // only where their instruction set is available); the
                // intrinsic computes on registers and touches no memory.
                Self(unsafe { $add(self.0, o.0) })
            }
        }
        impl Sub for $name {
            type Output = Self;
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                // SAFETY: as in `add`.
                Self(unsafe { $sub(self.0, o.0) })
            }
        }
        impl Mul for $name {
            type Output = Self;
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                // SAFETY: as in `add`.
                Self(unsafe { $mul(self.0, o.0) })
            }
        }
        impl Lanes<$t> for $name {
            type Mask = $reg;
            #[inline(always)]
            fn splat(x: $t) -> Self {
                // SAFETY: as in `add`.
                Self(unsafe { $set1(x) })
            }
            #[inline(always)]
            fn abs(self) -> Self {
                // SAFETY: as in `add`.
                Self(unsafe { $andnot($set1(-0.0), self.0) })
            }
            #[inline(always)]
            fn max(self, o: Self) -> Self {
                // `max` returns its second operand unless the first is
                // larger, so with `o` first this is `if o > self { o } else
                // { self }`, the scalar `max_of` (as in clash-math's pair).
                // SAFETY: as in `add`.
                Self(unsafe { $max(o.0, self.0) })
            }
            #[inline(always)]
            fn positive(self) -> $reg {
                // Ordered `>`: false for NaN, as the scalar comparison.
                // SAFETY: as in `add`.
                unsafe { ($gt)(self.0) }
            }
            #[inline(always)]
            fn or(m: $reg, n: $reg) -> $reg {
                // SAFETY: as in `add`.
                unsafe { $or(m, n) }
            }
            #[inline(always)]
            fn all(m: $reg) -> bool {
                // SAFETY: as in `add`.
                unsafe { $movemask(m) == 0b1111 }
            }
        }
        impl Quad<$t> for $name {
            #[inline(always)]
            fn new(x: [$t; 4]) -> Self {
                // The `set` intrinsics take the highest lane first.
                // SAFETY: as in `add`.
                Self(unsafe { $set(x[3], x[2], x[1], x[0]) })
            }
            #[inline(always)]
            fn bits(m: $reg) -> i32 {
                // SAFETY: as in `add`.
                unsafe { $movemask(m) }
            }
        }
    };
}

quad!(F64x4, f64, __m256d, "Four `f64` lanes in one AVX register.",
    set: _mm256_set_pd, set1: _mm256_set1_pd, add: _mm256_add_pd, sub: _mm256_sub_pd,
    mul: _mm256_mul_pd, andnot: _mm256_andnot_pd, max: _mm256_max_pd,
    gt: |x| _mm256_cmp_pd::<_CMP_GT_OQ>(x, _mm256_setzero_pd()), or: _mm256_or_pd,
    movemask: _mm256_movemask_pd);

quad!(F32x4, f32, __m128, "Four `f32` lanes in one SSE register.",
    set: _mm_set_ps, set1: _mm_set1_ps, add: _mm_add_ps, sub: _mm_sub_ps,
    mul: _mm_mul_ps, andnot: _mm_andnot_ps, max: _mm_max_ps,
    gt: |x| _mm_cmpgt_ps(x, _mm_setzero_ps()), or: _mm_or_ps,
    movemask: _mm_movemask_ps);

/// The four pairs `a[i]` × `b[j]` in the lanes `2i + j` of `L`.
#[inline(always)]
fn overlaps_2x2<T: Scalar, L: Quad<T>>(
    a: [&Obb<T>; 2],
    b: [&Obb<T>; 2],
    pose: &RelativePose<T>,
) -> [[bool; 2]; 2] {
    let (ai, bj) = ([a[0], a[0], a[1], a[1]], [b[0], b[1], b[0], b[1]]);
    // Written out rather than with `array::from_fn`, which the compiler
    // does not always inline into the AVX function (its lane constructors
    // would then be calls that cannot use AVX).
    let lanes =
        |o: [&Obb<T>; 4], f: &dyn Fn(&Obb<T>) -> T| L::new([f(o[0]), f(o[1]), f(o[2]), f(o[3])]);
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
    let bits = L::bits(sat_separated::<T, L>(half(ai), half(bj), r, t, coords));
    [
        [bits & 1 == 0, bits & 2 == 0],
        [bits & 4 == 0, bits & 8 == 0],
    ]
}

/// [`Obb::overlaps_relative_2x2`] for `f64` boxes in four AVX lanes.
///
/// # Safety
/// The CPU must support AVX (`is_x86_feature_detected!("avx")`).
#[target_feature(enable = "avx")]
pub(super) unsafe fn overlaps_2x2_f64(
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
