//! The integration tests of clash-broad, one module per concern, compiled
//! as one test binary: the library code the modules instantiate is
//! compiled and linked once for all of them instead of once per file.
//! Run one module with `cargo test -p clash-broad --test integration <module>::`.

mod common;

mod bad_input;
mod brute_force;
mod loose_refit;
mod pair_search;
mod tree_structure;
