//! A scene decoded from bytes (two meshes, a pose, query points, at sizes
//! from subnormal to 2^120 and translations from 1e-300 to 1e300 times the
//! size): every mesh/mesh, point and mesh/convex answer obeys the
//! invariants of `fuzz_check/invariants.rs`, or the pose is refused.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/clash-bvh/tests/integration/fuzz_check/invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    invariants::check(data);
});
