//! `clash.Robot` (a URDF model: links, joints, forward kinematics) and,
//! in `world`, `clash.RobotWorld` (its collision elements and obstacles in
//! one world: one joint vector on the calling thread, or batches without
//! the GIL).

mod world;

pub use world::RobotWorld;

use crate::arrays;
use crate::error::{Error, Result, catch_panic};
use crate::pool;
use crate::world::pose;
use clash::robot::{Configurations, PackageMap, Robot as RustRobot, RobotError, RobotErrorKind};
use numpy::IntoPyArray;
use numpy::PyArrayDyn;
use numpy::ndarray::{ArrayD, IxDyn};
use pyo3::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// A robot file error: `OSError` when the file could not be read,
/// `ValueError` naming the file, line and element otherwise.
fn robot_error(e: &RobotError) -> Error {
    match e.kind() {
        RobotErrorKind::Io(io) => Error::Os {
            kind: io.kind(),
            errno: io.raw_os_error(),
            message: e.to_string(),
        },
        _ => match e.unknown_package() {
            Some(p) => Error::Value(format!("{e}; give its folder in packages={{{p:?}: DIR}}")),
            None => Error::Value(e.to_string()),
        },
    }
}

/// Joint vectors from a `(C, dof)` array.
///
/// # Errors
/// [`Error::Value`] for another shape (non-finite values are the world's
/// to refuse, with its message).
fn configurations(a: &crate::input::Array, dof: usize) -> Result<Configurations> {
    match a.shape.as_slice() {
        [_, d] if *d == dof => {}
        other => {
            return Err(Error::Value(format!(
                "q must have shape (C, {dof}) for a robot of {dof} degrees of freedom, not {}",
                crate::input::shape_text(other)
            )));
        }
    }
    let mut c = Configurations::new(dof);
    for i in 0..a.rows() {
        c.push(&a.data[i * dof..(i + 1) * dof]);
    }
    Ok(c)
}

/// A robot model loaded from a URDF: links, joints and collision
/// geometry (boxes, spheres, cylinders, capsules, meshes), immutable.
///
/// A joint vector holds the positions of the movable joints that are not
/// mimics (revolute, continuous, prismatic) in the URDF's order
/// (``joint_names``); mimic joints follow their leaders.
#[pyclass(module = "clash", frozen)]
pub struct Robot {
    pub(crate) robot: Arc<RustRobot>,
}

#[pymethods]
impl Robot {
    /// Loads a URDF file. ``packages`` maps ``package://`` prefixes to
    /// folders (``{"my_robot_description": "/path/to/it"}``); a package it
    /// does not name is looked for on ``ROS_PACKAGE_PATH``, then as a
    /// folder named so (or holding a ``package.xml`` naming it) above the
    /// URDF. Other mesh paths resolve against the URDF's folder.
    ///
    /// Raises ``OSError`` when the URDF cannot be read, ``ValueError``
    /// naming the file, line and element for anything wrong in it
    /// (including meshes that cannot be found or read).
    #[staticmethod]
    #[pyo3(signature = (urdf, packages=None))]
    fn load(
        py: Python<'_>,
        urdf: PathBuf,
        packages: Option<HashMap<String, PathBuf>>,
    ) -> PyResult<Self> {
        let mut map = PackageMap::from_env();
        for (k, v) in packages.unwrap_or_default() {
            map.insert(k, v);
        }
        let robot = py.detach(|| {
            crate::pool::on_pool(|| {
                RustRobot::from_urdf_file(&urdf, &map).map_err(|e| robot_error(&e))
            })
        })?;
        Ok(Self {
            robot: Arc::new(robot),
        })
    }

    /// The URDF's robot name.
    #[getter]
    fn name(&self) -> &str {
        self.robot.name()
    }

    /// The length of a joint vector.
    #[getter]
    fn dof(&self) -> usize {
        self.robot.dof()
    }

    /// The links' names, in the URDF's order (link indices index it).
    #[getter]
    fn link_names(&self) -> Vec<String> {
        self.robot.links().iter().map(|l| l.name.clone()).collect()
    }

    /// The names of the joints of a joint vector, in order.
    #[getter]
    fn joint_names(&self) -> Vec<String> {
        let joints = self.robot.joints();
        self.robot
            .dof_joints()
            .iter()
            .map(|&j| joints[j].name.clone())
            .collect()
    }

    /// The limits of each entry of a joint vector, a ``(dof, 2)`` float64
    /// array ``[lower, upper]`` (``-inf, inf`` for continuous joints).
    #[getter]
    fn limits<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray2<f64>> {
        let joints = self.robot.joints();
        let l: Vec<[f64; 2]> = self
            .robot
            .dof_joints()
            .iter()
            .map(|&j| {
                joints[j]
                    .limits
                    .map_or([f64::NEG_INFINITY, f64::INFINITY], |l| [l.lower, l.upper])
            })
            .collect();
        arrays::rows(py, l)
    }

    /// Every link's pose for the joint vector ``q`` (limits not checked):
    /// an ``(L, 4, 4)`` float64 array, in ``link_names`` order; for a
    /// ``(C, dof)`` array of vectors, a ``(C, L, 4, 4)`` array, computed in
    /// parallel without the GIL on ``threads`` threads, in input order.
    ///
    /// Raises ``ValueError`` for another shape, or naming the vector
    /// (``q[c]``) of the wrong length or with a non-finite value.
    #[pyo3(signature = (q, *, threads=None))]
    fn forward_kinematics<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = crate::pool::threads_from_py)] threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        let q = arrays::read_f64(q, "q")?;
        let dof = self.robot.dof();
        let (count, one) = match q.shape.as_slice() {
            [_] => (1, true),
            [c, d] if *d == dof => (*c, false),
            other => {
                return Err(Error::Value(format!(
                    "q must have shape ({dof},) or (C, {dof}), not {}",
                    crate::input::shape_text(other)
                ))
                .into());
            }
        };
        let robot = &*self.robot;
        let links = robot.links().len();
        let rows: Vec<&[f64]> = match (one, dof) {
            (true, _) => vec![&q.data],
            (false, 0) => vec![&[]; count],
            (false, _) => q.data.chunks_exact(dof).collect(),
        };
        let found = py.detach(|| {
            catch_panic(|| {
                pool::run_batch(threads, count, || {
                    let each = pool::map(&rows, |_, q| {
                        robot.poses(q).map(|p| {
                            p.links()
                                .iter()
                                .flat_map(|m| pose::matrix(m).into_iter().flatten())
                                .collect::<Vec<f64>>()
                        })
                    });
                    let mut data = Vec::with_capacity(count * links * 16);
                    for (c, r) in each.into_iter().enumerate() {
                        let name = if one {
                            "q".to_owned()
                        } else {
                            format!("q[{c}]")
                        };
                        data.extend(r.map_err(|e| Error::Value(format!("{name}: {e}")))?);
                    }
                    Ok(data)
                })?
            })
        })?;
        let shape = if one {
            vec![links, 4, 4]
        } else {
            vec![count, links, 4, 4]
        };
        let arr = ArrayD::from_shape_vec(IxDyn(&shape), found)
            .map_err(|e| Error::Internal(e.to_string()))?;
        Ok(arr.into_pyarray(py))
    }

    fn __repr__(&self) -> String {
        format!(
            "clash.Robot({:?}, {} links, dof={})",
            self.robot.name(),
            self.robot.links().len(),
            self.robot.dof()
        )
    }
}
