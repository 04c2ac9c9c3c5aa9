//! All overlapping pairs of a dynamic tree. The first enumeration traverses
//! the tree against itself (the bounding volume test tree of RTCD §6.3.2,
//! specialised to one tree: each node is tested against itself once and its
//! two children against each other). Later ones are incremental, as in
//! Box2D's broad phase: the pairs of fat boxes are kept, and only objects
//! whose fat box changed since are queried again; when many changed (a
//! whole scene moving), one traversal of the tree against itself is cheaper
//! than the queries and is done instead.
use crate::aabb_ops::overlaps;
use crate::dynamic_tree::Node;
use crate::slots::NULL;
use crate::{DynamicTree, ProxyPair};
use clash_bv::Aabb;
use clash_math::Scalar;

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
        keys.extend(
            self.fat_pairs
                .iter()
                .filter(|&&(a, b)| overlaps(&aabb[a as usize], &aabb[b as usize]))
                .map(|&(a, b)| (u64::from(a) << 32) | u64::from(b)),
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
        // When many fat boxes changed, one traversal of the tree against
        // itself is cheaper than one query per changed object.
        if !self.fat_pairs_valid || self.moved.len() > self.slots.len() / 8 {
            self.collect_fat_pairs(&mut pairs);
        } else {
            // Pairs between unchanged live objects still overlap: their fat boxes did not change.
            let (slots, flags) = (&self.slots, &self.moved_flag);
            let moved = |s: u32| flags.get(s as usize).copied().unwrap_or(false);
            pairs.retain(|&(a, b)| {
                slots.is_live(a as usize) && slots.is_live(b as usize) && !moved(a) && !moved(b)
            });
            let mut stack = core::mem::take(&mut self.query_stack);
            for &m in &self.moved {
                if !self.slots.is_live(m as usize) {
                    continue;
                }
                let fat = &self.fat[m as usize];
                query(&self.nodes, self.root, fat, &mut stack, |o| {
                    // A pair of two changed objects is found from the smaller slot's side only.
                    if o != m && !(o < m && moved(o)) {
                        pairs.push((m.min(o), m.max(o)));
                    }
                });
            }
            self.query_stack = stack;
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

    /// Collects into `pairs` (cleared first; each pair smaller slot first)
    /// every pair of distinct leaves whose fat boxes overlap, by traversing
    /// the tree against itself. The traversal is cut into independent tasks
    /// (a node against itself, two sibling subtrees against each other),
    /// run in parallel (rayon) for large trees; each task has its own
    /// scratch, kept across calls, and the tasks' pairs are concatenated in
    /// task order, so the result does not depend on the number of threads.
    fn collect_fat_pairs(&mut self, pairs: &mut Vec<(u32, u32)>) {
        pairs.clear();
        if self.root == NULL {
            return;
        }
        let nodes = &self.nodes[..];
        // Cut: replace the self pair of the tallest node by its children's
        // self pairs and their pair, while the pieces are large.
        let mut starts = core::mem::take(&mut self.task_starts);
        starts.clear();
        starts.push((self.root, self.root));
        let parallel = self.slots.len() >= PARALLEL_PAIRS;
        while parallel && starts.len() < PAIR_TASKS {
            let Some(k) = (0..starts.len())
                .filter(|&k| starts[k].0 == starts[k].1)
                .max_by_key(|&k| (nodes[starts[k].0 as usize].height, core::cmp::Reverse(k)))
            else {
                break;
            };
            let n = starts[k].0;
            if nodes[n as usize].height < 4 {
                break;
            }
            let [l, r] = nodes[n as usize].child;
            starts[k] = (l, r);
            starts.push((l, l));
            starts.push((r, r));
        }
        let mut tasks = core::mem::take(&mut self.pair_tasks);
        if tasks.len() < starts.len() {
            tasks.resize_with(starts.len(), PairTask::default);
        }
        let tasks_used = &mut tasks[..starts.len()];
        for (t, &s) in tasks_used.iter_mut().zip(&starts) {
            t.start = s;
        }
        if parallel {
            use rayon::prelude::*;
            tasks_used.par_iter_mut().for_each(|t| t.run(nodes));
        } else {
            for t in tasks_used.iter_mut() {
                t.run(nodes);
            }
        }
        for t in tasks_used.iter() {
            pairs.extend_from_slice(&t.pairs);
        }
        self.pair_tasks = tasks;
        self.task_starts = starts;
    }
}

/// Trees with fewer objects than this are traversed on the current thread.
const PARALLEL_PAIRS: usize = 4096;
/// Number of tasks the traversal of a large tree is cut into.
const PAIR_TASKS: usize = 16;

/// One independent piece of the traversal of the tree against itself, with
/// its scratch and output.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairTask {
    /// A node against itself (`a == b`), or two distinct nodes, neither an
    /// ancestor of the other.
    start: (u32, u32),
    /// The pairs found, smaller slot first.
    pairs: Vec<(u32, u32)>,
    stack: Vec<(u32, u32)>,
    queue: Vec<u32>,
}

