//! In-place partitioning of the builder's parallel arrays (triangles,
//! centroids, triangle ids), so that a node's triangles stay one contiguous
//! slice and no per-node buffer is allocated.

use clash_bv::Aabb;
use clash_math::{Point3, Scalar, Triangle};

/// The builder's working set for one node: three slices of equal length,
/// permuted together.
pub(crate) struct Prims<'a, T: Scalar> {
    pub tris: &'a mut [Triangle<T>],
    pub cents: &'a mut [Point3<T>],
    pub ids: &'a mut [u32],
}

impl<'a, T: Scalar> Prims<'a, T> {
    #[inline]
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    #[inline]
    fn swap(&mut self, i: usize, j: usize) {
        self.tris.swap(i, j);
        self.cents.swap(i, j);
        self.ids.swap(i, j);
    }

    /// Splits into `[0, k)` and `[k, len)`.
    pub fn split_at(self, k: usize) -> (Prims<'a, T>, Prims<'a, T>) {
        let (t0, t1) = self.tris.split_at_mut(k);
        let (c0, c1) = self.cents.split_at_mut(k);
        let (i0, i1) = self.ids.split_at_mut(k);
        (
            Prims {
                tris: t0,
                cents: c0,
                ids: i0,
            },
            Prims {
                tris: t1,
                cents: c1,
                ids: i1,
            },
        )
    }

    /// Moves the elements whose centroid satisfies `left` to the front and
    /// returns their count. Deterministic (a single Lomuto pass).
    pub fn partition(&mut self, left: impl Fn(&Point3<T>) -> bool) -> usize {
        let mut k = 0;
        for i in 0..self.len() {
            if left(&self.cents[i]) {
                self.swap(i, k);
                k += 1;
            }
        }
        k
    }

    /// Reorders so that the element of rank `k` by `key(centroid)` (ties
    /// broken by triangle id, so the result is a total order) is at `k`,
    /// with smaller ones before and larger ones after (quickselect with a
    /// median-of-three pivot; deterministic).
    pub fn select_nth(&mut self, k: usize, key: impl Fn(&Point3<T>) -> T) {
        let less = |s: &Self, i: usize, j: usize| {
            let (ki, kj) = (key(&s.cents[i]), key(&s.cents[j]));
            ki < kj || (ki == kj && s.ids[i] < s.ids[j])
        };
        let (mut lo, mut hi) = (0usize, self.len());
        while hi - lo > 1 {
            // median of three to position lo
            let mid = lo + (hi - lo) / 2;
            let last = hi - 1;
            if less(self, mid, lo) {
                self.swap(mid, lo);
            }
            if less(self, last, lo) {
                self.swap(last, lo);
            }
            if less(self, last, mid) {
                self.swap(last, mid);
            }
            // pivot = median, now at mid; move it to lo
            self.swap(lo, mid);
            // The pivot stays at lo during the sweep: key it once.
            let (pivot_key, pivot_id) = (key(&self.cents[lo]), self.ids[lo]);
            let mut store = lo + 1;
            for i in lo + 1..hi {
                let ki = key(&self.cents[i]);
                if ki < pivot_key || (ki == pivot_key && self.ids[i] < pivot_id) {
                    self.swap(i, store);
                    store += 1;
                }
            }
            let p = store - 1;
            self.swap(lo, p);
            match k.cmp(&p) {
                core::cmp::Ordering::Equal => return,
                core::cmp::Ordering::Less => hi = p,
                core::cmp::Ordering::Greater => lo = p + 1,
            }
        }
    }
}

// --- binned SAH working set ---------------------------------------------------

/// A box in the SAH builder's lane layout:
/// `[-min.x, -min.y, -min.z, 0, max.x, max.y, max.z, 0]`. Negating the
/// minimum makes growing a box one lane-wise maximum over all eight lanes
/// (a few SIMD max instructions), and `max[k] + min[k]`, twice the box centre,
/// is `b[4 + k] - b[k]`. Empty boxes have `-inf` in the six bound lanes.
pub(crate) type Lanes<T> = [T; 8];

