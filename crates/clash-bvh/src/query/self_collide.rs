//! Self-collision of one mesh: intersecting pairs of triangles, neighbours
//! counted when they meet beyond what they share.

use crate::{Bvh, MAX_DEPTH, TrianglePair};
use clash_bv::BoundingVolume;
use clash_math::Scalar;
use clash_math::stack::Stack;
use clash_narrow::overlap::{SharedCorners, triangle_triangle, triangle_triangle_beyond_shared};
use core::ops::ControlFlow;

/// Room for the pending pairs. Measure a pair by the sum of its nodes'
/// depths (at most `2 * MAX_DEPTH`): a pair within one node leaves two
/// pending pairs per two levels of that sum, opening both nodes three,
/// opening one node one per level, so at most `3 * MAX_DEPTH + 1` pairs
/// wait at once.
const STACK: usize = 4 * MAX_DEPTH as usize + 8;

impl<T: Scalar, B: BoundingVolume<T>> Bvh<T, B> {
    /// Every pair `[i, j]`, `i < j`, of intersecting triangles of the mesh.
    ///
    /// Triangles that share a vertex or an edge (by index) are neighbours:
    /// meeting there is not a contact, but meeting anywhere else is (a face
    /// folded onto its neighbour, a neighbour piercing it next to the shared
    /// vertex, a face duplicated on the same three vertices), decided
    /// exactly by [`clash_narrow::overlap::triangle_triangle_beyond_shared`].
    /// Pairs that share no index are contacts when they meet at all
    /// ([`clash_narrow::overlap::triangle_triangle`]). Weld a triangle soup
    /// first ([`crate::TriMesh::welded`]) so that neighbours share indices.
    ///
    /// ```
    /// use clash_bv::Obb;
    /// use clash_bvh::{BuildOptions, Bvh, TriMesh};
    /// use clash_math::Point3;
    /// let p = |x, y, z| Point3::new(x, y, z);
    /// // Two faces on the edge 0-1: the second folded flat onto the first.
    /// let vertices = vec![p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0), p(0.5, 0.5, 0.0)];
    /// let folded = TriMesh::new(vertices.clone(), vec![[0, 1, 2], [0, 1, 3]]).unwrap();
    /// let tree = Bvh::<f64, Obb<f64>>::build(folded, &BuildOptions::default()).unwrap();
    /// assert_eq!(tree.self_contacts(), vec![[0, 1]]);
    /// // Unfolded across the edge, the two faces only share it.
    /// let mut open = vertices;
    /// open[3] = p(0.5, -0.5, 0.0);
    /// let open = TriMesh::new(open, vec![[0, 1, 2], [0, 1, 3]]).unwrap();
    /// let tree = Bvh::<f64, Obb<f64>>::build(open, &BuildOptions::default()).unwrap();
    /// assert!(tree.self_contacts().is_empty());
    /// ```
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
        let mut test = |pa: usize, pb: usize| -> ControlFlow<()> {
            let (ta, ia) = self.leaf_triangle(pa);
            let (tb, ib) = self.leaf_triangle(pb);
            let meet = match SharedCorners::of_indices(idx[ia as usize], idx[ib as usize]) {
                None => triangle_triangle(ta, tb),
                Some(shared) => triangle_triangle_beyond_shared(ta, tb, shared),
            };
            if meet {
                f([ia.min(ib), ia.max(ib)])?;
            }
            ControlFlow::Continue(())
        };
        // (a, b): a == b means "pairs within node a".
        let mut stack = Stack::<_, STACK>::with((0u32, 0u32));
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
                // Both internal: both are opened (four child pairs), as in
                // `collide.rs`; no size comparison, which for k-DOPs would
                // compute their polytopes' surface areas.
                (None, None) => {
                    let (ar, br) = (na.child_or_first, nb.child_or_first);
                    stack.push((ar, br));
                    stack.push((ar, b + 1));
                    stack.push((a + 1, br));
                    stack.push((a + 1, b + 1));
                }
                (None, Some(_)) => {
                    stack.push((na.child_or_first, b));
                    stack.push((a + 1, b));
                }
            }
        }
        ControlFlow::Continue(())
    }
}
