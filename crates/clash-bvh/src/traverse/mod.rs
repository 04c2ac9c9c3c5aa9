//! What the descents of the queries share: volume pair tests between trees
//! of any two volume types (`bv_pair.rs`), a volume against a point, a ray
//! or a primitive (`bv_query.rs`), and the fixed-size heap they descend
//! with (`heap.rs`), which allocates nothing per query (their stack is
//! [`clash_math::stack::Stack`], sized from the depth bound).

pub(crate) mod bv_pair;
pub(crate) mod bv_query;
pub(crate) mod heap;
