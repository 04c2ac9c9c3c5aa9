//! # clash-narrow
//!
//! Primitive collision tests, generic over `f32`/`f64`: closest points
//! ([`closest`]), boolean overlap tests ([`overlap`], exact for triangles),
//! ray and segment casts ([`cast`]) and moving (constant-velocity) tests
//! ([`moving`]).
#![forbid(unsafe_code)]

pub mod cast;
pub mod closest;
pub mod moving;
pub mod overlap;
