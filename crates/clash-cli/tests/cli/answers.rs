//! build / info / collide / distance / raycast on the shipped meshes give
//! the library's answers, with every core and a throughput summary.

use crate::common::*;
use clash::bvh::BvQuery;
use clash::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

fn info_field(stdout: &str, key: &str) -> String {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no {key:?} in {stdout}"))
        .to_string()
}

#[test]
fn build_and_info_match_the_library() {
    let dir = scratch("build");
    for (mesh_name, bv, precision) in [
        ("bunny_lo.stl", "obb", "f64"),
        ("dog_sacrum.stl", "aabb", "f64"),
        ("panda_link6.stl", "rss", "f64"),
        ("bunny_lo.stl", "kdop18", "f32"),
    ] {
        let tree_path = dir.join(format!("{mesh_name}.{bv}.{precision}.clash"));
        let run = clash()
            .arg("build")
            .arg(shipped(mesh_name))
            .arg("-o")
            .arg(&tree_path)
            .args([
                "--bv",
                bv,
                "--precision",
                precision,
                "--split",
                "sah",
                "--leaf-size",
                "2",
            ])
            .args(["--threads", "2"])
            .assert()
            .success();
        let stdout = String::from_utf8(run.get_output().stdout.clone()).unwrap();
        let options = BuildOptions::default()
            .with_split(SplitRule::Sah { bins: 16 })
            .with_max_leaf_size(2);
        let bytes = std::fs::read(&tree_path).unwrap();
        let (stats, expected_bytes) = match (bv, precision) {
            ("obb", "f64") => library_build::<f64, Obb<f64>>(mesh_name, &options),
            ("aabb", "f64") => library_build::<f64, Aabb<f64>>(mesh_name, &options),
            ("rss", "f64") => library_build::<f64, Rss<f64>>(mesh_name, &options),
            _ => library_build::<f32, Kdop18<f32>>(mesh_name, &options),
        };
        assert!(
            bytes == expected_bytes,
            "{mesh_name} {bv}: the file differs from the library's tree"
        );
        assert_eq!(
            info_field(&stdout, "triangles"),
            stats.triangles.to_string()
        );

        let info = clash().arg("info").arg(&tree_path).assert().success();
        let stdout = String::from_utf8(info.get_output().stdout.clone()).unwrap();
        assert_eq!(info_field(&stdout, "tree"), format!("{bv}/{precision}"));
        assert_eq!(
            info_field(&stdout, "file version"),
            clash::bvh::io::FORMAT_VERSION.to_string()
        );
        assert_eq!(
            info_field(&stdout, "triangles"),
            stats.triangles.to_string()
        );
        assert_eq!(info_field(&stdout, "vertices"), stats.vertices.to_string());
        assert_eq!(info_field(&stdout, "nodes"), stats.nodes.to_string());
        assert_eq!(info_field(&stdout, "leaves"), stats.leaves.to_string());
        assert_eq!(info_field(&stdout, "depth"), stats.depth.to_string());
        assert_eq!(
            info_field(&stdout, "memory"),
            format!("{} bytes", stats.memory_bytes)
        );
        assert_eq!(
            info_field(&stdout, "file size"),
            format!("{} bytes", bytes.len())
        );
        // Every tree here is split by SAH.
        let best = info_field(&stdout, "best for");
        let expected = match bv {
            "obb" => "mesh/mesh collision",
            "aabb" => "rays (the tree `raycast` builds by default)",
            "rss" => "distance (the tree `distance` builds by default)",
            _ => "collision and distance",
        };
        assert!(best.starts_with(expected), "{bv}: {best}");
    }
}

fn library_build<T: Scalar, B: TreeVolume<T>>(
    mesh_name: &str,
    options: &BuildOptions,
) -> (clash::bvh::TreeStats, Vec<u8>) {
    let tree: Bvh<T, B> = Bvh::build(load_mesh(shipped(mesh_name)).unwrap(), options).unwrap();
    (tree.stats(), tree.to_bytes())
}

