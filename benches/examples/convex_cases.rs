//! Times clash-convex's `query::distance` and `query::contact` (plain and
//! Nesterov GJK) on the cases of a file written by
//! `benches/compare/convex_compare.py`, which runs coal and python-fcl on
//! the same file and compares the answers.
//!
//! ```sh
//! cargo run --release -p clash-benches --example convex_cases -- CASES [--repeat N] [--tolerance T]
//! ```
//!
//! Input, one item per line (`#` starts a comment), poses as a unit
//! quaternion `w x y z` and a translation `x y z` (world from shape):
//!
//! ```text
//! shape ID sphere RADIUS
//! shape ID box HX HY HZ                 (half extents)
//! shape ID capsule HALF_HEIGHT RADIUS   (along the local z axis)
//! shape ID cylinder HALF_HEIGHT RADIUS  (along the local z axis)
//! shape ID hull N X Y Z ...             (N points; clash builds their hull)
//! case ID SHAPE_A SHAPE_B QW QX QY QZ TX TY TZ QW QX QY QZ TX TY TZ
//! ```
//!
//! Output on stdout: `clock_floor_ns F` (the median of an empty timed
//! call), then per case
//! `case ID DIST_PLAIN_NS DIST_NESTEROV_NS CONTACT_PLAIN_NS CONTACT_NESTEROV_NS
//! DIST_PLAIN DIST_NESTEROV SIGNED_PLAIN SIGNED_NESTEROV STATUS STATUS STATUS STATUS`:
//! each time is the median over `--repeat` calls (default 15) of one call
//! timed on its own (one clock pair per call, as coal's `enable_timings`),
//! each value printed in Rust's shortest round-trip form. `--tolerance`
//! sets the queries' relative tolerance (default: `QueryRequest`'s). A malformed file
//! stops with its name and line on stderr and exit code 2.

use clash_convex::gjk::GjkVariant;
use clash_convex::query::{QueryRequest, QueryStatus, contact, distance};
use clash_convex::{Ball, CapsuleShape, ConvexHull, Cuboid, Cylinder, Shape};
use clash_math::nalgebra::Quaternion;
use clash_math::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// One query to time: two shapes (indices) and their poses.
struct Case {
    id: u64,
    a: usize,
    b: usize,
    pose_a: Isometry3<f64>,
    pose_b: Isometry3<f64>,
}

/// Everything the file holds.
struct Cases {
    shapes: Vec<Shape<f64>>,
    cases: Vec<Case>,
}

/// A parse failure at a line of the input.
struct ParseError {
    line: usize,
    message: String,
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        line,
        message: message.into(),
    })
}

/// The numbers of `fields`, all finite, or an error naming the line.
fn numbers(fields: &[&str], line: usize) -> Result<Vec<f64>, ParseError> {
    fields
        .iter()
        .map(|f| match f.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => err(line, format!("`{f}` is not a finite number")),
        })
        .collect()
}

/// A pose from `w x y z tx ty tz` (the quaternion normalised).
fn pose(v: &[f64], line: usize) -> Result<Isometry3<f64>, ParseError> {
    let q = Quaternion::new(v[0], v[1], v[2], v[3]);
    if q.norm() < 0.5 {
        return err(line, "a pose's quaternion is far from unit length");
    }
    Ok(Isometry3::from_parts(
        Translation3::new(v[4], v[5], v[6]),
        UnitQuaternion::from_quaternion(q),
    ))
}

fn shape(kind: &str, v: &[f64], line: usize) -> Result<Shape<f64>, ParseError> {
    let want = |n: usize| {
        if v.len() == n {
            Ok(())
        } else {
            err(line, format!("{kind} takes {n} numbers, got {}", v.len()))
        }
    };
    let built = match kind {
        "sphere" => {
            want(1)?;
            Ball::new(v[0]).map(Shape::from)
        }
        "box" => {
            want(3)?;
            Cuboid::new(Vector3::new(v[0], v[1], v[2])).map(Shape::from)
        }
        "capsule" => {
            want(2)?;
            CapsuleShape::new(v[0], v[1]).map(Shape::from)
        }
        "cylinder" => {
            want(2)?;
            Cylinder::new(v[0], v[1]).map(Shape::from)
        }
        "hull" => {
            let n = v.first().copied().unwrap_or(-1.0);
            if n < 1.0 || n.fract() != 0.0 || v.len() != 1 + 3 * n as usize {
                return err(line, "hull takes N and then 3N coordinates");
            }
            let pts: Vec<Point3<f64>> = v[1..]
                .chunks_exact(3)
                .map(|c| Point3::new(c[0], c[1], c[2]))
                .collect();
            ConvexHull::new(&pts).map(|h| Shape::from(Arc::new(h)))
        }
        _ => return err(line, format!("unknown shape kind `{kind}`")),
    };
    built.or_else(|e| err(line, format!("invalid {kind}: {e}")))
}

