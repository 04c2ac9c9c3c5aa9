//! clash-convex's integration tests, one binary: every query against
//! oracles that share no code with GJK or EPA.

mod check;
mod closed_forms;
mod common;
mod gjk_epa;
mod manifold;
mod oracle;
mod round_shapes;
mod shapes;
mod toi;
