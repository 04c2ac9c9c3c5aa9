use clash_math::{Point3, Scalar};
use serde::{Deserialize, Serialize};

/// Axis-aligned bounding box `[min, max]` (closed), RTCD §4.2.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Aabb<T: Scalar> {
    /// Lower corner.
    pub min: Point3<T>,
    /// Upper corner.
    pub max: Point3<T>,
}
