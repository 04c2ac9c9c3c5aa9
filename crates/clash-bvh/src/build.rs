//! Top-down construction (RTCD §6.2.1, Eberly §6.2), parallel with
//! `rayon::join` and bit-identical on any number of threads.
//!
//! The builder keeps parallel arrays (triangles, their moments and
//! centroids, triangle ids; see `partition::Prims`) and partitions them in
//! place, so a node's triangles are always one contiguous slice: no buffer
//! is allocated per node. Each triangle's moments are computed once, so a
//! node's continuous-PCA covariance is a sum (Eberly §6.1.3). A subtree over `n`
//! triangles owns `2n - 1` node slots (the most a tree with non-empty leaves can
//! use); its left child over `k` triangles owns the next `2k - 1` slots and the
//! right child the `2(n - k) - 1` after those. Subtrees therefore write disjoint
//! slices and can be built in parallel with no synchronisation; when leaves
//! hold more than one triangle, a final pass squeezes out the unused slots,
//! keeping preorder (with one triangle per leaf every slot is used).
//!
//! The binned-SAH split rule has a builder of its own (`crate::sah`).

use crate::Node;
use crate::partition::{Keyed, Prims};
use clash_bv::{BoundingVolume, FitError, IndexedPoints};
use clash_math::{Point3, Scalar, Triangle, TriangleMoments, Vector3};
use core::sync::atomic::{AtomicU32, Ordering};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// How a node's triangles are divided between its two children.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SplitRule {
    /// Median of the triangle centroids along the longest axis of the node's
    /// bounding volume (Eberly §6.2): balanced trees, depth `⌈log2 n⌉`.
    Median,
    /// Mean of the centroids along the same axis (RTCD §6.2.2); falls back to
    /// the median when one side would be empty.
    Mean,
    /// Binned surface area heuristic (RTCD §6.2.2; Wald 2007): the split
    /// plane among `bins - 1` candidates per world axis that minimises
    /// `area(left) * n_left + area(right) * n_right`, with areas of the
    /// children's axis-aligned boxes whatever the tree's volume type.
    Sah {
        /// Number of bins per axis (2 to 256).
        bins: u32,
    },
}

/// Which fit computes each node's bounding volume.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FitQuality {
    /// [`BoundingVolume::fit_triangles`] (for OBBs: continuous PCA, Eberly §6.1.3).
    Default,
    /// [`BoundingVolume::fit_triangles_tight`] (for OBBs: the volume-minimising
    /// refinement; slower to build, fewer overlap tests in queries).
    Tight,
    /// The tight fit on nodes of at least `min_triangles` triangles, the
    /// default fit below. For OBB trees the upper levels are where PCA boxes
    /// are loosest and where the tight fit pays: on the 56k-triangle bunny,
    /// `min_triangles: 128` answers any-contact queries about 1.2x to 1.6x
    /// faster than the default fit (benches/compare, 2026-11-23) for about
    /// three times its build time (232 ms against 77 ms on 2026-11-22),
    /// within about 10% of the tight fit everywhere at about a tenth of its
    /// build time.
    TightAbove {
        /// Smallest node (in triangles) that gets the tight fit.
        min_triangles: u32,
    },
}

impl FitQuality {
    /// The volume of `tris` (one node's triangles) under this choice.
    pub(crate) fn fit<T: Scalar, B: BoundingVolume<T>>(
        self,
        tris: &[Triangle<T>],
    ) -> Result<B, FitError> {
        match self {
            FitQuality::Default => B::fit_triangles(tris),
            FitQuality::Tight => B::fit_triangles_tight(tris),
            FitQuality::TightAbove { min_triangles } if tris.len() >= min_triangles as usize => {
                B::fit_triangles_tight(tris)
            }
            FitQuality::TightAbove { .. } => B::fit_triangles(tris),
        }
    }
}

