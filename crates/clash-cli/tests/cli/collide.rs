//! `clash collide` answers whether the meshes touch by default (FCL's
//! default request), counts the triangle pairs with `--count` and lists
//! them with `--all-pairs`; `--help` states what counting costs.

use crate::common::*;
use clash::prelude::*;

#[test]
fn collide_answers_any_contact_by_default_and_counts_when_asked() {
    let dir = scratch("collide_modes");
    let bunny = shipped("bunny_lo.stl");
    let tree: Bvh<f64, Obb<f64>> =
        Bvh::build(load_mesh(&bunny).unwrap(), &BuildOptions::default()).unwrap();
    let poses_path = dir.join("poses.txt");
    let reach = tree.root_bv().half_extents.norm();
    let poses = write_poses(&poses_path, &random_poses(120, reach, 21));
    let run = |flags: &[&str]| {
        let run = clash()
            .arg("collide")
            .arg(&bunny)
            .arg(&bunny)
            .arg("--poses")
            .arg(&poses_path)
            .args(flags)
            .assert()
            .success();
        let lines = json_lines(&run.get_output().stdout);
        assert_eq!(lines.len(), poses.len(), "{flags:?}");
        lines
    };
    let default = run(&[]);
    let any = run(&["--any"]);
    let count = run(&["--count"]);
    let listed = run(&["--all-pairs"]);
    let both = run(&["--count", "--all-pairs"]);
    let mut colliding = 0;
    for (i, pose) in poses.iter().enumerate() {
        let touches = tree.intersects(&tree, pose);
        let all = tree.collide(&tree, pose, &CollisionRequest::all());
        assert_eq!(touches, all.collides(), "pose {i}");
        colliding += usize::from(touches);
        // The default: whether they touch, and no count (it stopped at the first contact).
        for line in [&default[i], &any[i]] {
            assert_eq!(line["pose"], i);
            assert_eq!(line["collide"], touches, "pose {i}");
            assert!(line.get("pairs").is_none(), "pose {i}: {line}");
            assert!(line.get("pair_list").is_none(), "pose {i}: {line}");
        }
        assert_eq!(count[i]["collide"], touches, "pose {i}");
        assert_eq!(count[i]["pairs"], all.pairs.len(), "pose {i}");
        assert!(count[i].get("pair_list").is_none(), "pose {i}");
        for line in [&listed[i], &both[i]] {
            assert_eq!(line["pairs"], all.pairs.len(), "pose {i}");
            let list: Vec<[u32; 2]> = serde_json::from_value(line["pair_list"].clone()).unwrap();
            assert_eq!(list, all.pairs, "pose {i}");
        }
    }
    assert!(
        colliding > 10 && colliding < 110,
        "{colliding} of 120 collide"
    );
    // `--any` is the default spelled out: it cannot be combined with counting.
    for flag in ["--count", "--all-pairs"] {
        clash()
            .arg("collide")
            .arg(&bunny)
            .arg(&bunny)
            .arg("--poses")
            .arg(&poses_path)
            .args(["--any", flag])
            .assert()
            .code(2);
    }
}

#[test]
fn collide_help_states_the_default_and_the_cost_of_counting() {
    let run = clash().args(["collide", "--help"]).assert().success();
    let help = String::from_utf8(run.get_output().stdout.clone()).unwrap();
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for words in [
        "--count Count every intersecting triangle pair",
        "Costs much more than the default answer, which stops at the first contact",
        "tens to hundreds of times longer",
        "--all-pairs Count and also list",
        "the default, as FCL's default request",
    ] {
        assert!(flat.contains(words), "{words:?} not in {help}");
    }
    let run = clash().arg("--help").assert().success();
    let help = String::from_utf8(run.get_output().stdout.clone()).unwrap();
    assert!(help.contains("--count"), "{help}");
}
