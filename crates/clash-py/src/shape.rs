//! `clash.Shape`: a convex shape of clash-convex (ball, box, capsule,
//! cylinder, cone, convex hull), made by its named constructors, pickled
//! by them.

use crate::arrays;
use crate::error::{Error, Result};
use crate::input::{self, Array};
use clash::convex::{Ball, CapsuleShape, Cone, ConvexHull, Cuboid, Cylinder, Shape};
use clash::math::{Point3, Scalar, Vector3, check_point};
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::Arc;

/// A constructor's shape error as a `ValueError` naming the constructor.
fn invalid(what: &str) -> impl Fn(clash::convex::ShapeError) -> Error + '_ {
    move |e| Error::Value(format!("Shape.{what}: {e}"))
}

/// The points of an `(N, 3)` array, as given (the hull checks finiteness
/// with its own message).
pub fn point_rows(a: &Array, name: &str) -> Result<Vec<Point3<f64>>> {
    input::check_rows_of_3(a, name)?;
    Ok(a.data
        .chunks_exact(3)
        .map(|r| Point3::new(r[0], r[1], r[2]))
        .collect())
}

/// `Ok` when each named size is at most [`Scalar::MAX_COORDINATE`]: larger
/// shapes would overflow the queries' arithmetic (their finiteness and sign
/// were checked by the constructor).
///
/// # Errors
/// [`Error::Value`] naming the constructor and the first size beyond it.
fn in_range(what: &str, sizes: &[(&str, f64)]) -> Result<()> {
    match sizes.iter().find(|(_, x)| x.abs() > f64::MAX_COORDINATE) {
        Some((name, x)) => Err(Error::Value(format!(
            "Shape.{what}: {name} {x:e} is beyond ±{:e}, the largest size f64 queries answer \
             without overflow (scale the scene down)",
            f64::MAX_COORDINATE
        ))),
        None => Ok(()),
    }
}

/// The half-extents of a box, each checked: finite, not negative, within
/// [`Scalar::MAX_COORDINATE`].
///
/// # Errors
/// [`Error::Value`] naming the first bad entry, `half_extents[i]`.
fn checked_half_extents(h: &[f64]) -> Result<Vector3<f64>> {
    for (i, &x) in h.iter().enumerate() {
        let why = if !x.is_finite() {
            "non-finite"
        } else if x < 0.0 {
            "negative"
        } else {
            in_range("box", &[(&format!("half_extents[{i}]"), x)])?;
            continue;
        };
        return Err(Error::Value(format!(
            "Shape.box: {why} half-extent half_extents[{i}] ({x:?})"
        )));
    }
    Ok(Vector3::new(h[0], h[1], h[2]))
}

/// The first point of a hull's input that is not finite or lies beyond
/// [`Scalar::MAX_COORDINATE`].
///
/// # Errors
/// [`Error::Value`] naming the point, `points[i]`.
fn hull_points_in_range(points: &[Point3<f64>]) -> Result<()> {
    for (i, p) in points.iter().enumerate() {
        if !p.iter().all(|x| x.is_finite()) {
            return Err(Error::Value(format!(
                "Shape.convex_hull: points[{i}]: non-finite coordinate (NaN or infinity)"
            )));
        }
        check_point(p).map_err(|e| Error::Value(format!("Shape.convex_hull: points[{i}]: {e}")))?;
    }
    Ok(())
}

/// A convex shape in ``float64``, centred on its local origin (hulls: in
/// the frame of their points); capsules, cylinders and cones lie along
/// their local ``z`` axis. ``margin`` grows a shape by that much on every
/// side (rounded edges and corners).
///
/// Make one with ``Shape.ball``, ``Shape.box``, ``Shape.capsule``,
/// ``Shape.cylinder``, ``Shape.cone`` or ``Shape.convex_hull``, then pass
/// it wherever a ``Tree`` goes in ``collide``, ``distance`` and
/// ``contact``, or insert it in a ``World``. Shapes are immutable and
/// pickle by their constructor's arguments.
#[pyclass(name = "Shape", module = "clash", frozen)]
pub struct PyShape {
    /// Shared, so that a call taking the shape does not copy a hull.
    pub(crate) shape: Arc<Shape<f64>>,
    /// The constructor's margin (the shapes' own `margin()` also counts a
    /// ball's or capsule's radius).
    margin: f64,
}

