//! Top-down construction of the whole tree with the binned surface-area
//! heuristic (RTCD §6.2.1–6.2.2 top-down construction, cost of §6.2.3.1;
//! binning after Wald 2007), building independent subtrees in parallel.
//! Used for bulk insertion and for a full rebuild of a degraded tree.
use crate::DynamicTree;
use crate::aabb_ops::{surface_area, union};
use crate::dynamic_tree::Node;
use crate::slots::NULL;
use clash_bv::Aabb;
use clash_math::{Point3, Scalar};

/// Number of bins per axis.
const BINS: usize = 16;
/// Subtrees with fewer leaves than this are built on the current thread.
const PARALLEL_MIN: usize = 2048;

#[derive(Clone, Copy)]
struct Item<T: Scalar> {
    aabb: Aabb<T>,
    centroid: [f64; 3],
    proxy: u32,
}

impl<T: Scalar, U> DynamicTree<T, U> {
    /// Rebuilds the whole tree top-down by binned SAH over the current fat
    /// boxes, in parallel (rayon) for large subtrees. Handles, boxes and data
    /// are unchanged; the node array is compacted (no free nodes remain).
    /// Use it after bulk changes or when [`total_internal_area`](Self::total_internal_area)
    /// has grown well beyond that of a fresh build. The result is
    /// deterministic: it does not depend on the number of threads.
    pub fn rebuild(&mut self) {
        let mut items: Vec<Item<T>> = (0..self.slots.capacity())
            .filter(|&i| self.slots.is_live(i))
            .map(|i| {
                let aabb = self.nodes[self.slots.link[i] as usize].aabb;
                let c =
                    core::array::from_fn(|k| (aabb.min[k].to_f64() + aabb.max[k].to_f64()) * 0.5);
                Item {
                    aabb,
                    centroid: c,
                    proxy: i as u32,
                }
            })
            .collect();
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
        if items.is_empty() {
            self.nodes.clear();
            self.root = NULL;
            self.node_count = 0;
            return;
        }
        let count = 2 * items.len() - 1;
        let mut nodes = vec![Node::empty(); count];
        build(&mut items, &mut nodes, 0, NULL);
        for (n, node) in nodes.iter().enumerate() {
            if node.is_leaf() {
                self.slots.link[node.proxy as usize] = n as u32;
            }
        }
        self.nodes = nodes;
        self.node_count = count;
        self.root = 0;
        self.rebuilt_cost = self.cost_ratio();
    }

    /// The tree's SAH cost as a scale-free ratio: the sum of the internal
    /// nodes' areas over the sum of the leaves' (fat box) areas. Constant
    /// under uniform scaling; grows as refitted boxes drift apart.
    pub fn cost_ratio(&self) -> f64 {
        let (mut internal, mut leaves) = (0.0f64, 0.0f64);
        for node in &self.nodes {
            if node.height == crate::dynamic_tree::FREE {
                continue;
            }
            let a = crate::aabb_ops::surface_area(&node.aabb).to_f64();
            if node.is_leaf() {
                leaves += a;
            } else {
                internal += a;
            }
        }
        if leaves > 0.0 { internal / leaves } else { 0.0 }
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
/// the axis of largest centroid extent and returns the size of the left part (in `1..len`).
/// Falls back to a median split when all centroids coincide.
fn split<T: Scalar>(items: &mut [Item<T>]) -> usize {
    let n = items.len();
    if n == 2 {
        // Every split of two items gives the same tree.
        return 1;
    }
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for it in items.iter() {
        for k in 0..3 {
            lo[k] = lo[k].min(it.centroid[k]);
            hi[k] = hi[k].max(it.centroid[k]);
        }
    }
    // Bin along the axis of largest centroid extent only (Wald 2007): a third
    // of the work of binning all three axes, at a small cost in quality.
    let axis = (0..3)
        .max_by(|&a, &b| {
            (hi[a] - lo[a])
                .partial_cmp(&(hi[b] - lo[b]))
                .unwrap_or(core::cmp::Ordering::Equal)
                .then(b.cmp(&a))
        })
        .expect("three axes");
    let extent = hi[axis] - lo[axis];
    if extent.is_nan() || extent <= 0.0 {
        // All centroids coincide.
        return n / 2;
    }
    // Small nodes get fewer bins: the fixed cost of the sweeps dominates there.
    let nb = BINS.min(n);
    let scale = nb as f64 / extent;
    // Empty bins hold the inverted infinite box, which `union` absorbs.
    let empty = Aabb {
        min: Point3::new(T::INFINITY, T::INFINITY, T::INFINITY),
        max: Point3::new(T::NEG_INFINITY, T::NEG_INFINITY, T::NEG_INFINITY),
    };
    let mut counts = [0u32; BINS];
    let mut boxes = [empty; BINS];
    for it in items.iter() {
        let b = bin(it.centroid[axis], lo[axis], scale, nb);
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
            let mut i = 0;
            let mut j = n;
            // In-place partition: bins below `left_bins` go first.
            while i < j {
                if bin(items[i].centroid[axis], lo[axis], scale, nb) < left_bins {
                    i += 1;
                } else {
                    j -= 1;
                    items.swap(i, j);
                }
            }
            i
        }
        None => n / 2,
    }
}

#[inline]
fn bin(c: f64, lo: f64, scale: f64, bins: usize) -> usize {
    (((c - lo) * scale) as usize).min(bins - 1)
}
