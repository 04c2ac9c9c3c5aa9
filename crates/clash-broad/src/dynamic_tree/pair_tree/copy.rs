//! Making the traversal copy ([`PairTree::build`]): on the calling thread
//! for small trees, and for large ones in pieces copied in parallel.
//!
//! Each node of the copy takes the children of its binary node's internal
//! children (and its leaf children themselves); a node's internal children
//! get consecutive indices when it is copied, so children come after their
//! parent. A small tree is copied depth-first from the root. A large one
//! is copied breadth-first from the root until [`COPY_TASKS`] subtrees are
//! left (a number fixed by the tree, not by the threads), then each
//! subtree depth-first, one after the other: on a pool of one thread in
//! place, on more each into its own buffer (rayon), the buffers then laid
//! after the top nodes in subtree order with their indices shifted, which
//! gives the same layout. The copy does not depend on the number of
//! threads.

use super::{LEAF, Node4, PairTree, round_down, round_up};
use crate::dynamic_tree::Node;
use crate::slots::NULL;
use clash_math::Scalar;
use rayon::prelude::*;

/// Trees of fewer binary nodes than this are copied on the calling thread.
const PARALLEL_COPY: usize = 1 << 13;
/// Number of subtrees a large tree's copy is cut into (at least).
const COPY_TASKS: usize = 32;

/// Scratch and output of the copy of one subtree: its nodes (its root
/// first), their parents' lanes, the lanes of its binary nodes and its
/// dirty nodes, all with indices local to the subtree.
#[derive(Clone, Debug, Default)]
pub(super) struct CopyTask {
    nodes: Vec<Node4>,
    up: Vec<u32>,
    lanes: Vec<(u32, u32)>,
    dirty: Vec<u32>,
    stack: Vec<(u32, u32)>,
}

/// Fills node `i` of the copy (already allocated in `out`) from binary node
/// `n`: each of its binary grandchildren (or leaf children) becomes a lane;
/// `set_lane(g, code)` is told the lane of binary node `g`, and each
/// internal lane gets a new node of `out`, whose `(binary node, index)` is
/// passed to `push`.
#[inline]
fn copy_node<T: Scalar>(
    nodes: &[Node<T>],
    (n, i): (u32, u32),
    dirty: &impl Fn(u32) -> bool,
    out: &mut Vec<Node4>,
    up: &mut Vec<u32>,
    mut set_lane: impl FnMut(u32, u32),
    mut push: impl FnMut((u32, u32)),
) {
    let mut p = Node4::default();
    let mut count = 0;
    for c in nodes[n as usize].child {
        let cn = &nodes[c as usize];
        let grand = if cn.is_leaf() { [c, NULL] } else { cn.child };
        for g in grand {
            if g == NULL {
                continue;
            }
            let gn = &nodes[g as usize];
            let b = &gn.aabb;
            for k in 0..3 {
                p.lo[k][count] = round_down(b.min[k]);
                p.hi[k][count] = round_up(b.max[k]);
            }
            let code = i << 2 | count as u32;
            set_lane(g, code);
            if gn.is_leaf() {
                p.link[count] = LEAF | gn.proxy;
                p.leaf |= 1 << count;
                p.dirty |= u32::from(dirty(gn.proxy)) << count;
            } else {
                let j = out.len() as u32;
                out.push(Node4::default());
                up.push(code);
                p.link[count] = j;
                push((g, j));
            }
            count += 1;
        }
    }
    p.valid = (1 << count) - 1;
    out[i as usize] = p;
}

/// Gives every internal child of the nodes `range` of `out` (taken
/// backward; children come after their parent) its subtree's dirty bit,
/// and lists in `dirty` the nodes left with a dirty bit.
fn propagate_dirty(out: &mut [Node4], range: core::ops::Range<usize>, dirty: &mut Vec<u32>) {
    for i in range.rev() {
        let node = &out[i];
        let mut d = node.dirty;
        for c in 0..4 {
            if node.valid & !node.leaf & (1 << c) != 0 && out[node.link[c] as usize].dirty != 0 {
                d |= 1 << c;
            }
        }
        out[i].dirty = d;
        if d != 0 {
            dirty.push(i as u32);
        }
    }
}

impl CopyTask {
    /// Copies the subtree of binary node `root` depth-first, its root as
    /// local node 0, and sets its dirty bits.
    fn run<T: Scalar>(&mut self, nodes: &[Node<T>], root: u32, dirty: &impl Fn(u32) -> bool) {
        let Self {
            nodes: out,
            up,
            lanes,
            dirty: dirty_nodes,
            stack,
        } = self;
        out.clear();
        up.clear();
        lanes.clear();
        dirty_nodes.clear();
        stack.clear();
        out.push(Node4::default());
        up.push(NULL);
        stack.push((root, 0));
        while let Some(e) = stack.pop() {
            copy_node(
                nodes,
                e,
                dirty,
                out,
                up,
                |g, code| lanes.push((g, code)),
                |e| stack.push(e),
            );
        }
        let len = out.len();
        propagate_dirty(out, 0..len, dirty_nodes);
    }
}

impl PairTree {
    /// Copies the tree under `root` (empty when it holds fewer than two
    /// leaves); `dirty(slot)` tells whether a leaf changed. Large trees are
    /// copied in parallel, with the same result on any number of threads.
    pub(crate) fn build<T: Scalar>(
        &mut self,
        nodes: &[Node<T>],
        root: u32,
        dirty: impl Fn(u32) -> bool + Sync,
    ) {
        self.nodes.clear();
        self.up.clear();
        self.dirty_nodes.clear();
        self.lane.clear();
        self.lane.resize(nodes.len(), NULL);
        self.valid = true;
        if root == NULL || nodes[root as usize].is_leaf() {
            return;
        }
        self.nodes.push(Node4::default());
        self.up.push(NULL);
        if nodes.len() < PARALLEL_COPY {
            self.copy_on_this_thread(nodes, root, &dirty);
        } else {
            self.copy_in_parallel(nodes, root, &dirty);
        }
    }