impl PairTask {
    /// Finds every pair of distinct leaves under `start` (one under each
    /// node when they differ) whose fat boxes overlap. A pair of internal
    /// nodes opens both (their four pairs of children are tested: fewer
    /// tests and stack operations than opening the larger node, RTCD
    /// §6.3.1); children are tested before they are pushed, so the stack
    /// only holds overlapping pairs of internal nodes, and a leaf met by a
    /// subtree is looked up in it by a plain box query.
    fn run<T: Scalar>(&mut self, nodes: &[Node<T>]) {
        let (pairs, stack, queue) = (&mut self.pairs, &mut self.stack, &mut self.queue);
        pairs.clear();
        stack.clear();
        let mut f = |a: u32, b: u32| pairs.push((a.min(b), a.max(b)));
        let (a, b) = self.start;
        if a == b {
            stack.push((a, a));
        } else {
            meet(nodes, a, b, stack, queue, &mut f);
        }
        while let Some((a, b)) = stack.pop() {
            let na = &nodes[a as usize];
            let [a0, a1] = na.child;
            if a == b {
                if na.is_leaf() {
                    continue;
                }
                if !nodes[a0 as usize].is_leaf() {
                    stack.push((a0, a0));
                }
                if !nodes[a1 as usize].is_leaf() {
                    stack.push((a1, a1));
                }
                meet(nodes, a0, a1, stack, queue, &mut f);
                continue;
            }
            // Two overlapping internal nodes, neither an ancestor of the other.
            let [b0, b1] = nodes[b as usize].child;
            meet(nodes, a0, b0, stack, queue, &mut f);
            meet(nodes, a0, b1, stack, queue, &mut f);
            meet(nodes, a1, b0, stack, queue, &mut f);
            meet(nodes, a1, b1, stack, queue, &mut f);
        }
    }
}

/// The pair of distinct nodes `x` and `y` (neither an ancestor of the
/// other) in a traversal of the tree against itself: nothing when their
/// boxes are disjoint; otherwise two leaves are reported, a leaf and a
/// subtree are resolved by a query, and two internal nodes are pushed.
#[inline(always)]
fn meet<T: Scalar>(
    nodes: &[Node<T>],
    x: u32,
    y: u32,
    stack: &mut Vec<(u32, u32)>,
    queue: &mut Vec<u32>,
    f: &mut impl FnMut(u32, u32),
) {
    let (nx, ny) = (&nodes[x as usize], &nodes[y as usize]);
    if !overlaps(&nx.aabb, &ny.aabb) {
        return;
    }
    match (nx.is_leaf(), ny.is_leaf()) {
        (true, true) => f(nx.proxy, ny.proxy),
        (true, false) => query_below(nodes, y, &nx.aabb, queue, |o| f(nx.proxy, o)),
        (false, true) => query_below(nodes, x, &ny.aabb, queue, |o| f(ny.proxy, o)),
        (false, false) => stack.push((x, y)),
    }
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
    if !overlaps(&n.aabb, b) {
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
            if overlaps(&nc.aabb, b) {
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
