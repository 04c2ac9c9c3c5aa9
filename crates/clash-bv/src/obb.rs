use clash_math::{Matrix3, Point3, Scalar, Vector3};
use serde::{Deserialize, Serialize};

/// Oriented bounding box, RTCD §4.4: the points `center + axes * u` with
/// `|u_i| <= half_extents[i]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Obb<T: Scalar> {
    /// Centre.
    pub center: Point3<T>,
    /// Local axes as the columns of a rotation matrix (orthonormal, right-handed).
    pub axes: Matrix3<T>,
    /// Non-negative half-widths along each local axis.
    pub half_extents: Vector3<T>,
}
