//! The coordinate range on the command line: meshes, poses and rays beyond the
//! range within which queries answer without overflow
//! (`Scalar::MAX_COORDINATE`) exit with code 2 and a one-line message
//! naming the file (and line); just inside it, every answer is a number.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn clash() -> Command {
    Command::cargo_bin("clash").unwrap()
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clash_range_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A tetrahedron with corners at the origin and `s` along each axis.
fn tetrahedron(s: f64) -> String {
    format!("v 0 0 0\nv {s:e} 0 0\nv 0 {s:e} 0\nv 0 0 {s:e}\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n")
}

/// Runs `clash` with `args`, expects exit code 2 and a last stderr line
/// holding every one of `needles`.
fn fails_with(args: &[&str], needles: &[&str]) {
    let run = clash().args(args).assert().code(2);
    let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let message = stderr.lines().last().unwrap_or("");
    for n in needles {
        assert!(message.contains(n), "expected {n:?} in {stderr:?}");
    }
}

fn lines(args: &[&str]) -> Vec<Value> {
    let run = clash().args(args).assert().success();
    std::str::from_utf8(&run.get_output().stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn out_of_range_inputs_exit_2_naming_the_input() {
    let dir = scratch("refused");
    let huge = write(&dir, "huge.obj", &tetrahedron(1e200));
    let unit = write(&dir, "unit.obj", &tetrahedron(1.0));
    let pose = write(&dir, "pose.txt", "1 0 0 0 0 1 0 0 0 0 1 0\n");
    let far_pose = write(
        &dir,
        "far.txt",
        "1 0 0 0.5 0 1 0 0 0 0 1 0\n1 0 0 1e300 0 1 0 0 0 0 1 0\n",
    );
    let f32_pose = write(&dir, "f32.txt", "1 0 0 1e39 0 1 0 0 0 0 1 0\n");
    let rays = write(
        &dir,
        "rays.txt",
        "0.1 0.1 -1 0 0 1\n0.1 0.1 -1 0 0 1e-310\n",
    );
    let far_ray = write(&dir, "far_ray.txt", "1e300 0.1 0.1 -1 0 0\n");
    let s = |p: &Path| p.to_str().unwrap().to_owned();
    let (huge, unit, pose, far_pose, f32_pose, rays, far_ray) = (
        s(&huge),
        s(&unit),
        s(&pose),
        s(&far_pose),
        s(&f32_pose),
        s(&rays),
        s(&far_ray),
    );
    for cmd in ["collide", "distance"] {
        fails_with(
            &[cmd, &huge, &unit, "--poses", &pose],
            &[&huge, "vertex 1", "1e200"],
        );
        fails_with(
            &[cmd, &unit, &unit, "--poses", &far_pose],
            &[&format!("{far_pose}:2"), "1e300"],
        );
        fails_with(
            &[
                cmd,
                &unit,
                &unit,
                "--poses",
                &f32_pose,
                "--precision",
                "f32",
            ],
            &[&format!("{f32_pose}:1")],
        );
    }
    fails_with(
        &["build", &huge, "-o", &s(&dir.join("t.clash"))],
        &[&huge, "vertex 1"],
    );
    // In f64 the ray's own range check names the number; the unit mesh's
    // default ray tree is f32, where these rays cannot be held at all.
    fails_with(
        &["raycast", &unit, "--rays", &rays, "--precision", "f64"],
        &[&format!("{rays}:2"), "direction", "1e-310"],
    );
    fails_with(
        &["raycast", &unit, "--rays", &far_ray, "--precision", "f64"],
        &[&format!("{far_ray}:1"), "1e300"],
    );
    fails_with(
        &["raycast", &unit, "--rays", &rays],
        &[&format!("{rays}:2"), "direction is zero in f32"],
    );
    fails_with(
        &["raycast", &unit, "--rays", &far_ray],
        &[&format!("{far_ray}:1"), "1e300", "--precision f64"],
    );
    // f32 meshes have a smaller range.
    let f32_huge = s(&write(&dir, "f32_huge.obj", &tetrahedron(1e12)));
    let good_rays = s(&write(&dir, "good_rays.txt", "0.1 0.1 -1 0 0 1\n"));
    fails_with(
        &[
            "raycast",
            &f32_huge,
            "--rays",
            &good_rays,
            "--precision",
            "f32",
        ],
        &[&f32_huge, "vertex 1"],
    );
}

#[test]
fn scenes_inside_the_range_answer_with_numbers() {
    let dir = scratch("answered");
    let s = |p: PathBuf| p.to_str().unwrap().to_owned();
    let big = s(write(&dir, "big.obj", &tetrahedron(1e38)));
    let poses = s(write(
        &dir,
        "poses.txt",
        "1 0 0 3e38 0 1 0 0 0 0 1 0\n1 0 0 2e37 0 1 0 2e37 0 0 1 2e37\n",
    ));
    let rays = s(write(
        &dir,
        "rays.txt",
        "-1e38 1e37 1e37 1 0 0\n1e37 1e37 -1e38 0 0 1\n",
    ));
    let d = lines(&["distance", &big, &big, "--poses", &poses]);
    assert!(
        (d[0]["distance"].as_f64().unwrap() / 2e38 - 1.0).abs() < 1e-12,
        "{d:?}"
    );
    assert_eq!(d[1]["distance"].as_f64(), Some(0.0), "{d:?}");
    let c = lines(&["collide", &big, &big, "--poses", &poses]);
    assert_eq!(c[0]["collide"], Value::Bool(false));
    assert_eq!(c[1]["collide"], Value::Bool(true));
    let r = lines(&["raycast", &big, "--rays", &rays]);
    for (hit, normal) in r.iter().zip([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]) {
        assert!(
            (hit["t"].as_f64().unwrap() / 1e38 - 1.0).abs() < 1e-12,
            "{r:?}"
        );
        let n: Vec<f64> = hit["normal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        // Normals are not flipped towards the ray: compare up to sign.
        assert!(
            (n[0].abs() - normal[0]).abs() + (n[2].abs() - normal[2]).abs() < 1e-12,
            "{r:?}"
        );
    }
}
