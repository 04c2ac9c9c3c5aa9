//! `clash.World`: `clash::CollisionWorld<f64, B>` for Python. Objects are
//! trees (of the world's one volume type) and shapes, each with a pose, a
//! collision filter and a tag; handles are Python ints. Queries and batches
//! release the GIL; the world sits behind a lock, so Python threads may
//! share one.

pub(crate) mod answers;
pub(crate) mod kinds;
pub(crate) mod pose;

use crate::arrays;
use crate::convex::Body;
use crate::error::{Error, Result, catch_panic};
use crate::kind::TreeKind;
use crate::pool;
use crate::queries::warn;
use answers::{Collision, PairDistanceRow, distance_row, distances, pairs};
use clash::bv::Obb;
use clash::math::Isometry3;
use clash::{CollisionFilter, ObjectSettings, Selection, WorldQuery};
use kinds::{AnyWorld, with_world, world_error};
use numpy::PyArray2;
use pyo3::prelude::*;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// The world and, until it exists, the tree kind asked for.
struct State {
    /// The kind `World(bv=...)` asked for, if any.
    asked: Option<TreeKind>,
    world: Option<AnyWorld>,
}

/// A world's selection argument: ``None`` or ``"all"``, ``("object", h)``,
/// ``("group_vs_rest", groups)``, ``("within_group", groups)``.
pub fn selection(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Selection> {
    let Some(obj) = obj else {
        return Ok(Selection::All);
    };
    if obj.is_none() {
        return Ok(Selection::All);
    }
    if let Ok(s) = obj.extract::<String>() {
        if s == "all" {
            return Ok(Selection::All);
        }
    } else if let Ok((kind, value)) = obj.extract::<(String, i64)>() {
        let groups = || {
            u32::try_from(value).map_err(|_| {
                Error::Value(format!("selection groups must fit in 32 bits, not {value}"))
            })
        };
        match kind.as_str() {
            "object" => return Ok(Selection::Object(pose::decode(value))),
            "group_vs_rest" => return Ok(Selection::GroupVsRest(groups()?)),
            "within_group" => return Ok(Selection::WithinGroup(groups()?)),
            _ => {}
        }
    }
    Err(Error::Value(format!(
        "selection must be None, \"all\", (\"object\", handle), (\"group_vs_rest\", groups) \
         or (\"within_group\", groups), not {}",
        obj.repr()?
    ))
    .into())
}

/// A 32-bit group set from a Python int.
fn bits(v: i64, name: &str) -> Result<u32> {
    u32::try_from(v).map_err(|_| {
        Error::Value(format!(
            "{name} must be a 32-bit group set (0 to 2**32 - 1), not {v}"
        ))
    })
}

/// Objects of mixed kinds (trees and shapes) with poses, collision filters
/// and tags, and pairs never checked; collision, first-collision and
/// distance queries over them, and batches of configurations. ``f64`` only.
///
/// ``World(bv=None)``: mesh trees in one world share one volume type
/// (``"aabb"``, ``"obb"`` or ``"rss"``), the ``bv`` given, else that of the
/// first object inserted (``"obb"`` when it is a shape); inserting a tree
/// of another type raises ``ValueError``.
/// Handles are ints (slot and generation in one); a handle whose object
/// was removed raises ``ValueError``.
#[pyclass(module = "clash", frozen, subclass)]
pub struct World {
    state: RwLock<State>,
}

impl World {
    fn read(&self) -> RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> RwLockWriteGuard<'_, State> {
        self.state.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on the world without the GIL (an empty world answers
    /// through `empty`).
    fn with<R: Send>(
        &self,
        py: Python<'_>,
        threads: Option<usize>,
        empty: impl FnOnce() -> Result<R> + Send,
        f: impl FnOnce(&AnyWorld) -> Result<R> + Send,
    ) -> PyResult<R> {
        Ok(py.detach(|| {
            catch_panic(|| {
                let state = self.read();
                match &state.world {
                    Some(w) => pool::run(threads, || f(w))?,
                    None => empty(),
                }
            })
        })?)
    }

    /// Runs `f` on the world, mutably, without the GIL.
    fn with_mut<R: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut AnyWorld) -> Result<R> + Send,
        empty: impl FnOnce() -> Result<R> + Send,
    ) -> PyResult<R> {
        Ok(py.detach(|| {
            crate::pool::on_pool(|| {
                let mut state = self.write();
                match &mut state.world {
                    Some(w) => f(w),
                    None => empty(),
                }
            })
        })?)
    }
}

