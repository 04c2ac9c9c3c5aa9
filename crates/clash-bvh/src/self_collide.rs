//! Self-collision of one mesh: intersecting pairs of non-adjacent triangles.

use crate::fixed_stack::FixedStack;
use crate::{Bvh, MAX_DEPTH, TrianglePair};
use clash_bv::BoundingVolume;
use clash_math::Scalar;
use core::ops::ControlFlow;

const STACK: usize = 4 * MAX_DEPTH as usize + 8;

impl<T: Scalar, B: BoundingVolume<T>> Bvh<T, B> {
    /// Every pair `[i, j]`, `i < j`, of intersecting triangles of the mesh
    /// that share no vertex (by index): triangles meeting at a shared vertex
    /// or edge are neighbours, not contacts. Weld a triangle soup first
    /// ([`crate::TriMesh::welded`]) so that neighbours share indices.
    pub fn self_contacts(&self) -> Vec<TrianglePair> {
        let mut out = Vec::new();
        let _ = self.for_each_self_contact(|p| {
            out.push(p);
            ControlFlow::Continue(())
        });
        out
    }

    /// Calls `f` for each self-contact (as [`Self::self_contacts`]) until it
    /// returns `Break`.
    pub fn for_each_self_contact(
        &self,
        mut f: impl FnMut(TrianglePair) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let idx = self.mesh.indices();
        let adjacent = |i: u32, j: u32| {
            let (a, b) = (idx[i as usize], idx[j as usize]);
            a.iter().any(|v| b.contains(v))
        };
        let mut test = |pa: usize, pb: usize| -> ControlFlow<()> {
            let (ta, ia) = self.leaf_triangle(pa);
            let (tb, ib) = self.leaf_triangle(pb);
            if !adjacent(ia, ib) && clash_narrow::overlap::triangle_triangle(ta, tb) {
                f([ia.min(ib), ia.max(ib)])?;
            }
            ControlFlow::Continue(())
        };
        // (a, b): a == b means "pairs within node a".
        let mut stack = FixedStack::<_, STACK>::with((0u32, 0u32));
        while let Some((a, b)) = stack.pop() {
            let na = &self.nodes[a as usize];
            if a == b {
                match na.triangle_range() {
                    Some(r) => {
                        for pa in r.clone() {
                            for pb in pa + 1..r.end {
                                test(pa, pb)?;
                            }
                        }
                    }
                    None => {
                        let (l, r) = (a + 1, na.child_or_first);
                        stack.push((l, r));
                        stack.push((r, r));
                        stack.push((l, l));
                    }
                }
                continue;
            }
            let nb = &self.nodes[b as usize];
            if !na.bv.overlaps(&nb.bv) {
                continue;
            }
            match (na.triangle_range(), nb.triangle_range()) {
                (Some(ra), Some(rb)) => {
                    for pa in ra {
                        for pb in rb.clone() {
                            test(pa, pb)?;
                        }
                    }
                }
                (Some(_), None) => {
                    stack.push((a, nb.child_or_first));
                    stack.push((a, b + 1));
                }
                (None, leaf_b) => {
                    if leaf_b.is_none() && nb.bv.surface_area() > na.bv.surface_area() {
                        stack.push((a, nb.child_or_first));
                        stack.push((a, b + 1));
                    } else {
                        stack.push((na.child_or_first, b));
                        stack.push((a + 1, b));
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}
