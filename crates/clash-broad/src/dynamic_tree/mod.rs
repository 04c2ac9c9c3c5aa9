//! The dynamic AABB tree: a binary bounding volume hierarchy over fat boxes
//! that supports insertion, removal and cheap updates of moving objects
//! (RTCD §6.2.3 incremental construction, §6.5.1 merging; the design family
//! of Bullet's dbvt and Box2D's dynamic tree).
//!
//! Nodes live in one flat array with a free list; leaves point at the object
//! slots of [`ProxyHandle`]s and slots point back at their leaf, so handles
//! survive every restructuring. This file holds the tree's type and its
//! node storage; the algorithms over it live beside it: `objects.rs`
//! (insert, remove), `moves.rs` (update, one object or a batch), `insert.rs` (linking leaves: best-sibling
//! search and rotations), `settle.rs` (bringing moved leaves up to date),
//! `build.rs` (parallel binned SAH build), `pairs.rs` (over the traversal
//! copy of `pair_tree/`, with the order-keeping parallel loops of
//! `chunked.rs`), `queries.rs`, `validate.rs` and `broad_phase.rs` (the
//! trait). Each imports the type from here; only `pairs.rs` imports
//! siblings (`pair_tree/`, `chunked.rs`).

mod broad_phase;
mod build;
mod chunked;
mod insert;
mod moves;
mod objects;
mod pair_tree;
mod pairs;
mod queries;
mod settle;
#[cfg(test)]
mod thread_count_tests;
mod validate;

pub use settle::REFIT_DRIFT;

use crate::slots::{NULL, Slots};
use crate::{BroadPhaseError, ProxyHandle};
use clash_bv::Aabb;
use clash_math::{Point3, Scalar};

/// Height value marking a node on the free list.
pub(crate) const FREE: u32 = u32::MAX;

/// One node of the tree. A leaf has `child == [NULL, NULL]` and `proxy` set;
/// an internal node has two children and `proxy == NULL`. A free node has
/// `height == FREE` and its `parent` is the next free node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<T: Scalar> {
    /// Fat box for a leaf, union of the children for an internal node.
    pub(crate) aabb: Aabb<T>,
    pub(crate) parent: u32,
    pub(crate) child: [u32; 2],
    /// 0 for a leaf, 1 + the larger child height otherwise.
    pub(crate) height: u32,
    pub(crate) proxy: u32,
}

impl<T: Scalar> Node<T> {
    #[inline]
    pub(crate) fn is_leaf(&self) -> bool {
        self.child[0] == NULL
    }
    pub(crate) fn empty() -> Self {
        let o = Point3::origin();
        Self {
            aabb: Aabb { min: o, max: o },
            parent: NULL,
            child: [NULL, NULL],
            height: FREE,
            proxy: NULL,
        }
    }
}

