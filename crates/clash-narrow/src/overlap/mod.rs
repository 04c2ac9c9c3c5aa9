//! Boolean overlap tests between primitives and bounding volumes.
//!
//! Every test treats its shapes as **closed** sets: touching counts as
//! overlap. All are generic over `T: Scalar` (`f32`/`f64`).
//!
//! # Exactness
//!
//! [`triangle_triangle`], [`triangle_triangle_beyond_shared`] (mesh
//! neighbours) and [`triangle_aabb`] are **exact**: every decision
//! is the sign of an orientation predicate (`orient3d`/`orient2d`) or a
//! comparison of input coordinates, so for every finite `f32`/`f64` input the
//! answer is the one exact arithmetic on the input values would give. Each
//! predicate is evaluated in `f64` with Shewchuk's error bound first (the fast
//! path) and falls back to exact arithmetic ([`clash_math::predicates`]) when
//! the result is within the bound, or when the products are so small or so
//! large that the bound itself may not hold. The exact path is Shewchuk's
//! adaptive expansion arithmetic, and a determinant of big integers where
//! the expansions could underflow or overflow (a nonzero coordinate of
//! magnitude below `2^-200` or above `2^200`: subnormal offsets, coordinates
//! near `f64::MAX`), so no finite input is excluded.
//! [`triangle_triangle_with_stats`] and [`triangle_aabb_with_stats`] count
//! how many calls needed the exact path.
//!
//! The other tests are floating-point implementations of the textbook
//! formulations (squared distances compared to squared radii, separating-axis
//! projections); they can err only when the shapes are within rounding of
//! touching.
//!
//! # Non-finite input
//!
//! Every test returns `false` ("no overlap") when any input coordinate, radius,
//! half-extent or plane value is NaN or infinite, and never panics.
//!
//! # Invalid shapes
//!
//! An [`clash_bv::Aabb`] with `min > max` on some axis is empty (never
//! overlaps); a negative sphere/capsule radius or OBB half-extent makes the
//! shape empty too. OBB axes are assumed orthonormal, plane normals unit length.

mod box_plane;
mod capsule_triangle;
mod exact;
mod geom;
mod obb_triangle;
mod sphere_aabb;
mod sphere_capsule;
mod sphere_obb;
mod sphere_plane;
mod sphere_triangle;
mod triangle_aabb;
mod triangle_neighbours;
mod triangle_triangle;

pub use box_plane::{aabb_plane, obb_plane};
pub use capsule_triangle::capsule_triangle;
pub use obb_triangle::obb_triangle;
pub use sphere_aabb::{sphere_aabb, sphere_aabb_early_out};
pub use sphere_capsule::sphere_capsule;
pub use sphere_obb::sphere_obb;
pub use sphere_plane::sphere_plane;
pub use sphere_triangle::sphere_triangle;
pub use triangle_aabb::{triangle_aabb, triangle_aabb_with_stats};
pub use triangle_neighbours::{SharedCorners, triangle_triangle_beyond_shared};
pub use triangle_triangle::{
    TriangleIntersection, triangle_triangle, triangle_triangle_segment,
    triangle_triangle_with_stats,
};

/// Counters filled by the `*_with_stats` variants of the exact tests: how many
/// calls were made, how many of them needed exact arithmetic in at least one
/// predicate, and how many predicates did in total.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OverlapStats {
    /// Calls recorded.
    pub calls: u64,
    /// Calls in which at least one predicate fell back to exact arithmetic.
    pub exact_calls: u64,
    /// Predicates evaluated exactly, summed over all calls.
    pub exact_predicates: u64,
}

impl OverlapStats {
    /// Share of calls that took the exact path, in `[0, 1]` (0 with no calls).
    pub fn exact_share(&self) -> f64 {
        if self.calls == 0 {
            0.0
        } else {
            self.exact_calls as f64 / self.calls as f64
        }
    }

    fn record(&mut self, exact_predicates: u64) {
        self.calls += 1;
        self.exact_calls += u64::from(exact_predicates > 0);
        self.exact_predicates += exact_predicates;
    }
}
