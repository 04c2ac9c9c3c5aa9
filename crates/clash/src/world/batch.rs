//! Many configurations of one world at once: each configuration gives
//! every object a pose; configurations run in parallel and answer in input
//! order. Within a configuration the broad phase is a sort and sweep of
//! the objects' boxes (RTCD §7.5.2) and the pairs run in order, so each
//! answer is the one a single query on those poses would give.

use super::narrow::Placed;
use super::object::{Object, WorldVolume};
use super::query::grown;
use super::search::{Candidate, Scene};
use super::{CollisionWorld, ObjectHandle, PairCollision, PairDistance, WorldError, WorldQuery};
use clash_bv::Aabb;
use clash_math::{Isometry3, Scalar, isometry_is_finite};
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashSet;

/// Worlds with at most this many object pairs list the pairs a query
/// checks once per batch; each configuration then tests the listed pairs'
/// boxes directly. Larger worlds sort and sweep each configuration's boxes.
const LISTED_PAIRS: usize = 1 << 20;

/// Configurations per rayon job at least (a configuration of a small
/// world is little work).
const MIN_CONFIGS_PER_JOB: usize = 16;

/// What every configuration of a batch shares: the objects in handle
/// order, and which pairs the query checks.
pub(crate) struct BatchPlan<'a, T: Scalar, B: WorldVolume<T>> {
    objects: Vec<&'a Object<T, B>>,
    handles: Vec<ObjectHandle>,
    /// Allowed pairs `(i, j)`, `i < j`, by object index.
    allowed: HashSet<(u32, u32)>,
    /// Every checked pair in order, for worlds of at most [`LISTED_PAIRS`] pairs.
    listed: Option<Vec<Candidate>>,
    query: WorldQuery<T>,
}

impl<'a, T: Scalar, B: WorldVolume<T>> BatchPlan<'a, T, B> {
    /// The number of objects (poses per configuration).
    pub(crate) fn len(&self) -> usize {
        self.objects.len()
    }

    /// Whether the query checks the pair of objects `i < j`.
    fn checks(&self, i: u32, j: u32) -> bool {
        let (a, b) = (self.objects[i as usize], self.objects[j as usize]);
        let (fa, fb) = (a.settings.filter, b.settings.filter);
        fa.interacts(&fb)
            && self.query.selection.selects(
                (self.handles[i as usize], fa.groups),
                (self.handles[j as usize], fb.groups),
            )
            && !self.allowed.contains(&(i, j))
    }

    /// The objects placed by `poses` (one per object, in handle order).
    fn scene<'p>(&'p self, poses: &'p [Isometry3<T>]) -> Scene<'p, T, B> {
        let placed: Vec<Placed<'p, T, B>> = self
            .objects
            .iter()
            .zip(poses)
            .map(|(o, pose)| Placed {
                geometry: &o.geometry,
                pose,
            })
            .collect();
        let aabbs = placed.iter().map(|p| p.geometry.aabb(p.pose)).collect();
        Scene {
            placed,
            aabbs,
            handles: Cow::Borrowed(&self.handles),
        }
    }

    /// The checked pairs whose boxes are at most `radius` apart on every
    /// axis, sorted: the listed pairs whose boxes meet, or a sort and sweep.
    fn candidates(&self, aabbs: &[Aabb<T>], radius: T) -> Vec<Candidate> {
        let Some(listed) = &self.listed else {
            return self.sweep(aabbs, radius);
        };
        listed
            .iter()
            .copied()
            .filter(|&(i, j)| {
                let (a, b) = (&aabbs[i as usize], &aabbs[j as usize]);
                (0..3).all(|k| a.min[k] <= b.max[k] + radius && b.min[k] <= a.max[k] + radius)
            })
            .collect()
    }

