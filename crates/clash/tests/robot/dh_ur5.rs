//! The UR5's forward kinematics against its published standard
//! Denavit-Hartenberg parameters (Universal Robots: d1 = 0.089159,
//! a2 = -0.425, a3 = -0.39225, d4 = 0.10915, d5 = 0.09465, d6 = 0.0823,
//! α = (π/2, 0, 0, π/2, -π/2, 0)), computed by a plain chain of 4x4 matrices.
//!
//! Standard DH (Spong, *Robot Modeling and Control*, §3.2): frame `i` is
//! frame `i-1` times `RotZ(θ_i) TransZ(d_i) TransX(a_i) RotX(α_i)`.
//!
//! The URDF's frames are not the DH frames; the fixed transforms between
//! them, found by comparing the two chains at several configurations and
//! read off the URDF's joint origins:
//! - DH frame 0 is the URDF link `base`, which is `base_link` turned by π
//!   about `z` (the URDF's `base_link-base_fixed_joint`);
//! - DH frame 6 (the flange) is the URDF link `tool0` exactly;
//! - link `i` of the URDF is DH frame `i` times `X_i` below (rows of the
//!   rotation, then the translation). The offsets are the URDF's shoulder
//!   (0.13585) and elbow (0.1197) offsets along `y`, which DH folds into
//!   d4 = 0.13585 - 0.1197 + 0.093, and the wrist lengths DH places at the
//!   next frame.

use crate::common::{
    M4, deviation, identity, mul, random_configurations, rigid, rot_x, rot_z, trans, ur5,
};
use clash::robot::Robot;
use std::f64::consts::{FRAC_PI_2, PI};

const D: [f64; 6] = [0.089159, 0.0, 0.0, 0.10915, 0.09465, 0.0823];
const A: [f64; 6] = [0.0, -0.425, -0.39225, 0.0, 0.0, 0.0];
const ALPHA: [f64; 6] = [FRAC_PI_2, 0.0, 0.0, FRAC_PI_2, -FRAC_PI_2, 0.0];

/// The URDF links of DH frames 1 to 6 and the fixed transforms `X_i`.
fn links_and_offsets() -> [(&'static str, M4); 6] {
    let yz_swap = [[-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]];
    let upper = [[0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    let wrist = [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]];
    let id = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    [
        ("shoulder_link", rigid(yz_swap, [0.0, 0.0, 0.0])),
        ("upper_arm_link", rigid(upper, [0.425, 0.0, 0.13585])),
        (
            "forearm_link",
            rigid(upper, [0.39225, 0.0, 0.13585 - 0.1197]),
        ),
        ("wrist_1_link", rigid(id, [0.0, -0.093, 0.0])),
        ("wrist_2_link", rigid(wrist, [0.0, 0.09465, 0.0])),
        ("wrist_3_link", rigid(wrist, [0.0, 0.0, -0.0823])),
    ]
}

fn dh_frames(theta: &[f64]) -> Vec<M4> {
    let mut t = identity();
    (0..6)
        .map(|i| {
            let step = mul(
                &mul(&rot_z(theta[i]), &trans(0.0, 0.0, D[i])),
                &mul(&trans(A[i], 0.0, 0.0), &rot_x(ALPHA[i])),
            );
            t = mul(&t, &step);
            t
        })
        .collect()
}

/// The URDF writes π/2 as 1.57079632679 and π as 3.14159265359: its frames
/// are off the exact ones by about 5e-12 radians.
const TOLERANCE: f64 = 1e-10;

fn check(robot: &Robot, q: &[f64]) {
    let poses = robot.poses(q).unwrap();
    let link = |name: &str| poses.links()[robot.link_index(name).unwrap()];
    let base = rot_z(PI);
    assert!(deviation(&link("base"), &base) < TOLERANCE);
    let frames = dh_frames(q);
    for ((name, offset), frame) in links_and_offsets().iter().zip(&frames) {
        let expected = mul(&mul(&base, frame), offset);
        let d = deviation(&link(name), &expected);
        assert!(d < TOLERANCE, "{name} at {q:?}: {d:e}");
    }
    let d = deviation(&link("tool0"), &mul(&base, &frames[5]));
    assert!(d < TOLERANCE, "tool0 at {q:?}: {d:e}");
}

#[test]
fn ur5_matches_standard_dh_at_zero_and_random_configurations() {
    let robot = ur5();
    assert_eq!(robot.dof(), 6);
    check(&robot, &[0.0; 6]);
    for q in random_configurations(&robot, 50, 3) {
        check(&robot, &q);
    }
}

/// Worked by hand from the DH table: at zero the arm lies along the DH
/// base's -x, so `tool0` is at `(a2 + a3, -(d4 + d6), d1 - d5)` in `base`,
/// `base_link` being `base` turned half a turn.
#[test]
fn ur5_tool_at_zero_worked_by_hand() {
    let robot = ur5();
    let poses = robot.poses(&[0.0; 6]).unwrap();
    let tool = poses.links()[robot.link_index("tool0").unwrap()];
    let expected = nalgebra::Vector3::new(0.425 + 0.39225, 0.10915 + 0.0823, 0.089159 - 0.09465);
    assert!(
        (tool.translation.vector - expected).amax() < TOLERANCE,
        "{tool:?}"
    );
    // The elbow turned a quarter back (q3 = -π/2): the upper arm lies along
    // base_link's x, its joint axis is y, so the forearm turns from x to
    // up, and wrist 1 sits the forearm's length above the elbow.
    let poses = robot.poses(&[0.0, 0.0, -FRAC_PI_2, 0.0, 0.0, 0.0]).unwrap();
    let wrist1 = poses.links()[robot.link_index("wrist_1_link").unwrap()];
    let expected = nalgebra::Vector3::new(0.425, 0.13585 - 0.1197, 0.089159 + 0.39225);
    assert!(
        (wrist1.translation.vector - expected).amax() < TOLERANCE,
        "{wrist1:?}"
    );
}
