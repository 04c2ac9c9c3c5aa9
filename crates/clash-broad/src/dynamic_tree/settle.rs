//! Bringing the tree up to date with the moved objects' fat boxes
//! ([`DynamicTree::settle`]): re-insertion of a few leaves, or a refit in
//! place of many, and a rebuild once the tree's cost has drifted.

use super::{DynamicTree, mark};
use crate::aabb_ops::union;
use crate::prefetch::{AHEAD, PREFETCH_MIN};
use crate::slots::NULL;
use clash_bv::Aabb;
use clash_math::Scalar;
use clash_math::prefetch::prefetch;
use rayon::prelude::*;

/// Surface area of a box, in `f64`.
#[inline]
fn area<T: Scalar>(b: &Aabb<T>) -> f64 {
    crate::aabb_ops::surface_area(b).to_f64()
}

/// Sorts `keys` by their high 32 bits, all below `bound`: a least
/// significant digit radix sort on 11-bit digits (stable, so equal high
/// halves keep their order). `scratch` is a buffer.
fn radix_sort_high(keys: &mut Vec<u64>, scratch: &mut Vec<u64>, bound: usize) {
    const BITS: u32 = 11;
    let bits = usize::BITS - bound.leading_zeros();
    scratch.clear();
    scratch.resize(keys.len(), 0);
    let mut shift = 32;
    while shift < 32 + bits {
        let mut counts = [0u32; 1 << BITS];
        for &k in keys.iter() {
            counts[((k >> shift) as usize) & ((1 << BITS) - 1)] += 1;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for &k in keys.iter() {
            let d = &mut counts[((k >> shift) as usize) & ((1 << BITS) - 1)];
            scratch[*d as usize] = k;
            *d += 1;
        }
        core::mem::swap(keys, scratch);
        shift += BITS;
    }
}

/// The 10 low bits of `v` spread to every third bit (bit `i` to bit `3 i`),
/// for a 30-bit Morton code.
fn spread_bits(v: u32) -> u64 {
    let mut x = u64::from(v) & 0x3ff;
    x = (x | (x << 16)) & 0x0300_00ff;
    x = (x | (x << 8)) & 0x0300_f00f;
    x = (x | (x << 4)) & 0x030c_30c3;
    x = (x | (x << 2)) & 0x0924_9249;
    x
}

/// How far the tree's cost may drift above its value after the last rebuild
/// while many leaves move before [`DynamicTree::settle`] rebuilds (1.07: 7%).
/// A wave of moves in which most leaves leave their fat boxes raises the
/// cost a little, so this rebuilds after a few such waves, and the tree
/// stays within 10% of a fresh build.
pub const REFIT_DRIFT: f64 = 1.07;

/// When more than `1 / BULK_FRACTION` of the objects left their fat boxes
/// since the last [`DynamicTree::settle`], their leaves are refitted in place
/// rather than re-inserted one by one: a re-insertion costs several times a
/// refit plus its share of the rebuild that the drift eventually calls for.
const BULK_FRACTION: usize = 32;

/// When more than `1 / SWEEP_FRACTION` of the objects left their fat boxes
/// and the nodes are in order (`in_order`), [`DynamicTree::settle`] refits
/// by a sweep of the whole node array rather than node by node from the
/// leaves written: most internal nodes change then, and the sweep reads the
/// array in order, with no bookkeeping.
const SWEEP_FRACTION: usize = 8;

/// Heights with at least this many loose nodes get their new boxes
/// computed in parallel by [`DynamicTree::refit_loose`].
const PARALLEL_REFIT: usize = 2048;

impl<T: Scalar, U> DynamicTree<T, U> {
    /// Makes every loose internal node's box the exact union of its
    /// children's again, bottom-up by height (a node's height exceeds its
    /// children's, so each is refitted after them), each node once; a node
    /// whose box changes makes its parent loose. No allocation once the
    /// scratch has grown. [`settle`](Self::settle) calls it after writing
    /// the new boxes of leaves it keeps in place.
    pub(crate) fn refit_loose(&mut self) {
        if self.loose.is_empty() {
            return;
        }
        // The node array may have grown since the flags were sized.
        if self.loose_flag.len() < self.nodes.len() {
            self.loose_flag.resize(self.nodes.len(), false);
        }
        let mut buckets = core::mem::take(&mut self.loose_buckets);
        let top = self.height() as usize;
        if buckets.len() <= top {
            buckets.resize_with(top + 1, Vec::new);
        }
        for &n in &self.loose {
            buckets[self.nodes[n as usize].height as usize].push(n);
        }
        self.loose.clear();
        let mut internal = 0.0;
        let mut fresh = core::mem::take(&mut self.refit_boxes);
        for h in 1..=top {
            // Parents are higher than their children: the nodes of this
            // height are all listed, their children refitted. Many: their
            // new boxes are computed in parallel first (each reads only
            // its children), then written in list order as below (on a
            // pool of one thread, the single pass is cheaper).
            let level = &buckets[h];
            let many = level.len() >= PARALLEL_REFIT && rayon::current_num_threads() > 1;
            fresh.clear();
            if many {
                let nodes = &self.nodes;
                level
                    .par_iter()
                    .with_min_len(512)
                    .map(|&n| {
                        let [a, b] = nodes[n as usize].child;
                        union(&nodes[a as usize].aabb, &nodes[b as usize].aabb)
                    })
                    .collect_into_vec(&mut fresh);
            }
            for k in 0..buckets[h].len() {
                let n = buckets[h][k];
                self.loose_flag[n as usize] = false;
                let node = &self.nodes[n as usize];
                let aabb = if many {
                    fresh[k]
                } else {
                    let [a, b] = node.child;
                    union(&self.nodes[a as usize].aabb, &self.nodes[b as usize].aabb)
                };
                if aabb == node.aabb {
                    continue;
                }
                let parent = node.parent;
                internal += area(&aabb) - area(&node.aabb);
                self.nodes[n as usize].aabb = aabb;
                if self.pair_tree.valid {
                    self.pair_tree.set_box(n, &aabb);
                }
                if parent != NULL && !self.loose_flag[parent as usize] {
                    self.loose_flag[parent as usize] = true;
                    buckets[self.nodes[parent as usize].height as usize].push(parent);
                }
            }
            buckets[h].clear();
        }
        self.area_internal += internal;
        self.loose_buckets = buckets;
        self.refit_boxes = fresh;
    }

    /// Makes every internal node's box the exact union of its children's
    /// again by one backward sweep of the node array, which visits the
    /// children of a node before it (only while `in_order`:
    /// parents before children, no free node). Sequential, with no
    /// bookkeeping of loose nodes: cheaper than [`refit_loose`](Self::refit_loose)
    /// when a share of the leaves changed. Keeps the internal area sum and
    /// the pair-search copy up to date, as `refit_loose` does.
    pub(crate) fn refit_sweep(&mut self) {
        debug_assert!(self.in_order);
        let mut internal = 0.0;
        let copy = self.pair_tree.valid;
        for i in (0..self.nodes.len()).rev() {
            let node = &self.nodes[i];
            if node.is_leaf() {
                continue;
            }
            let [a, b] = node.child;
            let aabb = union(&self.nodes[a as usize].aabb, &self.nodes[b as usize].aabb);
            if aabb == node.aabb {
                continue;
            }
            internal += area(&aabb) - area(&node.aabb);
            self.nodes[i].aabb = aabb;
            if copy {
                self.pair_tree.set_box(i as u32, &aabb);
            }
        }
        self.area_internal += internal;
    }

    /// Brings the tree up to date with the objects inserted and the fat
    /// boxes that [`update`](Self::update) changed since the last call: each
    /// such leaf is unlinked and re-inserted from the root by SAH cost with
    /// its new box, and each new object's leaf linked the same way (all in
    /// the Morton order of their boxes). When more than a 32nd of all objects are pending (a whole scene
    /// is moving), re-inserting them one by one costs more than keeping the
    /// tree as it is: their leaves keep their places, get their new boxes,
    /// and their ancestors are refitted bottom-up, each node once (by one
    /// backward sweep of the node array when more than an eighth moved and
    /// the nodes are still laid out as the last rebuild left them), so the
    /// topology is kept as long as the tree's cost ([`Self::cost_ratio`]: internal
    /// over leaf areas) stays within [`REFIT_DRIFT`] of its value after the
    /// last rebuild, and one parallel [`rebuild`](Self::rebuild) is done
    /// once it drifts further (the new objects' leaves are then linked one
    /// by one, or the tree rebuilt when they are more than half of it). A rebuild is also done once the re-insertions and new leaves
    /// since the last rebuild exceed twice the object count, which bounds the drift of the
    /// tree's SAH cost and restores the memory order of its nodes at an
    /// amortised cost of half a rebuild per `n` re-insertions.
    /// [`overlapping_pairs`](Self::overlapping_pairs)
    /// calls this first; call it yourself when you update without asking for
    /// pairs, and before many queries: until then, queries test the objects
    /// that left their fat boxes one by one.
    pub fn settle(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let n = self.slots.len();
        if self.pending.len() > n / BULK_FRACTION {
            // Leaves keep their places: their new boxes are written and
            // their ancestors refitted, each node once. The leaves are taken
            // in node order (sorted by a radix sort), so the writes, and the
            // parents they make loose, sweep the node array rather than jump
            // around it.
            let mut keys = core::mem::take(&mut self.settle_keys);
            keys.clear();
            for &slot in &self.pending {
                let s = slot as usize;
                self.pending_flag[s] = false;
                if self.slots.is_live(s) {
                    keys.push((u64::from(self.slots.link[s]) << 32) | u64::from(slot));
                }
            }
            radix_sort_high(&mut keys, &mut self.settle_scratch, self.nodes.len());
            if !self.areas_valid {
                (self.area_internal, self.area_leaves) = self.area_sums();
                self.areas_valid = true;
            }
            let mut leaves = 0.0;
            // When many leaves changed and the nodes are in order, the
            // backward sweep refits every internal node; otherwise the
            // parents of the leaves written are made loose.
            let sweep = self.in_order && self.pending.len() > n / SWEEP_FRACTION;
            let hints = self.fat.len() > PREFETCH_MIN;
            self.link_keys.clear();
            for (i, &k) in keys.iter().enumerate() {
                // The leaves come in node order, their slots in no useful
                // order: in a large scene the fat box a few ahead is asked
                // for early.
                if hints && let Some(&ahead) = keys.get(i + AHEAD) {
                    prefetch(&self.fat[ahead as u32 as usize]);
                }
                let (leaf, slot) = ((k >> 32) as usize, k as u32 as usize);
                if !self.is_linked(leaf as u32) {
                    // A new object: linked below.
                    self.link_keys.push(slot as u64);
                    continue;
                }
                leaves += area(&self.fat[slot]) - area(&self.nodes[leaf].aabb);
                self.nodes[leaf].aabb = self.fat[slot];
                if self.pair_tree.valid {
                    self.pair_tree.set_box(leaf as u32, &self.fat[slot]);
                }
                let parent = self.nodes[leaf].parent;
                if parent != NULL && !sweep {
                    mark(&mut self.loose_flag, &mut self.loose, parent);
                }
            }
            self.settle_keys = keys;
            if self.link_keys.len() > n / 2 {
                // Mostly new objects (a scene filled one insertion at a
                // time): one SAH build beats linking them one by one.
                self.link_keys.clear();
                self.rebuild();
                return;
            }
            self.area_leaves += leaves;
            self.pending.clear();
            self.clear_stale();
            if sweep {
                self.refit_sweep();
            } else {
                self.refit_loose();
            }
            let cost = if self.area_leaves > 0.0 {
                self.area_internal / self.area_leaves
            } else {
                0.0
            };
            if cost > self.rebuilt_cost * REFIT_DRIFT {
                // The rebuild takes the new objects' leaves too.
                self.link_keys.clear();
                self.rebuild();
                return;
            }
            let linked = self.link_in_order();
            self.churn += linked;
            if linked > 0 && self.churn > 2 * n {
                self.rebuild();
            }
            return;
        }
        self.churn += self.pending.len();
        if self.churn > 2 * n {
            self.rebuild();
            return;
        }
        let pending = core::mem::take(&mut self.pending);
        // Unlink them all first, so that no insertion is steered by the old
        // boxes of the others.
        for &slot in &pending {
            if self.slots.is_live(slot as usize) {
                let leaf = self.slots.link[slot as usize];
                if self.is_linked(leaf) {
                    self.unlink_leaf(leaf);
                }
            }
        }
        self.clear_stale();
        self.link_keys.clear();
        for &slot in &pending {
            let s = slot as usize;
            self.pending_flag[s] = false;
            if self.slots.is_live(s) {
                self.link_keys.push(u64::from(slot));
            }
        }
        self.link_in_order();
        self.pending = pending;
        self.pending.clear();
    }

    /// Links the (unlinked) leaves of the slots in the low halves of
    /// `link_keys` into the tree with their current fat boxes, in the Morton
    /// order of the boxes' centres (RTCD §7.3.5), so that consecutive
    /// insertions descend along mostly the same path and find its nodes in
    /// cache. Returns how many were linked.
    fn link_in_order(&mut self) -> usize {
        let mut keys = core::mem::take(&mut self.link_keys);
        let count = keys.len();
        let centre = |b: &Aabb<T>, k: usize| b.min[k].to_f64() * 0.5 + b.max[k].to_f64() * 0.5;
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for &key in &keys {
            let f = &self.fat[key as usize];
            for k in 0..3 {
                lo[k] = lo[k].min(centre(f, k));
                hi[k] = hi[k].max(centre(f, k));
            }
        }
        let scale: [f64; 3] = core::array::from_fn(|k| {
            let w = hi[k] - lo[k];
            if w > 0.0 && w.is_finite() {
                1023.0 / w
            } else {
                0.0
            }
        });
        for key in keys.iter_mut() {
            let f = &self.fat[*key as usize];
            let mut code = 0u64;
            for k in 0..3 {
                // Saturating: NaN (from an overflowing width) goes to 0.
                let q = (((centre(f, k) - lo[k]) * scale[k]) as u32).min(1023);
                code |= spread_bits(q) << k;
            }
            *key |= code << 32;
        }
        radix_sort_high(&mut keys, &mut self.settle_scratch, 1 << 30);
        for &key in &keys {
            let slot = key as u32 as usize;
            let leaf = self.slots.link[slot];
            self.nodes[leaf as usize].aabb = self.fat[slot];
            self.insert_leaf(leaf);
        }
        keys.clear();
        self.link_keys = keys;
        count
    }

    /// Forgets the stale slots (their leaves are being written).
    pub(crate) fn clear_stale(&mut self) {
        for &slot in &self.stale {
            self.stale_flag[slot as usize] = false;
        }
        self.stale.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::radix_sort_high;

    #[test]
    fn radix_sort_high_is_a_stable_sort_by_the_high_half() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut scratch = Vec::new();
        for (len, bound) in [
            (0usize, 1usize),
            (1, 1),
            (100, 2),
            (1000, 2047),
            (1000, 2048),
            (5000, 200_000),
            (3000, 1 << 31),
        ] {
            let mut keys: Vec<u64> = (0..len)
                .map(|i| ((next() % bound as u64) << 32) | i as u64)
                .collect();
            let mut expect = keys.clone();
            // Stable: equal high halves keep their (increasing) low halves.
            expect.sort_by_key(|k| k >> 32);
            radix_sort_high(&mut keys, &mut scratch, bound);
            assert_eq!(keys, expect, "len {len} bound {bound}");
        }
    }
}
