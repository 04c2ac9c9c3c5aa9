//! Runs the seed inputs of the `mesh_file` fuzz target
//! (`fuzz/seeds/mesh_file/`) through the same check, so that `cargo test`
//! replays them (including any input that once failed).

#[path = "fuzz_check/mesh_file.rs"]
mod mesh_file;

use std::path::PathBuf;

#[test]
fn fuzz_seeds_pass_the_check() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/mesh_file");
    let (mut n, mut loaded) = (0, 0);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        loaded += usize::from(mesh_file::check(&std::fs::read(&path).unwrap()));
        n += 1;
    }
    // The five hand-written seeds (one per format and encoding) are valid files.
    assert!(
        n >= 5 && loaded >= 5,
        "expected the committed seeds: {n} found, {loaded} loaded"
    );
}
