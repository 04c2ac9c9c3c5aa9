//! Generational slot storage of the objects of a broad phase: each object's
//! tight box and user data, addressed by [`ProxyHandle`], with a free list so
//! removed slots are reused and a generation counter so stale handles are refused.
use crate::{BroadPhaseError, ProxyHandle};
use clash_bv::Aabb;
use clash_math::Scalar;

/// "No index": the end of a list, or a missing node.
pub(crate) const NULL: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub(crate) struct Slots<T: Scalar, U> {
    /// Generation of each slot (bumped when its object is removed).
    pub(crate) generation: Vec<u32>,
    /// Per live slot: the structure's index for it (tree leaf node, sweep entry).
    /// Per free slot: the next free slot.
    pub(crate) link: Vec<u32>,
    /// Tight box of each slot (meaningless for free slots).
    pub(crate) aabb: Vec<Aabb<T>>,
    /// User data; `None` marks a free slot.
    pub(crate) data: Vec<Option<U>>,
    free_head: u32,
    len: usize,
}

impl<T: Scalar, U> Default for Slots<T, U> {
    fn default() -> Self {
        Self {
            generation: Vec::new(),
            link: Vec::new(),
            aabb: Vec::new(),
            data: Vec::new(),
            free_head: NULL,
            len: 0,
        }
    }
}

impl<T: Scalar, U> Slots<T, U> {
    /// Number of live objects.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Number of slots, live or free.
    pub(crate) fn capacity(&self) -> usize {
        self.generation.len()
    }

    /// The slot index of a live handle.
    #[inline]
    pub(crate) fn resolve(&self, h: ProxyHandle) -> Result<usize, BroadPhaseError> {
        let i = h.index() as usize;
        if i >= self.generation.len() {
            return Err(BroadPhaseError::UnknownHandle(h));
        }
        if self.generation[i] != h.generation() || self.data[i].is_none() {
            return Err(BroadPhaseError::StaleHandle(h));
        }
        Ok(i)
    }

    /// `true` when slot `i` holds an object.
    #[inline]
    pub(crate) fn is_live(&self, i: usize) -> bool {
        self.data[i].is_some()
    }

    /// The handle of live slot `i`.
    #[inline]
    pub(crate) fn handle(&self, i: u32) -> ProxyHandle {
        ProxyHandle::new(i, self.generation[i as usize])
    }

    /// Stores an object, reusing a free slot when there is one.
    pub(crate) fn insert(
        &mut self,
        aabb: Aabb<T>,
        data: U,
        link: u32,
    ) -> Result<u32, BroadPhaseError> {
        let i = if self.free_head != NULL {
            let i = self.free_head;
            self.free_head = self.link[i as usize];
            self.aabb[i as usize] = aabb;
            self.data[i as usize] = Some(data);
            self.link[i as usize] = link;
            i
        } else {
            let i = u32::try_from(self.generation.len())
                .map_err(|_| BroadPhaseError::CapacityExceeded)?;
            if i >= NULL - 1 {
                return Err(BroadPhaseError::CapacityExceeded);
            }
            self.generation.push(0);
            self.link.push(link);
            self.aabb.push(aabb);
            self.data.push(Some(data));
            i
        };
        self.len += 1;
        Ok(i)
    }

    /// Frees live slot `i`, returning its data; the generation is bumped so
    /// every outstanding handle to it becomes stale.
    pub(crate) fn remove(&mut self, i: usize) -> U {
        let data = self.data[i].take().expect("remove of a live slot");
        self.generation[i] = self.generation[i].wrapping_add(1);
        self.link[i] = self.free_head;
        self.free_head = i as u32;
        self.len -= 1;
        data
    }

    /// Checks the free list: every free slot is on it exactly once and no live slot is.
    pub(crate) fn validate(&self) -> Result<(), BroadPhaseError> {
        let mut on_list = vec![false; self.capacity()];
        let mut f = self.free_head;
        let mut count = 0usize;
        while f != NULL {
            let i = f as usize;
            if i >= self.capacity() || on_list[i] || self.is_live(i) {
                return Err(BroadPhaseError::InvariantViolated {
                    node: f,
                    what: "slot free list is corrupt",
                });
            }
            on_list[i] = true;
            count += 1;
            f = self.link[i];
        }
        if count + self.len != self.capacity() {
            return Err(BroadPhaseError::InvariantViolated {
                node: NULL,
                what: "slot count mismatch",
            });
        }
        Ok(())
    }
}
