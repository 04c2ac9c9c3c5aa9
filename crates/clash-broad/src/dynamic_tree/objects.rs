//! Adding and removing objects: the public operations on the per-object
//! arrays, which queue leaves for [`DynamicTree::settle`].

use super::{DynamicTree, Node, mark};
use crate::aabb_ops::{check_aabb, fatten};
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
    pub(super) fn mark_moved(&mut self, slot: u32) {
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