/// The empty box (`-inf` bounds, zero padding).
#[inline(always)]
pub(crate) fn empty_lanes<T: Scalar>() -> Lanes<T> {
    let n = T::NEG_INFINITY;
    [n, n, n, T::ZERO, n, n, n, T::ZERO]
}

/// Grows `acc` to contain `b` (lane-wise maximum).
#[inline(always)]
pub(crate) fn grow_lanes<T: Scalar>(acc: &mut Lanes<T>, b: &Lanes<T>) {
    for i in 0..8 {
        acc[i] = acc[i].max_of(b[i]);
    }
}

/// The exact box of a triangle's corners.
#[inline(always)]
pub(crate) fn triangle_lanes<T: Scalar>(t: &Triangle<T>) -> Lanes<T> {
    let lo = |k: usize| t.a[k].min_of(t.b[k]).min_of(t.c[k]);
    let hi = |k: usize| t.a[k].max_of(t.b[k]).max_of(t.c[k]);
    [
        -lo(0),
        -lo(1),
        -lo(2),
        T::ZERO,
        hi(0),
        hi(1),
        hi(2),
        T::ZERO,
    ]
}

/// Twice the centre of box `b` (its sort key), as the degenerate box
/// holding that one point.
#[inline(always)]
pub(crate) fn centre_lanes<T: Scalar>(b: &Lanes<T>) -> Lanes<T> {
    let c = [b[4] - b[0], b[5] - b[1], b[6] - b[2]];
    [-c[0], -c[1], -c[2], T::ZERO, c[0], c[1], c[2], T::ZERO]
}

/// The box `b` as an [`Aabb`].
pub(crate) fn lanes_to_aabb<T: Scalar>(b: &Lanes<T>) -> Aabb<T> {
    Aabb {
        min: Point3::new(-b[0], -b[1], -b[2]),
        max: Point3::new(b[4], b[5], b[6]),
    }
}

/// Half the surface area of box `b` (0 for the empty box).
#[inline(always)]
pub(crate) fn half_area_lanes<T: Scalar>(b: &Lanes<T>) -> T {
    let (dx, dy, dz) = (b[4] + b[0], b[5] + b[1], b[6] + b[2]);
    if dx < T::ZERO {
        T::ZERO
    } else {
        dx * dy + dy * dz + dz * dx
    }
}

/// Elements per chunk of the chunked (parallel) passes. Chunk boundaries
/// depend only on the input size, never on the number of threads.
pub(crate) const CHUNK: usize = 8192;

/// Runs `f` on consecutive `CHUNK`-sized index ranges of `0..n` in parallel
/// and folds the results with `merge` in chunk order, so the answer does
/// not depend on the number of threads.
pub(crate) fn fold_chunks<R: Send>(
    n: usize,
    f: impl Fn(core::ops::Range<usize>) -> R + Sync,
    merge: impl Fn(R, R) -> R,
) -> R {
    use rayon::prelude::*;
    let parts: Vec<R> = (0..n.div_ceil(CHUNK).max(1))
        .into_par_iter()
        .map(|c| f(c * CHUNK..((c + 1) * CHUNK).min(n)))
        .collect();
    let mut it = parts.into_iter();
    let first = it.next().expect("at least one chunk");
    it.fold(first, merge)
}

/// The SAH builder's working set for one node: the triangles' boxes and
/// ids, permuted together, with a scratch pair of the same length for
/// out-of-place (stable, parallel) partitions. After such a partition the
/// data lives in the scratch arrays and the two pairs trade places;
/// `swapped` records that the live pair is the scratch one, and
/// [`Self::go_home`] moves it back.
pub(crate) struct SahPrims<'a, T: Scalar> {
    pub boxes: &'a mut [Lanes<T>],
    pub ids: &'a mut [u32],
    pub alt_boxes: &'a mut [Lanes<T>],
    pub alt_ids: &'a mut [u32],
    pub swapped: bool,
}

