//! The Panda's forward kinematics against Craig's modified Denavit-Hartenberg
//! parameters published by Franka Emika (robot and interface
//! specifications, "Denavit-Hartenberg parameters"), computed by a plain
//! chain of 4x4 matrices.
//!
//! Modified DH (Craig, *Introduction to Robotics*, §3.4): frame `i` is
//! frame `i-1` times `RotX(α) TransX(a) RotZ(θ_i) TransZ(d)`, with row `i`
//! of the table giving `a`, `d`, `α`. The URDF's frames `panda_link0` to
//! `panda_link7` are the DH frames 0 to 7 exactly (each joint's URDF origin
//! is `TransX(a) RotX(α) TransZ(d)` regrouped: `xyz = (a, -d sin α, d cos α)`,
//! `rpy = (α, 0, 0)`), and `panda_link8` is the flange frame. The fixed
//! transforms between URDF links and DH frames are therefore identities;
//! the hand is the flange turned by -π/4 about `z`, each finger the hand
//! moved 0.0584 up `z` and by the finger's position along `±y`.

use crate::common::{
    M4, deviation, identity, mul, panda, panda_primitives, random_configurations, rot_x, rot_z,
    trans,
};
use clash::robot::{Robot, RobotPoses};
use std::f64::consts::FRAC_PI_2;

/// `(a, d, α)` of joints 1 to 7, then the flange (θ = 0).
const DH: [(f64, f64, f64); 8] = [
    (0.0, 0.333, 0.0),
    (0.0, 0.0, -FRAC_PI_2),
    (0.0, 0.316, FRAC_PI_2),
    (0.0825, 0.0, FRAC_PI_2),
    (-0.0825, 0.384, -FRAC_PI_2),
    (0.0, 0.0, FRAC_PI_2),
    (0.088, 0.0, FRAC_PI_2),
    (0.0, 0.107, 0.0),
];

/// The DH frames 1 to 8 (8: the flange) for the arm's seven angles.
fn dh_frames(theta: &[f64]) -> Vec<M4> {
    let mut t = identity();
    DH.iter()
        .enumerate()
        .map(|(i, &(a, d, alpha))| {
            let th = theta.get(i).copied().unwrap_or(0.0);
            let step = mul(
                &mul(&rot_x(alpha), &trans(a, 0.0, 0.0)),
                &mul(&rot_z(th), &trans(0.0, 0.0, d)),
            );
            t = mul(&t, &step);
            t
        })
        .collect()
}

/// Checks every arm link, the hand and the fingers of `robot` at `q`.
fn check(robot: &Robot, q: &[f64]) {
    let poses = robot.poses(q).unwrap();
    let frames = dh_frames(&q[..7]);
    let link = |name: &str| poses.links()[robot.link_index(name).unwrap()];
    assert!(deviation(&link("panda_link0"), &identity()) == 0.0);
    for (i, frame) in frames.iter().enumerate() {
        let name = format!("panda_link{}", i + 1);
        let d = deviation(&link(&name), frame);
        assert!(d < 1e-14, "{name} at {q:?}: {d:e}");
    }
    let hand = mul(&frames[7], &rot_z(-std::f64::consts::FRAC_PI_4));
    assert!(deviation(&link("panda_hand"), &hand) < 1e-14);
    let finger = q[7];
    let left = mul(&hand, &trans(0.0, finger, 0.0584));
    let right = mul(&hand, &trans(0.0, -finger, 0.0584)); // the mimic: axis -y, multiplier 1
    assert!(deviation(&link("panda_leftfinger"), &left) < 1e-14);
    assert!(deviation(&link("panda_rightfinger"), &right) < 1e-14);
    assert!(
        deviation(
            &link("panda_hand_tcp"),
            &mul(&hand, &trans(0.0, 0.0, 0.1034))
        ) < 1e-14
    );
}

#[test]
fn panda_matches_modified_dh_at_zero_and_random_configurations() {
    for robot in [panda(), panda_primitives()] {
        check(&robot, &[0.0; 8]);
        for q in random_configurations(&robot, 50, 1) {
            check(&robot, &q);
        }
    }
}

/// Worked by hand from the table: at zero the arm stands up, link 4's
/// offset steps out by 0.0825 and back, link 7 points down.
#[test]
fn panda_flange_at_zero_worked_by_hand() {
    let robot = panda();
    let poses = robot.poses(&[0.0; 8]).unwrap();
    let flange = poses.links()[robot.link_index("panda_link8").unwrap()];
    // x = 0.0825 - 0.0825 + 0.088, z = 0.333 + 0.316 + 0.384 - 0.107.
    let expected = nalgebra::Vector3::new(0.088, 0.0, 0.926);
    assert!(
        (flange.translation.vector - expected).amax() < 1e-15,
        "{flange:?}"
    );
    // The flange's z axis points down.
    let z = flange.rotation * nalgebra::Vector3::z();
    assert!((z - nalgebra::Vector3::new(0.0, 0.0, -1.0)).norm() < 1e-15);

    // Joint 1 turned a quarter: the flange swings from +x to +y.
    let mut q = [0.0; 8];
    q[0] = FRAC_PI_2;
    let poses = robot.poses(&q).unwrap();
    let flange = poses.links()[robot.link_index("panda_link8").unwrap()];
    let expected = nalgebra::Vector3::new(0.0, 0.088, 0.926);
    assert!(
        (flange.translation.vector - expected).amax() < 1e-15,
        "{flange:?}"
    );
}

#[test]
fn panda_collision_elements_follow_their_links() {
    let robot = panda();
    let mut poses = RobotPoses::new(&robot);
    for q in random_configurations(&robot, 20, 2) {
        robot.forward_kinematics(&q, &mut poses).unwrap();
        for (k, element) in robot.collision_elements().iter().enumerate() {
            let expected = poses.links()[element.link] * element.origin;
            assert_eq!(poses.collisions()[k], expected);
        }
        // The finger boxes by hand: the left finger's screw mount at
        // (0, 18.5e-3, 11e-3) in the finger's frame.
        let left = robot.link_index("panda_leftfinger").unwrap();
        let first = robot.links()[left].collisions.start;
        let finger = poses.links()[left];
        let mount = poses.collisions()[first].translation.vector;
        let by_hand = finger * nalgebra::Point3::new(0.0, 18.5e-3, 11e-3);
        assert!((mount - by_hand.coords).norm() < 1e-15);
    }
}
