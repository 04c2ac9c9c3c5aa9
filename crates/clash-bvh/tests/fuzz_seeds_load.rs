//! Runs the seed inputs of the `bvh_load` fuzz target (`fuzz/seeds/bvh_load/`)
//! through the same check as the fuzzer, as an ordinary test.

#[path = "fuzz_check/bvh_load.rs"]
mod bvh_load;

mod common;

use clash_bv::{Aabb, Obb};
use clash_bvh::{BuildOptions, Bvh, TriMesh};
use std::path::PathBuf;

fn seed_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/bvh_load")
}

#[test]
fn fuzz_seeds_pass_the_check() {
    let mut n = 0;
    for entry in std::fs::read_dir(seed_dir()).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        bvh_load::check(&bytes);
        n += 1;
    }
    assert!(n >= 6, "expected the committed seeds, found {n}");
}

/// The valid seeds are trees this build writes; if the format changes, this
/// test says so (regenerate with `cargo test -p clash-bvh --test fuzz_seeds_load -- --ignored`).
#[test]
fn valid_seeds_are_current() {
    for (name, bytes) in seeds() {
        if name.starts_with("valid") {
            assert_eq!(
                std::fs::read(seed_dir().join(&name)).unwrap(),
                bytes,
                "{name} is stale"
            );
        }
    }
}

#[test]
#[ignore = "writes the seed files"]
fn write_seeds() {
    std::fs::create_dir_all(seed_dir()).unwrap();
    for (name, bytes) in seeds() {
        std::fs::write(seed_dir().join(name), bytes).unwrap();
    }
}

fn seeds() -> Vec<(String, Vec<u8>)> {
    let tet = |s: f64| {
        TriMesh::new(
            vec![
                clash_math::Point3::new(0.0, 0.0, 0.0),
                clash_math::Point3::new(s, 0.0, 0.0),
                clash_math::Point3::new(0.0, s, 0.0),
                clash_math::Point3::new(0.0, 0.0, s),
            ],
            vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3], [0, 0, 1]],
        )
        .unwrap()
    };
    let obb = Bvh::<f64, Obb<f64>>::build(tet(1.0), &BuildOptions::default())
        .unwrap()
        .to_bytes();
    let m32 = common::random_soup::<f32>(&mut common::seeded(9), 12, 1.0, 0.3);
    let aabb = Bvh::<f32, Aabb<f32>>::build(m32, &BuildOptions::sah().with_max_leaf_size(3))
        .unwrap()
        .to_bytes();
    let mut truncated = obb.clone();
    truncated.truncate(obb.len() / 2);
    let mut flipped = aabb.clone();
    let k = flipped.len() - 20;
    flipped[k] ^= 0x40;
    vec![
        ("valid_tet_f64_obb".into(), obb),
        ("valid_soup_f32_aabb".into(), aabb),
        ("truncated_f64_obb".into(), truncated),
        ("flipped_f32_aabb".into(), flipped),
        (
            "foreign_stl_text".into(),
            b"solid x\nfacet normal 0 0 1\nouter loop\n".to_vec(),
        ),
        ("empty".into(), Vec::new()),
    ]
}
