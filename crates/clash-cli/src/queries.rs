//! `clash build`, `info`, `collide`, `distance` and `raycast`.

use crate::args::{
    BuildArgs, BvKind, CollideArgs, DistanceArgs, InfoArgs, Precision, RaycastArgs, Split,
    TreeOptions,
};
use crate::error::{CliError, CliResult};
use crate::input::{self, Loaded};
use crate::output::{self, JsonLines, xyz};
use crate::output_file::OutputFile;
use crate::threads::with_threads;
use crate::tree_kind::{TreeKind, with_tree_kind};
use clash::bv::FlatVolume;
use clash::bvh::{BuildOptions, Bvh, CollisionRequest, RayOrder, RayQuery, SplitRule, TreeVolume};
use clash::math::Scalar;
use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;
use std::time::{Duration, Instant};

/// `f` over `items` on a pool of `threads` workers, results in input order,
/// with a progress bar and the time taken. The bar advances once per chunk:
/// a per-item update would serialise the workers on its lock.
fn timed_batch<I: Sync, R: Send>(
    items: &[I],
    threads: usize,
    what: &str,
    f: impl Fn(&I) -> R + Sync + Send,
) -> CliResult<(Vec<R>, Duration)> {
    let bar = output::progress(items.len(), what);
    let start = Instant::now();
    let chunks: Vec<Vec<R>> = with_threads(threads, || {
        items
            .par_chunks(64)
            .map(|chunk| {
                let out: Vec<R> = chunk.iter().map(&f).collect();
                bar.inc(chunk.len() as u64);
                out
            })
            .collect()
    })?;
    let elapsed = start.elapsed();
    bar.finish_and_clear();
    Ok((chunks.into_iter().flatten().collect(), elapsed))
}

fn describe<T: Scalar, B: FlatVolume<T>>(path: &Path, l: &Loaded<T, B>) {
    let s = l.tree.stats();
    eprintln!(
        "{}: {} triangles, {} tree {} in {}",
        path.display(),
        s.triangles,
        TreeKind::name_of::<T, B>(),
        if l.from_file { "loaded" } else { "built" },
        output::seconds(l.elapsed)
    );
}

/// `clash build`.
pub fn build(args: &BuildArgs) -> CliResult<()> {
    let kind = TreeKind {
        precision: args.tree.precision.unwrap_or(Precision::F64),
        bv: args.tree.bv.unwrap_or(BvKind::Obb),
    };
    if input::tree_header(&args.mesh)?.is_some() {
        return Err(CliError::new(format!(
            "{}: this is a tree file already; `clash build` reads meshes (.obj, .stl, .ply)",
            args.mesh.display()
        )));
    }
    let options = input::build_options(&args.tree)?;
    // Before the build: a bad output is found in a moment, not after it.
    let output = OutputFile::prepare(&args.output, &args.mesh)?;
    with_tree_kind!(kind, build_as(args, &options, &output))
}

fn build_as<T: Scalar, B: TreeVolume<T>>(
    args: &BuildArgs,
    options: &BuildOptions,
    output: &OutputFile,
) -> CliResult<()> {
    let start = Instant::now();
    let mesh =
        clash::mesh_file::load_mesh::<T>(&args.mesh).map_err(|e| CliError::new(e.to_string()))?;
    let read = start.elapsed();
    let bar = output::spinner("building");
    // Timed on the pool: starting its threads is not part of the build.
    let (tree, built) = with_threads(args.pool.threads, || {
        let start = Instant::now();
        let tree = Bvh::<T, B>::build(mesh, options);
        (tree, start.elapsed())
    })?;
    let tree = tree.map_err(|e| CliError::new(format!("{}: {e}", args.mesh.display())))?;
    bar.finish_and_clear();
    output.write(|path| tree.save(path))?;
    let s = tree.stats();
    println!(
        "mesh: {} (read in {})",
        args.mesh.display(),
        output::seconds(read)
    );
    println!("tree: {}", TreeKind::name_of::<T, B>());
    println!("build time: {}", output::seconds(built));
    print_stats(&s);
    println!("written: {}", args.output.display());
    Ok(())
}

/// The tree statistics lines of `build` and `info`.
fn print_stats(s: &clash::bvh::TreeStats) {
    println!("triangles: {}", s.triangles);
    println!("vertices: {}", s.vertices);
    println!("nodes: {}", s.nodes);
    println!("leaves: {}", s.leaves);
    println!("depth: {}", s.depth);
    println!("memory: {} bytes", s.memory_bytes);
    if s.sah_cost_exact {
        println!("sah cost: {:.3}", s.sah_cost);
    } else {
        println!(
            "sah cost (of the nodes' axis-aligned boxes): {:.3}",
            s.sah_cost
        );
    }
}

