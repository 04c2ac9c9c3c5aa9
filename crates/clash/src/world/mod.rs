//! [`CollisionWorld`]: objects of mixed kinds (mesh trees, convex shapes and
//! primitives) with poses, collision filters, user tags and an
//! allowed-collision list, over a dynamic AABB tree broad phase; queries
//! for every colliding pair with contacts, the first collision, the minimum
//! distance, and batches of configurations.
//!
//! - [`object`](self): [`Geometry`], [`CollisionFilter`], [`ObjectSettings`];
//! - `query`: [`WorldQuery`] and the single-configuration queries;
//! - `batch`: many configurations at once;
//! - `narrow`: one pair of objects of any kinds; `search`: the pair loops.

mod answer;
mod batch;
mod narrow;
mod object;
mod query;
mod search;

pub use answer::{Contact, PairCollision, PairDistance};
pub use object::{CollisionFilter, Geometry, ObjectSettings, WorldVolume};
pub use query::{Selection, WorldQuery};

use clash_broad::{BroadPhaseError, DynamicTree, ProxyHandle, ProxyPair};
use clash_math::{Isometry3, Scalar, isometry_is_finite};
use object::Object;
use std::collections::HashSet;
use thiserror::Error;

/// The handle of an object in a [`CollisionWorld`]: generational, so a
/// handle kept after its object was removed is refused, not confused with a
/// new object.
pub type ObjectHandle = ProxyHandle;

/// Why a [`CollisionWorld`] operation was refused (the world is unchanged).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WorldError {
    /// A pose had a NaN or infinite component.
    #[error("the pose has a non-finite component (NaN or infinity)")]
    NonFinitePose,
    /// The broad phase refused the operation (unknown or stale handle, bad margin).
    #[error(transparent)]
    BroadPhase(#[from] BroadPhaseError),
    /// A query parameter was out of range.
    #[error("invalid query: {0}")]
    InvalidQuery(&'static str),
    /// A batch's poses did not come as whole configurations.
    #[error(
        "a batch of {poses} poses is not a whole number of configurations of {objects} objects"
    )]
    BatchShape {
        /// The number of poses given.
        poses: usize,
        /// The number of objects in the world.
        objects: usize,
    },
    /// A pose of a batch had a NaN or infinite component.
    #[error("configuration {config}: the pose of object {object} has a non-finite component")]
    NonFiniteBatchPose {
        /// The configuration (in input order).
        config: usize,
        /// The object's place in [`CollisionWorld::handles`].
        object: usize,
    },
}

/// Objects of any kind placed in the world: mesh trees (of the volume type
/// `B`, shared), convex shapes and primitives, each with a pose, a
/// [`CollisionFilter`] and a user tag, plus pairs never checked (an
/// allowed-collision list). A dynamic AABB tree (clash-broad) keeps every
/// object's world box; queries test only pairs whose boxes meet, and
/// answer the same on any number of threads.
///
/// ```
/// use clash::prelude::*;
/// use clash::{Geometry, WorldQuery};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let mesh = TriMesh::new(
///     vec![Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0),
///          Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0)],
///     vec![[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]],
/// )?;
/// let tree = std::sync::Arc::new(ObbTree::build(mesh, &BuildOptions::default())?);
/// let mut world = CollisionWorld::<f64, Obb<f64>>::new(0.1)?;
/// let tet = world.insert(tree.clone(), Isometry3::identity())?;
/// let ball = world.insert(Shape::Ball(Ball::new(0.5)?), Isometry3::translation(3.0, 0.0, 0.0))?;
/// let query = WorldQuery::default();
/// assert!(world.collide(&query)?.is_empty());
/// let d = world.distance(&query)?.unwrap();
/// assert!((d.distance - 1.5).abs() < 1e-12 && (d.a, d.b) == (tet, ball));
/// world.set_pose(ball, Isometry3::translation(1.2, 0.0, 0.0))?;
/// let hits = world.collide(&query)?;
/// assert_eq!((hits[0].a, hits[0].b), (tet, ball));
/// assert!(hits[0].contacts[0].depth() > 0.0);
/// world.allow_pair(tet, ball, true)?; // never checked from now on
/// assert!(world.first_collision(&query)?.is_none());
/// # Ok(()) }
/// ```
pub struct CollisionWorld<T: Scalar, B: WorldVolume<T>> {
    broad: DynamicTree<T, Object<T, B>>,
    allowed: HashSet<(ObjectHandle, ObjectHandle)>,
    pairs: Vec<ProxyPair>,
}

impl<T: Scalar, B: WorldVolume<T>> CollisionWorld<T, B> {
    /// An empty world whose broad phase fattens boxes by `margin` (moves
    /// smaller than the margin cost no broad-phase work).
    ///
    /// # Errors
    /// [`WorldError::BroadPhase`] for a negative or non-finite margin.
    pub fn new(margin: T) -> Result<Self, WorldError> {
        Ok(Self {
            broad: DynamicTree::new(margin)?,
            allowed: HashSet::new(),
            pairs: Vec::new(),
        })
    }

    /// Number of objects.
    pub fn len(&self) -> usize {
        self.broad.len()
    }

