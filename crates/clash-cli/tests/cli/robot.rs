//! `clash robot` on the Panda of `data/robots`: answers equal to the
//! library's `RobotWorld` batches (which the clash crate's tests check
//! against a brute-force loop), and bad URDF, SRDF and configurations
//! input named with its file and line, exit code 2.

use super::common::{clash, fails_with, json_lines, scratch, xyz};
use clash::WorldQuery;
use clash::robot::{ConfigurationSampler, PackageMap, Robot, RobotWorld, RobotWorldOptions, Srdf};
use std::ffi::OsStr;
use std::path::PathBuf;

fn panda_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda")
}

const PACKAGE: &str = "example-robot-data/robots/panda_description";

#[test]
fn answers_equal_the_library() {
    let dir = panda_dir();
    let packages = PackageMap::new().with(PACKAGE, &dir);
    let urdf = dir.join("urdf/panda.urdf");
    let srdf = dir.join("srdf/panda.srdf");
    let robot = Robot::from_urdf_file(&urdf, &packages).unwrap();
    let acm = Srdf::from_file(&srdf, &robot).unwrap().allowed_collisions();
    let configs = ConfigurationSampler::new(&robot, 3).sample_many(60);
    let scratch = scratch("robot_answers");
    let file = scratch.join("q.txt");
    let text: String = configs
        .iter()
        .map(|q| {
            q.iter()
                .map(|v| format!("{v:?}"))
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    std::fs::write(&file, format!("# panda joint vectors\n{text}")).unwrap();
    let world: RobotWorld =
        RobotWorld::new(&robot, Some(&acm), &RobotWorldOptions::default()).unwrap();
    let query = WorldQuery::default();
    let package = format!("{PACKAGE}={}", dir.display());
    let args = |extra: &[&str]| {
        let mut a = vec![
            "robot".into(),
            urdf.clone().into_os_string(),
            "--srdf".into(),
            srdf.clone().into_os_string(),
            "--configs".into(),
            file.clone().into_os_string(),
            "--package".into(),
            package.clone().into(),
        ];
        a.extend(extra.iter().map(|s| OsStr::new(s).to_owned()));
        a
    };
    let firsts = world.batch_first_collision(&configs, &query).unwrap();
    let lines = json_lines(
        &clash()
            .args(args(&["--threads", "2"]))
            .assert()
            .success()
            .get_output()
            .stdout,
    );
    assert_eq!(lines.len(), configs.len());
    for (k, (line, first)) in lines.iter().zip(&firsts).enumerate() {
        assert_eq!(line["config"], k);
        assert_eq!(line["collides"], first.is_some());
        if let Some((a, b)) = first {
            assert_eq!(line["links"][0], world.link_name(*a).unwrap());
            assert_eq!(line["links"][1], world.link_name(*b).unwrap());
        }
    }
    assert!(firsts.iter().any(Option::is_some) && firsts.iter().any(Option::is_none));
    // The same vectors on standard input (`--configs -`), the same answers.
    let mut from_stdin = args(&["--threads", "2"]);
    from_stdin[5] = "-".into();
    let piped = json_lines(
        &clash()
            .args(from_stdin)
            .write_stdin(format!("# panda joint vectors\n{text}"))
            .assert()
            .success()
            .get_output()
            .stdout,
    );
    assert_eq!(piped, lines);
    let dists = world.batch_distance(&configs, &query).unwrap();
    let lines = json_lines(
        &clash()
            .args(args(&["--distance"]))
            .assert()
            .success()
            .get_output()
            .stdout,
    );
    for (line, d) in lines.iter().zip(&dists) {
        let d = d.unwrap();
        assert_eq!(line["distance"].as_f64().unwrap(), d.distance);
        assert_eq!(line["links"][0], world.link_name(d.a).unwrap());
        assert_eq!(xyz(&line["point_a"]), d.points[0]);
        assert_eq!(xyz(&line["point_b"]), d.points[1]);
    }
    std::fs::remove_dir_all(scratch).unwrap();
}

#[test]
fn bad_input_names_the_file_and_line() {
    let dir = panda_dir();
    let scratch = scratch("robot_bad");
    let primitives = dir.join("urdf/panda_collision.urdf");
    let good = scratch.join("good.txt");
    std::fs::write(&good, "0 0 0 -1.5 0 1.5 0 0.01\n").unwrap();
    let os = |p: &PathBuf| p.clone().into_os_string();
    // A value outside its joint's limits, unless --ignore-limits.
    let outside = scratch.join("outside.txt");
    std::fs::write(&outside, "0 0 0 -1.5 0 1.5 0 0.01\n\n0 0 0 0 0 0 0 0\n").unwrap();
    let base = |q: &PathBuf| {
        vec![
            OsStr::new("robot").to_owned(),
            os(&primitives),
            "--configs".into(),
            os(q),
        ]
    };
    let a = base(&outside);
    fails_with(
        &a.iter().map(|s| s.as_os_str()).collect::<Vec<_>>(),
        &["outside.txt:3", "panda_joint4", "limits"],
    );
    let mut ignore = base(&outside);
    ignore.push("--ignore-limits".into());
    clash().args(&ignore).assert().success();
    // The wrong number of values; not a number.
    let short = scratch.join("short.txt");
    std::fs::write(&short, "0 0 0\n").unwrap();
    fails_with(
        &base(&short)
            .iter()
            .map(|s| s.as_os_str())
            .collect::<Vec<_>>(),
        &["short.txt:1"],
    );
    let word = scratch.join("word.txt");
    std::fs::write(&word, "0 0 0 -1.5 0 1.5 zero 0.01\n").unwrap();
    fails_with(
        &base(&word)
            .iter()
            .map(|s| s.as_os_str())
            .collect::<Vec<_>>(),
        &["word.txt:1", "zero"],
    );
    // An SRDF naming a link the robot does not have.
    let srdf = std::fs::read_to_string(dir.join("srdf/panda.srdf")).unwrap();
    let bad_srdf = scratch.join("bad.srdf");
    std::fs::write(
        &bad_srdf,
        srdf.replace("link2=\"panda_link3\"", "link2=\"no_such_link\""),
    )
    .unwrap();
    let mut a = base(&good);
    a.extend(["--srdf".into(), os(&bad_srdf)]);
    fails_with(
        &a.iter().map(|s| s.as_os_str()).collect::<Vec<_>>(),
        &["bad.srdf:", "no_such_link"],
    );
    // URDFs: a missing mesh, an unknown joint type, a NaN origin, a cycle.
    let urdf = |name: &str, text: &str| {
        let p = scratch.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let two_links = |joint: &str, geometry: &str| {
        format!(
            "<robot name=\"r\">\n<link name=\"a\"><collision><geometry>{geometry}</geometry></collision></link>\n\
             <link name=\"b\"/>\n{joint}\n</robot>\n"
        )
    };
    let fixed = "<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>";
    let cases = [
        (
            urdf(
                "mesh.urdf",
                &two_links(fixed, "<mesh filename=\"missing.stl\"/>"),
            ),
            vec!["mesh.urdf:2", "missing.stl"],
        ),
        (
            urdf(
                "joint.urdf",
                &two_links(
                    "<joint name=\"j\" type=\"floating\"><parent link=\"a\"/><child link=\"b\"/></joint>",
                    "<sphere radius=\"1\"/>",
                ),
            ),
            vec!["joint.urdf:4", "floating"],
        ),
        (
            urdf(
                "nan.urdf",
                &two_links(
                    "<joint name=\"j\" type=\"fixed\"><origin xyz=\"0 nan 0\"/><parent link=\"a\"/><child link=\"b\"/></joint>",
                    "<sphere radius=\"1\"/>",
                ),
            ),
            vec!["nan.urdf:4"],
        ),
        (
            urdf(
                "cycle.urdf",
                "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\"/>\n\
                 <joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n\
                 <joint name=\"k\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint>\n</robot>\n",
            ),
            vec!["cycle.urdf:"],
        ),
    ];
    for (file, needles) in cases {
        let a = [
            OsStr::new("robot"),
            file.as_os_str(),
            OsStr::new("--configs"),
            good.as_os_str(),
        ];
        fails_with(&a, &needles);
    }
    // A malformed --package.
    let a = base(&good);
    let mut a: Vec<&OsStr> = a.iter().map(|s| s.as_os_str()).collect();
    a.extend([OsStr::new("--package"), OsStr::new("no-equals-sign")]);
    fails_with(&a, &["--package", "NAME=DIR"]);
    // No folder for the URDF's package: the message says how to give one.
    let panda = panda_dir().join("urdf/panda.urdf");
    fails_with(
        &[
            OsStr::new("robot"),
            panda.as_os_str(),
            OsStr::new("--configs"),
            good.as_os_str(),
        ],
        &[
            "panda.urdf:13:",
            "package \"example-robot-data\" was not found",
            "give its folder with --package example-robot-data=DIR",
        ],
    );
    // A bad line on standard input names it.
    let run = clash()
        .args([
            OsStr::new("robot"),
            panda.as_os_str(),
            OsStr::new("--configs"),
            OsStr::new("-"),
        ])
        .args(["--package", &format!("{PACKAGE}={}", panda_dir().display())])
        .write_stdin("0 0 0 -1 0 1 0 0\n1 2\n")
        .assert()
        .code(2);
    let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("<stdin>:2:"), "{stderr}");
    std::fs::remove_dir_all(scratch).unwrap();
}
