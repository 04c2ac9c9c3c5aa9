//! Poses given as matrices: the row-major 3x4 matrix `[R | t]` that the
//! command line reads from poses files and the Python package takes from
//! arrays, checked and turned into a [`RelativePose`].
//!
//! The matrix is used exactly as given (trees place triangles with it, as
//! FCL does), so poses that make meshes touch exactly are answered exactly.
//! Rotations orthonormal only to within [`ROTATION_TOLERANCE`] (written with
//! single-precision digits) are replaced by the nearest rotation, and the
//! caller is told so it can say so; anything further from a rotation, and
//! reflections, are errors.
//!
//! ```
//! use clash::pose::{pose_from_matrix, PoseError};
//!
//! // A quarter turn about z, shifted along x: used bit for bit.
//! let m = [0.0, -1.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
//! let p = pose_from_matrix::<f64>(&m)?;
//! assert!(!p.repaired);
//! assert_eq!(p.pose.rotation[(0, 0)], 0.0);
//! // A scaled matrix is not a pose.
//! let scaled = [2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0];
//! assert!(matches!(pose_from_matrix::<f64>(&scaled), Err(PoseError::NotOrthonormal { .. })));
//! # Ok::<(), PoseError>(())
//! ```

use clash_bv::RelativePose;
use clash_math::{Matrix3, Scalar, Vector3};
use thiserror::Error;

/// Largest deviation from orthonormality (largest entry of `RᵀR − I`) of a
/// rotation used exactly as written: a matrix printed with 17 significant
/// digits from an orthonormal one is within a few ulps, and the volume tests'
/// rounding slack (64 ulps) covers that.
pub const EXACT_ROTATION_TOLERANCE: f64 = 1e-14;

/// Largest deviation accepted at all: rotations written with fewer digits
/// (single precision, `%.6f`) are re-orthonormalised ([`MatrixPose::repaired`]).
pub const ROTATION_TOLERANCE: f64 = 1e-5;

/// Why a matrix is not a pose. Displays as the part of a one-line message
/// after the location (`poses.txt:3: ` on the command line).
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum PoseError {
    /// An entry is NaN or infinite.
    #[error("non-finite number {0:?}")]
    NonFinite(f64),
    /// `R` is further than [`ROTATION_TOLERANCE`] from a rotation.
    #[error("the rotation is not orthonormal (largest entry of R^T R - I is {deviation:.3e})")]
    NotOrthonormal {
        /// Largest entry of `|RᵀR − I|`.
        deviation: f64,
    },
    /// `R` is orthonormal but turns space inside out.
    #[error("the rotation is a reflection (determinant < 0)")]
    Reflection,
    /// A translation overflows the scalar type (`f32` poses beyond about `3.4e38`).
    #[error("{value:?} is out of range for {precision} trees")]
    OutOfRange {
        /// The entry.
        value: f64,
        /// The scalar type (`Scalar::NAME`).
        precision: &'static str,
    },
    /// A translation is beyond [`clash_math::Scalar::MAX_COORDINATE`]: the
    /// queries could overflow.
    #[error("translation: {0}")]
    Range(#[from] clash_math::RangeError),
}

/// A pose read from a matrix.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatrixPose<T: Scalar> {
    /// The pose: the matrix as given, or its nearest rotation when repaired.
    pub pose: RelativePose<T>,
    /// `true` when `R` was orthonormal only to within [`ROTATION_TOLERANCE`]
    /// and was replaced by the nearest rotation.
    pub repaired: bool,
}

