//! Forward kinematics per configuration: `clash::robot` (every link's pose
//! and every collision element's, into a reused buffer) against the `k`
//! crate 0.32 (openrr's kinematics, the Rust peer: `set_joint_positions`
//! then `update_transforms`, every joint's world pose), on the Panda (mesh
//! and primitive collision models) and the UR5 of `data/robots`, 1,000
//! random configurations within the joint limits per iteration; criterion
//! reports configurations per second (`elem/s`).
//!
//! `cargo bench -p clash-benches --bench robot -- --warm-up-time 1 --measurement-time 3`
//!
//! Before the timings it checks that both give the same link poses (to
//! 1e-12) on the benchmarked configurations.

use clash::robot::{ConfigurationSampler, Configurations, PackageMap, Robot, RobotPoses};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};

const CONFIGURATIONS: usize = 1000;

fn robots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/robots")
}

/// The shipped robots: name, URDF path, model.
fn robots() -> Vec<(&'static str, PathBuf, Robot)> {
    let dir = robots_dir();
    let packages = PackageMap::new()
        .with(
            "example-robot-data/robots/panda_description",
            dir.join("panda"),
        )
        .with(
            "example-robot-data/robots/ur_description/meshes/ur5",
            dir.join("ur5/meshes"),
        );
    [
        ("panda", "panda/urdf/panda.urdf"),
        ("panda_primitives", "panda/urdf/panda_collision.urdf"),
        ("ur5", "ur5/urdf/ur5_robot.urdf"),
    ]
    .into_iter()
    .map(|(name, file)| {
        let path = dir.join(file);
        let robot = Robot::from_urdf_file(&path, &packages).expect("the shipped robots load");
        (name, path, robot)
    })
    .collect()
}

/// `k`'s chain and, per configuration, the vector of its movable joints
/// (which include mimic joints, in its tree order) holding the same positions.
fn k_inputs(
    robot: &Robot,
    path: &Path,
    configs: &Configurations,
) -> (k::Chain<f64>, Vec<Vec<f64>>) {
    let chain = k::Chain::<f64>::from_urdf_file(path).expect("k reads the shipped URDFs");
    let joints: Vec<usize> = chain
        .iter_joints()
        .map(|j| robot.joint_index(&j.name).expect("the same joint names"))
        .collect();
    let vectors = configs
        .iter()
        .map(|q| {
            joints
                .iter()
                .map(|&j| robot.joints()[j].source.position(q))
                .collect()
        })
        .collect();
    (chain, vectors)
}

/// Both libraries' link poses agree on every configuration.
fn check_agreement(
    robot: &Robot,
    chain: &k::Chain<f64>,
    configs: &Configurations,
    k_vectors: &[Vec<f64>],
) {
    let mut poses = RobotPoses::new(robot);
    for (q, kq) in configs.iter().zip(k_vectors) {
        robot.forward_kinematics(q, &mut poses).unwrap();
        chain.set_joint_positions(kq).unwrap();
        chain.update_transforms();
        for node in chain.iter() {
            let joint = node.joint();
            let Some(j) = robot.joint_index(&joint.name) else {
                continue;
            };
            let ours = poses.links()[robot.joints()[j].child].to_homogeneous();
            let theirs = joint.world_transform().unwrap().to_homogeneous();
            for r in 0..4 {
                for c in 0..4 {
                    assert!(
                        (ours[(r, c)] - theirs[(r, c)]).abs() < 1e-12,
                        "joint {}",
                        joint.name
                    );
                }
            }
        }
    }
}

fn forward_kinematics(c: &mut Criterion) {
    let mut group = c.benchmark_group("robot_fk");
    group.throughput(Throughput::Elements(CONFIGURATIONS as u64));
    for (name, path, robot) in robots() {
        let configs = ConfigurationSampler::new(&robot, 1).sample_many(CONFIGURATIONS);
        let (chain, k_vectors) = k_inputs(&robot, &path, &configs);
        check_agreement(&robot, &chain, &configs, &k_vectors);

        let mut poses = RobotPoses::new(&robot);
        group.bench_function(BenchmarkId::new("clash", name), |b| {
            b.iter(|| {
                for q in configs.iter() {
                    robot.forward_kinematics(black_box(q), &mut poses).unwrap();
                    black_box(&poses);
                }
            })
        });
        group.bench_function(BenchmarkId::new("k", name), |b| {
            b.iter(|| {
                for kq in &k_vectors {
                    chain.set_joint_positions_unchecked(black_box(kq));
                    black_box(chain.update_transforms());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, forward_kinematics);
criterion_main!(benches);
