//! A cache hint for loops that read per-object arrays in an order the
//! hardware prefetcher cannot guess (object slots met in tree order, or
//! pairs of slots): asking for the data a few iterations ahead lets the
//! misses of a large scene overlap. The hint itself is
//! [`clash_math::prefetch::prefetch`]; these are the loops' settings.

/// How many iterations ahead the loops ask for their data.
pub(crate) const AHEAD: usize = 8;

/// Below this many object slots the per-object arrays stay in cache (the
/// tight boxes of 32,768 `f32` objects take 768 KiB), and the hints only
/// cost: the loops ask for data ahead only above it.
pub(crate) const PREFETCH_MIN: usize = 1 << 15;