#[test]
fn collide_and_distance_match_the_library() {
    let dir = scratch("collide");
    let a_mesh = shipped("bunny_lo.stl");
    let b_mesh = shipped("dog_sacrum.stl");
    let a: Bvh<f64, Obb<f64>> =
        Bvh::build(load_mesh(&a_mesh).unwrap(), &BuildOptions::default()).unwrap();
    let b: Bvh<f64, Obb<f64>> =
        Bvh::build(load_mesh(&b_mesh).unwrap(), &BuildOptions::default()).unwrap();
    let poses_path = dir.join("poses.txt");
    // Random orientations, B's centre within reach of A's.
    let (ra, rb) = (a.root_bv(), b.root_bv());
    let reach = (ra.half_extents.norm() + rb.half_extents.norm()) * 0.3;
    let poses: Vec<Isometry3<f64>> = random_poses(150, reach, 3)
        .into_iter()
        .map(|p| {
            let t = ra.center.coords + p.translation.vector - p.rotation * rb.center.coords;
            Isometry3::from_parts(t.into(), p.rotation)
        })
        .collect();
    let poses = write_poses(&poses_path, &poses);
    // Saved trees answer as the meshes do.
    let a_tree = dir.join("a.clash");
    a.save(&a_tree).unwrap();
    let mut colliding = 0;
    for (a_in, b_in) in [(&a_mesh, &b_mesh), (&a_tree, &b_mesh)] {
        let run = clash()
            .arg("collide")
            .arg(a_in)
            .arg(b_in)
            .arg("--poses")
            .arg(&poses_path)
            .args(["--all-pairs", "--threads", "2"])
            .assert()
            .success();
        let lines = json_lines(&run.get_output().stdout);
        assert_eq!(lines.len(), poses.len());
        for (i, (line, pose)) in lines.iter().zip(&poses).enumerate() {
            let expected = a.collide(&b, pose, &CollisionRequest::all());
            assert_eq!(line["pose"], i);
            assert_eq!(line["collide"], expected.collides(), "pose {i}");
            assert_eq!(line["pairs"], expected.pairs.len(), "pose {i}");
            let list: Vec<[u32; 2]> = serde_json::from_value(line["pair_list"].clone()).unwrap();
            assert_eq!(list, expected.pairs, "pose {i}");
            colliding += usize::from(expected.collides());
        }
        let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains("collide: 150 poses in"), "{stderr}");
        assert!(stderr.contains("poses/s, 2 threads"), "{stderr}");
    }
    assert!(
        colliding > 30 && colliding < 270,
        "{colliding} of 300 collide"
    );

    let run = clash()
        .arg("distance")
        .arg(&a_tree)
        .arg(&b_mesh)
        .arg("--poses")
        .arg(&poses_path)
        .assert()
        .success();
    let lines = json_lines(&run.get_output().stdout);
    assert_eq!(lines.len(), poses.len());
    // `--bv rss` builds RSS trees for mesh inputs (the tree saved above is an OBB tree),
    // split by SAH unless `--split` says otherwise.
    let sah = BuildOptions::default().with_split(SplitRule::Sah { bins: 16 });
    let rss = (
        Bvh::<f64, Rss<f64>>::build(load_mesh(&a_mesh).unwrap(), &sah).unwrap(),
        Bvh::<f64, Rss<f64>>::build(load_mesh(&b_mesh).unwrap(), &sah).unwrap(),
    );
    let run_rss = clash()
        .arg("distance")
        .arg(&a_mesh)
        .arg(&b_mesh)
        .arg("--poses")
        .arg(&poses_path)
        .args(["--bv", "rss"])
        .assert()
        .success();
    let stderr = String::from_utf8(run_rss.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("rss/f64 tree built"), "{stderr}");
    for (line, pose) in json_lines(&run_rss.get_output().stdout).iter().zip(&poses) {
        let expected = rss.0.distance(&rss.1, pose);
        assert_eq!(line["distance"].as_f64().unwrap(), expected.distance);
        assert_eq!(line["triangle_a"], expected.triangles[0]);
    }
    // The saved OBB tree keeps its own split; `distance` builds the mesh input B by SAH.
    let b_sah: Bvh<f64, Obb<f64>> = Bvh::build(load_mesh(&b_mesh).unwrap(), &sah).unwrap();
    for (i, (line, pose)) in lines.iter().zip(&poses).enumerate() {
        let expected = a.distance(&b_sah, pose);
        assert_eq!(
            line["distance"].as_f64().unwrap(),
            expected.distance,
            "pose {i}"
        );
        assert_eq!(xyz(&line["point_a"]), expected.point_a, "pose {i}");
        assert_eq!(xyz(&line["point_b"]), expected.point_b, "pose {i}");
        assert_eq!(line["triangle_a"], expected.triangles[0]);
        assert_eq!(line["triangle_b"], expected.triangles[1]);
    }
}

/// Rays aimed at `tree`'s mesh from above, written as `T` prints them.
fn rays_at<T: Scalar, B: BoundingVolume<T>>(tree: &Bvh<T, B>, n: usize) -> (Vec<Ray<T>>, String) {
    let root = tree.root_bv().aabb();
    let center = root.center();
    let radius = (root.max - root.min).norm();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut text = String::new();
    let mut rays = Vec::new();
    for _ in 0..n {
        let mut r = |s: f64| T::lit(rng.random_range(-s..s));
        let o = center + Vector3::new(r(1.0), r(1.0), T::ONE) * radius;
        let target = center + Vector3::new(r(0.3), r(0.3), T::ZERO) * radius;
        let d = target - o;
        text.push_str(&format!(
            "{:?} {:?} {:?} {:?} {:?} {:?}\n",
            o.x, o.y, o.z, d.x, d.y, d.z
        ));
        rays.push(Ray::new(o, d));
    }
    (rays, text)
}

