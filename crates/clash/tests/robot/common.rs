//! Loading the test robots, and a plain 4x4 matrix type for the
//! kinematics oracles (independent of nalgebra's isometries).

use clash::robot::{PackageMap, Robot, RobotError};
use nalgebra::Isometry3;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

/// `data/robots` of the repository.
pub fn robots_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/robots")
}

/// The package map under which the copied URDFs' `package://` paths resolve.
pub fn packages() -> PackageMap {
    let dir = robots_dir();
    PackageMap::new()
        .with(
            "example-robot-data/robots/panda_description",
            dir.join("panda"),
        )
        .with(
            "example-robot-data/robots/ur_description/meshes/ur5",
            dir.join("ur5/meshes"),
        )
}

/// The Panda with its mesh collision model.
pub fn panda() -> Robot {
    Robot::from_urdf_file(robots_dir().join("panda/urdf/panda.urdf"), &packages()).unwrap()
}

/// The Panda with its sphere and cylinder collision model.
pub fn panda_primitives() -> Robot {
    Robot::from_urdf_file(
        robots_dir().join("panda/urdf/panda_collision.urdf"),
        &packages(),
    )
    .unwrap()
}

/// The UR5.
pub fn ur5() -> Robot {
    Robot::from_urdf_file(robots_dir().join("ur5/urdf/ur5_robot.urdf"), &packages()).unwrap()
}

/// `count` joint vectors uniform within the limits, drawn with `rand`
/// directly (independent of `ConfigurationSampler`).
pub fn random_configurations(robot: &Robot, count: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            robot
                .dof_joints()
                .iter()
                .map(|&j| {
                    let l = robot.joints()[j].limits.unwrap();
                    rng.random_range(l.lower..=l.upper)
                })
                .collect()
        })
        .collect()
}

/// The error of loading `urdf` (which must fail) from a string.
pub fn urdf_error(urdf: &str) -> RobotError {
    match Robot::from_urdf_str(urdf, ".", &PackageMap::new()) {
        Ok(_) => panic!("expected an error for\n{urdf}"),
        Err(e) => e,
    }
}

/// The error of loading `urdf` (which must fail), checked to name the
/// line and each of `names` in its message.
pub fn urdf_error_at(urdf: &str, line: usize, names: &[&str]) -> RobotError {
    let e = urdf_error(urdf);
    check_message(&e, "<memory>", line, names);
    e
}

/// Checks that `e` displays as `file:line: ...` naming each of `names`.
pub fn check_message(e: &RobotError, file: &str, line: usize, names: &[&str]) {
    let message = e.to_string();
    assert_eq!(e.line(), Some(line), "{message}");
    assert!(
        message.starts_with(&format!("{file}:{line}: ")),
        "{message}"
    );
    for name in names {
        assert!(message.contains(name), "{message:?} does not name {name:?}");
    }
}

/// A homogeneous 4x4 matrix, row-major.
pub type M4 = [[f64; 4]; 4];

pub fn identity() -> M4 {
    let mut m = [[0.0; 4]; 4];
    for (i, row) in m.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    m
}

pub fn mul(a: &M4, b: &M4) -> M4 {
    let mut m = [[0.0; 4]; 4];
    for i in 0..4 {
        for j in 0..4 {
            m[i][j] = (0..4).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    m
}

pub fn rot_x(t: f64) -> M4 {
    let (s, c) = t.sin_cos();
    [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, c, -s, 0.0],
        [0.0, s, c, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

pub fn rot_z(t: f64) -> M4 {
    let (s, c) = t.sin_cos();
    [
        [c, -s, 0.0, 0.0],
        [s, c, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

pub fn trans(x: f64, y: f64, z: f64) -> M4 {
    [
        [1.0, 0.0, 0.0, x],
        [0.0, 1.0, 0.0, y],
        [0.0, 0.0, 1.0, z],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

/// A rotation given by its rows, and a translation.
pub fn rigid(r: [[f64; 3]; 3], t: [f64; 3]) -> M4 {
    let mut m = identity();
    for i in 0..3 {
        m[i][..3].copy_from_slice(&r[i]);
        m[i][3] = t[i];
    }
    m
}

/// The largest entry of `|pose - m|`, the pose as its homogeneous matrix.
pub fn deviation(pose: &Isometry3<f64>, m: &M4) -> f64 {
    let h = pose.to_homogeneous();
    let mut worst: f64 = 0.0;
    for i in 0..4 {
        for j in 0..4 {
            worst = worst.max((h[(i, j)] - m[i][j]).abs());
        }
    }
    worst
}
