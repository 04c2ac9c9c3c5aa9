//! Saving and loading: round trips answer identically; corrupt, truncated and
//! foreign bytes give typed errors, never panics.

use crate::common;

use clash_bv::{Aabb, Capsule, Kdop18, Obb, Rss, Sphere};
use clash_bvh::{BuildOptions, Bvh, LoadError, TreeVolume, TriMesh, ValidationError};
use clash_math::Isometry3;
use common::*;
use rand::RngExt;

/// A fresh path in the temporary directory.
fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("clash-bvh-save-load-{}-{name}", std::process::id()))
}

#[test]
fn round_trip_answers_identically() {
    let mesh: TriMesh<f64> = read_stl("bunny_lo.stl");
    let tree = Bvh::<f64, Obb<f64>>::build(mesh, &BuildOptions::default()).unwrap();
    let dir = std::env::temp_dir().join(format!("clash-bvh-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bunny.clash");
    tree.save(&path).unwrap();
    let loaded = Bvh::<f64, Obb<f64>>::load(&path).unwrap();
    assert_eq!(loaded, tree);
    let mut rng = seeded(51);
    for _ in 0..20 {
        let pose: Isometry3<f64> = random_pose(&mut rng, 1.0, 3.0);
        assert_eq!(loaded.contacts(&tree, pose), tree.contacts(&tree, pose));
    }
    std::fs::remove_dir_all(&dir).unwrap();
    // f32 / other volume types too
    let m32: TriMesh<f32> = read_stl("bunny_lo.stl");
    let t32 = Bvh::<f32, Rss<f32>>::build(m32, &BuildOptions::sah()).unwrap();
    assert_eq!(
        Bvh::<f32, Rss<f32>>::from_bytes(&t32.to_bytes()).unwrap(),
        t32
    );
}

/// Every volume type, with leaves of one and of several
/// triangles, on a shipped mesh and on a 20,000-triangle sphere (whose
/// records are decoded in several tasks): the loaded tree equals the saved
/// one, and loading on one thread or on four gives the same tree.
#[test]
fn every_volume_type_round_trips() {
    fn round_trip<T: clash_math::Scalar, B: TreeVolume<T>>() {
        let meshes: [TriMesh<T>; 2] = [read_stl("bunny_lo.stl"), uv_sphere(1.0, 100, 100)];
        for (mesh, options) in meshes
            .iter()
            .flat_map(|m| [(m, BuildOptions::default()), (m, BuildOptions::sah())])
        {
            let tree = Bvh::<T, B>::build(mesh.clone(), &options).unwrap();
            let bytes = tree.to_bytes();
            let one = in_pool(1, || Bvh::<T, B>::from_bytes(&bytes)).unwrap();
            let four = in_pool(4, || Bvh::<T, B>::from_bytes(&bytes)).unwrap();
            assert!(one == tree && four == tree, "{} {}", T::NAME, B::NAME);
            assert_eq!(one.to_bytes(), bytes);
            // Through a file (read in chunks; the sphere's OBB and RSS
            // trees take more than one), and through a writer and reader.
            let path = temp_path(&format!(
                "{}-{}-{}.clash",
                T::NAME,
                B::NAME,
                mesh.num_triangles()
            ));
            tree.save(&path).unwrap();
            assert_eq!(std::fs::read(&path).unwrap(), bytes);
            let loaded = in_pool(2, || Bvh::<T, B>::load(&path)).unwrap();
            assert!(loaded == tree);
            std::fs::remove_file(&path).unwrap();
            let mut written = Vec::new();
            tree.write_to(&mut written).unwrap();
            assert_eq!(written, bytes);
            assert!(Bvh::<T, B>::read_from(&written[..]).unwrap() == tree);
        }
    }
    // Each volume type once, both precisions among them (every type's
    // flat form is also checked in both precisions by clash-bv's
    // `tests/flat_form.rs`); each instance compiles a builder and a loader.
    round_trip::<f64, Obb<f64>>();
    round_trip::<f32, Rss<f32>>();
    round_trip::<f32, Aabb<f32>>();
    round_trip::<f64, Sphere<f64>>();
    round_trip::<f32, Capsule<f32>>();
    round_trip::<f64, Kdop18<f64>>();
}

#[test]
fn foreign_and_mismatched_files_are_typed_errors() {
    let mesh: TriMesh<f32> = read_stl("bunny_lo.stl");
    let tree = Bvh::<f32, Aabb<f32>>::build(mesh, &BuildOptions::default()).unwrap();
    let bytes = tree.to_bytes();
    assert!(matches!(
        Bvh::<f64, Aabb<f64>>::from_bytes(&bytes),
        Err(LoadError::ScalarMismatch { .. })
    ));
    assert!(matches!(
        Bvh::<f32, Obb<f32>>::from_bytes(&bytes),
        Err(LoadError::BvMismatch { .. })
    ));
    assert!(matches!(
        Bvh::<f32, Aabb<f32>>::from_bytes(b"solid cube\nfacet normal 0 0 1\n"),
        Err(LoadError::BadMagic)
    ));
    assert!(matches!(
        Bvh::<f32, Aabb<f32>>::from_bytes(&[]),
        Err(LoadError::TruncatedHeader {
            expected: 48,
            found: 0
        })
    ));
    for version in [0, clash_bvh::io::FORMAT_VERSION + 1, u32::MAX] {
        let mut other = bytes.clone();
        other[8..12].copy_from_slice(&version.to_le_bytes());
        assert!(matches!(
            Bvh::<f32, Aabb<f32>>::from_bytes(&other),
            Err(LoadError::UnsupportedVersion { found, oldest: 1, newest: 2 }) if found == version
        ));
    }
    assert!(matches!(
        Bvh::<f32, Aabb<f32>>::from_bytes(&bytes[..bytes.len() - 1]),
        Err(LoadError::Truncated { .. })
    ));
    let mut flipped = bytes.clone();
    let last = flipped.len() - 7;
    flipped[last] ^= 0x10;
    assert!(matches!(
        Bvh::<f32, Aabb<f32>>::from_bytes(&flipped),
        Err(LoadError::Checksum)
    ));
    assert!(matches!(
        Bvh::<f32, Aabb<f32>>::load("/nonexistent/clash/tree"),
        Err(LoadError::Io(_))
    ));
}

/// Recomputes the checksum after corrupting the payload, so the decoder and
/// the validator (not the checksum) must catch the damage.
fn with_fixed_crc(mut b: Vec<u8>) -> Vec<u8> {
    let crc = crc32fast::hash(&b[48..]);
    b[44..48].copy_from_slice(&crc.to_le_bytes());
    b
}

/// A payload that decodes, with its checksum intact, into a tree that
/// breaks an invariant loads as `LoadError::Invalid`, whose source is the
/// typed `ValidationError` naming the node and triangle: the structure (a
/// leaf's count past the leaf order) and the volumes (a leaf's box cut so
/// it misses its triangle). The last record of the payload is the last
/// node, a leaf of one triangle in preorder's last leaf position.
#[test]
fn a_broken_invariant_loads_as_a_typed_validation_error() {
    let mesh: TriMesh<f64> = read_stl("bunny_lo.stl");
    let tree = Bvh::<f64, Aabb<f64>>::build(mesh, &BuildOptions::default()).unwrap();
    let bytes = tree.to_bytes();
    let last = tree.nodes().len() - 1;
    let m = tree.leaf_order().len();
    assert_eq!(tree.nodes()[last].triangle_range(), Some(m - 1..m));
    let record = bytes.len() - (6 * 8 + 8);
    let source = |e: &LoadError| {
        std::error::Error::source(e)
            .and_then(|s| s.downcast_ref::<ValidationError>())
            .cloned()
    };

    let mut counted = bytes.clone();
    let n = bytes.len();
    counted[n - 4..].copy_from_slice(&2u32.to_le_bytes());
    let e = Bvh::<f64, Aabb<f64>>::from_bytes(&with_fixed_crc(counted)).unwrap_err();
    assert_eq!(
        source(&e),
        Some(ValidationError::LeafPastEnd { node: last })
    );
    assert!(
        matches!(&e, LoadError::Invalid(ValidationError::LeafPastEnd { node }) if *node == last)
    );
    assert_eq!(
        e.to_string(),
        format!("invalid tree in file: leaf {last} runs past the triangle list")
    );

    // The leaf's box flattened to its lowest x: the triangle, which is not
    // flat in x, has a corner outside.
    let mut cut = bytes.clone();
    let min_x = cut[record..record + 8].to_vec();
    cut[record + 24..record + 32].copy_from_slice(&min_x);
    let triangle = tree.leaf_order()[m - 1];
    let t = tree.mesh().triangle(triangle as usize);
    assert!(t.a.x.max(t.b.x).max(t.c.x) > t.a.x.min(t.b.x).min(t.c.x));
    let e = Bvh::<f64, Aabb<f64>>::from_bytes(&with_fixed_crc(cut)).unwrap_err();
    assert_eq!(
        source(&e),
        Some(ValidationError::CornerOutside {
            node: last,
            volume: "aabb",
            triangle
        })
    );
    assert_eq!(
        e.to_string(),
        format!(
            "invalid tree in file: node {last} (aabb) does not contain a corner of triangle {triangle}"
        )
    );

    // A volume that is not well formed (a NaN coordinate).
    let mut nan = bytes;
    nan[record..record + 8].copy_from_slice(&f64::NAN.to_le_bytes());
    let e = Bvh::<f64, Aabb<f64>>::from_bytes(&with_fixed_crc(nan)).unwrap_err();
    assert_eq!(
        source(&e),
        Some(ValidationError::MalformedVolume { node: last })
    );
    assert_eq!(
        e.to_string(),
        format!("invalid tree in file: node {last} has a malformed bounding volume")
    );
}

#[test]
fn corrupt_payloads_never_panic_and_never_load_a_bad_tree() {
    let mesh: TriMesh<f64> = random_soup(&mut seeded(52), 60, 1.0, 0.2);
    let tree =
        Bvh::<f64, Obb<f64>>::build(mesh, &BuildOptions::default().with_max_leaf_size(2)).unwrap();
    let bytes = tree.to_bytes();
    let mut rng = seeded(53);
    let mut loaded_ok = 0;
    for i in 0..20_000 {
        let mut b = bytes.clone();
        match i % 4 {
            0 => {
                let k = rng.random_range(48..b.len());
                b[k] = rng.random();
            }
            1 => {
                for _ in 0..rng.random_range(1..8) {
                    let k = rng.random_range(48..b.len());
                    b[k] ^= 1 << rng.random_range(0..8);
                }
            }
            2 => {
                let n = rng.random_range(48..b.len());
                b.truncate(n);
                // keep the header's length consistent with the cut
                let len = (b.len() - 48) as u64;
                b[36..44].copy_from_slice(&len.to_le_bytes());
            }
            _ => {
                let k = rng.random_range(48..b.len() - 4);
                b[k..k + 4].copy_from_slice(&u32::MAX.to_le_bytes());
            }
        }
        let b = with_fixed_crc(b);
        if let Ok(t) = Bvh::<f64, Obb<f64>>::from_bytes(&b) {
            // Whatever loads must be a valid tree whose queries are exact.
            t.validate().unwrap();
            loaded_ok += 1;
            let pose = Isometry3::translation(0.1, 0.0, 0.0);
            assert_eq!(
                sorted(t.contacts(&tree, pose)),
                sorted(brute_force_contacts(t.mesh(), tree.mesh(), &pose))
            );
        }
    }
    // Some corruptions (a changed vertex coordinate) legitimately load as another valid tree.
    assert!(loaded_ok < 20_000);
}

/// Files on disk, loaded in chunks: truncated, lengthened, bit-flipped
/// (a checksum error wherever the flip lands: in the options, a length, a
/// coordinate, an index or a node), and corrupted with the checksum fixed
/// up, which must load as a valid tree or fail with a typed error.
#[test]
fn corrupt_files_never_panic_and_report_the_checksum_first() {
    let mesh: TriMesh<f64> = uv_sphere(1.0, 100, 100);
    let tree = Bvh::<f64, Obb<f64>>::build(mesh, &BuildOptions::default()).unwrap();
    let bytes = tree.to_bytes();
    assert!(bytes.len() > 5 << 20, "more than one chunk");
    let path = temp_path("corrupt.clash");
    let load = |b: &[u8]| {
        std::fs::write(&path, b).unwrap();
        Bvh::<f64, Obb<f64>>::load(&path)
    };
    assert!(matches!(
        load(&bytes[..bytes.len() - 1]),
        Err(LoadError::Truncated { .. })
    ));
    // Cut inside the header: the message says so.
    let cut = load(&bytes[..30]).unwrap_err();
    assert!(
        matches!(
            cut,
            LoadError::TruncatedHeader {
                expected: 48,
                found: 30
            }
        ),
        "{cut}"
    );
    assert_eq!(
        cut.to_string(),
        "truncated tree file: it ends inside the 48-byte header, after 30 bytes"
    );
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(load(&longer), Err(LoadError::Decode(_))));
    let mut rng = seeded(54);
    for i in 0..60 {
        let mut b = bytes.clone();
        // The first bytes of the payload are the options and the first
        // length; then the sections.
        let k = if i < 20 {
            48 + i
        } else {
            rng.random_range(48..b.len())
        };
        b[k] ^= 1 << rng.random_range(0..8);
        assert!(matches!(load(&b), Err(LoadError::Checksum)), "flip at {k}");
        assert!(matches!(
            Bvh::<f64, Obb<f64>>::from_bytes(&b),
            Err(LoadError::Checksum)
        ));
        let fixed = with_fixed_crc(b);
        match (load(&fixed), Bvh::<f64, Obb<f64>>::from_bytes(&fixed)) {
            (Ok(a), Ok(b)) => {
                a.validate().unwrap();
                assert!(a == b);
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!(
                "file and bytes disagree at {k}: {:?} / {:?}",
                a.is_ok(),
                b.is_ok()
            ),
        }
    }
    std::fs::remove_file(&path).unwrap();
}