/// Left count and the bounds of the left and right parts' centre keys.
pub(crate) type Parted<T> = (usize, Lanes<T>, Lanes<T>);

impl<'a, T: Scalar> SahPrims<'a, T> {
    #[inline]
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Splits into `[0, k)` and `[k, len)`.
    pub fn split_at(self, k: usize) -> (SahPrims<'a, T>, SahPrims<'a, T>) {
        let (b0, b1) = self.boxes.split_at_mut(k);
        let (i0, i1) = self.ids.split_at_mut(k);
        let (ab0, ab1) = self.alt_boxes.split_at_mut(k);
        let (ai0, ai1) = self.alt_ids.split_at_mut(k);
        (
            SahPrims {
                boxes: b0,
                ids: i0,
                alt_boxes: ab0,
                alt_ids: ai0,
                swapped: self.swapped,
            },
            SahPrims {
                boxes: b1,
                ids: i1,
                alt_boxes: ab1,
                alt_ids: ai1,
                swapped: self.swapped,
            },
        )
    }

    fn trade(&mut self) {
        core::mem::swap(&mut self.boxes, &mut self.alt_boxes);
        core::mem::swap(&mut self.ids, &mut self.alt_ids);
        self.swapped = !self.swapped;
    }

    /// Moves the data back to the caller's arrays if it lives in the scratch ones.
    pub fn go_home(&mut self) {
        if self.swapped {
            self.alt_boxes.copy_from_slice(self.boxes);
            self.alt_ids.copy_from_slice(self.ids);
            self.trade();
        }
    }

    /// Bounds of the boxes and of their centre keys, in chunked parallel passes.
    pub fn bounds(&self) -> (Lanes<T>, Lanes<T>) {
        let boxes = &*self.boxes;
        fold_chunks(
            boxes.len(),
            |r| {
                let (mut b, mut c) = (empty_lanes(), empty_lanes());
                for x in &boxes[r] {
                    grow_lanes(&mut b, x);
                    grow_lanes(&mut c, &centre_lanes(x));
                }
                (b, c)
            },
            |(mut b0, mut c0), (b1, c1)| {
                grow_lanes(&mut b0, &b1);
                grow_lanes(&mut c0, &c1);
                (b0, c0)
            },
        )
    }

    /// Moves the elements whose box satisfies `left` to the front (a
    /// two-pointer sweep, in place) and returns their count with the bounds
    /// of both parts' centre keys.
    pub fn partition_in_place(&mut self, left: impl Fn(&Lanes<T>) -> bool) -> Parted<T> {
        let mut lb = empty_lanes();
        let mut rb = empty_lanes();
        let (mut i, mut j) = (0usize, self.len());
        loop {
            while i < j && left(&self.boxes[i]) {
                grow_lanes(&mut lb, &centre_lanes(&self.boxes[i]));
                i += 1;
            }
            while i < j && !left(&self.boxes[j - 1]) {
                grow_lanes(&mut rb, &centre_lanes(&self.boxes[j - 1]));
                j -= 1;
            }
            if i >= j {
                return (i, lb, rb);
            }
            // boxes[i] belongs right and boxes[j - 1] left: exchange them.
            self.boxes.swap(i, j - 1);
            self.ids.swap(i, j - 1);
            grow_lanes(&mut lb, &centre_lanes(&self.boxes[i]));
            grow_lanes(&mut rb, &centre_lanes(&self.boxes[j - 1]));
            i += 1;
            j -= 1;
        }
    }

