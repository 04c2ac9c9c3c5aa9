//! Top-down construction (RTCD §6.2.1, Eberly §6.2), parallel with
//! `rayon::join` and bit-identical on any number of threads.
//!
//! The median/mean builder keeps one working element per triangle (its
//! moments about the mesh's origin and its id; see `partition::Prims`), so
//! a node's triangles are always one contiguous slice: no buffer is
//! allocated per node. Each triangle's moments are computed once, so a
//! node's continuous-PCA covariance is a sum (Eberly §6.1.3); a parent
//! sums both children's moments, and lists their distinct vertices, in the
//! one pass that moves its elements into the children's order. Volumes
//! fitted along principal axes (OBB, RSS) then need no triangles: the axes
//! come from the sum and the extents from the listed vertices. A subtree over `n`
//! triangles owns `2n - 1` node slots (the most a tree with non-empty leaves can
//! use); its left child over `k` triangles owns the next `2k - 1` slots and the
//! right child the `2(n - k) - 1` after those. Subtrees therefore write disjoint
//! slices and can be built in parallel with no synchronisation; when leaves
//! hold more than one triangle, a final pass squeezes out the unused slots,
//! keeping preorder (with one triangle per leaf every slot is used).

use crate::Node;
use crate::partition::{Elem, Prims};
use crate::partition::{
    Lanes, Parted, SahPrims, empty_lanes, fold_chunks, grow_lanes, half_area_lanes, lanes_to_aabb,
    triangle_lanes,
};
use clash_bv::{BoundingVolume, FitError, IndexedPoints};
use clash_math::{Matrix3, MomentSum, Point3, Scalar, Triangle, TriangleMoments, Vector3};
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
const PARALLEL_THRESHOLD: usize = 2048;

/// SAH nodes with at least this many triangles are binned and partitioned
/// in chunked parallel passes (the choice depends only on the node's size,
/// so the tree does not depend on the number of threads).
const PARALLEL_SPLIT: usize = 1 << 15;

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
/// builder lists each node's distinct corners for the fits along axes
/// ([`BoundingVolume::fit_along_axes`]): about six times fewer points than
/// three corners per triangle on a closed mesh.
#[derive(Clone, Copy)]
pub(crate) struct CornerSource<'a, T: Scalar> {
    pub vertices: &'a [Point3<T>],
    pub indices: &'a [[u32; 3]],
}

impl<T: Scalar> CornerSource<'_, T> {
    /// Triangle `id` of the mesh.
    #[inline]
    fn triangle(&self, id: usize) -> Triangle<T> {
        let [a, b, c] = self.indices[id];
        let v = self.vertices;
        Triangle::new(v[a as usize], v[b as usize], v[c as usize])
    }

    /// The triangles `0..n` in parallel (order-preserving).
    fn triangles(&self) -> Vec<Triangle<T>> {
        (0..self.indices.len())
            .into_par_iter()
            .map(|i| self.triangle(i))
            .collect()
    }
}

/// What every node of the median/mean builder reads: the mesh's vertices
/// and index triples (triangles by id), and one stamp per
/// vertex: the slot of the last node whose corner list took it. A parent
/// lists its children's corners (left child, then right) as it moves their
/// elements; siblings built on different threads share vertices, so a stamp
/// can be overwritten between two corners of one node, and the vertex is
/// then listed twice, which changes no extent (a minimum or maximum over a
/// repeated point), so the fit does not depend on the schedule. A vertex is
/// never missed: a node's slot is unique, so the first of its corners at a
/// vertex always finds another stamp. A list never exceeds three entries
/// per triangle.
struct Shared<'a, T: Scalar> {
    source: CornerSource<'a, T>,
    /// Empty when no node fits along axes (`lists` false).
    stamps: Vec<AtomicU32>,
    lists: bool,
}

