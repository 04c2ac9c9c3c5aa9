//! The OBB and RSS fits of a finished SAH tree, bottom-up from summed
//! triangle moments (Eberly §6.1.3).

use crate::Node;
use crate::build::{FitQuality, PARALLEL_THRESHOLD};
use clash_bv::{FitError, FitScratch, FitVolume, IndexedPoints};
use clash_math::{Point3, Scalar, Triangle, TriangleMoments};
use core::sync::atomic::{AtomicU32, Ordering};
use rayon::prelude::*;

/// A node's place in the finished tree: its leaf-order range and (internal
/// nodes) the right child's index, 0 for a leaf.
#[derive(Clone, Copy)]
pub(super) struct Topo {
    pub(super) first: u32,
    pub(super) n: u32,
    pub(super) right: u32,
}

/// Nodes smaller than this list their triangles' corners as they come
/// (no stamps); so does every node of a mesh that shares few vertices.
const CORNER_LIST_MIN: usize = 4;

/// The OBB and RSS fits of the SAH tree ([`FitVolume::FITS_ALONG_AXES`]),
/// bottom-up over the finished topology: each triangle's moments are
/// computed once ([`TriangleMoments`]), each internal node's are its
/// children's union ([`TriangleMoments::union`], Eberly §6.1.3), so a
/// node's axes cost a constant, and its extents come from its distinct
/// vertices when the mesh shares them, listed with one stamp per vertex
/// (the node's index, unique) as the median builder does: a stamp
/// overwritten by a node on another thread only lists a vertex twice,
/// which changes no extent, so the tree does not depend on the schedule.
/// Corner lists go to one scratch array of three entries per triangle,
/// each subtree using the part under its own triangles: no allocation per
/// node. Leaves of one triangle take [`FitVolume::fit_triangles_with_moments`]
/// (the triangle's own frame), as in the median builder.
pub(super) struct SummedFit<'a, T: Scalar> {
    pub(super) topo: &'a [Topo],
    pub(super) tris: &'a [Triangle<T>],
    pub(super) ids: &'a [u32],
    pub(super) vertices: &'a [Point3<T>],
    pub(super) indices: &'a [[u32; 3]],
    pub(super) fit: FitQuality,
}

/// [`SummedFit`]'s shared state: the moments and the stamps.
struct SummedState<T: Scalar> {
    moms: Vec<TriangleMoments<T>>,
    stamps: Vec<AtomicU32>,
}

impl<T: Scalar> SummedFit<'_, T> {
    pub(super) fn run<B: FitVolume<T>>(&self) -> Result<Vec<Node<B>>, FitError> {
        let n = self.tris.len();
        let moms: Vec<TriangleMoments<T>> =
            self.tris.par_iter().map(TriangleMoments::new).collect();
        // Listing distinct corners pays when triangles share vertices (a
        // welded closed mesh has about half as many vertices as triangles).
        let shared = self.vertices.len() < n + n / 2;
        let stamps: Vec<AtomicU32> = if shared {
            (0..self.vertices.len())
                .into_par_iter()
                .map(|_| AtomicU32::new(u32::MAX))
                .collect()
        } else {
            Vec::new()
        };
        let state = SummedState { moms, stamps };
        let mut scratch = vec![0u32; 3 * n];
        let mut bvs: Vec<Option<B>> = vec![None; self.topo.len()];
        self.subtree(&state, 0, &mut bvs, &mut scratch, &mut FitScratch::new())?;
        Ok(self
            .topo
            .par_iter()
            .zip(bvs.into_par_iter())
            .map(|(t, bv)| Node {
                bv: bv.expect("every node fitted"),
                child_or_first: if t.right == 0 { t.first } else { t.right },
                count: if t.right == 0 { t.n } else { 0 },
            })
            .collect())
    }

    /// Fits the subtree of node `g` (whose nodes are `bvs`, from `g` on;
    /// `scratch` has three entries per triangle of the subtree; `fits` is
    /// the fits' reusable memory on this thread) and returns its moments.
    fn subtree<B: FitVolume<T>>(
        &self,
        state: &SummedState<T>,
        g: usize,
        bvs: &mut [Option<B>],
        scratch: &mut [u32],
        fits: &mut FitScratch<T>,
    ) -> Result<TriangleMoments<T>, FitError> {
        let Topo { first, n, right } = self.topo[g];
        let range = first as usize..(first + n) as usize;
        let sum = if right == 0 {
            let m = &state.moms[range.clone()];
            m[1..].iter().fold(m[0], |s, x| s.union(x))
        } else {
            let right = right as usize;
            let k = self.topo[g + 1].n as usize;
            let (_, rest) = bvs.split_at_mut(1);
            let (lb, rb) = rest.split_at_mut(right - g - 1);
            let (ls, rs) = scratch.split_at_mut(3 * k);
            let (l, r) = if n as usize >= PARALLEL_THRESHOLD {
                rayon::join(
                    || self.subtree(state, g + 1, lb, ls, fits),
                    || self.subtree(state, right, rb, rs, &mut FitScratch::new()),
                )
            } else {
                (
                    self.subtree(state, g + 1, lb, ls, fits),
                    self.subtree(state, right, rb, rs, fits),
                )
            };
            l?.union(&r?)
        };
        bvs[0] = Some(self.node(state, g as u32, range, &sum, scratch, fits)?);
        Ok(sum)
    }

    /// The volume of node `g` over leaf-order `range`, moments `sum`.
    fn node<B: FitVolume<T>>(
        &self,
        state: &SummedState<T>,
        g: u32,
        range: core::ops::Range<usize>,
        sum: &TriangleMoments<T>,
        scratch: &mut [u32],
        fits: &mut FitScratch<T>,
    ) -> Result<B, FitError> {
        let tris = &self.tris[range.clone()];
        match self.fit {
            FitQuality::TightAbove { min_triangles } if tris.len() >= min_triangles as usize => {
                return B::fit_triangles_tight(tris);
            }
            FitQuality::Tight => return B::fit_triangles_tight(tris),
            _ => {}
        }
        if tris.len() == 1 {
            return B::fit_triangles_with_moments(tris, &state.moms[range]);
        }
        let ids = &self.ids[range];
        let mut m = 0;
        if tris.len() >= CORNER_LIST_MIN && !state.stamps.is_empty() {
            for &id in ids {
                for &v in &self.indices[id as usize] {
                    let stamp = &state.stamps[v as usize];
                    if stamp.load(Ordering::Relaxed) != g {
                        stamp.store(g, Ordering::Relaxed);
                        scratch[m] = v;
                        m += 1;
                    }
                }
            }
        } else {
            for &id in ids {
                scratch[m..m + 3].copy_from_slice(&self.indices[id as usize]);
                m += 3;
            }
        }
        let points = IndexedPoints::new(self.vertices, &scratch[..m])?;
        // Degenerate or non-finite input has no axes: the checked fit.
        match clash_bv::principal_axes_of_moment_union(tris, sum)
            .and_then(|axes| B::fit_along_axes_with(&axes, &points, fits))
        {
            Some(bv) => Ok(bv),
            None => B::fit_triangles(tris),
        }
    }
}
