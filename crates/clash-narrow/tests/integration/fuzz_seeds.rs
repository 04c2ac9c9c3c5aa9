//! Runs the fuzz seed inputs in `fuzz/seeds/<target>/` through the same
//! checks as the cargo-fuzz targets (`fuzz/fuzz_targets/*.rs`), so that every
//! seed (and every crash input added there as a regression) is an ordinary test
//! of the main workspace.

use crate::oracle;

use std::path::PathBuf;

fn seeds(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/seeds")
        .join(target);
    let mut out: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            let bytes = std::fs::read(&p).expect("seed file");
            (p, bytes)
        })
        .collect();
    out.sort();
    assert!(
        out.len() >= 5,
        "{target}: expected seed files in {}",
        dir.display()
    );
    out
}

fn run(target: &str, check: fn(&[u8])) {
    for (path, bytes) in seeds(target) {
        let r = std::panic::catch_unwind(|| check(&bytes));
        assert!(r.is_ok(), "{target}: seed {} failed", path.display());
    }
}

#[test]
fn fuzz_seeds_triangle_triangle() {
    run(
        "triangle_triangle",
        oracle::harness::check_triangle_triangle,
    );
}

#[test]
fn fuzz_seeds_triangle_aabb() {
    run("triangle_aabb", oracle::harness::check_triangle_aabb);
}

#[test]
fn fuzz_seeds_obb_obb() {
    run("obb_obb", oracle::harness::check_obb_obb);
}
