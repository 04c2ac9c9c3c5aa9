//! [`RelativePose`]: the pose of one tree's frame in another's, with its
//! rotation matrix computed once per query rather than once per node pair.

use clash_math::{
    Isometry3, Matrix3, Point3, Rotation3, Scalar, Triangle, UnitQuaternion, Vector3,
};

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
    /// `Ok` when queries placed by this pose answer without overflow: its
    /// translation within [`Scalar::MAX_COORDINATE`] (the rotation moves no
    /// point further from the origin). Tree queries assume it for meshes
    /// within that range ([`clash_math::check_point`]); a caller with
    /// untrusted poses checks first.
    ///
    /// ```
    /// use clash_bv::RelativePose;
    /// use clash_math::Isometry3;
    /// assert!(RelativePose::from(Isometry3::translation(1e300_f64, 0.0, 0.0)).check_range().is_err());
    /// assert!(RelativePose::from(Isometry3::translation(1e30_f64, 0.0, 0.0)).check_range().is_ok());
    /// ```
    pub fn check_range(&self) -> Result<(), clash_math::RangeError> {
        clash_math::check_vector(&self.translation)
    }

    /// The pose `x ↦ rotation · x + translation` with the matrix used as
    /// given: points and triangles are placed with it (not with a
    /// quaternion, which cannot hold most matrices exactly: a quarter turn's
    /// quaternion rounds, and its matrix then carries 2e-16 where the given
    /// one has 0, which opens gaps at exactly touching contacts). `rotation`
    /// must be orthonormal to within a few ulps; `iso` holds the nearest
    /// unit quaternion for the queries that need an isometry.
    pub fn from_matrix(rotation: Matrix3<T>, translation: Vector3<T>) -> Self {
        let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(rotation));
        Self {
            iso: Isometry3::from_parts(translation.into(), q),
            rotation,
            translation,
        }
    }

    /// `rotation · p + translation`.
    #[inline]
    pub fn transform_point(&self, p: &Point3<T>) -> Point3<T> {
        (self.rotation * p.coords + self.translation).into()
    }

    /// The triangle with each corner placed by [`Self::transform_point`]:
    /// how trees place the other tree's triangles, so that their answers
    /// equal brute force over triangles placed the same way.
    #[inline]
    pub fn transform_triangle(&self, t: &Triangle<T>) -> Triangle<T> {
        Triangle::new(
            self.transform_point(&t.a),
            self.transform_point(&t.b),
            self.transform_point(&t.c),
        )
    }

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

impl<T: Scalar> From<&Isometry3<T>> for RelativePose<T> {
    fn from(iso: &Isometry3<T>) -> Self {
        Self::new(iso)
    }
}

impl<T: Scalar> From<Isometry3<T>> for RelativePose<T> {
    fn from(iso: Isometry3<T>) -> Self {
        Self::new(&iso)
    }
}

impl<T: Scalar> From<&RelativePose<T>> for RelativePose<T> {
    fn from(pose: &RelativePose<T>) -> Self {
        *pose
    }
}