/// The error of a handle given to an empty world.
fn no_such(h: i64) -> Error {
    Error::Value(format!(
        "unknown handle {}: never issued by this broad phase",
        pose::decode(h)
    ))
}

#[pymethods]
impl World {
    /// An empty world; ``bv`` fixes the volume type of its mesh trees
    /// (``"aabb"``, ``"obb"`` or ``"rss"``), else the first object does.
    ///
    /// Raises ``ValueError`` for another volume type.
    #[new]
    #[pyo3(signature = (bv=None))]
    fn py_new(bv: Option<&str>) -> PyResult<Self> {
        let asked = bv.map(|bv| TreeKind::parse(bv, "f64")).transpose()?;
        let world = asked.map(AnyWorld::new).transpose()?;
        Ok(Self {
            state: RwLock::new(State { asked, world }),
        })
    }

    /// Adds a ``Tree`` (``f64``, of the world's volume type) or a ``Shape``
    /// at ``pose`` (a ``(4, 4)`` or ``(3, 4)`` matrix, the identity by
    /// default) and returns its handle. The object belongs to the groups of
    /// ``groups`` and is checked against objects in ``mask`` (32-bit sets;
    /// two objects are checked when each one's groups meet the other's
    /// mask); ``tag`` is any number of yours.
    ///
    /// Raises ``ValueError`` for a tree of another type, a bad pose or
    /// group set, ``TypeError`` for another object.
    #[pyo3(signature = (geometry, pose=None, *, groups=0xFFFF_FFFF, mask=0xFFFF_FFFF, tag=0))]
    fn insert(
        &self,
        py: Python<'_>,
        geometry: &Bound<'_, PyAny>,
        pose: Option<&Bound<'_, PyAny>>,
        groups: i64,
        mask: i64,
        tag: u64,
    ) -> PyResult<i64> {
        let body = Body::extract(geometry, "geometry")?;
        let (pose, note) = match pose {
            Some(p) => pose::single(&arrays::read_f64(p, "pose")?, "pose")?,
            None => (Isometry3::identity(), None),
        };
        let settings = ObjectSettings {
            filter: CollisionFilter::new(bits(groups, "groups")?, bits(mask, "mask")?),
            tag,
        };
        let handle = py.detach(|| {
            crate::pool::on_pool(|| {
                let mut state = self.write();
                if state.world.is_none() {
                    let kind = match (&body, state.asked) {
                        (_, Some(k)) => k,
                        (Body::Tree(t), None) => t.kind(),
                        (Body::Shape(_), None) => TreeKind::of::<f64, Obb<f64>>(),
                    };
                    state.world = Some(AnyWorld::new(kind).map_err(|e| {
                        Error::Value(format!(
                            "{}; build the tree with bv=\"obb\", \"aabb\" or \"rss\" and precision=\"f64\"",
                            e.message()
                        ))
                    })?);
                }
                match &mut state.world {
                    Some(w) => w.insert(&body, pose, settings),
                    None => Err(Error::Internal("the world was just made".into())),
                }
            })
        })?;
        warn(py, note)?;
        Ok(pose::encode(handle))
    }

    /// Removes an object (and the allowed pairs it was in).
    ///
    /// Raises ``ValueError`` for an unknown or removed handle.
    fn remove(&self, py: Python<'_>, handle: i64) -> PyResult<()> {
        let h = pose::decode(handle);
        self.with_mut(
            py,
            |w| with_world!(w, x => x.remove(h).map(|_| ()).map_err(world_error)),
            || Err(no_such(handle)),
        )
    }

    /// Moves an object to ``pose`` (a ``(4, 4)`` or ``(3, 4)`` matrix).
    ///
    /// Raises ``ValueError`` for an unknown or removed handle or a bad pose.
    fn set_pose(&self, py: Python<'_>, handle: i64, pose: &Bound<'_, PyAny>) -> PyResult<()> {
        let (pose, note) = pose::single(&arrays::read_f64(pose, "pose")?, "pose")?;
        let h = pose::decode(handle);
        self.with_mut(
            py,
            |w| with_world!(w, x => x.set_pose(h, pose).map_err(world_error)),
            || Err(no_such(handle)),
        )?;
        warn(py, note)
    }

