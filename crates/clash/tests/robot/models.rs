//! The shipped robots as loaded: links, joints, limits, mimics, collision
//! elements; the sampler and the joint-vector container.

use crate::common::{panda, panda_primitives, ur5};
use clash::robot::{
    CollisionGeometry, ConfigurationSampler, Configurations, JointKind, JointSource,
};

fn names<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    names.collect()
}

#[test]
fn panda_model() {
    let r = panda();
    assert_eq!(r.name(), "panda");
    assert_eq!(r.links().len(), 13);
    assert_eq!(r.joints().len(), 12);
    assert_eq!(r.links()[r.root()].name, "panda_link0");
    let dofs = names(r.dof_joints().iter().map(|&j| r.joints()[j].name.as_str()));
    assert_eq!(
        dofs,
        [
            "panda_joint1",
            "panda_joint2",
            "panda_joint3",
            "panda_joint4",
            "panda_joint5",
            "panda_joint6",
            "panda_joint7",
            "panda_finger_joint1"
        ]
    );
    let j4 = &r.joints()[r.joint_index("panda_joint4").unwrap()];
    assert_eq!(j4.kind, JointKind::Revolute);
    let l = j4.limits.unwrap();
    assert_eq!((l.lower, l.upper), (-3.0718, -0.0698));
    let f2 = &r.joints()[r.joint_index("panda_finger_joint2").unwrap()];
    let mimic = f2.mimic.unwrap();
    assert_eq!(r.joints()[mimic.leader].name, "panda_finger_joint1");
    assert_eq!((mimic.multiplier, mimic.offset), (1.0, 0.0));
    assert_eq!(
        f2.source,
        JointSource::Mimic {
            dof: 7,
            multiplier: 1.0,
            offset: 0.0
        }
    );
    assert_eq!(f2.axis.into_inner(), nalgebra::Vector3::new(0.0, -1.0, 0.0));

    // 9 meshes (links 0-7 and the hand) and 4 boxes per finger.
    let elements = r.collision_elements();
    assert_eq!(elements.len(), 17);
    let meshes = elements
        .iter()
        .filter(|e| matches!(e.geometry, CollisionGeometry::Mesh { .. }))
        .count();
    assert_eq!(meshes, 9);
    let left = r.link_index("panda_leftfinger").unwrap();
    let range = r.links()[left].collisions.clone();
    assert_eq!(range.len(), 4);
    for e in &elements[range] {
        assert_eq!(e.link, left);
    }
    let CollisionGeometry::Box { half_extents } =
        elements[r.links()[left].collisions.start].geometry
    else {
        panic!()
    };
    assert_eq!(half_extents, nalgebra::Vector3::new(11e-3, 7.5e-3, 10e-3));
    // Links without collision elements.
    for name in ["panda_link8", "panda_hand_tcp"] {
        assert!(r.links()[r.link_index(name).unwrap()].collisions.is_empty());
    }
    assert!(r.are_adjacent(
        r.link_index("panda_link3").unwrap(),
        r.link_index("panda_link4").unwrap()
    ));
    assert!(!r.are_adjacent(
        r.link_index("panda_link3").unwrap(),
        r.link_index("panda_link5").unwrap()
    ));
}

#[test]
fn panda_primitive_model() {
    let r = panda_primitives();
    let elements = r.collision_elements();
    let spheres = elements
        .iter()
        .filter(|e| matches!(e.geometry, CollisionGeometry::Sphere { .. }))
        .count();
    let cylinders = elements
        .iter()
        .filter(|e| matches!(e.geometry, CollisionGeometry::Cylinder { .. }))
        .count();
    assert_eq!((spheres, cylinders, elements.len()), (26, 13, 39));
    // Link 0's first element: a cylinder of radius 0.09 and length 0.03,
    // turned a quarter about y, at (-0.075, 0, 0.06).
    let first = &elements[0];
    assert!(matches!(
        first.geometry,
        CollisionGeometry::Cylinder {
            radius: 0.09,
            length: 0.03
        }
    ));
    assert_eq!(
        first.origin.translation.vector,
        nalgebra::Vector3::new(-0.075, 0.0, 0.06)
    );
    let z = first.origin.rotation * nalgebra::Vector3::z();
    assert!((z - nalgebra::Vector3::x()).norm() < 1e-15);
    assert_eq!(r.dof(), 8);
}