impl PyShape {
    /// The constructor's name and its arguments besides the margin.
    fn parts(&self) -> (&'static str, Vec<f64>) {
        match &*self.shape {
            Shape::Ball(b) => ("ball", vec![b.radius()]),
            Shape::Cuboid(c) => ("box", c.half_extents().as_slice().to_vec()),
            Shape::Capsule(c) => ("capsule", vec![c.half_height(), c.radius()]),
            Shape::Cylinder(c) => ("cylinder", vec![c.half_height(), c.radius()]),
            Shape::Cone(c) => ("cone", vec![c.half_height(), c.radius()]),
            // Sorted: a hull rebuilt from its vertices may list them in
            // another order.
            Shape::ConvexHull(h) => {
                let mut v: Vec<[f64; 3]> = h.vertices().iter().map(|p| [p.x, p.y, p.z]).collect();
                v.sort_by(|a, b| {
                    (0..3)
                        .map(|k| a[k].total_cmp(&b[k]))
                        .find(|o| o.is_ne())
                        .unwrap_or(std::cmp::Ordering::Equal)
                });
                ("convex_hull", v.into_flattened())
            }
            // Not made from Python; named for completeness.
            Shape::Segment(_) => ("segment", Vec::new()),
            Shape::Triangle(_) => ("triangle", Vec::new()),
        }
    }
}

#[pymethods]
impl PyShape {
    /// A ball of ``radius`` (finite, not negative).
    ///
    /// Raises ``ValueError`` for a negative or non-finite size, or one
    /// beyond 2^128 (the coordinate range of the queries).
    #[staticmethod]
    #[pyo3(signature = (radius, margin=0.0))]
    fn ball(radius: f64, margin: f64) -> PyResult<Self> {
        let b = Ball::new(radius)
            .and_then(|b| b.with_margin(margin))
            .map_err(invalid("ball"))?;
        in_range("ball", &[("radius", radius), ("margin", margin)])?;
        Ok(Self {
            shape: Arc::new(b.into()),
            margin,
        })
    }

    /// A box of ``half_extents`` ``(hx, hy, hz)`` along its local axes.
    ///
    /// Raises ``ValueError`` for a negative or non-finite size, or one
    /// beyond 2^128.
    #[staticmethod]
    #[pyo3(name = "box", signature = (half_extents, margin=0.0))]
    fn cuboid(half_extents: &Bound<'_, PyAny>, margin: f64) -> PyResult<Self> {
        let h = arrays::read_f64(half_extents, "half_extents")?;
        if h.shape != [3] {
            return Err(Error::Value(format!(
                "half_extents must have shape (3,), not {}",
                input::shape_text(&h.shape)
            ))
            .into());
        }
        let c = Cuboid::new(checked_half_extents(&h.data)?)
            .and_then(|c| c.with_margin(margin))
            .map_err(invalid("box"))?;
        in_range("box", &[("margin", margin)])?;
        Ok(Self {
            shape: Arc::new(c.into()),
            margin,
        })
    }

    /// A capsule: the points within ``radius`` of the segment from ``(0, 0,
    /// -half_height)`` to ``(0, 0, half_height)``.
    ///
    /// Raises ``ValueError`` for a negative or non-finite size, or one
    /// beyond 2^128.
    #[staticmethod]
    #[pyo3(signature = (half_height, radius, margin=0.0))]
    fn capsule(half_height: f64, radius: f64, margin: f64) -> PyResult<Self> {
        let c = CapsuleShape::new(half_height, radius)
            .and_then(|c| c.with_margin(margin))
            .map_err(invalid("capsule"))?;
        in_range(
            "capsule",
            &[
                ("half-height", half_height),
                ("radius", radius),
                ("margin", margin),
            ],
        )?;
        Ok(Self {
            shape: Arc::new(c.into()),
            margin,
        })
    }

    /// A cylinder of ``radius`` from ``z = -half_height`` to ``z =
    /// half_height``.
    ///
    /// Raises ``ValueError`` for a negative or non-finite size, or one
    /// beyond 2^128.
    #[staticmethod]
    #[pyo3(signature = (half_height, radius, margin=0.0))]
    fn cylinder(half_height: f64, radius: f64, margin: f64) -> PyResult<Self> {
        let c = Cylinder::new(half_height, radius)
            .and_then(|c| c.with_margin(margin))
            .map_err(invalid("cylinder"))?;
        in_range(
            "cylinder",
            &[
                ("half-height", half_height),
                ("radius", radius),
                ("margin", margin),
            ],
        )?;
        Ok(Self {
            shape: Arc::new(c.into()),
            margin,
        })
    }

