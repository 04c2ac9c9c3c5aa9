use clash_math::{Matrix3, Point3, Scalar};
use serde::{Deserialize, Serialize};

/// Rectangle-swept sphere (lozenge), RTCD §4.5.2: points within `radius` of the
/// rectangle `center + axes.col(0) * u + axes.col(1) * v`, `|u| <= half_lengths[0]`,
/// `|v| <= half_lengths[1]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Rss<T: Scalar> {
    /// Centre of the rectangle.
    pub center: Point3<T>,
    /// Orthonormal right-handed frame; the rectangle spans columns 0 and 1, column 2 is its normal.
    pub axes: Matrix3<T>,
    /// Rectangle half-lengths along columns 0 and 1.
    pub half_lengths: [T; 2],
    /// Sweep radius (non-negative).
    pub radius: T,
}
