//! The batch queries: `collide`, `distance`, `raycast`, `closest_points`,
//! `signed_distance`. Each reads its arrays (a copy), releases the GIL,
//! converts and checks the input and runs the queries on a rayon pool
//! (`threads=`), and returns numpy arrays in input order. Each query is the
//! Rust API's call on the converted input, so the answers are the Rust
//! API's, whatever the thread count.

use crate::arrays::{self, rows, vector};
use crate::convex::{self, Body};
use crate::error::{Error, Result, catch_panic};
use crate::input::{self, Array};
use crate::kind::AnyTree;
use crate::pool;
use crate::tree::Tree;
use crate::{with_tree, with_tree_pair};
use clash::bv::BoundingVolume;
use clash::bvh::{BvPair, BvQuery, Bvh, RayQuery};
use clash::math::{Point3, Scalar};
use clash::narrow::cast::Culling;
use core::ops::ControlFlow;
use pyo3::exceptions::PyUserWarning;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::ffi::CString;

/// What `collide` returns per pose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollideMode {
    /// Any contact (the early-exit descent): a bool.
    Any,
    /// The number of intersecting triangle pairs.
    Count,
    /// The intersecting triangle pairs.
    Pairs,
}

impl CollideMode {
    /// The mode named `name`.
    ///
    /// # Errors
    /// [`Error::Value`] naming the accepted modes.
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "any" => Ok(Self::Any),
            "count" => Ok(Self::Count),
            "pairs" => Ok(Self::Pairs),
            other => Err(Error::Value(format!(
                "unknown mode {other:?} (expected one of any, count, pairs)"
            ))),
        }
    }
}

/// Answers of `collide`, one per pose.
enum Collisions {
    Any(Vec<bool>),
    Count(Vec<i64>),
    Pairs(Vec<Vec<[u32; 2]>>),
    /// Feature pairs with a shape (-1) on one side or both.
    Features(Vec<Vec<[i64; 2]>>),
}

/// The pose batch's note (repaired rotations), as a Python `UserWarning`.
pub(crate) fn warn(py: Python<'_>, note: Option<String>) -> PyResult<()> {
    if let Some(note) = note {
        let message = CString::new(note).map_err(|e| Error::Internal(e.to_string()))?;
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 2)?;
    }
    Ok(())
}

/// Runs a batch of `items` items without the GIL, as
/// [`pool::run_batch`] does, a panic becoming a `RuntimeError`.
pub(crate) fn batch<R: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    items: usize,
    f: impl FnOnce() -> Result<R> + Send,
) -> PyResult<R> {
    Ok(py.detach(|| catch_panic(|| pool::run_batch(threads, items, f)?))?)
}

/// The two trees' contents, or the command line's message when they are of
/// different types.
fn mismatch(a: &AnyTree, b: &AnyTree) -> Error {
    Error::Value(format!(
        "a is a tree of type {} but b is one of type {}; build both with the same bv and precision",
        a.kind().name(),
        b.kind().name()
    ))
}

fn collide_as<T: Scalar, B: BoundingVolume<T> + BvPair<T, B>>(
    a: &Bvh<T, B>,
    b: &Bvh<T, B>,
    poses: &Array,
    mode: CollideMode,
) -> Result<(Collisions, Option<String>)> {
    let answers = match mode {
        CollideMode::Any => {
            let (v, note) = input::map_poses(poses, |q| a.intersects(b, q))?;
            (Collisions::Any(v), note)
        }
        CollideMode::Count => {
            let (v, note) = input::map_poses(poses, |q| {
                let mut n = 0_i64;
                let _ = a.for_each_contact(b, q, |_| {
                    n += 1;
                    ControlFlow::Continue(())
                });
                n
            })?;
            (Collisions::Count(v), note)
        }
        CollideMode::Pairs => {
            let all = clash::bvh::CollisionRequest::all();
            let (v, note) = input::map_poses(poses, |q| a.collide(b, q, &all).pairs)?;
            (Collisions::Pairs(v), note)
        }
    };
    Ok(answers)
}

