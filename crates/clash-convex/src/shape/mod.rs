//! The built-in convex shapes, the [`Shape`] enum over them, and their
//! bounding volumes.
//!
//! Round solids (capsule, cylinder, cone) run along the local z axis, as
//! URDF's do. Every shape takes a margin: the shape grown by a ball of that
//! radius (rounded boxes, swept spheres); the queries handle margins exactly.

mod ball;
pub mod bounding;
mod capsule;
mod cuboid;
mod cylinder;
mod dynamic;
mod hull;
mod polygon;

pub use ball::Ball;
pub use capsule::CapsuleShape;
pub use cuboid::Cuboid;
pub use cylinder::{Cone, Cylinder};
pub use dynamic::{Shape, ShapeRef};
pub use hull::ConvexHull;
pub use polygon::{SegmentShape, TriangleShape};