/// Options for [`crate::Bvh::build`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildOptions {
    /// Split rule (default [`SplitRule::Median`]).
    pub split: SplitRule,
    /// Most triangles in a leaf (default 1, as in OBB trees).
    pub max_leaf_size: u32,
    /// Deepest level (the root is depth 0); a node at this depth becomes a
    /// leaf whatever its size. At most [`MAX_DEPTH`] (the default).
    pub max_depth: u32,
    /// How node volumes are fitted (default [`FitQuality::Default`]).
    pub fit: FitQuality,
}

/// The largest supported tree depth. Traversals use fixed-size stacks sized
/// from it, so queries never allocate.
pub const MAX_DEPTH: u32 = 64;

/// Subtrees with fewer triangles than this are built on the current thread.
pub(crate) const PARALLEL_THRESHOLD: usize = 2048;

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            split: SplitRule::Median,
            max_leaf_size: 1,
            max_depth: MAX_DEPTH,
            fit: FitQuality::Default,
        }
    }
}

impl BuildOptions {
    /// The default options with another split rule.
    pub fn with_split(mut self, split: SplitRule) -> Self {
        self.split = split;
        self
    }
    /// The default options with another leaf size.
    pub fn with_max_leaf_size(mut self, n: u32) -> Self {
        self.max_leaf_size = n;
        self
    }
    /// The default options with another depth limit.
    pub fn with_max_depth(mut self, d: u32) -> Self {
        self.max_depth = d;
        self
    }
    /// The default options with another fit.
    pub fn with_fit(mut self, fit: FitQuality) -> Self {
        self.fit = fit;
        self
    }
    /// Binned SAH with 16 bins and 4 triangles per leaf: the usual choice for
    /// ray queries on AABB trees.
    pub fn sah() -> Self {
        Self {
            split: SplitRule::Sah { bins: 16 },
            max_leaf_size: 4,
            ..Self::default()
        }
    }

    pub(crate) fn validate(&self) -> Result<(), crate::BuildError> {
        if self.max_leaf_size == 0 {
            return Err(crate::BuildError::InvalidOptions(
                "max_leaf_size must be at least 1",
            ));
        }
        if self.max_depth > MAX_DEPTH {
            return Err(crate::BuildError::InvalidOptions(
                "max_depth must be at most 64",
            ));
        }
        if let SplitRule::Sah { bins } = self.split
            && !(2..=256).contains(&bins)
        {
            return Err(crate::BuildError::InvalidOptions(
                "SAH bins must be between 2 and 256",
            ));
        }
        Ok(())
    }
}

struct Builder {
    opts: BuildOptions,
}

/// Output of the builder: nodes in preorder, triangles and ids in leaf order.
pub(crate) struct Built<T: Scalar, B> {
    pub nodes: Vec<Node<B>>,
    pub tris: Vec<Triangle<T>>,
    pub ids: Vec<u32>,
}

/// A mesh's vertices and triangle indices, from which the median/mean
/// builder lists each node's distinct corners for the OBB and RSS fits
/// (`fit_triangles_with_moments_over`): about six times fewer points than
/// three corners per triangle on a closed mesh.
pub(crate) struct CornerSource<'a, T: Scalar> {
    pub vertices: &'a [Point3<T>],
    pub indices: &'a [[u32; 3]],
}

/// [`CornerSource`] with one stamp per vertex: the slot of the last node
/// that listed it. Siblings built on different threads share vertices, so
/// a stamp can be overwritten between two corners of one node; the vertex
/// is then listed twice, which changes no extent (a minimum or maximum over
/// a repeated point), so the fit does not depend on the schedule. A vertex
/// is never missed: a node's slot is unique, so the first of its corners
/// at a vertex always finds another stamp.
struct Corners<'a, T: Scalar> {
    source: CornerSource<'a, T>,
    stamps: Vec<AtomicU32>,
}

/// Nodes smaller than this fit their triangles' corners directly (and so
/// does every node of a mesh that shares few vertices: `stamps` is then
/// empty, as is the scratch).
const CORNER_LIST_MIN: usize = 4;

