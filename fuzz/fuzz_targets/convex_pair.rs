//! Fuzz target: clash-convex's `intersects`, `distance` and `contact` on two
//! hulls (with margins, both GJK variants) against the brute-force polytope
//! oracles, and balls against boxes, cylinders and cones through the closed
//! forms and GJK/EPA against exact signed distances: no NaN, no hang, within
//! tolerance. The input format and checks live in
//! `crates/clash-convex/tests/convex/` (`fuzz_input.rs`, `check.rs`,
//! `oracle/`). Seeds: `fuzz/seeds/convex_pair/`; run with
//! `cargo +nightly fuzz run convex_pair seeds/convex_pair` from `fuzz/`.
#![no_main]

#[path = "../../crates/clash-convex/tests/convex/oracle/mod.rs"]
mod oracle;

#[path = "../../crates/clash-convex/tests/convex/check.rs"]
mod check;

#[path = "../../crates/clash-convex/tests/convex/fuzz_input.rs"]
mod fuzz_input;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = fuzz_input::run(data) {
        panic!("{e}");
    }
});