/// Runs `clash raycast MESH --rays RAYS ARGS` and checks every answer
/// against `tree`, which must be the tree the command builds; returns the
/// command's stderr.
fn check_raycast<T: Scalar, B: BvQuery<T>>(name: &str, tree: &Bvh<T, B>, args: &[&str]) -> String {
    let dir = scratch(&format!("rays_{name}"));
    let (rays, text) = rays_at(tree, 500);
    let rays_path = dir.join("rays.txt");
    std::fs::write(&rays_path, text).unwrap();
    let run = clash()
        .arg("raycast")
        .arg(shipped("panda_link6.stl"))
        .arg("--rays")
        .arg(&rays_path)
        .args(args)
        .assert()
        .success();
    let lines = json_lines(&run.get_output().stdout);
    assert_eq!(lines.len(), rays.len());
    let mut hits = 0;
    for (i, (line, ray)) in lines.iter().zip(&rays).enumerate() {
        let expected = tree.cast_ray(ray, &RayQuery::default());
        assert_eq!(line["hit"], expected.is_some(), "ray {i}");
        if let Some(h) = expected {
            hits += 1;
            assert_eq!(line["t"].as_f64().unwrap(), h.t.to_f64(), "ray {i}");
            assert_eq!(line["triangle"], h.triangle, "ray {i}");
            assert_eq!(xyz(&line["point"]), h.point.map(|x| x.to_f64()), "ray {i}");
        }
    }
    assert!(hits > 50, "{hits} hits");
    String::from_utf8(run.get_output().stderr.clone()).unwrap()
}

#[test]
fn raycast_matches_the_library() {
    let mesh = shipped("panda_link6.stl");
    // The default for a binary STL mesh and rays exact in f32: the AABB
    // tree split by SAH, in f32.
    let sah = BuildOptions::default().with_split(SplitRule::Sah { bins: 16 });
    let tree: Bvh<f32, Aabb<f32>> = Bvh::build(load_mesh(&mesh).unwrap(), &sah).unwrap();
    let stderr = check_raycast("default", &tree, &[]);
    assert!(stderr.contains("aabb/f32 tree built"), "{stderr}");
    // Any other tree when asked for.
    let tree: Bvh<f64, Aabb<f64>> =
        Bvh::build(load_mesh(&mesh).unwrap(), &BuildOptions::default()).unwrap();
    let stderr = check_raycast(
        "median",
        &tree,
        &["--bv", "aabb", "--precision", "f64", "--split", "median"],
    );
    assert!(stderr.contains("aabb/f64 tree built"), "{stderr}");
    let tree: Bvh<f32, Obb<f32>> = Bvh::build(load_mesh(&mesh).unwrap(), &sah).unwrap();
    let stderr = check_raycast("obb", &tree, &["--bv", "obb"]);
    assert!(stderr.contains("obb/f32 tree built"), "{stderr}");
}

/// Meshes with coordinates that f32 would round, or beyond its range,
/// keep the f64 tree.
#[test]
fn raycast_stays_in_f64_when_f32_would_round_the_mesh() {
    let dir = scratch("rays_f64");
    let mesh = dir.join("tetra.obj");
    let tetra = |c: &str| {
        format!("v 0 0 0\nv 1 0 0\nv 0 {c} 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n")
    };
    let rays = dir.join("rays.txt");
    std::fs::write(&rays, "0.01 0.01 -1 0 0 1\n").unwrap();
    for (c, kind) in [
        ("0.5", "aabb/f32"),
        ("0.1", "aabb/f64"),
        ("1e9", "aabb/f64"),
    ] {
        std::fs::write(&mesh, tetra(c)).unwrap();
        let run = clash()
            .arg("raycast")
            .arg(&mesh)
            .arg("--rays")
            .arg(&rays)
            .assert()
            .success();
        let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
        assert!(
            stderr.contains(&format!("{kind} tree built")),
            "{c}: {stderr}"
        );
        let lines = json_lines(&run.get_output().stdout);
        assert_eq!(lines[0]["hit"], Value::Bool(true), "{c}");
    }
}

#[test]
fn collide_over_10000_poses_uses_every_core_and_reports_throughput() {
    let dir = scratch("throughput");
    let poses_path = dir.join("poses.txt");
    write_poses(&poses_path, &random_poses(10_000, 0.15, 9));
    let bunny = shipped("bunny_lo.stl");
    let run = clash()
        .arg("collide")
        .arg(&bunny)
        .arg(&bunny)
        .arg("--poses")
        .arg(&poses_path)
        .arg("--any")
        .assert()
        .success();
    assert_eq!(json_lines(&run.get_output().stdout).len(), 10_000);
    let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
    let cores = std::thread::available_parallelism().unwrap().get();
    assert!(stderr.contains("collide: 10000 poses in"), "{stderr}");
    assert!(
        stderr.contains(&format!("poses/s, {cores} threads)")),
        "{stderr}"
    );
}

#[test]
fn every_subcommand_has_help() {
    for sub in ["build", "info", "collide", "distance", "raycast", "demo"] {
        let run = clash().args([sub, "--help"]).assert().success();
        let stdout = String::from_utf8(run.get_output().stdout.clone()).unwrap();
        assert!(stdout.contains("Usage: clash"), "{sub}: {stdout}");
    }
}
