//! The batch queries when one side (or both) is a `clash.Shape`: a tree
//! against a shape (`Bvh::intersects_convex`, `distance_to_convex`,
//! `contacts_with_convex`) and a shape against a shape
//! (`clash::convex::query`). As for two trees, `a` stays at the origin and
//! pose `i` places `b` in `a`'s frame; answers are in `a`'s frame, and a
//! shape's "triangle" is -1.

use crate::error::{Error, Result};
use crate::input::{self, Array};
use crate::kind::AnyTree;
use crate::queries::CollideMode;
use crate::shape::PyShape;
use crate::tree::Tree;
use crate::with_f64_tree;
use clash::bv::RelativePose;
use clash::bvh::{BvQuery, Bvh, TriangleContact};
use clash::convex::Shape;
use clash::convex::query::{self, QueryRequest};
use clash::math::{Isometry3, Point3, Vector3};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use std::sync::Arc;

/// One side of a query: a tree or a convex shape.
pub enum Body {
    /// A `clash.Tree`.
    Tree(Arc<AnyTree>),
    /// A `clash.Shape`.
    Shape(Arc<Shape<f64>>),
}

impl Body {
    /// `obj` as a tree or a shape.
    ///
    /// # Errors
    /// `TypeError` naming the argument for anything else.
    pub fn extract(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Self> {
        if let Ok(t) = obj.cast::<Tree>() {
            return Ok(Self::Tree(t.get().tree.clone()));
        }
        if let Ok(s) = obj.cast::<PyShape>() {
            return Ok(Self::Shape(s.get().shape.clone()));
        }
        Err(PyTypeError::new_err(format!(
            "{name} must be a clash.Tree or a clash.Shape, not {}",
            obj.get_type().name()?
        )))
    }
}

/// What one pose answers for `collide`: the meeting feature pairs
/// (triangles, -1 for a shape), or only whether there is one.
pub type FeaturePairs = Vec<[i64; 2]>;

/// One pose's distance answer: distance, point on `a`, point on `b`,
/// features `[of a, of b]`.
pub type DistanceRow = (f64, [f64; 3], [f64; 3], [i64; 2]);

/// One pose's contact answer: signed distance, normal from `a` to `b`,
/// point on `a`, point on `b`, features.
pub type ContactRow = (f64, [f64; 3], [f64; 3], [f64; 3], [i64; 2]);

fn xyz(p: &Point3<f64>) -> [f64; 3] {
    [p.x, p.y, p.z]
}

fn vec3(v: &Vector3<f64>) -> [f64; 3] {
    [v.x, v.y, v.z]
}

/// The message for an `f32` tree met with a shape.
fn f32_tree(tree: &AnyTree, name: &str) -> Error {
    Error::Value(format!(
        "{name} is a tree of type {}, but queries with convex shapes need f64 trees; \
         build it with precision=\"f64\"",
        tree.kind().name()
    ))
}

/// A tree and a shape, the shape placed by a pose in the tree's frame.
struct TreeShape<'a, B: BvQuery<f64>> {
    tree: &'a Bvh<f64, B>,
    shape: &'a Shape<f64>,
}