/// `clash info`.
pub fn info(args: &InfoArgs) -> CliResult<()> {
    let header = input::tree_header(&args.tree)?.ok_or_else(|| {
        CliError::new(format!(
            "{}: not a clash tree file (bad magic number); build one with `clash build`",
            args.tree.display()
        ))
    })?;
    let kind = TreeKind::from_header(&header, &args.tree)?;
    with_tree_kind!(kind, info_as(args, header.version))
}

fn info_as<T: Scalar, B: TreeVolume<T>>(args: &InfoArgs, version: u32) -> CliResult<()> {
    let start = Instant::now();
    let tree = Bvh::<T, B>::load(&args.tree)
        .map_err(|e| CliError::new(format!("{}: {e}", args.tree.display())))?;
    let loaded = start.elapsed();
    let file_bytes = std::fs::metadata(&args.tree).map(|m| m.len()).unwrap_or(0);
    let s = tree.stats();
    let o = tree.options();
    println!("file: {}", args.tree.display());
    println!("file version: {version}");
    println!("file size: {file_bytes} bytes");
    println!("load time: {}", output::seconds(loaded));
    println!("tree: {}", TreeKind::name_of::<T, B>());
    print_stats(&s);
    println!("closed mesh: {}", tree.is_closed());
    println!(
        "build options: split {:?}, leaf size {}, fit {:?}",
        o.split, o.max_leaf_size, o.fit
    );
    println!("best for: {}", best_for(B::NAME, o.split));
    Ok(())
}

/// Which of the command's queries a tree of this volume type and split
/// answers fastest (the defaults of `collide`, `distance` and `raycast`).
fn best_for(bv: &str, split: SplitRule) -> &'static str {
    match (bv, split) {
        ("aabb", SplitRule::Sah { .. }) => "rays (the tree `raycast` builds by default)",
        ("aabb", _) => "rays, fastest when split by SAH (`--split sah`)",
        ("obb", _) => "mesh/mesh collision (the tree `collide` builds by default)",
        ("rss", SplitRule::Sah { .. }) => "distance (the tree `distance` builds by default)",
        ("rss", _) => "distance, fastest when split by SAH (`--split sah`)",
        _ => {
            "collision and distance; the defaults are OBB trees for `collide`, \
             RSS/SAH for `distance` and AABB/SAH for `raycast`"
        }
    }
}

#[derive(Serialize)]
struct CollideLine<'a> {
    pose: usize,
    collide: bool,
    /// With `--count` or `--all-pairs`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pairs: Option<usize>,
    /// With `--all-pairs`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pair_list: Option<&'a [[u32; 2]]>,
}

/// `clash collide`.
pub fn collide(args: &CollideArgs) -> CliResult<()> {
    let kind = input::common_kind(&args.a, &args.b, &args.tree, BvKind::Obb)?;
    with_tree_kind!(kind, collide_as(args))
}

fn load_pair<T: Scalar, B: TreeVolume<T>>(
    a: &Path,
    b: &Path,
    options: &TreeOptions,
    threads: usize,
) -> CliResult<(Bvh<T, B>, Bvh<T, B>)> {
    let la = with_threads(threads, || input::load_tree::<T, B>(a, options))??;
    describe(a, &la);
    let lb = with_threads(threads, || input::load_tree::<T, B>(b, options))??;
    describe(b, &lb);
    Ok((la.tree, lb.tree))
}

fn summary(what: &str, n: usize, elapsed: std::time::Duration, threads: usize) {
    let s = elapsed.as_secs_f64();
    let threads = if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    };
    eprintln!(
        "{what}: {n} {} in {s:.6} s ({:.0} {}/s, {threads} threads)",
        if what == "raycast" { "rays" } else { "poses" },
        n as f64 / s.max(1e-12),
        if what == "raycast" { "rays" } else { "poses" },
    );
}

fn collide_as<T: Scalar, B: TreeVolume<T>>(args: &CollideArgs) -> CliResult<()> {
    let poses = input::read_poses::<T>(&args.poses)?;
    let (a, b) = load_pair::<T, B>(&args.a, &args.b, &args.tree, args.pool.threads)?;
    let count = args.count || args.all_pairs;
    let request = CollisionRequest::all();
    // (collides, number of pairs when counted, the pairs when listed)
    let (results, elapsed) = timed_batch(&poses, args.pool.threads, "collide", |pose| {
        if count {
            let r = a.collide(&b, pose, &request);
            let (collides, n) = (r.collides(), r.pairs.len());
            let listed = if args.all_pairs { r.pairs } else { Vec::new() };
            (collides, Some(n), listed)
        } else {
            // The any-contact descent: stops at the first contact.
            (a.intersects(&b, pose), None, Vec::new())
        }
    })?;
    let mut out = JsonLines::stdout();
    for (i, (collide, pairs, listed)) in results.iter().enumerate() {
        out.write(&CollideLine {
            pose: i,
            collide: *collide,
            pairs: *pairs,
            pair_list: args.all_pairs.then_some(&listed[..]),
        })?;
    }
    out.finish()?;
    summary("collide", poses.len(), elapsed, args.pool.threads);
    Ok(())
}

