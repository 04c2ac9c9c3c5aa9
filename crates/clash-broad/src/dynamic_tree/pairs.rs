//! All overlapping pairs of a dynamic tree. The fat-box pairs are kept
//! from one search to the next (Box2D's broad phase keeps them too): pairs
//! of objects whose fat boxes did not change still overlap, so only pairs
//! with a changed member are searched again. Few changes (up to an eighth
//! of the objects) while the tree's shape changed: one box query per
//! changed object on the tree. More: the tree is copied into its compact
//! 4-wide form (`pair_tree/`), and up to a quarter one query per changed
//! object runs on the copy; beyond, the copy is traversed against itself
//! (the bounding volume test tree of RTCD §6.3.2, specialised to one tree:
//! each node is tested against itself once and its children against each
//! other), skipping pairs of unchanged subtrees. The copy is kept while the
//! tree keeps its shape (the in-place refit of `settle` writes the boxes it
//! changes to the copy as well), and then serves every search, however few
//! objects changed. Long lists of queries, and the check of many candidate
//! pairs on the tight boxes, run in chunks in parallel (`chunked.rs`): the
//! pairs, and their order, do not depend on the number of threads.
use super::Node;
use super::chunked::for_each_in_order;
use super::pair_tree::{PairTask, round_down, round_up};
use crate::aabb_ops::overlaps_finite;
use crate::prefetch::{AHEAD, PREFETCH_MIN};
use crate::slots::NULL;
use crate::{DynamicTree, ProxyPair};
use clash_bv::Aabb;
use clash_math::Scalar;
use clash_math::prefetch::prefetch;