pub(crate) fn build<T: Scalar, B: BoundingVolume<T>>(
    triangles: Vec<Triangle<T>>,
    corners: CornerSource<'_, T>,
    opts: &BuildOptions,
) -> Result<Built<T, B>, FitError> {
    if let SplitRule::Sah { .. } = opts.split {
        return crate::sah::build_sah(corners, opts);
    }
    let builder = Builder { opts: *opts };
    let n = triangles.len();
    let mut tris = triangles;
    // Set-up and compaction run on the pool too (order-preserving collects).
    // Each triangle's moments (and centroid) once, for every node's fit.
    let mut moms: Vec<TriangleMoments<T>> = tris.par_iter().map(TriangleMoments::new).collect();
    let mut ids: Vec<u32> = (0..n as u32).collect();
    let mut keys: Vec<Keyed<T>> = vec![Keyed::blank(); n];
    let mut left = vec![false; n];
    // Unused slots keep a placeholder (the cheap fit of one triangle,
    // marked by `count == UNUSED`); a full tree (one triangle per leaf, the
    // default) uses every slot and needs no compaction.
    let placeholder = Node {
        bv: B::fit_triangles_with_moments(&tris[..1], &moms[..1])?,
        child_or_first: 0,
        count: UNUSED,
    };
    let mut slots: Vec<Node<B>> = (0..2 * n - 1)
        .into_par_iter()
        .map(|_| placeholder.clone())
        .collect();
    // Listing distinct corners pays when triangles share vertices (a welded
    // closed mesh has about half as many vertices as triangles); a triangle
    // soup (three vertices per triangle) fits the corners as they come.
    let shared = corners.vertices.len() < n + n / 2;
    let corners = Corners {
        stamps: if shared {
            (0..corners.vertices.len())
                .into_par_iter()
                .map(|_| AtomicU32::new(u32::MAX))
                .collect()
        } else {
            Vec::new()
        },
        source: corners,
    };
    let mut corner_ids: Vec<u32> = vec![0; if shared { 3 * n } else { 0 }];
    let used = builder.node(
        &mut slots,
        0,
        Prims {
            tris: &mut tris,
            moms: &mut moms,
            ids: &mut ids,
            keys: &mut keys,
            left: &mut left,
        },
        (&corners, &mut corner_ids),
        0,
        0,
    )?;
    Ok(Built {
        nodes: if used == slots.len() {
            slots
        } else {
            compact(slots)
        },
        tris,
        ids,
    })
}

