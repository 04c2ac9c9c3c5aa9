use clash_math::{Point3, Scalar};
use serde::{Deserialize, Serialize};

/// Closed ball of `radius` about `center`, RTCD §4.3.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Sphere<T: Scalar> {
    /// Centre.
    pub center: Point3<T>,
    /// Radius (non-negative).
    pub radius: T,
}
