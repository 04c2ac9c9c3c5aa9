//! The Gilbert–Johnson–Keerthi distance algorithm (Ericson, RTCD §9.5).
//!
//! GJK computes the point of the Minkowski difference `A - B` closest to
//! the origin by growing and shrinking a simplex of support points
//! (`minkowski`), projecting the origin on it with the signed-volumes
//! sub-algorithm (`signed_volumes`), until the gap between the upper bound
//! `|v|` and the best lower bound of a support plane is within tolerance
//! (`solver`). Everything runs in the first shape's frame: the second
//! shape's support directions are rotated into its own frame instead of
//! transforming its vertices (RTCD §9.5.6).

pub(crate) mod minkowski;
pub(crate) mod signed_volumes;
pub(crate) mod simplex;
pub(crate) mod solver;

use serde::{Deserialize, Serialize};

/// How GJK picks its next support direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum GjkVariant {
    /// The textbook algorithm: the next direction is the current closest
    /// point (RTCD §9.5.1).
    #[default]
    Plain,
    /// Nesterov-accelerated GJK (Montaut, Le Lidec, Petrik, Sivic and
    /// Carpentier, "Collision Detection Accelerated: An Optimization
    /// Perspective", RSS 2022; coal's `gjk_variant`): the direction mixes the
    /// current closest point with the last support point, with momentum
    /// `(k + 1) / (k + 3)`. It falls back to the plain rule once momentum
    /// stops making progress, so it converges wherever the plain one does.
    Nesterov,
}