/// Dynamic AABB tree broad phase (RTCD §6.2.3, §6.5.1).
///
/// Each object is stored in a leaf under a *fat* box: its tight box enlarged
/// by [`margin`](Self::margin) on every side and stretched by
/// `prediction * displacement` along its motion. An [`update`](Self::update)
/// whose new box stays inside the fat box costs one containment test; one
/// that leaves it gets a new fat box, and its leaf is re-inserted at the next
/// [`settle`](Self::settle) (O(log n), no allocation, same handle), or
/// refitted in place when much of the scene moved. Insertion picks the sibling of least
/// surface-area (SAH) cost (RTCD §6.2.3.1) by a greedy descent, and
/// refitting on the way up applies tree rotations that shrink surface area
/// (removal only refits). Pair enumeration is incremental: only
/// objects whose fat box changed are queried again (when many changed, the
/// tree is traversed against itself instead, in parallel for large trees).
/// Queries and pairs are exact on the tight boxes.
///
/// ```
/// use clash_broad::{BroadPhase, DynamicTree, PairTracker};
/// use clash_bv::Aabb;
/// use clash_math::{Point3, Vector3};
///
/// let cube = |x: f64| Aabb { min: Point3::new(x, 0.0, 0.0), max: Point3::new(x + 1.0, 1.0, 1.0) };
/// let mut tree = DynamicTree::new(0.1).unwrap();
/// let a = tree.insert(cube(0.0), "a").unwrap();
/// let b = tree.insert(cube(0.5), "b").unwrap();
/// let c = tree.insert(cube(5.0), "c").unwrap();
///
/// let mut tracker = PairTracker::new();
/// tracker.step(&mut tree);
/// assert_eq!(tracker.pairs().len(), 1); // a and b
/// assert_eq!(tracker.started().len(), 1);
///
/// // c moves onto b: one pair starts; a small move of a changes nothing.
/// tree.update(c, cube(1.2), Vector3::new(-3.8, 0.0, 0.0)).unwrap();
/// tree.update(a, cube(0.01), Vector3::zeros()).unwrap();
/// tracker.step(&mut tree);
/// assert_eq!(tracker.started().len(), 1);
/// assert_eq!((tracker.started()[0].a, tracker.started()[0].b), (b, c));
/// assert!(tracker.stopped().is_empty());
///
/// tree.validate().unwrap();
/// assert_eq!(tree.remove(a).unwrap(), "a");
/// assert!(tree.remove(a).is_err()); // stale handle: a typed error, not a panic
/// ```
#[derive(Clone, Debug)]
pub struct DynamicTree<T: Scalar, U = ()> {
    pub(crate) nodes: Vec<Node<T>>,
    pub(crate) root: u32,
    pub(crate) free_node: u32,
    pub(crate) node_count: usize,
    pub(crate) slots: Slots<T, U>,
    /// Per slot: the fat box of its leaf (a copy of the leaf node's box, kept
    /// in slot order so that [`update`](Self::update) tests containment
    /// without touching the node array; meaningless for free slots).
    pub(crate) fat: Vec<Aabb<T>>,
    margin: T,
    prediction: T,
    /// `5 margin`: how far a face of a fat box may lie from the same face of
    /// the tight box for [`update`](Self::update)'s fast path.
    keep_reach: T,
    /// The compact copy of the tree that the pair search runs on; kept,
    /// box by box, while the tree keeps its shape.
    pub(crate) pair_tree: pair_tree::PairTree,
    /// Scratch of the pair traversal: its tasks and where they start.
    pub(crate) pair_tasks: Vec<pair_tree::PairTask>,
    pub(crate) task_starts: Vec<(u32, u32)>,
    /// Scratch of the box queries of the pair enumeration.
    pub(crate) query_stack: Vec<u32>,
    /// Slots whose fat box changed (inserted, moved out of its fat box, or
    /// removed) since the last pair enumeration.
    pub(crate) moved: Vec<u32>,
    /// Per slot: is it in `moved`?
    pub(crate) moved_flag: Vec<bool>,
    /// Scratch of the pair search: the live slots of `moved`.
    pub(crate) moved_live: Vec<u32>,
    /// Pairs of slots (smaller first) whose fat boxes overlapped at the last
    /// pair enumeration; valid when `fat_pairs_valid`.
    pub(crate) fat_pairs: Vec<(u32, u32)>,
    pub(crate) fat_pairs_valid: bool,
    /// Scratch of the output sort: exact pairs packed as `a << 32 | b`.
    pub(crate) pair_keys: Vec<u64>,
    /// Scratch of the sort of `pair_keys`: a buffer and per-slot counts.
    pub(crate) sort_scratch: Vec<u64>,
    pub(crate) sort_counts: Vec<u32>,
    /// Slots whose fat box `update` changed, awaiting re-insertion or a
    /// refit of their leaf at the next [`settle`](Self::settle), and new
    /// objects whose leaves `settle` links.
    pub(crate) pending: Vec<u32>,
    pub(crate) pending_flag: Vec<bool>,
    /// Pending slots whose leaf node still holds the old fat box (the
    /// per-slot copy in `fat` is the new one), or is not linked yet (a new
    /// object): the tree does not cover their tight boxes, so queries test
    /// them apart until `settle` writes or links them.
    pub(crate) stale: Vec<u32>,
    pub(crate) stale_flag: Vec<bool>,
    /// Per slot: its index in `stale` (meaningful while flagged), so that
    /// [`remove`](Self::remove) takes a slot off the list in O(1).
    pub(crate) stale_at: Vec<u32>,
    /// Scratch of [`settle`](Self::settle): pending leaves as `leaf << 32 |
    /// slot`, and the buffer of their radix sort.
    pub(crate) settle_keys: Vec<u64>,
    pub(crate) settle_scratch: Vec<u64>,
    /// Scratch of [`settle`](Self::settle): the leaves it links, as
    /// `morton << 32 | slot`.
    pub(crate) link_keys: Vec<u64>,
    /// Internal nodes whose boxes [`refit_loose`](Self::refit_loose) must
    /// recompute: the parents of the leaves that [`settle`](Self::settle)
    /// refits in place (empty outside `settle`).
    pub(crate) loose: Vec<u32>,
    /// Per node: is it in `loose`?
    pub(crate) loose_flag: Vec<bool>,
    /// Scratch of [`refit_loose`](Self::refit_loose): loose nodes bucketed by height.
    pub(crate) loose_buckets: Vec<Vec<u32>>,
    /// Scratch of [`refit_loose`](Self::refit_loose): the new boxes of the
    /// loose nodes of one height.
    pub(crate) refit_boxes: Vec<Aabb<T>>,
    /// Scratch of [`rebuild`](Self::rebuild): its leaves, and the node
    /// array it builds into (the array it replaced, kept for the next one).
    pub(crate) build_items: Vec<build::Item<T>>,
    pub(crate) build_nodes: Vec<Node<T>>,
    /// Re-insertions since the last rebuild.
    pub(crate) churn: usize,
    /// [`cost_ratio`](Self::cost_ratio) right after the last rebuild.
    pub(crate) rebuilt_cost: f64,
    /// Sums of the surface areas of the internal nodes and of the leaves
    /// (for [`cost_ratio`](Self::cost_ratio)), kept up to date by the refit
    /// of [`settle`](Self::settle) while `areas_valid`; any other change of
    /// the tree clears `areas_valid`, and the next `settle` that needs them
    /// sums them again.
    pub(crate) area_internal: f64,
    pub(crate) area_leaves: f64,
    pub(crate) areas_valid: bool,
    /// Every internal node comes before its children in the node array and
    /// no node is free: true after a [`rebuild`](Self::rebuild) (which lays
    /// the nodes out depth-first) until the tree's shape changes. Then
    /// [`settle`](Self::settle) refits by one backward sweep of the array.
    pub(crate) in_order: bool,
    /// Scratch of [`update_many`](Self::update_many): the decided moves (a
    /// code per update), and per slot the number of the last batch that moved it (the
    /// current batch's number is `move_epoch`).
    pub(crate) move_plan: Vec<u32>,
    pub(crate) move_stamp: Vec<u32>,
    pub(crate) move_epoch: u32,
}

