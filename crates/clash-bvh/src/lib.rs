#![doc = include_str!("../README.md")]

mod aliases;
mod build;
mod bvh;
mod error;
pub mod io;
mod mesh;
mod node;
mod query;
mod traverse;
mod tree_volume;
mod validate;

pub use aliases::{
    AabbTree, CapsuleTree, Kdop14Tree, Kdop18Tree, Kdop26Tree, ObbTree, RssTree, SphereTree,
};
pub use build::{BuildOptions, DEFAULT_TIGHT_ABOVE, FitQuality, MAX_DEPTH, SplitRule};
pub use bvh::{Bvh, TreeStats};
pub use clash_bv::RelativePose;
pub use error::{BatchError, BuildError, LoadError, MeshError, ValidationError};
pub use mesh::TriMesh;
pub use node::Node;
pub use query::batch::{BatchOptions, PoseInput, TreePair, collide_pairs};
pub use query::closest_point::{MeshPoint, SignedDistance, SignedDistanceError};
pub use query::collide::{CollisionRequest, CollisionResult, Containment, TrianglePair};
pub use query::continuous::{Motion, TimeOfContact};
pub use query::convex::{MeshConvexDistance, TriangleContact};
pub use query::distance::{DistanceRequest, MeshDistance};
pub use query::ray::{MeshRayHit, RayOrder, RayQuery};
pub use query::shape::Shape;
pub use traverse::bv_pair::BvPair;
pub use traverse::bv_query::{BvQuery, PreparedRay};
pub use tree_volume::TreeVolume;
