//! Fuzz target: `check_triangle_aabb` of the shared harness (library against the exact
//! oracle). Seeds: `fuzz/seeds/triangle_aabb/`; run with
//! `cargo +nightly fuzz run triangle_aabb fuzz/seeds/triangle_aabb` from `fuzz/`.
#![no_main]

#[path = "../../crates/clash-narrow/tests/integration/oracle/mod.rs"]
mod oracle;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    oracle::harness::check_triangle_aabb(data);
});
