//! Command-line arguments (clap derive).

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// clash: collision detection for triangle meshes.
///
/// Meshes are OBJ, STL (ASCII or binary) or PLY files; trees are files
/// written by `clash build` (or the library's `Bvh::save`). Triangle indices
/// in every answer are the order of the faces in the input file.
#[derive(Debug, Parser)]
#[command(name = "clash", version, about, long_about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build a tree from a mesh file and save it.
    Build(BuildArgs),
    /// Describe a saved tree: mesh size, volume type, depth, nodes, memory, file version.
    Info(InfoArgs),
    /// Whether mesh B touches mesh A at every pose of a poses file (one JSON
    /// line per pose); `--count` also counts the intersecting triangle pairs.
    Collide(CollideArgs),
    /// Distance between meshes A and B at every pose of a poses file (one JSON line per pose).
    Distance(DistanceArgs),
    /// Cast every ray of a rays file at a mesh (one JSON line per ray).
    Raycast(RaycastArgs),
    /// Self-collision of a robot (URDF, optional SRDF) at every joint vector
    /// of a configurations file (one JSON line per configuration): whether
    /// it collides and the first pair's links, or with `--distance` the
    /// minimum distance and its pair.
    Robot(RobotArgs),
    /// Build, save, reload and query trees on a mesh shipped in the binary,
    /// and draw the tree's boxes to an SVG picture.
    Demo(DemoArgs),
}

/// Bounding volume type of a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BvKind {
    /// Axis-aligned boxes.
    Aabb,
    /// Oriented boxes (the usual choice for collision).
    Obb,
    /// Rectangle swept spheres (the usual choice for distance).
    Rss,
    /// Spheres.
    Sphere,
    /// Capsules.
    Capsule,
    /// 14-DOPs.
    Kdop14,
    /// 18-DOPs.
    Kdop18,
    /// 26-DOPs.
    Kdop26,
}

/// Scalar type of a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Precision {
    /// 32-bit floats.
    F32,
    /// 64-bit floats.
    F64,
}

/// How nodes are split.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Split {
    /// Binned surface area heuristic (16 bins).
    Sah,
    /// Median of the centroids along the longest axis.
    Median,
    /// Mean of the centroids along the longest axis.
    Mean,
}

/// The worker pool.
#[derive(Debug, Clone, Copy, Args)]
pub struct Pool {
    /// Worker threads (0: one per core). At most 4 per core: a larger
    /// number is lowered to that, with a note on stderr (the work is
    /// CPU-bound, so more threads would only time-share the cores; the
    /// answers never depend on the thread count).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub threads: usize,
}

/// Options for building a tree from a mesh.
#[derive(Debug, Clone, Args)]
pub struct TreeOptions {
    /// Bounding volume type for meshes (a saved tree keeps its own)
    /// [default: rss for `distance`, aabb for `raycast`, obb otherwise].
    #[arg(long, value_enum)]
    pub bv: Option<BvKind>,
    /// Scalar type (for meshes; a saved tree keeps its own) [default: f64;
    /// for `raycast`, f32 when every coordinate of the mesh is an f32 value
    /// within f32's coordinate range (binary STL meshes always are); the
    /// rays are read in the tree's precision].
    #[arg(long, value_enum)]
    pub precision: Option<Precision>,
    /// Split rule [default: sah for `distance` (its RSS trees prune best
    /// that way) and `raycast` (the fastest ray tree), median otherwise].
    #[arg(long, value_enum)]
    pub split: Option<Split>,
    /// Most triangles per leaf (1 to 255).
    #[arg(long, default_value_t = 1)]
    pub leaf_size: u32,
    /// Volume-minimising fits on every node (slower build, fewer overlap
    /// tests; OBB trees only, as are the two options below).
    #[arg(long, conflicts_with_all = ["tight_above", "basic_fit"])]
    pub tight: bool,
    /// Volume-minimising fits on nodes of at least this many triangles only
    /// [default: 128, which keeps most of `--tight`'s query speed for a
    /// fraction of its build time].
    #[arg(long, value_name = "TRIANGLES", conflicts_with = "basic_fit")]
    pub tight_above: Option<u32>,
    /// The basic fit on every node (continuous PCA): the quickest build,
    /// slower queries.
    #[arg(long)]
    pub basic_fit: bool,
}

/// `clash build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The mesh file (.obj, .stl, .ply).
    pub mesh: PathBuf,
    /// Where to write the tree.
    #[arg(short, long)]
    pub output: PathBuf,
    /// How to build.
    #[command(flatten)]
    pub tree: TreeOptions,
    /// The worker pool.
    #[command(flatten)]
    pub pool: Pool,
}

/// `clash info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// A tree file written by `clash build`.
    pub tree: PathBuf,
}