    /// A stable partition by `left` into the scratch arrays (which then
    /// become the live ones), in chunked parallel passes: count per chunk,
    /// then scatter. The result is the unique stable partition, so it does
    /// not depend on the number of threads.
    pub fn partition_stable(&mut self, left: impl Fn(&Lanes<T>) -> bool + Sync) -> Parted<T> {
        use rayon::prelude::*;
        let n = self.len();
        let boxes = &*self.boxes;
        let counts: Vec<Parted<T>> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let (mut k, mut lb, mut rb) = (0, empty_lanes(), empty_lanes());
                for b in &boxes[c * CHUNK..((c + 1) * CHUNK).min(n)] {
                    if left(b) {
                        k += 1;
                        grow_lanes(&mut lb, &centre_lanes(b));
                    } else {
                        grow_lanes(&mut rb, &centre_lanes(b));
                    }
                }
                (k, lb, rb)
            })
            .collect();
        let k: usize = counts.iter().map(|c| c.0).sum();
        let (mut lb, mut rb) = (empty_lanes(), empty_lanes());
        // Disjoint destinations: chunk c's left elements follow those of
        // chunks before it in `[0, k)`, its right ones likewise in `[k, n)`.
        let mut dests = Vec::with_capacity(counts.len());
        let (mut lbox, mut rbox) = self.alt_boxes.split_at_mut(k);
        let (mut lid, mut rid) = self.alt_ids.split_at_mut(k);
        for (c, (kc, lbc, rbc)) in counts.iter().enumerate() {
            grow_lanes(&mut lb, lbc);
            grow_lanes(&mut rb, rbc);
            let rc = ((c + 1) * CHUNK).min(n) - c * CHUNK - kc;
            let (lb_c, lb_rest) = core::mem::take(&mut lbox).split_at_mut(*kc);
            let (rb_c, rb_rest) = core::mem::take(&mut rbox).split_at_mut(rc);
            let (li_c, li_rest) = core::mem::take(&mut lid).split_at_mut(*kc);
            let (ri_c, ri_rest) = core::mem::take(&mut rid).split_at_mut(rc);
            (lbox, rbox, lid, rid) = (lb_rest, rb_rest, li_rest, ri_rest);
            dests.push((c, lb_c, li_c, rb_c, ri_c));
        }
        let ids = &*self.ids;
        dests
            .into_par_iter()
            .for_each(|(c, lb_c, li_c, rb_c, ri_c)| {
                let (mut l, mut r) = (0, 0);
                let range = c * CHUNK..((c + 1) * CHUNK).min(n);
                for (b, &id) in boxes[range.clone()].iter().zip(&ids[range]) {
                    if left(b) {
                        lb_c[l] = *b;
                        li_c[l] = id;
                        l += 1;
                    } else {
                        rb_c[r] = *b;
                        ri_c[r] = id;
                        r += 1;
                    }
                }
            });
        self.trade();
        (k, lb, rb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_and_partition() {
        let n = 257;
        let mut tris: Vec<Triangle<f64>> = (0..n)
            .map(|i| {
                let x = ((i * 7919) % 101) as f64;
                let p = Point3::new(x, 0.0, 0.0);
                Triangle::new(p, p, p)
            })
            .collect();
        let mut cents: Vec<_> = tris.iter().map(|t| t.a).collect();
        let mut ids: Vec<u32> = (0..n as u32).collect();
        let mut prims = Prims {
            tris: &mut tris,
            cents: &mut cents,
            ids: &mut ids,
        };
        for k in [0, 1, 100, 128, 255, 256] {
            prims.select_nth(k, |c| c.x);
            let pivot = (prims.cents[k].x, prims.ids[k]);
            for i in 0..n {
                let v = (prims.cents[i].x, prims.ids[i]);
                if i < k {
                    assert!(v < pivot);
                } else if i > k {
                    assert!(v > pivot);
                }
                assert_eq!(prims.tris[i].a, prims.cents[i]);
            }
        }
        let k = prims.partition(|c| c.x < 50.0);
        assert!(prims.cents[..k].iter().all(|c| c.x < 50.0));
        assert!(prims.cents[k..].iter().all(|c| c.x >= 50.0));
        let mut seen: Vec<u32> = prims.ids.to_vec();
        seen.sort();
        assert_eq!(seen, (0..n as u32).collect::<Vec<_>>());
    }

    /// Boxes of `n` small triangles scattered by a fixed hash.
    fn sah_boxes(n: usize) -> Vec<Lanes<f32>> {
        (0..n)
            .map(|i| {
                let h = |s: usize| ((i * 7919 + s * 104_729) % 1009) as f32 * 0.01;
                let p = Point3::new(h(1), h(2), h(3));
                let q = Point3::new(p.x + 0.05, p.y, p.z + h(4) * 0.01);
                triangle_lanes(&Triangle::new(p, q, Point3::new(p.x, p.y + 0.02, p.z)))
            })
            .collect()
    }

    fn bounds_of(bs: &[Lanes<f32>]) -> (Lanes<f32>, Lanes<f32>) {
        bs.iter()
            .fold((empty_lanes(), empty_lanes()), |(mut b, mut c), x| {
                grow_lanes(&mut b, x);
                grow_lanes(&mut c, &centre_lanes(x));
                (b, c)
            })
    }

    /// The in-place and the chunked stable partitions agree on the parts
    /// (as sets), the stable one keeps order, both report exact centre
    /// bounds, and the chunked bounds pass equals a sequential fold, on
    /// sizes around chunk boundaries and on any number of threads.
    #[test]
    fn sah_partitions_agree() {
        for n in [1, 5, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 17] {
            let boxes = sah_boxes(n);
            let cut = 5.0f32;
            let left = |b: &Lanes<f32>| b[4] - b[0] < cut;
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let (mut b1, mut i1) = (boxes.clone(), (0..n as u32).collect::<Vec<_>>());
                let (mut b2, mut i2) = (boxes.clone(), i1.clone());
                let (mut a1, mut ai1) = (vec![[0.0; 8]; n], vec![0; n]);
                let (mut a2, mut ai2) = (vec![[0.0; 8]; n], vec![0; n]);
                let mut p1 = SahPrims {
                    boxes: &mut b1,
                    ids: &mut i1,
                    alt_boxes: &mut a1,
                    alt_ids: &mut ai1,
                    swapped: false,
                };
                let mut p2 = SahPrims {
                    boxes: &mut b2,
                    ids: &mut i2,
                    alt_boxes: &mut a2,
                    alt_ids: &mut ai2,
                    swapped: false,
                };
                assert_eq!(pool.install(|| p1.bounds()), bounds_of(&boxes));
                let (k1, l1, r1) = p1.partition_in_place(left);
                let (k2, l2, r2) = pool.install(|| p2.partition_stable(left));
                assert!(p2.swapped);
                assert_eq!((k1, l1, r1), (k2, l2, r2));
                assert_eq!(
                    (l1, r1),
                    (bounds_of(&p1.boxes[..k1]).1, bounds_of(&p1.boxes[k1..]).1)
                );
                let expect: Vec<u32> = (0..n as u32)
                    .filter(|&i| left(&boxes[i as usize]))
                    .chain((0..n as u32).filter(|&i| !left(&boxes[i as usize])))
                    .collect();
                assert_eq!(p2.ids, &expect[..]);
                for (b, &id) in p2.boxes.iter().zip(p2.ids.iter()) {
                    assert_eq!(*b, boxes[id as usize]);
                }
                let mut s1: Vec<u32> = p1.ids[..k1].to_vec();
                s1.sort();
                let mut s2: Vec<u32> = expect[..k1].to_vec();
                s2.sort();
                assert_eq!(s1, s2);
                p2.go_home();
                assert!(!p2.swapped);
                assert_eq!(i2, expect);
            }
        }
    }
}
