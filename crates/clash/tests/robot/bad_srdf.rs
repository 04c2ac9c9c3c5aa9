//! Bad SRDFs: unknown link and joint names, malformed XML, missing
//! attributes: each a typed error naming the element and line.

use crate::common::{check_message, panda, robots_dir};
use clash::robot::{RobotErrorKind, Srdf};

#[test]
fn unknown_links_name_the_element() {
    let r = panda();
    let srdf = "<robot name=\"panda\">\n\
        <disable_collisions link1=\"panda_link1\" link2=\"panda_link2\"/>\n\
        <disable_collisions link1=\"panda_link1\" link2=\"panda_link99\" reason=\"Never\"/>\n</robot>";
    let e = Srdf::from_str(srdf, &r).unwrap_err();
    check_message(
        &e,
        "<memory>",
        3,
        &["disable_collisions", "link2", "\"panda_link99\""],
    );
    assert!(matches!(e.kind(), RobotErrorKind::UnknownLink { link, .. } if link == "panda_link99"));

    let e = Srdf::from_str(
        "<robot>\n<disable_default_collisions link=\"gripper\"/></robot>",
        &r,
    )
    .unwrap_err();
    check_message(
        &e,
        "<memory>",
        2,
        &["disable_default_collisions", "\"gripper\""],
    );
    let e = Srdf::from_str(
        "<robot>\n\n<enable_collisions link1=\"x\" link2=\"panda_hand\"/></robot>",
        &r,
    )
    .unwrap_err();
    check_message(&e, "<memory>", 3, &["enable_collisions", "link1", "\"x\""]);
}

#[test]
fn missing_attributes_unknown_joints_and_bad_values() {
    let r = panda();
    let e = Srdf::from_str(
        "<robot>\n<disable_collisions link1=\"panda_link1\"/></robot>",
        &r,
    )
    .unwrap_err();
    check_message(&e, "<memory>", 2, &["disable_collisions", "\"link2\""]);
    assert!(matches!(
        e.kind(),
        RobotErrorKind::MissingAttribute {
            attribute: "link2",
            ..
        }
    ));

    let state = |joint: &str, value: &str| {
        format!(
            "<robot>\n<group_state name=\"s\" group=\"arm\">\n<joint name=\"{joint}\" value=\"{value}\"/>\n</group_state></robot>"
        )
    };
    let e = Srdf::from_str(&state("elbow", "0"), &r).unwrap_err();
    check_message(&e, "<memory>", 3, &["group_state", "\"s\"", "\"elbow\""]);
    assert!(matches!(e.kind(), RobotErrorKind::UnknownJoint { joint, .. } if joint == "elbow"));
    let e = Srdf::from_str(&state("panda_joint1", "nan"), &r).unwrap_err();
    assert!(matches!(e.kind(), RobotErrorKind::NonFinite { .. }), "{e}");
    assert_eq!(e.line(), Some(3));
    let e = Srdf::from_str(&state("panda_joint1", "0 1"), &r).unwrap_err();
    assert!(matches!(e.kind(), RobotErrorKind::BadValue { .. }), "{e}");
}

#[test]
fn malformed_srdfs() {
    let r = panda();
    let e = Srdf::from_str(
        "<robot>\n<disable_collisions link1=\"a\" link2=\"b\">\n</robot>",
        &r,
    )
    .unwrap_err();
    assert!(matches!(e.kind(), RobotErrorKind::Xml { .. }), "{e}");
    assert_eq!(e.line(), Some(3));
    let e = Srdf::from_str("<srdf/>", &r).unwrap_err();
    assert!(matches!(e.kind(), RobotErrorKind::NotARobot { .. }));
    let missing = robots_dir().join("panda/srdf/missing.srdf");
    let e = Srdf::from_file(&missing, &r).unwrap_err();
    assert!(matches!(e.kind(), RobotErrorKind::Io(_)));
    assert!(e.to_string().starts_with(&missing.display().to_string()));
    // The UR5's SRDF names links the Panda does not have.
    let e = Srdf::from_file(robots_dir().join("ur5/srdf/ur5.srdf"), &r).unwrap_err();
    check_message(
        &e,
        &robots_dir().join("ur5/srdf/ur5.srdf").display().to_string(),
        14,
        &["\"base_link\""],
    );
}
