//! Every file of `fuzz/seeds/convex_pair/` through the fuzz target's checks.

#[test]
fn fuzz_seeds_pass() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/seeds/convex_pair");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("fuzz/seeds/convex_pair") {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        crate::fuzz_input::run(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        n += 1;
    }
    assert!(n > 0);
}
