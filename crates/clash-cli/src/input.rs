//! Reading the command's inputs: meshes or saved trees, poses and rays
//! files. Every error names the file, and the line for text files.

use crate::args::{BvKind, Split, TreeOptions};
use crate::error::{CliError, CliResult};
use crate::tree_kind::TreeKind;
use clash::bv::BoundingVolume;
use clash::bv::RelativePose;
use clash::bvh::io::TreeHeader;
use clash::bvh::{BuildOptions, Bvh, FitQuality, SplitRule};
use clash::math::{Point3, Ray, Scalar, Vector3};
use clash::pose::{ROTATION_TOLERANCE, pose_from_matrix};
use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

/// A saved tree's header, or `None` for anything else (taken for a mesh).
pub fn tree_header(path: &Path) -> CliResult<Option<TreeHeader>> {
    let mut file = std::fs::File::open(path).map_err(|e| file_error(path, e))?;
    let mut head = vec![0u8; TreeHeader::LEN];
    let mut n = 0;
    while n < head.len() {
        match file.read(&mut head[n..]).map_err(|e| file_error(path, e))? {
            0 => break,
            k => n += k,
        }
    }
    head.truncate(n);
    if !TreeHeader::is_tree_file(&head) {
        return Ok(None);
    }
    TreeHeader::read(&head)
        .map(Some)
        .map_err(|e| CliError::new(format!("{}: {e}", path.display())))
}

/// The tree kind of `path` if it is a saved tree, else the one `options` asks
/// for (`default_bv` when they name no volume type).
pub fn kind_of(
    path: &Path,
    options: &TreeOptions,
    default_bv: BvKind,
) -> CliResult<(TreeKind, bool)> {
    Ok(match tree_header(path)? {
        Some(h) => (TreeKind::from_header(&h, path)?, true),
        None => (
            TreeKind {
                precision: options.precision,
                bv: options.bv.unwrap_or(default_bv),
            },
            false,
        ),
    })
}

/// The kind two inputs share: a saved tree fixes its own kind, meshes take it
/// from the other input or the options.
pub fn common_kind(
    a: &Path,
    b: &Path,
    options: &TreeOptions,
    default_bv: BvKind,
) -> CliResult<TreeKind> {
    let (ka, a_tree) = kind_of(a, options, default_bv)?;
    let (kb, b_tree) = kind_of(b, options, default_bv)?;
    match (a_tree, b_tree) {
        (true, true) if ka != kb => Err(CliError::new(format!(
            "{} holds a tree of type {} but {} holds one of type {}; build both with the same --bv and --precision",
            a.display(),
            ka.name(),
            b.display(),
            kb.name()
        ))),
        (true, _) => Ok(ka),
        (false, true) => Ok(kb),
        (false, false) => Ok(ka),
    }
}

/// The build options of the command line.
pub fn build_options(options: &TreeOptions) -> CliResult<BuildOptions> {
    if !(1..=255).contains(&options.leaf_size) {
        return Err(CliError::new(format!(
            "--leaf-size must be between 1 and 255, not {}",
            options.leaf_size
        )));
    }
    let mut o = BuildOptions::default()
        .with_split(match options.split.unwrap_or(Split::Median) {
            Split::Sah => SplitRule::Sah { bins: 16 },
            Split::Median => SplitRule::Median,
            Split::Mean => SplitRule::Mean,
        })
        .with_max_leaf_size(options.leaf_size);
    if options.tight {
        o.fit = FitQuality::Tight;
    }
    if let Some(min_triangles) = options.tight_above {
        o.fit = FitQuality::TightAbove { min_triangles };
    }
    Ok(o)
}

/// How a tree was obtained.
pub struct Loaded<T: Scalar, B: BoundingVolume<T>> {
    /// The tree.
    pub tree: Bvh<T, B>,
    /// `true` when read from a tree file, `false` when built from a mesh.
    pub from_file: bool,
    /// Time to load or build it.
    pub elapsed: Duration,
}

