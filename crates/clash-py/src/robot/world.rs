//! `clash.RobotWorld`: a robot's collision elements and obstacles in one
//! world, queried for one joint vector or a batch of them.

use super::{Robot, configurations, robot_error};
use crate::arrays;
use crate::convex::Body;
use crate::error::{Error, Result, catch_panic};
use crate::kind::AnyTree;
use crate::pool;
use crate::queries::warn;
use crate::world::answers::{
    Collision, DistanceArrays, PairDistanceRow, collision, distance_row, distances, pairs,
};
use crate::world::pose;
use clash::math::{Isometry3, check_vector};
use clash::robot::{
    Configurations, Robot as RustRobot, RobotWorld as RustRobotWorld, RobotWorldOptions, Srdf,
};
use clash::{Geometry, ObjectHandle, WorldQuery};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

/// A robot and its obstacles in one world (OBB trees for meshes): pairs
/// within a link, pairs the SRDF's ``<disable_collisions>`` lists and (by
/// default) pairs of adjacent links are never checked; obstacles are
/// checked against the robot only.
///
/// Answers name bodies by index: a link by its index in
/// ``robot.link_names``, obstacle ``k`` (in insertion order) by
/// ``len(robot.link_names) + k``; ``-1`` where there is no pair.
#[pyclass(module = "clash", frozen, subclass)]
pub struct RobotWorld {
    world: RwLock<Inner>,
    robot: Arc<RustRobot>,
}

struct Inner {
    world: RustRobotWorld,
    obstacles: Vec<ObjectHandle>,
}

impl Inner {
    /// The body index of an object: its link, or the links' count plus the
    /// obstacle's number.
    fn body(&self, h: ObjectHandle) -> i64 {
        match self.world.link_of(h) {
            Some(l) => l as i64,
            None => {
                let k = self.obstacles.iter().position(|&o| o == h).unwrap_or(0);
                (self.world.robot().links().len() + k) as i64
            }
        }
    }
}

impl RobotWorld {
    /// Runs `f` on the world without the GIL, on the pool `threads` names.
    fn with<R: Send>(
        &self,
        py: Python<'_>,
        threads: Option<usize>,
        f: impl FnOnce(&Inner) -> Result<R> + Send,
    ) -> PyResult<R> {
        Ok(py.detach(|| {
            catch_panic(|| {
                let inner = self.world.read().unwrap_or_else(|e| e.into_inner());
                pool::run(threads, || f(&inner))?
            })
        })?)
    }

    /// One joint vector, a `(dof,)` array.
    fn vector(&self, q: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
        let a = arrays::read_f64(q, "q")?;
        let dof = self.robot.dof();
        if a.shape != [dof] {
            return Err(Error::Value(format!(
                "q must have shape ({dof},), not {}",
                crate::input::shape_text(&a.shape)
            ))
            .into());
        }
        Ok(a.data)
    }

    /// Runs `f` on the world without the GIL, on the calling thread, after
    /// checking the joint vector `q` as batches check theirs.
    fn one<R: Send>(
        &self,
        py: Python<'_>,
        q: &[f64],
        f: impl FnOnce(&Inner) -> Result<R> + Send,
    ) -> PyResult<R> {
        Ok(py.detach(|| {
            pool::on_pool(|| {
                if let Some(e) = placement_error(&self.robot, q) {
                    return Err(Error::Value(format!("q: {e}")));
                }
                let inner = self.world.read().unwrap_or_else(|e| e.into_inner());
                f(&inner)
            })
        })?)
    }

    /// A query's joint vectors, checked for shape.
    fn configs(&self, q: &Bound<'_, PyAny>) -> PyResult<Configurations> {
        let a = arrays::read_f64(q, "q")?;
        Ok(configurations(&a, self.robot.dof())?)
    }
}

