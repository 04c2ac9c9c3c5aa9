//! The Panda over random joint vectors: clash's `RobotWorld` batches timed
//! on 1 and 2 threads, and the scene written for `benches/compare/robot_compare.py`
//! (python-fcl and coal on the same link poses, without kinematics).
//!
//! ```sh
//! cargo run --release -p clash-benches --example robot_scene -- \
//!     [--model mesh|primitives] [--obstacles] [--configs N] [--out DIR]
//! ```
//!
//! Writes `DIR/scene.json` (every object's shape, the checked pairs),
//! `DIR/poses.f64` (each object's `[R | t]` per configuration, row-major
//! little-endian f64), `DIR/clash_answers_collide.jsonl` and
//! `DIR/clash_answers_distance.jsonl`, and prints the time per
//! configuration (the best of three runs) for each mode and thread count.

use clash::prelude::*;
use clash::robot::{
    CollisionGeometry, ConfigurationSampler, Configurations, RobotWorld, RobotWorldOptions,
};
use clash::{Geometry, ObjectHandle};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn robots_dir() -> PathBuf {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/robots");
    if shared.is_dir() {
        shared
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/robots")
    }
}

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn flag(name: &str) -> bool {
    std::env::args().any(|a| a == name)
}

/// The best of three timings of `f`, in microseconds per configuration.
fn time_per_config<R>(n: usize, threads: usize, f: impl Fn() -> R + Send + Sync) -> (f64, R)
where
    R: Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..3 {
        let start = Instant::now();
        let r = pool.install(&f);
        best = best.min(start.elapsed().as_secs_f64());
        out = Some(r);
    }
    (best * 1e6 / n as f64, out.unwrap())
}

fn shape_json(world: &mut RobotWorld, h: ObjectHandle, robot: &Robot) -> String {
    let link = world
        .link_name(h)
        .map_or("obstacle".to_string(), str::to_string);
    let geometry = world.world().geometry(h).unwrap().clone();
    let body = match geometry {
        Geometry::Mesh(tree) => {
            let m = tree.mesh();
            let mut s = String::from("\"kind\": \"mesh\", \"vertices\": [");
            for (i, p) in m.vertices().iter().enumerate() {
                let sep = if i > 0 { "," } else { "" };
                write!(s, "{sep}[{:?},{:?},{:?}]", p.x, p.y, p.z).unwrap();
            }
            s.push_str("], \"faces\": [");
            for (i, f) in m.indices().iter().enumerate() {
                let sep = if i > 0 { "," } else { "" };
                write!(s, "{sep}[{},{},{}]", f[0], f[1], f[2]).unwrap();
            }
            s.push(']');
            s
        }
        Geometry::Convex(shape) => match shape {
            Shape::Ball(b) => format!("\"kind\": \"sphere\", \"radius\": {:?}", b.radius()),
            Shape::Cuboid(c) => {
                let e = c.half_extents();
                format!(
                    "\"kind\": \"box\", \"half_extents\": [{:?},{:?},{:?}]",
                    e.x, e.y, e.z
                )
            }
            _ => {
                // Cylinders and capsules: their URDF sizes.
                let element = world
                    .element_handles()
                    .iter()
                    .position(|&x| x == h)
                    .unwrap();
                match robot.collision_elements()[element].geometry {
                    CollisionGeometry::Cylinder { radius, length } => {
                        format!(
                            "\"kind\": \"cylinder\", \"radius\": {radius:?}, \"length\": {length:?}"
                        )
                    }
                    CollisionGeometry::Capsule { radius, length } => {
                        format!(
                            "\"kind\": \"capsule\", \"radius\": {radius:?}, \"length\": {length:?}"
                        )
                    }
                    ref g => panic!("unexpected geometry {g:?}"),
                }
            }
        },
    };
    format!(
        "{{\"name\": \"{link}#{}\", \"link\": \"{link}\", {body}}}",
        h.index()
    )
}