impl<T: Scalar> Shared<'_, T> {
    /// A lone triangle's frame ([`clash_bv::lone_triangle_axes`]); `None`
    /// for a degenerate or overflowing one (a non-finite corner makes the
    /// area non-finite).
    fn lone_axes(&self, e: &Elem) -> Option<Matrix3<T>> {
        if e.m.area > 0.0 && e.m.area.is_finite() {
            clash_bv::lone_triangle_axes(&self.source.triangle(e.id as usize))
        } else {
            None
        }
    }

    /// Appends the corners of triangle `id` not yet stamped `slot` to
    /// `out[*m..]`. Branch-free (whether a corner is new is as good as
    /// random): each corner is written at `out[*m]` and kept only if new,
    /// which stays in bounds since `out` has room for every corner visited.
    #[inline(always)]
    fn list(&self, id: u32, slot: u32, out: &mut [u32], m: &mut usize) {
        for &v in &self.source.indices[id as usize] {
            let stamp = &self.stamps[v as usize];
            let new = stamp.load(Ordering::Relaxed) != slot;
            stamp.store(slot, Ordering::Relaxed);
            out[*m] = v;
            *m += new as usize;
        }
    }
}

/// A node's corner list: room for three entries per triangle, of which
/// the first `len` are the node's distinct vertices (see [`Shared`]).
struct CornerList<'a> {
    ids: &'a mut [u32],
    len: usize,
}

pub(crate) fn build<T: Scalar, B: BoundingVolume<T>>(
    corners: CornerSource<'_, T>,
    opts: &BuildOptions,
) -> Result<Built<T, B>, FitError> {
    let builder = Builder { opts: *opts };
    if let SplitRule::Sah { bins } = opts.split {
        return builder.build_sah(corners.triangles(), bins as usize);
    }
    let n = corners.indices.len();
    // Nodes fit along axes from summed moments and listed corners, without
    // their triangles, unless the volume or the fit needs the triangles.
    let lists = B::FITS_ALONG_AXES && opts.fit != FitQuality::Tight;
    let carry = !B::FITS_ALONG_AXES || opts.fit != FitQuality::Default;
    // Set-up runs on the pool too (order-preserving collects). Each
    // triangle's moments once, about the centre of the centroids' bounds
    // (minimum and maximum are exact, so the reduction is deterministic).
    let (lo, hi) = (0..n)
        .into_par_iter()
        .map(|i| {
            let c = corners.triangle(i).centroid();
            (c, c)
        })
        .reduce(
            || {
                (
                    Point3::from(Vector3::repeat(T::INFINITY)),
                    Point3::from(Vector3::repeat(T::NEG_INFINITY)),
                )
            },
            |a, b| (a.0.inf(&b.0), a.1.sup(&b.1)),
        );
    let origin = Point3::from((lo.coords.map(T::to_f64) + hi.coords.map(T::to_f64)) * 0.5);
    let mut elems: Vec<Elem> = (0..n)
        .into_par_iter()
        .map(|i| Elem {
            m: TriangleMoments::new(&corners.triangle(i)).about(&origin),
            id: i as u32,
        })
        .collect();
    let mut alt = vec![Elem::default(); n];
    let (mut tris, mut alt_tris) = if carry {
        let tris = corners.triangles();
        (tris.clone(), tris)
    } else {
        (Vec::new(), Vec::new())
    };
    let mut recs = vec![0u128; n];
    let mut order = vec![0u32; n];
    // Unused slots keep a placeholder (the fit of one triangle, marked by
    // `count == UNUSED`); a full tree (one triangle per leaf, the default)
    // uses every slot and needs no compaction.
    let placeholder = Node {
        bv: B::fit_triangles(&[corners.triangle(0)])?,
        child_or_first: 0,
        count: UNUSED,
    };
    let mut slots: Vec<Node<B>> = vec![placeholder; 2 * n - 1];
    let shared = Shared {
        stamps: if lists {
            (0..corners.vertices.len())
                .into_par_iter()
                .map(|_| AtomicU32::new(u32::MAX))
                .collect()
        } else {
            Vec::new()
        },
        source: corners,
        lists,
    };
    let mut corner_ids: Vec<u32> = vec![0; if lists { 3 * n } else { 0 }];
    let mut len = 0;
    if lists {
        for id in 0..n as u32 {
            shared.list(id, 0, &mut corner_ids, &mut len);
        }
    }
    let sum = MomentSum::of(elems.iter().map(|e| e.m));
    let root_axes = match (&*elems, shared.lists) {
        (_, false) => None,
        ([e], true) => shared.lone_axes(e),
        (_, true) => clash_bv::principal_axes_of_sum(&sum),
    };
    let used = builder.node(
        &shared,
        &mut slots,
        0,
        Prims {
            elems: &mut elems,
            alt: &mut alt,
            tris: &mut tris,
            alt_tris: &mut alt_tris,
            recs: &mut recs,
            order: &mut order,
        },
        root_axes,
        CornerList {
            ids: &mut corner_ids,
            len,
        },
        0,
        0,
    )?;
    drop((elems, alt, tris, alt_tris, recs, corner_ids, shared));
    let leaf_tris: Vec<Triangle<T>> = order
        .par_iter()
        .map(|&i| corners.triangle(i as usize))
        .collect();
    Ok(Built {
        nodes: if used == slots.len() {
            slots
        } else {
            compact(slots)
        },
        tris: leaf_tris,
        ids: order,
    })
}

