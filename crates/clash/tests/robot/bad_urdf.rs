//! Bad URDFs: each defect a typed error naming the file, the line and the
//! element; no panic on mangled files.

use crate::common::{check_message, robots_dir, urdf_error, urdf_error_at};
use clash::mesh_file::MeshFileError;
use clash::robot::{JointError, PackageMap, Robot, RobotErrorKind};
use proptest::prelude::*;

/// A two-link robot whose joint has the given type and body.
fn joint_urdf(joint_type: &str, body: &str) -> String {
    format!(
        "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\"/>\n\
         <joint name=\"j\" type=\"{joint_type}\">\n<parent link=\"a\"/><child link=\"b\"/>\n{body}\n</joint>\n</robot>"
    )
}

#[test]
fn unsupported_joint_types() {
    for joint_type in ["floating", "planar", "spherical", "Revolute", ""] {
        let e = urdf_error_at(
            &joint_urdf(joint_type, ""),
            4,
            &["\"j\"", "unsupported joint type"],
        );
        assert!(
            matches!(e.kind(), RobotErrorKind::UnsupportedJointType { joint, joint_type: t } if joint == "j" && t == joint_type)
        );
    }
}

#[test]
fn malformed_xml() {
    for (urdf, line) in [
        ("<robot name=\"r\">\n<link name=\"a\">\n</robot>", 3),
        // An unclosed root is reported where it opens.
        ("<robot name=\"r\">\n<link name=\"a\"/>\n", 1),
        ("", 1),
        ("<robot name='r'><link name=\"a\" name=\"b\"/></robot>", 1),
        ("not xml at all", 1),
    ] {
        let e = urdf_error(urdf);
        assert!(matches!(e.kind(), RobotErrorKind::Xml { .. }), "{e}");
        assert_eq!(e.line(), Some(line), "{e}");
        assert!(e.to_string().contains("malformed XML"));
    }
    let e = urdf_error_at("<sdf><model/></sdf>", 1, &["<sdf>"]);
    assert!(matches!(e.kind(), RobotErrorKind::NotARobot { found } if found == "sdf"));
}

#[test]
fn nan_and_infinite_numbers() {
    let cases = [
        "<origin xyz=\"0 nan 0\"/>\n<limit lower=\"-1\" upper=\"1\"/>",
        "<origin rpy=\"inf 0 0\"/>\n<limit lower=\"-1\" upper=\"1\"/>",
        "<axis xyz=\"0 0 NaN\"/>\n<limit lower=\"-1\" upper=\"1\"/>",
        "<limit lower=\"-inf\" upper=\"1\"/>",
        "<limit lower=\"-1\" upper=\"infinity\"/>",
    ];
    for body in cases {
        let e = urdf_error(&joint_urdf("revolute", body));
        assert!(
            matches!(e.kind(), RobotErrorKind::NonFinite { element, .. } if element.starts_with("joint \"j\"")),
            "{e}"
        );
        assert!(e.to_string().contains("not finite"), "{e}");
    }
    // In a link's collision origin and shape.
    let urdf = "<robot name=\"r\">\n<link name=\"a\"><collision>\n<origin xyz=\"1e999 0 0\"/>\
                <geometry><sphere radius=\"1\"/></geometry></collision></link></robot>";
    let e = urdf_error_at(urdf, 3, &["collision 0 of link \"a\"", "xyz"]);
    assert!(matches!(e.kind(), RobotErrorKind::NonFinite { .. }));
    let urdf = "<robot name=\"r\">\n<link name=\"a\"><collision><geometry>\n<sphere radius=\"nan\"/>\
                </geometry></collision></link></robot>";
    let e = urdf_error_at(urdf, 3, &["collision 0 of link \"a\" <sphere>", "radius"]);
    assert!(matches!(e.kind(), RobotErrorKind::NonFinite { .. }));
}