fn write_scene(
    dir: &Path,
    world: &mut RobotWorld,
    robot: &Robot,
    configs: &Configurations,
) -> Vec<ObjectHandle> {
    std::fs::create_dir_all(dir).unwrap();
    let handles = world.world().handles();
    let objects: Vec<String> = handles
        .iter()
        .map(|&h| shape_json(world, h, robot))
        .collect();
    // The checked pairs: what the world's batch plan checks, by brute force
    // over its filters and allowed pairs.
    let mut pairs = Vec::new();
    for i in 0..handles.len() {
        for j in i + 1..handles.len() {
            let (a, b) = (handles[i], handles[j]);
            let w = world.world();
            let interacts = w.filter(a).unwrap().interacts(&w.filter(b).unwrap());
            if interacts && !w.is_pair_allowed(a, b) {
                pairs.push(format!("[{i},{j}]"));
            }
        }
    }
    let json = format!(
        "{{\"objects\": [\n{}\n], \"pairs\": [{}], \"configs\": {}}}\n",
        objects.join(",\n"),
        pairs.join(","),
        configs.len()
    );
    std::fs::write(dir.join("scene.json"), json).unwrap();
    let mut bytes = Vec::with_capacity(configs.len() * handles.len() * 96);
    let base: Vec<Isometry3<f64>> = handles
        .iter()
        .map(|&h| *world.world().pose(h).unwrap())
        .collect();
    let elements = world.element_handles().to_vec();
    for q in configs.iter() {
        let fk = robot.poses(q).unwrap();
        let mut poses = base.clone();
        for (h, p) in elements.iter().zip(fk.collisions()) {
            poses[handles.binary_search(h).unwrap()] = *p;
        }
        for p in poses {
            let r = p.rotation.to_rotation_matrix().into_inner();
            for i in 0..3 {
                for v in [r[(i, 0)], r[(i, 1)], r[(i, 2)], p.translation.vector[i]] {
                    bytes.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
    }
    std::fs::write(dir.join("poses.f64"), bytes).unwrap();
    handles
}

fn main() {
    let model = arg("--model").unwrap_or_else(|| "mesh".into());
    let n: usize = arg("--configs").map_or(10_000, |v| v.parse().unwrap());
    let out = PathBuf::from(arg("--out").unwrap_or_else(|| format!("out/robot_{model}")));
    let dir = robots_dir().join("panda");
    let packages = PackageMap::new().with("example-robot-data/robots/panda_description", &dir);
    let urdf = match model.as_str() {
        "mesh" => "urdf/panda.urdf",
        "primitives" => "urdf/panda_collision.urdf",
        m => panic!("unknown model {m}"),
    };
    let robot = Robot::from_urdf_file(dir.join(urdf), &packages).unwrap();
    let acm = Srdf::from_file(dir.join("srdf/panda.srdf"), &robot)
        .unwrap()
        .allowed_collisions();
    let mut world: RobotWorld =
        RobotWorld::new(&robot, Some(&acm), &RobotWorldOptions::default()).unwrap();
    if flag("--obstacles") {
        // A table under the arm's reach and two posts beside it.
        let slab = |x, y, z| Shape::Cuboid(Cuboid::new(Vector3::new(x, y, z)).unwrap());
        world
            .insert_obstacle(slab(0.4, 0.6, 0.02), Isometry3::translation(0.75, 0.0, 0.2))
            .unwrap();
        world
            .insert_obstacle(slab(0.05, 0.05, 0.5), Isometry3::translation(0.0, 0.5, 0.5))
            .unwrap();
        world
            .insert_obstacle(
                slab(0.05, 0.05, 0.5),
                Isometry3::translation(0.0, -0.5, 0.5),
            )
            .unwrap();
    }
    let configs = ConfigurationSampler::new(&robot, 2026).sample_many(n);
    let handles = write_scene(&out, &mut world, &robot, &configs);
    let index = |h: ObjectHandle| handles.binary_search(&h).unwrap();
    let query = WorldQuery::default();
    let mut collide_us = [0.0; 2];
    let mut distance_us = [0.0; 2];
    let mut firsts = Vec::new();
    let mut dists = Vec::new();
    for (k, threads) in [1, 2].into_iter().enumerate() {
        let (t, f) = time_per_config(n, threads, || {
            world.batch_first_collision(&configs, &query).unwrap()
        });
        collide_us[k] = t;
        let (t, d) = time_per_config(n, threads, || {
            world.batch_distance(&configs, &query).unwrap()
        });
        distance_us[k] = t;
        if k == 0 {
            (firsts, dists) = (f, d);
        } else {
            assert_eq!(firsts, f, "answers differ between 1 and 2 threads");
            assert_eq!(dists, d, "answers differ between 1 and 2 threads");
        }
    }
    let mut text = String::new();
    for f in &firsts {
        match f {
            Some((a, b)) => writeln!(
                text,
                "{{\"collides\": true, \"pair\": [{}, {}]}}",
                index(*a),
                index(*b)
            ),
            None => writeln!(text, "{{\"collides\": false, \"pair\": null}}"),
        }
        .unwrap();
    }
    std::fs::write(out.join("clash_answers_collide.jsonl"), text).unwrap();
    let mut text = String::new();
    for d in &dists {
        let d = d.unwrap();
        writeln!(
            text,
            "{{\"distance\": {:?}, \"pair\": [{}, {}]}}",
            d.distance,
            index(d.a),
            index(d.b)
        )
        .unwrap();
    }
    std::fs::write(out.join("clash_answers_distance.jsonl"), text).unwrap();
    let colliding = firsts.iter().filter(|f| f.is_some()).count();
    println!(
        "panda {model}{}: {} objects, {n} configurations, {colliding} colliding",
        if flag("--obstacles") {
            " + obstacles"
        } else {
            ""
        },
        handles.len()
    );
    for (what, us) in [("collide", collide_us), ("distance", distance_us)] {
        println!(
            "{what:>8}: {:.3} us/config on 1 thread, {:.3} on 2 ({:.2}x)",
            us[0],
            us[1],
            us[0] / us[1]
        );
    }
    println!(
        "--clash-us collide={:.3} --clash-us distance={:.3}",
        collide_us[0], distance_us[0]
    );
}
