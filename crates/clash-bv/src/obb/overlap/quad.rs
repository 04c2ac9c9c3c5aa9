//! The two-by-two OBB test ([`Obb::overlaps_relative_2x2`]) on four lanes
//! ([`ArrayLanes`], plain lanes the compiler turns into one SIMD register
//! per value): `f64` in AVX registers on CPUs that have AVX (detected at
//! run time: the crate is compiled for the baseline x86_64 target, so the
//! `f64` test is compiled in a function that enables AVX), `f32` in SSE
//! registers (part of the baseline).
//!
//! The four pairs `a[i]` × `b[j]` sit in lanes `2i + j`, and the placement
//! and the 15-axis SAT of the parent module run once over them instead of
//! twice over two lanes. SIMD adds, subtracts and multiplies round exactly
//! as scalar code (no fused multiply-add is enabled), so every lane decides
//! bit for bit as the one-pair test; the parent module's test checks it on
//! this machine's CPU.
use super::{coordinate_magnitude, placed_lanes, relative_to_placed, sat_separated};
use crate::{Obb, RelativePose};
use clash_math::Scalar;
use clash_math::lanes::{ArrayLanes, Lanes};

/// Four lanes of `T`.
type Quad<T> = ArrayLanes<T, 4>;

/// The four pairs `a[i]` × `b[j]` in the lanes `2i + j`.
#[inline(always)]
fn overlaps_2x2<T: Scalar>(
    a: [&Obb<T>; 2],
    b: [&Obb<T>; 2],
    pose: &RelativePose<T>,
) -> [[bool; 2]; 2] {
    let (ai, bj) = ([a[0], a[0], a[1], a[1]], [b[0], b[1], b[0], b[1]]);
    // Written out rather than with `array::from_fn`, which the compiler
    // does not always inline into the AVX function (its lane constructors
    // would then be calls that cannot use AVX).
    let lanes = |o: [&Obb<T>; 4], f: &dyn Fn(&Obb<T>) -> T| {
        ArrayLanes([f(o[0]), f(o[1]), f(o[2]), f(o[3])])
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
    let (p, c) = placed_lanes::<T, Quad<T>>(axes(bj), cb, pose);
    let (r, t) = relative_to_placed(axes(ai), ca, p, c);
    let coords = coordinate_magnitude::<T, Quad<T>>(cb, pose.translation.amax());
    let sep = sat_separated::<T, Quad<T>>(half(ai), half(bj), r, t, coords);
    let apart = |l: usize| !Quad::<T>::flag(sep, l);
    [[apart(0), apart(1)], [apart(2), apart(3)]]
}

/// [`Obb::overlaps_relative_2x2`] for `f64` boxes in four AVX lanes. A
/// call from code compiled without AVX is `unsafe`: the CPU must support
/// AVX (`is_x86_feature_detected!("avx")`).
#[target_feature(enable = "avx")]
pub(super) fn overlaps_2x2_f64(
    a: [&Obb<f64>; 2],
    b: [&Obb<f64>; 2],
    pose: &RelativePose<f64>,
) -> [[bool; 2]; 2] {
    overlaps_2x2(a, b, pose)
}

/// [`Obb::overlaps_relative_2x2`] for `f32` boxes in four SSE lanes.
#[inline]
pub(super) fn overlaps_2x2_f32(
    a: [&Obb<f32>; 2],
    b: [&Obb<f32>; 2],
    pose: &RelativePose<f32>,
) -> [[bool; 2]; 2] {
    overlaps_2x2(a, b, pose)
}