/// Loads a saved tree, or loads a mesh and builds its tree.
pub fn load_tree<T: Scalar, B: BoundingVolume<T>>(
    path: &Path,
    options: &TreeOptions,
) -> CliResult<Loaded<T, B>> {
    let start = Instant::now();
    if tree_header(path)?.is_some() {
        let tree = Bvh::<T, B>::load(path)
            .map_err(|e| CliError::new(format!("{}: {e}", path.display())))?;
        return Ok(Loaded {
            tree,
            from_file: true,
            elapsed: start.elapsed(),
        });
    }
    let mesh = clash::mesh_file::load_mesh::<T>(path).map_err(|e| CliError::new(e.to_string()))?;
    let tree = Bvh::<T, B>::build(mesh, &build_options(options)?)
        .map_err(|e| CliError::new(format!("{}: {e}", path.display())))?;
    Ok(Loaded {
        tree,
        from_file: false,
        elapsed: start.elapsed(),
    })
}

/// The numbers of every non-blank, non-comment line of a text file, each
/// line with exactly `count` finite numbers.
fn number_lines(path: &Path, count: usize, what: &str) -> CliResult<Vec<(usize, Vec<f64>)>> {
    let text = std::fs::read(path).map_err(|e| file_error(path, e))?;
    let text = String::from_utf8(text).map_err(|e| {
        let bytes = e.as_bytes();
        let line = bytes[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        CliError::new(format!("{}:{line}: not UTF-8 text", path.display()))
    })?;
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let n = k + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |msg: String| CliError::new(format!("{}:{n}: {msg}", path.display()));
        let mut values = Vec::with_capacity(count);
        for token in line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
        {
            let v: f64 = token
                .parse()
                .map_err(|_| at(format!("bad number {token:?}")))?;
            if !v.is_finite() {
                return Err(at(format!("non-finite number {token:?}")));
            }
            values.push(v);
        }
        if values.len() != count {
            return Err(at(format!(
                "expected {count} numbers ({what}), found {}",
                values.len()
            )));
        }
        out.push((n, values));
    }
    if out.is_empty() {
        return Err(CliError::new(format!(
            "{}: no {what} in the file",
            path.display()
        )));
    }
    Ok(out)
}

/// Reads a poses file: one row-major 3x4 matrix `[R | t]` per line. Poses
/// keep the file's matrix exactly (trees place triangles with it, as FCL
/// does), unless it is only approximately orthonormal, when the nearest
/// rotation is used instead (`clash::pose`).
pub fn read_poses<T: Scalar>(path: &Path) -> CliResult<Vec<RelativePose<T>>> {
    let mut adjusted = Vec::new();
    let poses = number_lines(path, 12, "a row-major 3x4 pose matrix")?
        .into_iter()
        .map(|(n, v)| {
            // number_lines gave exactly 12 numbers.
            let m: [f64; 12] = std::array::from_fn(|i| v[i]);
            let p = pose_from_matrix::<T>(&m)
                .map_err(|e| CliError::new(format!("{}:{n}: {e}", path.display())))?;
            if p.repaired {
                adjusted.push(n);
            }
            Ok(p.pose)
        })
        .collect::<CliResult<Vec<_>>>()?;
    if let Some(first) = adjusted.first() {
        eprintln!(
            "{}: {} rotation(s) orthonormal only to within {ROTATION_TOLERANCE:e} (first at line {first}) \
             were replaced by the nearest rotation",
            path.display(),
            adjusted.len()
        );
    }
    Ok(poses)
}

/// Reads a rays file: `ox oy oz dx dy dz` per line.
pub fn read_rays<T: Scalar>(path: &Path) -> CliResult<Vec<Ray<T>>> {
    number_lines(path, 6, "a ray origin and direction")?
        .into_iter()
        .map(|(n, v)| {
            let dir = Vector3::new(T::lit(v[3]), T::lit(v[4]), T::lit(v[5]));
            if dir == Vector3::zeros() {
                return Err(CliError::new(format!(
                    "{}:{n}: the ray direction is zero",
                    path.display()
                )));
            }
            Ok(Ray::new(
                Point3::new(T::lit(v[0]), T::lit(v[1]), T::lit(v[2])),
                dir,
            ))
        })
        .collect()
}

fn file_error(path: &Path, e: std::io::Error) -> CliError {
    CliError::new(format!("{}: {e}", path.display()))
}
