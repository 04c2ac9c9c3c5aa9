//! The dynamic AABB tree: a binary bounding volume hierarchy over fat boxes
//! that supports insertion, removal and cheap updates of moving objects
//! (RTCD §6.2.3 incremental construction, §6.5.1 merging; the design family
//! of Bullet's dbvt and Box2D's dynamic tree).
//!
//! Nodes live in one flat array with a free list; leaves point at the object
//! slots of [`ProxyHandle`]s and slots point back at their leaf, so handles
//! survive every restructuring. The algorithms over the tree live beside it:
//! `insert.rs` (best-sibling search and rotations), `build.rs` (parallel
//! binned SAH build), `pairs.rs` (over the traversal copy of `pair_tree/`),
//! `queries.rs`, `validate.rs` and `broad_phase.rs` (the trait).

mod broad_phase;
mod build;
mod insert;
mod pair_tree;
mod pairs;
mod queries;
mod validate;

use crate::aabb_ops::{check_aabb, check_vector, contains, fatten, surface_area, union};
use crate::prefetch::{AHEAD, PREFETCH_MIN, prefetch};
use crate::slots::{NULL, Slots};
use crate::{BroadPhaseError, ProxyHandle};
use clash_bv::Aabb;
use clash_math::{Point3, Scalar, Vector3};

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
/// surface-area (SAH) cost (RTCD §6.2.3.1) by a greedy descent refined by a
/// bounded branch-and-bound search (re-insertions of moved objects use the
/// greedy descent alone), and refitting on the way up applies tree
/// rotations that shrink surface area. Pair enumeration is incremental: only
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
    /// Scratch of the best-sibling search (kept to avoid allocating per insertion).
    pub(crate) search: Vec<(T, u32, T, T)>,
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
    /// refit of their leaf at the next [`settle`](Self::settle).
    pub(crate) pending: Vec<u32>,
    pub(crate) pending_flag: Vec<bool>,
    /// Pending slots whose leaf node still holds the old fat box (the
    /// per-slot copy in `fat` is the new one): the tree does not cover their
    /// tight boxes, so queries test them apart until `settle` writes them.
    pub(crate) stale: Vec<u32>,
    pub(crate) stale_flag: Vec<bool>,
    /// Scratch of [`settle`](Self::settle): pending leaves as `leaf << 32 |
    /// slot`, and the buffer of their radix sort.
    pub(crate) settle_keys: Vec<u64>,
    pub(crate) settle_scratch: Vec<u64>,
    /// Internal nodes whose boxes [`refit_loose`](Self::refit_loose) must
    /// recompute: the parents of the leaves that [`settle`](Self::settle)
    /// refits in place (empty outside `settle`).
    pub(crate) loose: Vec<u32>,
    /// Per node: is it in `loose`?
    pub(crate) loose_flag: Vec<bool>,
    /// Scratch of [`refit_loose`](Self::refit_loose): loose nodes bucketed by height.
    pub(crate) loose_buckets: Vec<Vec<u32>>,
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

