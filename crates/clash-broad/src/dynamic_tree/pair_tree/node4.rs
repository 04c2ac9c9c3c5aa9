//! A node of the traversal copy ([`Node4`]), the outward rounding of
//! its boxes, and the tests of one box, or four, against its four
//! children ([`row`], [`block`]: SSE2 on x86_64).

use crate::slots::NULL;
use clash_math::Scalar;

/// Bit of a child link marking a leaf; the other bits are the object's slot.
pub(crate) const LEAF: u32 = 1 << 31;

/// One node of the traversal copy (two cache lines).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct Node4 {
    /// Per axis, the minima of the four children (rounded down).
    pub(crate) lo: [[f32; 4]; 3],
    /// Per axis, the maxima of the four children (rounded up).
    pub(crate) hi: [[f32; 4]; 3],
    /// Per child: the index of its node, or `LEAF | slot`.
    pub(crate) link: [u32; 4],
    /// Bit `c`: child `c` exists (children `0..count` exist).
    pub(crate) valid: u32,
    /// Bit `c`: child `c` is a leaf.
    pub(crate) leaf: u32,
    /// Bit `c`: child `c` is a changed leaf or holds one.
    pub(crate) dirty: u32,
}

impl Default for Node4 {
    fn default() -> Self {
        Self {
            lo: [[f32::MAX; 4]; 3],
            hi: [[-f32::MAX; 4]; 3],
            link: [NULL; 4],
            valid: 0,
            leaf: 0,
            dirty: 0,
        }
    }
}

impl Node4 {
    /// The box of child `c`: minima and maxima.
    #[inline(always)]
    pub(crate) fn child_box(&self, c: usize) -> ([f32; 3], [f32; 3]) {
        (
            [self.lo[0][c], self.lo[1][c], self.lo[2][c]],
            [self.hi[0][c], self.hi[1][c], self.hi[2][c]],
        )
    }
}

/// `x` (not NaN) rounded down to an `f32`; never `+inf`.
///
/// Without a branch (whether the nearest `f32` lies above `x` is
/// unpredictable): that `f32`, stepped one unit toward `-inf` when it lies
/// above `x`. A step toward `-inf` is one unit less of magnitude for a
/// positive value (`+inf` becomes `f32::MAX`) and one more for a negative
/// one (`-0.0` becomes the smallest negative subnormal); `+0.0` never lies
/// above `x` (`x` would be `+0.0` or above: a negative `x` rounds to
/// `-0.0` or below).
#[inline(always)]
pub(crate) fn round_down<T: Scalar>(x: T) -> f32 {
    let d = x.to_f64();
    let f = d as f32;
    let step = u32::from(f64::from(f) > d);
    let bits = f.to_bits();
    let neg = bits >> 31;
    // Negative: bits + step; positive: bits - step.
    f32::from_bits(bits.wrapping_add(step * 2 * neg).wrapping_sub(step))
}

/// `x` (not NaN) rounded up to an `f32`; never `-inf`. As [`round_down`],
/// mirrored: a step toward `+inf` is one unit more of magnitude for a
/// positive value (`+0.0` becomes the smallest positive subnormal) and one
/// less for a negative one (`-inf` becomes `-f32::MAX`).
#[inline(always)]
pub(crate) fn round_up<T: Scalar>(x: T) -> f32 {
    let d = x.to_f64();
    let f = d as f32;
    let step = u32::from(f64::from(f) < d);
    let bits = f.to_bits();
    let neg = bits >> 31;
    // Positive: bits + step; negative: bits - step.
    f32::from_bits(bits.wrapping_add(step).wrapping_sub(step * 2 * neg))
}

/// Bit `c` set when the closed box `lo..hi` overlaps child `c` of `n`
/// (valid or not): the four tests of one box against a node's children.
#[inline(always)]
pub(crate) fn row(lo: &[f32; 3], hi: &[f32; 3], n: &Node4) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        sse::row(lo, hi, n)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        row_portable(lo, hi, n)
    }
}

/// The sixteen tests of the children of `a` against those of `b` (valid
/// or not): bit `4 i + j` is set when child `i` of `a` overlaps child `j`
/// of `b`.
#[inline(always)]
pub(crate) fn block(a: &Node4, b: &Node4) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        sse::block(a, b)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        block_portable(a, b)
    }
}