    /// The pose of an object, a ``(4, 4)`` float64 array.
    fn pose<'py>(&self, py: Python<'py>, handle: i64) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let h = pose::decode(handle);
        let m = self.with(
            py,
            None,
            || Err(no_such(handle)),
            |w| with_world!(w, x => x.pose(h).map(pose::matrix).map_err(world_error)),
        )?;
        Ok(arrays::rows(py, m.to_vec()))
    }

    /// The tag of an object.
    fn tag(&self, py: Python<'_>, handle: i64) -> PyResult<u64> {
        let h = pose::decode(handle);
        self.with(
            py,
            None,
            || Err(no_such(handle)),
            |w| with_world!(w, x => x.tag(h).map_err(world_error)),
        )
    }

    /// Marks the pair ``(a, b)`` (either order) never checked
    /// (``allowed=True``), or checked again (``False``).
    ///
    /// Raises ``ValueError`` for unknown or removed handles, or ``a == b``.
    #[pyo3(signature = (a, b, allowed=true))]
    fn allow_pair(&self, py: Python<'_>, a: i64, b: i64, allowed: bool) -> PyResult<()> {
        let (ha, hb) = (pose::decode(a), pose::decode(b));
        self.with_mut(
            py,
            |w| with_world!(w, x => x.allow_pair(ha, hb, allowed).map_err(world_error)),
            || Err(no_such(a)),
        )
    }

    /// The handles of every object in increasing order: the order of a
    /// batch's poses.
    #[getter]
    fn handles(&self) -> Vec<i64> {
        match &self.read().world {
            Some(w) => with_world!(w, x => x.handles().into_iter().map(pose::encode).collect()),
            None => Vec::new(),
        }
    }

    /// The volume type of the world's trees (``None`` until the first
    /// object when no ``bv`` was given).
    #[getter]
    fn bv(&self) -> Option<&'static str> {
        let state = self.read();
        state
            .world
            .as_ref()
            .map(|w| w.kind().bv)
            .or(state.asked.map(|k| k.bv))
    }

    fn __len__(&self) -> usize {
        match &self.read().world {
            Some(w) => with_world!(w, x => x.len()),
            None => 0,
        }
    }

    /// Every selected pair closer than ``margin`` (touching counts), sorted
    /// by handles, with up to ``max_contacts`` contacts each: a list of
    /// ``(a, b, distance, normal, point_a, point_b, triangles)``, the last
    /// five arrays of one row per contact (signed distance, unit normal from
    /// ``a`` to ``b``, witness points, triangles with -1 for a shape).
    /// ``selection``: ``None`` (every pair), ``("object", h)``,
    /// ``("group_vs_rest", groups)``, ``("within_group", groups)``.
    ///
    /// Raises ``ValueError`` for a negative margin, ``max_contacts < 1`` or
    /// an unknown handle in the selection.
    #[pyo3(signature = (*, margin=0.0, max_contacts=1, selection=None))]
    fn collide<'py>(
        &self,
        py: Python<'py>,
        margin: f64,
        max_contacts: usize,
        selection: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Vec<Collision<'py>>> {
        let query = WorldQuery {
            selection: self::selection(selection)?,
            margin,
            max_contacts_per_pair: max_contacts,
            ..WorldQuery::default()
        };
        let found = self.with_mut(
            py,
            |w| with_world!(w, x => x.collide(&query).map_err(world_error)),
            || Ok(Vec::new()),
        )?;
        found.iter().map(|c| answers::collision(py, c)).collect()
    }

    /// The first selected pair (in handle order) closer than ``margin``, as
    /// ``(a, b)``, or ``None``; the search stops there.
    ///
    /// Raises ``ValueError`` as ``collide`` does.
    #[pyo3(signature = (*, margin=0.0, selection=None))]
    fn first_collision(
        &self,
        py: Python<'_>,
        margin: f64,
        selection: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<(i64, i64)>> {
        let query = WorldQuery {
            selection: self::selection(selection)?,
            margin,
            ..WorldQuery::default()
        };
        let found = self.with_mut(
            py,
            |w| with_world!(w, x => x.first_collision(&query).map_err(world_error)),
            || Ok(None),
        )?;
        Ok(found.map(|(a, b)| (pose::encode(a), pose::encode(b))))
    }

    /// The closest selected pair: ``(a, b, distance, point_a, point_b,
    /// triangles)`` (points in the world frame, triangles -1 for shapes), or
    /// ``None`` when no pair is closer than ``max_distance``. With
    /// ``stop_below > 0`` any pair closer than that may be answered.
    ///
    /// Raises ``ValueError`` for negative bounds or an unknown handle in the
    /// selection.
    #[pyo3(signature = (*, max_distance=f64::INFINITY, stop_below=0.0, selection=None))]
    fn distance<'py>(
        &self,
        py: Python<'py>,
        max_distance: f64,
        stop_below: f64,
        selection: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Option<PairDistanceRow>> {
        let query = WorldQuery {
            selection: self::selection(selection)?,
            max_distance,
            stop_below,
            ..WorldQuery::default()
        };
        let found = self.with(
            py,
            None,
            || Ok(None),
            |w| with_world!(w, x => x.distance(&query).map_err(world_error)),
        )?;
        Ok(found.as_ref().map(distance_row))
    }

    /// For each configuration of ``poses`` (a ``(C, N, 4, 4)`` or ``(C, N,
    /// 3, 4)`` array: a pose per object in ``handles`` order), the first
    /// selected pair closer than ``margin``: a ``(C, 2)`` int64 array of
    /// handles, ``[-1, -1]`` where none collides. Configurations run in
    /// parallel without the GIL on ``threads`` threads, in input order;
    /// each answer equals ``first_collision`` on those poses.
    ///
    /// Raises ``ValueError`` for a wrong shape, a bad pose (naming
    /// ``poses[c, k]``) or a bad query.
    #[pyo3(signature = (poses, *, margin=0.0, selection=None, threads=None))]
    fn batch_first_collision<'py>(
        &self,
        py: Python<'py>,
        poses: &Bound<'py, PyAny>,
        margin: f64,
        selection: Option<&Bound<'py, PyAny>>,
        #[pyo3(from_py_with = crate::pool::threads_from_py)] threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let query = WorldQuery {
            selection: self::selection(selection)?,
            margin,
            ..WorldQuery::default()
        };
        let poses = arrays::read_f64(poses, "poses")?;
        let (found, note) = self.with(
            py,
            threads,
            || {
                Err(Error::Value(
                    "the world is empty: no configurations to check".into(),
                ))
            },
            |w| {
                with_world!(w, x => {
                    let (configs, note) = pose::configurations(&poses, x.len())?;
                    let found = x.batch_first_collision(&configs, &query).map_err(world_error)?;
                    Ok((found, note))
                })
            },
        )?;
        warn(py, note)?;
        Ok(arrays::rows(py, pairs(&found, pose::encode)))
    }

    /// For each configuration of ``poses`` (as for
    /// ``batch_first_collision``), the closest selected pair: ``(distance,
    /// pairs, point_a, point_b, triangles)``, arrays of ``C`` rows
    /// (``inf``, ``[-1, -1]`` and zeros where no pair is closer than
    /// ``max_distance``). Each row equals ``distance`` on those poses.
    ///
    /// Raises ``ValueError`` as ``batch_first_collision`` does.
    #[pyo3(signature = (poses, *, max_distance=f64::INFINITY, stop_below=0.0, selection=None, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn batch_distance<'py>(
        &self,
        py: Python<'py>,
        poses: &Bound<'py, PyAny>,
        max_distance: f64,
        stop_below: f64,
        selection: Option<&Bound<'py, PyAny>>,
        #[pyo3(from_py_with = crate::pool::threads_from_py)] threads: Option<usize>,
    ) -> PyResult<answers::DistanceArrays<'py>> {
        let query = WorldQuery {
            selection: self::selection(selection)?,
            max_distance,
            stop_below,
            ..WorldQuery::default()
        };
        let poses = arrays::read_f64(poses, "poses")?;
        let (found, note) = self.with(
            py,
            threads,
            || {
                Err(Error::Value(
                    "the world is empty: no configurations to check".into(),
                ))
            },
            |w| {
                with_world!(w, x => {
                    let (configs, note) = pose::configurations(&poses, x.len())?;
                    let found = x.batch_distance(&configs, &query).map_err(world_error)?;
                    Ok((found, note))
                })
            },
        )?;
        warn(py, note)?;
        Ok(distances(py, &found, pose::encode))
    }

    fn __repr__(&self) -> String {
        format!(
            "clash.World({} objects, bv={:?})",
            self.__len__(),
            self.bv().unwrap_or("unset")
        )
    }
}