impl<T: Scalar, U> DynamicTree<T, U> {
    /// All pairs of objects whose tight boxes overlap, sorted, into `out`
    /// (cleared first). Candidate pairs come from the fat boxes; each is then
    /// checked on the tight boxes, so the answer is exact.
    pub fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        out.clear();
        self.settle();
        self.update_fat_pairs();
        // Slot order is handle order (handles order by slot index first, and
        // a slot holds one live object), so sorting by the packed slot pair
        // sorts the handle pairs.
        let mut keys = core::mem::take(&mut self.pair_keys);
        keys.clear();
        let aabb = &self.slots.aabb;
        let hints = aabb.len() > PREFETCH_MIN;
        for_each_in_order(
            &self.fat_pairs,
            EXACT_CHUNK,
            &mut (),
            &mut keys,
            |fat, _, keys| {
                if hints {
                    exact_pairs::<T, true>(fat, aabb, keys);
                } else {
                    exact_pairs::<T, false>(fat, aabb, keys);
                }
            },
        );
        sort_keys(
            &mut keys,
            self.slots.capacity(),
            &mut self.sort_scratch,
            &mut self.sort_counts,
        );
        out.extend(keys.iter().map(|&k| ProxyPair {
            a: self.slots.handle((k >> 32) as u32),
            b: self.slots.handle(k as u32),
        }));
        self.pair_keys = keys;
    }

    /// Brings `fat_pairs` up to date with the current fat boxes.
    fn update_fat_pairs(&mut self) {
        let mut pairs = core::mem::take(&mut self.fat_pairs);
        if !self.fat_pairs_valid {
            pairs.clear();
            self.search_pairs(&mut pairs, true);
        } else {
            // Pairs between unchanged objects still overlap: their fat boxes
            // did not change (a removed object counts as changed).
            let flags = &self.moved_flag;
            let moved = |s: u32| flags.get(s as usize).copied().unwrap_or(false);
            pairs.retain(|&(a, b)| !moved(a) && !moved(b));
            if self.pair_tree.valid || self.moved.len() > self.slots.len() / SEARCH_FRACTION {
                self.search_pairs(&mut pairs, false);
            } else {
                let mut stack = core::mem::take(&mut self.query_stack);
                let live = self.live_moved();
                let flags = &self.moved_flag;
                let moved = |s: u32| flags.get(s as usize).copied().unwrap_or(false);
                let (nodes, root, fats) = (&self.nodes, self.root, &self.fat);
                for_each_in_order(
                    &live,
                    QUERY_CHUNK,
                    &mut stack,
                    &mut pairs,
                    |ms, stack, pairs| {
                        for &m in ms {
                            query(nodes, root, &fats[m as usize], stack, |o| {
                                // A pair of two changed objects is found from the smaller slot's side only.
                                if o != m && !(o < m && moved(o)) {
                                    pairs.push((m.min(o), m.max(o)));
                                }
                            });
                        }
                    },
                );
                self.query_stack = stack;
                self.moved_live = live;
            }
        }
        for &m in &self.moved {
            if let Some(f) = self.moved_flag.get_mut(m as usize) {
                *f = false;
            }
        }
        self.moved.clear();
        self.fat_pairs = pairs;
        self.fat_pairs_valid = true;
    }

    /// The live slots of `moved` (removed objects' slots are listed too),
    /// in the scratch list `moved_live`, taken out of the tree.
    fn live_moved(&mut self) -> Vec<u32> {
        let mut live = core::mem::take(&mut self.moved_live);
        live.clear();
        let slots = &self.slots;
        live.extend(
            self.moved
                .iter()
                .copied()
                .filter(|&m| slots.is_live(m as usize)),
        );
        live
    }

    /// Appends to `pairs` (each pair smaller slot first) every pair of
    /// distinct leaves whose fat boxes overlap and of which at least one
    /// changed since the last search (every pair when `all`), by a
    /// traversal of the tree's compact copy against itself. For large trees
    /// the traversal is cut into independent tasks (the entries left after
    /// visiting the top of the tree breadth-first) run in parallel (rayon);
    /// each task has its own scratch, kept across calls, and the pairs are
    /// joined in task order, so the result does not depend on the number of
    /// threads.
    fn search_pairs(&mut self, pairs: &mut Vec<(u32, u32)>, all: bool) {
        let flags = &self.moved_flag;
        if all || !self.pair_tree.valid {
            self.pair_tree.build(&self.nodes, self.root, |s| {
                all || flags.get(s as usize).copied().unwrap_or(false)
            });
        } else {
            // The copy kept its shape and boxes: only its dirty bits change.
            self.pair_tree.clear_dirty();
            for &m in &self.moved {
                if self.slots.is_live(m as usize) {
                    self.pair_tree.mark_dirty(self.slots.link[m as usize]);
                }
            }
        }
        let tree = &self.pair_tree.nodes[..];
        if tree.is_empty() {
            return;
        }
        if !all && self.moved.len() <= copy_query_limit(self.slots.len()) {
            // A share of the objects changed: below the top levels most
            // subtrees hold a changed leaf, and one query per changed object
            // on the compact copy visits fewer nodes than the traversal.
            let mut stack = core::mem::take(&mut self.query_stack);
            let live = self.live_moved();
            let flags = &self.moved_flag;
            let (copy, fats) = (&self.pair_tree, &self.fat);
            for_each_in_order(&live, QUERY_CHUNK, &mut stack, pairs, |ms, stack, pairs| {
                for &m in ms {
                    let f = &fats[m as usize];
                    let lo = [
                        round_down(f.min.x),
                        round_down(f.min.y),
                        round_down(f.min.z),
                    ];
                    let hi = [round_up(f.max.x), round_up(f.max.y), round_up(f.max.z)];
                    copy.query(&lo, &hi, stack, |o| {
                        // A pair of two changed objects is found from the smaller slot's side only.
                        if o != m && !(o < m && flags.get(o as usize).copied().unwrap_or(false)) {
                            pairs.push((m.min(o), m.max(o)));
                        }
                    });
                }
            });
            self.query_stack = stack;
            self.moved_live = live;
            return;
        }
        let tasks = &mut self.pair_tasks;
        if tasks.is_empty() {
            tasks.push(PairTask::default());
        }
        let (head, rest) = tasks.split_at_mut(1);
        let main = &mut head[0];
        main.reset();
        if self.slots.len() < PARALLEL_PAIRS {
            main.stack.push((0, 0));
            main.run(tree);
            pairs.extend_from_slice(main.pairs.as_slice());
            return;
        }
        // The top of the tree, breadth-first, until there are enough entries
        // (the leaf entries met on the way are done here too).
        let front = &mut self.task_starts;
        front.clear();
        front.push((0, 0));
        let mut next = 0;
        while next < front.len() && front.len() - next < PAIR_TASKS {
            main.visit(tree, front[next]);
            next += 1;
            main.stack.drain_into(front);
        }
        main.run(tree);
        let starts = &front[next..];
        let count = starts.len().min(rest.len());
        for (t, &s) in rest.iter_mut().zip(starts) {
            t.reset();
            t.stack.push(s);
        }
        // Tasks beyond the kept ones get new scratch (once).
        let mut extra: Vec<PairTask> = starts[count..]
            .iter()
            .map(|&s| {
                let mut t = PairTask::default();
                t.stack.push(s);
                t
            })
            .collect();
        {
            use rayon::prelude::*;
            rest[..count]
                .par_iter_mut()
                .chain(extra.par_iter_mut())
                .for_each(|t| t.run(tree));
        }
        pairs.extend_from_slice(main.pairs.as_slice());
        for t in rest[..count].iter().chain(&extra) {
            pairs.extend_from_slice(t.pairs.as_slice());
        }
        tasks.append(&mut extra);
    }
}

