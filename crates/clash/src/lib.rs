#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod mesh_file;
pub mod pose;
pub mod robot;
mod world;

pub use world::{
    CollisionFilter, CollisionWorld, Contact, Geometry, ObjectHandle, ObjectSettings,
    PairCollision, PairDistance, Selection, WorldError, WorldQuery, WorldVolume,
};

/// Scalars, nalgebra types, primitives and exact predicates (`clash-math`).
pub mod math {
    pub use clash_math::*;
}

/// Bounding volumes: fitting, merging, overlap tests (`clash-bv`).
pub mod bv {
    pub use clash_bv::*;
}

/// Primitive tests: closest points, overlaps, casts, moving tests (`clash-narrow`).
pub mod narrow {
    pub use clash_narrow::*;
}

/// Convex shapes and the queries between them: GJK distance, EPA depth,
/// contacts, manifolds, time of impact (`clash-convex`).
pub mod convex {
    pub use clash_convex::*;
}

/// Triangle meshes and bounding volume hierarchies (`clash-bvh`).
pub mod bvh {
    pub use clash_bvh::*;
}

/// Broad phases for many moving objects (`clash-broad`).
pub mod broad {
    pub use clash_broad::*;
}

/// The glam crate (feature `glam`): nalgebra's `From` conversions between
/// glam's vectors, quaternions and matrices and clash's points, vectors and
/// isometries are enabled with it.
#[cfg(feature = "glam")]
pub use glam;

/// The mint crate (feature `mint`): nalgebra's `From` conversions between
/// mint's types and clash's points, vectors and quaternions are enabled with it.
#[cfg(feature = "mint")]
pub use mint;

/// The rayon crate the batches run on, for programs that start their own
/// pools or parallel iterators around them (see
/// [`BatchOptions`](clash_bvh::BatchOptions) for a batch's thread count).
pub use rayon;

/// The names most programs need, for `use clash::prelude::*`.
pub mod prelude {
    pub use crate::mesh_file::{MeshFileError, MeshFormat, load_mesh, read_mesh};
    pub use crate::robot::{PackageMap, Robot, RobotPoses, Srdf};
    pub use crate::{
        CollisionFilter, CollisionWorld, Geometry, ObjectHandle, PairCollision, PairDistance,
        WorldQuery, mesh_from_points,
    };
    pub use clash_bv::{
        Aabb, BoundingVolume, Capsule, FitVolume, FlatVolume, Kdop14, Kdop18, Kdop26, Obb, Rss,
        Sphere,
    };
    pub use clash_bvh::{
        AabbTree, BatchError, BatchOptions, BuildError, BuildOptions, Bvh, CapsuleTree,
        CollisionRequest, CollisionResult, DistanceRequest, Kdop14Tree, Kdop18Tree, Kdop26Tree,
        LoadError, MeshConvexDistance, MeshDistance, MeshError, MeshRayHit, ObbTree, PoseInput,
        RayQuery, RelativePose, RssTree, SphereTree, SplitRule, TreeVolume, TriMesh,
        TriangleContact, TrianglePair, ValidationError,
    };
    pub use clash_convex::query::{
        ContactResult, DistanceResult, QueryRequest, QueryStatus, contact, distance, intersects,
    };
    pub use clash_convex::{
        Ball, CapsuleShape, Cone, ConvexHull, Cuboid, Cylinder, SegmentShape, Shape, ShapeError,
        SupportMap, TriangleShape,
    };
    pub use clash_math::{
        Isometry3, Matrix3, Point3, Ray, Rotation3, Scalar, Segment, Translation3, Triangle,
        UnitQuaternion, Vector3,
    };
}

/// A [`TriMesh`](clash_bvh::TriMesh) from vertices of any type that converts
/// into a point: `[T; 3]`, nalgebra points, and with the `glam` or `mint`
/// feature, `glam::Vec3` / `glam::DVec3` and `mint::Point3`.
///
/// ```
/// let mesh = clash::mesh_from_points::<f32, _>(
///     [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
///     vec![[0, 1, 2]],
/// ).unwrap();
/// assert_eq!(mesh.num_triangles(), 1);
/// ```
///
/// # Errors
/// The [`MeshError`](clash_bvh::MeshError)s of [`TriMesh::new`](clash_bvh::TriMesh::new).
pub fn mesh_from_points<T: clash_math::Scalar, V: Into<clash_math::Point3<T>>>(
    vertices: impl IntoIterator<Item = V>,
    indices: Vec<[u32; 3]>,
) -> Result<clash_bvh::TriMesh<T>, clash_bvh::MeshError> {
    clash_bvh::TriMesh::new(vertices.into_iter().map(Into::into).collect(), indices)
}

/// The README's examples, compiled and run as doc-tests (only in the
/// repository: the published crate holds its own README, not this one).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
