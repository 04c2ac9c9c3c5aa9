//! `clash demo`: the whole job on a mesh shipped in the binary.

use crate::args::DemoArgs;
use crate::error::{CliError, CliResult};
use crate::output::seconds;
use crate::svg::{self, Panel};
use crate::threads::with_threads;
use clash::bv::{Aabb, Obb, Rss};
use clash::bvh::{BuildOptions, Bvh, CollisionRequest, RayQuery, TriMesh};
use clash::math::{Isometry3, Point3, Ray, UnitQuaternion, Vector3};
use clash::mesh_file::{MeshFormat, read_mesh};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;

/// The Stanford bunny at low resolution (902 triangles): `data/bunny_lo.stl`,
/// the repository's `data/meshes/bunny_lo.stl` (see `data/README.md` for its
/// source and licence).
const BUNNY_STL: &[u8] = include_bytes!("../data/bunny_lo.stl");

/// Runs the demo.
pub fn run(args: &DemoArgs) -> CliResult<()> {
    with_threads(args.pool.threads, || run_on_pool(args))?
}

fn run_on_pool(args: &DemoArgs) -> CliResult<()> {
    let threads = rayon::current_num_threads();
    println!("clash demo: collision detection on the Stanford bunny, shipped inside this binary");
    let mesh: TriMesh<f64> =
        read_mesh(BUNNY_STL, MeshFormat::Stl).map_err(|e| CliError::new(e.to_string()))?;
    println!(
        "  mesh: {} triangles, {} vertices, closed: {}",
        mesh.num_triangles(),
        mesh.vertices().len(),
        mesh.is_closed()
    );

    // 1. Build one tree per volume type.
    let options = BuildOptions::default();
    let obb: Bvh<f64, Obb<f64>> = timed_build(&mesh, &options, "OBB")?;
    let aabb: Bvh<f64, Aabb<f64>> = timed_build(&mesh, &options, "AABB")?;
    let rss: Bvh<f64, Rss<f64>> = timed_build(&mesh, &options, "RSS")?;
    // The picture draws a level of the AABB and OBB trees: one they both have.
    let deepest = aabb.depth().min(obb.depth());
    if args.level > deepest {
        return Err(CliError::new(format!(
            "--level {}: the demo's trees have levels 0 (the root) to {deepest}",
            args.level
        )));
    }
    std::fs::create_dir_all(&args.out)
        .map_err(|e| CliError::new(format!("{}: {e}", args.out.display())))?;
    println!(
        "  output folder: {} (choose another with --out)",
        args.out.display()
    );

    // 2. Save and reload, as a user does between processes.
    let obb = save_and_reload(obb, &args.out.join("bunny_obb.clash"))?;
    let aabb = save_and_reload(aabb, &args.out.join("bunny_aabb.clash"))?;
    let rss = save_and_reload(rss, &args.out.join("bunny_rss.clash"))?;

    // 3. Collision at random poses of a second bunny, in parallel.
    let root = obb.root_bv();
    let radius = root.half_extents.norm();
    let poses = random_poses(args.poses as usize, radius, 7);
    let start = Instant::now();
    let any = obb.intersects_poses(&obb, &poses);
    let t_any = start.elapsed();
    let start = Instant::now();
    let all = obb.collide_poses(&obb, &poses, &CollisionRequest::all());
    let t_all = start.elapsed();
    let colliding = any.iter().filter(|&&c| c).count();
    let pairs: usize = all.iter().map(|r| r.pairs.len()).sum();
    println!(
        "  collision, any contact: {} poses in {} on {threads} threads ({:.0} poses/s): {colliding} collide",
        poses.len(),
        seconds(t_any),
        poses.len() as f64 / t_any.as_secs_f64().max(1e-12),
    );
    println!(
        "  collision, all pairs:   {} poses in {} ({:.0} poses/s): {pairs} triangle pairs",
        poses.len(),
        seconds(t_all),
        poses.len() as f64 / t_all.as_secs_f64().max(1e-12),
    );
    let agree = any.iter().zip(&all).all(|(a, r)| *a == r.collides());
    if !agree {
        return Err(CliError::new(
            "internal error: any-contact and all-pairs answers differ",
        ));
    }

    // 4. Distance at the same poses with the RSS tree (distance's volume).
    let start = Instant::now();
    let distances: Vec<f64> = poses
        .par_iter()
        .map(|p| rss.distance(&rss, p).distance)
        .collect();
    let t_dist = start.elapsed();
    let separated: Vec<f64> = distances.iter().copied().filter(|&d| d > 0.0).collect();
    // The closest separated pose, if any is separated.
    let closest = separated
        .iter()
        .copied()
        .reduce(f64::min)
        .map_or(String::new(), |d| format!(", closest {d:.4}"));
    println!(
        "  distance (RSS tree):    {} poses in {} ({:.0} poses/s): {} separated{closest}",
        poses.len(),
        seconds(t_dist),
        poses.len() as f64 / t_dist.as_secs_f64().max(1e-12),
        separated.len(),
    );

    // 5. Rays from a sphere around the bunny towards its middle.
    let rays = random_rays(4 * args.poses as usize, root.center, 2.0 * radius, 11);
    let start = Instant::now();
    let hits = obb.cast_rays(&rays, &RayQuery::default());
    let t_rays = start.elapsed();
    let start = Instant::now();
    let hits_aabb = aabb.cast_rays(&rays, &RayQuery::default());
    let t_rays_aabb = start.elapsed();
    if hits != hits_aabb {
        return Err(CliError::new(
            "internal error: OBB and AABB trees disagree on a ray",
        ));
    }
    println!(
        "  rays: {} rays in {} with the OBB tree, {} with the AABB tree: {} hit the bunny",
        rays.len(),
        seconds(t_rays),
        seconds(t_rays_aabb),
        hits.iter().filter(|h| h.is_some()).count()
    );

    // 6. The picture.
    let path = args.out.join("demo.svg");
    let panels = [
        Panel::of_level(&aabb, args.level, "AABB", "axis-aligned bounding boxes"),
        Panel::of_level(&obb, args.level, "OBB", "oriented bounding boxes"),
    ];
    std::fs::write(&path, svg::render(obb.mesh(), &panels))
        .map_err(|e| CliError::new(format!("{}: {e}", path.display())))?;
    println!(
        "  picture: {} ({} AABBs and {} OBBs of tree level {} over the mesh)",
        path.display(),
        panels[0].boxes.len(),
        panels[1].boxes.len(),
        args.level
    );
    println!("done: every answer above came from trees saved to and reloaded from disk");
    Ok(())
}

