//! What the world's queries answer: [`PairCollision`]s with their
//! [`Contact`]s, and the closest pair as a [`PairDistance`].

use super::ObjectHandle;
use clash_math::{Point3, Scalar, Vector3};

/// One contact between two objects, in the world frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact<T: Scalar> {
    /// Signed distance: minus the penetration depth when the objects
    /// overlap, 0 when they touch, positive (below the query's margin) when
    /// they are apart.
    pub distance: T,
    /// Unit normal from the first object to the second (zero when it is
    /// undefined, as for triangles meeting edge on edge at one point).
    pub normal: Vector3<T>,
    /// A witness point on each object.
    pub points: [Point3<T>; 2],
    /// The triangle of each object the contact lies on, for meshes.
    pub triangles: [Option<u32>; 2],
}

impl<T: Scalar> Contact<T> {
    /// The penetration depth: `-distance` when the objects overlap, else 0.
    pub fn depth(&self) -> T {
        (-self.distance).max_of(T::ZERO)
    }

    /// The same contact seen from the other object.
    pub(crate) fn swapped(self) -> Self {
        Self {
            distance: self.distance,
            normal: -self.normal,
            points: [self.points[1], self.points[0]],
            triangles: [self.triangles[1], self.triangles[0]],
        }
    }
}

/// A colliding pair of objects and its contacts.
#[derive(Debug, Clone, PartialEq)]
pub struct PairCollision<T: Scalar> {
    /// The first object (the smaller handle).
    pub a: ObjectHandle,
    /// The second object.
    pub b: ObjectHandle,
    /// The contacts, at most the query's `max_contacts_per_pair`: one per
    /// triangle pair for two meshes, one per triangle for a mesh and a
    /// convex shape, one for two convex shapes.
    pub contacts: Vec<Contact<T>>,
}

/// The closest pair of objects.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairDistance<T: Scalar> {
    /// The first object (the smaller handle).
    pub a: ObjectHandle,
    /// The second object.
    pub b: ObjectHandle,
    /// Their distance (0 when they touch or overlap).
    pub distance: T,
    /// The closest point on each object (world frame).
    pub points: [Point3<T>; 2],
    /// The triangle of each object the point lies on, for meshes.
    pub triangles: [Option<u32>; 2],
}
