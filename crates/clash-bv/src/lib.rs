#![doc = include_str!("../README.md")]
// `unsafe` only in `obb::overlap`: its four-lane SIMD types (made by
// `clash_math::simd_lanes!`) and the call into the SAT compiled for AVX,
// behind run-time detection.
#![deny(unsafe_code)]

mod aabb;
mod bounding_volume;
mod capsule;
mod error;
mod fit;
mod fit_volume;
mod flat_volume;
mod kdop;
mod obb;
mod relative_pose;
mod rss;
mod segment_segment;
mod sphere;

pub use aabb::Aabb;
pub use bounding_volume::{BoundingVolume, axes_are_orthonormal};
pub use capsule::Capsule;
pub use error::FitError;
pub use fit::axes::lone_triangle_axes;
// Internal to the clash crates: clash-bvh's builders fit nodes through these.
#[doc(hidden)]
pub use fit::axes::{lone_triangle_axes_x2, principal_axes_of_sum, principal_axes_of_sums};
// Internal to the clash crates: clash-bvh's builders fit nodes through it.
#[doc(hidden)]
pub use fit::indexed_points::IndexedPoints;
// Internal to the clash crates: clash-bvh's builders fit nodes through it.
#[doc(hidden)]
pub use fit::moment_sum::principal_axes_of_moment_union;
// Internal to the clash crates: clash-bvh's builders fit nodes through it.
#[doc(hidden)]
pub use fit::scratch::FitScratch;
pub use fit_volume::FitVolume;
pub use flat_volume::FlatVolume;
pub use kdop::{Kdop, Kdop14, Kdop18, Kdop26};
pub use obb::{Obb, TIGHT_FIT_SAMPLE};
pub use relative_pose::RelativePose;
pub use rss::Rss;
pub use sphere::Sphere;