/// Sets `flags[i]` and lists `i` in `list` unless already flagged (the flags
/// grow as needed).
#[inline]
fn mark(flags: &mut Vec<bool>, list: &mut Vec<u32>, i: u32) {
    let k = i as usize;
    if flags.len() <= k {
        flags.resize(k + 1, false);
    }
    if !flags[k] {
        flags[k] = true;
        list.push(i);
    }
}

impl<T: Scalar, U> DynamicTree<T, U> {
    /// An empty tree whose fat boxes are enlarged by `margin` on every side,
    /// with the default motion prediction factor 2.
    ///
    /// # Errors
    /// [`BroadPhaseError::InvalidParameter`] for a negative or non-finite margin.
    pub fn new(margin: T) -> Result<Self, BroadPhaseError> {
        Self::with_prediction(margin, T::TWO)
    }

    /// An empty tree with the given margin and motion prediction factor: a
    /// fat box is stretched by `prediction * displacement` along the motion
    /// passed to [`update`](Self::update).
    ///
    /// # Errors
    /// [`BroadPhaseError::InvalidParameter`] for a negative or non-finite parameter.
    pub fn with_prediction(margin: T, prediction: T) -> Result<Self, BroadPhaseError> {
        if !(margin.finite() && margin >= T::ZERO) {
            return Err(BroadPhaseError::InvalidParameter { what: "margin" });
        }
        if !(prediction.finite() && prediction >= T::ZERO) {
            return Err(BroadPhaseError::InvalidParameter { what: "prediction" });
        }
        Ok(Self {
            nodes: Vec::new(),
            root: NULL,
            free_node: NULL,
            node_count: 0,
            slots: Slots::default(),
            fat: Vec::new(),
            margin,
            prediction,
            // Not finite for a huge margin: then the fast path never applies.
            keep_reach: if (margin * T::lit(5.0)).finite() {
                margin * T::lit(5.0)
            } else {
                T::ZERO
            },
            pair_tree: Default::default(),
            pair_tasks: Vec::new(),
            task_starts: Vec::new(),
            query_stack: Vec::new(),
            moved: Vec::new(),
            moved_flag: Vec::new(),
            moved_live: Vec::new(),
            fat_pairs: Vec::new(),
            fat_pairs_valid: false,
            pair_keys: Vec::new(),
            sort_scratch: Vec::new(),
            sort_counts: Vec::new(),
            pending: Vec::new(),
            pending_flag: Vec::new(),
            stale: Vec::new(),
            stale_flag: Vec::new(),
            stale_at: Vec::new(),
            settle_keys: Vec::new(),
            settle_scratch: Vec::new(),
            link_keys: Vec::new(),
            loose: Vec::new(),
            loose_flag: Vec::new(),
            loose_buckets: Vec::new(),
            refit_boxes: Vec::new(),
            build_items: Vec::new(),
            build_nodes: Vec::new(),
            churn: 0,
            rebuilt_cost: 0.0,
            area_internal: 0.0,
            area_leaves: 0.0,
            areas_valid: false,
            in_order: false,
            move_plan: Vec::new(),
            move_stamp: Vec::new(),
            move_epoch: 0,
        })
    }

