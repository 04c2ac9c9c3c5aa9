//! `clash demo` from a fresh checkout: its trees, its picture and legend,
//! its output folder and its level.

use crate::common::*;
use clash::prelude::*;

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
    // The legend: each panel's volume type and level, and the projection.
    for words in [
        "AABB tree: axis-aligned bounding boxes",
        "OBB tree: oriented bounding boxes",
        "level 4 of 0 (the root) to 10: 16 volumes",
        "Projection: orthographic onto the",
        "Grey: the 902 triangles of the mesh",
    ] {
        assert!(svg.contains(words), "{words:?} not in the picture");
    }
    assert_eq!(svg.matches("level 4 of 0 (the root) to 10").count(), 2);
    assert!(
        stdout.contains(&format!("output folder: {}", out.display())),
        "{stdout}"
    );
    // The saved trees are the ones the library builds from the same mesh.
    let mesh: TriMesh<f64> = load_mesh(shipped("bunny_lo.stl")).unwrap();
    let expected: Bvh<f64, Obb<f64>> = Bvh::build(mesh, &BuildOptions::default()).unwrap();
    assert_eq!(
        Bvh::<f64, Obb<f64>>::load(out.join("bunny_obb.clash")).unwrap(),
        expected
    );
}

#[test]
fn demo_writes_to_clash_demo_by_default_which_git_ignores() {
    // In a fresh folder, as a user runs it.
    let dir = scratch("demo_default");
    clash()
        .current_dir(&dir)
        .args(["demo", "--poses", "20"])
        .assert()
        .success();
    let names: Vec<String> = std::fs::read_dir(dir.join("clash-demo"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.contains(&"demo.svg".to_string()), "{names:?}");
    let gitignore = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.gitignore"),
    )
    .unwrap();
    assert!(
        gitignore.lines().any(|l| l.trim() == "clash-demo/"),
        "{gitignore}"
    );
}

#[test]
fn demo_refuses_a_level_its_trees_do_not_have() {
    let dir = scratch("demo_level");
    let out = dir.join("out");
    // The deepest level is drawn, and labelled with the tree's depth; one
    // pose is enough (no "closest inf" when it is not separated).
    let run = clash()
        .args(["demo", "--poses", "1", "--level", "10", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8(run.get_output().stdout.clone()).unwrap();
    assert!(!stdout.contains("inf"), "{stdout}");
    let svg = std::fs::read_to_string(out.join("demo.svg")).unwrap();
    assert!(svg.contains("level 10 of 0 (the root) to 10"), "level 10");
    let out = dir.join("deeper");
    for level in ["11", "99"] {
        fails_with(
            &[
                "demo".as_ref(),
                "--poses".as_ref(),
                "10".as_ref(),
                "--level".as_ref(),
                level.as_ref(),
                "--out".as_ref(),
                out.as_os_str(),
            ],
            &[&format!(
                "--level {level}: the demo's trees have levels 0 (the root) to 10"
            )],
        );
        assert!(!out.exists(), "nothing written for --level {level}");
    }
    // At least one pose.
    clash().args(["demo", "--poses", "0"]).assert().code(2);
}
