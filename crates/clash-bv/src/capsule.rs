use clash_math::{Scalar, Segment};
use serde::{Deserialize, Serialize};

/// Capsule (sphere-swept segment), RTCD §4.5.1: points within `radius` of `segment`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Capsule<T: Scalar> {
    /// Core segment.
    pub segment: Segment<T>,
    /// Radius (non-negative).
    pub radius: T,
}
