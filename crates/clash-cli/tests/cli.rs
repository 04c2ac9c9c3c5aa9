//! The `clash` binary run as a user runs it: the demo from a fresh checkout,
//! build / info / collide / distance / raycast on the shipped meshes with
//! answers equal to the library's, and malformed inputs of each kind giving
//! exit code 2 and a one-line message naming the file (and line).

use assert_cmd::Command;
use clash::bv::RelativePose;
use clash::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn shipped(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/meshes")
        .join(name)
}

fn clash() -> Command {
    Command::cargo_bin("clash").unwrap()
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clash_cli_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    std::str::from_utf8(stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn random_poses(n: usize, reach: f64, seed: u64) -> Vec<Isometry3<f64>> {
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
fn write_poses(path: &Path, poses: &[Isometry3<f64>]) -> Vec<RelativePose<f64>> {
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

fn xyz(v: &Value) -> Point3<f64> {
    let a: Vec<f64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    Point3::new(a[0], a[1], a[2])
}

#[test]
fn demo_runs_from_a_fresh_checkout() {
    let dir = scratch("demo");
    let out = dir.join("out");
    let run = clash()
        .args(["demo", "--poses", "300", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8(run.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("902 triangles"), "{stdout}");
    assert_eq!(stdout.matches("identical").count(), 3, "{stdout}");
    assert!(stdout.contains("300 poses"), "{stdout}");
    let svg = std::fs::read_to_string(out.join("demo.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    // 902 triangles in each panel, plus the 16 volumes of level 4 in each.
    assert_eq!(svg.matches("<polygon").count(), 2 * 902 + 2 * 16);
    // The saved trees are the ones the library builds from the same mesh.
    let mesh: TriMesh<f64> = load_mesh(shipped("bunny_lo.stl")).unwrap();
    let expected: Bvh<f64, Obb<f64>> = Bvh::build(mesh, &BuildOptions::default()).unwrap();
    assert_eq!(
        Bvh::<f64, Obb<f64>>::load(out.join("bunny_obb.clash")).unwrap(),
        expected
    );
}

fn info_field(stdout: &str, key: &str) -> String {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no {key:?} in {stdout}"))
        .to_string()
}

#[test]
fn build_and_info_match_the_library() {
    let dir = scratch("build");
    for (mesh_name, bv, precision) in [
        ("bunny_lo.stl", "obb", "f64"),
        ("dog_sacrum.stl", "aabb", "f64"),
        ("panda_link6.stl", "rss", "f64"),
        ("bunny_lo.stl", "kdop18", "f32"),
    ] {
        let tree_path = dir.join(format!("{mesh_name}.{bv}.{precision}.clash"));
        let run = clash()
            .arg("build")
            .arg(shipped(mesh_name))
            .arg("-o")
            .arg(&tree_path)
            .args([
                "--bv",
                bv,
                "--precision",
                precision,
                "--split",
                "sah",
                "--leaf-size",
                "2",
            ])
            .args(["--threads", "2"])
            .assert()
            .success();
        let stdout = String::from_utf8(run.get_output().stdout.clone()).unwrap();
        let options = BuildOptions::default()
            .with_split(SplitRule::Sah { bins: 16 })
            .with_max_leaf_size(2);
        let bytes = std::fs::read(&tree_path).unwrap();
        let (stats, expected_bytes) = match (bv, precision) {
            ("obb", "f64") => library_build::<f64, Obb<f64>>(mesh_name, &options),
            ("aabb", "f64") => library_build::<f64, Aabb<f64>>(mesh_name, &options),
            ("rss", "f64") => library_build::<f64, Rss<f64>>(mesh_name, &options),
            _ => library_build::<f32, Kdop18<f32>>(mesh_name, &options),
        };
        assert!(
            bytes == expected_bytes,
            "{mesh_name} {bv}: the file differs from the library's tree"
        );
        assert_eq!(
            info_field(&stdout, "triangles"),
            stats.triangles.to_string()
        );

        let info = clash().arg("info").arg(&tree_path).assert().success();
        let stdout = String::from_utf8(info.get_output().stdout.clone()).unwrap();
        assert_eq!(info_field(&stdout, "tree"), format!("{bv}/{precision}"));
        assert_eq!(
            info_field(&stdout, "file version"),
            clash::bvh::io::FORMAT_VERSION.to_string()
        );
        assert_eq!(
            info_field(&stdout, "triangles"),
            stats.triangles.to_string()
        );
        assert_eq!(info_field(&stdout, "vertices"), stats.vertices.to_string());
        assert_eq!(info_field(&stdout, "nodes"), stats.nodes.to_string());
        assert_eq!(info_field(&stdout, "leaves"), stats.leaves.to_string());
        assert_eq!(info_field(&stdout, "depth"), stats.depth.to_string());
        assert_eq!(
            info_field(&stdout, "memory"),
            format!("{} bytes", stats.memory_bytes)
        );
        assert_eq!(
            info_field(&stdout, "file size"),
            format!("{} bytes", bytes.len())
        );
    }
}

fn library_build<T: Scalar, B: BoundingVolume<T>>(
    mesh_name: &str,
    options: &BuildOptions,
) -> (clash::bvh::TreeStats, Vec<u8>) {
    let tree: Bvh<T, B> = Bvh::build(load_mesh(shipped(mesh_name)).unwrap(), options).unwrap();
    (tree.stats(), tree.to_bytes())
}

#[test]
fn collide_and_distance_match_the_library() {
    let dir = scratch("collide");
    let a_mesh = shipped("bunny_lo.stl");
    let b_mesh = shipped("dog_sacrum.stl");
    let a: Bvh<f64, Obb<f64>> =
        Bvh::build(load_mesh(&a_mesh).unwrap(), &BuildOptions::default()).unwrap();
    let b: Bvh<f64, Obb<f64>> =
        Bvh::build(load_mesh(&b_mesh).unwrap(), &BuildOptions::default()).unwrap();
    let poses_path = dir.join("poses.txt");
    // Random orientations, B's centre within reach of A's.
    let (ra, rb) = (a.root_bv(), b.root_bv());
    let reach = (ra.half_extents.norm() + rb.half_extents.norm()) * 0.3;
    let poses: Vec<Isometry3<f64>> = random_poses(150, reach, 3)
        .into_iter()
        .map(|p| {
            let t = ra.center.coords + p.translation.vector - p.rotation * rb.center.coords;
            Isometry3::from_parts(t.into(), p.rotation)
        })
        .collect();
    let poses = write_poses(&poses_path, &poses);
    // Saved trees answer as the meshes do.
    let a_tree = dir.join("a.clash");
    a.save(&a_tree).unwrap();
    let mut colliding = 0;
    for (a_in, b_in) in [(&a_mesh, &b_mesh), (&a_tree, &b_mesh)] {
        let run = clash()
            .arg("collide")
            .arg(a_in)
            .arg(b_in)
            .arg("--poses")
            .arg(&poses_path)
            .args(["--all-pairs", "--threads", "2"])
            .assert()
            .success();
        let lines = json_lines(&run.get_output().stdout);
        assert_eq!(lines.len(), poses.len());
        for (i, (line, pose)) in lines.iter().zip(&poses).enumerate() {
            let expected = a.collide(&b, pose, &CollisionRequest::all());
            assert_eq!(line["pose"], i);
            assert_eq!(line["collide"], expected.collides(), "pose {i}");
            assert_eq!(line["pairs"], expected.pairs.len(), "pose {i}");
            let list: Vec<[u32; 2]> = serde_json::from_value(line["pair_list"].clone()).unwrap();
            assert_eq!(list, expected.pairs, "pose {i}");
            colliding += usize::from(expected.collides());
        }
        let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains("collide: 150 poses in"), "{stderr}");
        assert!(stderr.contains("poses/s, 2 threads"), "{stderr}");
    }
    assert!(
        colliding > 30 && colliding < 270,
        "{colliding} of 300 collide"
    );

    let run = clash()
        .arg("distance")
        .arg(&a_tree)
        .arg(&b_mesh)
        .arg("--poses")
        .arg(&poses_path)
        .assert()
        .success();
    let lines = json_lines(&run.get_output().stdout);
    assert_eq!(lines.len(), poses.len());
    // `--bv rss` builds RSS trees for mesh inputs (the tree saved above is an OBB tree),
    // split by SAH unless `--split` says otherwise.
    let sah = BuildOptions::default().with_split(SplitRule::Sah { bins: 16 });
    let rss = (
        Bvh::<f64, Rss<f64>>::build(load_mesh(&a_mesh).unwrap(), &sah).unwrap(),
        Bvh::<f64, Rss<f64>>::build(load_mesh(&b_mesh).unwrap(), &sah).unwrap(),
    );
    let run_rss = clash()
        .arg("distance")
        .arg(&a_mesh)
        .arg(&b_mesh)
        .arg("--poses")
        .arg(&poses_path)
        .args(["--bv", "rss"])
        .assert()
        .success();
    let stderr = String::from_utf8(run_rss.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("rss/f64 tree built"), "{stderr}");
    for (line, pose) in json_lines(&run_rss.get_output().stdout).iter().zip(&poses) {
        let expected = rss.0.distance(&rss.1, pose);
        assert_eq!(line["distance"].as_f64().unwrap(), expected.distance);
        assert_eq!(line["triangle_a"], expected.triangles[0]);
    }
    // The saved OBB tree keeps its own split; `distance` builds the mesh input B by SAH.
    let b_sah: Bvh<f64, Obb<f64>> = Bvh::build(load_mesh(&b_mesh).unwrap(), &sah).unwrap();
    for (i, (line, pose)) in lines.iter().zip(&poses).enumerate() {
        let expected = a.distance(&b_sah, pose);
        assert_eq!(
            line["distance"].as_f64().unwrap(),
            expected.distance,
            "pose {i}"
        );
        assert_eq!(xyz(&line["point_a"]), expected.point_a, "pose {i}");
        assert_eq!(xyz(&line["point_b"]), expected.point_b, "pose {i}");
        assert_eq!(line["triangle_a"], expected.triangles[0]);
        assert_eq!(line["triangle_b"], expected.triangles[1]);
    }
}

#[test]
fn raycast_matches_the_library() {
    let dir = scratch("rays");
    let mesh = shipped("panda_link6.stl");
    let tree: Bvh<f64, Aabb<f64>> =
        Bvh::build(load_mesh(&mesh).unwrap(), &BuildOptions::default()).unwrap();
    let center = tree.root_bv().center();
    let radius = (tree.root_bv().max - tree.root_bv().min).norm();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut text = String::new();
    let mut rays = Vec::new();
    for _ in 0..500 {
        let o = center
            + Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                1.0,
            ) * radius;
        let target = center
            + Vector3::new(
                rng.random_range(-0.3..0.3),
                rng.random_range(-0.3..0.3),
                0.0,
            ) * radius;
        let d = target - o;
        text.push_str(&format!(
            "{:?} {:?} {:?} {:?} {:?} {:?}\n",
            o.x, o.y, o.z, d.x, d.y, d.z
        ));
        rays.push(Ray::new(o, d));
    }
    let rays_path = dir.join("rays.txt");
    std::fs::write(&rays_path, text).unwrap();
    let run = clash()
        .arg("raycast")
        .arg(&mesh)
        .arg("--rays")
        .arg(&rays_path)
        .args(["--bv", "aabb"])
        .assert()
        .success();
    let lines = json_lines(&run.get_output().stdout);
    assert_eq!(lines.len(), rays.len());
    let mut hits = 0;
    for (i, (line, ray)) in lines.iter().zip(&rays).enumerate() {
        let expected = tree.cast_ray(ray, &RayQuery::default());
        assert_eq!(line["hit"], expected.is_some(), "ray {i}");
        if let Some(h) = expected {
            hits += 1;
            assert_eq!(line["t"].as_f64().unwrap(), h.t, "ray {i}");
            assert_eq!(line["triangle"], h.triangle, "ray {i}");
            assert_eq!(xyz(&line["point"]), h.point, "ray {i}");
        }
    }
    assert!(hits > 50, "{hits} hits");
}

#[test]
fn collide_over_10000_poses_uses_every_core_and_reports_throughput() {
    let dir = scratch("throughput");
    let poses_path = dir.join("poses.txt");
    write_poses(&poses_path, &random_poses(10_000, 0.15, 9));
    let bunny = shipped("bunny_lo.stl");
    let run = clash()
        .arg("collide")
        .arg(&bunny)
        .arg(&bunny)
        .arg("--poses")
        .arg(&poses_path)
        .arg("--any")
        .assert()
        .success();
    assert_eq!(json_lines(&run.get_output().stdout).len(), 10_000);
    let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
    let cores = std::thread::available_parallelism().unwrap().get();
    assert!(stderr.contains("collide: 10000 poses in"), "{stderr}");
    assert!(
        stderr.contains(&format!("poses/s, {cores} threads)")),
        "{stderr}"
    );
}

/// Runs the command, expects exit code 2 and a one-line message containing
/// every one of `needles`.
fn fails_with(args: &[&std::ffi::OsStr], needles: &[&str]) {
    let run = clash().args(args).assert().code(2);
    let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let message = stderr.lines().last().unwrap_or("");
    for n in needles {
        assert!(message.contains(n), "expected {n:?} in {stderr:?}");
    }
}

#[test]
fn malformed_inputs_exit_2_with_a_clear_message() {
    let dir = scratch("errors");
    let p = |name: &str, text: &[u8]| -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let bunny = shipped("bunny_lo.stl");
    let good_pose = "1 0 0 0 0 1 0 0 0 0 1 0\n";
    let os = |p: &Path| p.as_os_str().to_owned();
    let s = |t: &str| std::ffi::OsString::from(t);
    let collide = |poses: &Path| {
        vec![
            s("collide"),
            os(&bunny),
            os(&bunny),
            s("--poses"),
            os(poses),
        ]
    };

    // Poses files: bad number, wrong count, not a rotation, reflection, empty.
    let cases: [(&str, String, Vec<&str>); 5] = [
        (
            "bad_number.txt",
            format!("{good_pose}\n1 0 0 0 0 1 0 0 0 0 1 0x\n"),
            vec!["bad_number.txt:3:", "bad number \"0x\""],
        ),
        (
            "short.txt",
            format!("{good_pose}1 0 0 0 0 1 0 0 0 0 1\n"),
            vec!["short.txt:2:", "expected 12 numbers", "found 11"],
        ),
        (
            "scaled.txt",
            "2 0 0 0 0 1 0 0 0 0 1 0\n".into(),
            vec!["scaled.txt:1:", "not orthonormal"],
        ),
        (
            "mirror.txt",
            "-1 0 0 0 0 1 0 0 0 0 1 0\n".into(),
            vec!["mirror.txt:1:", "reflection"],
        ),
        (
            "empty.txt",
            "# nothing\n".into(),
            vec!["empty.txt", "no a row-major 3x4 pose matrix"],
        ),
    ];
    for (name, text, needles) in cases {
        let path = p(name, text.as_bytes());
        let args = collide(&path);
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        fails_with(&args, &needles);
    }
    let nan = p("nan.txt", b"nan 0 0 0 0 1 0 0 0 0 1 0\n");
    let args = collide(&nan);
    fails_with(
        &args.iter().map(|a| a.as_os_str()).collect::<Vec<_>>(),
        &["nan.txt:1:", "non-finite"],
    );

    // Rays: wrong count, zero direction.
    for (name, text, needle) in [
        (
            "rays_short.txt",
            "0 0 5 0 0\n",
            "rays_short.txt:1: expected 6 numbers",
        ),
        (
            "rays_zero.txt",
            "0 0 5 0 0 -1\n0 0 5 0 0 0\n",
            "rays_zero.txt:2: the ray direction is zero",
        ),
    ] {
        let path = p(name, text.as_bytes());
        fails_with(
            &[&s("raycast"), &os(&bunny), &s("--rays"), &os(&path)],
            &[needle],
        );
    }

    // Tree files: corrupt payload, truncated, a mesh where a tree is expected.
    let tree = dir.join("bunny.clash");
    clash()
        .arg("build")
        .arg(&bunny)
        .arg("-o")
        .arg(&tree)
        .assert()
        .success();
    let mut bytes = std::fs::read(&tree).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    let corrupt = p("corrupt.clash", &bytes);
    fails_with(&[&s("info"), &os(&corrupt)], &["corrupt.clash", "checksum"]);
    let good_poses = p("good.txt", good_pose.as_bytes());
    fails_with(
        &[
            &s("collide"),
            &os(&corrupt),
            &os(&bunny),
            &s("--poses"),
            &os(&good_poses),
        ],
        &["corrupt.clash", "checksum"],
    );
    let truncated = p("truncated.clash", &std::fs::read(&tree).unwrap()[..1000]);
    fails_with(
        &[&s("info"), &os(&truncated)],
        &["truncated.clash", "truncated"],
    );
    fails_with(
        &[&s("info"), &os(&bunny)],
        &["bunny_lo.stl", "not a clash tree file"],
    );
    let aabb = dir.join("bunny_aabb.clash");
    clash()
        .arg("build")
        .arg(&bunny)
        .arg("-o")
        .arg(&aabb)
        .args(["--bv", "aabb"])
        .assert()
        .success();
    fails_with(
        &[
            &s("distance"),
            &os(&tree),
            &os(&aabb),
            &s("--poses"),
            &os(&good_poses),
        ],
        &["obb/f64", "aabb/f64", "same --bv"],
    );

    // Meshes: malformed OBJ (file and line), unknown format, missing file, bad options.
    let bad_obj = p("bad.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 q\nf 1 2 3\n");
    fails_with(
        &[
            &s("build"),
            &os(&bad_obj),
            &s("-o"),
            &os(&dir.join("x.clash")),
        ],
        &["bad.obj:3:", "bad number"],
    );
    let text = p("mesh.txt", b"hello");
    fails_with(
        &[&s("build"), &os(&text), &s("-o"), &os(&dir.join("x.clash"))],
        &["mesh.txt", "unknown mesh format"],
    );
    let missing = dir.join("missing.stl");
    fails_with(
        &[&s("raycast"), &os(&missing), &s("--rays"), &os(&good_poses)],
        &["missing.stl"],
    );
    fails_with(
        &[
            &s("build"),
            &os(&bunny),
            &s("-o"),
            &os(&dir.join("x.clash")),
            &s("--leaf-size"),
            &s("0"),
        ],
        &["--leaf-size"],
    );
    // A bad flag is a usage error, also exit code 2.
    clash().args(["collide", "--frobnicate"]).assert().code(2);
}

#[test]
fn every_subcommand_has_help() {
    for sub in ["build", "info", "collide", "distance", "raycast", "demo"] {
        let run = clash().args([sub, "--help"]).assert().success();
        let stdout = String::from_utf8(run.get_output().stdout.clone()).unwrap();
        assert!(stdout.contains("Usage: clash"), "{sub}: {stdout}");
    }
}
