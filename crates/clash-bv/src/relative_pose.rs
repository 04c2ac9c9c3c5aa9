//! [`RelativePose`]: the pose of one tree's frame in another's, with its
//! rotation matrix computed once per query rather than once per node pair.

use clash_math::{Isometry3, Matrix3, Scalar, Vector3};

/// A rigid transform in both forms: the isometry, and its rotation matrix and
/// translation vector. Hierarchy traversals build it once per query and pass
/// it to [`crate::BoundingVolume::overlaps_relative`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RelativePose<T: Scalar> {
    /// The transform.
    pub iso: Isometry3<T>,
    /// Its rotation as a matrix.
    pub rotation: Matrix3<T>,
    /// Its translation.
    pub translation: Vector3<T>,
}

impl<T: Scalar> RelativePose<T> {
    /// Both forms of `iso`.
    #[inline]
    pub fn new(iso: &Isometry3<T>) -> Self {
        Self {
            iso: *iso,
            rotation: iso.rotation.to_rotation_matrix().into_inner(),
            translation: iso.translation.vector,
        }
    }
}