/// Appends to `keys`, packed as `a << 32 | b`, the pairs of `fat` whose
/// tight boxes overlap (tight boxes are finite: checked on insertion and
/// update). With `AHEAD_HINTS` (for scenes whose boxes do not fit in cache)
/// the boxes of the pair a few ahead are asked for early: the slots of the
/// pairs come in no order the hardware could guess.
#[inline]
fn exact_pairs<T: Scalar, const AHEAD_HINTS: bool>(
    fat: &[(u32, u32)],
    aabb: &[Aabb<T>],
    keys: &mut Vec<u64>,
) {
    for (i, &(a, b)) in fat.iter().enumerate() {
        if AHEAD_HINTS && let Some(&(pa, pb)) = fat.get(i + AHEAD) {
            prefetch(&aabb[pa as usize]);
            prefetch(&aabb[pb as usize]);
        }
        if overlaps_finite(&aabb[a as usize], &aabb[b as usize]) {
            keys.push((u64::from(a) << 32) | u64::from(b));
        }
    }
}

/// Fat pairs per chunk of the parallel filter on the tight boxes (lists of
/// fewer than two chunks are filtered on the calling thread).
const EXACT_CHUNK: usize = 4096;
/// Changed objects per chunk of the parallel box queries of the pair search
/// (fewer than two chunks are queried on the calling thread).
const QUERY_CHUNK: usize = 256;
/// Trees with fewer objects than this are traversed on the current thread.
const PARALLEL_PAIRS: usize = 4096;
/// Number of tasks the traversal of a large tree is cut into (at least).
const PAIR_TASKS: usize = 16;
/// When more than `1 / SEARCH_FRACTION` of the objects changed their fat
/// boxes, the pairs are searched on the tree's compact copy rather than by
/// one query per changed object on the tree itself.
const SEARCH_FRACTION: usize = 32;
/// Up to this many changed objects out of `n`, the search on the copy is
/// one query per changed object; beyond, a traversal of the copy against
/// itself. A quarter of the objects up to 32,768 objects, an eighth
/// beyond: a query costs more in a larger tree (deeper, and more of it out
/// of cache), while the traversal's cost per changed object falls as more
/// of them share subtrees (the limits are where the two cost the same on a
/// smoothly moving scene).
fn copy_query_limit(n: usize) -> usize {
    if n <= 1 << 15 { n / 4 } else { n / 8 }
}

/// Calls `f(slot)` for every leaf of the tree rooted at `root` whose fat box
/// overlaps `b`. `stack` is scratch.
#[inline]
fn query<T: Scalar>(
    nodes: &[Node<T>],
    root: u32,
    b: &Aabb<T>,
    stack: &mut Vec<u32>,
    mut f: impl FnMut(u32),
) {
    if root == NULL {
        return;
    }
    let n = &nodes[root as usize];
    if !overlaps_finite(&n.aabb, b) {
        return;
    }
    if n.is_leaf() {
        f(n.proxy);
        return;
    }
    query_below(nodes, root, b, stack, f);
}

