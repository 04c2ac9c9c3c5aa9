//! Malformed inputs of each kind give exit code 2 and a one-line message
//! naming the file (and line) and saying what is wrong.

use crate::common::*;
use std::path::{Path, PathBuf};

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
            vec![
                "empty.txt: the file lists no poses (expected one per line, a pose: the row-major 3x4 matrix",
                "blank lines and lines starting with # are skipped",
            ],
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
        &["nan.txt:1: nan is not a number (NaN)"],
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

/// Runs `clash` with `args` (strings or paths) and expects exit code 2 and a
/// one-line message containing each of `needles` and none of `never`.
fn refused(args: &[&dyn AsRef<std::ffi::OsStr>], needles: &[&str], never: &[&str]) {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
    fails_with(&args, needles);
    let run = clash().args(&args).assert().code(2);
    let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
    for n in never {
        assert!(!stderr.contains(n), "{n:?} in {stderr:?}");
    }
}

#[test]
fn bad_mesh_coordinates_and_indices_name_the_line() {
    let dir = scratch("mesh_messages");
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let out = dir.join("out.clash");
    let stl = |y: &str| {
        format!(
            "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 {y} 0\nendloop\nendfacet\nendsolid t\n"
        )
    };
    let ply = |y: &str, last: u32| {
        format!(
            "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 {y} 0\n3 0 1 2\n3 0 1 {last}\n"
        )
    };
    let cases = [
        (
            file("nan.obj", "v 0 0 0\nv 1 0 0\nv 0 nan 0\nf 1 2 3\n"),
            "f64",
            "nan.obj:3: malformed OBJ file: coordinate nan is not a number (NaN)",
        ),
        (
            file("inf.stl", &stl("-inf")),
            "f64",
            "inf.stl:6: malformed STL file: coordinate -inf is infinite",
        ),
        (
            file("inf.ply", &ply("inf", 2)),
            "f64",
            "inf.ply:12: malformed PLY file: coordinate inf is infinite",
        ),
        (
            file("index.ply", &ply("1", 7)),
            "f64",
            "index.ply:14: malformed PLY file: face 1 refers to vertex 7, but the file has 3 vertices",
        ),
        (
            file("huge.obj", "v 0 0 0\nv 1e400 0 0\nv 0 1 0\nf 1 2 3\n"),
            "f64",
            "huge.obj:2: malformed OBJ file: coordinate 1e400 is out of f64 range",
        ),
        (
            file("big.stl", &stl("3.4028236e38")),
            "f32",
            "big.stl:6: malformed STL file: coordinate 3.4028236e38 is out of f32 range (largest magnitude 3.4028234663852886e38)",
        ),
    ];
    for (mesh, precision, message) in cases {
        refused(
            &[&"build", &mesh, &"-o", &out, &"--precision", &precision],
            &[message],
            &["non-finite", "invalid mesh"],
        );
    }
    // The same f32 mesh loads in f64.
    clash()
        .arg("build")
        .arg(dir.join("big.stl"))
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
}

#[test]
fn a_binary_stl_with_a_solid_header_and_a_wrong_count_is_called_binary() {
    let dir = scratch("solid_binary");
    let mut bytes = b"solid exported by a CAD tool".to_vec();
    bytes.resize(80, 0);
    bytes.extend_from_slice(&5u32.to_le_bytes());
    for _ in 0..3 {
        bytes.extend_from_slice(&[0u8; 12]);
        for v in [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend_from_slice(&[0u8; 2]);
    }
    let mesh = dir.join("solid_binary.stl");
    std::fs::write(&mesh, &bytes).unwrap();
    refused(
        &[&"build", &mesh, &"-o", &dir.join("out.clash")],
        &[
            "solid_binary.stl: malformed STL file: a binary STL file",
            "starts with `solid`",
            "the header announces 5 triangles, 334 bytes, but the file has 234 bytes",
        ],
        &["UTF-8"],
    );
}

#[test]
fn cut_and_mislabelled_tree_files_say_what_is_wrong() {
    let dir = scratch("tree_messages");
    let tree = dir.join("bunny.clash");
    clash()
        .arg("build")
        .arg(shipped("bunny_lo.stl"))
        .arg("-o")
        .arg(&tree)
        .assert()
        .success();
    let bytes = std::fs::read(&tree).unwrap();
    let cut = dir.join("cut30.clash");
    std::fs::write(&cut, &bytes[..30]).unwrap();
    refused(
        &[&"info", &cut],
        &["cut30.clash: truncated tree file: it ends inside the 48-byte header, after 30 bytes"],
        &["payload"],
    );
    // A version 2 file whose header says version 1.
    let mut relabelled = bytes.clone();
    relabelled[8..12].copy_from_slice(&1u32.to_le_bytes());
    let v1 = dir.join("v1.clash");
    std::fs::write(&v1, &relabelled).unwrap();
    refused(
        &[&"info", &v1],
        &[
            "v1.clash: ",
            "the payload does not decode as the version 1 format its header names",
        ],
        &["OtherString", "(\""],
    );
}

#[test]
fn poses_and_rays_out_of_range_or_missing_say_so() {
    let dir = scratch("number_messages");
    let bunny = shipped("bunny_lo.stl");
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let identity = "1 0 0 0 0 1 0 0 0 0 1 0\n";
    // A translation f32 cannot hold, for f32 trees only.
    let far = file(
        "far.txt",
        &format!("{identity}1 0 0 3.4028236e38 0 1 0 0 0 0 1 0\n"),
    );
    refused(
        &[
            &"collide",
            &bunny,
            &bunny,
            &"--poses",
            &far,
            &"--precision",
            &"f32",
        ],
        &["far.txt:2: 3.4028236e38 is out of f32 range (largest magnitude 3.4028234663852886e38)"],
        &["non-finite"],
    );
    let run = clash()
        .arg("collide")
        .arg(&bunny)
        .arg(&bunny)
        .arg("--poses")
        .arg(&far)
        .assert()
        .success();
    let lines = json_lines(&run.get_output().stdout);
    assert_eq!(lines[1]["collide"], false);
    let huge = file("huge.txt", "1 0 0 1e400 0 1 0 0 0 0 1 0\n");
    refused(
        &[&"distance", &bunny, &bunny, &"--poses", &huge],
        &["huge.txt:1: 1e400 is out of f64 range"],
        &["non-finite"],
    );
    let rays = file("rays.txt", "0 0 5 0 0 -1\n1e39 0 5 0 0 -1\n");
    refused(
        &[&"raycast", &bunny, &"--rays", &rays, &"--precision", &"f32"],
        &["rays.txt:2: 1e39 is out of f32 range"],
        &[],
    );
    let tiny = file("tiny.txt", "0 0 5 1e-50 0 -1e-60\n");
    refused(
        &[&"raycast", &bunny, &"--rays", &tiny, &"--precision", &"f32"],
        &["tiny.txt:1: the ray direction is zero in f32 (its components round to 0)"],
        &[],
    );
    let no_rays = file("no_rays.txt", "# origin and direction\n\n");
    refused(
        &[&"raycast", &bunny, &"--rays", &no_rays],
        &[
            "no_rays.txt: the file lists no rays (expected one per line, a ray: its origin and direction `ox oy oz dx dy dz`",
        ],
        &["no a "],
    );
}
