//! Top-down construction (RTCD §6.2.1, Eberly §6.2), parallel with
//! `rayon::join` and bit-identical on any number of threads.
//!
//! The builder keeps three parallel arrays (triangles, centroids, triangle
//! ids) and partitions them in place, so a node's triangles are always one
//! contiguous slice: no buffer is allocated per node. A subtree over `n`
//! triangles owns `2n - 1` node slots (the most a tree with non-empty leaves can
//! use); its left child over `k` triangles owns the next `2k - 1` slots and the
//! right child the `2(n - k) - 1` after those. Subtrees therefore write disjoint
//! slices and can be built in parallel with no synchronisation; a final
//! sequential pass squeezes out the unused slots, keeping preorder.

use crate::Node;
use crate::partition::{CentroidBounds, Prims};
use clash_bv::{Aabb, BoundingVolume, FitError};
use clash_math::{Point3, Scalar, Triangle, Vector3};
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
    /// `min_triangles: 128` answers any-contact queries about 1.35x faster
    /// than the default fit for three times its build time (232 ms against
    /// 77 ms), within about 10% of the tight fit everywhere at about a tenth
    /// of its build time.
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

/// What a parent learnt about a child's triangles while splitting (binned
/// SAH learns both), so the child skips passes over its triangles.
#[derive(Clone, Copy)]
struct Known<T: Scalar> {
    /// Exact bounds of the triangles' corners.
    bounds: Option<Aabb<T>>,
    /// Bounds of the triangles' centroids.
    centroids: Option<CentroidBounds<T>>,
}

impl<T: Scalar> Known<T> {
    const NOTHING: Self = Self {
        bounds: None,
        centroids: None,
    };
}

/// Output of the builder: nodes in preorder, triangles and ids in leaf order.
pub(crate) struct Built<T: Scalar, B> {
    pub nodes: Vec<Node<B>>,
    pub tris: Vec<Triangle<T>>,
    pub ids: Vec<u32>,
}

pub(crate) fn build<T: Scalar, B: BoundingVolume<T>>(
    triangles: Vec<Triangle<T>>,
    opts: &BuildOptions,
) -> Result<Built<T, B>, FitError> {
    let n = triangles.len();
    let mut tris = triangles;
    // Set-up and compaction run on the pool too (order-preserving collects).
    let mut cents: Vec<Point3<T>> = tris.par_iter().map(|t| t.centroid()).collect();
    let mut ids: Vec<u32> = (0..n as u32).collect();
    let mut slots: Vec<Option<Node<B>>> = (0..2 * n - 1).into_par_iter().map(|_| None).collect();
    let builder = Builder { opts: *opts };
    builder.node(
        &mut slots,
        0,
        Prims {
            tris: &mut tris,
            cents: &mut cents,
            ids: &mut ids,
        },
        0,
        0,
        Known::NOTHING,
    )?;
    Ok(Built {
        nodes: compact(slots),
        tris,
        ids,
    })
}

impl Builder {
    fn fit<T: Scalar, B: BoundingVolume<T>>(&self, tris: &[Triangle<T>]) -> Result<B, FitError> {
        self.opts.fit.fit(tris)
    }

    /// Builds the subtree over `prims` into `slots` (whose first element is
    /// global slot `slot_base`); `first` is the global position of `prims[0]`.
    fn node<T: Scalar, B: BoundingVolume<T>>(
        &self,
        slots: &mut [Option<Node<B>>],
        slot_base: u32,
        mut prims: Prims<'_, T>,
        first: u32,
        depth: u32,
        known: Known<T>,
    ) -> Result<(), FitError> {
        let n = prims.len();
        let from_bounds = match self.opts.fit {
            FitQuality::Default => known.bounds.as_ref().and_then(B::from_triangle_bounds),
            FitQuality::Tight | FitQuality::TightAbove { .. } => None,
        };
        let bv: B = match from_bounds {
            Some(bv) => bv,
            None => self.fit(prims.tris)?,
        };
        if n <= self.opts.max_leaf_size as usize || depth >= self.opts.max_depth {
            slots[0] = Some(Node {
                bv,
                child_or_first: first,
                count: n as u32,
            });
            return Ok(());
        }
        let (k, left_known, right_known) = self.split(&bv, &mut prims, known);
        let right_slot = slot_base + 2 * k as u32;
        slots[0] = Some(Node {
            bv,
            child_or_first: right_slot,
            count: 0,
        });
        let (_, rest) = slots.split_at_mut(1);
        let (left_slots, right_slots) = rest.split_at_mut(2 * k - 1);
        let (lp, rp) = prims.split_at(k);
        let left = move || self.node(left_slots, slot_base + 1, lp, first, depth + 1, left_known);
        let right = move || {
            self.node(
                right_slots,
                right_slot,
                rp,
                first + k as u32,
                depth + 1,
                right_known,
            )
        };
        if n >= PARALLEL_THRESHOLD {
            let (l, r) = rayon::join(left, right);
            l.and(r)
        } else {
            left()?;
            right()
        }
    }

