//! Forward kinematics of small URDFs, worked by hand: single joints turned
//! or slid by known amounts, origins with roll-pitch-yaw, mimic rules,
//! branches, and the errors of bad joint vectors.

use crate::common::{deviation, mul, rot_x, rot_z, trans};
use clash::robot::{JointError, JointKind, JointSource, PackageMap, Robot, RobotPoses};
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use std::f64::consts::{FRAC_PI_2, PI};

fn robot(urdf: &str) -> Robot {
    Robot::from_urdf_str(urdf, ".", &PackageMap::new()).unwrap()
}

fn close(a: Point3<f64>, b: [f64; 3]) -> bool {
    (a - Point3::from(b)).norm() < 1e-15
}

#[test]
fn a_revolute_joint_turned_a_quarter() {
    let r = robot(
        r#"<robot name="r"><link name="a"/>
        <link name="b"><collision><origin xyz="0.5 0 0"/><geometry><box size="1 2 3"/></geometry></collision></link>
        <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
          <origin xyz="1 0 0"/><axis xyz="0 0 1"/><limit lower="-3" upper="3"/></joint></robot>"#,
    );
    let poses = r.poses(&[FRAC_PI_2]).unwrap();
    let b = poses.links()[1];
    assert!(close(b * Point3::origin(), [1.0, 0.0, 0.0]));
    assert!(close(b * Point3::new(1.0, 0.0, 0.0), [1.0, 1.0, 0.0]));
    assert!(close(b * Point3::new(0.0, 1.0, 0.0), [0.0, 0.0, 0.0]));
    // The box's centre, 0.5 along b's x, which now points along y.
    assert!(close(
        poses.collisions()[0] * Point3::origin(),
        [1.0, 0.5, 0.0]
    ));
    // A negative quarter turns the other way.
    let poses = r.poses(&[-FRAC_PI_2]).unwrap();
    assert!(close(
        poses.links()[1] * Point3::new(1.0, 0.0, 0.0),
        [1.0, -1.0, 0.0]
    ));
}

#[test]
fn a_prismatic_joint_slides_along_its_axis_in_the_child_frame() {
    // Rolled a quarter about x, the child's z is the parent's -y; the axis
    // "0 0 2" is normalised.
    let r = robot(
        r#"<robot name="r"><link name="a"/><link name="b"/>
        <joint name="slide" type="prismatic"><parent link="a"/><child link="b"/>
          <origin xyz="0 0 1" rpy="1.5707963267948966 0 0"/><axis xyz="0 0 2"/>
          <limit lower="0" upper="1"/></joint></robot>"#,
    );
    assert_eq!(r.joints()[0].kind, JointKind::Prismatic);
    let poses = r.poses(&[0.3]).unwrap();
    assert!(close(poses.links()[1] * Point3::origin(), [0.0, -0.3, 1.0]));
}

#[test]
fn a_continuous_joint_is_periodic_and_unbounded() {
    let r = robot(
        r#"<robot name="r"><link name="a"/><link name="b"/>
        <joint name="wheel" type="continuous"><parent link="a"/><child link="b"/>
          <axis xyz="0 1 0"/></joint></robot>"#,
    );
    assert!(r.joints()[0].limits.is_none());
    assert!(r.check_limits(&[1e6]).is_ok());
    let a = r.poses(&[3.0 * FRAC_PI_2]).unwrap().links()[1];
    let b = r.poses(&[-FRAC_PI_2]).unwrap().links()[1];
    assert!((a.to_homogeneous() - b.to_homogeneous()).amax() < 1e-15);
    // About y by -π/2: x goes to +z.
    assert!(close(b * Point3::new(1.0, 0.0, 0.0), [0.0, 0.0, 1.0]));
}

