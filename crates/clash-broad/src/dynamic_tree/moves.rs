//! Moving objects: [`DynamicTree::update`] for one object and
//! [`DynamicTree::update_many`] for a batch. Each move is first decided from
//! the object's own slot (its generation and fat box), which reads nothing
//! else and so runs on many threads at once for a batch; the decisions are
//! then applied in input order on the calling thread.

use super::{DynamicTree, mark};
use crate::aabb_ops::{check_aabb, check_vector, contains, fatten};
use crate::{BroadPhaseError, ProxyHandle, ProxyUpdate};
use clash_bv::Aabb;
use clash_math::{Scalar, Vector3};
use rayon::prelude::*;

/// Batches of at least this many updates are decided in parallel (on a
/// pool of more than one thread).
const PARALLEL_MOVES: usize = 4096;
/// Updates per parallel task, at least.
const MOVE_CHUNK: usize = 1024;
/// A batch's plan holds one code per update: the slot, with this bit set
/// when the object gets a new fat box (slots stay below it: the tree holds
/// fewer than `2^31` objects), or [`REFUSED`].
const NEW_FAT: u32 = 1 << 31;
/// The plan's code of a refused update.
const REFUSED: u32 = u32::MAX;

/// What one update does, decided from the object's slot alone.
#[derive(Clone, Copy, Debug)]
enum Move<T: Scalar> {
    /// The new box is absorbed by the fat box: only the tight box of the
    /// slot is written.
    Absorbed(u32),
    /// The slot gets this new fat box and its leaf waits for `settle`.
    Refattened(u32, Aabb<T>),
    /// The update is refused.
    Refused(BroadPhaseError),
}

/// The parts of the tree a move is decided from: read-only, and free of the
/// user data, so that threads share it whatever the data type.
struct MoveRules<'a, T: Scalar> {
    generation: &'a [u32],
    fat: &'a [Aabb<T>],
    margin: T,
    prediction: T,
    keep_reach: T,
}

impl<T: Scalar> MoveRules<'_, T> {
    /// The move of the object of `handle` to tight box `a` with expected
    /// motion `d`. A handle whose generation matches is taken as live: the
    /// caller checks that its slot holds an object.
    fn decide(&self, handle: ProxyHandle, a: &Aabb<T>, d: &Vector3<T>) -> Move<T> {
        let i = handle.index() as usize;
        if i >= self.generation.len() || i >= self.fat.len() {
            return Move::Refused(BroadPhaseError::UnknownHandle(handle));
        }
        if self.generation[i] != handle.generation() {
            return Move::Refused(BroadPhaseError::StaleHandle(handle));
        }
        let slot = i as u32;
        if self.keeps_fat_box(i, a, d) {
            return Move::Absorbed(slot);
        }
        if let Err(e) = check_aabb(a).and_then(|()| check_vector(d, "displacement")) {
            return Move::Refused(e);
        }
        let fat = fatten(a, self.margin, d, self.prediction);
        for k in 0..3 {
            if !fat.min[k].finite() || !fat.max[k].finite() {
                return Move::Refused(BroadPhaseError::NonFinite {
                    what: "displacement",
                });
            }
        }
        let old = &self.fat[i];
        if contains(old, a) {
            // Still inside; keep the fat box unless it is far too large
            // (the test of the fast path, reached here only when the grown
            // box overflows).
            let reach = d.x.abs().max_of(d.y.abs()).max_of(d.z.abs());
            let slack = self.margin * T::lit(4.0) + self.prediction * reach;
            let s = Vector3::new(slack, slack, slack);
            let huge = Aabb {
                min: fat.min - s,
                max: fat.max + s,
            };
            if contains(&huge, old) {
                return Move::Absorbed(slot);
            }
        }
        Move::Refattened(slot, fat)
    }

    /// The fast path of [`decide`](Self::decide): `true` when the new tight
    /// box `a` is valid and lies in slot `i`'s fat box, no face of the fat
    /// box is more than `5 margin` away from the same face of `a`, and the
    /// fat box that the move would give `a` with displacement `d` is finite.
    /// When `false`, `decide` checks the input and decides exactly (it may
    /// still keep the fat box).
    ///
    /// This is a sufficient condition of the exact test of `decide` (the fat
    /// box lies in the new fat box grown by `4 margin + prediction * reach`):
    /// the new fat box reaches at least `margin` beyond `a` on every side and
    /// the slack adds `4 margin` more. It takes a few comparisons, on the
    /// path that most updates of a moving scene take. Containment in the
    /// (finite) fat box implies a finite tight box, NaN failing every
    /// comparison; the sum of the new fat box's extents is finite exactly
    /// when all its coordinates are (each extent is `>= 0` or NaN), so a
    /// displacement that is not finite or would overflow it is left to the
    /// slow path, which refuses it.
    #[inline]
    fn keeps_fat_box(&self, i: usize, a: &Aabb<T>, d: &Vector3<T>) -> bool {
        let old = &self.fat[i];
        let (m, p, reach) = (self.margin, self.prediction, self.keep_reach);
        let mut ok = true;
        let mut extents = T::ZERO;
        for k in 0..3 {
            ok &= (old.min[k] <= a.min[k])
                & (a.min[k] <= old.min[k] + reach)
                & (a.max[k] <= old.max[k])
                & (old.max[k] - reach <= a.max[k])
                & (a.min[k] <= a.max[k]);
            let dp = d[k] * p;
            extents += (a.max[k] + m + dp.max_of(T::ZERO)) - (a.min[k] - m + dp.min_of(T::ZERO));
        }
        ok & extents.finite()
    }
}