impl Builder {
    /// The volume of one node of the median/mean builder. Fits along axes
    /// take `axes` (the continuous-PCA axes of the node's summed moments,
    /// or a lone triangle's own frame, computed by the parent, see
    /// [`Self::axes_x2`]) and the extents over its listed corners (a lone
    /// triangle's own corners); other fits take the node's (carried)
    /// triangles.
    fn fit<T: Scalar, B: BoundingVolume<T>>(
        &self,
        shared: &Shared<'_, T>,
        prims: &Prims<'_, T>,
        axes: Option<Matrix3<T>>,
        corners: &[u32],
    ) -> Result<B, FitError> {
        let n = prims.len();
        let along = B::FITS_ALONG_AXES
            && match self.opts.fit {
                FitQuality::Default => true,
                FitQuality::TightAbove { min_triangles } => n < min_triangles as usize,
                FitQuality::Tight => false,
            };
        if !along {
            return self.opts.fit.fit(prims.tris);
        }
        if let Some(axes) = axes {
            // A lone triangle's corners are not listed by its parent.
            let corners = match &*prims.elems {
                [e] => &shared.source.indices[e.id as usize][..],
                _ => corners,
            };
            let points = IndexedPoints::new(shared.source.vertices, corners)?;
            if let Some(bv) = B::fit_along_axes(&axes, &points) {
                return Ok(bv);
            }
        }
        // Degenerate triangles (zero total area) or overflow: the checked
        // fit over the triangles, as `fit_triangles` would. Rare, so the
        // triangles are gathered here.
        let tris: Vec<Triangle<T>> = prims
            .elems
            .iter()
            .map(|e| shared.source.triangle(e.id as usize))
            .collect();
        B::fit_triangles(&tris)
    }

    /// The axes of two sibling nodes' fits along axes: a lone triangle's
    /// own frame, else the continuous-PCA axes of the summed moments
    /// (Eberly §6.1.3), the two eigen solves side by side (they are bound
    /// by latency, and overlap); `None` where the fit takes the checked
    /// path over the triangles or fits no axes.
    fn axes_x2<T: Scalar>(
        &self,
        shared: &Shared<'_, T>,
        elems: [&[Elem]; 2],
        sums: [&MomentSum; 2],
    ) -> [Option<Matrix3<T>>; 2] {
        if !shared.lists {
            return [None, None];
        }
        let lone = |elems: &[Elem]| match elems {
            [e] => Some(shared.lone_axes(e)),
            _ => None,
        };
        match (lone(elems[0]), lone(elems[1])) {
            (Some(a), Some(b)) => [a, b],
            (Some(a), None) => [a, clash_bv::principal_axes_of_sum(sums[1])],
            (None, Some(b)) => [clash_bv::principal_axes_of_sum(sums[0]), b],
            (None, None) => clash_bv::principal_axes_of_sums(sums),
        }
    }