    /// Partitions `prims` and returns the size `k` of the left part,
    /// `0 < k < n`, with what the split learnt about each part.
    fn split<T: Scalar, B: BoundingVolume<T>>(
        &self,
        bv: &B,
        prims: &mut Prims<'_, T>,
        known: Known<T>,
    ) -> (usize, Known<T>, Known<T>) {
        let n = prims.len();
        let median = |prims: &mut Prims<'_, T>, axis: Vector3<T>| {
            prims.select_nth(n / 2, |c| c.coords.dot(&axis));
            (n / 2, Known::NOTHING, Known::NOTHING)
        };
        match self.opts.split {
            SplitRule::Median => median(prims, longest_axis(bv)),
            SplitRule::Mean => {
                let axis = longest_axis(bv);
                let mean = prims
                    .cents
                    .iter()
                    .fold(T::ZERO, |s, c| s + c.coords.dot(&axis))
                    / T::lit(n as f64);
                let k = prims.partition(|c| c.coords.dot(&axis) < mean);
                if k == 0 || k == n {
                    median(prims, axis)
                } else {
                    (k, Known::NOTHING, Known::NOTHING)
                }
            }
            SplitRule::Sah { bins } => {
                let cents = known
                    .centroids
                    .unwrap_or_else(|| CentroidBounds::of(prims.cents));
                let bins = bins as usize;
                let found = if bins <= 16 {
                    sah_split::<T, 16>(prims, bins, &cents)
                } else if bins <= 64 {
                    sah_split::<T, 64>(prims, bins, &cents)
                } else {
                    sah_split::<T, 256>(prims, bins, &cents)
                };
                match found {
                    Some(s) => {
                        // The very binning that chose the plane sends each
                        // triangle left or right, so the bins' boxes are
                        // exactly the children's bounds and neither side is empty.
                        let (k, lc, rc) = prims.partition_with_bounds(|c| s.goes_left(c));
                        debug_assert!(0 < k && k < n);
                        let part = |bounds, centroids| Known {
                            bounds: Some(bounds),
                            centroids: Some(centroids),
                        };
                        (k, part(s.left, lc), part(s.right, rc))
                    }
                    None => median(prims, longest_axis(bv)),
                }
            }
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

fn tri_aabb<T: Scalar>(t: &Triangle<T>) -> (Point3<T>, Point3<T>) {
    (t.a.inf(&t.b).inf(&t.c), t.a.sup(&t.b).sup(&t.c))
}

fn half_area<T: Scalar>(lo: &Point3<T>, hi: &Point3<T>) -> T {
    let d = hi - lo;
    if d.x < T::ZERO {
        T::ZERO
    } else {
        d.x * d.y + d.y * d.z + d.z * d.x
    }
}

/// The split binned SAH chose: triangles whose centroid falls in bins
/// `0..=last_left` along `axis` go left.
struct SahSplit<T: Scalar> {
    axis: usize,
    last_left: usize,
    origin: T,
    scale: T,
    bins: usize,
    /// Exact bounds of the left and right triangles' corners.
    left: Aabb<T>,
    right: Aabb<T>,
}

impl<T: Scalar> SahSplit<T> {
    #[inline(always)]
    fn goes_left(&self, c: &Point3<T>) -> bool {
        bin_of(c[self.axis], self.origin, self.scale, self.bins) <= self.last_left
    }
}

/// The bin of coordinate `x` (clamped to `0..bins`).
#[inline(always)]
fn bin_of<T: Scalar>(x: T, origin: T, scale: T, bins: usize) -> usize {
    (((x - origin) * scale).to_f64() as usize).min(bins - 1)
}

/// Binned SAH over `bins <= N` bins per axis: the split with the lowest
/// cost, or `None` when the centroids coincide. `N` only sizes the stack
/// arrays, so that small bin counts do not initialise 256 bins per node.
fn sah_split<T: Scalar, const N: usize>(
    prims: &Prims<'_, T>,
    bins: usize,
    cents: &CentroidBounds<T>,
) -> Option<SahSplit<T>> {
    let (clo, chi) = (cents.min, cents.max);
    let empty = (
        Point3::from(Vector3::repeat(T::INFINITY)),
        Point3::from(Vector3::repeat(T::NEG_INFINITY)),
    );
    let extent = chi - clo;
    let live: [bool; 3] = core::array::from_fn(|k| extent[k] > T::ZERO && extent[k].finite());
    if !live.iter().any(|&l| l) {
        return None;
    }
    let scale: [T; 3] = core::array::from_fn(|k| {
        if live[k] {
            T::lit(bins as f64) / extent[k]
        } else {
            T::ZERO
        }
    });
    // One pass over the triangles bins all three axes at once.
    let mut bin_box = [[empty; N]; 3];
    let mut bin_count = [[0u32; N]; 3];
    for (t, c) in prims.tris.iter().zip(prims.cents.iter()) {
        let (lo, hi) = tri_aabb(t);
        for k in 0..3 {
            let b = bin_of(c[k], clo[k], scale[k], bins);
            let bb = &mut bin_box[k][b];
            *bb = (bb.0.inf(&lo), bb.1.sup(&hi));
            bin_count[k][b] += 1;
        }
    }
    let mut best: Option<(T, usize, usize)> = None;
    let mut right_area = [T::ZERO; N];
    for axis in (0..3).filter(|&k| live[k]) {
        let (boxes, counts) = (&bin_box[axis], &bin_count[axis]);
        // sweep from the right: area of bins [i, bins)
        let mut acc = empty;
        for i in (1..bins).rev() {
            acc = (acc.0.inf(&boxes[i].0), acc.1.sup(&boxes[i].1));
            right_area[i] = half_area(&acc.0, &acc.1);
        }
        let mut acc = empty;
        let mut nl = 0usize;
        for i in 0..bins - 1 {
            acc = (acc.0.inf(&boxes[i].0), acc.1.sup(&boxes[i].1));
            nl += counts[i] as usize;
            let nr = prims.len() - nl;
            if nl == 0 || nr == 0 {
                continue;
            }
            let cost = half_area(&acc.0, &acc.1) * T::lit(nl as f64)
                + right_area[i + 1] * T::lit(nr as f64);
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, axis, i));
            }
        }
    }
    let (_, axis, last_left) = best?;
    let union = |range: core::ops::Range<usize>| {
        let (lo, hi) = bin_box[axis][range]
            .iter()
            .fold(empty, |acc, b| (acc.0.inf(&b.0), acc.1.sup(&b.1)));
        Aabb { min: lo, max: hi }
    };
    Some(SahSplit {
        axis,
        last_left,
        origin: clo[axis],
        scale: scale[axis],
        bins,
        left: union(0..last_left + 1),
        right: union(last_left + 1..bins),
    })
}

/// Squeezes out unused slots, keeping preorder and remapping right-child indices.
fn compact<B: Send>(slots: Vec<Option<Node<B>>>) -> Vec<Node<B>> {
    let mut new_index = Vec::with_capacity(slots.len());
    let mut next = 0u32;
    for s in &slots {
        new_index.push(next);
        if s.is_some() {
            next += 1;
        }
    }
    slots
        .into_par_iter()
        .flatten()
        .map(|mut node| {
            if !node.is_leaf() {
                node.child_or_first = new_index[node.child_or_first as usize];
            }
            node
        })
        .collect()
}