impl<B: BvQuery<f64>> TreeShape<'_, B> {
    fn triangles(&self, pose: &Isometry3<f64>) -> Vec<u32> {
        self.tree
            .triangles_meeting_convex(self.shape, pose, &QueryRequest::default())
    }

    /// Distance, point on the tree, point on the shape, triangle.
    fn distance(&self, pose: &Isometry3<f64>) -> Result<(f64, Point3<f64>, Point3<f64>, u32)> {
        let d = self
            .tree
            .distance_to_convex(self.shape, pose, &QueryRequest::default())
            .ok_or_else(|| Error::Internal("no distance for a finite pose".into()))?;
        Ok((
            d.distance,
            d.nearest_points[0],
            d.nearest_points[1],
            d.triangle,
        ))
    }

    /// The deepest triangle contact (least signed distance, the smallest
    /// triangle among equals), else the distance as a contact.
    fn contact(&self, pose: &Isometry3<f64>) -> Result<ContactRow> {
        let req = QueryRequest::default();
        let contacts = self.tree.contacts_with_convex(self.shape, pose, &req);
        let mut deepest = None;
        for c in &contacts {
            if deepest
                .is_none_or(|d: &TriangleContact<f64>| c.contact.distance < d.contact.distance)
            {
                deepest = Some(c);
            }
        }
        if let Some(c) = deepest {
            let r = &c.contact;
            return Ok((
                r.distance,
                vec3(&r.normal),
                xyz(&r.nearest_points[0]),
                xyz(&r.nearest_points[1]),
                [i64::from(c.triangle), -1],
            ));
        }
        let (d, pa, pb, t) = self.distance(pose)?;
        // Apart, so `d > 0`; a zero normal if rounding says otherwise.
        let normal = if d > 0.0 {
            (pb - pa) / d
        } else {
            Vector3::zeros()
        };
        Ok((d, vec3(&normal), xyz(&pa), xyz(&pb), [i64::from(t), -1]))
    }
}

/// A pose's answers turned to the other side: computed with `b` first
/// (placed at the identity, `a` at `inverse`), mapped back to `a`'s frame by
/// `pose`.
fn swap_contact(pose: &Isometry3<f64>, row: ContactRow) -> ContactRow {
    let (d, n, pb, pa, [tb, ta]) = row;
    let map = |p: [f64; 3]| xyz(&(pose * Point3::from(p)));
    let n = pose * -Vector3::from(n);
    (d, vec3(&n), map(pa), map(pb), [ta, tb])
}

/// Runs `f` on each pose as [`crate::pool::map`] runs, in input order,
/// naming the first failing pose.
fn each<R: Send>(
    poses: &[RelativePose<f64>],
    f: impl Fn(&Isometry3<f64>) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    let out: Vec<Result<R>> = crate::pool::map(poses, |_, q| f(&q.iso));
    out.into_iter()
        .enumerate()
        .map(|(i, r)| r.map_err(|e| e.context(&format!("poses[{i}]"))))
        .collect()
}

/// `collide` with at least one shape: the feature pairs of each pose (for
/// `any`, a marker pair or none: only whether there is one counts).
pub fn collide(
    a: &Body,
    b: &Body,
    poses: &Array,
    mode: CollideMode,
) -> Result<(Vec<FeaturePairs>, Option<String>)> {
    let p = input::poses::<f64>(poses)?;
    let any = mode == CollideMode::Any;
    let req = QueryRequest::default();
    let answers = match (a, b) {
        (Body::Shape(sa), Body::Shape(sb)) => each(&p.poses, |q| {
            let (sa, sb) = (&**sa, &**sb);
            let hit = query::intersects(sa, &Isometry3::identity(), sb, q, &req);
            Ok(if hit { vec![[-1, -1]] } else { Vec::new() })
        })?,
        (Body::Tree(t), Body::Shape(s)) => with_f64_tree!(&**t, tree => {
            let ts = TreeShape { tree, shape: s };
            each(&p.poses, |q| Ok(if any {
                if tree.intersects_convex(&**s, q, &req) { vec![[-1, -1]] } else { Vec::new() }
            } else {
                ts.triangles(q).into_iter().map(|t| [i64::from(t), -1]).collect()
            }))?
        }, _ => return Err(f32_tree(t, "a"))),
        (Body::Shape(s), Body::Tree(t)) => with_f64_tree!(&**t, tree => {
            let ts = TreeShape { tree, shape: s };
            each(&p.poses, |q| {
                let inv = q.inverse();
                Ok(if any {
                    if tree.intersects_convex(&**s, &inv, &req) { vec![[-1, -1]] } else { Vec::new() }
                } else {
                    ts.triangles(&inv).into_iter().map(|t| [-1, i64::from(t)]).collect()
                })
            })?
        }, _ => return Err(f32_tree(t, "b"))),
        (Body::Tree(_), Body::Tree(_)) => {
            return Err(Error::Internal("two trees take the mesh path".into()));
        }
    };
    Ok((answers, p.note))
}

