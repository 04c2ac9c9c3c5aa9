use clash_bv::Obb;
use clash_bvh::{BuildOptions, Bvh, TriMesh};
use clash_math::{Isometry3, Point3, Triangle, Vector3};
use rand::{RngExt, SeedableRng};
use std::time::Instant;
include!("/tmp/probe/stl.rs");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mesh = read_binary_stl("/work/shared/meshes/bunny.stl")?;
    let (lo, hi) = mesh
        .vertices()
        .iter()
        .fold((mesh.vertices()[0], mesh.vertices()[0]), |(l, h), p| {
            (l.inf(p), h.sup(p))
        });
    let size = (hi - lo).norm() * 0.5;
    let center = clash_math::nalgebra::center(&lo, &hi);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let poses: Vec<Isometry3<f64>> = (0..10000)
        .map(|_| {
            let dir = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            let t = dir * size * 1.2;
            let axis = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            ) * 3.0;
            Isometry3::translation(center.x, center.y, center.z)
                * Isometry3::translation(t.x, t.y, t.z)
                * Isometry3::rotation(axis)
                * Isometry3::translation(-center.x, -center.y, -center.z)
        })
        .collect();
    let mut text = String::new();
    for p in &poses {
        let r = p.rotation.to_rotation_matrix().into_inner();
        let t = p.translation.vector;
        for i in 0..3 {
            text.push_str(&format!(
                "{:?} {:?} {:?} {:?} ",
                r[(i, 0)],
                r[(i, 1)],
                r[(i, 2)],
                t[i]
            ));
        }
        text.push('\n');
    }
    std::fs::write("/tmp/probe/cposes.txt", text)?;
    let start = Instant::now();
    let obb = Bvh::<f64, Obb<f64>>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    println!("build obb: {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
    let mut hits = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        hits = poses
            .iter()
            .map(|p| obb.intersects(&obb, p))
            .collect::<Vec<_>>();
        println!(
            "obb any: {:.2} us/pose",
            start.elapsed().as_secs_f64() * 1e6 / poses.len() as f64
        );
    }
    std::fs::write(
        "/tmp/probe/chits.txt",
        hits.iter()
            .map(|h| if *h { "1\n" } else { "0\n" })
            .collect::<String>(),
    )?;
    println!("colliding {}", hits.iter().filter(|h| **h).count());
    Ok(())
}
