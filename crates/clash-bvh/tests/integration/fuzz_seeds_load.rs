//! Runs the seed inputs of the `bvh_load` fuzz target (`fuzz/seeds/bvh_load/`)
//! through the same check as the fuzzer, as an ordinary test.

#[path = "fuzz_check/bvh_load.rs"]
mod bvh_load;

use crate::common;

use clash_bv::{Aabb, Obb};
use clash_bvh::{BuildOptions, Bvh, FitQuality, LoadError, TriMesh};
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
/// test says so (regenerate with `cargo test -p clash-bvh --test integration fuzz_seeds_load:: -- --ignored`).
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

/// The tetrahedron (with a degenerate triangle) of the valid OBB seed,
/// built with the basic fit the seeds record.
fn tet_tree() -> Bvh<f64, Obb<f64>> {
    let mesh = TriMesh::new(
        vec![
            clash_math::Point3::new(0.0, 0.0, 0.0),
            clash_math::Point3::new(1.0, 0.0, 0.0),
            clash_math::Point3::new(0.0, 1.0, 0.0),
            clash_math::Point3::new(0.0, 0.0, 1.0),
        ],
        vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3], [0, 0, 1]],
    )
    .unwrap();
    Bvh::build(mesh, &BuildOptions::default().with_fit(FitQuality::Basic)).unwrap()
}

/// The random soup of the valid AABB seed.
fn soup_tree() -> Bvh<f32, Aabb<f32>> {
    let m32 = common::random_soup::<f32>(&mut common::seeded(9), 12, 1.0, 0.3);
    Bvh::build(m32, &BuildOptions::sah().with_max_leaf_size(3)).unwrap()
}

/// Files of format version 1 (the arrays encoded by bincode field by
/// field), written before version 2: they still load, as the very trees
/// this build makes of the same meshes.
#[test]
fn version_1_files_still_load() {
    let tet = std::fs::read(seed_dir().join("v1_tet_f64_obb")).unwrap();
    let soup = std::fs::read(seed_dir().join("v1_soup_f32_aabb")).unwrap();
    for bytes in [&tet, &soup] {
        assert_eq!(clash_bvh::io::TreeHeader::read(bytes).unwrap().version, 1);
    }
    assert_eq!(Bvh::<f64, Obb<f64>>::from_bytes(&tet).unwrap(), tet_tree());
    assert_eq!(
        Bvh::<f32, Aabb<f32>>::from_bytes(&soup).unwrap(),
        soup_tree()
    );
    // And a version 1 file saved again is a version 2 file of the same tree.
    let again = Bvh::<f64, Obb<f64>>::from_bytes(&tet).unwrap().to_bytes();
    assert_eq!(clash_bvh::io::TreeHeader::read(&again).unwrap().version, 2);
    assert_eq!(again, tet_tree().to_bytes());
}

/// A header whose version was changed names the format the payload fails
/// to decode in, in words (bincode's own errors display as debug strings).
#[test]
fn a_payload_of_another_version_than_its_header_is_named() {
    let v1 = std::fs::read(seed_dir().join("v1_tet_f64_obb")).unwrap();
    let v2 = tet_tree().to_bytes();
    for (bytes, claimed) in [(v2, 1u32), (v1, 2)] {
        let mut edited = bytes.clone();
        edited[8..12].copy_from_slice(&claimed.to_le_bytes());
        let e = Bvh::<f64, Obb<f64>>::from_bytes(&edited).unwrap_err();
        let text = e.to_string();
        let LoadError::Decode(m) = &e else {
            panic!("{text}");
        };
        assert!(
            m.starts_with(&format!(
                "the payload does not decode as the version {claimed} format its header names: "
            )),
            "{text}"
        );
        for debug in ["OtherString", "UnexpectedEnd", "{", "\\\""] {
            assert!(!text.contains(debug), "{text}");
        }
    }
}

fn seeds() -> Vec<(String, Vec<u8>)> {
    let obb = tet_tree().to_bytes();
    let aabb = soup_tree().to_bytes();
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
