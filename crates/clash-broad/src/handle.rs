//! Generational handles to the objects of a broad phase, and pairs of them.

/// The handle of one object in a broad phase: a slot index plus the
/// generation of that slot, so that a handle kept after its object was
/// removed is detected as stale even when the slot has been reused.
///
/// Handles stay valid across [`update`](crate::BroadPhase::update), tree
/// rotations and [`rebuild`](crate::DynamicTree::rebuild). They order by slot
/// index first, which gives every pair list its deterministic order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProxyHandle {
    index: u32,
    generation: u32,
}

impl ProxyHandle {
    /// The handle of slot `index` at generation `generation`. Handles built by
    /// hand are checked like any other: an unknown or stale one is refused.
    pub const fn new(index: u32, generation: u32) -> Self {
        Self { index, generation }
    }
    /// The slot index (dense: at most the largest number of objects alive at once).
    pub const fn index(self) -> u32 {
        self.index
    }
    /// The slot's generation: how many times the slot was freed before this handle was issued.
    pub const fn generation(self) -> u32 {
        self.generation
    }
}

/// `#index (generation g)`: the slot and its generation, as errors and logs
/// name an object.
///
/// ```
/// use clash_broad::ProxyHandle;
/// assert_eq!(ProxyHandle::new(3, 1).to_string(), "#3 (generation 1)");
/// ```
impl core::fmt::Display for ProxyHandle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "#{} (generation {})", self.index, self.generation)
    }
}

/// An unordered pair of objects whose boxes overlap, stored with `a < b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProxyPair {
    /// The smaller handle.
    pub a: ProxyHandle,
    /// The larger handle.
    pub b: ProxyHandle,
}

impl ProxyPair {
    /// The pair of `x` and `y` in canonical order (`a < b`).
    pub fn new(x: ProxyHandle, y: ProxyHandle) -> Self {
        if x <= y {
            Self { a: x, b: y }
        } else {
            Self { a: y, b: x }
        }
    }
}
