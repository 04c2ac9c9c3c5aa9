//! Reference answers from the Rust API, one query at a time, for the Python
//! tests to compare the bindings' batches with.
//!
//! ```text
//! reference QUERY BV PRECISION SPLIT LEAF_SIZE MESH_A MESH_B INPUT [T_MIN T_MAX FRONT_ONLY]
//! ```
//!
//! `QUERY` is `collide-any`, `collide-count`, `collide-pairs`, `distance`
//! (INPUT: 12 numbers per line, the row-major 3x4 pose of B in A's frame),
//! `raycast` (6: origin and direction; then the ray interval and `0`/`1`
//! for front faces only), `closest` or `signed` (3: a point; MESH_B is
//! `-`). Trees are built from the mesh files with `Bvh::build`; poses go
//! through `clash::pose::pose_from_matrix`, as the command line reads them.
//! Each answer is one line on stdout, floats in Rust's shortest round-trip
//! form (Python's `float` reads them back exactly):
//!
//! | query | line |
//! | --- | --- |
//! | `collide-any` | `true` or `false` (`Bvh::intersects`) |
//! | `collide-count` | the number of pairs (`Bvh::collide`, all pairs) |
//! | `collide-pairs` | `a b a b ...` |
//! | `distance` | `d  point_a  point_b  triangle_a triangle_b` (`Bvh::distance`) |
//! | `raycast` | `miss`, or `t triangle  point  normal` (`Bvh::cast_ray`) |
//! | `closest` | `d  point  triangle` (`Bvh::closest_point`) |
//! | `signed` | `d  point  triangle` (`Bvh::signed_distance`) |

use _clash::kind::TreeKind;
use _clash::with_kind;
use clash::bv::FitVolume;
use clash::bvh::{BuildOptions, Bvh, CollisionRequest, RayQuery, SplitRule, TreeVolume};
use clash::math::{Point3, Ray, Scalar, Vector3};
use clash::narrow::cast::Culling;
use clash::pose::pose_from_matrix;
use std::fmt::Write as _;
use std::process::ExitCode;

type Failure = Box<dyn std::error::Error>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("reference: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<String, Failure> {
    if args.len() < 8 {
        return Err("usage: reference QUERY BV PRECISION SPLIT LEAF_SIZE MESH_A MESH_B INPUT [T_MIN T_MAX FRONT_ONLY]".into());
    }
    let kind = TreeKind::parse(&args[1], &args[2]).map_err(|e| e.message().to_string())?;
    let split = match args[3].as_str() {
        "median" => SplitRule::Median,
        "mean" => SplitRule::Mean,
        "sah" => SplitRule::Sah { bins: 16 },
        other => return Err(format!("unknown split {other}").into()),
    };
    let options = BuildOptions::default()
        .with_split(split)
        .with_max_leaf_size(args[4].parse()?);
    with_kind!(kind, |T, B| answer::<T, B>(args, &options))
}

/// The numbers of each line of `path`, `count` per line.
fn lines(path: &str, count: usize) -> Result<Vec<Vec<f64>>, Failure> {
    let text = std::fs::read_to_string(path)?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v = l
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<Vec<f64>, _>>()?;
            if v.len() == count {
                Ok(v)
            } else {
                Err(format!("expected {count} numbers per line, found {}", v.len()).into())
            }
        })
        .collect()
}

fn tree<T: Scalar, B: FitVolume<T>>(
    path: &str,
    options: &BuildOptions,
) -> Result<Bvh<T, B>, Failure> {
    Ok(Bvh::build(
        clash::mesh_file::load_mesh::<T>(path)?,
        options,
    )?)
}

/// Appends `p`'s coordinates as f64.
fn push_xyz<T: Scalar>(out: &mut String, p: &Vector3<T>) {
    for k in 0..3 {
        let _ = write!(out, " {:?}", p[k].to_f64());
    }
}

fn answer<T: Scalar, B: TreeVolume<T>>(
    args: &[String],
    options: &BuildOptions,
) -> Result<String, Failure> {
    let query = args[0].as_str();
    let a = tree::<T, B>(&args[5], options)?;
    let mut out = String::new();
    match query {
        "collide-any" | "collide-count" | "collide-pairs" | "distance" => {
            let b = tree::<T, B>(&args[6], options)?;
            for v in lines(&args[7], 12)? {
                let m: [f64; 12] = std::array::from_fn(|i| v[i]);
                let pose = pose_from_matrix::<T>(&m)?.pose;
                match query {
                    "collide-any" => {
                        let _ = write!(out, "{}", a.intersects(&b, pose));
                    }
                    "collide-count" => {
                        let r = a.collide(&b, pose, &CollisionRequest::all());
                        let _ = write!(out, "{}", r.pairs.len());
                    }
                    "collide-pairs" => {
                        let r = a.collide(&b, pose, &CollisionRequest::all());
                        let flat: Vec<String> =
                            r.pairs.iter().flatten().map(u32::to_string).collect();
                        out.push_str(&flat.join(" "));
                    }
                    _ => {
                        let d = a.distance(&b, pose);
                        let _ = write!(out, "{:?}", d.distance.to_f64());
                        push_xyz(&mut out, &d.point_a.coords);
                        push_xyz(&mut out, &d.point_b.coords);
                        let _ = write!(out, " {} {}", d.triangles[0], d.triangles[1]);
                    }
                }
                out.push('\n');
            }
        }
        "raycast" => {
            let t = |i: usize| -> Result<f64, Failure> {
                Ok(args
                    .get(i)
                    .ok_or("raycast needs T_MIN T_MAX FRONT_ONLY")?
                    .parse()?)
            };
            let query = RayQuery {
                t_min: T::lit(t(8)?),
                t_max: T::lit(t(9)?),
                culling: if t(10)? != 0.0 {
                    Culling::FrontOnly
                } else {
                    Culling::BothSides
                },
            };
            for v in lines(&args[7], 6)? {
                let ray = Ray::new(
                    Point3::new(T::lit(v[0]), T::lit(v[1]), T::lit(v[2])),
                    Vector3::new(T::lit(v[3]), T::lit(v[4]), T::lit(v[5])),
                );
                match a.cast_ray(&ray, &query) {
                    None => out.push_str("miss"),
                    Some(h) => {
                        let _ = write!(out, "{:?} {}", h.t.to_f64(), h.triangle);
                        push_xyz(&mut out, &h.point.coords);
                        push_xyz(&mut out, &h.normal);
                    }
                }
                out.push('\n');
            }
        }
        "closest" | "signed" => {
            for v in lines(&args[7], 3)? {
                let p = Point3::new(T::lit(v[0]), T::lit(v[1]), T::lit(v[2]));
                let (d, c) = if query == "signed" {
                    let s = a.signed_distance(&p)?;
                    (s.distance, s.closest)
                } else {
                    let c = a.closest_point(&p);
                    (c.distance_squared.sqrt(), c)
                };
                let _ = write!(out, "{:?}", d.to_f64());
                push_xyz(&mut out, &c.point.coords);
                let _ = writeln!(out, " {}", c.triangle);
            }
        }
        other => return Err(format!("unknown query {other}").into()),
    }
    Ok(out)
}