    fn is_leaf(&self, n: usize, depth: u32) -> bool {
        n <= self.opts.max_leaf_size as usize || depth >= self.opts.max_depth
    }

    /// Builds the subtree over `prims` into `slots` (whose first element is
    /// global slot `slot_base`); `axes` are its fit's axes (see
    /// [`Self::fit`]) and `corners` its distinct vertices; `first` is the
    /// global position of `prims[0]` in the leaf order. Median and mean
    /// splits.
    #[allow(clippy::too_many_arguments)]
    fn node<T: Scalar, B: BoundingVolume<T>>(
        &self,
        shared: &Shared<'_, T>,
        slots: &mut [Node<B>],
        slot_base: u32,
        mut prims: Prims<'_, T>,
        axes: Option<Matrix3<T>>,
        corners: CornerList<'_>,
        first: u32,
        depth: u32,
    ) -> Result<usize, FitError> {
        let n = prims.len();
        if self.is_leaf(n, depth) {
            return self.leaf(shared, &mut slots[0], prims, axes, corners, first);
        }
        let bv: B = self.fit(shared, &prims, axes, &corners.ids[..corners.len])?;
        let k = self.split(&bv, &mut prims);
        let right_slot = slot_base + 2 * k as u32;
        // One pass moves the elements into the children's order, sums each
        // child's moments and lists each child's corners (a child fitted
        // along axes from more than one triangle needs both; a lone
        // triangle is fitted from itself). A node of two triangles has been
        // ordered in place by `split`.
        let (ls_ids, rs_ids) = corners.ids.split_at_mut((3 * k).min(corners.ids.len()));
        let (mut ls, mut rs) = (MomentSum::default(), MomentSum::default());
        let (mut lm, mut rm) = (0, 0);
        if n > 2 {
            let (list_left, list_right) = (shared.lists && k > 1, shared.lists && n - k > 1);
            prims.gather(
                k,
                |e| {
                    if list_left {
                        ls.add(&e.m);
                        shared.list(e.id, slot_base + 1, ls_ids, &mut lm);
                    }
                },
                |e| {
                    if list_right {
                        rs.add(&e.m);
                        shared.list(e.id, right_slot, rs_ids, &mut rm);
                    }
                },
            );
        }
        slots[0] = Node {
            bv,
            child_or_first: right_slot,
            count: 0,
        };
        let (_, rest) = slots.split_at_mut(1);
        let (left_slots, right_slots) = rest.split_at_mut(2 * k - 1);
        let (lp, rp) = prims.split_at(k);
        let (lc, rc) = (
            CornerList {
                ids: ls_ids,
                len: lm,
            },
            CornerList {
                ids: rs_ids,
                len: rm,
            },
        );
        let (lf, rf) = (first, first + k as u32);
        let [la, ra] = self.axes_x2(shared, [&*lp.elems, &*rp.elems], [&ls, &rs]);
        if n >= PARALLEL_THRESHOLD {
            let (l, r) = rayon::join(
                move || self.node(shared, left_slots, slot_base + 1, lp, la, lc, lf, depth + 1),
                move || self.node(shared, right_slots, right_slot, rp, ra, rc, rf, depth + 1),
            );
            Ok(1 + l? + r?)
        } else {
            // No closures on the sequential path: their captures would be
            // marshalled for every node; leaves are written directly.
            let l = if self.is_leaf(k, depth + 1) {
                self.leaf(shared, &mut left_slots[0], lp, la, lc, lf)?
            } else {
                self.node(shared, left_slots, slot_base + 1, lp, la, lc, lf, depth + 1)?
            };
            let r = if self.is_leaf(n - k, depth + 1) {
                self.leaf(shared, &mut right_slots[0], rp, ra, rc, rf)?
            } else {
                self.node(shared, right_slots, right_slot, rp, ra, rc, rf, depth + 1)?
            };
            Ok(1 + l + r)
        }
    }

