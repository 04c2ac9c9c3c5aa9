//! The [`BroadPhase`] trait shared by the dynamic tree and sort-and-sweep.
use crate::aabb_ops::{check_aabb, check_vector};
use crate::{BroadPhaseError, ProxyHandle, ProxyPair};
use clash_bv::Aabb;
use clash_math::{Point3, Ray, Scalar, Vector3};

/// A ray hit on an object's box: the object and the ray parameter at which
/// the ray enters the box (`0` when the origin is inside it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit<T: Scalar> {
    /// The object hit.
    pub handle: ProxyHandle,
    /// Ray parameter of the entry point, in multiples of `ray.dir`.
    pub t: T,
}

/// One object's move, for [`BroadPhase::update_many`]: the arguments of
/// [`BroadPhase::update`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProxyUpdate<T: Scalar> {
    /// The object.
    pub handle: ProxyHandle,
    /// Its new tight box.
    pub aabb: Aabb<T>,
    /// Its expected motion over the next step (zero when unknown).
    pub displacement: Vector3<T>,
}

/// A broad phase: a set of objects, each an axis-aligned box with user data
/// `U` and a [`ProxyHandle`], that reports which objects may touch.
///
/// All answers are exact for the tight boxes given to `insert`/`update`
/// (however the structure fattens them internally) and come in a
/// deterministic order: pairs and handles sorted by handle, ray hits by `t`
/// then handle. Output vectors are cleared and refilled, so a caller that
/// reuses them allocates nothing per step. Invalid input is refused with a
/// [`BroadPhaseError`] and leaves the structure unchanged.
pub trait BroadPhase<T: Scalar, U> {
    /// Adds an object; its handle stays valid until it is removed.
    ///
    /// # Errors
    /// Non-finite or inverted box, or capacity exceeded.
    fn insert(&mut self, aabb: Aabb<T>, data: U) -> Result<ProxyHandle, BroadPhaseError>;

    /// Removes an object and returns its data.
    ///
    /// # Errors
    /// Unknown or stale handle.
    fn remove(&mut self, handle: ProxyHandle) -> Result<U, BroadPhaseError>;

    /// Moves an object to a new box. `displacement` is its expected motion over
    /// the next step (for example velocity times time step; zero when unknown),
    /// which a structure may use to predict motion.
    ///
    /// Returns `true` when the structure had to change, `false` when the move
    /// was absorbed (for a tree: the box stayed inside its fat box).
    ///
    /// # Errors
    /// Unknown or stale handle, non-finite or inverted box, non-finite displacement.
    fn update(
        &mut self,
        handle: ProxyHandle,
        aabb: Aabb<T>,
        displacement: Vector3<T>,
    ) -> Result<bool, BroadPhaseError>;

    /// Moves many objects: [`update`](Self::update) on each in input order;
    /// returns how many of them changed the structure. Every update is
    /// checked before any is applied, so on error nothing moves. An
    /// implementation may decide the moves in parallel; the result is that
    /// of the loop whatever the number of threads. The provided method
    /// checks every handle, box and displacement and that no handle is
    /// listed twice, then loops (an implementation whose `update` can
    /// refuse input that passes these checks must override it).
    ///
    /// # Errors
    /// The error of the first update that `update` would refuse, in input
    /// order, or [`BroadPhaseError::DuplicateHandle`] at the second update
    /// of one object.
    fn update_many(&mut self, updates: &[ProxyUpdate<T>]) -> Result<usize, BroadPhaseError> {
        check_updates(updates, |h| self.aabb(h).map(|_| ()))?;
        let mut changed = 0;
        for u in updates {
            changed += usize::from(self.update(u.handle, u.aabb, u.displacement)?);
        }
        Ok(changed)
    }

    /// The object's tight box.
    ///
    /// # Errors
    /// Unknown or stale handle.
    fn aabb(&self, handle: ProxyHandle) -> Result<&Aabb<T>, BroadPhaseError>;

    /// The object's user data.
    ///
    /// # Errors
    /// Unknown or stale handle.
    fn data(&self, handle: ProxyHandle) -> Result<&U, BroadPhaseError>;

    /// Number of objects.
    fn len(&self) -> usize;

    /// `true` when there are no objects.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// All pairs of objects whose boxes overlap (closed boxes: touching
    /// counts), each once with `a < b`, sorted. `&mut self` lets the
    /// structure keep its traversal scratch and incremental state.
    fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>);

    /// Objects whose boxes overlap `aabb`, sorted by handle.
    ///
    /// # Errors
    /// Non-finite or inverted query box.
    fn query_aabb(&self, aabb: &Aabb<T>, out: &mut Vec<ProxyHandle>)
    -> Result<(), BroadPhaseError>;

    /// Objects whose boxes contain `point`, sorted by handle.
    ///
    /// # Errors
    /// Non-finite point.
    fn query_point(
        &self,
        point: &Point3<T>,
        out: &mut Vec<ProxyHandle>,
    ) -> Result<(), BroadPhaseError>;

    /// Every object whose box the ray `origin + t dir`, `0 <= t <= max_t`, hits,
    /// sorted by entry parameter then handle.
    ///
    /// # Errors
    /// Non-finite ray, negative or NaN `max_t` (`T::INFINITY` is allowed).
    fn cast_ray_all(
        &self,
        ray: &Ray<T>,
        max_t: T,
        out: &mut Vec<RayHit<T>>,
    ) -> Result<(), BroadPhaseError>;

    /// The first box the ray hits within `[0, max_t]` (smallest entry
    /// parameter; ties go to the smaller handle).
    ///
    /// # Errors
    /// As for [`cast_ray_all`](Self::cast_ray_all).
    fn cast_ray_closest(
        &self,
        ray: &Ray<T>,
        max_t: T,
    ) -> Result<Option<RayHit<T>>, BroadPhaseError>;
}

/// Checks a batch of updates in input order: each handle is live
/// (`live(handle)` is `Ok`) and listed once, each box finite and not
/// inverted, each displacement finite. The first failure is returned.
///
/// # Errors
/// The first failing update's error.
pub(crate) fn check_updates<T: Scalar>(
    updates: &[ProxyUpdate<T>],
    live: impl Fn(ProxyHandle) -> Result<(), BroadPhaseError>,
) -> Result<(), BroadPhaseError> {
    let mut seen = std::collections::HashSet::with_capacity(updates.len());
    for u in updates {
        live(u.handle)?;
        check_aabb(&u.aabb)?;
        check_vector(&u.displacement, "displacement")?;
        if !seen.insert(u.handle) {
            return Err(BroadPhaseError::DuplicateHandle(u.handle));
        }
    }
    Ok(())
}

/// Sorts ray hits by `t`, then handle (all `t` are finite).
pub(crate) fn sort_hits<T: Scalar>(hits: &mut [RayHit<T>]) {
    hits.sort_unstable_by(|x, y| {
        x.t.partial_cmp(&y.t)
            .unwrap_or(core::cmp::Ordering::Equal)
            .then(x.handle.cmp(&y.handle))
    });
}

/// `true` when hit `x` should be preferred over `y` as the closest.
#[inline]
pub(crate) fn closer<T: Scalar>(x: &RayHit<T>, y: &RayHit<T>) -> bool {
    x.t < y.t || (x.t == y.t && x.handle < y.handle)
}
