//! What every test of the command uses: the binary, the shipped meshes,
//! scratch folders, poses files and the JSON answers.

use assert_cmd::Command;
use clash::bv::RelativePose;
use clash::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn shipped(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/meshes")
        .join(name)
}

pub fn clash() -> Command {
    Command::cargo_bin("clash").unwrap()
}

/// A fresh directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clash_cli_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn json_lines(stdout: &[u8]) -> Vec<Value> {
    std::str::from_utf8(stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub fn random_poses(n: usize, reach: f64, seed: u64) -> Vec<Isometry3<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let axis = Vector3::new(
                rng.random_range(-3.2..3.2),
                rng.random_range(-3.2..3.2),
                rng.random_range(-3.2..3.2),
            );
            let t = Vector3::new(
                rng.random_range(-reach..reach),
                rng.random_range(-reach..reach),
                rng.random_range(-reach..reach),
            );
            Isometry3::from_parts(t.into(), UnitQuaternion::from_scaled_axis(axis))
        })
        .collect()
}

/// Writes poses as row-major 3x4 matrices and returns what the command will
/// read back: the matrices exactly as written (17 significant digits).
pub fn write_poses(path: &Path, poses: &[Isometry3<f64>]) -> Vec<RelativePose<f64>> {
    let mut text = String::from("# r00 r01 r02 tx r10 r11 r12 ty r20 r21 r22 tz\n");
    let mut read_back = Vec::new();
    for p in poses {
        let r = p.rotation.to_rotation_matrix().into_inner();
        let t = p.translation.vector;
        let row = |i: usize| format!("{:?} {:?} {:?} {:?}", r[(i, 0)], r[(i, 1)], r[(i, 2)], t[i]);
        text.push_str(&format!("{} {} {}\n", row(0), row(1), row(2)));
        read_back.push(RelativePose::from_matrix(r, t));
    }
    std::fs::write(path, text).unwrap();
    read_back
}

pub fn xyz(v: &Value) -> Point3<f64> {
    let a: Vec<f64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    Point3::new(a[0], a[1], a[2])
}

/// Runs the command, expects exit code 2 and a one-line message containing
/// every one of `needles`.
pub fn fails_with(args: &[&std::ffi::OsStr], needles: &[&str]) {
    let run = clash().args(args).assert().code(2);
    let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let message = stderr.lines().last().unwrap_or("");
    for n in needles {
        assert!(message.contains(n), "expected {n:?} in {stderr:?}");
    }
}
