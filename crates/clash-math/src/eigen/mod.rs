//! Eigen-decomposition of symmetric 3x3 matrices: by cyclic Jacobi rotations
//! (Ericson, RTCD §4.3.3, `jacobi.rs`), and in closed form for fitting,
//! where speed matters more than the last digits (`closed_form.rs`: one
//! matrix, or two side by side in the lanes of [`crate::lanes`]).

use crate::Scalar;
use nalgebra::{Matrix3, Vector3};

/// Eigenvalues and eigenvectors of a symmetric 3x3 matrix.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SymmetricEigen3<T: Scalar> {
    /// Eigenvalues in decreasing order: `values[0] >= values[1] >= values[2]`.
    pub values: Vector3<T>,
    /// Unit eigenvectors as columns, column `i` for `values[i]`; the columns form
    /// a right-handed orthonormal basis (determinant `+1`).
    pub vectors: Matrix3<T>,
    /// Number of Jacobi sweeps performed.
    pub sweeps: u32,
}

/// Largest number of cyclic sweeps. Jacobi converges quadratically; for 3x3
/// matrices 8–10 sweeps reach machine precision, the bound only guards
/// against non-finite input.
pub const MAX_SWEEPS: u32 = 50;

mod closed_form;
mod jacobi;

pub use closed_form::{symmetric_eigen_closed_form, symmetric_eigen_closed_form_x2};
pub use jacobi::jacobi_eigen;

#[cfg(test)]
mod tests;