/// Checks each joint vector as the world's batches need it: finite values,
/// and collision elements placed within
/// [`clash::math::Scalar::MAX_COORDINATE`] (a
/// prismatic joint moved 1e300 would put them beyond the queries' range,
/// or overflow the kinematics). In parallel; the first bad vector in input
/// order is named.
///
/// # Errors
/// [`Error::Value`] naming the vector, `q[c]`, with the joint's or the
/// element's message.
fn check_joint_vectors(robot: &RustRobot, configs: &Configurations) -> Result<()> {
    let rows: Vec<&[f64]> = configs.iter().collect();
    let bad = rows
        .par_iter()
        .enumerate()
        .find_first(|(_, q)| placement_error(robot, q).is_some())
        .map(|(c, q)| (c, placement_error(robot, q)));
    match bad {
        Some((c, Some(e))) => Err(Error::Value(format!("q[{c}]: {e}"))),
        _ => Ok(()),
    }
}

/// Why the joint vector `q` cannot be answered, if it cannot.
fn placement_error(robot: &RustRobot, q: &[f64]) -> Option<String> {
    let poses = match robot.poses(q) {
        Ok(p) => p,
        Err(e) => return Some(e.to_string()),
    };
    let elements = robot.collision_elements();
    poses.collisions().iter().zip(elements).find_map(|(p, el)| {
        check_vector(&p.translation.vector).err().map(|e| {
            format!(
                "link {:?} is placed beyond the coordinate range: {e}",
                robot.links()[el.link].name
            )
        })
    })
}

#[pymethods]
impl RobotWorld {
    /// The collision elements of ``robot`` as objects, with the pairs of
    /// the SRDF file ``srdf`` (if given) never checked.
    /// ``meshes_as_convex_hulls`` uses each mesh's convex hull (faster,
    /// larger where the mesh is concave); ``allow_adjacent_links`` never
    /// checks links joined by a joint.
    ///
    /// Raises ``OSError`` when the SRDF cannot be read, ``ValueError`` for
    /// anything wrong in it (unknown link names, ...) or a collision
    /// element that cannot be made.
    #[new]
    #[pyo3(signature = (robot, srdf=None, *, meshes_as_convex_hulls=false, allow_adjacent_links=true))]
    fn py_new(
        py: Python<'_>,
        robot: &Bound<'_, Robot>,
        srdf: Option<PathBuf>,
        meshes_as_convex_hulls: bool,
        allow_adjacent_links: bool,
    ) -> PyResult<Self> {
        let robot = robot.get().robot.clone();
        let options = RobotWorldOptions {
            meshes_as_convex_hulls,
            allow_adjacent_links,
            ..RobotWorldOptions::default()
        };
        let world = py.detach(|| {
            crate::pool::on_pool(|| {
                let acm = match &srdf {
                    Some(path) => Some(
                        Srdf::from_file(path, &robot)
                            .map_err(|e| robot_error(&e))?
                            .allowed_collisions(),
                    ),
                    None => None,
                };
                RustRobotWorld::new(&robot, acm.as_ref(), &options)
                    .map_err(|e| Error::Value(e.to_string()))
            })
        })?;
        Ok(Self {
            world: RwLock::new(Inner {
                world,
                obstacles: Vec::new(),
            }),
            robot,
        })
    }

    /// The robot.
    #[getter]
    fn robot(&self) -> Robot {
        Robot {
            robot: self.robot.clone(),
        }
    }

    /// The length of a joint vector.
    #[getter]
    fn dof(&self) -> usize {
        self.robot.dof()
    }

    /// The links' names (body indices below their count are links).
    #[getter]
    fn link_names(&self) -> Vec<String> {
        self.robot.links().iter().map(|l| l.name.clone()).collect()
    }

    /// The number of obstacles.
    #[getter]
    fn num_obstacles(&self) -> usize {
        self.world
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .obstacles
            .len()
    }