    /// Writes the leaf over `prims` (fitted along `axes`, see [`Self::fit`])
    /// into `slot`, and its triangles' ids into the leaf order.
    #[inline]
    fn leaf<T: Scalar, B: BoundingVolume<T>>(
        &self,
        shared: &Shared<'_, T>,
        slot: &mut Node<B>,
        prims: Prims<'_, T>,
        axes: Option<Matrix3<T>>,
        corners: CornerList<'_>,
        first: u32,
    ) -> Result<usize, FitError> {
        let bv: B = self.fit(shared, &prims, axes, &corners.ids[..corners.len])?;
        for (o, e) in prims.order.iter_mut().zip(prims.elems.iter()) {
            *o = e.id;
        }
        *slot = Node {
            bv,
            child_or_first: first,
            count: prims.len() as u32,
        };
        Ok(1)
    }

    /// Ranks `prims` for a median or mean split (the records of the left
    /// part first) and returns the size `k` of the left part, `0 < k < n`.
    /// Keys are the centroids' offsets from the mesh's origin along the
    /// longest axis of the node's volume.
    fn split<T: Scalar, B: BoundingVolume<T>>(&self, bv: &B, prims: &mut Prims<'_, T>) -> usize {
        let n = prims.len();
        let axis = longest_axis(bv).map(T::to_f64);
        let key = |e: &Elem| {
            let d = &e.m.offset;
            d[0] * axis.x + d[1] * axis.y + d[2] * axis.z
        };
        if n == 2 {
            // The median and the mean split agree on two elements (the mean
            // of two keys lies between them; equal keys fall back to the
            // median): the lower record goes left.
            prims.order_pair(key);
            return 1;
        }
        if let SplitRule::Mean = self.opts.split {
            let mean = prims.elems.iter().fold(0.0, |s, e| s + key(e)) / n as f64;
            let k = prims.partition_records(|e| key(e) < mean);
            if 0 < k && k < n {
                return k;
            }
        }
        prims.select_lowest(n / 2, key);
        n / 2
    }

    // --- binned SAH --------------------------------------------------------
    //
    // The SAH builder permutes only the triangles' boxes (in the lane layout
    // of `partition::Lanes`) and ids; the triangles are gathered into leaf
    // order at the end. Every node's exact corner bounds come from the
    // binning that split its parent, so no node is fitted during the build:
    // AABB trees with the default fit take them as their volumes, other
    // volumes are fitted afterwards, in parallel, to each node's (final,
    // contiguous) triangles. Subtrees write runs of nodes in preorder with
    // run-relative child links; the runs are concatenated at the end.

