//! Fuzz target: `check_obb_obb` of the shared harness (library against the exact
//! oracle). Seeds: `fuzz/seeds/obb_obb/`; run with
//! `cargo +nightly fuzz run obb_obb fuzz/seeds/obb_obb` from `fuzz/`.
#![no_main]

#[path = "../../crates/clash-narrow/tests/integration/oracle/mod.rs"]
mod oracle;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    oracle::harness::check_obb_obb(data);
});
