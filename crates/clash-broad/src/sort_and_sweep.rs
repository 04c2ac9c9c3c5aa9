//! Sort and sweep (sweep and prune) over an array of boxes, RTCD §7.5.2:
//! sort the boxes by their minimum on one axis, sweep the sorted array and
//! test each box only against the following boxes that start before it ends.
//! The sort axis for the next step is the axis of largest variance of the
//! box centres, measured during the sweep.
use crate::aabb_ops::{RaySlab, check_aabb, check_ray, check_vector, contains_point, overlaps};
use crate::broad_phase::{closer, sort_hits};
use crate::slots::Slots;
use crate::{BroadPhase, BroadPhaseError, ProxyHandle, ProxyPair, RayHit};
use clash_bv::Aabb;
use clash_math::{Point3, Ray, Scalar, Vector3};

#[derive(Clone, Copy, Debug)]
struct Entry<T: Scalar> {
    aabb: Aabb<T>,
    slot: u32,
}

/// Sort-and-sweep broad phase (RTCD §7.5.2).
///
/// Updates cost O(1); each call to
/// [`overlapping_pairs`](BroadPhase::overlapping_pairs) re-sorts the array
/// (an adaptive stable sort, close to linear when objects move coherently)
/// and sweeps it. It wins over a tree when most objects move a lot every
/// step and the boxes are spread along some axis. Box, point and ray queries
/// scan the array (O(n)); use [`DynamicTree`](crate::DynamicTree) for query-heavy work.
///
/// ```
/// use clash_broad::{BroadPhase, SortAndSweep};
/// use clash_bv::Aabb;
/// use clash_math::Point3;
///
/// let unit = |x: f32| Aabb { min: Point3::new(x, 0.0, 0.0), max: Point3::new(x + 1.0, 1.0, 1.0) };
/// let mut sap = SortAndSweep::new();
/// let a = sap.insert(unit(0.0), ()).unwrap();
/// let b = sap.insert(unit(0.9), ()).unwrap();
/// sap.insert(unit(3.0), ()).unwrap();
/// let mut pairs = Vec::new();
/// sap.overlapping_pairs(&mut pairs);
/// assert_eq!(pairs.len(), 1);
/// assert_eq!((pairs[0].a, pairs[0].b), (a, b));
/// ```
#[derive(Clone, Debug)]
pub struct SortAndSweep<T: Scalar, U = ()> {
    slots: Slots<T, U>,
    entries: Vec<Entry<T>>,
    axis: usize,
}

impl<T: Scalar, U> Default for SortAndSweep<T, U> {
    fn default() -> Self {
        Self {
            slots: Slots::default(),
            entries: Vec::new(),
            axis: 0,
        }
    }
}

impl<T: Scalar, U> SortAndSweep<T, U> {
    /// An empty broad phase sorting on x until the first sweep picks an axis.
    pub fn new() -> Self {
        Self::default()
    }

    /// The axis (0, 1, 2) the next sweep sorts on.
    pub fn sort_axis(&self) -> usize {
        self.axis
    }

    fn scan(&self, mut f: impl FnMut(&Entry<T>)) {
        for e in &self.entries {
            f(e);
        }
    }
}

impl<T: Scalar, U> BroadPhase<T, U> for SortAndSweep<T, U> {
    fn insert(&mut self, aabb: Aabb<T>, data: U) -> Result<ProxyHandle, BroadPhaseError> {
        check_aabb(&aabb)?;
        let pos =
            u32::try_from(self.entries.len()).map_err(|_| BroadPhaseError::CapacityExceeded)?;
        let slot = self.slots.insert(aabb, data, pos)?;
        self.entries.push(Entry { aabb, slot });
        Ok(self.slots.handle(slot))
    }

    fn remove(&mut self, handle: ProxyHandle) -> Result<U, BroadPhaseError> {
        let i = self.slots.resolve(handle)?;
        let pos = self.slots.link[i] as usize;
        self.entries.swap_remove(pos);
        if let Some(moved) = self.entries.get(pos) {
            self.slots.link[moved.slot as usize] = pos as u32;
        }
        Ok(self.slots.remove(i))
    }