    /// Adds an obstacle, a ``Shape`` or an ``f64`` OBB ``Tree``, at ``pose``
    /// (a ``(4, 4)`` or ``(3, 4)`` matrix in the robot's base frame, the
    /// identity by default); returns its body index.
    ///
    /// Raises ``ValueError`` for another kind of tree or a bad pose.
    #[pyo3(signature = (geometry, pose=None))]
    fn insert_obstacle(
        &self,
        py: Python<'_>,
        geometry: &Bound<'_, PyAny>,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<i64> {
        let geometry: Geometry<f64, clash::bv::Obb<f64>> =
            match Body::extract(geometry, "geometry")? {
                Body::Shape(s) => Geometry::Convex((*s).clone()),
                Body::Tree(t) => match &*t {
                    AnyTree::F64Obb(tree) => Geometry::Mesh(tree.clone()),
                    other => {
                        return Err(Error::Value(format!(
                            "a RobotWorld holds obb/f64 trees, but this tree is of type {}; \
                             build it with bv=\"obb\", precision=\"f64\"",
                            other.kind().name()
                        ))
                        .into());
                    }
                },
            };
        let (pose, note) = match pose {
            Some(p) => pose::single(&arrays::read_f64(p, "pose")?, "pose")?,
            None => (Isometry3::identity(), None),
        };
        let index = py.detach(|| {
            crate::pool::on_pool(|| {
                let mut inner = self.world.write().unwrap_or_else(|e| e.into_inner());
                let h = inner
                    .world
                    .insert_obstacle(geometry, pose)
                    .map_err(|e| Error::Value(e.to_string()))?;
                inner.obstacles.push(h);
                Ok(inner.body(h))
            })
        })?;
        warn(py, note)?;
        Ok(index)
    }

