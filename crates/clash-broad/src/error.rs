//! The typed errors of the broad phase.
use crate::ProxyHandle;
use thiserror::Error;

/// Why a broad-phase operation was refused. A refused operation leaves the
/// structure exactly as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum BroadPhaseError {
    /// A box, point, ray or displacement had a NaN or infinite coordinate.
    #[error("non-finite coordinate (NaN or infinity) in the {what}")]
    NonFinite {
        /// Which input was not finite (`"aabb"`, `"displacement"`, `"point"`, `"ray"`).
        what: &'static str,
    },
    /// A box had `min > max` on some axis.
    #[error("inverted AABB: min > max on axis {axis}")]
    InvertedAabb {
        /// The first axis (0, 1 or 2) on which `min > max`.
        axis: usize,
    },
    /// A parameter (margin, prediction factor, ray length) was negative or not finite.
    #[error("invalid parameter {what}: must be finite and non-negative")]
    InvalidParameter {
        /// The parameter's name.
        what: &'static str,
    },
    /// The handle's slot index was never issued by this broad phase.
    #[error("unknown handle {0}: never issued by this broad phase")]
    UnknownHandle(ProxyHandle),
    /// The handle's object was removed (its slot may have been reused: the
    /// generation counter no longer matches).
    #[error("stale handle {0}: its object was removed")]
    StaleHandle(ProxyHandle),
    /// A batch of updates moved one object twice (the handle of the second).
    #[error("handle {0} listed twice in one batch of updates")]
    DuplicateHandle(ProxyHandle),
    /// More than `u32::MAX - 1` objects or nodes.
    #[error("capacity exceeded: at most u32::MAX - 1 objects")]
    CapacityExceeded,
    /// [`validate`](crate::DynamicTree::validate) found a broken invariant.
    #[error("invariant violated at node {node}: {what}")]
    InvariantViolated {
        /// The node (or slot) index where the check failed.
        node: u32,
        /// Which invariant failed.
        what: &'static str,
    },
}