    /// Copies depth-first from the root (node 0, allocated).
    fn copy_on_this_thread<T: Scalar>(
        &mut self,
        nodes: &[Node<T>],
        root: u32,
        dirty: &impl Fn(u32) -> bool,
    ) {
        self.copy_depth_first(nodes, (root, 0), dirty);
        let len = self.nodes.len();
        propagate_dirty(&mut self.nodes, 0..len, &mut self.dirty_nodes);
    }

    /// Copies the subtree of entry `from` (binary node, allocated node of
    /// the copy) depth-first, appending its other nodes; no dirty bits
    /// above its leaves.
    fn copy_depth_first<T: Scalar>(
        &mut self,
        nodes: &[Node<T>],
        from: (u32, u32),
        dirty: &impl Fn(u32) -> bool,
    ) {
        let (out, stack, lane, up) = (
            &mut self.nodes,
            &mut self.stack,
            &mut self.lane,
            &mut self.up,
        );
        stack.clear();
        stack.push(from);
        while let Some(e) = stack.pop() {
            copy_node(
                nodes,
                e,
                dirty,
                out,
                up,
                |g, code| lane[g as usize] = code,
                |e| stack.push(e),
            );
        }
    }

    /// Copies the top breadth-first from the root (node 0, allocated) until
    /// [`COPY_TASKS`] subtrees are left, copies those in parallel, and lays
    /// them out after the top nodes in order.
    fn copy_in_parallel<T: Scalar>(
        &mut self,
        nodes: &[Node<T>],
        root: u32,
        dirty: &(impl Fn(u32) -> bool + Sync),
    ) {
        let (out, front, lane, up) = (
            &mut self.nodes,
            &mut self.stack,
            &mut self.lane,
            &mut self.up,
        );
        front.clear();
        front.push((root, 0));
        let mut next = 0;
        while next < front.len() && front.len() - next < COPY_TASKS {
            let e = front[next];
            next += 1;
            copy_node(
                nodes,
                e,
                dirty,
                out,
                up,
                |g, code| lane[g as usize] = code,
                |e| front.push(e),
            );
        }
        let top = out.len();
        if rayon::current_num_threads() == 1 {
            // The same layout, in place: each subtree's nodes after the
            // earlier ones'.
            let mut starts = core::mem::take(&mut self.front);
            starts.clear();
            starts.extend_from_slice(&front[next..]);
            for &s in &starts {
                self.copy_depth_first(nodes, s, dirty);
            }
            self.front = starts;
            let len = self.nodes.len();
            propagate_dirty(&mut self.nodes, 0..len, &mut self.dirty_nodes);
            return;
        }
        let starts = &front[next..];
        let tasks = &mut self.copy_tasks;
        if tasks.len() < starts.len() {
            tasks.resize_with(starts.len(), CopyTask::default);
        }
        let tasks = &mut tasks[..starts.len()];
        tasks
            .par_iter_mut()
            .zip(starts)
            .for_each(|(t, &(g, _))| t.run(nodes, g, dirty));
        // Task `t`'s local node 0 is its root, already allocated among the
        // top nodes; its other nodes follow the top nodes and the earlier
        // tasks' nodes.
        let mut bases = Vec::with_capacity(tasks.len());
        let mut end = top;
        for t in tasks.iter() {
            bases.push(end);
            end += t.nodes.len() - 1;
        }
        out.resize(end, Node4::default());
        up.resize(end, NULL);
        let at = |root: u32, base: usize, l: u32| {
            if l == 0 {
                root
            } else {
                (base + l as usize - 1) as u32
            }
        };
        let shift = |node: &Node4, root: u32, base: usize| {
            let mut n = *node;
            for c in 0..4 {
                if n.valid & !n.leaf & (1 << c) != 0 {
                    n.link[c] = at(root, base, n.link[c]);
                }
            }
            n
        };
        {
            // Disjoint ranges of the arrays, one per task, in task order.
            let (mut rest_nodes, mut rest_up) = (&mut out[top..], &mut up[top..]);
            let mut parts = Vec::with_capacity(tasks.len());
            for t in tasks.iter() {
                let len = t.nodes.len() - 1;
                let (n, rn) = core::mem::take(&mut rest_nodes).split_at_mut(len);
                let (u, ru) = core::mem::take(&mut rest_up).split_at_mut(len);
                (rest_nodes, rest_up) = (rn, ru);
                parts.push((n, u));
            }
            parts
                .into_par_iter()
                .zip(&*tasks)
                .zip(starts)
                .zip(&bases)
                .for_each(|((((n, u), t), &(_, root)), &base)| {
                    for (k, node) in t.nodes[1..].iter().enumerate() {
                        n[k] = shift(node, root, base);
                        let code = t.up[k + 1];
                        u[k] = at(root, base, code >> 2) << 2 | (code & 3);
                    }
                });
        }
        for ((t, &(_, root)), &base) in tasks.iter().zip(starts).zip(&bases) {
            out[root as usize] = shift(&t.nodes[0], root, base);
            for &(g, code) in &t.lanes {
                lane[g as usize] = at(root, base, code >> 2) << 2 | (code & 3);
            }
            self.dirty_nodes.extend(
                t.dirty
                    .iter()
                    .filter(|&&l| l != 0)
                    .map(|&l| at(root, base, l)),
            );
        }
        // The top nodes last: their children's bits are final.
        propagate_dirty(out, 0..top, &mut self.dirty_nodes);
    }
}