#[derive(Serialize)]
struct DistanceLine {
    pose: usize,
    distance: f64,
    point_a: [f64; 3],
    point_b: [f64; 3],
    triangle_a: u32,
    triangle_b: u32,
}

/// `clash distance`.
pub fn distance(args: &DistanceArgs) -> CliResult<()> {
    // RSS trees (PQP's choice for distance) split by binned SAH: the tree
    // that answers distance queries fastest (docs/benchmarks.md).
    let mut tree = args.tree.clone();
    tree.split.get_or_insert(Split::Sah);
    let kind = input::common_kind(&args.a, &args.b, &tree, BvKind::Rss)?;
    with_tree_kind!(kind, distance_as(args, &tree))
}

fn distance_as<T: Scalar, B: TreeVolume<T>>(
    args: &DistanceArgs,
    tree: &TreeOptions,
) -> CliResult<()> {
    let poses = input::read_poses::<T>(&args.poses)?;
    let (a, b) = load_pair::<T, B>(&args.a, &args.b, tree, args.pool.threads)?;
    let (results, elapsed) = timed_batch(&poses, args.pool.threads, "distance", |pose| {
        a.distance(&b, pose)
    })?;
    let mut out = JsonLines::stdout();
    for (i, d) in results.iter().enumerate() {
        out.write(&DistanceLine {
            pose: i,
            distance: d.distance.to_f64(),
            point_a: xyz(&d.point_a),
            point_b: xyz(&d.point_b),
            triangle_a: d.triangles[0],
            triangle_b: d.triangles[1],
        })?;
    }
    out.finish()?;
    summary("distance", poses.len(), elapsed, args.pool.threads);
    Ok(())
}

#[derive(Serialize)]
struct RayLine {
    ray: usize,
    hit: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    t: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    triangle: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    point: Option<[f64; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    normal: Option<[f64; 3]>,
}

/// `clash raycast`. A mesh gets the fastest ray tree unless the options say
/// otherwise: AABB split by SAH, in f32 when the mesh loses nothing in it.
pub fn raycast(args: &RaycastArgs) -> CliResult<()> {
    let mut tree = args.tree.clone();
    tree.split.get_or_insert(Split::Sah);
    if tree.precision.is_none() && input::tree_header(&args.mesh)?.is_none() {
        tree.precision = Some(input::ray_precision(&args.mesh)?);
    }
    let (kind, _) = input::kind_of(&args.mesh, &tree, BvKind::Aabb)?;
    with_tree_kind!(kind, raycast_as(args, &tree))
}

fn raycast_as<T: Scalar, B: TreeVolume<T>>(
    args: &RaycastArgs,
    options: &TreeOptions,
) -> CliResult<()> {
    let rays = input::read_rays::<T>(&args.rays)?;
    let loaded = with_threads(args.pool.threads, || {
        let mut loaded = input::load_tree::<T, B>(&args.mesh, options)?;
        // The layout ray casts traverse is part of the ray tree: derived and
        // timed with it here, not in the batch.
        let start = Instant::now();
        loaded.tree.prepare_rays();
        loaded.elapsed += start.elapsed();
        CliResult::Ok(loaded)
    })??;
    describe(&args.mesh, &loaded);
    let tree = loaded.tree;
    let query = RayQuery::default();
    let bar = output::progress(rays.len(), "raycast");
    let start = Instant::now();
    let hits = with_threads(args.pool.threads, || {
        tree.cast_rays_with(&rays, &query, RayOrder::Auto, |n| bar.inc(n as u64))
    })?;
    let elapsed = start.elapsed();
    bar.finish_and_clear();
    let mut out = JsonLines::stdout();
    for (i, h) in hits.iter().enumerate() {
        out.write(&RayLine {
            ray: i,
            hit: h.is_some(),
            t: h.map(|h| h.t.to_f64()),
            triangle: h.map(|h| h.triangle),
            point: h.map(|h| xyz(&h.point)),
            normal: h.map(|h| {
                [
                    h.normal.x.to_f64(),
                    h.normal.y.to_f64(),
                    h.normal.z.to_f64(),
                ]
            }),
        })?;
    }
    out.finish()?;
    summary("raycast", rays.len(), elapsed, args.pool.threads);
    Ok(())
}
