//! Arbitrary bytes to the tree loader: never a panic, and whatever loads is a
//! valid tree whose answers equal brute force.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/clash-bvh/tests/integration/fuzz_check/bvh_load.rs"]
mod bvh_load;

fuzz_target!(|data: &[u8]| {
    // Keep brute force cheap: large inputs add nothing the small ones miss.
    if data.len() <= 4096 {
        bvh_load::check(data);
    }
});
