//! What a [`CollisionWorld`](super::CollisionWorld) holds: each object's
//! [`Geometry`] (a mesh tree or a convex shape), its pose, its
//! [`CollisionFilter`] and a user tag.

use clash_bv::{Aabb, BoundingVolume};
use clash_bvh::{BvPair, BvQuery, Bvh};
use clash_convex::Shape;
use clash_convex::shape::bounding;
use clash_math::{Isometry3, Scalar};
use std::sync::Arc;

/// The bounding volumes a world's mesh trees may use: any of clash's eight
/// (AABB, sphere, OBB, capsule, RSS and the 14-, 18- and 26-DOPs; one per
/// world, so that every mesh pair runs the traversal of one volume type).
pub trait WorldVolume<T: Scalar>: BvQuery<T> + BvPair<T, Self> + Send + Sync {}

impl<T: Scalar, B: BvQuery<T> + BvPair<T, B> + Send + Sync> WorldVolume<T> for B {}

/// The shape of an object: a triangle mesh with its tree, or a convex shape
/// of clash-convex (primitives and hulls). Trees and hulls are shared, so
/// many objects may use one.
#[derive(Debug, Clone)]
pub enum Geometry<T: Scalar, B: BoundingVolume<T>> {
    /// A triangle mesh and its tree.
    Mesh(Arc<Bvh<T, B>>),
    /// A convex shape.
    Convex(Shape<T>),
}

impl<T: Scalar, B: BoundingVolume<T>> From<Arc<Bvh<T, B>>> for Geometry<T, B> {
    fn from(tree: Arc<Bvh<T, B>>) -> Self {
        Self::Mesh(tree)
    }
}

impl<T: Scalar, B: BoundingVolume<T>> From<Bvh<T, B>> for Geometry<T, B> {
    fn from(tree: Bvh<T, B>) -> Self {
        Self::Mesh(Arc::new(tree))
    }
}

impl<T: Scalar, B: BoundingVolume<T>> From<Shape<T>> for Geometry<T, B> {
    fn from(shape: Shape<T>) -> Self {
        Self::Convex(shape)
    }
}

impl<T: Scalar, B: BoundingVolume<T>> Geometry<T, B> {
    /// The axis-aligned box containing the geometry placed by `pose`,
    /// padded for rounding.
    pub fn aabb(&self, pose: &Isometry3<T>) -> Aabb<T> {
        match self {
            Self::Mesh(tree) => tree.root_bv().aabb().transformed(pose),
            Self::Convex(shape) => bounding::aabb(shape, pose),
        }
    }
}

/// Which objects may collide, as bit sets (Bullet's and parry's collision
/// groups): two objects are checked only when each one's `groups` meets the
/// other's `mask`.
///
/// ```
/// use clash::CollisionFilter;
/// let robot = CollisionFilter::new(0b01, 0b11); // meets robots and obstacles
/// let obstacle = CollisionFilter::new(0b10, 0b01); // meets robots only
/// assert!(robot.interacts(&obstacle));
/// assert!(!obstacle.interacts(&obstacle));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CollisionFilter {
    /// The groups the object belongs to.
    pub groups: u32,
    /// The groups it collides with.
    pub mask: u32,
}

impl CollisionFilter {
    /// In every group, colliding with every group (the default).
    pub const ALL: Self = Self {
        groups: u32::MAX,
        mask: u32::MAX,
    };

    /// The filter of an object in `groups` that collides with `mask`.
    pub const fn new(groups: u32, mask: u32) -> Self {
        Self { groups, mask }
    }

    /// Whether objects with these two filters are checked against each other.
    #[inline]
    pub const fn interacts(&self, other: &Self) -> bool {
        self.groups & other.mask != 0 && other.groups & self.mask != 0
    }
}

impl Default for CollisionFilter {
    fn default() -> Self {
        Self::ALL
    }
}

/// An object's settings besides its geometry and pose.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ObjectSettings {
    /// Which objects it is checked against.
    pub filter: CollisionFilter,
    /// A number of the user's choosing (an entity id, a link index...),
    /// returned by [`CollisionWorld::tag`](super::CollisionWorld::tag).
    pub tag: u64,
}

/// One object: geometry, pose and settings.
#[derive(Debug, Clone)]
pub(crate) struct Object<T: Scalar, B: BoundingVolume<T>> {
    pub(crate) geometry: Geometry<T, B>,
    pub(crate) pose: Isometry3<T>,
    pub(crate) settings: ObjectSettings,
}