/// `clash collide`.
#[derive(Debug, Args)]
pub struct CollideArgs {
    /// Mesh or tree A (the reference frame).
    pub a: PathBuf,
    /// Mesh or tree B (placed by each pose).
    pub b: PathBuf,
    /// Poses of B relative to A, one per line: the row-major 3x4 matrix
    /// `r00 r01 r02 tx r10 r11 r12 ty r20 r21 r22 tz` (x_A = R x_B + t).
    /// Blank lines and lines starting with `#` are skipped.
    #[arg(long)]
    pub poses: PathBuf,
    /// Count every intersecting triangle pair (`"pairs"` in each line).
    /// Costs much more than the default answer, which stops at the first
    /// contact: every overlapping part of the two meshes is visited, so a
    /// pose in deep contact takes tens to hundreds of times longer.
    #[arg(long)]
    pub count: bool,
    /// Count and also list the intersecting triangle pairs
    /// (`"pair_list": [[index in A, index in B], ...]`); implies `--count`.
    #[arg(long)]
    pub all_pairs: bool,
    /// Only whether the meshes touch, stopping at the first contact (the
    /// default, as FCL's default request; the flag is kept for scripts).
    #[arg(long, conflicts_with_all = ["count", "all_pairs"])]
    pub any: bool,
    /// The worker pool.
    #[command(flatten)]
    pub pool: Pool,
    /// How to build trees for mesh inputs.
    #[command(flatten)]
    pub tree: TreeOptions,
}

/// `clash distance`.
#[derive(Debug, Args)]
pub struct DistanceArgs {
    /// Mesh or tree A (the reference frame).
    pub a: PathBuf,
    /// Mesh or tree B (placed by each pose).
    pub b: PathBuf,
    /// Poses of B relative to A, as for `clash collide`.
    #[arg(long)]
    pub poses: PathBuf,
    /// The worker pool.
    #[command(flatten)]
    pub pool: Pool,
    /// How to build trees for mesh inputs.
    #[command(flatten)]
    pub tree: TreeOptions,
}

/// `clash raycast`.
#[derive(Debug, Args)]
pub struct RaycastArgs {
    /// Mesh or tree.
    pub mesh: PathBuf,
    /// Rays, one per line: `ox oy oz dx dy dz` (origin and direction; the
    /// hit parameter `t` is in units of the direction's length). Blank lines
    /// and lines starting with `#` are skipped.
    #[arg(long)]
    pub rays: PathBuf,
    /// The worker pool.
    #[command(flatten)]
    pub pool: Pool,
    /// How to build a tree for a mesh input.
    #[command(flatten)]
    pub tree: TreeOptions,
}

/// `clash demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Folder for the saved trees and the picture (created if missing).
    #[arg(long, default_value = "clash-demo", value_name = "FOLDER")]
    pub out: PathBuf,
    /// Tree level whose volumes are drawn (0 is the root; at most the
    /// depth of the trees, which the demo prints).
    #[arg(long, default_value_t = 4)]
    pub level: u32,
    /// Poses for the collision and distance queries (at least 1).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u32).range(1..))]
    pub poses: u32,
    /// The worker pool.
    #[command(flatten)]
    pub pool: Pool,
}

/// `clash robot`.
#[derive(Debug, Args)]
pub struct RobotArgs {
    /// The robot's URDF (fixed, revolute, continuous and prismatic joints;
    /// collision meshes, boxes, spheres, cylinders and capsules).
    pub urdf: PathBuf,
    /// An SRDF whose `<disable_collisions>` link pairs are never checked
    /// (pairs of links joined by a joint never are).
    #[arg(long)]
    pub srdf: Option<PathBuf>,
    /// Joint vectors, one per line: the positions of the movable joints
    /// that are not mimics (revolute, continuous, prismatic), in the URDF's
    /// order, separated by spaces or commas; mimic joints follow their
    /// leader. Blank lines and `#` comments are skipped. A value outside
    /// its joint's limits is an error naming the line. `-` reads standard
    /// input.
    #[arg(long)]
    pub configs: PathBuf,
    /// Answer the minimum distance between checked link pairs (and its
    /// pair and points) instead of whether any pair collides.
    #[arg(long)]
    pub distance: bool,
    /// Accept joint values outside their limits.
    #[arg(long)]
    pub ignore_limits: bool,
    /// Where a `package://` URI's package lives, as `NAME=DIR` (repeatable;
    /// `NAME` may hold folders, e.g.
    /// `example-robot-data/robots/panda_description=./panda`). Packages not
    /// given are looked for on `ROS_PACKAGE_PATH`, then as a folder named
    /// so (or holding a `package.xml` naming it) above the URDF.
    #[arg(long = "package", value_name = "NAME=DIR")]
    pub packages: Vec<String>,
    /// Use each collision mesh's convex hull (faster; robotics users mark
    /// meshes convex this way).
    #[arg(long)]
    pub convex_hulls: bool,
    /// The worker pool.
    #[command(flatten)]
    pub pool: Pool,
}
