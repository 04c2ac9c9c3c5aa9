//! The world's queries on its current poses: [`WorldQuery`] says which
//! pairs, with what margin, and how far to look; [`CollisionWorld`] answers
//! every colliding pair with contacts, the first collision, or the
//! minimum distance.

use super::narrow::Placed;
use super::object::{Object, WorldVolume};
use super::search::{Candidate, Scene};
use super::{CollisionWorld, ObjectHandle, PairCollision, PairDistance, WorldError};
use clash_bv::Aabb;
use clash_math::{Point3, Scalar, Vector3};

/// Which pairs of objects a query looks at (always among the pairs whose
/// filters interact and that are not allowed to collide).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Selection {
    /// Every pair.
    #[default]
    All,
    /// The pairs of one object with any other.
    Object(ObjectHandle),
    /// Objects in any of these groups against objects in none of them.
    GroupVsRest(u32),
    /// Pairs of objects both in one of these groups: a group's self-collision.
    WithinGroup(u32),
}

impl Selection {
    /// Whether the object with handle `h` and filter groups `groups` is one
    /// the query starts from.
    pub(crate) fn is_subject(&self, h: ObjectHandle, groups: u32) -> bool {
        match *self {
            Self::All => true,
            Self::Object(o) => o == h,
            Self::GroupVsRest(g) | Self::WithinGroup(g) => groups & g != 0,
        }
    }

    /// Whether the pair of objects is selected.
    pub(crate) fn selects(&self, a: (ObjectHandle, u32), b: (ObjectHandle, u32)) -> bool {
        match *self {
            Self::All => true,
            Self::Object(o) => a.0 == o || b.0 == o,
            Self::GroupVsRest(g) => (a.1 & g != 0) != (b.1 & g != 0),
            Self::WithinGroup(g) => a.1 & g != 0 && b.1 & g != 0,
        }
    }
}

/// What a world query looks at and how (FCL's and coal's request fields
/// where they have one).
///
/// ```
/// use clash::{Selection, WorldQuery};
/// let q = WorldQuery::<f64> { margin: 0.01, max_contacts_per_pair: 4, ..WorldQuery::default() };
/// assert_eq!(q.selection, Selection::All);
/// assert_eq!(q.max_distance, f64::INFINITY);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldQuery<T: Scalar> {
    /// The pairs to look at.
    pub selection: Selection,
    /// Security margin: objects closer than this count as colliding
    /// (finite, at least 0; 0 by default: touching counts).
    pub margin: T,
    /// The most contacts reported per colliding pair (at least 1; 1 by default).
    pub max_contacts_per_pair: usize,
    /// Distance queries skip pairs at least this far apart and answer
    /// `None` when every pair is (infinite by default).
    pub max_distance: T,
    /// Distance queries may stop at the first pair found closer than this
    /// ("is anything closer than d?"); 0 by default: the exact minimum.
    pub stop_below: T,
}

impl<T: Scalar> Default for WorldQuery<T> {
    fn default() -> Self {
        Self {
            selection: Selection::All,
            margin: T::ZERO,
            max_contacts_per_pair: 1,
            max_distance: T::INFINITY,
            stop_below: T::ZERO,
        }
    }
}

impl<T: Scalar> WorldQuery<T> {
    /// The query restricted to `selection`.
    pub fn with_selection(mut self, selection: Selection) -> Self {
        self.selection = selection;
        self
    }

    /// Checks every field's range.
    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        if !(self.margin >= T::ZERO && self.margin.finite()) {
            return Err(WorldError::InvalidQuery(
                "margin must be finite and at least 0",
            ));
        }
        if self.max_contacts_per_pair == 0 {
            return Err(WorldError::InvalidQuery(
                "max_contacts_per_pair must be at least 1",
            ));
        }
        if self
            .max_distance
            .partial_cmp(&T::ZERO)
            .is_none_or(|o| o.is_lt())
        {
            return Err(WorldError::InvalidQuery("max_distance must be at least 0"));
        }
        if self
            .stop_below
            .partial_cmp(&T::ZERO)
            .is_none_or(|o| o.is_lt())
        {
            return Err(WorldError::InvalidQuery("stop_below must be at least 0"));
        }
        Ok(())
    }
}

/// A box grown by `r` on every side.
pub(crate) fn grown<T: Scalar>(b: &Aabb<T>, r: T) -> Aabb<T> {
    let v = Vector3::repeat(r);
    Aabb::new(
        Point3::from(b.min.coords - v),
        Point3::from(b.max.coords + v),
    )
}

impl<T: Scalar, B: WorldVolume<T>> CollisionWorld<T, B> {
    /// Every selected pair closer than the query's margin, with up to
    /// `max_contacts_per_pair` contacts each, sorted by handle. Pairs run
    /// in parallel on the current rayon pool.
    ///
    /// # Errors
    /// [`WorldError::InvalidQuery`], or an unknown handle in the selection.
    pub fn collide(&mut self, query: &WorldQuery<T>) -> Result<Vec<PairCollision<T>>, WorldError> {
        let candidates = self.collision_candidates(query)?;
        Ok(self.scene().collide_all(&candidates, query))
    }

