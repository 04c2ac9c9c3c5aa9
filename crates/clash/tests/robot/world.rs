//! `RobotWorld` batches against a brute-force loop: for random joint
//! vectors within the limits, every pair of collision elements on
//! different links that the SRDF does not allow (and every element against
//! the obstacles) is checked with the pairwise queries on poses from
//! forward kinematics; the batch's first collision and minimum distance
//! must equal the loop's, on the Panda (mesh and primitive models) and the
//! UR5, on 1 and 2 threads. 200 configurations per model by default;
//! `CLASH_ROBOT_CONFIGS=10000` runs the issue's 10,000 (see
//! `docs/long_checks.md`).

use super::common::{panda, panda_primitives, random_configurations, robots_dir, ur5};
use clash::prelude::*;
use clash::robot::{Configurations, RobotWorld, RobotWorldOptions};
use clash::{Geometry, Selection};

type Geo = Geometry<f64, Obb<f64>>;

fn configs() -> usize {
    std::env::var("CLASH_ROBOT_CONFIGS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

fn intersects_pair(a: (&Geo, &Isometry3<f64>), b: (&Geo, &Isometry3<f64>)) -> bool {
    let req = QueryRequest::default();
    match (a.0, b.0) {
        (Geo::Mesh(x), Geo::Mesh(y)) => x.intersects(y, a.1.inv_mul(b.1)),
        (Geo::Mesh(x), Geo::Convex(s)) => x.intersects_convex(s, &a.1.inv_mul(b.1), &req),
        (Geo::Convex(s), Geo::Mesh(x)) => x.intersects_convex(s, &b.1.inv_mul(a.1), &req),
        (Geo::Convex(s), Geo::Convex(t)) => intersects(s, a.1, t, b.1, &req),
    }
}

fn distance_pair(a: (&Geo, &Isometry3<f64>), b: (&Geo, &Isometry3<f64>)) -> f64 {
    let req = QueryRequest::default();
    match (a.0, b.0) {
        (Geo::Mesh(x), Geo::Mesh(y)) => x.distance(y, a.1.inv_mul(b.1)).distance,
        (Geo::Mesh(x), Geo::Convex(s)) => {
            x.distance_to_convex(s, &a.1.inv_mul(b.1), &req)
                .unwrap()
                .distance
        }
        (Geo::Convex(s), Geo::Mesh(x)) => {
            x.distance_to_convex(s, &b.1.inv_mul(a.1), &req)
                .unwrap()
                .distance
        }
        (Geo::Convex(s), Geo::Convex(t)) => distance(s, a.1, t, b.1, &req).distance,
    }
}

fn check(robot: &Robot, srdf: &str, hulls: bool, with_obstacle: bool) {
    let acm = Srdf::from_file(robots_dir().join(srdf), robot)
        .unwrap()
        .allowed_collisions();
    let options = RobotWorldOptions {
        meshes_as_convex_hulls: hulls,
        ..RobotWorldOptions::default()
    };
    let mut rw: RobotWorld = RobotWorld::new(robot, Some(&acm), &options).unwrap();
    if with_obstacle {
        // A table the arm sweeps through.
        let table = Shape::Cuboid(Cuboid::new(Vector3::new(0.4, 0.4, 0.02)).unwrap());
        rw.insert_obstacle(table, Isometry3::translation(0.5, 0.0, 0.3))
            .unwrap();
    }
    let n = configs();
    let qs = random_configurations(robot, n, 17);
    let mut batch = Configurations::new(robot.dof());
    for q in &qs {
        batch.push(q);
    }
    let query = WorldQuery::default();
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            (
                rw.batch_first_collision(&batch, &query).unwrap(),
                rw.batch_distance(&batch, &query).unwrap(),
            )
        })
    };
    let (firsts, dists) = run(1);
    assert_eq!((firsts.clone(), dists.clone()), run(2));
    // The brute-force loop, in handle order.
    let handles = rw.world().handles();
    let geos: Vec<Geo> = handles
        .iter()
        .map(|&h| rw.world().geometry(h).unwrap().clone())
        .collect();
    let elements = robot.collision_elements();
    let link = |k: usize| (k < elements.len()).then(|| elements[k].link);
    let mut collided = 0;
    for (c, q) in qs.iter().enumerate() {
        let fk = robot.poses(q).unwrap();
        let mut poses: Vec<Isometry3<f64>> = handles
            .iter()
            .map(|&h| *rw.world().pose(h).unwrap())
            .collect();
        poses[..elements.len()].copy_from_slice(fk.collisions());
        let mut first = None;
        let mut best = f64::INFINITY;
        for i in 0..handles.len() {
            for j in i + 1..handles.len() {
                let checked = match (link(i), link(j)) {
                    (Some(a), Some(b)) => {
                        a != b && !acm.is_allowed(a, b) && !robot.are_adjacent(a, b)
                    }
                    (None, None) => false,
                    _ => true,
                };
                if !checked {
                    continue;
                }
                let (a, b) = ((&geos[i], &poses[i]), (&geos[j], &poses[j]));
                if first.is_none() && intersects_pair(a, b) {
                    first = Some((handles[i], handles[j]));
                }
                best = best.min(distance_pair(a, b));
            }
        }
        assert_eq!(firsts[c], first, "configuration {c}: {q:?}");
        // One configuration at a time, without moving the world.
        assert_eq!(rw.first_collision_at(q, &query).unwrap(), first);
        assert_eq!(rw.distance_at(q, &query).unwrap(), dists[c]);
        let all = rw.collisions_at(q, &query).unwrap();
        assert_eq!(all.first().map(|p| (p.a, p.b)), first);
        for p in &all {
            let (i, j) = (
                handles.binary_search(&p.a).unwrap(),
                handles.binary_search(&p.b).unwrap(),
            );
            assert!(i < j && intersects_pair((&geos[i], &poses[i]), (&geos[j], &poses[j])));
        }
        if c % 8 == 0 {
            // The same as moving the world there and asking it (only the
            // robot's elements move, so later configurations see the same
            // obstacles).
            rw.set_configuration(q).unwrap();
            assert_eq!(rw.first_collision(&query).unwrap(), first);
            let every: Vec<_> = rw
                .collide(&query)
                .unwrap()
                .iter()
                .map(|p| (p.a, p.b))
                .collect();
            assert_eq!(every, all.iter().map(|p| (p.a, p.b)).collect::<Vec<_>>());
        }
        let d = dists[c].unwrap();
        assert!(
            (d.distance - best).abs() <= 1e-9,
            "configuration {c}: batch {} brute {best}",
            d.distance
        );
        collided += usize::from(first.is_some());
    }
    // Both answers occur.
    assert!(0 < collided && collided < n, "{collided} of {n} collide");
}

