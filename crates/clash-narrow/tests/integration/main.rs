//! The integration tests of clash-narrow, one module per concern, compiled
//! as one test binary: the library code the modules instantiate is
//! compiled and linked once for all of them instead of once per file.
//! Run one module with `cargo test -p clash-narrow --test integration <module>::`.

mod oracle;

mod cast_oracle;
mod closest_oracle;
mod closest_thin_and_far;
mod fuzz_seeds;
mod moving_oracle;
mod oracle_neighbours;
mod oracle_others;
mod oracle_range;
mod oracle_triangle;
mod overlap_api;
mod triangle_lower_bound;
