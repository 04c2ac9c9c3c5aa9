//! # clash-bvh
//!
//! Bounding volume hierarchies over triangle meshes (RTCD ch. 6, Eberly §6–7):
//! a validated [`TriMesh`], top-down parallel construction ([`Bvh::build`],
//! [`BuildOptions`]) over any bounding volume type of clash-bv, a flat
//! preorder node layout, refit, mesh/mesh collision by simultaneous descent
//! ending in clash-narrow's exact triangle/triangle test, self-collision,
//! containment of closed meshes, parallel batches, and saving and loading;
//! and the other queries on the same trees: ray casts ([`Bvh::cast_ray`]),
//! closest points and signed distance ([`Bvh::closest_point`],
//! [`Bvh::signed_distance`]), mesh/mesh distance ([`Bvh::distance`]), a
//! mesh against a primitive ([`Bvh::triangles_meeting`]) and against a
//! convex shape of clash-convex ([`Bvh::intersects_convex`],
//! [`Bvh::distance_to_convex`], [`Bvh::contacts_with_convex`]).
//!
//! ```
//! use clash_bvh::{Bvh, BuildOptions, CollisionRequest, TriMesh};
//! use clash_bv::Aabb;
//! use clash_math::{Isometry3, Point3};
//!
//! // A unit cube as 12 triangles.
//! let v: Vec<Point3<f32>> = (0..8)
//!     .map(|i| Point3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
//!     .collect();
//! let f = vec![
//!     [0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4],
//!     [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5],
//! ];
//! let cube: Bvh<f32, Aabb<f32>> = Bvh::build(TriMesh::new(v, f)?, &BuildOptions::default())?;
//! let touching = Isometry3::translation(1.0, 0.0, 0.0);
//! assert!(cube.intersects(&cube, &touching));
//! // A small cube inside a big one: no triangles meet, but it is a collision
//! // when containment is asked for.
//! let inside = Isometry3::translation(0.25, 0.25, 0.25);
//! let small = Bvh::<f32, Aabb<f32>>::build(
//!     TriMesh::new(cube.mesh().vertices().iter().map(|p| p * 0.5).collect(), cube.mesh().indices().to_vec())?,
//!     &BuildOptions::default(),
//! )?;
//! assert!(!cube.intersects(&small, &inside));
//! let r = cube.collide(&small, &inside, &CollisionRequest::any().with_containment());
//! assert!(r.collides());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

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