    /// For each joint vector of ``q`` (a ``(C, dof)`` array), the first
    /// colliding pair not allowed to collide (robot with itself or with an
    /// obstacle, closer than ``margin``): a ``(C, 2)`` int64 array of body
    /// indices, ``[-1, -1]`` where nothing collides. Runs in parallel
    /// without the GIL on ``threads`` threads, in input order.
    ///
    /// Raises ``ValueError`` for a wrong shape, a negative margin, or a
    /// joint vector ``q[c]`` with a non-finite value or that places a link
    /// beyond 2^128 (the queries' coordinate range).
    #[pyo3(signature = (q, *, margin=0.0, threads=None))]
    fn batch_first_collision<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        margin: f64,
        #[pyo3(from_py_with = crate::pool::threads_from_py)] threads: Option<usize>,
    ) -> PyResult<Bound<'py, numpy::PyArray2<i64>>> {
        let configs = self.configs(q)?;
        let query = WorldQuery {
            margin,
            ..WorldQuery::default()
        };
        let found = self.with(py, threads, |inner| {
            check_joint_vectors(&self.robot, &configs)?;
            let found = inner
                .world
                .batch_first_collision(&configs, &query)
                .map_err(|e| Error::Value(e.to_string()))?;
            Ok(pairs(&found, |h| inner.body(h)))
        })?;
        Ok(arrays::rows(py, found))
    }

    /// For each joint vector of ``q``, the closest pair not allowed to
    /// collide: ``(distance, pairs, point_a, point_b, triangles)``, arrays
    /// of ``C`` rows (body indices in ``pairs``; ``inf`` and ``[-1, -1]``
    /// where no pair is closer than ``max_distance``).
    ///
    /// Raises ``ValueError`` as ``batch_first_collision`` does.
    #[pyo3(signature = (q, *, max_distance=f64::INFINITY, stop_below=0.0, threads=None))]
    fn batch_distance<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        max_distance: f64,
        stop_below: f64,
        #[pyo3(from_py_with = crate::pool::threads_from_py)] threads: Option<usize>,
    ) -> PyResult<DistanceArrays<'py>> {
        let configs = self.configs(q)?;
        let query = WorldQuery {
            max_distance,
            stop_below,
            ..WorldQuery::default()
        };
        let (found, bodies) = self.with(py, threads, |inner| {
            check_joint_vectors(&self.robot, &configs)?;
            let found = inner
                .world
                .batch_distance(&configs, &query)
                .map_err(|e| Error::Value(e.to_string()))?;
            let bodies: HashMap<ObjectHandle, i64> = found
                .iter()
                .flatten()
                .flat_map(|d| [d.a, d.b])
                .map(|h| (h, inner.body(h)))
                .collect();
            Ok((found, bodies))
        })?;
        Ok(distances(py, &found, |h| {
            bodies.get(&h).copied().unwrap_or(-1)
        }))
    }

    /// The first colliding pair not allowed to collide for the one joint
    /// vector ``q`` (a ``(dof,)`` array, closer than ``margin``): ``(body_a,
    /// body_b)`` body indices, or ``None``. The answer of
    /// ``batch_first_collision`` for that vector, on the calling thread.
    ///
    /// Raises ``ValueError`` as ``batch_first_collision`` does, naming ``q``.
    #[pyo3(signature = (q, *, margin=0.0))]
    fn first_collision(
        &self,
        py: Python<'_>,
        q: &Bound<'_, PyAny>,
        margin: f64,
    ) -> PyResult<Option<(i64, i64)>> {
        let q = self.vector(q)?;
        let query = WorldQuery {
            margin,
            ..WorldQuery::default()
        };
        self.one(py, &q, |inner| {
            let found = inner
                .world
                .first_collision_at(&q, &query)
                .map_err(|e| Error::Value(e.to_string()))?;
            Ok(found.map(|(a, b)| (inner.body(a), inner.body(b))))
        })
    }

    /// Every colliding pair not allowed to collide for the one joint
    /// vector ``q`` (closer than ``margin``), sorted, with up to
    /// ``max_contacts`` contacts each: a list of ``(body_a, body_b,
    /// distance, normal, point_a, point_b, triangles)`` as
    /// ``World.collide`` gives them, on the calling thread.
    ///
    /// Raises ``ValueError`` as ``first_collision`` does, or for
    /// ``max_contacts < 1``.
    #[pyo3(signature = (q, *, margin=0.0, max_contacts=1))]
    fn collisions<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        margin: f64,
        max_contacts: usize,
    ) -> PyResult<Vec<Collision<'py>>> {
        let q = self.vector(q)?;
        let query = WorldQuery {
            margin,
            max_contacts_per_pair: max_contacts,
            ..WorldQuery::default()
        };
        let (found, bodies) = self.one(py, &q, |inner| {
            let found = inner
                .world
                .collisions_at(&q, &query)
                .map_err(|e| Error::Value(e.to_string()))?;
            let bodies: Vec<(i64, i64)> = found
                .iter()
                .map(|c| (inner.body(c.a), inner.body(c.b)))
                .collect();
            Ok((found, bodies))
        })?;
        found
            .iter()
            .zip(bodies)
            .map(|(c, (a, b))| {
                let mut row = collision(py, c)?;
                (row.0, row.1) = (a, b);
                Ok(row)
            })
            .collect()
    }

    /// The closest pair not allowed to collide for the one joint vector
    /// ``q``: ``(body_a, body_b, distance, point_a, point_b, triangles)``,
    /// or ``None`` when no pair is closer than ``max_distance``. The answer
    /// of ``batch_distance`` for that vector, on the calling thread.
    ///
    /// Raises ``ValueError`` as ``batch_distance`` does, naming ``q``.
    #[pyo3(signature = (q, *, max_distance=f64::INFINITY, stop_below=0.0))]
    fn distance(
        &self,
        py: Python<'_>,
        q: &Bound<'_, PyAny>,
        max_distance: f64,
        stop_below: f64,
    ) -> PyResult<Option<PairDistanceRow>> {
        let q = self.vector(q)?;
        let query = WorldQuery {
            max_distance,
            stop_below,
            ..WorldQuery::default()
        };
        self.one(py, &q, |inner| {
            let found = inner
                .world
                .distance_at(&q, &query)
                .map_err(|e| Error::Value(e.to_string()))?;
            Ok(found.map(|d| {
                let mut row = distance_row(&d);
                (row.0, row.1) = (inner.body(d.a), inner.body(d.b));
                row
            }))
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "clash.RobotWorld({:?}, {} obstacles)",
            self.robot.name(),
            self.num_obstacles()
        )
    }
}
