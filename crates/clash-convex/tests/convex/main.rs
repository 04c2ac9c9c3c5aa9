//! clash-convex's integration tests, one binary: every query against
//! oracles that share no code with GJK or EPA.

mod check;
mod closed_forms;
mod common;
mod far_scales;
mod fuzz_input;
mod fuzz_seeds;
mod gjk_epa;
mod manifold;
mod million;
mod oracle;
mod requests;
mod round_shapes;
mod shapes;
mod single_precision;
mod toi;
mod triangle_swept;
