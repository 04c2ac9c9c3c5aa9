//! The world's answers as Python values: collisions with their contact
//! arrays, the closest pair, and the arrays of a batch.

use crate::arrays::{rows, vector};
use clash::math::Point3;
use clash::{ObjectHandle, PairCollision, PairDistance};
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;

/// `(a, b, distance, normal, point_a, point_b, triangles)` of one colliding pair.
pub type Collision<'py> = (
    i64,
    i64,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<i64>>,
);

/// `(a, b, distance, point_a, point_b, triangles)` of the closest pair.
pub type PairDistanceRow = (i64, i64, f64, [f64; 3], [f64; 3], [i64; 2]);

/// `(distance, pairs, point_a, point_b, triangles)` of a batch.
pub type DistanceArrays<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<i64>>,
);

fn xyz(p: &Point3<f64>) -> [f64; 3] {
    [p.x, p.y, p.z]
}

/// Triangles, -1 for a shape.
fn triangles(t: &[Option<u32>; 2]) -> [i64; 2] {
    t.map(|t| t.map_or(-1, i64::from))
}

/// A colliding pair and its contacts.
pub fn collision<'py>(py: Python<'py>, c: &PairCollision<f64>) -> PyResult<Collision<'py>> {
    let k = &c.contacts;
    Ok((
        super::pose::encode(c.a),
        super::pose::encode(c.b),
        vector(py, k.iter().map(|c| c.distance).collect()),
        rows(
            py,
            k.iter()
                .map(|c| [c.normal.x, c.normal.y, c.normal.z])
                .collect(),
        ),
        rows(py, k.iter().map(|c| xyz(&c.points[0])).collect()),
        rows(py, k.iter().map(|c| xyz(&c.points[1])).collect()),
        rows(py, k.iter().map(|c| triangles(&c.triangles)).collect()),
    ))
}

/// The closest pair as a row.
pub fn distance_row(d: &PairDistance<f64>) -> PairDistanceRow {
    (
        super::pose::encode(d.a),
        super::pose::encode(d.b),
        d.distance,
        xyz(&d.points[0]),
        xyz(&d.points[1]),
        triangles(&d.triangles),
    )
}

/// The pairs of a batch, each object named by `id`, `[-1, -1]` for none.
pub fn pairs(
    found: &[Option<(ObjectHandle, ObjectHandle)>],
    id: impl Fn(ObjectHandle) -> i64,
) -> Vec<[i64; 2]> {
    found
        .iter()
        .map(|p| p.map_or([-1, -1], |(a, b)| [id(a), id(b)]))
        .collect()
}

/// The closest pairs of a batch, each object named by `id`.
pub fn distances<'py>(
    py: Python<'py>,
    found: &[Option<PairDistance<f64>>],
    id: impl Fn(ObjectHandle) -> i64,
) -> DistanceArrays<'py> {
    let mut d = Vec::with_capacity(found.len());
    let (mut p, mut pa, mut pb, mut t) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for f in found {
        match f {
            Some(f) => {
                d.push(f.distance);
                p.push([id(f.a), id(f.b)]);
                pa.push(xyz(&f.points[0]));
                pb.push(xyz(&f.points[1]));
                t.push(triangles(&f.triangles));
            }
            None => {
                d.push(f64::INFINITY);
                p.push([-1, -1]);
                pa.push([0.0; 3]);
                pb.push([0.0; 3]);
                t.push([-1, -1]);
            }
        }
    }
    (
        vector(py, d),
        rows(py, p),
        rows(py, pa),
        rows(py, pb),
        rows(py, t),
    )
}
