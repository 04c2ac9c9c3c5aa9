//! # clash-broad
//!
//! The broad phase of clash: which of many objects may touch, so that only
//! those pairs go on to the narrow phase. Generic over `f32` and `f64`.
//!
//! - [`DynamicTree`]: a dynamic AABB tree over fat boxes (RTCD §6.2.3
//!   incremental insertion by surface-area cost, tree rotations, §6.5.1),
//!   with a parallel binned-SAH bulk build and full [`rebuild`](DynamicTree::rebuild).
//! - [`SortAndSweep`]: sort and sweep over an array (RTCD §7.5.2), the baseline.
//! - [`BroadPhase`]: the trait both implement. Objects are identified by a
//!   generational [`ProxyHandle`]; a stale handle gives a [`BroadPhaseError`].
//! - [`PairTracker`]: the pairs that started and stopped overlapping each step.
//!
//! A collision world holds one handle per object, calls
//! [`update`](BroadPhase::update) for the objects that moved (or
//! [`update_many`](BroadPhase::update_many) for all of them at once), then
//! [`PairTracker::step`] for the candidate pairs; see [`DynamicTree`] for an example.

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
