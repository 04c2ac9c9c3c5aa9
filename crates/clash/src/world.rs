//! [`CollisionWorld`]: many meshes with poses; one call runs the broad phase
//! and then mesh/mesh collision over the candidate pairs in parallel.

use clash_broad::{BroadPhaseError, DynamicTree, ProxyHandle, ProxyPair};
use clash_bv::BoundingVolume;
use clash_bvh::{BvPair, Bvh, CollisionRequest, CollisionResult};
use clash_math::{Isometry3, Scalar, Vector3};
use rayon::prelude::*;
use std::sync::Arc;
use thiserror::Error;

/// The handle of an object in a [`CollisionWorld`]: generational, so a
/// handle kept after its object was removed is refused, not confused with a
/// new object.
pub type ObjectHandle = ProxyHandle;

/// Why a [`CollisionWorld`] operation was refused (the world is unchanged).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum WorldError {
    /// A pose had a NaN or infinite component.
    #[error("the pose has a non-finite component (NaN or infinity)")]
    NonFinitePose,
    /// The broad phase refused the operation (unknown or stale handle, bad margin).
    #[error(transparent)]
    BroadPhase(#[from] BroadPhaseError),
}

/// The triangle contacts of one pair of objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairContacts {
    /// The first object (the smaller handle).
    pub a: ObjectHandle,
    /// The second object.
    pub b: ObjectHandle,
    /// Their contacts: triangle pairs `[triangle of a, triangle of b]`.
    pub result: CollisionResult,
}

struct Object<T: Scalar, B: BoundingVolume<T>> {
    tree: Arc<Bvh<T, B>>,
    pose: Isometry3<T>,
}

/// Meshes placed in the world, each a shared tree and a pose, over a
/// dynamic AABB tree broad phase (clash-broad). [`collide`](Self::collide)
/// finds the pairs whose world boxes overlap, then runs [`Bvh::collide`] on
/// each in parallel and returns the colliding pairs in handle order, so the
/// answer does not depend on the thread count.
///
/// ```
/// use clash::prelude::*;
/// use std::sync::Arc;
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let mesh = TriMesh::new(
///     vec![Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0),
///          Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0)],
///     vec![[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]],
/// )?;
/// let tree = Arc::new(Bvh::<f64, Obb<f64>>::build(mesh, &BuildOptions::default())?);
/// let mut world = CollisionWorld::new(0.1)?;
/// let a = world.insert(tree.clone(), Isometry3::identity())?;
/// let b = world.insert(tree.clone(), Isometry3::translation(5.0, 0.0, 0.0))?;
/// assert!(world.collide(&CollisionRequest::all()).is_empty());
/// world.set_pose(b, Isometry3::translation(0.5, 0.0, 0.0))?;
/// let contacts = world.collide(&CollisionRequest::all());
/// assert_eq!((contacts[0].a, contacts[0].b), (a, b));
/// # Ok(()) }
/// ```
pub struct CollisionWorld<T: Scalar, B: BoundingVolume<T>> {
    broad: DynamicTree<T, Object<T, B>>,
    pairs: Vec<ProxyPair>,
}

impl<T: Scalar, B: BoundingVolume<T> + BvPair<T, B>> CollisionWorld<T, B> {
    /// An empty world whose broad phase fattens boxes by `margin` (moves
    /// smaller than the margin cost no broad-phase work).
    ///
    /// # Errors
    /// [`WorldError::BroadPhase`] for a negative or non-finite margin.
    pub fn new(margin: T) -> Result<Self, WorldError> {
        Ok(Self {
            broad: DynamicTree::new(margin)?,
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

    /// Adds a mesh tree at `pose` (trees are shared: many objects may use one).
    ///
    /// # Errors
    /// [`WorldError::NonFinitePose`].
    pub fn insert(
        &mut self,
        tree: Arc<Bvh<T, B>>,
        pose: Isometry3<T>,
    ) -> Result<ObjectHandle, WorldError> {
        let aabb = world_aabb(&tree, &pose)?;
        Ok(self.broad.insert(aabb, Object { tree, pose })?)
    }

    /// Removes an object and gives back its tree.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn remove(&mut self, handle: ObjectHandle) -> Result<Arc<Bvh<T, B>>, WorldError> {
        Ok(self.broad.remove(handle)?.tree)
    }

    /// The pose of an object.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn pose(&self, handle: ObjectHandle) -> Result<&Isometry3<T>, WorldError> {
        Ok(&self.broad.data(handle)?.pose)
    }

    /// The tree of an object.
    ///
    /// # Errors
    /// Unknown or stale handle.
    pub fn tree(&self, handle: ObjectHandle) -> Result<&Arc<Bvh<T, B>>, WorldError> {
        Ok(&self.broad.data(handle)?.tree)
    }

    /// Moves an object to `pose`.
    ///
    /// # Errors
    /// Unknown or stale handle, non-finite pose; the world is unchanged.
    pub fn set_pose(&mut self, handle: ObjectHandle, pose: Isometry3<T>) -> Result<(), WorldError> {
        let object = self.broad.data(handle)?;
        let aabb = world_aabb(&object.tree, &pose)?;
        let displacement: Vector3<T> = pose.translation.vector - object.pose.translation.vector;
        let _ = self.broad.update(handle, aabb, displacement)?;
        self.broad.data_mut(handle)?.pose = pose;
        Ok(())
    }

    /// The pairs of objects whose world boxes overlap (the broad phase's
    /// answer), sorted by handle.
    pub fn candidate_pairs(&mut self) -> &[ProxyPair] {
        self.broad.overlapping_pairs(&mut self.pairs);
        &self.pairs
    }

    /// Every pair of objects whose meshes collide, with the triangle pairs
    /// `request` asks for, sorted by handle. The mesh/mesh queries run in
    /// parallel on the current rayon pool.
    pub fn collide(&mut self, request: &CollisionRequest) -> Vec<PairContacts> {
        self.broad.overlapping_pairs(&mut self.pairs);
        let broad = &self.broad;
        self.pairs
            .par_iter()
            .filter_map(|pair| {
                let (a, b) = (broad.data(pair.a).ok()?, broad.data(pair.b).ok()?);
                let b_to_a = a.pose.inv_mul(&b.pose);
                let result = a.tree.collide(&b.tree, b_to_a, request);
                result.collides().then_some(PairContacts {
                    a: pair.a,
                    b: pair.b,
                    result,
                })
            })
            .collect()
    }
}

fn world_aabb<T: Scalar, B: BoundingVolume<T>>(
    tree: &Bvh<T, B>,
    pose: &Isometry3<T>,
) -> Result<clash_bv::Aabb<T>, WorldError> {
    if !clash_math::isometry_is_finite(pose) {
        return Err(WorldError::NonFinitePose);
    }
    Ok(tree.root_bv().aabb().transformed(pose))
}