impl<T: Scalar, U> DynamicTree<T, U> {
    /// Moves an object to tight box `aabb` with expected motion `displacement`.
    ///
    /// When the new box still lies in the fat box, and the fat box is not
    /// much larger than the new fat box would be (so that it shrinks again
    /// after fast motion stops), only the tight box is stored and `false` is
    /// returned; this path reads only per-object arrays, not the tree.
    /// Otherwise the object gets a new fat box, its leaf is queued for the
    /// next [`settle`](Self::settle) (which re-inserts it, or refits it in
    /// place when many objects moved), and `true` is returned; this path
    /// too reads and writes only per-object arrays, not the tree. Until
    /// `settle`, queries test such objects apart from the tree, so they
    /// stay exact. The handle is unchanged either way.
    ///
    /// # Errors
    /// Unknown or stale handle; non-finite or inverted box; non-finite displacement.
    pub fn update(
        &mut self,
        handle: ProxyHandle,
        aabb: Aabb<T>,
        displacement: Vector3<T>,
    ) -> Result<bool, BroadPhaseError> {
        self.slots.resolve(handle)?;
        match self.move_rules().decide(handle, &aabb, &displacement) {
            Move::Refused(e) => Err(e),
            Move::Absorbed(slot) => Ok(self.apply_move(slot, aabb, None)),
            Move::Refattened(slot, fat) => Ok(self.apply_move(slot, aabb, Some(fat))),
        }
    }

