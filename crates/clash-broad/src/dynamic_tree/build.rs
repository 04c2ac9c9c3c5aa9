//! Top-down construction of the whole tree with the binned surface-area
//! heuristic (RTCD §6.2.1–6.2.2 top-down construction, cost of §6.2.3.1;
//! binning after Wald 2007), building independent subtrees in parallel.
//! Used for bulk insertion and for a full rebuild of a degraded tree.
use super::Node;
use crate::DynamicTree;
use crate::aabb_ops::{surface_area, union};
use crate::slots::NULL;
use clash_bv::Aabb;
use clash_math::{Point3, Scalar};

/// Number of bins per axis.
const BINS: usize = 16;
/// Nodes with at most this many items are split by an exact SAH sweep
/// over the items sorted along the axis, rather than by binning.
const SMALL: usize = 8;
/// Subtrees with fewer leaves than this are built on the current thread.
const PARALLEL_MIN: usize = 2048;

/// One leaf to place: its fat box, its object's slot, and scratch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Item<T: Scalar> {
    aabb: Aabb<T>,
    proxy: u32,
    /// Scratch: the bin of the item in the current split.
    bin: u32,
}

impl<T: Scalar> Item<T> {
    /// Twice the centroid along axis `k` (the factor does not change any split).
    #[inline(always)]
    fn centroid(&self, k: usize) -> T {
        self.aabb.min[k] + self.aabb.max[k]
    }
}

/// Bounds of the centroids of a set of items.
#[derive(Clone, Copy)]
struct Bounds<T: Scalar> {
    lo: [T; 3],
    hi: [T; 3],
}

impl<T: Scalar> Bounds<T> {
    const EMPTY: Self = Self {
        lo: [T::INFINITY; 3],
        hi: [T::NEG_INFINITY; 3],
    };
    #[inline]
    fn grow(&mut self, it: &Item<T>) {
        for k in 0..3 {
            let c = it.centroid(k);
            self.lo[k] = self.lo[k].min_of(c);
            self.hi[k] = self.hi[k].max_of(c);
        }
    }
    fn of(items: &[Item<T>]) -> Self {
        let mut b = Self::EMPTY;
        for it in items {
            b.grow(it);
        }
        b
    }
}

impl<T: Scalar, U> DynamicTree<T, U> {
    /// Rebuilds the whole tree top-down by binned SAH over the current fat
    /// boxes, in parallel (rayon) for large subtrees. Handles, boxes and data
    /// are unchanged; the node array is compacted (no free nodes remain).
    /// Use it after bulk changes or when [`total_internal_area`](Self::total_internal_area)
    /// has grown well beyond that of a fresh build. The result is
    /// deterministic: it does not depend on the number of threads.
    pub fn rebuild(&mut self) {
        // The per-slot copies of the fat boxes, read in slot order.
        let fat = &self.fat;
        let mut items = core::mem::take(&mut self.build_items);
        items.clear();
        items.extend(
            (0..self.slots.capacity())
                .filter(|&i| self.slots.is_live(i))
                .map(|i| Item {
                    aabb: fat[i],
                    proxy: i as u32,
                    bin: 0,
                }),
        );
        self.free_node = NULL;
        self.churn = 0;
        // Every box is recomputed from the leaves.
        for &n in &self.loose {
            self.loose_flag[n as usize] = false;
        }
        self.loose.clear();
        for &slot in &self.pending {
            self.pending_flag[slot as usize] = false;
        }
        self.pending.clear();
        self.clear_stale();
        self.areas_valid = false;
        self.pair_tree.valid = false;
        if items.is_empty() {
            self.nodes.clear();
            self.root = NULL;
            self.node_count = 0;
            self.build_items = items;
            return;
        }
        let count = 2 * items.len() - 1;
        // The old node array is the scratch of the next rebuild.
        let mut nodes = core::mem::take(&mut self.build_nodes);
        nodes.clear();
        nodes.resize(count, Node::empty());
        build(&mut items, &mut nodes, 0, NULL);
        for (n, node) in nodes.iter().enumerate() {
            if node.is_leaf() {
                self.slots.link[node.proxy as usize] = n as u32;
            }
        }
        self.build_nodes = core::mem::replace(&mut self.nodes, nodes);
        self.build_items = items;
        self.node_count = count;
        self.root = 0;
        // `build` lays the nodes out depth-first, parents first.
        self.in_order = true;
        (self.area_internal, self.area_leaves) = self.area_sums();
        self.areas_valid = true;
        self.rebuilt_cost = if self.area_leaves > 0.0 {
            self.area_internal / self.area_leaves
        } else {
            0.0
        };
    }

