//! # clash-bv
//!
//! Bounding volumes: [`Aabb`], [`Sphere`], [`Obb`], [`Capsule`], [`Kdop`]
//! (14-, 18- and 26-DOPs) and [`Rss`], with fitting from points and
//! triangles, merging, overlap tests and rigid transforms, all behind the
//! [`BoundingVolume`] trait that clash-bvh's trees are generic over.
#![deny(missing_docs)]

mod aabb;
mod bounding_volume;
mod capsule;
mod error;
mod kdop;
mod obb;
mod rss;
mod sphere;

pub use aabb::Aabb;
pub use bounding_volume::BoundingVolume;
pub use capsule::Capsule;
pub use error::FitError;
pub use kdop::{Kdop, Kdop14, Kdop18, Kdop26};
pub use obb::Obb;
pub use rss::Rss;
pub use sphere::Sphere;
