//! Binned surface-area-heuristic construction (RTCD §6.2.2; Wald 2007,
//! *On fast construction of SAH-based bounding volume hierarchies*),
//! parallel with `rayon::join` and bit-identical on any number of threads.
//!
//! The builder permutes only each triangle's box (in the lane layout of
//! [`BoxLanes`]) and its id; the triangles are gathered into leaf order at the
//! end, straight from the mesh. Every node's exact corner bounds come from
//! the split of its parent (the bins, or the sweep), so no node is fitted
//! during the build: AABB trees with the default fit take them as their
//! volumes, other volumes are fitted afterwards to each node's (final,
//! contiguous) triangles. Subtrees write runs of nodes in preorder with
//! run-relative child links; the runs are concatenated at the end.
//!
//! Per node:
//! - at most [`SWEEP_MAX`] triangles: the exact SAH over every split of the
//!   triangles sorted by box centre on each axis (a sweep; RTCD §6.2.2),
//!   which also replaces the fixed costs of binning where they dominate;
//! - larger: binning of the box centres into `bins` bins per axis. One pass
//!   bins every box on all three axes and records its three bin numbers
//!   (`codes`); the partition then reads the chosen axis's bin number back
//!   instead of recomputing it, with no branch (Lomuto with a conditional
//!   increment), and a second pass takes each part's centre bounds.
//!
//! Nodes of at least [`PARALLEL_SPLIT`] triangles bin and partition in
//! chunked parallel passes whose chunks depend only on the node size; the
//! partition is then the unique stable one, so the tree does not depend on
//! the number of threads.
//!
//! Files: `boxes.rs` (the lane layout of a box and key bounds), `prims.rs`
//! (the working set and its partitions), `binning.rs` and `split.rs` (the
//! choice of a node's plane), `fit.rs` (the bottom-up fits from summed
//! moments); this file holds the descent.

mod binning;
mod boxes;
mod fit;
mod prims;
mod split;
#[cfg(test)]
mod tests;

use crate::Node;
use crate::build::{BuildOptions, Built, CornerSource, FitQuality, PARALLEL_THRESHOLD, SplitRule};
use boxes::{BoxLanes, KeyBounds, corner_lanes, lanes_to_aabb};
use clash_bv::{FitError, FitVolume};
use clash_math::{Scalar, Triangle};
use fit::{SummedFit, Topo};
use prims::SahPrims;
use rayon::prelude::*;
use split::sah_split;

/// SAH nodes with at least this many triangles are binned and partitioned
/// in chunked parallel passes (the choice depends only on the node's size,
/// so the tree does not depend on the number of threads).
pub(crate) const PARALLEL_SPLIT: usize = 1 << 15;

/// Nodes of at most this many triangles take the exact sweep instead of
/// binning.
pub(crate) const SWEEP_MAX: usize = 8;

/// Elements per chunk of the chunked (parallel) passes. Chunk boundaries
/// depend only on the input size, never on the number of threads.
pub(crate) const CHUNK: usize = 8192;

/// Runs `f` on consecutive `CHUNK`-sized index ranges of `0..n` in parallel
/// and folds the results with `merge` in chunk order, so the answer does
/// not depend on the number of threads.
pub(crate) fn fold_chunks<R: Send>(
    n: usize,
    f: impl Fn(core::ops::Range<usize>) -> R + Sync,
    merge: impl Fn(R, R) -> R,
) -> R {
    let parts: Vec<R> = (0..n.div_ceil(CHUNK).max(1))
        .into_par_iter()
        .map(|c| f(c * CHUNK..((c + 1) * CHUNK).min(n)))
        .collect();
    let mut it = parts.into_iter();
    let first = it.next().expect("at least one chunk");
    it.fold(first, merge)
}

/// A node of the SAH builder before its volume is fitted.
#[derive(Clone, Copy)]
pub(crate) struct RawNode<T: Scalar> {
    /// Exact bounds of the node's triangles' corners.
    pub bounds: BoxLanes<T>,
    /// Leaf-order position of its first triangle.
    pub first: u32,
    /// Number of triangles below it.
    pub n: u32,
    /// Internal node: the right child's index relative to the start of the
    /// node's run. 0 for a leaf.
    pub right: u32,
}

/// Runs of nodes in preorder; concatenated, they are the tree.
type Runs<T> = Vec<Vec<RawNode<T>>>;

struct SahBuilder {
    bins: usize,
    max_leaf_size: usize,
    max_depth: u32,
}

impl SahBuilder {
    fn is_leaf(&self, n: usize, depth: u32) -> bool {
        n <= self.max_leaf_size || depth >= self.max_depth
    }

    /// Builds the subtree over `prims` (exact corner bounds `bounds`, key
    /// bounds `cents`; `first` is the leaf-order position of `prims[0]`),
    /// forking below nodes of at least [`PARALLEL_THRESHOLD`] triangles.
    fn task<T: Scalar>(
        &self,
        mut prims: SahPrims<'_, T>,
        first: u32,
        depth: u32,
        bounds: BoxLanes<T>,
        cents: KeyBounds<T>,
    ) -> Runs<T> {
        let n = prims.len();
        if n < PARALLEL_THRESHOLD || self.is_leaf(n, depth) {
            prims.go_home();
            // At most 2n - 1 nodes: no reallocation while the run grows.
            let mut run = Vec::with_capacity(2 * n);
            self.seq(prims, first, depth, bounds, cents, &mut run);
            return vec![run];
        }
        let s = sah_split(&mut prims, self.bins, &cents);
        let k = s.k;
        let (lp, rp) = prims.split_at(k);
        let (l, r) = rayon::join(
            || self.task(lp, first, depth + 1, s.left, s.left_cents),
            || self.task(rp, first + k as u32, depth + 1, s.right, s.right_cents),
        );
        let left_nodes: usize = l.iter().map(Vec::len).sum();
        let mut runs = Vec::with_capacity(1 + l.len() + r.len());
        runs.push(vec![RawNode {
            bounds,
            first,
            n: n as u32,
            right: 1 + left_nodes as u32,
        }]);
        runs.extend(l);
        runs.extend(r);
        runs
    }

