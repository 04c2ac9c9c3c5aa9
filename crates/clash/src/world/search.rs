//! The pair loops shared by the world's queries and its batches, over a
//! [`Scene`]: objects with poses and boxes, indexed `0..n` in handle order,
//! and candidate pairs `(i, j)`, `i < j`, sorted.
//!
//! Answers are deterministic: the first collision is the first colliding
//! candidate in order (rayon's `find_first` when parallel), all collisions
//! come back in candidate order, and the minimum distance is found by a
//! sequential best-first loop whose ties go to the earlier pair.

use super::answer::{PairCollision, PairDistance};
use super::narrow::{self, Closest, Placed};
use super::object::WorldVolume;
use super::{ObjectHandle, WorldQuery};
use clash_bv::Aabb;
use clash_math::Scalar;
use rayon::prelude::*;
use std::borrow::Cow;

/// The objects a query runs over, in handle order.
pub(crate) struct Scene<'a, T: Scalar, B: WorldVolume<T>> {
    pub(crate) placed: Vec<Placed<'a, T, B>>,
    pub(crate) aabbs: Vec<Aabb<T>>,
    pub(crate) handles: Cow<'a, [ObjectHandle]>,
}

/// A candidate pair of scene indices.
pub(crate) type Candidate = (u32, u32);

impl<T: Scalar, B: WorldVolume<T>> Scene<'_, T, B> {
    fn pair(&self, (i, j): Candidate) -> (Placed<'_, T, B>, Placed<'_, T, B>) {
        (self.placed[i as usize], self.placed[j as usize])
    }

    fn handles(&self, (i, j): Candidate) -> (ObjectHandle, ObjectHandle) {
        (self.handles[i as usize], self.handles[j as usize])
    }

    /// The first candidate (in order) whose objects are closer than `margin`.
    pub(crate) fn first_collision(
        &self,
        candidates: &[Candidate],
        margin: T,
        parallel: bool,
    ) -> Option<Candidate> {
        let collides = |&&c: &&Candidate| {
            let (a, b) = self.pair(c);
            narrow::intersects(a, b, margin)
        };
        if parallel {
            candidates.par_iter().find_first(collides).copied()
        } else {
            candidates.iter().find(collides).copied()
        }
    }

    /// Every candidate closer than the query's margin, with its contacts,
    /// in candidate order.
    pub(crate) fn collide_all(
        &self,
        candidates: &[Candidate],
        query: &WorldQuery<T>,
    ) -> Vec<PairCollision<T>> {
        candidates
            .par_iter()
            .filter_map(|&c| {
                let (a, b) = self.pair(c);
                let contacts = narrow::contacts(a, b, query.margin, query.max_contacts_per_pair);
                let (a, b) = self.handles(c);
                (!contacts.is_empty()).then_some(PairCollision { a, b, contacts })
            })
            .collect()
    }

    /// The closest candidate pair closer than the query's `max_distance`,
    /// stopping at the first one closer than `stop_below`.
    ///
    /// `candidates_within(r)` must return, sorted, every selected pair
    /// whose boxes are at most `r` apart on every axis (and may return
    /// more). The search asks for a radius, measures the pairs best-first
    /// by box distance, and widens the radius fourfold while nothing is
    /// found; once a pair at distance `d <= r` is found, every pair that
    /// could be closer has boxes closer than `d` and was among the
    /// candidates, so the answer is exact.
    pub(crate) fn min_distance(
        &self,
        query: &WorldQuery<T>,
        mut candidates_within: impl FnMut(T) -> Vec<Candidate>,
    ) -> Option<PairDistance<T>> {
        if self.placed.len() < 2 {
            return None;
        }
        let span = self.span();
        let mut radius = query.max_distance.min_of(self.start_radius());
        loop {
            let covers_all = radius >= span;
            let radius_now = if covers_all { span } else { radius };
            let mut ranked: Vec<(T, Candidate)> = candidates_within(radius_now)
                .into_iter()
                .map(|c| {
                    (
                        self.aabbs[c.0 as usize].distance(&self.aabbs[c.1 as usize]),
                        c,
                    )
                })
                .collect();
            ranked.sort_by(|x, y| {
                x.0.partial_cmp(&y.0)
                    .expect("finite boxes")
                    .then(x.1.cmp(&y.1))
            });
            let mut bound = query.max_distance;
            let mut best: Option<(Candidate, Closest<T>)> = None;
            for (lower, c) in ranked {
                if lower >= bound {
                    break;
                }
                let (a, b) = self.pair(c);
                if let Some(found) = narrow::distance(a, b, bound, query.stop_below) {
                    bound = found.distance;
                    best = Some((c, found));
                    if found.distance < query.stop_below {
                        break;
                    }
                }
            }
            if let Some((c, found)) = best
                && (found.distance <= radius_now || covers_all)
            {
                let (a, b) = self.handles(c);
                return Some(PairDistance {
                    a,
                    b,
                    distance: found.distance,
                    points: found.points,
                    triangles: found.triangles,
                });
            }
            if covers_all || radius >= query.max_distance {
                return None;
            }
            radius = (radius * T::lit(4.0)).min_of(query.max_distance);
        }
    }

    /// The length of the diagonal of the box around every object: pairs
    /// are never farther apart than this.
    fn span(&self) -> T {
        let mut all = self.aabbs[0];
        for b in &self.aabbs[1..] {
            for k in 0..3 {
                all.min[k] = all.min[k].min_of(b.min[k]);
                all.max[k] = all.max[k].max_of(b.max[k]);
            }
        }
        (all.max - all.min).norm()
    }

    /// The first radius tried: the mean half-diagonal of the boxes.
    fn start_radius(&self) -> T {
        let sum = self
            .aabbs
            .iter()
            .fold(T::ZERO, |s, b| s + (b.max - b.min).norm() * T::HALF);
        (sum / T::lit(self.aabbs.len() as f64)).max_of(T::EPSILON)
    }
}
