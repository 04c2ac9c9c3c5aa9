//! Issue 52, item 2: the invariants of `fuzz_check/invariants.rs` (shared
//! with the `invariants` fuzz target) on scenes from random bytes and on
//! the fuzz seeds (`fuzz/seeds/invariants/`). The case count is
//! `CLASH_INVARIANT_CASES` (default 500; `docs/long_checks.md` records the
//! large run).

#[path = "fuzz_check/invariants.rs"]
mod invariants;

use crate::common::*;
use rand::RngExt;
use std::path::PathBuf;

fn cases() -> u64 {
    std::env::var("CLASH_INVARIANT_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500)
}

/// Runs the check, naming the input when it fails.
fn check(name: &str, bytes: &[u8]) -> bool {
    match std::panic::catch_unwind(|| invariants::check(bytes)) {
        Ok(answered) => answered,
        Err(e) => {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let s = invariants::scene(bytes).expect("the scene that failed");
            panic!(
                "{name} (size {:e}, translation {:?}, bytes {bytes:?}): {msg}",
                s.size, s.pose.translation.vector
            );
        }
    }
}

#[test]
fn every_query_obeys_its_invariants_at_every_scale() {
    let (mut answered, mut refused) = (0, 0);
    for seed in 0..cases() {
        let mut rng = seeded(seed);
        let bytes: Vec<u8> = (0..160).map(|_| rng.random()).collect();
        if check(&format!("seed {seed}"), &bytes) {
            answered += 1;
        } else {
            refused += 1;
        }
    }
    assert!(answered > refused, "{answered} answered, {refused} refused");
}

#[test]
fn fuzz_seeds_obey_the_invariants() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/invariants");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        check(&path.display().to_string(), &std::fs::read(&path).unwrap());
        n += 1;
    }
    assert!(n >= 4, "expected the committed seeds, found {n}");
}