    /// [`Self::task`] on the current thread, appending to one run.
    fn seq<T: Scalar>(
        &self,
        mut prims: SahPrims<'_, T>,
        first: u32,
        depth: u32,
        bounds: BoxLanes<T>,
        cents: KeyBounds<T>,
        run: &mut Vec<RawNode<T>>,
    ) {
        let n = prims.len();
        let me = run.len();
        run.push(RawNode {
            bounds,
            first,
            n: n as u32,
            right: 0,
        });
        if self.is_leaf(n, depth) {
            return;
        }
        let s = sah_split(&mut prims, self.bins, &cents);
        let (lp, rp) = prims.split_at(s.k);
        self.seq(lp, first, depth + 1, s.left, s.left_cents, run);
        run[me].right = run.len() as u32;
        self.seq(
            rp,
            first + s.k as u32,
            depth + 1,
            s.right,
            s.right_cents,
            run,
        );
    }
}

/// The binned-SAH tree over a mesh's triangles (`opts.split` must be
/// [`SplitRule::Sah`]).
pub(crate) fn build<T: Scalar, B: FitVolume<T>>(
    corners: CornerSource<'_, T>,
    opts: &BuildOptions,
) -> Result<Built<T, B>, FitError> {
    let SplitRule::Sah { bins } = opts.split else {
        unreachable!("the SAH builder takes SAH options")
    };
    let builder = SahBuilder {
        bins: bins as usize,
        max_leaf_size: opts.max_leaf_size as usize,
        max_depth: opts.max_depth,
    };
    let CornerSource { vertices, indices } = corners;
    let n = indices.len();
    let v = |i: u32| &vertices[i as usize];
    let mut boxes: Vec<BoxLanes<T>> = indices
        .par_iter()
        .map(|&[a, b, c]| corner_lanes(v(a), v(b), v(c)))
        .collect();
    let mut ids: Vec<u32> = (0..n as u32).into_par_iter().collect();
    // Zeroed allocations: pages are only touched by the passes that use them.
    let mut alt_boxes: Vec<BoxLanes<T>> = vec![[T::ZERO; 8]; n];
    let mut alt_ids: Vec<u32> = vec![0; n];
    let mut codes: Vec<u32> = vec![0; n];
    let prims = SahPrims {
        boxes: &mut boxes,
        ids: &mut ids,
        alt_boxes: &mut alt_boxes,
        alt_ids: &mut alt_ids,
        codes: &mut codes,
        swapped: false,
    };
    let (bounds, cents) = prims.bounds();
    let runs = builder.task(prims, 0, 0, bounds, cents);
    drop((boxes, alt_boxes, alt_ids, codes));
    let tris: Vec<Triangle<T>> = ids
        .par_iter()
        .map(|&i| {
            let [a, b, c] = indices[i as usize];
            Triangle::new(*v(a), *v(b), *v(c))
        })
        .collect();
    let mut offsets = Vec::with_capacity(runs.len());
    let mut total = 0u32;
    for run in &runs {
        offsets.push(total);
        total += run.len() as u32;
    }
    let fit = opts.fit;
    // Node `g` is entry `g - offsets[r]` of the run `r` that holds it.
    let locate = |g: u32| {
        let run = offsets.partition_point(|&o| o <= g) - 1;
        (&runs[run][(g - offsets[run]) as usize], offsets[run])
    };
    if B::FITS_ALONG_AXES && fit != FitQuality::Tight {
        let topo: Vec<Topo> = (0..total)
            .into_par_iter()
            .map(|g| {
                let (r, offset) = locate(g);
                Topo {
                    first: r.first,
                    n: r.n,
                    right: if r.right == 0 { 0 } else { offset + r.right },
                }
            })
            .collect();
        drop(runs);
        let nodes = SummedFit {
            topo: &topo,
            tris: &tris,
            ids: &ids,
            vertices,
            indices,
            fit,
        }
        .run()?;
        return Ok(Built { nodes, tris, ids });
    }
    // One indexed parallel pass writes the final array.
    let nodes = (0..total)
        .into_par_iter()
        .map(|g| {
            let (r, offset) = locate(g);
            let from_bounds = match fit {
                FitQuality::Basic => B::from_triangle_bounds(&lanes_to_aabb(&r.bounds)),
                FitQuality::Tight | FitQuality::TightAbove { .. } => None,
            };
            let bv = match from_bounds {
                Some(bv) => bv,
                None => fit.fit(&tris[r.first as usize..(r.first + r.n) as usize])?,
            };
            Ok(if r.right == 0 {
                Node {
                    bv,
                    child_or_first: r.first,
                    count: r.n,
                }
            } else {
                Node {
                    bv,
                    child_or_first: offset + r.right,
                    count: 0,
                }
            })
        })
        .collect::<Result<Vec<_>, FitError>>()?;
    Ok(Built { nodes, tris, ids })
}
