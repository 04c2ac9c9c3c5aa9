//! The integration tests of clash-bv, one module per concern, compiled
//! as one test binary: the library code the modules instantiate is
//! compiled and linked once for all of them instead of once per file.
//! Run one module with `cargo test -p clash-bv --test integration <module>::`.

mod common;

mod bad_input;
mod containment;
mod contains_volume;
mod fit_moments;
mod fit_rounding;
mod flat_form;
mod lone_axes_x2;
mod oracle_kdop;
mod oracle_parry;
mod regression_kdop_cancellation;
mod regression_obb_zero_extent_crossing;