    /// The first selected pair (in handle order) closer than the query's
    /// margin: the search stops there.
    ///
    /// # Errors
    /// [`WorldError::InvalidQuery`], or an unknown handle in the selection.
    pub fn first_collision(
        &mut self,
        query: &WorldQuery<T>,
    ) -> Result<Option<(ObjectHandle, ObjectHandle)>, WorldError> {
        let candidates = self.collision_candidates(query)?;
        let scene = self.scene();
        Ok(scene
            .first_collision(&candidates, query.margin, true)
            .map(|(i, j)| (scene.handles[i as usize], scene.handles[j as usize])))
    }

    /// The closest selected pair with its distance and points: `None` when
    /// no pair is closer than `max_distance`. With `stop_below > 0`, any
    /// pair closer than `stop_below` may be answered.
    ///
    /// # Errors
    /// [`WorldError::InvalidQuery`], or an unknown handle in the selection.
    pub fn distance(&self, query: &WorldQuery<T>) -> Result<Option<PairDistance<T>>, WorldError> {
        query.validate()?;
        self.check_selection(query)?;
        let scene = self.scene();
        let index = self.scene_index();
        Ok(scene.min_distance(query, |radius| self.pairs_within(query, radius, &index)))
    }

    fn check_selection(&self, query: &WorldQuery<T>) -> Result<(), WorldError> {
        if let Selection::Object(h) = query.selection {
            self.broad.data(h)?;
        }
        Ok(())
    }

    /// The candidate pairs of a collision query, as scene indices.
    fn collision_candidates(
        &mut self,
        query: &WorldQuery<T>,
    ) -> Result<Vec<Candidate>, WorldError> {
        query.validate()?;
        self.check_selection(query)?;
        let index = self.scene_index();
        if query.margin == T::ZERO && query.selection == Selection::All {
            self.broad.overlapping_pairs(&mut self.pairs);
            let broad = &self.broad;
            let mut out: Vec<Candidate> = self
                .pairs
                .iter()
                .filter(|p| {
                    let (oa, ob) = (broad.data(p.a), broad.data(p.b));
                    matches!((oa, ob), (Ok(oa), Ok(ob)) if self.checked(p.a, oa, p.b, ob))
                })
                .map(|p| (index[p.a.index() as usize], index[p.b.index() as usize]))
                .collect();
            out.sort_unstable();
            return Ok(out);
        }
        Ok(self.pairs_within(query, query.margin, &index))
    }

    /// Every selected, checked pair whose boxes are at most `radius` apart
    /// on every axis, as sorted scene indices.
    fn pairs_within(&self, query: &WorldQuery<T>, radius: T, index: &[u32]) -> Vec<Candidate> {
        let sel = query.selection;
        let mut out = Vec::new();
        for h in self.broad.handles() {
            let Ok(object) = self.broad.data(h) else {
                continue;
            };
            if !sel.is_subject(h, object.settings.filter.groups) {
                continue;
            }
            let Ok(aabb) = self.broad.aabb(h) else {
                continue;
            };
            let _ = self.broad.query_aabb_with(&grown(aabb, radius), |p| {
                if p == h {
                    return;
                }
                let Ok(other) = self.broad.data(p) else {
                    return;
                };
                let other_subject = sel.is_subject(p, other.settings.filter.groups);
                if other_subject && p < h {
                    return; // found from `p`'s side
                }
                let (a, oa, b, ob) = if h < p {
                    (h, object, p, other)
                } else {
                    (p, other, h, object)
                };
                let groups = |o: &Object<T, B>| o.settings.filter.groups;
                if sel.selects((a, groups(oa)), (b, groups(ob))) && self.checked(a, oa, b, ob) {
                    out.push((index[a.index() as usize], index[b.index() as usize]));
                }
            });
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The scene index of each live slot (`u32::MAX` for free slots).
    fn scene_index(&self) -> Vec<u32> {
        let mut index = Vec::new();
        for (i, h) in self.broad.handles().enumerate() {
            let slot = h.index() as usize;
            if index.len() <= slot {
                index.resize(slot + 1, u32::MAX);
            }
            index[slot] = i as u32;
        }
        index
    }

    /// The objects on their current poses, in handle order.
    fn scene(&self) -> Scene<'_, T, B> {
        let handles = self.handles();
        let mut placed = Vec::with_capacity(handles.len());
        let mut aabbs = Vec::with_capacity(handles.len());
        for &h in &handles {
            let object = self.broad.data(h).expect("live handle");
            placed.push(Placed {
                geometry: &object.geometry,
                pose: &object.pose,
            });
            aabbs.push(*self.broad.aabb(h).expect("live handle"));
        }
        Scene {
            placed,
            aabbs,
            handles: handles.into(),
        }
    }
}
