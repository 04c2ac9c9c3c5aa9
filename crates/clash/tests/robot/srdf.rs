//! SRDFs: the shipped pairs, defaults and re-enabled pairs, group states.

use crate::common::{panda, robots_dir, ur5};
use clash::robot::{PackageMap, Robot, Srdf};
use std::collections::BTreeSet;

/// The `link1`/`link2` pairs of every `<disable_collisions>` line, read
/// with plain string search (independent of the XML parser).
fn pairs_by_text(path: &std::path::Path) -> BTreeSet<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let attr = |line: &str, name: &str| {
        let start = line.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        line[start..].split('"').next().unwrap().to_string()
    };
    text.lines()
        .filter(|l| l.contains("<disable_collisions"))
        .map(|l| {
            let (a, b) = (attr(l, "link1"), attr(l, "link2"));
            if a < b { (a, b) } else { (b, a) }
        })
        .collect()
}

fn check_shipped(robot: &Robot, srdf: &std::path::Path, expected_pairs: usize) {
    let parsed = Srdf::from_file(srdf, robot).unwrap();
    let acm = parsed.allowed_collisions();
    assert_eq!(acm.num_links(), robot.links().len());
    let allowed: BTreeSet<(String, String)> = acm
        .allowed_pairs()
        .map(|(a, b)| {
            let (a, b) = (robot.links()[a].name.clone(), robot.links()[b].name.clone());
            if a < b { (a, b) } else { (b, a) }
        })
        .collect();
    let by_text = pairs_by_text(srdf);
    assert_eq!(by_text.len(), expected_pairs);
    assert_eq!(allowed, by_text);
    for (a, b) in acm.allowed_pairs() {
        assert!(acm.is_allowed(b, a));
    }
    assert_eq!(parsed.pairs.len(), expected_pairs);
    assert!(parsed.pairs.iter().all(|p| p.disabled));
}

#[test]
fn shipped_srdfs() {
    check_shipped(&panda(), &robots_dir().join("panda/srdf/panda.srdf"), 35);
    check_shipped(&ur5(), &robots_dir().join("ur5/srdf/ur5.srdf"), 10);

    let r = panda();
    let srdf = Srdf::from_file(robots_dir().join("panda/srdf/panda.srdf"), &r).unwrap();
    assert_eq!(srdf.name, "panda");
    let first = &srdf.pairs[0];
    assert_eq!(r.links()[first.link1].name, "panda_hand");
    assert_eq!(r.links()[first.link2].name, "panda_leftfinger");
    assert_eq!(first.reason.as_deref(), Some("Adjacent"));
    // The "default" group state: seven arm joints and the first finger.
    assert_eq!(srdf.group_states.len(), 1);
    let state = &srdf.group_states[0];
    assert_eq!(
        (state.name.as_str(), state.group.as_str()),
        ("default", "arm_and_hand")
    );
    assert_eq!(state.joints.len(), 8);
    let j4 = r.joint_index("panda_joint4").unwrap();
    assert!(state.joints.contains(&(j4, -2.35619)));
}

#[test]
fn default_disabled_links_and_re_enabled_pairs() {
    let r = Robot::from_urdf_str(
        r#"<robot name="r"><link name="a"/><link name="b"/><link name="c"/><link name="d"/>
        <joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
        <joint name="bc" type="fixed"><parent link="b"/><child link="c"/></joint>
        <joint name="cd" type="fixed"><parent link="c"/><child link="d"/></joint></robot>"#,
        ".",
        &PackageMap::new(),
    )
    .unwrap();
    let srdf = Srdf::from_str(
        r#"<robot name="other">
        <group name="arm"><chain base_link="a" tip_link="d"/></group>
        <virtual_joint name="v" type="fixed" parent_frame="world" child_link="a"/>
        <enable_collisions link1="d" link2="a" reason="re-enabled"/>
        <disable_default_collisions link="d"/>
        <disable_collisions link1="a" link2="b"/>
        <enable_collisions link1="b" link2="a"/>
        <disable_collisions link1="c" link2="a"/>
        </robot>"#,
        &r,
    )
    .unwrap();
    let acm = srdf.allowed_collisions();
    // d: every pair allowed but (a, d), re-enabled; (a, b) disabled then
    // enabled again: the later element wins; (a, c) disabled.
    let pairs: Vec<(usize, usize)> = acm.allowed_pairs().collect();
    assert_eq!(pairs, [(0, 2), (1, 3), (2, 3)]);
    assert_eq!(srdf.disabled_by_default, [3]);
}