#[test]
fn origin_roll_pitch_yaw_is_rz_ry_rx() {
    let (roll, pitch, yaw) = (0.3, -1.1, 2.5);
    let r = robot(&format!(
        r#"<robot name="r"><link name="a"/><link name="b"/>
        <joint name="f" type="fixed"><parent link="a"/><child link="b"/>
          <origin xyz="1 2 3" rpy="{roll} {pitch} {yaw}"/></joint></robot>"#
    ));
    assert_eq!(r.dof(), 0);
    let pose = r.poses(&[]).unwrap().links()[1];
    // Ry by plain matrices: Rx conjugated by Rz(π/2) would do, but write it out.
    let (s, c) = f64::sin_cos(pitch);
    let ry = [
        [c, 0.0, s, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [-s, 0.0, c, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let expected = mul(
        &mul(&trans(1.0, 2.0, 3.0), &rot_z(yaw)),
        &mul(&ry, &rot_x(roll)),
    );
    assert!(deviation(&pose, &expected) < 1e-15);
}

#[test]
fn mimic_joints_follow_multiplier_times_leader_plus_offset() {
    // j2 = -2 j1 + 0.1; j3 = 3 j2 + 1 (a chain); j4 is a free joint after them.
    let r = robot(
        r#"<robot name="r"><link name="a"/><link name="b"/><link name="c"/><link name="d"/><link name="e"/>
        <joint name="j1" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/><limit lower="-1" upper="1"/></joint>
        <joint name="j2" type="revolute"><parent link="a"/><child link="c"/><axis xyz="0 0 1"/><limit lower="-5" upper="5"/>
          <mimic joint="j1" multiplier="-2" offset="0.1"/></joint>
        <joint name="j3" type="prismatic"><parent link="a"/><child link="d"/><axis xyz="1 0 0"/><limit lower="-9" upper="9"/>
          <mimic joint="j2" multiplier="3" offset="1"/></joint>
        <joint name="j4" type="prismatic"><parent link="a"/><child link="e"/><axis xyz="0 1 0"/><limit lower="-1" upper="1"/></joint>
        </robot>"#,
    );
    assert_eq!(r.dof(), 2);
    let names: Vec<&str> = r
        .dof_joints()
        .iter()
        .map(|&j| r.joints()[j].name.as_str())
        .collect();
    assert_eq!(names, ["j1", "j4"]);
    assert_eq!(r.joints()[1].mimic.unwrap().leader, 0);
    assert_eq!(r.joints()[2].mimic.unwrap().leader, 1);
    match r.joints()[2].source {
        JointSource::Mimic {
            dof,
            multiplier,
            offset,
        } => {
            assert_eq!((dof, multiplier, offset), (0, -6.0, 1.3));
        }
        other => panic!("{other:?}"),
    }
    let q1 = 0.25;
    let poses = r.poses(&[q1, 0.5]).unwrap();
    let j2 = -2.0 * q1 + 0.1;
    let c = poses.links()[2];
    assert!(close(
        c * Point3::new(1.0, 0.0, 0.0),
        [j2.cos(), j2.sin(), 0.0]
    ));
    let j3 = 3.0 * j2 + 1.0;
    assert!((poses.links()[3].translation.vector - Vector3::new(j3, 0.0, 0.0)).norm() < 1e-15);
    assert!(close(poses.links()[4] * Point3::origin(), [0.0, 0.5, 0.0]));
}

#[test]
fn joint_vector_follows_the_urdf_order_and_links_any_order() {
    // Children listed before parents, joints before the links they name,
    // and the file's joint order (tip first) differs from the tree's.
    let r = robot(
        r#"<robot name="r">
        <joint name="tip" type="prismatic"><parent link="mid"/><child link="end"/><axis xyz="0 0 1"/><limit lower="0" upper="1"/></joint>
        <link name="end"/>
        <joint name="base" type="revolute"><parent link="root"/><child link="mid"/><origin xyz="1 0 0"/><axis xyz="0 0 1"/><limit lower="-4" upper="4"/></joint>
        <link name="mid"/><link name="root"/>
        </robot>"#,
    );
    assert_eq!(r.links()[r.root()].name, "root");
    assert_eq!(r.kinematic_order(), [1, 0]);
    assert_eq!(r.dof_joints(), [0, 1]); // tip, then base
    let poses = r.poses(&[0.5, PI]).unwrap();
    let end = poses.links()[r.link_index("end").unwrap()];
    assert!(close(end * Point3::origin(), [1.0, 0.0, 0.5]));
    assert!(close(end * Point3::new(1.0, 0.0, 0.0), [0.0, 0.0, 0.5]));
}

#[test]
fn a_base_pose_places_the_root() {
    let r = robot(
        r#"<robot name="r"><link name="a"/><link name="b"/>
        <joint name="j" type="revolute"><parent link="a"/><child link="b"/><origin xyz="1 0 0"/>
          <axis xyz="0 0 1"/><limit lower="-3" upper="3"/></joint></robot>"#,
    );
    let base = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, 2.0),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), FRAC_PI_2),
    );
    let mut poses = RobotPoses::new(&r);
    r.forward_kinematics_from(&base, &[0.0], &mut poses)
        .unwrap();
    assert_eq!(poses.links()[0], base);
    assert!(close(poses.links()[1] * Point3::origin(), [0.0, 1.0, 2.0]));
    let nan_base = Isometry3::translation(f64::NAN, 0.0, 0.0);
    assert!(matches!(
        r.forward_kinematics_from(&nan_base, &[0.0], &mut poses),
        Err(JointError::NonFinitePose { .. })
    ));
}

