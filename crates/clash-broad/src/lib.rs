#![doc = include_str!("../README.md")]

mod aabb_ops;
mod broad_phase;
mod dynamic_tree;
mod error;
mod handle;
mod pair_tracker;
mod prefetch;
mod slots;
mod sort_and_sweep;

pub use broad_phase::{BroadPhase, ProxyUpdate, RayHit};
pub use dynamic_tree::{DynamicTree, REFIT_DRIFT};
pub use error::BroadPhaseError;
pub use handle::{ProxyHandle, ProxyPair};
pub use pair_tracker::PairTracker;
pub use sort_and_sweep::SortAndSweep;