/// Calls `f(slot)` for every leaf under internal node `sub` whose fat box
/// overlaps `b`; children are tested before they are pushed. `stack` is scratch.
#[inline]
fn query_below<T: Scalar>(
    nodes: &[Node<T>],
    sub: u32,
    b: &Aabb<T>,
    stack: &mut Vec<u32>,
    mut f: impl FnMut(u32),
) {
    stack.clear();
    stack.push(sub);
    while let Some(n) = stack.pop() {
        for c in nodes[n as usize].child {
            let nc = &nodes[c as usize];
            if overlaps_finite(&nc.aabb, b) {
                if nc.is_leaf() {
                    f(nc.proxy);
                } else {
                    stack.push(c);
                }
            }
        }
    }
}

/// Sorts packed slot pairs `a << 32 | b` (both below `slots`). When there
/// are many pairs for the number of slots, a counting sort by `a`, in
/// O(slots + pairs), then an insertion sort of each run of equal `a` by `b`
/// (runs are short); otherwise `sort_unstable`. `scratch` and `counts` are
/// buffers. Equal keys are equal, so the result is that of any sort.
fn sort_keys(keys: &mut Vec<u64>, slots: usize, scratch: &mut Vec<u64>, counts: &mut Vec<u32>) {
    if keys.len() < 64 || keys.len() * 4 < slots {
        keys.sort_unstable();
        return;
    }
    counts.clear();
    counts.resize(slots + 1, 0);
    for &k in keys.iter() {
        counts[(k >> 32) as usize + 1] += 1;
    }
    for i in 1..counts.len() {
        counts[i] += counts[i - 1];
    }
    scratch.clear();
    scratch.resize(keys.len(), 0);
    for &k in keys.iter() {
        let slot = &mut counts[(k >> 32) as usize];
        scratch[*slot as usize] = k;
        *slot += 1;
    }
    // `counts[a]` is now the end of run `a`; runs are contiguous in `a` order.
    let mut start = 0;
    while start < scratch.len() {
        let a = scratch[start] >> 32;
        let mut end = start + 1;
        while end < scratch.len() && scratch[end] >> 32 == a {
            end += 1;
        }
        let run = &mut scratch[start..end];
        for i in 1..run.len() {
            let mut j = i;
            while j > 0 && run[j] < run[j - 1] {
                run.swap(j, j - 1);
                j -= 1;
            }
        }
        start = end;
    }
    core::mem::swap(keys, scratch);
}

#[cfg(test)]
mod tests {
    use super::sort_keys;
    use crate::{DynamicTree, ProxyPair};
    use clash_bv::Aabb;
    use clash_math::{Point3, Scalar, Vector3};
    use rand::{RngExt, SeedableRng};