    fn update(
        &mut self,
        handle: ProxyHandle,
        aabb: Aabb<T>,
        displacement: Vector3<T>,
    ) -> Result<bool, BroadPhaseError> {
        let i = self.slots.resolve(handle)?;
        check_aabb(&aabb)?;
        check_vector(&displacement, "displacement")?;
        self.slots.aabb[i] = aabb;
        self.entries[self.slots.link[i] as usize].aabb = aabb;
        Ok(true)
    }

    fn aabb(&self, handle: ProxyHandle) -> Result<&Aabb<T>, BroadPhaseError> {
        Ok(&self.slots.aabb[self.slots.resolve(handle)?])
    }

    fn data(&self, handle: ProxyHandle) -> Result<&U, BroadPhaseError> {
        let i = self.slots.resolve(handle)?;
        Ok(self.slots.data[i]
            .as_ref()
            .expect("resolved slots are live"))
    }

    fn len(&self) -> usize {
        self.slots.len()
    }

    fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        out.clear();
        let axis = self.axis;
        // Boxes are finite (checked on entry), so the comparison is total.
        self.entries.sort_by(|x, y| {
            x.aabb.min[axis]
                .partial_cmp(&y.aabb.min[axis])
                .unwrap_or(core::cmp::Ordering::Equal)
        });
        let mut sum = [0.0f64; 3];
        let mut sum2 = [0.0f64; 3];
        for (i, e) in self.entries.iter().enumerate() {
            self.slots.link[e.slot as usize] = i as u32;
            for k in 0..3 {
                let c = (e.aabb.min[k].to_f64() + e.aabb.max[k].to_f64()) * 0.5;
                sum[k] += c;
                sum2[k] += c * c;
            }
            let end = e.aabb.max[axis];
            for f in &self.entries[i + 1..] {
                if f.aabb.min[axis] > end {
                    break;
                }
                if overlaps(&e.aabb, &f.aabb) {
                    out.push(ProxyPair::new(
                        self.slots.handle(e.slot),
                        self.slots.handle(f.slot),
                    ));
                }
            }
        }
        // Next sort axis: largest variance of the centres (RTCD §7.5.2).
        let n = self.entries.len().max(1) as f64;
        let var = |k: usize| sum2[k] / n - (sum[k] / n) * (sum[k] / n);
        self.axis = (0..3).fold(0, |best, k| if var(k) > var(best) { k } else { best });
        out.sort_unstable();
    }

    fn query_aabb(
        &self,
        aabb: &Aabb<T>,
        out: &mut Vec<ProxyHandle>,
    ) -> Result<(), BroadPhaseError> {
        check_aabb(aabb)?;
        out.clear();
        self.scan(|e| {
            if overlaps(&e.aabb, aabb) {
                out.push(self.slots.handle(e.slot));
            }
        });
        out.sort_unstable();
        Ok(())
    }

    fn query_point(
        &self,
        point: &Point3<T>,
        out: &mut Vec<ProxyHandle>,
    ) -> Result<(), BroadPhaseError> {
        check_vector(&point.coords, "point")?;
        out.clear();
        self.scan(|e| {
            if contains_point(&e.aabb, point) {
                out.push(self.slots.handle(e.slot));
            }
        });
        out.sort_unstable();
        Ok(())
    }

    fn cast_ray_all(
        &self,
        ray: &Ray<T>,
        max_t: T,
        out: &mut Vec<RayHit<T>>,
    ) -> Result<(), BroadPhaseError> {
        check_ray(ray, max_t)?;
        out.clear();
        let slab = RaySlab::new(ray, max_t);
        self.scan(|e| {
            if let Some(t) = slab.entry(&e.aabb) {
                out.push(RayHit {
                    handle: self.slots.handle(e.slot),
                    t,
                });
            }
        });
        sort_hits(out);
        Ok(())
    }

    fn cast_ray_closest(
        &self,
        ray: &Ray<T>,
        max_t: T,
    ) -> Result<Option<RayHit<T>>, BroadPhaseError> {
        check_ray(ray, max_t)?;
        let slab = RaySlab::new(ray, max_t);
        let mut best: Option<RayHit<T>> = None;
        self.scan(|e| {
            if let Some(t) = slab.entry(&e.aabb) {
                let h = RayHit {
                    handle: self.slots.handle(e.slot),
                    t,
                };
                if best.is_none_or(|b| closer(&h, &b)) {
                    best = Some(h);
                }
            }
        });
        Ok(best)
    }
}