    /// The tree's SAH cost as a scale-free ratio: the sum of the internal
    /// nodes' areas over the sum of the leaves' (fat box) areas. Constant
    /// under uniform scaling; grows as refitted boxes drift apart.
    pub fn cost_ratio(&self) -> f64 {
        let (internal, leaves) = self.area_sums();
        if leaves > 0.0 { internal / leaves } else { 0.0 }
    }

    /// The sums of the surface areas of the internal nodes and of the
    /// leaves, in `f64`.
    pub(crate) fn area_sums(&self) -> (f64, f64) {
        let (mut internal, mut leaves) = (0.0f64, 0.0f64);
        for node in &self.nodes {
            if node.height == super::FREE {
                continue;
            }
            let a = crate::aabb_ops::surface_area(&node.aabb).to_f64();
            if node.is_leaf() {
                leaves += a;
            } else {
                internal += a;
            }
        }
        (internal, leaves)
    }
}

/// Builds the subtree of `items` into `nodes` (exactly `2 len - 1` of them,
/// the subtree root first), where `nodes[0]` has global index `base`.
fn build<T: Scalar>(items: &mut [Item<T>], nodes: &mut [Node<T>], base: u32, parent: u32) {
    if items.len() == 1 {
        let it = items[0];
        nodes[0] = Node {
            aabb: it.aabb,
            parent,
            child: [NULL, NULL],
            height: 0,
            proxy: it.proxy,
        };
        return;
    }
    let m = split(items);
    let (root, rest) = nodes.split_first_mut().expect("at least three nodes");
    let (left_nodes, right_nodes) = rest.split_at_mut(2 * m - 1);
    let (left_items, right_items) = items.split_at_mut(m);
    let (left, right) = (base + 1, base + 2 * m as u32);
    if left_items.len() + right_items.len() >= PARALLEL_MIN {
        rayon::join(
            || build(left_items, left_nodes, left, base),
            || build(right_items, right_nodes, right, base),
        );
    } else {
        build(left_items, left_nodes, left, base);
        build(right_items, right_nodes, right, base);
    }
    let (l, r) = (&left_nodes[0], &right_nodes[0]);
    *root = Node {
        aabb: union(&l.aabb, &r.aabb),
        parent,
        child: [left, right],
        height: 1 + l.height.max(r.height),
        proxy: NULL,
    };
}