/// [`block`] by [`row_portable`] (the reference for the SSE2 version).
#[inline(always)]
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(crate) fn block_portable(a: &Node4, b: &Node4) -> u32 {
    let mut m = 0;
    for i in 0..4 {
        let (lo, hi) = a.child_box(i);
        m |= row_portable(&lo, &hi, b) << (4 * i);
    }
    m
}

/// [`row`] by plain comparisons (the reference for the SSE2 version).
#[inline(always)]
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(crate) fn row_portable(lo: &[f32; 3], hi: &[f32; 3], n: &Node4) -> u32 {
    let mut m = 0;
    for c in 0..4 {
        let hit = (0..3).all(|k| lo[k] <= n.hi[k][c] && n.lo[k][c] <= hi[k]);
        m |= u32::from(hit) << c;
    }
    m
}

#[cfg(target_arch = "x86_64")]
mod sse {
    //! [`row`](super::row) in SSE2 (part of the x86_64 baseline): the six
    //! comparisons of one box against four children in six instructions.
    use super::Node4;
    use core::arch::x86_64::{
        __m128, _mm_and_ps, _mm_cmple_ps, _mm_load_ps, _mm_movemask_ps, _mm_set1_ps, _mm_shuffle_ps,
    };

    /// Four lanes of a node array (16-byte aligned: `Node4` is 64-byte
    /// aligned and its arrays start at multiples of 16 bytes).
    #[inline(always)]
    fn load(a: &[f32; 4]) -> __m128 {
        // SAFETY: `a` is 16 readable bytes, aligned to 16 (see above); SSE
        // is part of the x86_64 baseline.
        unsafe { _mm_load_ps(a.as_ptr()) }
    }

    #[inline(always)]
    pub(super) fn row(lo: &[f32; 3], hi: &[f32; 3], n: &Node4) -> u32 {
        // SAFETY: SSE is part of the x86_64 baseline; these intrinsics
        // compute on registers only.
        unsafe {
            let mut m = _mm_and_ps(
                _mm_cmple_ps(_mm_set1_ps(lo[0]), load(&n.hi[0])),
                _mm_cmple_ps(load(&n.lo[0]), _mm_set1_ps(hi[0])),
            );
            for k in 1..3 {
                m = _mm_and_ps(m, _mm_cmple_ps(_mm_set1_ps(lo[k]), load(&n.hi[k])));
                m = _mm_and_ps(m, _mm_cmple_ps(load(&n.lo[k]), _mm_set1_ps(hi[k])));
            }
            _mm_movemask_ps(m) as u32
        }
    }

    #[inline(always)]
    pub(super) fn block(a: &Node4, b: &Node4) -> u32 {
        // SAFETY: SSE is part of the x86_64 baseline; these intrinsics
        // compute on registers only.
        unsafe {
            let mut m = [_mm_set1_ps(f32::from_bits(u32::MAX)); 4];
            for k in 0..3 {
                let (alo, ahi) = (load(&a.lo[k]), load(&a.hi[k]));
                let (blo, bhi) = (load(&b.lo[k]), load(&b.hi[k]));
                let lanes = [
                    (
                        _mm_shuffle_ps::<0x00>(alo, alo),
                        _mm_shuffle_ps::<0x00>(ahi, ahi),
                    ),
                    (
                        _mm_shuffle_ps::<0x55>(alo, alo),
                        _mm_shuffle_ps::<0x55>(ahi, ahi),
                    ),
                    (
                        _mm_shuffle_ps::<0xAA>(alo, alo),
                        _mm_shuffle_ps::<0xAA>(ahi, ahi),
                    ),
                    (
                        _mm_shuffle_ps::<0xFF>(alo, alo),
                        _mm_shuffle_ps::<0xFF>(ahi, ahi),
                    ),
                ];
                for (mi, (lo, hi)) in m.iter_mut().zip(lanes) {
                    *mi = _mm_and_ps(*mi, _mm_cmple_ps(lo, bhi));
                    *mi = _mm_and_ps(*mi, _mm_cmple_ps(blo, hi));
                }
            }
            (_mm_movemask_ps(m[0])
                | _mm_movemask_ps(m[1]) << 4
                | _mm_movemask_ps(m[2]) << 8
                | _mm_movemask_ps(m[3]) << 12) as u32
        }
    }
}
