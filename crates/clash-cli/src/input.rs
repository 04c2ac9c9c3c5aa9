//! Reading the command's inputs: meshes or saved trees, poses and rays
//! files. Every error names the file, and the line for text files.

use crate::args::{BvKind, Precision, Split, TreeOptions};
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
                precision: options.precision.unwrap_or(Precision::F64),
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
    if options.basic_fit {
        o.fit = FitQuality::Basic;
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
pub fn load_tree<T: Scalar, B: clash::bvh::TreeVolume<T>>(
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

/// What a line of a poses or rays file holds.
struct LineFormat {
    /// Numbers per line.
    count: usize,
    /// What the file lists, plural (`poses`).
    items: &'static str,
    /// One line's numbers, in words.
    line: &'static str,
}

const POSE_LINES: LineFormat = LineFormat {
    count: 12,
    items: "poses",
    line: "a pose: the row-major 3x4 matrix `r00 r01 r02 tx r10 r11 r12 ty r20 r21 r22 tz`",
};

const RAY_LINES: LineFormat = LineFormat {
    count: 6,
    items: "rays",
    line: "a ray: its origin and direction `ox oy oz dx dy dz`",
};

/// The numbers of every non-blank, non-comment line of a text file, each
/// line with exactly `format.count` finite numbers.
fn number_lines(path: &Path, format: &LineFormat) -> CliResult<Vec<(usize, Vec<f64>)>> {
    let count = format.count;
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
            if v.is_nan() {
                return Err(at(format!("{token} is not a number (NaN)")));
            }
            if v.is_infinite() {
                return Err(at(if token.to_ascii_lowercase().contains("inf") {
                    format!("{token} is infinite")
                } else {
                    format!(
                        "{token} is out of f64 range (largest magnitude {:e})",
                        f64::MAX
                    )
                }));
            }
            values.push(v);
        }
        if values.len() != count {
            return Err(at(format!(
                "expected {count} numbers ({}), found {}",
                format.line,
                values.len()
            )));
        }
        out.push((n, values));
    }
    if out.is_empty() {
        return Err(CliError::new(format!(
            "{}: the file lists no {} (expected one per line, {}; blank lines and lines starting with # are skipped)",
            path.display(),
            format.items,
            format.line
        )));
    }
    Ok(out)
}

/// `v` as a `T`, or the error at `path:line` when `T` cannot hold it (a
/// double beyond f32's range for f32 trees).
fn in_range<T: Scalar>(v: f64, path: &Path, line: usize) -> CliResult<T> {
    let t = T::lit(v);
    if t.finite() {
        Ok(t)
    } else {
        Err(CliError::new(format!(
            "{}:{line}: {v:e} is out of {} range (largest magnitude {:e}); the trees are {1}, build them with --precision f64 for this range",
            path.display(),
            T::NAME,
            T::MAX.to_f64()
        )))
    }
}

/// Reads a poses file: one row-major 3x4 matrix `[R | t]` per line. Poses
/// keep the file's matrix exactly (trees place triangles with it, as FCL
/// does), unless it is only approximately orthonormal, when the nearest
/// rotation is used instead (`clash::pose`).
pub fn read_poses<T: Scalar>(path: &Path) -> CliResult<Vec<RelativePose<T>>> {
    let mut adjusted = Vec::new();
    let poses = number_lines(path, &POSE_LINES)?
        .into_iter()
        .map(|(n, v)| {
            // A translation the trees' scalar cannot hold, named as the rays'
            // coordinates are (before `pose_from_matrix` would refuse it).
            for k in [3, 7, 11] {
                in_range::<T>(v[k], path, n)?;
            }
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

/// The precision `raycast` builds a mesh's tree in by default: `f32` when
/// every coordinate of the mesh is an `f32` value within `f32`'s coordinate
/// range (binary STL meshes always store `f32`), so that the faster tree
/// keeps the mesh as given; else `f64`. The rays are then read in `f32`.
pub fn ray_precision(mesh: &Path) -> CliResult<Precision> {
    let limit = <f32 as Scalar>::MAX_COORDINATE.to_f64();
    let single = |x: f64| (x as f32) as f64 == x && x.abs() <= limit;
    let mesh =
        clash::mesh_file::load_mesh::<f64>(mesh).map_err(|e| CliError::new(e.to_string()))?;
    let fits = mesh.vertices().iter().all(|p| p.iter().all(|&x| single(x)));
    Ok(if fits { Precision::F32 } else { Precision::F64 })
}

/// Reads a rays file: `ox oy oz dx dy dz` per line.
pub fn read_rays<T: Scalar>(path: &Path) -> CliResult<Vec<Ray<T>>> {
    number_lines(path, &RAY_LINES)?
        .into_iter()
        .map(|(n, v)| {
            let c = |i: usize| in_range::<T>(v[i], path, n);
            let dir = Vector3::new(c(3)?, c(4)?, c(5)?);
            if dir == Vector3::zeros() {
                let written = v[3..6].iter().any(|&d| d != 0.0);
                return Err(CliError::new(format!(
                    "{}:{n}: the ray direction is zero{}",
                    path.display(),
                    if written {
                        format!(" in {} (its components round to 0)", T::NAME)
                    } else {
                        String::new()
                    }
                )));
            }
            let ray = Ray::new(Point3::new(c(0)?, c(1)?, c(2)?), dir);
            ray.check_range()
                .map_err(|e| CliError::new(format!("{}:{n}: {e}", path.display())))?;
            Ok(ray)
        })
        .collect()
}

fn file_error(path: &Path, e: std::io::Error) -> CliError {
    CliError::new(format!("{}: {e}", path.display()))
}