/// How far the tree's cost may drift above its value after the last rebuild
/// while many leaves move before [`DynamicTree::settle`] rebuilds (1.07: 7%).
/// A wave of moves in which most leaves leave their fat boxes adds about 2%
/// (on the benchmark's scene), so this rebuilds after three or four such
/// waves; the tree stays within 10% of a fresh build.
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
            search: Vec::new(),
            pair_tree: Default::default(),
            pair_tasks: Vec::new(),
            task_starts: Vec::new(),
            query_stack: Vec::new(),
            moved: Vec::new(),
            moved_flag: Vec::new(),
            fat_pairs: Vec::new(),
            fat_pairs_valid: false,
            pair_keys: Vec::new(),
            sort_scratch: Vec::new(),
            sort_counts: Vec::new(),
            pending: Vec::new(),
            pending_flag: Vec::new(),
            stale: Vec::new(),
            stale_flag: Vec::new(),
            settle_keys: Vec::new(),
            settle_scratch: Vec::new(),
            loose: Vec::new(),
            loose_flag: Vec::new(),
            loose_buckets: Vec::new(),
            build_items: Vec::new(),
            build_nodes: Vec::new(),
            churn: 0,
            rebuilt_cost: 0.0,
            area_internal: 0.0,
            area_leaves: 0.0,
            areas_valid: false,
            in_order: false,
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

    /// Adds an object with tight box `aabb`; O(log n) expected.
    ///
    /// # Errors
    /// Non-finite or inverted box; capacity exceeded.
    pub fn insert(&mut self, aabb: Aabb<T>, data: U) -> Result<ProxyHandle, BroadPhaseError> {
        check_aabb(&aabb)?;
        if self.slots.len() >= (NULL / 2 - 2) as usize {
            return Err(BroadPhaseError::CapacityExceeded);
        }
        let leaf = self.alloc_node()?;
        let slot = match self.slots.insert(aabb, data, leaf) {
            Ok(s) => s,
            Err(e) => {
                self.free_node_at(leaf);
                return Err(e);
            }
        };
        let fat = fatten(&aabb, self.margin, &Vector3::zeros(), self.prediction);
        self.nodes[leaf as usize] = Node {
            aabb: fat,
            parent: NULL,
            child: [NULL, NULL],
            height: 0,
            proxy: slot,
        };
        self.set_fat(slot, fat);
        self.insert_leaf(leaf, true);
        self.mark_moved(slot);
        Ok(self.slots.handle(slot))
    }

    /// Removes an object and returns its data.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn remove(&mut self, handle: ProxyHandle) -> Result<U, BroadPhaseError> {
        let i = self.slots.resolve(handle)?;
        if self.stale_flag.get(i).copied().unwrap_or(false) {
            // A later object in this slot must not be taken for stale.
            self.stale_flag[i] = false;
            let k = self.stale.iter().position(|&s| s as usize == i);
            self.stale.swap_remove(k.expect("a flagged slot is listed"));
        }
        // Its kept pairs must go: it counts as changed for the pair search.
        self.mark_moved(i as u32);
        let leaf = self.slots.link[i];
        self.remove_leaf(leaf);
        self.free_node_at(leaf);
        Ok(self.slots.remove(i))
    }

    /// Moves an object to tight box `aabb` with expected motion `displacement`.
    ///
    /// When the new box still lies in the fat box, and the fat box is not
    /// much larger than the new fat box would be (so that it shrinks again
    /// after fast motion stops), only the tight box is stored and `false` is
    /// returned; this path reads only per-object arrays, not the tree.
    /// Otherwise the object gets a new fat box, its leaf is queued for the
    /// next [`settle`](Self::settle) (which re-inserts it, or refits it in
    /// place when many objects moved), and `true` is returned; this path
    /// too reads and writes only per-object arrays, not the tree. Until
    /// `settle`, queries test such objects apart from the tree, so they
    /// stay exact. The handle is unchanged either way.
    ///
    /// # Errors
    /// Unknown or stale handle; non-finite or inverted box; non-finite displacement.
    pub fn update(
        &mut self,
        handle: ProxyHandle,
        aabb: Aabb<T>,
        displacement: Vector3<T>,
    ) -> Result<bool, BroadPhaseError> {
        let i = self.slots.resolve(handle)?;
        if self.keeps_fat_box(i, &aabb, &displacement) {
            self.slots.aabb[i] = aabb;
            return Ok(false);
        }
        check_aabb(&aabb)?;
        check_vector(&displacement, "displacement")?;
        let fat = fatten(&aabb, self.margin, &displacement, self.prediction);
        for k in 0..3 {
            if !fat.min[k].finite() || !fat.max[k].finite() {
                return Err(BroadPhaseError::NonFinite {
                    what: "displacement",
                });
            }
        }
        self.slots.aabb[i] = aabb;
        let old = self.fat[i];
        if contains(&old, &aabb) {
            // Still inside; keep the fat box unless it is far too large
            // (the test of the fast path, reached here only when the grown
            // box overflows).
            let reach = displacement
                .x
                .abs()
                .max_of(displacement.y.abs())
                .max_of(displacement.z.abs());
            let slack = self.margin * T::lit(4.0) + self.prediction * reach;
            let s = Vector3::new(slack, slack, slack);
            let huge = Aabb {
                min: fat.min - s,
                max: fat.max + s,
            };
            if contains(&huge, &old) {
                return Ok(false);
            }
        }
        self.fat[i] = fat;
        let slot = i as u32;
        mark(&mut self.stale_flag, &mut self.stale, slot);
        mark(&mut self.pending_flag, &mut self.pending, slot);
        self.mark_moved(slot);
        Ok(true)
    }

    /// The fast path of [`update`](Self::update): `true` when the new tight
    /// box `a` is valid and lies in slot `i`'s fat box, no face of the fat
    /// box is more than `5 margin` away from the same face of `a`, and the
    /// fat box that `update` would give `a` with displacement `d` is finite.
    /// Only per-slot arrays are read. When `false`, `update` checks the
    /// input and decides exactly (it may still keep the fat box).
    ///
    /// This is a sufficient condition of the exact test of `update` (the fat
    /// box lies in the new fat box grown by `4 margin + prediction * reach`):
    /// the new fat box reaches at least `margin` beyond `a` on every side and
    /// the slack adds `4 margin` more. It takes a few comparisons, on the
    /// path that most updates of a moving scene take. Containment in the
    /// (finite) fat box implies a finite tight box, NaN failing every
    /// comparison; the sum of the new fat box's extents is finite exactly
    /// when all its coordinates are (each extent is `>= 0` or NaN), so a
    /// displacement that is not finite or would overflow it is left to the
    /// slow path, which refuses it.
    #[inline]
    fn keeps_fat_box(&self, i: usize, a: &Aabb<T>, d: &Vector3<T>) -> bool {
        let old = &self.fat[i];
        let (m, p, reach) = (self.margin, self.prediction, self.keep_reach);
        let mut ok = true;
        let mut extents = T::ZERO;
        for k in 0..3 {
            ok &= (old.min[k] <= a.min[k])
                & (a.min[k] <= old.min[k] + reach)
                & (a.max[k] <= old.max[k])
                & (old.max[k] - reach <= a.max[k])
                & (a.min[k] <= a.max[k]);
            let dp = d[k] * p;
            extents += (a.max[k] + m + dp.max_of(T::ZERO)) - (a.min[k] - m + dp.min_of(T::ZERO));
        }
        ok & extents.finite()
    }

    /// Adds many objects at once and rebuilds the whole tree top-down with
    /// the binned SAH in parallel ([`rebuild`](Self::rebuild)). All boxes are
    /// checked first: on error nothing is inserted.
    ///
    /// # Errors
    /// The first non-finite or inverted box; capacity exceeded.
    pub fn insert_bulk(
        &mut self,
        items: impl IntoIterator<Item = (Aabb<T>, U)>,
    ) -> Result<Vec<ProxyHandle>, BroadPhaseError> {
        let items: Vec<(Aabb<T>, U)> = items.into_iter().collect();
        for (b, _) in &items {
            check_aabb(b)?;
        }
        if self.slots.capacity().saturating_add(items.len()) >= (NULL as usize) / 2 - 1 {
            return Err(BroadPhaseError::CapacityExceeded);
        }
        let mut handles = Vec::with_capacity(items.len());
        for (aabb, data) in items {
            let leaf = self.alloc_node()?;
            let slot = self.slots.insert(aabb, data, leaf)?;
            let fat = fatten(&aabb, self.margin, &Vector3::zeros(), self.prediction);
            // Unlinked leaf: the rebuild below links every leaf.
            self.nodes[leaf as usize] = Node {
                aabb: fat,
                parent: NULL,
                child: [NULL, NULL],
                height: 0,
                proxy: slot,
            };
            self.set_fat(slot, fat);
            handles.push(self.slots.handle(slot));
        }
        self.rebuild();
        // Many new leaves: the next pair enumeration traverses the whole tree.
        self.fat_pairs_valid = false;
        Ok(handles)
    }

    /// Stores the fat box of `slot` in the per-slot copy (growing it as needed).
    fn set_fat(&mut self, slot: u32, fat: Aabb<T>) {
        let s = slot as usize;
        if self.fat.len() <= s {
            self.fat.resize(s + 1, fat);
        }
        self.fat[s] = fat;
    }

    /// Records that the fat box of `slot` changed, for the incremental pair enumeration.
    fn mark_moved(&mut self, slot: u32) {
        let s = slot as usize;
        if self.moved_flag.len() <= s {
            self.moved_flag.resize(s + 1, false);
        }
        if !self.moved_flag[s] {
            self.moved_flag[s] = true;
            self.moved.push(slot);
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

    /// Refits the boxes and heights from `n` up to the root, rotating at
    /// each node where that reduces surface area.
    pub(crate) fn refit_upward(&mut self, n: u32) {
        self.refit_upward_with(n, true);
    }

    /// Refits from `n` up to the root, rotating only when `rotate` is set.
    fn refit_upward_with(&mut self, mut n: u32, rotate: bool) {
        while n != NULL {
            let [a, b] = self.nodes[n as usize].child;
            let (na, nb) = (&self.nodes[a as usize], &self.nodes[b as usize]);
            let aabb = union(&na.aabb, &nb.aabb);
            let old = self.nodes[n as usize];
            self.nodes[n as usize].aabb = aabb;
            let rotated = rotate && self.rotate(n);
            let [a, b] = self.nodes[n as usize].child;
            let height = 1 + self.nodes[a as usize]
                .height
                .max(self.nodes[b as usize].height);
            self.nodes[n as usize].height = height;
            if !rotated && aabb == old.aabb && height == old.height {
                // Nothing above can change: every ancestor's box and height
                // depend on this node only through its box and height.
                return;
            }
            n = self.nodes[n as usize].parent;
        }
    }

    /// Unlinks a leaf from the tree (the leaf node itself stays allocated);
    /// its parent is freed and its sibling takes the parent's place.
    pub(crate) fn remove_leaf(&mut self, leaf: u32) {
        self.unlink_leaf(leaf, true);
    }

    /// As [`remove_leaf`](Self::remove_leaf), rotating on the way up only when `rotate` is set.
    fn unlink_leaf(&mut self, leaf: u32, rotate: bool) {
        self.areas_valid = false;
        self.pair_tree.valid = false;
        self.in_order = false;
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grand = self.nodes[parent as usize].parent;
        let [c0, c1] = self.nodes[parent as usize].child;
        let sibling = if c0 == leaf { c1 } else { c0 };
        self.nodes[sibling as usize].parent = grand;
        if grand == NULL {
            self.root = sibling;
        } else {
            let g = &mut self.nodes[grand as usize];
            let k = usize::from(g.child[1] == parent);
            g.child[k] = sibling;
        }
        self.free_node_at(parent);
        self.nodes[leaf as usize].parent = NULL;
        self.refit_upward_with(grand, rotate);
    }

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
        for h in 1..=top {
            let mut k = 0;
            while k < buckets[h].len() {
                let n = buckets[h][k];
                k += 1;
                self.loose_flag[n as usize] = false;
                let node = &self.nodes[n as usize];
                let [a, b] = node.child;
                let aabb = union(&self.nodes[a as usize].aabb, &self.nodes[b as usize].aabb);
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

    /// Brings the tree up to date with the fat boxes that
    /// [`update`](Self::update) changed since the last call: each such leaf
    /// is unlinked and re-inserted from the root by SAH cost with its new
    /// box. When more than a 32nd of all objects are pending (a whole scene
    /// is moving), re-inserting them one by one costs more than keeping the
    /// tree as it is: their leaves keep their places, get their new boxes,
    /// and their ancestors are refitted bottom-up, each node once (by one
    /// backward sweep of the node array when more than an eighth moved and
    /// the nodes are still laid out as the last rebuild left them), so the
    /// topology is kept as long as the tree's cost ([`Self::cost_ratio`]: internal
    /// over leaf areas) stays within [`REFIT_DRIFT`] of its value after the
    /// last rebuild, and one parallel [`rebuild`](Self::rebuild) is done
    /// once it drifts further. A rebuild is also done once the re-insertions since the last
    /// rebuild exceed twice the object count, which bounds the drift of the
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
            for (i, &k) in keys.iter().enumerate() {
                // The leaves come in node order, their slots in no useful
                // order: in a large scene the fat box a few ahead is asked
                // for early.
                if hints && let Some(&ahead) = keys.get(i + AHEAD) {
                    prefetch(&self.fat[ahead as u32 as usize]);
                }
                let (leaf, slot) = ((k >> 32) as usize, k as u32 as usize);
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
                self.unlink_leaf(self.slots.link[slot as usize], false);
            }
        }
        self.clear_stale();
        for &slot in &pending {
            let s = slot as usize;
            self.pending_flag[s] = false;
            if self.slots.is_live(s) {
                let leaf = self.slots.link[s];
                self.nodes[leaf as usize].aabb = self.fat[s];
                // The greedy descent alone: re-insertions are frequent, and
                // the rebuilds bound the drift of the tree's cost.
                self.insert_leaf(leaf, false);
            }
        }
        self.pending = pending;
        self.pending.clear();
    }

    /// Forgets the stale slots (their leaves are being written).
    pub(crate) fn clear_stale(&mut self) {
        for &slot in &self.stale {
            self.stale_flag[slot as usize] = false;
        }
        self.stale.clear();
    }

    /// Links an unlinked leaf (its fat box set) into the tree next to the
    /// best sibling (found by the greedy descent refined by the
    /// branch-and-bound search when `search`, by the greedy descent alone
    /// otherwise), then refits and rotates up to the root.
    pub(crate) fn insert_leaf(&mut self, leaf: u32, search: bool) {
        self.insert_leaf_at(leaf, self.root, search);
    }

    /// As [`insert_leaf`](Self::insert_leaf), searching for the sibling in
    /// the subtree under `start` only.
    pub(crate) fn insert_leaf_at(&mut self, leaf: u32, start: u32, search: bool) {
        self.areas_valid = false;
        self.pair_tree.valid = false;
        self.in_order = false;
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let leaf_box = self.nodes[leaf as usize].aabb;
        let sibling = if search {
            self.best_sibling(&leaf_box, start)
        } else {
            self.greedy_sibling(&leaf_box, surface_area(&leaf_box), start)
                .0
        };
        let old_parent = self.nodes[sibling as usize].parent;
        // alloc cannot fail here: the node count is bounded by twice the slot count.
        let new_parent = self
            .alloc_node()
            .expect("node capacity is twice the slot capacity");
        let s = &self.nodes[sibling as usize];
        self.nodes[new_parent as usize] = Node {
            aabb: union(&leaf_box, &s.aabb),
            parent: old_parent,
            child: [sibling, leaf],
            height: s.height + 1,
            proxy: NULL,
        };
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        if old_parent == NULL {
            self.root = new_parent;
        } else {
            let p = &mut self.nodes[old_parent as usize];
            let k = usize::from(p.child[1] == sibling);
            p.child[k] = new_parent;
        }
        self.refit_upward(old_parent);
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