fn parse(text: &str) -> Result<Cases, ParseError> {
    let mut out = Cases {
        shapes: Vec::new(),
        cases: Vec::new(),
    };
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let body = raw.split('#').next().unwrap_or("");
        let fields: Vec<&str> = body.split_whitespace().collect();
        match fields.as_slice() {
            [] => {}
            ["shape", id, kind, rest @ ..] => {
                if id.parse::<usize>().ok() != Some(out.shapes.len()) {
                    return err(
                        line,
                        format!("shape ids count up from 0; expected {}", out.shapes.len()),
                    );
                }
                out.shapes.push(shape(kind, &numbers(rest, line)?, line)?);
            }
            ["case", id, a, b, rest @ ..] => {
                let index = |s: &str| match s.parse::<usize>() {
                    Ok(i) if i < out.shapes.len() => Ok(i),
                    _ => err(line, format!("`{s}` is not a shape defined above")),
                };
                let Ok(id) = id.parse::<u64>() else {
                    return err(line, format!("`{id}` is not a case id"));
                };
                let v = numbers(rest, line)?;
                if v.len() != 14 {
                    return err(
                        line,
                        format!("a case takes two poses of 7 numbers, got {}", v.len()),
                    );
                }
                out.cases.push(Case {
                    id,
                    a: index(a)?,
                    b: index(b)?,
                    pose_a: pose(&v[..7], line)?,
                    pose_b: pose(&v[7..], line)?,
                });
            }
            [word, ..] => return err(line, format!("unknown item `{word}`")),
        }
    }
    Ok(out)
}

/// The median over `repeat` single timed calls of `f`, in nanoseconds.
fn median_ns<R>(repeat: usize, mut f: impl FnMut() -> R) -> f64 {
    let mut t: Vec<f64> = (0..repeat)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed().as_nanos() as f64
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn status(s: QueryStatus) -> &'static str {
    match s {
        QueryStatus::Converged => "ok",
        QueryStatus::IterationLimit => "limit",
        QueryStatus::UpperBoundExceeded => "bound",
        QueryStatus::NonFinitePose => "nonfinite",
    }
}

fn main() {
    let mut path = None;
    let mut repeat = 15_usize;
    let mut tolerance = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--repeat" => match args.next().and_then(|s| s.parse().ok()) {
                Some(n) if n > 0 => repeat = n,
                _ => usage("--repeat takes a positive count"),
            },
            "--tolerance" => match args.next().and_then(|s| s.parse::<f64>().ok()) {
                Some(t) if t > 0.0 && t < 1.0 => tolerance = Some(t),
                _ => usage("--tolerance takes a number in (0, 1)"),
            },
            s if s.starts_with("--") || path.is_some() => {
                usage(&format!("unexpected argument `{s}`"))
            }
            s => path = Some(s.to_owned()),
        }
    }
    let Some(path) = path else {
        usage("no case file given")
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let cases = parse(&text).unwrap_or_else(|e| {
        eprintln!("{path}:{}: {}", e.line, e.message);
        std::process::exit(2)
    });

    println!("clock_floor_ns {}", median_ns(1001, || ()));
    let default = QueryRequest::<f64>::default();
    let plain = QueryRequest {
        tolerance: tolerance.unwrap_or(default.tolerance),
        ..default
    };
    let nesterov = QueryRequest {
        gjk_variant: GjkVariant::Nesterov,
        ..plain
    };
    for c in &cases.cases {
        let (a, b) = (&cases.shapes[c.a], &cases.shapes[c.b]);
        let (pa, pb) = (&c.pose_a, &c.pose_b);
        let run_distance = |req: &QueryRequest<f64>| {
            let t = median_ns(repeat, || distance(black_box(a), pa, b, pb, req));
            (t, distance(a, pa, b, pb, req))
        };
        let run_contact = |req: &QueryRequest<f64>| {
            let t = median_ns(repeat, || contact(black_box(a), pa, b, pb, req));
            (t, contact(a, pa, b, pb, req))
        };
        let (tdp, dp) = run_distance(&plain);
        let (tdn, dn) = run_distance(&nesterov);
        let (tcp, cp) = run_contact(&plain);
        let (tcn, cn) = run_contact(&nesterov);
        println!(
            "case {} {tdp} {tdn} {tcp} {tcn} {} {} {} {} {} {} {} {}",
            c.id,
            dp.distance,
            dn.distance,
            cp.distance,
            cn.distance,
            status(dp.status),
            status(dn.status),
            status(cp.status),
            status(cn.status),
        );
    }
}

fn usage(message: &str) -> ! {
    eprintln!("convex_cases: {message}\nusage: convex_cases CASES [--repeat N] [--tolerance T]");
    std::process::exit(2)
}
