//! Input validation shared by every fit: empty and non-finite input become
//! typed errors before any arithmetic runs.

use crate::FitError;
use clash_math::{Point3, Scalar, Triangle, point_is_finite};

/// `Err(Empty)` for no points, `Err(NonFinite{index})` for the first NaN/inf point.
pub(crate) fn check_points<T: Scalar>(points: &[Point3<T>]) -> Result<(), FitError> {
    if points.is_empty() {
        return Err(FitError::Empty);
    }
    match points.iter().position(|p| !point_is_finite(p)) {
        Some(index) => Err(FitError::NonFinite { index }),
        None => Ok(()),
    }
}

/// `Err(Empty)` for no triangles, `Err(NonFinite{index})` for the first NaN/inf triangle.
pub(crate) fn check_triangles<T: Scalar>(triangles: &[Triangle<T>]) -> Result<(), FitError> {
    if triangles.is_empty() {
        return Err(FitError::Empty);
    }
    match triangles.iter().position(|t| !t.is_finite()) {
        Some(index) => Err(FitError::NonFinite { index }),
        None => Ok(()),
    }
}

/// `Err(MomentsMismatch)` unless there is one moment per triangle.
pub(crate) fn check_moments<T: Scalar>(
    triangles: &[Triangle<T>],
    moments: &[clash_math::TriangleMoments<T>],
) -> Result<(), FitError> {
    if triangles.len() == moments.len() {
        Ok(())
    } else {
        Err(FitError::MomentsMismatch {
            triangles: triangles.len(),
            moments: moments.len(),
        })
    }
}

/// Validates triangles and returns their corners (three per triangle, in order).
pub(crate) fn triangle_corners<T: Scalar>(
    triangles: &[Triangle<T>],
) -> Result<Vec<Point3<T>>, FitError> {
    if triangles.is_empty() {
        return Err(FitError::Empty);
    }
    if let Some(index) = triangles.iter().position(|t| !t.is_finite()) {
        return Err(FitError::NonFinite { index });
    }
    Ok(triangles.iter().flat_map(|t| t.vertices()).collect())
}

/// A small deterministic generator (SplitMix64) for the fits that shuffle
/// their input: results never depend on a global RNG.
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform-enough index in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// Fisher–Yates shuffle.
    pub(crate) fn shuffle<X>(&mut self, v: &mut [X]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}
