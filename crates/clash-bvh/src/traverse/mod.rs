//! What the descents of the queries share: volume pair tests between trees
//! of any two volume types (`bv_pair.rs`), a volume against a point, a ray
//! or a primitive (`bv_query.rs`), and the fixed-size stack and heap they
//! descend with (`stack.rs`, `heap.rs`), which allocate nothing per query.

pub(crate) mod bv_pair;
pub(crate) mod bv_query;
pub(crate) mod heap;
pub(crate) mod stack;