fn timed_build<B: clash::bvh::TreeVolume<f64>>(
    mesh: &TriMesh<f64>,
    options: &BuildOptions,
    name: &str,
) -> CliResult<Bvh<f64, B>> {
    let start = Instant::now();
    let tree = Bvh::build(mesh.clone(), options).map_err(|e| CliError::new(e.to_string()))?;
    let s = tree.stats();
    println!(
        "  built {name} tree: {} nodes, depth {}, in {}",
        s.nodes,
        s.depth,
        seconds(start.elapsed())
    );
    Ok(tree)
}

fn save_and_reload<B: clash::bvh::TreeVolume<f64>>(
    tree: Bvh<f64, B>,
    path: &Path,
) -> CliResult<Bvh<f64, B>> {
    let err = |e: String| CliError::new(format!("{}: {e}", path.display()));
    tree.save(path).map_err(|e| err(e.to_string()))?;
    let start = Instant::now();
    let loaded = Bvh::<f64, B>::load(path).map_err(|e| err(e.to_string()))?;
    let elapsed = start.elapsed();
    if loaded != tree {
        return Err(err("the reloaded tree differs from the saved one".into()));
    }
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    println!(
        "  saved {} ({bytes} bytes), reloaded in {}: identical",
        path.display(),
        seconds(elapsed)
    );
    Ok(loaded)
}

/// Poses of a second bunny around the first: random orientation, offset up
/// to 1.2 bounding radii, so that about half collide.
fn random_poses(n: usize, radius: f64, seed: u64) -> Vec<Isometry3<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let axis = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            let rotation = UnitQuaternion::from_scaled_axis(axis * std::f64::consts::PI);
            let offset = Vector3::new(
                rng.random_range(-1.2..1.2),
                rng.random_range(-1.2..1.2),
                rng.random_range(-1.2..1.2),
            ) * radius;
            Isometry3::from_parts(offset.into(), rotation)
        })
        .collect()
}

fn random_rays(n: usize, center: Point3<f64>, distance: f64, seed: u64) -> Vec<Ray<f64>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut unit = || -> Vector3<f64> {
        loop {
            let v = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            let n = v.norm();
            if n > 1e-3 && n <= 1.0 {
                return v / n;
            }
        }
    };
    (0..n)
        .map(|_| {
            let origin = center + unit() * distance;
            let target = center + unit() * (0.3 * distance);
            Ray::new(origin, target - origin)
        })
        .collect()
}
