//! Top-down construction (RTCD §6.2.1, Eberly §6.2), parallel with
//! `rayon::join` and bit-identical on any number of threads.
//!
//! The median/mean builder keeps one working element per triangle (its
//! moments about the mesh's origin and its id; see `partition::Prims`), so
//! a node's triangles are always one contiguous slice: no buffer is
//! allocated per node. Each triangle's moments are computed once, so a
//! node's continuous-PCA covariance is a sum (Eberly §6.1.3); a parent
//! partitions its elements in place, then sums each child's moments and
//! lists its distinct vertices in one pass over the child. Volumes
//! fitted along principal axes (OBB, RSS) then need no triangles: the axes
//! come from the sum and the extents from the listed vertices. A subtree over `n`
//! triangles owns `2n - 1` node slots (the most a tree with non-empty leaves can
//! use); its left child over `k` triangles owns the next `2k - 1` slots and the
//! right child the `2(n - k) - 1` after those. Subtrees therefore write disjoint
//! slices and can be built in parallel with no synchronisation. The slots
//! start uninitialised (no pass fills them); with one triangle per leaf
//! every slot is written, and otherwise a final walk from the root collects
//! the written ones, keeping preorder (`assemble`).
//!
//! The binned-SAH split rule has a builder of its own (`sah/`).

pub(crate) mod partition;
pub(crate) mod prefault;
mod recycle;
mod sah;

use crate::Node;
use crate::build::partition::{Elem, Prims};
use crate::build::prefault::prefault;
use crate::build::recycle::{recyclable, recycle};
use clash_bv::{BoundingVolume, FitError, FitScratch, IndexedPoints};
use clash_math::{Matrix3, MomentSum, Point3, Scalar, Triangle, TriangleMoments, Vector3};
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicU32, Ordering};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::{Mutex, PoisonError};

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
    ///
    /// The choice for ray queries, and for mesh/mesh distance on RSS trees:
    /// SAH trees of the meshes the repo ships answer distance queries in
    /// 15% to 64% fewer instructions than median trees (docs/benchmarks.md).
    /// Median trees stay the default: they build faster and answer
    /// any-contact queries slightly faster.
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
        self.triangle_at(self.indices[id])
    }

    /// The triangle of the vertices at `corners`.
    #[inline(always)]
    fn triangle_at(&self, [a, b, c]: [u32; 3]) -> Triangle<T> {
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
    /// Fit scratch returned by finished subtrees that were forked off
    /// (see [`Builder::node`]), for the next forked subtree to reuse
    /// (mapped memory, of the size the fits there need) instead of
    /// growing a fresh one.
    spare: Mutex<Vec<FitScratch<T>>>,
}

impl<T: Scalar> Shared<'_, T> {
    /// A lone triangle's frame ([`clash_bv::lone_triangle_axes`]); `None`
    /// for a degenerate or overflowing one (a non-finite corner makes the
    /// area non-finite).
    fn lone_axes(&self, e: &Elem) -> Option<Matrix3<T>> {
        if e.m.area > 0.0 && e.m.area.is_finite() {
            let v = self.source.vertices;
            let [a, b, c] = e.corners.map(|i| v[i as usize]);
            clash_bv::lone_triangle_axes(&Triangle::new(a, b, c))
        } else {
            None
        }
    }

    /// [`Self::lone_axes`] of two lone triangles, computed side by side
    /// ([`clash_bv::lone_triangle_axes_x2`], bit for bit the single
    /// answers); a lane whose triangle fails the area check computes on it
    /// all the same, and answers `None`.
    fn lone_axes_x2(&self, e: [&Elem; 2]) -> [Option<Matrix3<T>>; 2] {
        let v = self.source.vertices;
        let t = e.map(|e| {
            let [a, b, c] = e.corners.map(|i| v[i as usize]);
            Triangle::new(a, b, c)
        });
        let axes = clash_bv::lone_triangle_axes_x2([&t[0], &t[1]]);
        let ok = e.map(|e| e.m.area > 0.0 && e.m.area.is_finite());
        [0, 1].map(|l| if ok[l] { axes[l] } else { None })
    }

    /// A node's distinct corners, as its parent listed them in `listed`,
    /// or a lone triangle's own corners (which its parent does not list).
    fn corners<'a>(
        &'a self,
        prims: &'a Prims<'_, T>,
        listed: &'a [u32],
    ) -> Result<IndexedPoints<'a, T>, FitError> {
        let ids = match &*prims.elems {
            [e] => &e.corners[..],
            _ => listed,
        };
        IndexedPoints::new(self.source.vertices, ids)
    }

    /// Appends the corners of triangle `id` not yet stamped `slot` to
    /// `out[*m..]`. Branch-free (whether a corner is new is as good as
    /// random): each corner is written at `out[*m]` and kept only if new,
    /// which stays in bounds since `out` has room for every corner visited.
    #[inline(always)]
    fn list(&self, e: &Elem, slot: u32, out: &mut [u32], m: &mut usize) {
        for &v in &e.corners {
            let stamp = &self.stamps[v as usize];
            let new = stamp.load(Ordering::Relaxed) != slot;
            stamp.store(slot, Ordering::Relaxed);
            out[*m] = v;
            *m += new as usize;
        }
    }
}