    fn build_sah<T: Scalar, B: BoundingVolume<T>>(
        &self,
        triangles: Vec<Triangle<T>>,
        bins: usize,
    ) -> Result<Built<T, B>, FitError> {
        let n = triangles.len();
        let mut boxes: Vec<Lanes<T>> = triangles.par_iter().map(triangle_lanes).collect();
        let mut ids: Vec<u32> = (0..n as u32).into_par_iter().collect();
        // Zeroed allocations: pages are only touched by the parallel passes.
        let scratch = n;
        let mut alt_boxes: Vec<Lanes<T>> = vec![[T::ZERO; 8]; scratch];
        let mut alt_ids: Vec<u32> = vec![0; scratch];
        let prims = SahPrims {
            boxes: &mut boxes,
            ids: &mut ids,
            alt_boxes: &mut alt_boxes,
            alt_ids: &mut alt_ids,
            swapped: false,
        };
        let (bounds, cents) = prims.bounds();
        let runs = self.sah_task(prims, bins, 0, 0, bounds, cents);
        drop((boxes, alt_boxes, alt_ids));
        let tris: Vec<Triangle<T>> = ids.par_iter().map(|&i| triangles[i as usize]).collect();
        drop(triangles);
        let mut offsets = Vec::with_capacity(runs.len());
        let mut total = 0u32;
        for run in &runs {
            offsets.push(total);
            total += run.len() as u32;
        }
        let fit = self.opts.fit;
        // One indexed parallel pass writes the final array: node `g` is
        // entry `g - offsets[r]` of the run `r` that holds it.
        let nodes = (0..total)
            .into_par_iter()
            .map(|g| {
                let run = offsets.partition_point(|&o| o <= g) - 1;
                let (r, offset) = (&runs[run][(g - offsets[run]) as usize], offsets[run]);
                let from_bounds = match fit {
                    FitQuality::Default => B::from_triangle_bounds(&lanes_to_aabb(&r.bounds)),
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

    /// Builds the subtree over `prims` (exact corner bounds `bounds`, centre
    /// key bounds `cents`; `first` is the leaf-order position of `prims[0]`),
    /// forking below nodes of at least [`PARALLEL_THRESHOLD`] triangles.
    fn sah_task<T: Scalar>(
        &self,
        mut prims: SahPrims<'_, T>,
        bins: usize,
        first: u32,
        depth: u32,
        bounds: Lanes<T>,
        cents: Lanes<T>,
    ) -> Runs<T> {
        let n = prims.len();
        if n < PARALLEL_THRESHOLD || self.is_leaf(n, depth) {
            prims.go_home();
            let mut run = Vec::new();
            self.sah_seq(prims, bins, first, depth, bounds, cents, &mut run);
            return vec![run];
        }
        let s = sah_split(&mut prims, bins, &cents);
        let k = s.k;
        let (lp, rp) = prims.split_at(k);
        let (l, r) = rayon::join(
            || self.sah_task(lp, bins, first, depth + 1, s.left, s.left_cents),
            || {
                self.sah_task(
                    rp,
                    bins,
                    first + k as u32,
                    depth + 1,
                    s.right,
                    s.right_cents,
                )
            },
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

    /// [`Self::sah_task`] on the current thread, appending to one run.
    #[allow(clippy::too_many_arguments)]
    fn sah_seq<T: Scalar>(
        &self,
        mut prims: SahPrims<'_, T>,
        bins: usize,
        first: u32,
        depth: u32,
        bounds: Lanes<T>,
        cents: Lanes<T>,
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
        let s = sah_split(&mut prims, bins, &cents);
        let (lp, rp) = prims.split_at(s.k);
        self.sah_seq(lp, bins, first, depth + 1, s.left, s.left_cents, run);
        run[me].right = run.len() as u32;
        self.sah_seq(
            rp,
            bins,
            first + s.k as u32,
            depth + 1,
            s.right,
            s.right_cents,
            run,
        );
    }
}

/// A node of the SAH builder before its volume is fitted.
#[derive(Clone, Copy)]
struct RawNode<T: Scalar> {
    /// Exact bounds of the node's triangles' corners.
    bounds: Lanes<T>,
    /// Leaf-order position of its first triangle.
    first: u32,
    /// Number of triangles below it.
    n: u32,
    /// Internal node: the right child's index relative to the start of the
    /// node's run. 0 for a leaf.
    right: u32,
}

/// Runs of nodes in preorder; concatenated, they are the tree.
type Runs<T> = Vec<Vec<RawNode<T>>>;

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

/// The bin of centre key `x`: `floor((x - origin) * scale)` clamped to
/// `0..=top` (`top` is the last bin, at most 255), with NaN in bin 0.
#[inline(always)]
fn bin_of<T: Scalar>(x: T, origin: T, scale: T, top: f32) -> usize {
    let f = ((x - origin) * scale).to_f32();
    let f = if f > 0.0 { f } else { 0.0 };
    let f = if f < top { f } else { top };
    // SAFETY: `f` lies in `[0, top]` with `top <= 255` (NaN fails `f > 0`
    // and became 0), so it is finite and its truncation fits in `u32`, as
    // `to_int_unchecked` requires. Tested by `tests::bin_of_clamps`.
    unsafe { f.to_int_unchecked::<u32>() as usize }
}

/// The binning of a node: per axis and bin, the bounds of the boxes whose
/// centre key falls in it and their count.
#[derive(Clone, Copy)]
struct Bins<T: Scalar, const N: usize> {
    boxes: [[Lanes<T>; N]; 3],
    counts: [[u32; N]; 3],
}

impl<T: Scalar, const N: usize> Bins<T, N> {
    fn merge(mut self, other: Self) -> Self {
        for k in 0..3 {
            for b in 0..N {
                grow_lanes(&mut self.boxes[k][b], &other.boxes[k][b]);
                self.counts[k][b] += other.counts[k][b];
            }
        }
        self
    }
}

/// Where a node's centre keys go: bin origin and scale per axis.
struct Grid<T: Scalar> {
    origin: [T; 3],
    scale: [T; 3],
    live: [bool; 3],
    bins: usize,
    /// The last bin, `bins - 1`.
    top: f32,
}

impl<T: Scalar> Grid<T> {
    /// The grid over centre key bounds `cents`.
    fn new(cents: &Lanes<T>, bins: usize) -> Self {
        let origin = [-cents[0], -cents[1], -cents[2]];
        let extent: [T; 3] = core::array::from_fn(|k| cents[4 + k] - origin[k]);
        let live: [bool; 3] = core::array::from_fn(|k| extent[k] > T::ZERO && extent[k].finite());
        let scale = core::array::from_fn(|k| {
            if live[k] {
                T::lit(bins as f64) / extent[k]
            } else {
                T::ZERO
            }
        });
        Self {
            origin,
            scale,
            live,
            bins,
            top: (bins - 1) as f32,
        }
    }

    /// Bins `boxes` on all three axes in one pass.
    fn fill<const N: usize>(&self, boxes: &[Lanes<T>]) -> Bins<T, N> {
        let mut out = Bins {
            boxes: [[empty_lanes(); N]; 3],
            counts: [[0; N]; 3],
        };
        for b in boxes {
            // All three bins first, then the updates: the box stays in
            // registers as two (f32) or four (f64) vectors.
            let b = *b;
            let at: [usize; 3] = core::array::from_fn(|k| {
                bin_of(b[4 + k] - b[k], self.origin[k], self.scale[k], self.top)
            });
            for (k, &bin) in at.iter().enumerate() {
                grow_lanes(&mut out.boxes[k][bin], &b);
                out.counts[k][bin] += 1;
            }
        }
        out
    }
}

/// A node's split: the left part's size and both parts' exact corner
/// bounds and centre key bounds.
struct Split<T: Scalar> {
    k: usize,
    left: Lanes<T>,
    right: Lanes<T>,
    left_cents: Lanes<T>,
    right_cents: Lanes<T>,
}

/// Chooses the binned-SAH plane for `prims` (centre key bounds `cents`)
/// and partitions them by it. When all centre keys coincide, splits the
/// current order in half.
fn sah_split<T: Scalar>(prims: &mut SahPrims<'_, T>, bins: usize, cents: &Lanes<T>) -> Split<T> {
    let grid = Grid::new(cents, bins);
    let plane = if bins <= 16 {
        best_plane::<T, 16>(prims.boxes, &grid)
    } else if bins <= 64 {
        best_plane::<T, 64>(prims.boxes, &grid)
    } else {
        best_plane::<T, 256>(prims.boxes, &grid)
    };
    let n = prims.len();
    let Some((axis, last_left, left, right)) = plane else {
        let k = n / 2;
        let part = |bs: &[Lanes<T>]| {
            bs.iter()
                .fold((empty_lanes(), empty_lanes()), |(mut b, mut c), x| {
                    grow_lanes(&mut b, x);
                    grow_lanes(&mut c, &crate::partition::centre_lanes(x));
                    (b, c)
                })
        };
        let ((left, left_cents), (right, right_cents)) =
            (part(&prims.boxes[..k]), part(&prims.boxes[k..]));
        return Split {
            k,
            left,
            right,
            left_cents,
            right_cents,
        };
    };
    let (origin, scale, top) = (grid.origin[axis], grid.scale[axis], grid.top);
    // The very binning that chose the plane sends each box left or right,
    // so the bins' bounds are exactly the parts' bounds and neither is empty.
    let goes_left =
        move |b: &Lanes<T>| bin_of(b[4 + axis] - b[axis], origin, scale, top) <= last_left;
    let (k, left_cents, right_cents): Parted<T> = if n >= PARALLEL_SPLIT {
        prims.partition_stable(goes_left)
    } else {
        prims.partition_in_place(goes_left)
    };
    debug_assert!(0 < k && k < n);
    Split {
        k,
        left,
        right,
        left_cents,
        right_cents,
    }
}

/// Binned SAH over `grid.bins <= N` bins per axis: the plane (axis, last
/// bin on the left) with the lowest cost, left area times left count plus
/// right area times right count, with both parts' bounds; `None` when no axis is live. `N`
/// only sizes the stack arrays, so that small bin counts do not initialise
/// 256 bins per node.
fn best_plane<T: Scalar, const N: usize>(
    boxes: &[Lanes<T>],
    grid: &Grid<T>,
) -> Option<(usize, usize, Lanes<T>, Lanes<T>)> {
    if !grid.live.iter().any(|&l| l) {
        return None;
    }
    let n = boxes.len();
    let binned: Bins<T, N> = if n >= PARALLEL_SPLIT {
        fold_chunks(n, |r| grid.fill::<N>(&boxes[r]), Bins::merge)
    } else {
        grid.fill::<N>(boxes)
    };
    let bins = grid.bins;
    let mut best: Option<(T, usize, usize)> = None;
    let mut right_area = [T::ZERO; N];
    for axis in (0..3).filter(|&k| grid.live[k]) {
        let (bs, counts) = (&binned.boxes[axis], &binned.counts[axis]);
        // sweep from the right: area of bins [i, bins)
        let mut acc = empty_lanes();
        for i in (1..bins).rev() {
            grow_lanes(&mut acc, &bs[i]);
            right_area[i] = half_area_lanes(&acc);
        }
        let mut acc = empty_lanes();
        let mut nl = 0usize;
        for i in 0..bins - 1 {
            grow_lanes(&mut acc, &bs[i]);
            nl += counts[i] as usize;
            let nr = n - nl;
            if nl == 0 || nr == 0 {
                continue;
            }
            let cost =
                half_area_lanes(&acc) * T::lit(nl as f64) + right_area[i + 1] * T::lit(nr as f64);
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, axis, i));
            }
        }
    }
    let (_, axis, last_left) = best?;
    let union = |range: core::ops::Range<usize>| {
        binned.boxes[axis][range]
            .iter()
            .fold(empty_lanes(), |mut acc, b| {
                grow_lanes(&mut acc, b);
                acc
            })
    };
    Some((
        axis,
        last_left,
        union(0..last_left + 1),
        union(last_left + 1..bins),
    ))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bin_of_clamps() {
        let top = 15.0;
        for (x, want) in [
            (f32::NAN, 0),
            (f32::NEG_INFINITY, 0),
            (-3.5, 0),
            (-0.0, 0),
            (0.0, 0),
            (0.999, 0),
            (1.0, 1),
            (7.9, 7),
            (15.0, 15),
            (15.99, 15),
            (16.0, 15),
            (3e9, 15),
            (f32::INFINITY, 15),
        ] {
            assert_eq!(bin_of(x, 0.0, 1.0, top), want, "{x}");
            assert_eq!(bin_of(f64::from(x), 0.0, 1.0, top), want, "{x}");
        }
        assert_eq!(bin_of(5.0f64, 1.0, 0.5, 255.0), 2);
        assert_eq!(bin_of(1e300f64, 0.0, 1.0, 255.0), 255);
        assert_eq!(bin_of(300.5f32, 0.0, 1.0, 255.0), 255);
        assert_eq!(bin_of(254.5f32, 0.0, 1.0, 255.0), 254);
    }
}
