#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod closed_form;
pub mod epa;
mod error;
pub mod gjk;
pub mod manifold;
pub mod query;
mod scale;
pub mod shape;
mod support;
pub mod toi;

pub use error::ShapeError;
pub use shape::{
    Ball, CapsuleShape, Cone, ConvexHull, Cuboid, Cylinder, SegmentShape, Shape, ShapeRef,
    TriangleShape,
};
pub use support::SupportMap;
