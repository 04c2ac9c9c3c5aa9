//! Adding, moving and removing objects: the public operations on the
//! per-object arrays, which queue leaves for [`DynamicTree::settle`].

use super::{DynamicTree, Node, mark};
use crate::aabb_ops::{check_aabb, check_vector, contains, fatten};
use crate::slots::NULL;
use crate::{BroadPhaseError, ProxyHandle};
use clash_bv::Aabb;
use clash_math::{Scalar, Vector3};

impl<T: Scalar, U> DynamicTree<T, U> {
    /// Adds an object with tight box `aabb`. Its leaf is linked into the tree
    /// at the next [`settle`](Self::settle) (O(log n) expected each), with
    /// the other new leaves in spatial order, so that consecutive descents
    /// share their paths; until then queries test it apart, as they test
    /// moved objects (the first object of an empty tree is linked at once).
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
        // The new leaf changes the area sums, and the tree's shape once linked.
        self.areas_valid = false;
        self.pair_tree.valid = false;
        if self.root == NULL {
            self.insert_leaf(leaf);
        } else {
            // Linked at the next `settle`, with the other new leaves, in
            // spatial order; until then queries test it apart, as they test
            // the objects that moved out of their leaves' boxes.
            self.mark_stale(slot);
            mark(&mut self.pending_flag, &mut self.pending, slot);
        }
        self.mark_moved(slot);
        Ok(self.slots.handle(slot))
    }

    /// Removes an object and returns its data.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn remove(&mut self, handle: ProxyHandle) -> Result<U, BroadPhaseError> {
        let i = self.slots.resolve(handle)?;
        // A later object in this slot must not be taken for stale.
        self.unmark_stale(i as u32);
        // Its kept pairs must go: it counts as changed for the pair search.
        self.mark_moved(i as u32);
        let leaf = self.slots.link[i];
        if self.is_linked(leaf) {
            self.unlink_leaf(leaf);
        }
        self.areas_valid = false;
        self.in_order = false;
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
        self.mark_stale(slot);
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
}