    /// `true` when the world holds no object.
    pub fn is_empty(&self) -> bool {
        self.broad.is_empty()
    }

    /// The handles of every object, in increasing order (the order of a
    /// batch's poses).
    pub fn handles(&self) -> Vec<ObjectHandle> {
        self.broad.handles().collect()
    }

    /// Adds an object at `pose`, in every group and colliding with every
    /// group, with tag 0.
    ///
    /// # Errors
    /// [`WorldError::NonFinitePose`].
    pub fn insert(
        &mut self,
        geometry: impl Into<Geometry<T, B>>,
        pose: Isometry3<T>,
    ) -> Result<ObjectHandle, WorldError> {
        self.insert_with(geometry, pose, ObjectSettings::default())
    }

    /// Adds an object at `pose` with its filter and tag.
    ///
    /// # Errors
    /// [`WorldError::NonFinitePose`].
    pub fn insert_with(
        &mut self,
        geometry: impl Into<Geometry<T, B>>,
        pose: Isometry3<T>,
        settings: ObjectSettings,
    ) -> Result<ObjectHandle, WorldError> {
        check_pose(&pose)?;
        let geometry = geometry.into();
        let aabb = geometry.aabb(&pose);
        let handle = self.broad.insert(
            aabb,
            Object {
                geometry,
                pose,
                settings,
            },
        )?;
        // Linked now: `distance` queries the tree without settling it, and
        // would test every object not linked yet one by one.
        self.broad.settle();
        Ok(handle)
    }

    /// Removes an object (and its allowed pairs) and gives back its geometry.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn remove(&mut self, handle: ObjectHandle) -> Result<Geometry<T, B>, WorldError> {
        let object = self.broad.remove(handle)?;
        self.allowed.retain(|&(a, b)| a != handle && b != handle);
        Ok(object.geometry)
    }

    /// Moves an object to `pose`.
    ///
    /// # Errors
    /// Unknown or stale handle, non-finite pose; the world is unchanged.
    pub fn set_pose(&mut self, handle: ObjectHandle, pose: Isometry3<T>) -> Result<(), WorldError> {
        let object = self.broad.data(handle)?;
        check_pose(&pose)?;
        let aabb = object.geometry.aabb(&pose);
        let displacement = pose.translation.vector - object.pose.translation.vector;
        let _ = self.broad.update(handle, aabb, displacement)?;
        self.broad.data_mut(handle)?.pose = pose;
        Ok(())
    }

    /// Changes an object's collision filter.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn set_filter(
        &mut self,
        handle: ObjectHandle,
        filter: CollisionFilter,
    ) -> Result<(), WorldError> {
        self.broad.data_mut(handle)?.settings.filter = filter;
        Ok(())
    }

    /// The pose of an object.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn pose(&self, handle: ObjectHandle) -> Result<&Isometry3<T>, WorldError> {
        Ok(&self.broad.data(handle)?.pose)
    }

    /// The geometry of an object.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn geometry(&self, handle: ObjectHandle) -> Result<&Geometry<T, B>, WorldError> {
        Ok(&self.broad.data(handle)?.geometry)
    }

    /// The filter of an object.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn filter(&self, handle: ObjectHandle) -> Result<CollisionFilter, WorldError> {
        Ok(self.broad.data(handle)?.settings.filter)
    }

    /// The tag of an object.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn tag(&self, handle: ObjectHandle) -> Result<u64, WorldError> {
        Ok(self.broad.data(handle)?.settings.tag)
    }

    /// Marks the pair `(a, b)` (either order) allowed to collide: never
    /// checked (`true`), or checked again (`false`).
    ///
    /// # Errors
    /// Unknown or stale handle; [`WorldError::InvalidQuery`] when `a == b`.
    pub fn allow_pair(
        &mut self,
        a: ObjectHandle,
        b: ObjectHandle,
        allowed: bool,
    ) -> Result<(), WorldError> {
        self.broad.data(a)?;
        self.broad.data(b)?;
        if a == b {
            return Err(WorldError::InvalidQuery(
                "an object is never paired with itself",
            ));
        }
        let key = (a.min(b), a.max(b));
        if allowed {
            self.allowed.insert(key);
        } else {
            self.allowed.remove(&key);
        }
        Ok(())
    }

    /// Whether the pair `(a, b)` is allowed to collide (never checked).
    pub fn is_pair_allowed(&self, a: ObjectHandle, b: ObjectHandle) -> bool {
        self.allowed.contains(&(a.min(b), a.max(b)))
    }

    /// Whether the pair of live objects `(a, b)`, `a < b`, is checked: their
    /// filters interact and the pair is not allowed.
    fn checked(
        &self,
        a: ObjectHandle,
        oa: &Object<T, B>,
        b: ObjectHandle,
        ob: &Object<T, B>,
    ) -> bool {
        oa.settings.filter.interacts(&ob.settings.filter)
            && (self.allowed.is_empty() || !self.allowed.contains(&(a, b)))
    }
}

fn check_pose<T: Scalar>(pose: &Isometry3<T>) -> Result<(), WorldError> {
    if isometry_is_finite(pose) {
        Ok(())
    } else {
        Err(WorldError::NonFinitePose)
    }
}