#[test]
fn bad_joint_vectors_are_typed_errors_naming_the_joint() {
    let r = robot(
        r#"<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
        <joint name="turn" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1"/></joint>
        <joint name="slide" type="prismatic"><parent link="b"/><child link="c"/><limit lower="0" upper="0.5"/></joint>
        </robot>"#,
    );
    let mut poses = RobotPoses::new(&r);
    let before = poses.clone();
    assert_eq!(
        r.forward_kinematics(&[0.0], &mut poses),
        Err(JointError::WrongLength {
            expected: 2,
            found: 1
        })
    );
    assert!(matches!(
        r.forward_kinematics(&[0.0, f64::NAN], &mut poses),
        Err(JointError::NonFinite { joint, .. }) if joint == "slide"
    ));
    assert!(matches!(
        r.forward_kinematics(&[f64::INFINITY, 0.0], &mut poses),
        Err(JointError::NonFinite { joint, .. }) if joint == "turn"
    ));
    assert_eq!(
        poses, before,
        "a refused vector leaves the buffer as it was"
    );
    // Finite values so large that the second slide's translation overflows.
    let two = robot(
        r#"<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
        <joint name="s1" type="prismatic"><parent link="a"/><child link="b"/><limit lower="0" upper="1"/></joint>
        <joint name="s2" type="prismatic"><parent link="b"/><child link="c"/><limit lower="0" upper="1"/></joint>
        </robot>"#,
    );
    let mut poses2 = RobotPoses::new(&two);
    assert!(
        two.forward_kinematics(&[f64::MAX, 0.0], &mut poses2)
            .is_ok()
    );
    assert_eq!(
        two.forward_kinematics(&[f64::MAX, f64::MAX], &mut poses2),
        Err(JointError::NonFinitePose { link: "c".into() })
    );

    // Limits: bounds included, the first joint outside named.
    assert!(r.check_limits(&[-1.0, 0.5]).is_ok());
    assert_eq!(
        r.check_limits(&[1.0 + 1e-12, 0.0]),
        Err(JointError::OutOfLimits {
            joint: "turn".into(),
            value: 1.0 + 1e-12,
            lower: -1.0,
            upper: 1.0
        })
    );
    assert!(
        matches!(r.check_limits(&[0.0, -0.1]), Err(JointError::OutOfLimits { joint, .. }) if joint == "slide")
    );
    assert!(r.check_limits(&[0.0]).is_err());
}

#[test]
fn forward_kinematics_reuses_its_buffer() {
    let r = crate::common::panda();
    let mut poses = RobotPoses::new(&r);
    let links = poses.links().as_ptr();
    let collisions = poses.collisions().as_ptr();
    let mut sampler = clash::robot::ConfigurationSampler::new(&r, 5);
    for _ in 0..100 {
        let q = sampler.sample();
        r.forward_kinematics(&q, &mut poses).unwrap();
    }
    assert_eq!(poses.links().as_ptr(), links);
    assert_eq!(poses.collisions().as_ptr(), collisions);
    // A default (empty) buffer is sized on first use and matches a fresh one.
    let q = sampler.sample();
    let mut empty = RobotPoses::default();
    r.forward_kinematics(&q, &mut empty).unwrap();
    assert_eq!(empty, r.poses(&q).unwrap());
}

#[test]
fn a_mimic_on_a_fixed_joint_is_ignored() {
    let r = robot(
        r#"<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
        <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1"/></joint>
        <joint name="f" type="fixed"><parent link="b"/><child link="c"/><mimic joint="j"/></joint></robot>"#,
    );
    assert!(r.joints()[1].mimic.is_none());
    assert_eq!(r.joints()[1].source, JointSource::None);
    assert_eq!(r.dof(), 1);
}
