//! Nearest-first traversal of the wide layout by distance from a point,
//! for closest-point queries (RTCD §5.1.3 for the point/box distance).
//!
//! Each step computes the squared distance from the point to all eight
//! child boxes of a node at once, keeps those within the bound, pushes them
//! sorted so the nearest is popped first and prefetches them, as the ray
//! traversal does.

use super::{EMPTY, STACK, WIDTH, WideBvh, WideNode};
use clash_math::prefetch::{prefetch, prefetch_bytes};
use clash_math::stack::Stack;
use clash_math::{Point3, Scalar, Triangle};

/// A query point prepared for [`WideNode`] distance bounds.
pub(crate) struct WidePoint<T: Scalar> {
    p: [T; 3],
    /// Absolute margin taken off each axis distance: rounding in the
    /// closest point a triangle test computes (a few ulps of the largest
    /// coordinate of the point or of the mesh) can bring it that much
    /// nearer than its triangle's box.
    pad: T,
}

impl<T: Scalar> WidePoint<T> {
    /// `p` against boxes whose coordinates are at most `extent` in magnitude.
    #[inline(always)]
    pub(crate) fn new(p: &Point3<T>, extent: T) -> Self {
        Self {
            p: [p.x, p.y, p.z],
            pad: (extent + p.coords.amax()) * T::EPSILON * T::lit(8.0),
        }
    }

    /// Lower bounds on the squared distance from the point to each child
    /// box of `node`, and the mask of the used children (bit `j` for child
    /// `j`) whose bound is at most `bound`.
    #[inline(always)]
    fn bounds_all(&self, node: &WideNode<T>, bound: T) -> ([T; WIDTH], u32) {
        let mut d2 = [T::ZERO; WIDTH];
        for k in 0..3 {
            let (lo, hi) = (&node.bounds[0][k], &node.bounds[1][k]);
            let p = self.p[k];
            for j in 0..WIDTH {
                let d = (lo[j] - p).max_of(p - hi[j]) - self.pad;
                let d = d.max_of(T::ZERO);
                d2[j] += d * d;
            }
        }
        let mut mask = 0u32;
        for (j, (d, c)) in d2.iter().zip(&node.child).enumerate() {
            mask |= u32::from((*d <= bound) & (*c != EMPTY)) << j;
        }
        (d2, mask)
    }
}

impl<T: Scalar> WideBvh<T> {
    /// Largest coordinate magnitude of the triangles (for [`WidePoint::new`]).
    pub(crate) fn extent(&self) -> T {
        self.extent
    }

    /// Depth-first traversal, nearest child box first, of every leaf whose
    /// box may hold a point within squared distance `bound` of `p` (the
    /// bound shrinking as `leaf` says). `leaf` gets the leaf order range
    /// `first..first + count` and the current bound, and returns the new
    /// bound. Boxes at exactly the bound are visited, so ties can be broken
    /// by the caller.
    #[inline(always)]
    pub(crate) fn traverse_nearest(
        &self,
        tris: &[Triangle<T>],
        p: &WidePoint<T>,
        mut bound: T,
        mut leaf: impl FnMut(u32, u32, T) -> T,
    ) {
        // (child, count, squared distance bound): count 0 for a wide node.
        let mut stack = Stack::<(u32, u32, T), STACK>::with((0, 0, T::ZERO));
        while let Some((child, count, d2)) = stack.pop() {
            if d2 > bound {
                continue;
            }
            if count > 0 {
                bound = leaf(child, count, bound);
                continue;
            }
            let node = &self.nodes[child as usize];
            let (d, mut hits) = p.bounds_all(node, bound);
            let base = stack.len();
            while hits != 0 {
                let j = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                let (c, count, key) = (node.child[j], node.count[j], d[j]);
                if count == 0 {
                    let ptr = self.nodes.as_ptr().wrapping_add(c as usize).cast::<u8>();
                    for line in (0..core::mem::size_of::<WideNode<T>>()).step_by(64) {
                        prefetch(ptr.wrapping_add(line));
                    }
                } else {
                    let ptr = tris.as_ptr().wrapping_add(c as usize).cast::<u8>();
                    let bytes = count as usize * core::mem::size_of::<Triangle<T>>();
                    prefetch_bytes(ptr, bytes.min(super::MAX_PREFETCH));
                }
                stack.push_sorted(base, (c, count, key), |below| below.2 >= key);
            }
        }
    }
}