/// Collision of ``b`` placed by each pose against ``a``.
///
/// ``a`` and ``b`` are each a ``Tree`` or a ``Shape``; two trees must be of
/// the same volume type and precision, a tree met with a shape must be
/// ``f64``. ``poses`` is an ``(N, 4, 4)`` or ``(N, 3, 4)`` array: pose ``i``
/// maps a point of ``b`` into ``a``'s frame, ``x_a = R x_b + t``, and the
/// matrix is used exactly as given (rotations orthonormal only to about
/// 1e-5 are replaced by the nearest rotation, with a ``UserWarning``).
/// Touching counts as intersecting.
///
/// ``mode="any"`` returns an ``(N,)`` bool array (stops at the first
/// contact), ``"count"`` an ``(N,)`` int64 array of intersecting feature
/// pairs, ``"pairs"`` a list of ``(k, 2)`` int64 arrays ``[feature of a,
/// feature of b]``: a mesh's features are its triangles, a shape is one
/// feature numbered -1. Runs without the GIL on ``threads`` threads
/// (``None``: every core); the answers do not depend on it.
#[pyfunction]
#[pyo3(signature = (a, b, poses, mode="any", threads=None))]
pub fn collide<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    poses: &Bound<'py, PyAny>,
    mode: &str,
    #[pyo3(from_py_with = crate::pool::threads_from_py)] threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let mode = CollideMode::parse(mode)?;
    let (a, b) = (Body::extract(a, "a")?, Body::extract(b, "b")?);
    let poses = arrays::read_f64(poses, "poses")?;
    let (answers, note) = batch(py, threads, poses.rows(), || match (&a, &b) {
        (Body::Tree(a), Body::Tree(b)) => {
            let (a, b) = (&**a, &**b);
            with_tree_pair!(a, b, (x, y) => collide_as(x, y, &poses, mode), _ => Err(mismatch(a, b)))
        }
        _ => {
            let (pairs, note) = convex::collide(&a, &b, &poses, mode)?;
            let answers = match mode {
                CollideMode::Any => Collisions::Any(pairs.iter().map(|p| !p.is_empty()).collect()),
                CollideMode::Count => {
                    Collisions::Count(pairs.iter().map(|p| p.len() as i64).collect())
                }
                CollideMode::Pairs => Collisions::Features(pairs),
            };
            Ok((answers, note))
        }
    })?;
    warn(py, note)?;
    Ok(match answers {
        Collisions::Any(v) => vector(py, v).into_any(),
        Collisions::Count(v) => vector(py, v).into_any(),
        Collisions::Pairs(v) => {
            let list = PyList::empty(py);
            for pairs in v {
                let pairs: Vec<[i64; 2]> = pairs.into_iter().map(|p| p.map(i64::from)).collect();
                list.append(rows(py, pairs))?;
            }
            list.into_any()
        }
        Collisions::Features(v) => {
            let list = PyList::empty(py);
            for pairs in v {
                list.append(rows(py, pairs))?;
            }
            list.into_any()
        }
    })
}

/// Answers of `distance`: per pose the distance, the two closest points
/// and their triangles.
type Distances = (Vec<f64>, Vec<[f64; 3]>, Vec<[f64; 3]>, Vec<[i64; 2]>);

fn xyz<T: Scalar>(p: &Point3<T>) -> [f64; 3] {
    [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]
}

fn distance_as<T: Scalar, B: BoundingVolume<T> + BvPair<T, B>>(
    a: &Bvh<T, B>,
    b: &Bvh<T, B>,
    poses: &Array,
) -> Result<(Distances, Option<String>)> {
    let (found, note) = input::map_poses(poses, |q| Some(a.distance(b, q)))?;
    let mut out: Distances = Default::default();
    for (i, d) in found.iter().flatten().enumerate() {
        if !d.distance.finite() {
            return Err(Error::Value(format!(
                "poses[{i}]: the distance is out of range for {} trees",
                T::NAME
            )));
        }
        out.0.push(d.distance.to_f64());
        out.1.push(xyz(&d.point_a));
        out.2.push(xyz(&d.point_b));
        out.3.push(d.triangles.map(i64::from));
    }
    Ok((out, note))
}