    /// A cone with its base of ``radius`` at ``z = -half_height`` and its
    /// apex at ``z = half_height``.
    ///
    /// Raises ``ValueError`` for a negative or non-finite size, or one
    /// beyond 2^128.
    #[staticmethod]
    #[pyo3(signature = (half_height, radius, margin=0.0))]
    fn cone(half_height: f64, radius: f64, margin: f64) -> PyResult<Self> {
        let c = Cone::new(half_height, radius)
            .and_then(|c| c.with_margin(margin))
            .map_err(invalid("cone"))?;
        in_range(
            "cone",
            &[
                ("half-height", half_height),
                ("radius", radius),
                ("margin", margin),
            ],
        )?;
        Ok(Self {
            shape: Arc::new(c.into()),
            margin,
        })
    }

    /// The convex hull of ``points``, an ``(N, 3)`` array (Quickhull with
    /// exact predicates: duplicated and coplanar points are fine; fewer than
    /// four non-coplanar points make a flat hull).
    ///
    /// Raises ``ValueError`` for no points, a wrong shape, or a coordinate
    /// that is not finite or beyond 2^128.
    #[staticmethod]
    #[pyo3(signature = (points, margin=0.0))]
    fn convex_hull(py: Python<'_>, points: &Bound<'_, PyAny>, margin: f64) -> PyResult<Self> {
        let a = arrays::read_f64(points, "points")?;
        let pts = point_rows(&a, "points")?;
        hull_points_in_range(&pts)?;
        in_range("convex_hull", &[("margin", margin)])?;
        let hull = py.detach(|| {
            crate::error::catch_panic(|| {
                ConvexHull::new(&pts)
                    .and_then(|h| h.with_margin(margin))
                    .map_err(invalid("convex_hull"))
            })
        })?;
        Ok(Self {
            shape: Arc::new(hull.into()),
            margin,
        })
    }

    /// ``"ball"``, ``"box"``, ``"capsule"``, ``"cylinder"``, ``"cone"`` or
    /// ``"convex_hull"``: the constructor that made the shape.
    #[getter]
    fn kind(&self) -> &'static str {
        self.parts().0
    }

    /// The margin the shape was grown by.
    #[getter]
    fn margin(&self) -> f64 {
        self.margin
    }

    /// The hull's vertices, an ``(N, 3)`` float64 array (``None`` for other
    /// shapes).
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray2<f64>>> {
        match &*self.shape {
            Shape::ConvexHull(h) => Some(arrays::rows(
                py,
                h.vertices().iter().map(|p| [p.x, p.y, p.z]).collect(),
            )),
            _ => None,
        }
    }

    /// The constructor's arguments besides ``margin``: ``(radius,)``,
    /// ``((hx, hy, hz),)``, ``(half_height, radius)``, or ``(vertices,)``.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let (kind, v) = self.parts();
        match kind {
            "box" => PyTuple::new(py, [(v[0], v[1], v[2])]),
            "convex_hull" => PyTuple::new(py, [self.vertices(py)]),
            _ => PyTuple::new(py, v),
        }
    }

    /// Pickles as the constructor call that made the shape.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let me = slf.get();
        let constructor = slf.get_type().getattr(me.kind())?;
        let mut args: Vec<Bound<'py, PyAny>> = me.params(py)?.iter().collect();
        args.push(me.margin().into_pyobject(py)?.into_any());
        Ok((constructor, PyTuple::new(py, args)?))
    }

    /// Two shapes are equal when one constructor made them with the same
    /// arguments (hulls: the same vertices, in any order).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(other) = other.cast::<PyShape>() else {
            return false;
        };
        let o = other.get();
        self.parts() == o.parts() && self.margin() == o.margin()
    }

    fn __repr__(&self) -> String {
        let (kind, v) = self.parts();
        let margin = match self.margin() {
            0.0 => String::new(),
            m => format!(", margin={m:?}"),
        };
        match kind {
            "convex_hull" => format!("clash.Shape.convex_hull({} vertices{margin})", v.len() / 3),
            "box" => format!(
                "clash.Shape.box(({:?}, {:?}, {:?}){margin})",
                v[0], v[1], v[2]
            ),
            _ => format!(
                "clash.Shape.{kind}({}{margin})",
                v.iter()
                    .map(|x| format!("{x:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}
