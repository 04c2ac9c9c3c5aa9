//! The queries on a tree, one file per query: mesh/mesh collision
//! (`collide.rs`), self-collision (`self_collide.rs`), containment of
//! closed meshes (`containment.rs`), mesh/mesh distance (`distance.rs`),
//! closest points and signed distance (`closest_point.rs`), rays (`ray/`),
//! a mesh against a primitive shape (`shape.rs`) or a convex shape of
//! clash-convex (`convex.rs`), continuous collision (`continuous.rs`) and
//! parallel batches of pairs (`batch.rs`).

pub(crate) mod batch;
pub(crate) mod closest_point;
pub(crate) mod collide;
pub(crate) mod containment;
pub(crate) mod continuous;
pub(crate) mod convex;
pub(crate) mod distance;
pub(crate) mod ray;
pub(crate) mod self_collide;
pub(crate) mod shape;