/// Distance between ``a`` and ``b`` placed by each pose (each a ``Tree`` or
/// a ``Shape``; poses as for ``collide``; RSS trees built with
/// ``split="sah"`` prune best).
///
/// Returns ``(distance, point_a, point_b, triangles)``: ``(N,)`` float64
/// distances (0 when they touch or intersect), ``(N, 3)`` closest points on
/// ``a`` and on ``b``, both in ``a``'s frame, and ``(N, 2)`` int64 triangle
/// indices ``[in a, in b]`` (-1 for a shape).
#[pyfunction]
#[pyo3(signature = (a, b, poses, threads=None))]
#[allow(clippy::type_complexity)]
pub fn distance<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    poses: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = crate::pool::threads_from_py)] threads: Option<usize>,
) -> PyResult<(
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
)> {
    let (a, b) = (Body::extract(a, "a")?, Body::extract(b, "b")?);
    let poses = arrays::read_f64(poses, "poses")?;
    let ((d, pa, pb, tri), note) = batch(py, threads, poses.rows(), || match (&a, &b) {
        (Body::Tree(a), Body::Tree(b)) => {
            let (a, b) = (&**a, &**b);
            with_tree_pair!(a, b, (x, y) => distance_as(x, y, &poses), _ => Err(mismatch(a, b)))
        }
        _ => {
            let (found, note) = convex::distance(&a, &b, &poses)?;
            let mut out: Distances = Default::default();
            for (i, (d, pa, pb, t)) in found.into_iter().enumerate() {
                if !d.is_finite() {
                    return Err(Error::Value(format!(
                        "poses[{i}]: the distance is not finite"
                    )));
                }
                out.0.push(d);
                out.1.push(pa);
                out.2.push(pb);
                out.3.push(t);
            }
            Ok((out, note))
        }
    })?;
    warn(py, note)?;
    Ok((
        vector(py, d).into_any(),
        rows(py, pa).into_any(),
        rows(py, pb).into_any(),
        rows(py, tri).into_any(),
    ))
}

/// The signed distance between ``a`` and ``b`` placed by each pose, with
/// the contact normal and a witness point on each: at least one of them a
/// ``Shape`` (the other a ``Shape`` or an ``f64`` ``Tree``; poses as for
/// ``collide``).
///
/// Two shapes: minus the penetration depth when they overlap (moving ``b``
/// by ``-distance * normal`` makes them touch), 0 when they touch, the
/// distance when apart. A mesh is a surface, not a solid: its answer is the
/// deepest contact of one of its triangles with the shape (the smallest
/// triangle among equally deep ones), or the distance when none meets it.
///
/// Returns ``(distance, normal, point_a, point_b, triangles)``: ``(N,)``
/// float64 signed distances, ``(N, 3)`` unit normals from ``a`` to ``b``,
/// ``(N, 3)`` points on ``a`` and on ``b`` (``a``'s frame), ``(N, 2)``
/// int64 triangles ``[of a, of b]`` (-1 for a shape). Raises ``ValueError``
/// for two trees.
#[pyfunction]
#[pyo3(signature = (a, b, poses, threads=None))]
#[allow(clippy::type_complexity)]
pub fn contact<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    poses: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = crate::pool::threads_from_py)] threads: Option<usize>,
) -> PyResult<(
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
)> {
    let (a, b) = (Body::extract(a, "a")?, Body::extract(b, "b")?);
    let poses = arrays::read_f64(poses, "poses")?;
    let (found, note) = batch(py, threads, poses.rows(), || {
        convex::contact(&a, &b, &poses)
    })?;
    warn(py, note)?;
    let mut d = Vec::with_capacity(found.len());
    let (mut n, mut pa, mut pb, mut t) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for row in found {
        d.push(row.0);
        n.push(row.1);
        pa.push(row.2);
        pb.push(row.3);
        t.push(row.4);
    }
    Ok((
        vector(py, d).into_any(),
        rows(py, n).into_any(),
        rows(py, pa).into_any(),
        rows(py, pb).into_any(),
        rows(py, t).into_any(),
    ))
}