    /// The checked pairs whose boxes are at most `radius` apart on every
    /// axis: sort the boxes by their lower `x`, sweep, test `y` and `z`.
    fn sweep(&self, aabbs: &[Aabb<T>], radius: T) -> Vec<Candidate> {
        let boxes: Vec<Aabb<T>> = aabbs.iter().map(|b| grown(b, radius * T::HALF)).collect();
        let mut order: Vec<u32> = (0..boxes.len() as u32).collect();
        order.sort_by(|&i, &j| {
            let (a, b) = (boxes[i as usize].min.x, boxes[j as usize].min.x);
            a.partial_cmp(&b).expect("finite boxes").then(i.cmp(&j))
        });
        let mut out = Vec::new();
        for (k, &i) in order.iter().enumerate() {
            let bi = &boxes[i as usize];
            for &j in &order[k + 1..] {
                let bj = &boxes[j as usize];
                if bj.min.x > bi.max.x {
                    break;
                }
                let meet = (1..3).all(|a| bi.min[a] <= bj.max[a] && bj.min[a] <= bi.max[a]);
                let (i, j) = (i.min(j), i.max(j));
                if meet && self.checks(i, j) {
                    out.push((i, j));
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// The first colliding checked pair of one configuration, as object indices.
    pub(crate) fn first_collision(&self, poses: &[Isometry3<T>]) -> Option<(usize, usize)> {
        let scene = self.scene(poses);
        let candidates = self.candidates(&scene.aabbs, self.query.margin);
        scene
            .first_collision(&candidates, self.query.margin, false)
            .map(|(i, j)| (i as usize, j as usize))
    }

    /// Every colliding checked pair of one configuration, with up to the
    /// query's contacts per pair, in pair order.
    pub(crate) fn collide(&self, poses: &[Isometry3<T>]) -> Vec<PairCollision<T>> {
        let scene = self.scene(poses);
        let candidates = self.candidates(&scene.aabbs, self.query.margin);
        scene.collide_all(&candidates, &self.query)
    }

    /// The closest checked pair of one configuration.
    pub(crate) fn distance(&self, poses: &[Isometry3<T>]) -> Option<PairDistance<T>> {
        let scene = self.scene(poses);
        scene.min_distance(&self.query, |radius| self.candidates(&scene.aabbs, radius))
    }

    /// The handle of object `i`.
    pub(crate) fn handle(&self, i: usize) -> ObjectHandle {
        self.handles[i]
    }
}

impl<T: Scalar, B: WorldVolume<T>> CollisionWorld<T, B> {
    /// The plan of a batch: the objects in handle order and the pairs the
    /// query checks.
    pub(crate) fn batch_plan(
        &self,
        query: &WorldQuery<T>,
    ) -> Result<BatchPlan<'_, T, B>, WorldError> {
        query.validate()?;
        if let super::Selection::Object(h) = query.selection {
            self.broad.data(h)?;
        }
        let handles = self.handles();
        let objects = handles
            .iter()
            .map(|&h| self.broad.data(h).expect("live handle"))
            .collect();
        let position = |h: ObjectHandle| handles.binary_search(&h).expect("live handle") as u32;
        let allowed = self
            .allowed
            .iter()
            .map(|&(a, b)| (position(a), position(b)))
            .collect();
        let mut plan = BatchPlan {
            objects,
            handles: handles.clone(),
            allowed,
            listed: None,
            query: *query,
        };
        let n = handles.len() as u32;
        if (n as usize) * (n as usize).saturating_sub(1) / 2 <= LISTED_PAIRS {
            let pairs = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j)));
            plan.listed = Some(pairs.filter(|&(i, j)| plan.checks(i, j)).collect());
        }
        Ok(plan)
    }

    /// For each configuration, the first selected pair closer than the
    /// query's margin (stop at the first collision), in input order.
    /// `poses` holds the configurations one after the other, each a pose
    /// per object in [`handles`](Self::handles) order; they run in
    /// parallel on the current rayon pool.
    ///
    /// ```
    /// use clash::prelude::*;
    /// use clash::WorldQuery;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut world = CollisionWorld::<f64, Obb<f64>>::new(0.0)?;
    /// let ball = Shape::Ball(Ball::new(1.0)?);
    /// let a = world.insert(ball.clone(), Isometry3::identity())?;
    /// let b = world.insert(ball, Isometry3::identity())?;
    /// let at = |x: f64| Isometry3::translation(x, 0.0, 0.0);
    /// let configs = [Isometry3::identity(), at(3.0), Isometry3::identity(), at(1.5)];
    /// let answers = world.batch_first_collision(&configs, &WorldQuery::default())?;
    /// assert_eq!(answers, vec![None, Some((a, b))]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`WorldError::BatchShape`], [`WorldError::NonFiniteBatchPose`],
    /// [`WorldError::InvalidQuery`].
    pub fn batch_first_collision(
        &self,
        poses: &[Isometry3<T>],
        query: &WorldQuery<T>,
    ) -> Result<Vec<Option<(ObjectHandle, ObjectHandle)>>, WorldError> {
        let plan = self.batch_plan(query)?;
        let n = check_batch(poses, plan.len())?;
        Ok(poses
            .par_chunks(n)
            .with_min_len(MIN_CONFIGS_PER_JOB)
            .map(|config| {
                plan.first_collision(config)
                    .map(|(i, j)| (plan.handle(i), plan.handle(j)))
            })
            .collect())
    }

    /// For each configuration, the closest selected pair (see
    /// [`distance`](Self::distance)), in input order; `poses` as in
    /// [`batch_first_collision`](Self::batch_first_collision).
    ///
    /// # Errors
    /// [`WorldError::BatchShape`], [`WorldError::NonFiniteBatchPose`],
    /// [`WorldError::InvalidQuery`].
    pub fn batch_distance(
        &self,
        poses: &[Isometry3<T>],
        query: &WorldQuery<T>,
    ) -> Result<Vec<Option<PairDistance<T>>>, WorldError> {
        let plan = self.batch_plan(query)?;
        let n = check_batch(poses, plan.len())?;
        Ok(poses
            .par_chunks(n)
            .with_min_len(MIN_CONFIGS_PER_JOB)
            .map(|config| plan.distance(config))
            .collect())
    }
}

/// Checks that `poses` are whole configurations of `objects` finite poses;
/// the chunk length to split them by.
fn check_batch<T: Scalar>(poses: &[Isometry3<T>], objects: usize) -> Result<usize, WorldError> {
    if objects == 0 || !poses.len().is_multiple_of(objects) {
        return Err(WorldError::BatchShape {
            poses: poses.len(),
            objects,
        });
    }
    if let Some(k) = poses.iter().position(|p| !isometry_is_finite(p)) {
        return Err(WorldError::NonFiniteBatchPose {
            config: k / objects,
            object: k % objects,
        });
    }
    Ok(objects)
}