#[test]
fn ur5_model() {
    let r = ur5();
    assert_eq!(r.links()[r.root()].name, "world");
    let dofs = names(r.dof_joints().iter().map(|&j| r.joints()[j].name.as_str()));
    assert_eq!(
        dofs,
        [
            "shoulder_pan_joint",
            "shoulder_lift_joint",
            "elbow_joint",
            "wrist_1_joint",
            "wrist_2_joint",
            "wrist_3_joint"
        ]
    );
    let elements = r.collision_elements();
    assert_eq!(elements.len(), 8);
    let ee = elements.last().unwrap();
    assert_eq!(r.links()[ee.link].name, "ee_link");
    assert!(
        matches!(ee.geometry, CollisionGeometry::Box { half_extents } if half_extents == nalgebra::Vector3::repeat(0.005))
    );
    let order = r.kinematic_order();
    assert_eq!(order.len(), r.joints().len());
    // Parents first: each joint's parent link is the root or the child of an earlier joint.
    for (k, &j) in order.iter().enumerate() {
        let parent = r.joints()[j].parent;
        assert!(parent == r.root() || order[..k].iter().any(|&i| r.joints()[i].child == parent));
    }
}

#[test]
fn sampler_stays_within_limits_and_is_reproducible() {
    for r in [panda(), ur5()] {
        let configs = ConfigurationSampler::new(&r, 11).sample_many(2000);
        assert_eq!(configs.len(), 2000);
        assert_eq!(configs.dof(), r.dof());
        for q in configs.iter() {
            r.check_limits(q).unwrap();
        }
        assert_eq!(configs, ConfigurationSampler::new(&r, 11).sample_many(2000));
        assert_ne!(configs, ConfigurationSampler::new(&r, 12).sample_many(2000));
        // Each joint's samples spread over its range: the extremes of 2000
        // uniform draws lie within 1% of the range of its bounds.
        for (k, &j) in r.dof_joints().iter().enumerate() {
            let l = r.joints()[j].limits.unwrap();
            let values: Vec<f64> = configs.iter().map(|q| q[k]).collect();
            let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let span = l.upper - l.lower;
            assert!(
                lo - l.lower < 0.01 * span && l.upper - hi < 0.01 * span,
                "{} {lo} {hi}",
                r.joints()[j].name
            );
        }
    }
    // Continuous joints within [-π, π]; a joint whose limits are equal.
    let r = clash::robot::Robot::from_urdf_str(
        r#"<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
        <joint name="w" type="continuous"><parent link="a"/><child link="b"/></joint>
        <joint name="p" type="prismatic"><parent link="b"/><child link="c"/><limit lower="0.5" upper="0.5"/></joint>
        </robot>"#,
        ".",
        &clash::robot::PackageMap::new(),
    )
    .unwrap();
    let mut sampler = ConfigurationSampler::new(&r, 0);
    for _ in 0..1000 {
        let q = sampler.sample();
        assert!((-std::f64::consts::PI..=std::f64::consts::PI).contains(&q[0]));
        assert_eq!(q[1], 0.5);
    }
}

#[test]
fn configurations_container() {
    let mut c = Configurations::new(2);
    assert!(c.is_empty());
    c.push(&[1.0, 2.0]);
    c.push(&[3.0, 4.0]);
    assert_eq!(c.len(), 2);
    assert_eq!(c.get(1), Some(&[3.0, 4.0][..]));
    assert_eq!(c.get(2), None);
    assert_eq!(c.as_slice(), [1.0, 2.0, 3.0, 4.0]);
    let mut none = Configurations::new(0);
    none.push(&[]);
    none.push(&[]);
    assert_eq!(none.iter().count(), 2);
    assert_eq!(none.get(1), Some(&[][..]));
}

#[test]
fn models_are_shared_across_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<clash::robot::Robot>();
    send_sync::<clash::robot::RobotPoses>();
    send_sync::<clash::robot::AllowedCollisionMatrix>();
    send_sync::<clash::robot::RobotError>();
    send_sync::<clash::robot::ConfigsError>();
}