#[test]
fn malformed_numbers() {
    for body in [
        "<origin xyz=\"0 0\"/>",
        "<origin xyz=\"0 0 0 0\"/>",
        "<origin xyz=\"0 zero 0\"/>",
        "<origin xyz=\"0,0,0\"/>",
        "<axis xyz=\"\"/>",
    ] {
        let e = urdf_error(&joint_urdf("fixed", body));
        assert!(
            matches!(e.kind(), RobotErrorKind::BadValue { element, expected: "three numbers", .. } if element == "joint \"j\"" || element == "joint \"j\" <axis>"),
            "{e}"
        );
        assert_eq!(e.line(), Some(6), "{e}");
    }
    let e = urdf_error(&joint_urdf(
        "revolute",
        "<limit lower=\"minus one\" upper=\"1\"/>",
    ));
    assert!(
        matches!(
            e.kind(),
            RobotErrorKind::BadValue {
                attribute: "lower",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn zero_axes_missing_and_inverted_limits() {
    let e = urdf_error_at(
        &joint_urdf(
            "revolute",
            "<axis xyz=\"0 0 0\"/><limit lower=\"-1\" upper=\"1\"/>",
        ),
        6,
        &["\"j\"", "zero vector"],
    );
    assert!(matches!(e.kind(), RobotErrorKind::ZeroAxis { joint } if joint == "j"));
    // A fixed joint's axis is never used.
    assert!(
        Robot::from_urdf_str(
            &joint_urdf("fixed", "<axis xyz=\"0 0 0\"/>"),
            ".",
            &PackageMap::new()
        )
        .is_ok()
    );
    // Tiny and huge axes normalise.
    for axis in ["0 0 1e-300", "0 0 1e300", "4.9e-324 0 0"] {
        let body = format!("<axis xyz=\"{axis}\"/><limit lower=\"-1\" upper=\"1\"/>");
        let r =
            Robot::from_urdf_str(&joint_urdf("revolute", &body), ".", &PackageMap::new()).unwrap();
        assert!((r.joints()[0].axis.norm() - 1.0).abs() < 1e-15);
    }

    let e = urdf_error_at(&joint_urdf("prismatic", ""), 4, &["\"j\"", "<limit>"]);
    assert!(matches!(
        e.kind(),
        RobotErrorKind::MissingElement { child: "limit", .. }
    ));
    let e = urdf_error_at(
        &joint_urdf("revolute", "<limit lower=\"1\" upper=\"-1\"/>"),
        6,
        &["\"j\""],
    );
    assert!(
        matches!(e.kind(), RobotErrorKind::BadLimits { lower, upper, .. } if *lower == 1.0 && *upper == -1.0)
    );
}

#[test]
fn names_links_and_parents() {
    let e = urdf_error_at(
        "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"a\"/>\n</robot>",
        3,
        &["\"a\""],
    );
    assert!(
        matches!(e.kind(), RobotErrorKind::DuplicateName { what: "link", name } if name == "a")
    );

    let urdf = "<robot name=\"r\">\n<link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n\
        <joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n\
        <joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"c\"/></joint>\n</robot>";
    let e = urdf_error_at(urdf, 4, &["\"j\""]);
    assert!(matches!(
        e.kind(),
        RobotErrorKind::DuplicateName { what: "joint", .. }
    ));

    let urdf = "<robot name=\"r\">\n<link name=\"a\"/>\n\
        <joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"ghost\"/></joint>\n</robot>";
    let e = urdf_error_at(urdf, 3, &["joint \"j\"", "\"ghost\""]);
    assert!(matches!(e.kind(), RobotErrorKind::UnknownLink { link, .. } if link == "ghost"));

    let urdf = "<robot name=\"r\">\n<link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n\
        <joint name=\"j1\" type=\"fixed\"><parent link=\"a\"/><child link=\"c\"/></joint>\n\
        <joint name=\"j2\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint>\n</robot>";
    let e = urdf_error_at(urdf, 4, &["\"c\"", "\"j1\"", "\"j2\""]);
    assert!(matches!(e.kind(), RobotErrorKind::SeveralParents { link, .. } if link == "c"));

    let urdf = "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\"/>\n</robot>";
    let e = urdf_error_at(urdf, 3, &["\"a\"", "\"b\""]);
    assert!(matches!(e.kind(), RobotErrorKind::SeveralRoots { roots } if roots == &["a", "b"]));

    let e = urdf_error("<robot name=\"r\"/>");
    assert!(matches!(e.kind(), RobotErrorKind::NoLinks));
    assert_eq!(e.to_string(), "<memory>: the robot has no link");

    let e = urdf_error_at(
        "<robot name=\"r\">\n<link/>\n</robot>",
        2,
        &["<link>", "\"name\""],
    );
    assert!(matches!(
        e.kind(),
        RobotErrorKind::MissingAttribute {
            attribute: "name",
            ..
        }
    ));
    let e = urdf_error_at(
        &joint_urdf("fixed", "").replace("<child link=\"b\"/>", ""),
        4,
        &["<child>"],
    );
    assert!(matches!(
        e.kind(),
        RobotErrorKind::MissingElement { child: "child", .. }
    ));
}

#[test]
fn cycles() {
    // A root, and two links each the other's parent.
    let urdf = "<robot name=\"r\">\n<link name=\"root\"/><link name=\"b\"/><link name=\"c\"/>\n\
        <joint name=\"bc\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint>\n\
        <joint name=\"cb\" type=\"fixed\"><parent link=\"c\"/><child link=\"b\"/></joint>\n</robot>";
    let e = urdf_error(urdf);
    let RobotErrorKind::Cycle { links } = e.kind() else {
        panic!("{e}")
    };
    assert!(links == &["b", "c"] || links == &["c", "b"], "{links:?}");
    assert!(e.to_string().contains("cycle"));
    assert!(matches!(e.line(), Some(3 | 4)));

    // No root at all: every link has a parent.
    let urdf = "<robot name=\"r\">\n<link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n\
        <joint name=\"ab\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/><limit/></joint>\n\
        <joint name=\"bc\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint>\n\
        <joint name=\"ca\" type=\"fixed\"><parent link=\"c\"/><child link=\"a\"/></joint>\n</robot>";
    let e = urdf_error(urdf);
    let RobotErrorKind::Cycle { links } = e.kind() else {
        panic!("{e}")
    };
    // Each link the parent of the next, the last the parent of the first.
    let mut rotated = links.clone();
    while rotated[0] != "a" {
        rotated.rotate_left(1);
    }
    assert_eq!(rotated, ["a", "b", "c"]);

    // A joint whose parent is its child.
    let urdf = "<robot name=\"r\">\n<link name=\"root\"/><link name=\"a\"/>\n\
        <joint name=\"aa\" type=\"fixed\"><parent link=\"a\"/><child link=\"a\"/></joint>\n</robot>";
    let e = urdf_error_at(urdf, 3, &["\"a\""]);
    assert!(matches!(e.kind(), RobotErrorKind::Cycle { links } if links == &["a"]));
}

#[test]
fn mimic_errors() {
    let body = "<limit lower=\"-1\" upper=\"1\"/><mimic joint=\"nobody\"/>";
    let e = urdf_error_at(&joint_urdf("revolute", body), 4, &["\"j\"", "\"nobody\""]);
    assert!(matches!(e.kind(), RobotErrorKind::UnknownJoint { joint, .. } if joint == "nobody"));

    let urdf = "<robot name=\"r\">\n<link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n\
        <joint name=\"j1\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/><limit/><mimic joint=\"j2\"/></joint>\n\
        <joint name=\"j2\" type=\"revolute\"><parent link=\"a\"/><child link=\"c\"/><limit/><mimic joint=\"j1\"/></joint>\n</robot>";
    let e = urdf_error(urdf);
    assert!(
        matches!(e.kind(), RobotErrorKind::MimicCycle { joints } if joints.len() == 2),
        "{e}"
    );

    let urdf = "<robot name=\"r\">\n<link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n\
        <joint name=\"f\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n\
        <joint name=\"m\" type=\"revolute\"><parent link=\"a\"/><child link=\"c\"/><limit/><mimic joint=\"f\"/></joint>\n</robot>";
    let e = urdf_error_at(urdf, 4, &["\"m\"", "\"f\""]);
    assert!(
        matches!(e.kind(), RobotErrorKind::MimicOfFixed { joint, leader } if joint == "m" && leader == "f")
    );

    // Multipliers whose product overflows along a chain.
    let urdf = "<robot name=\"r\">\n<link name=\"a\"/><link name=\"b\"/><link name=\"c\"/><link name=\"d\"/>\n\
        <joint name=\"j1\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/><limit/></joint>\n\
        <joint name=\"j2\" type=\"revolute\"><parent link=\"a\"/><child link=\"c\"/><limit/><mimic joint=\"j1\" multiplier=\"1e200\"/></joint>\n\
        <joint name=\"j3\" type=\"revolute\"><parent link=\"a\"/><child link=\"d\"/><limit/><mimic joint=\"j2\" multiplier=\"1e200\"/></joint>\n</robot>";
    let e = urdf_error_at(urdf, 5, &["\"j3\""]);
    assert!(matches!(e.kind(), RobotErrorKind::NonFinite { .. }));
}

#[test]
fn bad_geometry() {
    let link = |inner: &str| {
        format!(
            "<robot name=\"r\">\n<link name=\"l\">\n<collision name=\"c\">\n<geometry>\n{inner}\n</geometry>\n</collision>\n</link>\n</robot>"
        )
    };
    let e = urdf_error_at(
        &link("<cone radius=\"1\"/>"),
        5,
        &["collision 0 of link \"l\"", "<cone>"],
    );
    assert!(
        matches!(e.kind(), RobotErrorKind::UnknownGeometry { geometry, .. } if geometry == "cone")
    );
    let e = urdf_error_at(&link(""), 4, &["collision 0 of link \"l\""]);
    assert!(matches!(e.kind(), RobotErrorKind::MissingElement { .. }));
    for (inner, attribute) in [
        ("<sphere radius=\"-1\"/>", "radius"),
        ("<cylinder radius=\"1\" length=\"-2\"/>", "length"),
        ("<capsule length=\"1\"/>", "radius"),
        ("<box size=\"1 -1 1\"/>", "size"),
        ("<box/>", "size"),
        ("<mesh/>", "filename"),
        ("<mesh filename=\"a.stl\" scale=\"1 0 1\"/>", "scale"),
    ] {
        let e = urdf_error_at(&link(inner), 5, &["link \"l\"", attribute]);
        assert!(
            matches!(
                e.kind(),
                RobotErrorKind::BadValue { .. } | RobotErrorKind::MissingAttribute { .. }
            ),
            "{e}"
        );
    }
    let e = urdf_error_at(
        "<robot name=\"r\">\n<link name=\"l\">\n<collision/>\n</link>\n</robot>",
        3,
        &["<geometry>"],
    );
    assert!(matches!(
        e.kind(),
        RobotErrorKind::MissingElement {
            child: "geometry",
            ..
        }
    ));
}

#[test]
fn missing_and_unresolved_meshes() {
    let dir = std::env::temp_dir().join(format!("clash_robot_missing_mesh_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let urdf = "<robot name=\"r\">\n<link name=\"hand\">\n<collision>\n<geometry>\n\
        <mesh filename=\"meshes/nowhere.stl\"/>\n</geometry>\n</collision>\n</link>\n</robot>";
    let path = dir.join("r.urdf");
    std::fs::write(&path, urdf).unwrap();
    let e = Robot::from_urdf_file(&path, &PackageMap::new()).unwrap_err();
    check_message(
        &e,
        &path.display().to_string(),
        3,
        &["link \"hand\"", "nowhere.stl"],
    );
    let RobotErrorKind::Mesh { source, .. } = e.kind() else {
        panic!("{e}")
    };
    let MeshFileError::Io { path: mesh, source } = source else {
        panic!("{source}")
    };
    assert_eq!(mesh, &dir.join("meshes/nowhere.stl"));
    assert_eq!(source.kind(), std::io::ErrorKind::NotFound);

    // A mesh that exists but is malformed.
    std::fs::create_dir_all(dir.join("meshes")).unwrap();
    std::fs::write(
        dir.join("meshes/nowhere.stl"),
        "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 zero\n",
    )
    .unwrap();
    let e = Robot::from_urdf_file(&path, &PackageMap::new()).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            RobotErrorKind::Mesh {
                source: MeshFileError::Parse { .. },
                ..
            }
        ),
        "{e}"
    );
    // A format the loaders do not read.
    std::fs::write(dir.join("meshes/hand.dae"), "<COLLADA/>").unwrap();
    std::fs::write(&path, urdf.replace("nowhere.stl", "hand.dae")).unwrap();
    let e = Robot::from_urdf_file(&path, &PackageMap::new()).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            RobotErrorKind::Mesh {
                source: MeshFileError::UnknownFormat { .. },
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string().contains("link \"hand\"") && e.to_string().contains("hand.dae"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // The shipped Panda without a package map, and with one to a wrong folder.
    let panda = robots_dir().join("panda/urdf/panda.urdf");
    let e = Robot::from_urdf_file(&panda, &PackageMap::new()).unwrap_err();
    check_message(
        &e,
        &panda.display().to_string(),
        13,
        &[
            "link \"panda_link0\"",
            "example-robot-data",
            "ROS_PACKAGE_PATH",
        ],
    );
    assert!(matches!(e.kind(), RobotErrorKind::MeshPath { .. }));
    let wrong = PackageMap::new().with("example-robot-data", robots_dir());
    let e = Robot::from_urdf_file(&panda, &wrong).unwrap_err();
    assert!(
        e.to_string()
            .contains("panda_description/meshes/collision/link0.stl"),
        "{e}"
    );

    let urdf = "<robot name=\"r\">\n<link name=\"l\"><collision><geometry>\n\
        <mesh filename=\"https://example.invalid/a.stl\"/></geometry></collision></link></robot>";
    let e = urdf_error_at(urdf, 2, &["link \"l\"", "https"]);
    assert!(matches!(e.kind(), RobotErrorKind::MeshPath { .. }));

    let e =
        Robot::from_urdf_file(robots_dir().join("no_such.urdf"), &PackageMap::new()).unwrap_err();
    assert!(matches!(e.kind(), RobotErrorKind::Io(_)));
    assert!(e.to_string().contains("no_such.urdf"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// The primitive Panda with bytes replaced or cut: an answer or an
    /// error, never a panic.
    #[test]
    fn mangled_urdfs_never_panic(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
                                 cut in any::<prop::sample::Index>(), truncate in any::<bool>()) {
        let text = std::fs::read(robots_dir().join("panda/urdf/panda_collision.urdf")).unwrap();
        let mut bytes = text.clone();
        for (at, byte) in edits {
            let i = at.index(bytes.len());
            bytes[i] = b" <>/=\"01.-e9nafxyz"[byte as usize % 18];
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len()));
        }
        let text = String::from_utf8_lossy(&bytes);
        match Robot::from_urdf_str(&text, ".", &PackageMap::new()) {
            Ok(robot) => {
                let q = vec![0.0; robot.dof()];
                let fine = matches!(robot.poses(&q), Ok(_) | Err(JointError::NonFinitePose { .. }));
                prop_assert!(fine);
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