    /// A scene moving smoothly (the broad-phase benchmark's, smaller): most
    /// steps refit the tree in place (by the sweep of the node array after
    /// a rebuild), so the pair search runs on the copy kept from the step
    /// before, both by queries and by the traversal.
    /// Pairs equal brute force after every step, and the validator checks
    /// the kept copy against a fresh one.
    fn kept_copy_run<T: Scalar>(n: usize, steps: usize, seed: u64) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let side = 2.0 * (n as f64).cbrt();
        let mut c: Vec<[f64; 3]> = (0..n)
            .map(|_| [0; 3].map(|_| rng.random_range(0.0..side)))
            .collect();
        let h: Vec<[f64; 3]> = (0..n)
            .map(|_| [0; 3].map(|_| rng.random_range(0.05..0.8)))
            .collect();
        let mut v: Vec<[f64; 3]> = (0..n)
            .map(|_| [0; 3].map(|_| rng.random_range(-0.05..0.05)))
            .collect();
        let boxed = |c: &[f64; 3], h: &[f64; 3]| Aabb {
            min: Point3::new(
                T::lit(c[0] - h[0]),
                T::lit(c[1] - h[1]),
                T::lit(c[2] - h[2]),
            ),
            max: Point3::new(
                T::lit(c[0] + h[0]),
                T::lit(c[1] + h[1]),
                T::lit(c[2] + h[2]),
            ),
        };
        let mut tree = DynamicTree::<T, usize>::new(T::lit(0.1)).unwrap();
        let handles: Vec<_> = (0..n)
            .map(|i| tree.insert(boxed(&c[i], &h[i]), i).unwrap())
            .collect();
        let mut out = Vec::new();
        let (mut kept_queries, mut kept_traversals, mut sweeps) = (0, 0, 0);
        for _ in 0..steps {
            for i in 0..n {
                for k in 0..3 {
                    c[i][k] += v[i][k];
                    if c[i][k] < 0.0 || c[i][k] > side {
                        v[i][k] = -v[i][k];
                    }
                }
                let d = Vector3::new(T::lit(v[i][0]), T::lit(v[i][1]), T::lit(v[i][2]));
                tree.update(handles[i], boxed(&c[i], &h[i]), d).unwrap();
            }
            tree.validate().unwrap();
            // The settle of a wave of moves refits by the sweep when the
            // nodes are in order.
            sweeps += usize::from(tree.in_order && tree.pending.len() > n / 8);
            tree.settle();
            if tree.pair_tree.valid && tree.fat_pairs_valid {
                if tree.moved.len() > super::copy_query_limit(n) {
                    kept_traversals += 1;
                } else {
                    kept_queries += 1;
                }
            }
            tree.overlapping_pairs(&mut out);
            let b: Vec<Aabb<T>> = (0..n).map(|i| boxed(&c[i], &h[i])).collect();
            let mut expect = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if (0..3).all(|k| b[i].min[k] <= b[j].max[k] && b[j].min[k] <= b[i].max[k]) {
                        expect.push(ProxyPair::new(handles[i], handles[j]));
                    }
                }
            }
            expect.sort();
            assert_eq!(out, expect);
            tree.validate().unwrap();
        }
        assert!(
            kept_queries > 0 && kept_traversals > 0 && sweeps > 0,
            "kept copy used by {kept_queries} query and {kept_traversals} traversal steps; {sweeps} sweeps"
        );
    }

    /// The filter of the fat pairs on the tight boxes gives the same pairs
    /// with and without the hints ahead (any pair order, pairs near the
    /// end of the list, slots repeated).
    #[test]
    fn exact_pairs_with_and_without_hints_agree() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let boxes: Vec<Aabb<f32>> = (0..500)
            .map(|_| {
                let c = [0; 3].map(|_| rng.random_range(0.0f32..10.0));
                let h = rng.random_range(0.1f32..1.5);
                Aabb {
                    min: Point3::new(c[0] - h, c[1] - h, c[2] - h),
                    max: Point3::new(c[0] + h, c[1] + h, c[2] + h),
                }
            })
            .collect();
        for len in [0, 1, 7, 8, 9, 3000] {
            let fat: Vec<(u32, u32)> = (0..len)
                .map(|_| (rng.random_range(0..500u32), rng.random_range(0..500u32)))
                .collect();
            let (mut with, mut without) = (Vec::new(), Vec::new());
            super::exact_pairs::<f32, true>(&fat, &boxes, &mut with);
            super::exact_pairs::<f32, false>(&fat, &boxes, &mut without);
            assert_eq!(with, without, "{len} pairs");
        }
    }

    #[test]
    fn pair_search_on_the_kept_copy_f32_f64() {
        kept_copy_run::<f32>(1500, 80, 1);
        kept_copy_run::<f64>(1500, 80, 2);
    }

    #[test]
    fn sort_keys_equals_sort() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut scratch, mut counts) = (Vec::new(), Vec::new());
        for (len, slots) in [
            (0usize, 10usize),
            (5, 3),
            (100, 10),
            (3000, 500),
            (3000, 20_000),
        ] {
            let mut keys: Vec<u64> = (0..len)
                .map(|_| {
                    let a = next() % slots as u64;
                    let b = next() % slots as u64;
                    (a << 32) | b
                })
                .collect();
            let mut expect = keys.clone();
            expect.sort_unstable();
            sort_keys(&mut keys, slots, &mut scratch, &mut counts);
            assert_eq!(keys, expect, "len {len} slots {slots}");
        }
    }
}
