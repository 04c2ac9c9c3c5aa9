//! Oracles that share no code with GJK or EPA: brute force over the
//! triangles of two polytopes (clash-narrow's closest points and exact
//! triangle/triangle tests, exact containment by `orient3d`), the
//! penetration depth as the least overlap over every separating-axis
//! candidate, and closed forms for points against round shapes.
//!
//! Shared with the fuzz target (`fuzz/fuzz_targets/convex_pair.rs`) by
//! `#[path]`.
#![allow(dead_code)]

pub mod polytope;
pub mod round;