impl Builder {
    /// The volume of one node of the median/mean builder; the default fit
    /// sums the covariance from the precomputed moments.
    /// `slot` (the node's global slot) stamps the node's corners, listed
    /// into `scratch` (three per triangle of room).
    fn fit<T: Scalar, B: BoundingVolume<T>>(
        &self,
        prims: &Prims<'_, T>,
        (corners, scratch): (&Corners<'_, T>, &mut [u32]),
        slot: u32,
    ) -> Result<B, FitError> {
        match self.opts.fit {
            FitQuality::Default if prims.len() >= CORNER_LIST_MIN && !corners.stamps.is_empty() => {
                let mut m = 0;
                for &id in prims.ids.iter() {
                    for &v in &corners.source.indices[id as usize] {
                        let stamp = &corners.stamps[v as usize];
                        if stamp.load(Ordering::Relaxed) != slot {
                            stamp.store(slot, Ordering::Relaxed);
                            scratch[m] = v;
                            m += 1;
                        }
                    }
                }
                let points = IndexedPoints::new(corners.source.vertices, &scratch[..m])?;
                B::fit_triangles_with_moments_over(prims.tris, prims.moms, &points)
            }
            FitQuality::Default => B::fit_triangles_with_moments(prims.tris, prims.moms),
            FitQuality::TightAbove { min_triangles } if prims.len() < min_triangles as usize => {
                B::fit_triangles_with_moments(prims.tris, prims.moms)
            }
            fit => fit.fit(prims.tris),
        }
    }

    fn is_leaf(&self, n: usize, depth: u32) -> bool {
        n <= self.opts.max_leaf_size as usize || depth >= self.opts.max_depth
    }

    /// Builds the subtree over `prims` into `slots` (whose first element is
    /// global slot `slot_base`); `first` is the global position of `prims[0]`.
    /// Median and mean splits.
    fn node<T: Scalar, B: BoundingVolume<T>>(
        &self,
        slots: &mut [Node<B>],
        slot_base: u32,
        mut prims: Prims<'_, T>,
        (corners, scratch): (&Corners<'_, T>, &mut [u32]),
        first: u32,
        depth: u32,
    ) -> Result<usize, FitError> {
        let n = prims.len();
        let bv: B = self.fit(&prims, (corners, &mut *scratch), slot_base)?;
        if self.is_leaf(n, depth) {
            slots[0] = Node {
                bv,
                child_or_first: first,
                count: n as u32,
            };
            return Ok(1);
        }
        let k = self.split(&bv, &mut prims);
        let right_slot = slot_base + 2 * k as u32;
        slots[0] = Node {
            bv,
            child_or_first: right_slot,
            count: 0,
        };
        let (_, rest) = slots.split_at_mut(1);
        let (left_slots, right_slots) = rest.split_at_mut(2 * k - 1);
        let (lp, rp) = prims.split_at(k);
        let (ls, rs) = scratch.split_at_mut((3 * k).min(scratch.len()));
        let left = move || {
            self.node(
                left_slots,
                slot_base + 1,
                lp,
                (corners, ls),
                first,
                depth + 1,
            )
        };
        let right = move || {
            self.node(
                right_slots,
                right_slot,
                rp,
                (corners, rs),
                first + k as u32,
                depth + 1,
            )
        };
        if n >= PARALLEL_THRESHOLD {
            let (l, r) = rayon::join(left, right);
            Ok(1 + l? + r?)
        } else {
            Ok(1 + left()? + right()?)
        }
    }

    /// Partitions `prims` (median or mean split) and returns the size `k`
    /// of the left part, `0 < k < n`.
    fn split<T: Scalar, B: BoundingVolume<T>>(&self, bv: &B, prims: &mut Prims<'_, T>) -> usize {
        let n = prims.len();
        let median = |prims: &mut Prims<'_, T>, axis: Vector3<T>| {
            prims.select_nth(n / 2, |c| c.coords.dot(&axis));
            n / 2
        };
        let axis = longest_axis(bv);
        match self.opts.split {
            SplitRule::Mean => {
                let mean = prims
                    .moms
                    .iter()
                    .fold(T::ZERO, |s, m| s + m.centroid.coords.dot(&axis))
                    / T::lit(n as f64);
                let k = prims.partition(|c| c.coords.dot(&axis) < mean);
                if k == 0 || k == n {
                    median(prims, axis)
                } else {
                    k
                }
            }
            SplitRule::Median | SplitRule::Sah { .. } => median(prims, axis),
        }
    }
}

/// The longest axis of a volume's bounding OBB (for an AABB: its longest side).
fn longest_axis<T: Scalar, B: BoundingVolume<T>>(bv: &B) -> Vector3<T> {
    let obb = bv.bounding_obb();
    let e = obb.half_extents;
    let i = if e.x >= e.y && e.x >= e.z {
        0
    } else if e.y >= e.z {
        1
    } else {
        2
    };
    obb.axes.column(i).into_owned()
}

/// `Node::count` of a slot the median/mean builder left unused.
const UNUSED: u32 = u32::MAX;

/// Squeezes out unused slots (`count == UNUSED`), keeping preorder and
/// remapping right-child indices. One sequential pass numbers the used
/// slots (and records which slot each node comes from); the nodes are then
/// written in one indexed parallel pass.
fn compact<B: Clone + Send + Sync>(slots: Vec<Node<B>>) -> Vec<Node<B>> {
    let mut new_index = Vec::with_capacity(slots.len());
    let mut from = Vec::with_capacity(slots.len().div_ceil(2));
    for (i, s) in slots.iter().enumerate() {
        new_index.push(from.len() as u32);
        if s.count != UNUSED {
            from.push(i as u32);
        }
    }
    from.par_iter()
        .map(|&i| {
            let mut node = slots[i as usize].clone();
            if !node.is_leaf() {
                node.child_or_first = new_index[node.child_or_first as usize];
            }
            node
        })
        .collect()
}