#[test]
fn panda_meshes_equal_brute_force() {
    check(&panda(), "panda/srdf/panda.srdf", false, true);
}

#[test]
fn panda_hulls_equal_brute_force() {
    check(&panda(), "panda/srdf/panda.srdf", true, false);
}

#[test]
fn panda_primitives_equal_brute_force() {
    check(&panda_primitives(), "panda/srdf/panda.srdf", false, true);
}

#[test]
fn ur5_equals_brute_force() {
    check(&ur5(), "ur5/srdf/ur5.srdf", false, true);
}

#[test]
fn self_collision_of_one_configuration_names_links() {
    let robot = panda();
    let acm = Srdf::from_file(robots_dir().join("panda/srdf/panda.srdf"), &robot)
        .unwrap()
        .allowed_collisions();
    let mut rw: RobotWorld =
        RobotWorld::new(&robot, Some(&acm), &RobotWorldOptions::default()).unwrap();
    rw.set_configuration(&[0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02])
        .unwrap();
    assert_eq!(rw.self_collision().unwrap(), None);
    // The same selection through the world's own query.
    let within =
        WorldQuery::default().with_selection(Selection::WithinGroup(clash::robot::ROBOT_GROUP));
    assert_eq!(rw.first_collision(&within).unwrap(), None);
    assert!(rw.collide(&within).unwrap().is_empty());
    let d = rw.distance(&within).unwrap().unwrap();
    assert!(d.distance > 0.0);
    // The robot's own objects are not obstacles.
    let element = rw.element_handles()[0];
    assert!(rw.remove_obstacle(element).is_err());
    assert!(
        rw.set_obstacle_pose(element, Isometry3::identity())
            .is_err()
    );
    let ball = rw
        .insert_obstacle(
            Shape::Ball(Ball::new(0.1).unwrap()),
            Isometry3::translation(0.0, 0.0, 2.0),
        )
        .unwrap();
    rw.set_obstacle_pose(ball, Isometry3::translation(0.0, 0.0, 0.05))
        .unwrap();
    assert!(
        rw.first_collision(&WorldQuery::default())
            .unwrap()
            .is_some()
    );
    rw.remove_obstacle(ball).unwrap();
    assert!(
        rw.first_collision(&WorldQuery::default())
            .unwrap()
            .is_none()
    );
    assert!(rw.set_configuration(&[0.0; 3]).is_err());
    assert!(rw.set_configuration(&[f64::NAN; 8]).is_err());
}

/// Joint values finite but so large that the poses overflow: the batches
/// answer the joint error of the first such vector, as
/// `set_configuration` does, on every thread count (they used to panic).
#[test]
fn batches_refuse_vectors_whose_poses_overflow() {
    let urdf = r#"<robot name="r"><link name="a"/>
      <link name="b"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
      <link name="c"><collision><geometry><sphere radius="0.1"/></geometry></collision></link>
      <joint name="s1" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="1 0 0"/>
        <limit lower="-1" upper="1"/></joint>
      <joint name="s2" type="prismatic"><parent link="b"/><child link="c"/><axis xyz="1 0 0"/>
        <limit lower="-1" upper="1"/></joint></robot>"#;
    let robot = Robot::from_urdf_str(urdf, ".", &clash::robot::PackageMap::new()).unwrap();
    let mut rw: RobotWorld = RobotWorld::new(&robot, None, &RobotWorldOptions::default()).unwrap();
    let huge = [1.7e308, 1.7e308];
    assert!(matches!(
        rw.set_configuration(&huge),
        Err(clash::robot::RobotWorldError::Joint(
            clash::robot::JointError::NonFinitePose { .. }
        ))
    ));
    let mut batch = Configurations::new(2);
    for i in 0..64 {
        batch.push(if i == 40 || i == 50 {
            &huge
        } else {
            &[0.5, 0.5]
        });
    }
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let q = WorldQuery::default();
        let first = pool.install(|| rw.batch_first_collision(&batch, &q));
        let distance = pool.install(|| rw.batch_distance(&batch, &q));
        for result in [first.map(|_| ()), distance.map(|_| ())] {
            match result {
                Err(clash::robot::RobotWorldError::Joint(
                    clash::robot::JointError::NonFinitePose { link },
                )) => assert_eq!(link, "c"),
                other => panic!("{threads} threads: {other:?}"),
            }
        }
    }
    // Vectors that fit still answer.
    let mut fine = Configurations::new(2);
    fine.push(&[0.5, 0.5]);
    assert_eq!(
        rw.batch_first_collision(&fine, &WorldQuery::default())
            .unwrap()
            .len(),
        1
    );
}