/// Partitions `items` (at least two) by the cheapest binned SAH split along
/// the axis of largest centroid extent and returns the size of the left
/// part (in `1..len`). Nodes of at most [`SMALL`] items are split by the
/// exact sweep of [`sweep_split`] instead. Falls back to a median split when
/// all centroids coincide.
fn split<T: Scalar>(items: &mut [Item<T>]) -> usize {
    let n = items.len();
    if n == 2 {
        // Every split of two items gives the same tree.
        return 1;
    }
    let bounds = Bounds::of(items);
    let (lo, hi) = (&bounds.lo, &bounds.hi);
    // Bin along the axis of largest centroid extent only (Wald 2007): a third
    // of the work of binning all three axes, at a small cost in quality.
    let ext = |k: usize| hi[k].to_f64() - lo[k].to_f64();
    let axis = (0..3)
        .max_by(|&a, &b| {
            ext(a)
                .partial_cmp(&ext(b))
                .unwrap_or(core::cmp::Ordering::Equal)
                .then(b.cmp(&a))
        })
        .expect("three axes");
    let extent = ext(axis);
    if !extent.is_finite() || extent <= 0.0 {
        // All centroids coincide (or overflow).
        return n / 2;
    }
    if n <= SMALL {
        return sweep_split(items, axis);
    }
    // Small nodes get fewer bins: the fixed cost of the sweeps dominates there.
    let nb = BINS.min(n);
    let lo_a = lo[axis].to_f64();
    let scale = nb as f64 / extent;
    // Empty bins hold the inverted infinite box, which `union` absorbs.
    let empty = Aabb {
        min: Point3::new(T::INFINITY, T::INFINITY, T::INFINITY),
        max: Point3::new(T::NEG_INFINITY, T::NEG_INFINITY, T::NEG_INFINITY),
    };
    let mut counts = [0u32; BINS];
    let mut boxes = [empty; BINS];
    for it in items.iter_mut() {
        let b = bin(it.centroid(axis).to_f64(), lo_a, scale, nb);
        it.bin = b as u32;
        counts[b] += 1;
        boxes[b] = union(&boxes[b], &it.aabb);
    }
    // (cost, bins on the left)
    let mut best: Option<(T, usize)> = None;
    // Right-to-left prefix areas and counts.
    let mut right_area = [T::ZERO; BINS];
    let mut right_count = [0u32; BINS];
    let mut acc = empty;
    let mut cnt = 0;
    for b in (1..nb).rev() {
        cnt += counts[b];
        if counts[b] > 0 {
            acc = union(&acc, &boxes[b]);
        }
        if cnt > 0 {
            right_area[b] = surface_area(&acc);
        }
        right_count[b] = cnt;
    }
    let mut acc = empty;
    let mut cnt = 0;
    for b in 0..nb - 1 {
        if counts[b] > 0 {
            acc = union(&acc, &boxes[b]);
        }
        cnt += counts[b];
        let rc = right_count[b + 1];
        if cnt == 0 || rc == 0 {
            continue;
        }
        let left_area = surface_area(&acc);
        let cost = left_area * T::lit(f64::from(cnt)) + right_area[b + 1] * T::lit(f64::from(rc));
        if best.is_none_or(|(c, ..)| cost < c) {
            best = Some((cost, b + 1));
        }
    }
    match best {
        Some((_, left_bins)) => {
            // In-place partition without a branch per item (the side of an
            // item is unpredictable): every item is swapped to the end of the
            // left part, which grows only when the item belongs to it
            // (Lomuto's scheme; a right item swaps with a right item).
            let mut i = 0;
            for j in 0..n {
                let left = usize::from((items[j].bin as usize) < left_bins);
                items.swap(i, j);
                i += left;
            }
            i
        }
        None => n / 2,
    }
}

/// Sorts the items (at most [`SMALL`]) along `axis` by centroid (stable)
/// and returns the split position of least SAH cost, in `1..len`.
fn sweep_split<T: Scalar>(items: &mut [Item<T>], axis: usize) -> usize {
    let n = items.len();
    for i in 1..n {
        let mut j = i;
        while j > 0 && items[j].centroid(axis) < items[j - 1].centroid(axis) {
            items.swap(j, j - 1);
            j -= 1;
        }
    }
    // right[i]: area of the union of items[i..].
    let mut right = [T::ZERO; SMALL];
    let mut acc = items[n - 1].aabb;
    for i in (1..n).rev() {
        acc = union(&acc, &items[i].aabb);
        right[i] = surface_area(&acc);
    }
    let mut acc = items[0].aabb;
    let mut best = (T::INFINITY, n / 2);
    for i in 1..n {
        let cost = surface_area(&acc) * T::lit(i as f64) + right[i] * T::lit((n - i) as f64);
        if cost < best.0 {
            best = (cost, i);
        }
        acc = union(&acc, &items[i].aabb);
    }
    best.1
}

#[inline]
fn bin(c: f64, lo: f64, scale: f64, bins: usize) -> usize {
    // `c >= lo`, so the product is not negative; `i32` converts cheaper than `usize`.
    (((c - lo) * scale) as i32).min(bins as i32 - 1) as usize
}