/// `n` zeros, in a buffer mapped in one call when it is fresh
/// ([`prefault`]).
fn zeroed<E: Copy + Default>(n: usize) -> Vec<E> {
    let mut v = Vec::with_capacity(n);
    prefault(v.spare_capacity_mut());
    v.resize(n, E::default());
    v
}

pub(crate) fn build<T: Scalar, B: BoundingVolume<T>>(
    corners: CornerSource<'_, T>,
    opts: &BuildOptions,
) -> Result<Built<T, B>, FitError> {
    let builder = Builder { opts: *opts };
    if let SplitRule::Sah { .. } = opts.split {
        return crate::build::sah::build_sah(corners, opts);
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
    let mut elems: Vec<Elem> = Vec::with_capacity(n);
    prefault(elems.spare_capacity_mut());
    (0..n)
        .into_par_iter()
        .map(|i| Elem {
            m: TriangleMoments::new(&corners.triangle(i)).about(&origin),
            id: i as u32,
            corners: corners.indices[i],
        })
        .collect_into_vec(&mut elems);
    let mut tris = if carry {
        corners.triangles()
    } else {
        Vec::new()
    };
    let mut recs = zeroed::<u64>(n);
    let mut order = zeroed::<u32>(n);
    // The tree keeps its triangles in leaf order. Carried triangles end up
    // in that order by themselves. Large `f64` builds write them after the
    // build into the dead elements' memory ([`recycle`]); other builds
    // have each leaf write its own, while their corners are in cache, into
    // a buffer mapped up front, which saves a gather pass over the mesh.
    let gather = !carry && recyclable::<Elem, Triangle<T>>(elems.capacity(), n);
    let at_leaves = !carry && !gather;
    let mut leaf_buf: Vec<Triangle<T>> = Vec::with_capacity(if at_leaves { n } else { 0 });
    prefault(leaf_buf.spare_capacity_mut());
    // Slots start uninitialised: each is written once, by the node that
    // owns it (a full tree, one triangle per leaf, the default, writes every
    // slot), and only written slots are read (see `assemble`). No pass
    // fills them beforehand.
    let mut slots: Box<[MaybeUninit<Node<B>>]> = Box::new_uninit_slice(2 * n - 1);
    prefault(&mut slots);
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
        spare: Mutex::new(Vec::new()),
    };
    let mut corner_ids: Vec<u32> = zeroed(if lists { 3 * n } else { 0 });
    let mut len = 0;
    // One pass over the elements: the root's moment sum and, when nodes
    // fit along axes, its corner list.
    let mut sum = MomentSum::default();
    for e in &elems {
        sum.add(&e.m);
        if lists {
            shared.list(e, 0, &mut corner_ids, &mut len);
        }
    }
    let root_axes = match (&*elems, shared.lists) {
        (_, false) => None,
        ([e], true) => shared.lone_axes(e),
        (_, true) => clash_bv::principal_axes_of_sum(&sum),
    };
    let mut scratch = FitScratch::new();
    let prims = Prims {
        elems: &mut elems,
        tris: &mut tris,
        recs: &mut recs,
        order: &mut order,
        leaf_tris: if at_leaves {
            &mut leaf_buf.spare_capacity_mut()[..n]
        } else {
            &mut []
        },
    };
    let root: B = builder.fit(&shared, &prims, root_axes, &corner_ids[..len], &mut scratch)?;
    let used = if builder.is_leaf(n, 0) {
        builder.leaf(&shared, &mut slots[0], prims, root, 0)
    } else {
        builder.node(
            &shared,
            &mut slots,
            0,
            prims,
            root,
            &mut corner_ids,
            0,
            0,
            &mut scratch,
        )?
    };
    drop((recs, corner_ids, shared));
    let leaf_tris = if carry {
        // Permuted with the elements: in leaf order.
        drop(elems);
        tris
    } else if at_leaves {
        drop(elems);
        // SAFETY: the capacity is `n`, and every position below `n` was
        // written: each call of `Builder::leaf` writes `leaf_tris[i]` for
        // every position `i` of its slice, a node splits its slice between
        // its children (`Prims::split_at`, which splits `leaf_tris` with
        // the elements) and builds both before it returns `Ok`, and the
        // root's slice is `[0, n)`; an error returns above. Exercised by
        // every default build of fewer than about 350k triangles or in
        // `f32`, e.g. `tests::leaf_triangles_are_the_mesh_triangles_in_leaf_order`.
        unsafe { leaf_buf.set_len(n) };
        leaf_buf
    } else {
        // The leaf order is in `order`; the elements are dead, and their
        // memory, mapped already, takes the leaf triangles.
        drop(tris);
        let mut leaf_tris: Vec<Triangle<T>> = recycle(elems, n);
        prefault(leaf_tris.spare_capacity_mut());
        order
            .par_iter()
            .map(|&i| corners.triangle(i as usize))
            .collect_into_vec(&mut leaf_tris);
        leaf_tris
    };
    Ok(Built {
        nodes: assemble(slots, used),
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
        scratch: &mut FitScratch<T>,
    ) -> Result<B, FitError> {
        if !self.fits_along::<T, B>(prims.len()) {
            return self.opts.fit.fit(prims.tris);
        }
        if let Some(axes) = axes {
            let points = shared.corners(prims, corners)?;
            if let Some(bv) = B::fit_along_axes_with(&axes, &points, scratch) {
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

    /// Whether a node of `n` triangles is fitted along axes (see
    /// [`Self::fit`]).
    fn fits_along<T: Scalar, B: BoundingVolume<T>>(&self, n: usize) -> bool {
        B::FITS_ALONG_AXES
            && match self.opts.fit {
                FitQuality::Default => true,
                FitQuality::TightAbove { min_triangles } => n < min_triangles as usize,
                FitQuality::Tight => false,
            }
    }

    /// The volumes of two sibling nodes, each the very volume
    /// [`Self::fit`] gives it: side by side
    /// ([`BoundingVolume::fit_along_axes_x2_with`]) when both are fitted
    /// along axes, else one after the other.
    fn fit_x2<T: Scalar, B: BoundingVolume<T>>(
        &self,
        shared: &Shared<'_, T>,
        prims: [&Prims<'_, T>; 2],
        axes: [Option<Matrix3<T>>; 2],
        corners: [&[u32]; 2],
        scratch: &mut FitScratch<T>,
    ) -> Result<[B; 2], FitError> {
        if let [Some(a), Some(b)] = &axes
            && self.fits_along::<T, B>(prims[0].len())
            && self.fits_along::<T, B>(prims[1].len())
        {
            let points = [
                shared.corners(prims[0], corners[0])?,
                shared.corners(prims[1], corners[1])?,
            ];
            if let [Some(l), Some(r)] =
                B::fit_along_axes_x2_with([a, b], [&points[0], &points[1]], scratch)
            {
                return Ok([l, r]);
            }
        }
        Ok([
            self.fit(shared, prims[0], axes[0], corners[0], scratch)?,
            self.fit(shared, prims[1], axes[1], corners[1], scratch)?,
        ])
    }

    /// The axes of two sibling nodes' fits along axes: a lone triangle's
    /// own frame (two lone triangles' side by side), else the continuous-PCA axes of the summed moments
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
        match elems {
            [[a], [b]] => shared.lone_axes_x2([a, b]),
            [[a], _] => [
                shared.lone_axes(a),
                clash_bv::principal_axes_of_sum(sums[1]),
            ],
            [_, [b]] => [
                clash_bv::principal_axes_of_sum(sums[0]),
                shared.lone_axes(b),
            ],
            _ => clash_bv::principal_axes_of_sums(sums),
        }
    }

    fn is_leaf(&self, n: usize, depth: u32) -> bool {
        n <= self.opts.max_leaf_size as usize || depth >= self.opts.max_depth
    }

    /// Builds the subtree over `prims` into `slots` (whose first element is
    /// global slot `slot_base`); `bv` is its volume (fitted by the parent,
    /// see [`Self::fit_x2`]) and `corner_room` has room for three corners
    /// per triangle, where the node lists its children's corners; `first`
    /// is the global position of `prims[0]` in the leaf order. Median and
    /// mean splits.
    #[allow(clippy::too_many_arguments)]
    fn node<T: Scalar, B: BoundingVolume<T>>(
        &self,
        shared: &Shared<'_, T>,
        slots: &mut [MaybeUninit<Node<B>>],
        slot_base: u32,
        mut prims: Prims<'_, T>,
        bv: B,
        corner_room: &mut [u32],
        first: u32,
        depth: u32,
        scratch: &mut FitScratch<T>,
    ) -> Result<usize, FitError> {
        let n = prims.len();
        if self.is_leaf(n, depth) {
            return Ok(self.leaf(shared, &mut slots[0], prims, bv, first));
        }
        let cut = self.split(&bv, &mut prims);
        let k = cut.k;
        let right_slot = slot_base + 2 * k as u32;
        // The elements are partitioned in place, then one pass over each
        // child sums its moments and lists its corners (a child fitted
        // along axes from more than one triangle needs both; a lone
        // triangle is fitted from itself). A node of two triangles has
        // been ordered in place by `split`.
        let axis = &cut.axis;
        match cut.left {
            Left::Ranked => prims.partition_ranked(k),
            Left::BelowKey(mean) => prims.partition(k, |e, _| key_along(axis, e) < mean),
            Left::Ordered => {}
        }
        let (ls_ids, rs_ids) = corner_room.split_at_mut((3 * k).min(corner_room.len()));
        let (mut ls, mut rs) = (MomentSum::default(), MomentSum::default());
        let (mut lm, mut rm) = (0, 0);
        if shared.lists && k > 1 {
            for e in &prims.elems[..k] {
                ls.add(&e.m);
                shared.list(e, slot_base + 1, ls_ids, &mut lm);
            }
        }
        if shared.lists && n - k > 1 {
            for e in &prims.elems[k..] {
                rs.add(&e.m);
                shared.list(e, right_slot, rs_ids, &mut rm);
            }
        }
        slots[0].write(Node {
            bv,
            child_or_first: right_slot,
            count: 0,
        });
        let (_, rest) = slots.split_at_mut(1);
        let (left_slots, right_slots) = rest.split_at_mut(2 * k - 1);
        let (lp, rp) = prims.split_at(k);
        let axes = self.axes_x2(shared, [&*lp.elems, &*rp.elems], [&ls, &rs]);
        let corners = [&ls_ids[..lm], &rs_ids[..rm]];
        let [lb, rb] = self.fit_x2(shared, [&lp, &rp], axes, corners, scratch)?;
        let (lf, rf) = (first, first + k as u32);
        let (left_slot, d) = (slot_base + 1, depth + 1);
        if n >= PARALLEL_THRESHOLD {
            // The left subtree keeps this thread's scratch; the right one,
            // which may run on another thread, takes a spare one (a
            // finished forked subtree's) or starts its own, and leaves it
            // as a spare. The scratch holds no state between fits, so the
            // tree does not depend on which one a subtree gets.
            let (l, r) = rayon::join(
                move || {
                    self.node(
                        shared, left_slots, left_slot, lp, lb, ls_ids, lf, d, scratch,
                    )
                },
                move || {
                    let spare = || shared.spare.lock().unwrap_or_else(PoisonError::into_inner);
                    let own = &mut spare().pop().unwrap_or_default();
                    let r = self.node(shared, right_slots, right_slot, rp, rb, rs_ids, rf, d, own);
                    spare().push(core::mem::take(own));
                    r
                },
            );
            Ok(1 + l? + r?)
        } else {
            // No closures on the sequential path: their captures would be
            // marshalled for every node; leaves are written directly.
            let l = if self.is_leaf(k, d) {
                self.leaf(shared, &mut left_slots[0], lp, lb, lf)
            } else {
                self.node(
                    shared, left_slots, left_slot, lp, lb, ls_ids, lf, d, scratch,
                )?
            };
            let r = if self.is_leaf(n - k, d) {
                self.leaf(shared, &mut right_slots[0], rp, rb, rf)
            } else {
                self.node(
                    shared,
                    right_slots,
                    right_slot,
                    rp,
                    rb,
                    rs_ids,
                    rf,
                    d,
                    scratch,
                )?
            };
            Ok(1 + l + r)
        }
    }

    /// Writes the leaf over `prims`, of volume `bv`, into `slot`, its
    /// triangles' ids into the leaf order, and the triangles themselves
    /// when the build collects them at the leaves (`prims.leaf_tris` not
    /// empty, as long as the elements); returns the number of nodes
    /// written (one).
    #[inline]
    fn leaf<T: Scalar, B: BoundingVolume<T>>(
        &self,
        shared: &Shared<'_, T>,
        slot: &mut MaybeUninit<Node<B>>,
        prims: Prims<'_, T>,
        bv: B,
        first: u32,
    ) -> usize {
        for (o, e) in prims.order.iter_mut().zip(prims.elems.iter()) {
            *o = e.id;
        }
        if !prims.leaf_tris.is_empty() {
            assert_eq!(prims.leaf_tris.len(), prims.elems.len());
            for (t, e) in prims.leaf_tris.iter_mut().zip(prims.elems.iter()) {
                t.write(shared.source.triangle_at(e.corners));
            }
        }
        slot.write(Node {
            bv,
            child_or_first: first,
            count: prims.len() as u32,
        });
        1
    }

    /// Finds a median or mean split of `prims`: the size `k` of the left
    /// part (`0 < k < n`) and which elements go there ([`Cut`]). Keys are
    /// the centroids' offsets from the mesh's origin along the longest
    /// axis of the node's volume. A node of two elements is ordered in
    /// place here.
    fn split<T: Scalar, B: BoundingVolume<T>>(&self, bv: &B, prims: &mut Prims<'_, T>) -> Cut {
        let n = prims.len();
        let axis = longest_axis(bv).map(T::to_f64);
        let axis = [axis.x, axis.y, axis.z];
        let key = |e: &Elem| key_along(&axis, e);
        if n == 2 {
            // The median and the mean split agree on two elements (the mean
            // of two keys lies between them; equal keys fall back to the
            // median): the lower record goes left.
            prims.order_pair(key);
            return Cut {
                k: 1,
                axis,
                left: Left::Ordered,
            };
        }
        if let SplitRule::Mean = self.opts.split {
            let mean = prims.elems.iter().fold(0.0, |s, e| s + key(e)) / n as f64;
            let k = prims.elems.iter().filter(|e| key(e) < mean).count();
            if 0 < k && k < n {
                return Cut {
                    k,
                    axis,
                    left: Left::BelowKey(mean),
                };
            }
        }
        let k = n / 2;
        prims.pivot_record(k, key);
        Cut {
            k,
            axis,
            left: Left::Ranked,
        }
    }
}

/// A node's split (see [`Builder::split`]): the left part's size and which
/// elements go there.
struct Cut {
    k: usize,
    /// The axis of the keys ([`key_along`]).
    axis: [f64; 3],
    left: Left,
}

/// Which elements go to the left part of a [`Cut`].
enum Left {
    /// The `k` whose records ([`record`](crate::build::partition::record): key,
    /// then position in the node's slice) were ranked lowest, as `recs`
    /// holds them (median split, [`Prims::pivot_record`]).
    Ranked,
    /// Those whose key is below this mean (mean split).
    BelowKey(f64),
    /// The elements are in place already (a node of two).
    Ordered,
}

/// An element's split key: its centroid's offset from the mesh's origin
/// along `axis`.
#[inline(always)]
fn key_along(axis: &[f64; 3], e: &Elem) -> f64 {
    let d = &e.m.offset;
    d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2]
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

/// The nodes of a built tree from its slots, of which the builder wrote
/// `used` (see [`build`]): the slots themselves when every slot was
/// written (a full tree, one triangle per leaf), else the written ones in
/// slot order, which is preorder, with right-child indices remapped. The
/// written slots are found by walking the tree from the root, so no unused
/// (uninitialised) slot is ever read.
fn assemble<B: Clone>(slots: Box<[MaybeUninit<Node<B>>]>, used: usize) -> Vec<Node<B>> {
    if used == slots.len() {
        // SAFETY: every call of `Builder::node` or `Builder::leaf` writes
        // the first slot of the slice it owns (once, before it returns) and
        // counts it, and the slices of distinct nodes are disjoint (a
        // subtree over `m` triangles owns `2m - 1` slots, split between its
        // own slot and its children's), so `used` distinct slots were
        // written: all of them. Tested by every default build, e.g.
        // `tests::full_and_partial_trees_assemble_in_preorder`.
        return unsafe { slots.assume_init() }.into_vec();
    }
    let mut nodes: Vec<Node<B>> = Vec::with_capacity(used);
    // Preorder walk over slot indices; a right child's new index is known
    // once its left sibling's subtree is out, so the parent's link is
    // patched then.
    let mut stack: Vec<(u32, Option<usize>)> = vec![(0, None)];
    while let Some((slot, parent)) = stack.pop() {
        // SAFETY: the walk visits the root (slot 0, written by the first
        // `Builder::node` or `Builder::leaf` call) and the children of
        // visited internal nodes: an internal node written at slot `s`
        // with right child `r` called the builder on slot `s + 1` (its left
        // child) and slot `r` (its right child) before returning, and each
        // such call writes its first slot. So every visited slot was
        // written. Tested with leaves of several triangles and depth
        // limits, e.g. `tests::full_and_partial_trees_assemble_in_preorder`.
        let node = unsafe { slots[slot as usize].assume_init_ref() }.clone();
        if let Some(p) = parent {
            nodes[p].child_or_first = nodes.len() as u32;
        }
        let at = nodes.len();
        let (leaf, right) = (node.is_leaf(), node.child_or_first);
        nodes.push(node);
        if !leaf {
            stack.push((right, Some(at)));
            stack.push((slot + 1, None));
        }
    }
    debug_assert_eq!(nodes.len(), used);
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_bv::Obb;

    /// Tree shapes of the median/mean builder: the default (one triangle
    /// per leaf), leaves of up to three triangles, depth at most
    /// `max_depth`, mean splits with leaves of up to two.
    fn shapes(max_depth: u32) -> [BuildOptions; 4] {
        [
            BuildOptions::default(),
            BuildOptions::default().with_max_leaf_size(3),
            BuildOptions::default().with_max_depth(max_depth),
            BuildOptions::default()
                .with_split(SplitRule::Mean)
                .with_max_leaf_size(2),
        ]
    }

    /// Trees assembled from their slots: the full tree of one triangle per
    /// leaf (every slot written) and trees with leaves of several
    /// triangles or a depth limit (unused slots skipped) are in preorder
    /// (left child next, right child after the left subtree) and cover
    /// every triangle once, in leaf order.
    #[test]
    fn full_and_partial_trees_assemble_in_preorder() {
        let n = 37u32;
        let vertices: Vec<Point3<f64>> = (0..n + 2)
            .map(|i| {
                let t = f64::from(i) * 0.7;
                Point3::new(t.cos() * (1.0 + t), t.sin(), 0.1 * t * t)
            })
            .collect();
        let indices: Vec<[u32; 3]> = (0..n).map(|i| [i, i + 1, i + 2]).collect();
        let source = CornerSource {
            vertices: &vertices,
            indices: &indices,
        };
        for opts in shapes(3) {
            let built = build::<f64, Obb<f64>>(source, &opts).unwrap();
            let nodes = &built.nodes;
            // Walk: each internal node's left child follows it, and its
            // subtree ends where the right child starts.
            fn walk<B>(nodes: &[Node<B>], i: usize, next_leaf: &mut u32) -> usize {
                let node = &nodes[i];
                if node.is_leaf() {
                    assert_eq!(node.child_or_first, *next_leaf);
                    *next_leaf += node.count;
                    return i + 1;
                }
                let end_left = walk(nodes, i + 1, next_leaf);
                assert_eq!(node.child_or_first as usize, end_left);
                walk(nodes, end_left, next_leaf)
            }
            let mut leaves = 0;
            assert_eq!(walk(nodes, 0, &mut leaves), nodes.len(), "{opts:?}");
            assert_eq!(leaves, n, "{opts:?}");
            if opts == BuildOptions::default() {
                assert_eq!(nodes.len(), 2 * n as usize - 1);
            } else {
                assert!(nodes.len() < 2 * n as usize - 1, "{opts:?}");
            }
            let mut ids = built.ids.clone();
            ids.sort_unstable();
            assert_eq!(ids, (0..n).collect::<Vec<_>>());
        }
    }

    /// The tree's triangles are the mesh's, in leaf order, however they
    /// are collected: written by the leaves (default fits along axes, in
    /// `f64` and `f32`, with leaves of several triangles, a depth limit,
    /// mean splits, on one thread and on a pool of four), or carried
    /// along with the elements (AABB and sphere trees, the tight fits).
    /// The mesh has degenerate triangles and reused vertices, and is large
    /// enough for the parallel top levels.
    #[test]
    fn leaf_triangles_are_the_mesh_triangles_in_leaf_order() {
        use clash_bv::{Aabb, Rss, Sphere};
        fn check<T: Scalar, B: BoundingVolume<T>>(vertices: &[Point3<T>], indices: &[[u32; 3]]) {
            let source = CornerSource { vertices, indices };
            let tight = [
                BuildOptions::default().with_fit(FitQuality::Tight),
                BuildOptions::default().with_fit(FitQuality::TightAbove { min_triangles: 64 }),
            ];
            for opts in shapes(4).into_iter().chain(tight) {
                for threads in [1, 4] {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap();
                    let built = pool.install(|| build::<T, B>(source, &opts).unwrap());
                    assert_eq!(built.tris.len(), indices.len(), "{opts:?}");
                    for (pos, (t, &id)) in built.tris.iter().zip(&built.ids).enumerate() {
                        assert_eq!(*t, source.triangle(id as usize), "{opts:?}: {pos}");
                    }
                }
            }
        }
        let n = 3000u32;
        let vertices: Vec<Point3<f64>> = (0..n + 2)
            .map(|i| {
                let t = f64::from(i) * 0.37;
                Point3::new(t.cos() * (1.0 + 0.01 * t), t.sin(), 0.02 * t)
            })
            .collect();
        // Strips of the spiral, every seventh and every eleventh triangle
        // degenerate (a repeated corner).
        let indices: Vec<[u32; 3]> = (0..n)
            .map(|i| match (i % 7, i % 11) {
                (0, _) => [i, i, i + 2],
                (_, 0) => [i, i + 1, i + 1],
                _ => [i, i + 1, i + 2],
            })
            .collect();
        let v32: Vec<Point3<f32>> = vertices.iter().map(|p| p.cast()).collect();
        check::<f64, Obb<f64>>(&vertices, &indices);
        check::<f64, Rss<f64>>(&vertices, &indices);
        check::<f32, Rss<f32>>(&v32, &indices);
        check::<f64, Aabb<f64>>(&vertices, &indices);
        check::<f32, Sphere<f32>>(&v32, &indices);
    }
}
