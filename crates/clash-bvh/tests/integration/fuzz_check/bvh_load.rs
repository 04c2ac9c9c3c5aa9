//! The check behind the `bvh_load` fuzz target, shared with the test that
//! runs its seed inputs (`tests/integration/fuzz_seeds_load.rs`) through `#[path]`.
//!
//! Arbitrary bytes go to the tree loader twice: as they are, and with the
//! header's length and checksum fixed up so that the fuzzer reaches the
//! decoder and the validator behind the checksum. Whatever loads must be a
//! valid tree whose queries run without panicking and agree with brute force.

use clash_bv::{Aabb, Obb};
use clash_bvh::Bvh;
use clash_math::Isometry3;

const HEADER_LEN: usize = 48;

/// Runs the check on one input; panics (the fuzzer's failure signal) only on
/// a bug: a panic inside the loader, or a loaded tree that is invalid or wrong.
pub fn check(data: &[u8]) {
    check_as_is(data);
    if data.len() >= HEADER_LEN {
        let mut fixed = data.to_vec();
        let len = (fixed.len() - HEADER_LEN) as u64;
        fixed[36..44].copy_from_slice(&len.to_le_bytes());
        let crc = crc32fast::hash(&fixed[HEADER_LEN..]);
        fixed[44..48].copy_from_slice(&crc.to_le_bytes());
        check_as_is(&fixed);
        // The same payload under each supported header, in every format
        // version this build reads.
        for version in clash_bvh::io::OLDEST_VERSION..=clash_bvh::io::FORMAT_VERSION {
            for (scalar, bv) in [
                (&b"f64\0\0\0\0\0"[..], &b"obb\0\0\0\0\0\0\0\0\0\0\0\0\0"[..]),
                (b"f32\0\0\0\0\0", b"aabb\0\0\0\0\0\0\0\0\0\0\0\0"),
            ] {
                fixed[..8].copy_from_slice(b"CLASHBVH");
                fixed[8..12].copy_from_slice(&version.to_le_bytes());
                fixed[12..20].copy_from_slice(scalar);
                fixed[20..36].copy_from_slice(bv);
                check_as_is(&fixed);
            }
        }
    }
}

fn check_as_is(data: &[u8]) {
    if let Ok(tree) = Bvh::<f64, Obb<f64>>::from_bytes(data) {
        exercise(&tree);
    }
    if let Ok(tree) = Bvh::<f32, Aabb<f32>>::from_bytes(data) {
        exercise(&tree);
    }
}

fn exercise<T: clash_math::Scalar, B: clash_bvh::TreeVolume<T>>(tree: &Bvh<T, B>) {
    tree.validate().expect("a loaded tree is valid");
    let pose = Isometry3::identity();
    let pairs = tree.contacts(tree, pose);
    // Every triangle touches itself.
    assert!(pairs.len() >= tree.mesh().num_triangles());
    let mut brute = Vec::new();
    let tris: Vec<_> = tree.mesh().triangles().collect();
    for (i, a) in tris.iter().enumerate() {
        for (j, b) in tris.iter().enumerate() {
            if clash_narrow::overlap::triangle_triangle(a, b) {
                brute.push([i as u32, j as u32]);
            }
        }
    }
    let mut got = pairs;
    got.sort_unstable();
    assert_eq!(got, brute, "loaded tree disagrees with brute force");
    let _ = tree.self_contacts();
    let _ = tree.to_bytes();
}
