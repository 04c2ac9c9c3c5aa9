//! The slab test of [`WideRay::slab_all`] for `f32` nodes in SSE2 (part of
//! the x86_64 baseline): four children per instruction, with the same
//! operations in the same order per child, so the same results bit for bit.
//!
//! The portable loop leaves it to the compiler to vectorise, which it does
//! for the arithmetic but not for gathering the results into a mask; here
//! the mask comes from one `movemask` per four children.

use super::{EMPTY, WIDTH, WideNode, WideRay};
use core::arch::x86_64::{
    __m128, _mm_add_ps, _mm_and_ps, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_cmpge_ps, _mm_cmple_ps,
    _mm_loadu_ps, _mm_loadu_si128, _mm_max_ps, _mm_min_ps, _mm_movemask_ps, _mm_mul_ps,
    _mm_set1_epi32, _mm_set1_ps, _mm_storeu_ps, _mm_sub_ps,
};

/// A ray with no zero direction component, prepared for [`Self::slab_all`].
pub(super) struct SseRay {
    origin: [f32; 3],
    inv: [f32; 3],
    near: [usize; 3],
    kz: usize,
    tol: f32,
}

/// The four lanes `4 h..4 h + 4` of `a` (`h` is 0 or 1).
#[inline(always)]
fn load(a: &[f32; WIDTH], h: usize) -> __m128 {
    let q: &[f32; 4] = a[4 * h..4 * h + 4].try_into().expect("half of 8 lanes");
    // SAFETY: `q` is 4 readable `f32`, the 16 bytes an unaligned load reads;
    // SSE is part of the x86_64 baseline.
    unsafe { _mm_loadu_ps(q.as_ptr()) }
}

impl SseRay {
    /// `None` when some direction component of `r` is zero (the general
    /// test treats those axes apart).
    #[inline(always)]
    pub(super) fn new(r: &WideRay<f32>) -> Option<Self> {
        (!r.any_zero).then_some(Self {
            origin: r.origin,
            inv: r.inv,
            near: r.near,
            kz: r.kz,
            tol: r.tol,
        })
    }

    /// [`WideRay::slab_all`] for a ray with no zero direction component.
    #[inline(always)]
    pub(super) fn slab_all(
        &self,
        node: &WideNode<f32>,
        t_min: f32,
        t_max: f32,
    ) -> ([f32; WIDTH], u32) {
        let mut key = [0.0f32; WIDTH];
        let mut mask = 0u32;
        // SAFETY: SSE and SSE2 are part of the x86_64 baseline; the only
        // memory accesses are the loads of `load` and of the `child` array
        // (16 of its 32 bytes, at offset 0 or 16), and the stores into `key`
        // (16 of its 32 bytes, at offset 0 or 16).
        unsafe {
            let gamma2 = _mm_set1_ps(f32::EPSILON * 3.0);
            let abs = _mm_castsi128_ps(_mm_set1_epi32(0x7fff_ffff));
            let (vmin, vmax) = (_mm_set1_ps(t_min), _mm_set1_ps(t_max));
            let tol = _mm_set1_ps(self.tol);
            let empty = _mm_set1_epi32(EMPTY as i32);
            for h in 0..2 {
                let mut t0 = _mm_set1_ps(f32::NEG_INFINITY);
                let mut t1 = _mm_set1_ps(f32::INFINITY);
                let mut span = t0;
                for k in 0..3 {
                    let o = _mm_set1_ps(self.origin[k]);
                    let inv = _mm_set1_ps(self.inv[k]);
                    let near = load(&node.bounds[self.near[k]][k], h);
                    let far = load(&node.bounds[self.near[k] ^ 1][k], h);
                    let a = _mm_mul_ps(_mm_sub_ps(near, o), inv);
                    let b = _mm_mul_ps(_mm_sub_ps(far, o), inv);
                    if k == self.kz {
                        // `max(|lo - o| inv, |hi - o| inv)` on the dominant axis.
                        span = _mm_max_ps(_mm_and_ps(b, abs), _mm_and_ps(a, abs));
                    }
                    let b = _mm_add_ps(b, _mm_mul_ps(_mm_and_ps(b, abs), gamma2));
                    // `max_of` and `min_of` keep the first operand of
                    // `_mm_max_ps` / `_mm_min_ps` when it compares greater
                    // (less), as these intrinsics do.
                    t0 = _mm_max_ps(a, t0);
                    t1 = _mm_min_ps(b, t1);
                }
                let margin = _mm_mul_ps(span, tol);
                let k = _mm_sub_ps(_mm_max_ps(vmin, t0), margin);
                let hit = _mm_and_ps(
                    _mm_and_ps(_mm_cmple_ps(t0, t1), _mm_cmple_ps(k, vmax)),
                    _mm_cmpge_ps(_mm_add_ps(t1, margin), vmin),
                );
                let child = _mm_loadu_si128(node.child[4 * h..].as_ptr().cast());
                let unused = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(child, empty)));
                let m = _mm_movemask_ps(hit) & !unused;
                mask |= (m as u32) << (4 * h);
                _mm_storeu_ps(key[4 * h..].as_mut_ptr(), k);
            }
        }
        (key, mask)
    }
}
