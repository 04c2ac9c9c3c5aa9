//! Top-down construction of the whole tree with the binned surface-area
//! heuristic (RTCD §6.2.1–6.2.2 top-down construction, cost of §6.2.3.1;
//! binning after Wald 2007), building independent subtrees in parallel.
//! Used for bulk insertion and for a full rebuild of a degraded tree.
use crate::DynamicTree;
use crate::aabb_ops::{surface_area, union};
use crate::dynamic_tree::Node;
use crate::slots::NULL;
use clash_bv::Aabb;
use clash_math::Scalar;

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

/// Partitions `items` (at least two) by the cheapest binned SAH split over
/// the three axes and returns the size of the left part (in `1..len`).
/// Falls back to a median split when all centroids coincide.
fn split<T: Scalar>(items: &mut [Item<T>]) -> usize {
    let n = items.len();
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for it in items.iter() {
        for k in 0..3 {
            lo[k] = lo[k].min(it.centroid[k]);
            hi[k] = hi[k].max(it.centroid[k]);
        }
    }
    // (cost, axis, bins on the left)
    let mut best: Option<(T, usize, usize)> = None;
    for axis in 0..3 {
        let extent = hi[axis] - lo[axis];
        if extent.is_nan() || extent <= 0.0 {
            continue;
        }
        let scale = BINS as f64 / extent;
        let mut counts = [0usize; BINS];
        let mut boxes: [Option<Aabb<T>>; BINS] = [None; BINS];
        for it in items.iter() {
            let b = bin(it.centroid[axis], lo[axis], scale);
            counts[b] += 1;
            boxes[b] = Some(boxes[b].map_or(it.aabb, |x| union(&x, &it.aabb)));
        }
        // Right-to-left prefix areas and counts.
        let mut right_area = [T::ZERO; BINS];
        let mut right_count = [0usize; BINS];
        let mut acc: Option<Aabb<T>> = None;
        let mut cnt = 0;
        for b in (1..BINS).rev() {
            if let Some(x) = boxes[b] {
                acc = Some(acc.map_or(x, |a| union(&a, &x)));
            }
            cnt += counts[b];
            right_area[b] = acc.map_or(T::ZERO, |a| surface_area(&a));
            right_count[b] = cnt;
        }
        let mut acc: Option<Aabb<T>> = None;
        let mut cnt = 0;
        for b in 0..BINS - 1 {
            if let Some(x) = boxes[b] {
                acc = Some(acc.map_or(x, |a| union(&a, &x)));
            }
            cnt += counts[b];
            let rc = right_count[b + 1];
            if cnt == 0 || rc == 0 {
                continue;
            }
            let left_area = acc.map_or(T::ZERO, |a| surface_area(&a));
            let cost = left_area * T::lit(cnt as f64) + right_area[b + 1] * T::lit(rc as f64);
            if best.is_none_or(|(c, ..)| cost < c) {
                best = Some((cost, axis, b + 1));
            }
        }
    }
    match best {
        Some((_, axis, left_bins)) => {
            let extent = hi[axis] - lo[axis];
            let scale = BINS as f64 / extent;
            let mut i = 0;
            let mut j = n;
            // In-place partition: bins below `left_bins` go first.
            while i < j {
                if bin(items[i].centroid[axis], lo[axis], scale) < left_bins {
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
fn bin(c: f64, lo: f64, scale: f64) -> usize {
    (((c - lo) * scale) as usize).min(BINS - 1)
}