/// Answers of `raycast`: hit, t, triangle, point, normal.
type Hits = (Vec<bool>, Vec<f64>, Vec<i64>, Vec<[f64; 3]>, Vec<[f64; 3]>);

fn raycast_as<T: Scalar, B: BvQuery<T>>(
    tree: &Bvh<T, B>,
    origins: &Array,
    directions: &Array,
    t_range: (f64, f64),
    culling: Culling,
) -> Result<Hits> {
    let rays = input::rays::<T>(origins, directions)?;
    let query = RayQuery {
        t_min: T::lit(t_range.0),
        t_max: T::lit(t_range.1),
        culling,
    };
    let found: Vec<_> = if pool::inline() {
        rays.iter().map(|r| tree.cast_ray(r, &query)).collect()
    } else {
        tree.cast_rays(&rays, &query)
    };
    let mut out: Hits = Default::default();
    for h in found {
        out.0.push(h.is_some());
        out.1.push(h.map_or(f64::INFINITY, |h| h.t.to_f64()));
        out.2.push(h.map_or(-1, |h| i64::from(h.triangle)));
        out.3.push(h.map_or([0.0; 3], |h| xyz(&h.point)));
        out.4.push(h.map_or([0.0; 3], |h| {
            [
                h.normal.x.to_f64(),
                h.normal.y.to_f64(),
                h.normal.z.to_f64(),
            ]
        }));
    }
    Ok(out)
}

/// Casts rays at the mesh: the closest hit of each within ``[t_min,
/// t_max]`` (watertight: a ray through a shared edge or vertex hits one of
/// its triangles; among equal ``t``, the smallest triangle index).
/// ``origins`` and ``directions`` are ``(N, 3)`` arrays; ``t`` is in units of
/// the direction's length; ``t_min=-inf`` casts the whole line before
/// ``t_max`` (hits behind the origin have ``t < 0``). ``front_faces_only``
/// ignores back faces.
///
/// Returns ``(hit, t, triangle, point, normal)``: ``(N,)`` bool, ``(N,)``
/// float64 (``inf`` for a miss), ``(N,)`` int64 (-1 for a miss), ``(N, 3)``
/// hit points and ``(N, 3)`` unit triangle normals (zeros for a miss).
#[pyfunction]
#[pyo3(signature = (tree, origins, directions, t_min=0.0, t_max=f64::INFINITY, front_faces_only=false, threads=None))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn raycast<'py>(
    py: Python<'py>,
    tree: &Bound<'py, Tree>,
    origins: &Bound<'py, PyAny>,
    directions: &Bound<'py, PyAny>,
    t_min: f64,
    t_max: f64,
    front_faces_only: bool,
    #[pyo3(from_py_with = crate::pool::threads_from_py)] threads: Option<usize>,
) -> PyResult<(
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
)> {
    if t_min.is_nan() || t_max.is_nan() {
        return Err(Error::Value("t_min and t_max must be numbers, not NaN".into()).into());
    }
    let origins = arrays::read_f64(origins, "origins")?;
    let directions = arrays::read_f64(directions, "directions")?;
    let culling = if front_faces_only {
        Culling::FrontOnly
    } else {
        Culling::BothSides
    };
    let tree = &*tree.get().tree;
    let (hit, t, tri, point, normal) = batch(
        py,
        threads,
        origins.rows(),
        || with_tree!(tree, x => raycast_as(x, &origins, &directions, (t_min, t_max), culling)),
    )?;
    Ok((
        vector(py, hit).into_any(),
        vector(py, t).into_any(),
        vector(py, tri).into_any(),
        rows(py, point).into_any(),
        rows(py, normal).into_any(),
    ))
}