/// The pose `x ↦ R x + t` of the row-major 3x4 matrix
/// `m = [r00 r01 r02 tx r10 r11 r12 ty r20 r21 r22 tz]`, checked in `f64`
/// and then rounded to `T`.
///
/// # Errors
/// [`PoseError`] when an entry is not finite, `R` is not within
/// [`ROTATION_TOLERANCE`] of orthonormal, `R` is a reflection, or the
/// translation overflows `T` or lies beyond
/// [`clash_math::Scalar::MAX_COORDINATE`].
pub fn pose_from_matrix<T: Scalar>(m: &[f64; 12]) -> Result<MatrixPose<T>, PoseError> {
    if let Some(&v) = m.iter().find(|v| !v.is_finite()) {
        return Err(PoseError::NonFinite(v));
    }
    let mut r = Matrix3::new(m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]);
    let deviation = (r.transpose() * r - Matrix3::identity()).abs().max();
    if deviation > ROTATION_TOLERANCE {
        return Err(PoseError::NotOrthonormal { deviation });
    }
    if r.determinant() < 0.0 {
        return Err(PoseError::Reflection);
    }
    let repaired = deviation > EXACT_ROTATION_TOLERANCE;
    if repaired {
        // The nearest rotation (polar decomposition by Newton's iteration).
        for _ in 0..8 {
            let inverse_transpose = r.try_inverse().map(|m| m.transpose()).unwrap_or(r);
            r = (r + inverse_transpose) * 0.5;
        }
    }
    let t = Vector3::new(T::lit(m[3]), T::lit(m[7]), T::lit(m[11]));
    if let Some(k) = (0..3).find(|&k| !t[k].finite()) {
        return Err(PoseError::OutOfRange {
            value: m[4 * k + 3],
            precision: T::NAME,
        });
    }
    let pose = RelativePose::from_matrix(r.map(T::lit), t);
    pose.check_range()?;
    Ok(MatrixPose { pose, repaired })
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDENTITY: [f64; 12] = [1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0.];

    #[test]
    fn exact_rotations_are_kept_bit_for_bit() {
        let c = 0.6_f64;
        let s = 0.8_f64;
        let m = [c, -s, 0., 1.5, s, c, 0., -2.0, 0., 0., 1., 1e-300];
        let p = pose_from_matrix::<f64>(&m).unwrap();
        assert!(!p.repaired);
        for (i, j, k) in [(0, 0, 0), (0, 1, 1), (1, 0, 4), (1, 1, 5), (2, 2, 10)] {
            assert_eq!(p.pose.rotation[(i, j)], m[k]);
        }
        assert_eq!(p.pose.translation, Vector3::new(1.5, -2.0, 1e-300));
    }

    #[test]
    fn single_precision_rotations_are_repaired_to_orthonormal() {
        // A rotation about z by 0.3 rad, written with six decimals.
        let (s, c) = 0.3_f64.sin_cos();
        let round = |v: f64| (v * 1e6).round() / 1e6;
        let m = [
            round(c),
            round(-s),
            0.,
            0.,
            round(s),
            round(c),
            0.,
            0.,
            0.,
            0.,
            1.,
            0.,
        ];
        let p = pose_from_matrix::<f64>(&m).unwrap();
        assert!(p.repaired);
        let r = p.pose.rotation;
        let deviation = (r.transpose() * r - Matrix3::identity()).abs().max();
        assert!(deviation < 1e-15, "{deviation}");
        assert!((r[(0, 0)] - c).abs() < 1e-6 && (r[(1, 0)] - s).abs() < 1e-6);
    }

    #[test]
    fn bad_matrices_are_errors_with_the_command_line_messages() {
        let mut nan = IDENTITY;
        nan[7] = f64::NAN;
        let e = pose_from_matrix::<f64>(&nan).unwrap_err();
        assert_eq!(e.to_string(), "non-finite number NaN");
        let mut inf = IDENTITY;
        inf[0] = f64::INFINITY;
        assert_eq!(
            pose_from_matrix::<f32>(&inf).unwrap_err().to_string(),
            "non-finite number inf"
        );
        let mut scaled = IDENTITY;
        scaled[0] = 1.001;
        assert_eq!(
            pose_from_matrix::<f64>(&scaled).unwrap_err().to_string(),
            "the rotation is not orthonormal (largest entry of R^T R - I is 2.001e-3)"
        );
        let mut mirror = IDENTITY;
        mirror[10] = -1.0;
        assert_eq!(
            pose_from_matrix::<f64>(&mirror).unwrap_err(),
            PoseError::Reflection
        );
        assert_eq!(
            PoseError::Reflection.to_string(),
            "the rotation is a reflection (determinant < 0)"
        );
    }

    #[test]
    fn translations_beyond_the_precision_are_errors() {
        let mut far = IDENTITY;
        far[7] = 1e300;
        assert_eq!(
            pose_from_matrix::<f32>(&far).unwrap_err().to_string(),
            "1e300 is out of range for f32 trees"
        );
        // Representable in f64, but beyond the range queries answer in.
        assert!(matches!(
            pose_from_matrix::<f64>(&far),
            Err(PoseError::Range(_))
        ));
        // Within f64's query range, beyond single precision's (2^26).
        far[7] = 1e30;
        assert!(pose_from_matrix::<f64>(&far).is_ok());
        assert!(matches!(
            pose_from_matrix::<f32>(&far),
            Err(PoseError::Range(_))
        ));
    }

    #[test]
    fn single_precision_trees_round_the_checked_matrix() {
        let m = [1., 0., 0., 0.1, 0., 1., 0., 0., 0., 0., 1., 0.];
        let p = pose_from_matrix::<f32>(&m).unwrap();
        assert_eq!(p.pose.translation.x, 0.1_f32);
    }
}