    /// The fattening margin.
    pub fn margin(&self) -> T {
        self.margin
    }

    /// The motion prediction factor.
    pub fn prediction(&self) -> T {
        self.prediction
    }

    /// Number of objects.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// `true` when the tree holds no object.
    pub fn is_empty(&self) -> bool {
        self.slots.len() == 0
    }

    /// Height of the tree: 0 for a single leaf, 0 also when empty.
    pub fn height(&self) -> u32 {
        if self.root == NULL {
            0
        } else {
            self.nodes[self.root as usize].height
        }
    }

    /// The fat box under which the object is stored (contains its tight box).
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn fat_aabb(&self, handle: ProxyHandle) -> Result<&Aabb<T>, BroadPhaseError> {
        let i = self.slots.resolve(handle)?;
        Ok(&self.fat[i])
    }

    /// The object's tight box.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn aabb(&self, handle: ProxyHandle) -> Result<&Aabb<T>, BroadPhaseError> {
        let i = self.slots.resolve(handle)?;
        Ok(&self.slots.aabb[i])
    }

    /// The object's user data.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn data(&self, handle: ProxyHandle) -> Result<&U, BroadPhaseError> {
        let i = self.slots.resolve(handle)?;
        Ok(self.slots.data[i]
            .as_ref()
            .expect("resolved slots are live"))
    }

    /// The object's user data, mutably.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn data_mut(&mut self, handle: ProxyHandle) -> Result<&mut U, BroadPhaseError> {
        let i = self.slots.resolve(handle)?;
        Ok(self.slots.data[i]
            .as_mut()
            .expect("resolved slots are live"))
    }

    /// Handles of all objects, in slot order.
    pub fn handles(&self) -> impl Iterator<Item = ProxyHandle> + '_ {
        (0..self.slots.capacity() as u32)
            .filter(|&i| self.slots.is_live(i as usize))
            .map(|i| self.slots.handle(i))
    }

    /// Is `leaf` in the tree, rather than the leaf of a new object waiting
    /// for [`settle`](Self::settle) to link it?
    #[inline]
    pub(crate) fn is_linked(&self, leaf: u32) -> bool {
        self.root == leaf || self.nodes[leaf as usize].parent != NULL
    }

    /// Lists `slot` as stale, unless it already is.
    pub(crate) fn mark_stale(&mut self, slot: u32) {
        let k = slot as usize;
        if self.stale_flag.len() <= k {
            self.stale_flag.resize(k + 1, false);
            self.stale_at.resize(k + 1, 0);
        }
        if !self.stale_flag[k] {
            self.stale_flag[k] = true;
            self.stale_at[k] = self.stale.len() as u32;
            self.stale.push(slot);
        }
    }

    /// Takes `slot` off the stale list, if it is on it.
    pub(crate) fn unmark_stale(&mut self, slot: u32) {
        let k = slot as usize;
        if !self.stale_flag.get(k).copied().unwrap_or(false) {
            return;
        }
        self.stale_flag[k] = false;
        let at = self.stale_at[k] as usize;
        self.stale.swap_remove(at);
        if let Some(&last) = self.stale.get(at) {
            self.stale_at[last as usize] = at as u32;
        }
    }

    /// Takes a node from the free list (or grows the array).
    pub(crate) fn alloc_node(&mut self) -> Result<u32, BroadPhaseError> {
        self.node_count += 1;
        if self.free_node != NULL {
            let n = self.free_node;
            self.free_node = self.nodes[n as usize].parent;
            self.nodes[n as usize] = Node::empty();
            self.nodes[n as usize].height = 0;
            return Ok(n);
        }
        let n = self.nodes.len();
        if n >= (NULL - 1) as usize {
            self.node_count -= 1;
            return Err(BroadPhaseError::CapacityExceeded);
        }
        let mut node = Node::empty();
        node.height = 0;
        self.nodes.push(node);
        Ok(n as u32)
    }

    /// Returns a node to the free list.
    pub(crate) fn free_node_at(&mut self, n: u32) {
        let node = &mut self.nodes[n as usize];
        *node = Node::empty();
        node.parent = self.free_node;
        self.free_node = n;
        self.node_count -= 1;
    }
}