/// Answers of `closest_points` and `signed_distance`: distance, point, triangle.
type Closest = (Vec<f64>, Vec<[f64; 3]>, Vec<i64>);

fn closest_as<T: Scalar, B: BvQuery<T>>(
    tree: &Bvh<T, B>,
    points: &Array,
    signed: bool,
) -> Result<Closest> {
    let pts = input::points::<T>(points, "points")?;
    let found: Vec<(T, _)> = if signed {
        if !tree.is_closed() {
            return Err(Error::Value(
                clash::bvh::SignedDistanceError::NotClosed.to_string(),
            ));
        }
        pool::map(&pts, |_, p| {
            tree.signed_distance(p)
                .map(|s| (s.distance, s.closest))
                .map_err(|e| Error::Value(e.to_string()))
        })
        .into_iter()
        .collect::<Result<_>>()?
    } else {
        pool::map(&pts, |_, p| {
            let c = tree.closest_point(p);
            (c.distance_squared.sqrt(), c)
        })
    };
    let mut out: Closest = Default::default();
    for (i, (d, c)) in found.into_iter().enumerate() {
        if !d.finite() {
            return Err(Error::Value(format!(
                "points[{i}]: the distance is out of range for {} trees",
                T::NAME
            )));
        }
        out.0.push(d.to_f64());
        out.1.push(xyz(&c.point));
        out.2.push(i64::from(c.triangle));
    }
    Ok(out)
}

/// The three arrays of a closest-point answer.
type ClosestArrays<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>);

fn closest_query<'py>(
    py: Python<'py>,
    tree: &Bound<'py, Tree>,
    points: &Bound<'py, PyAny>,
    threads: Option<usize>,
    signed: bool,
) -> PyResult<ClosestArrays<'py>> {
    let points = arrays::read_f64(points, "points")?;
    let tree = &*tree.get().tree;
    let (d, p, t) = batch(
        py,
        threads,
        points.rows(),
        || with_tree!(tree, x => closest_as(x, &points, signed)),
    )?;
    Ok((
        vector(py, d).into_any(),
        rows(py, p).into_any(),
        vector(py, t).into_any(),
    ))
}

/// The point of the mesh closest to each of ``points`` (an ``(N, 3)``
/// array).
///
/// Returns ``(distance, point, triangle)``: ``(N,)`` float64 distances,
/// ``(N, 3)`` closest points and ``(N,)`` int64 triangle indices (the
/// smallest among equally close triangles).
#[pyfunction]
#[pyo3(signature = (tree, points, threads=None))]
pub fn closest_points<'py>(
    py: Python<'py>,
    tree: &Bound<'py, Tree>,
    points: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = crate::pool::threads_from_py)] threads: Option<usize>,
) -> PyResult<ClosestArrays<'py>> {
    closest_query(py, tree, points, threads, false)
}

/// Signed distance from a closed mesh to each of ``points``: negative
/// inside, positive outside, zero on the surface (the sign of the
/// angle-weighted pseudo-normal of the closest feature).
///
/// Returns ``(distance, point, triangle)`` as ``closest_points`` does.
/// Raises ``ValueError`` when the mesh is not closed.
#[pyfunction]
#[pyo3(signature = (tree, points, threads=None))]
pub fn signed_distance<'py>(
    py: Python<'py>,
    tree: &Bound<'py, Tree>,
    points: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = crate::pool::threads_from_py)] threads: Option<usize>,
) -> PyResult<ClosestArrays<'py>> {
    closest_query(py, tree, points, threads, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes() {
        assert_eq!(CollideMode::parse("any"), Ok(CollideMode::Any));
        assert_eq!(CollideMode::parse("count"), Ok(CollideMode::Count));
        assert_eq!(CollideMode::parse("pairs"), Ok(CollideMode::Pairs));
        assert_eq!(
            CollideMode::parse("all"),
            Err(Error::Value(
                "unknown mode \"all\" (expected one of any, count, pairs)".into()
            ))
        );
    }
}