    /// Moves many objects: the same as [`update`](Self::update) on each in
    /// input order, and returns how many got new fat boxes. All updates are
    /// checked before any is applied: on error nothing moves.
    ///
    /// Each move depends only on its own object, so a large batch is
    /// decided in parallel (rayon) and then applied in input order: the
    /// result does not depend on the number of threads.
    ///
    /// ```
    /// use clash_broad::{DynamicTree, ProxyUpdate};
    /// use clash_bv::Aabb;
    /// use clash_math::{Point3, Vector3};
    ///
    /// let cube = |x: f64| Aabb {
    ///     min: Point3::new(x, 0.0, 0.0),
    ///     max: Point3::new(x + 1.0, 1.0, 1.0),
    /// };
    /// let mut tree = DynamicTree::<f64, usize>::new(0.1)?;
    /// let handles: Vec<_> = (0..100)
    ///     .map(|i| tree.insert(cube(2.0 * i as f64), i))
    ///     .collect::<Result<_, _>>()?;
    /// // Every other cube moves 1.5 along x: each of them now touches the
    /// // next cube; the others stay where they were.
    /// let moves: Vec<ProxyUpdate<f64>> = handles
    ///     .iter()
    ///     .enumerate()
    ///     .map(|(i, &handle)| ProxyUpdate {
    ///         handle,
    ///         aabb: cube(2.0 * i as f64 + 1.5 * (i % 2) as f64),
    ///         displacement: Vector3::zeros(),
    ///     })
    ///     .collect();
    /// assert_eq!(tree.update_many(&moves)?, 50);
    /// let mut pairs = Vec::new();
    /// tree.overlapping_pairs(&mut pairs);
    /// assert_eq!(pairs.len(), 49);
    /// # Ok::<(), clash_broad::BroadPhaseError>(())
    /// ```
    ///
    /// # Errors
    /// The error of the first update that [`update`](Self::update) would
    /// refuse, in input order, or [`BroadPhaseError::DuplicateHandle`] at
    /// the second update of one object.
    pub fn update_many(&mut self, updates: &[ProxyUpdate<T>]) -> Result<usize, BroadPhaseError> {
        let mut plan = core::mem::take(&mut self.move_plan);
        let rules = self.move_rules();
        let code = |u: &ProxyUpdate<T>| match rules.decide(u.handle, &u.aabb, &u.displacement) {
            Move::Absorbed(slot) => slot,
            Move::Refattened(slot, _) => slot | NEW_FAT,
            Move::Refused(_) => REFUSED,
        };
        if updates.len() >= PARALLEL_MOVES && rayon::current_num_threads() > 1 {
            updates
                .par_iter()
                .with_min_len(MOVE_CHUNK)
                .map(code)
                .collect_into_vec(&mut plan);
        } else {
            plan.clear();
            plan.extend(updates.iter().map(code));
        }
        let checked = self.check_plan(&plan, updates);
        let mut changed = 0;
        if checked.is_ok() {
            for (&c, u) in plan.iter().zip(updates) {
                let slot = c & !NEW_FAT;
                let fat = (c & NEW_FAT != 0)
                    .then(|| fatten(&u.aabb, self.margin, &u.displacement, self.prediction));
                changed += usize::from(self.apply_move(slot, u.aabb, fat));
            }
        }
        self.move_plan = plan;
        checked.map(|()| changed)
    }

    /// The read-only view a move is decided from.
    fn move_rules(&self) -> MoveRules<'_, T> {
        MoveRules {
            generation: &self.slots.generation,
            fat: &self.fat,
            margin: self.margin,
            prediction: self.prediction,
            keep_reach: self.keep_reach,
        }
    }

    /// Checks a batch's decided moves in input order: the first refused
    /// move, a handle whose slot holds no object, or an object moved twice
    /// fails the batch. Each slot met is stamped with this batch's number.
    fn check_plan(
        &mut self,
        plan: &[u32],
        updates: &[ProxyUpdate<T>],
    ) -> Result<(), BroadPhaseError> {
        self.move_epoch = self.move_epoch.wrapping_add(1);
        if self.move_epoch == 0 {
            // The stamps wrapped around: none may look current.
            self.move_stamp.fill(0);
            self.move_epoch = 1;
        }
        if self.move_stamp.len() < self.slots.capacity() {
            self.move_stamp.resize(self.slots.capacity(), 0);
        }
        for (&c, u) in plan.iter().zip(updates) {
            if c == REFUSED {
                // Decided again for its error (once per refused batch).
                let rules = self.move_rules();
                if let Move::Refused(e) = rules.decide(u.handle, &u.aabb, &u.displacement) {
                    return Err(e);
                }
            }
            let slot = (c & !NEW_FAT) as usize;
            if !self.slots.is_live(slot) {
                return Err(BroadPhaseError::StaleHandle(u.handle));
            }
            if self.move_stamp[slot] == self.move_epoch {
                return Err(BroadPhaseError::DuplicateHandle(u.handle));
            }
            self.move_stamp[slot] = self.move_epoch;
        }
        Ok(())
    }

    /// Gives `slot` the tight box `aabb`, and the new fat box `fat` if any
    /// (its leaf then waits for `settle`); `true` when it got one.
    fn apply_move(&mut self, slot: u32, aabb: Aabb<T>, fat: Option<Aabb<T>>) -> bool {
        self.slots.aabb[slot as usize] = aabb;
        let Some(fat) = fat else {
            return false;
        };
        self.fat[slot as usize] = fat;
        self.mark_stale(slot);
        mark(&mut self.pending_flag, &mut self.pending, slot);
        self.mark_moved(slot);
        true
    }
}