/// `distance` with at least one shape.
pub fn distance(a: &Body, b: &Body, poses: &Array) -> Result<(Vec<DistanceRow>, Option<String>)> {
    let p = input::poses::<f64>(poses)?;
    let req = QueryRequest::default();
    let answers = match (a, b) {
        (Body::Shape(sa), Body::Shape(sb)) => each(&p.poses, |q| {
            let (sa, sb) = (&**sa, &**sb);
            let d = query::distance(sa, &Isometry3::identity(), sb, q, &req);
            let [pa, pb] = d.nearest_points;
            Ok((d.distance, xyz(&pa), xyz(&pb), [-1, -1]))
        })?,
        (Body::Tree(t), Body::Shape(s)) => with_f64_tree!(&**t, tree => {
            let ts = TreeShape { tree, shape: s };
            each(&p.poses, |q| {
                let (d, pa, pb, tri) = ts.distance(q)?;
                Ok((d, xyz(&pa), xyz(&pb), [i64::from(tri), -1]))
            })?
        }, _ => return Err(f32_tree(t, "a"))),
        (Body::Shape(s), Body::Tree(t)) => with_f64_tree!(&**t, tree => {
            let ts = TreeShape { tree, shape: s };
            each(&p.poses, |q| {
                let (d, pb, pa, tri) = ts.distance(&q.inverse())?;
                Ok((d, xyz(&(q * pa)), xyz(&(q * pb)), [-1, i64::from(tri)]))
            })?
        }, _ => return Err(f32_tree(t, "b"))),
        (Body::Tree(_), Body::Tree(_)) => {
            return Err(Error::Internal("two trees take the mesh path".into()));
        }
    };
    Ok((answers, p.note))
}

/// `contact`: at least one shape.
///
/// # Errors
/// [`Error::Value`] for two trees.
pub fn contact(a: &Body, b: &Body, poses: &Array) -> Result<(Vec<ContactRow>, Option<String>)> {
    let p = input::poses::<f64>(poses)?;
    let req = QueryRequest::default();
    let answers = match (a, b) {
        (Body::Shape(sa), Body::Shape(sb)) => each(&p.poses, |q| {
            let (sa, sb) = (&**sa, &**sb);
            let c = query::contact(sa, &Isometry3::identity(), sb, q, &req);
            let [pa, pb] = c.nearest_points;
            Ok((c.distance, vec3(&c.normal), xyz(&pa), xyz(&pb), [-1, -1]))
        })?,
        (Body::Tree(t), Body::Shape(s)) => with_f64_tree!(&**t, tree => {
            let ts = TreeShape { tree, shape: s };
            each(&p.poses, |q| ts.contact(q))?
        }, _ => return Err(f32_tree(t, "a"))),
        (Body::Shape(s), Body::Tree(t)) => with_f64_tree!(&**t, tree => {
            let ts = TreeShape { tree, shape: s };
            each(&p.poses, |q| Ok(swap_contact(q, ts.contact(&q.inverse())?)))?
        }, _ => return Err(f32_tree(t, "b"))),
        (Body::Tree(_), Body::Tree(_)) => {
            return Err(Error::Value(
                "contact needs a clash.Shape on at least one side; for two meshes use \
                 collide(a, b, poses, mode=\"pairs\") or World.collide"
                    .into(),
            ));
        }
    };
    for (i, row) in answers.iter().enumerate() {
        if !row.0.is_finite() {
            return Err(Error::Value(format!(
                "poses[{i}]: the distance is not finite"
            )));
        }
    }
    Ok((answers, p.note))
}
