//! In-place partitioning of the builder's parallel arrays (triangles,
//! centroids, triangle ids), so that a node's triangles stay one contiguous
//! slice and no per-node buffer is allocated.

use clash_bv::Aabb;
use clash_math::{Point3, Scalar, Triangle, TriangleMoments};

/// The builder's working set for one node: slices of equal length: the
/// triangles, their moments (whose centroids are the split keys' points;
/// computed once per triangle, see [`TriangleMoments`]) and their ids,
/// permuted together, and a scratch column where a split sorts compact
/// [`Keyed`] records before moving the large elements once.
pub(crate) struct Prims<'a, T: Scalar> {
    pub tris: &'a mut [Triangle<T>],
    pub moms: &'a mut [TriangleMoments<T>],
    pub ids: &'a mut [u32],
    pub keys: &'a mut [Keyed<T>],
    /// Scratch: which side of a median split each element goes to.
    pub left: &'a mut [bool],
}

/// A split key with the element's triangle id (the tie-break): what
/// [`Prims::select_nth`] selects on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Keyed<T> {
    key: T,
    id: u32,
    /// Position of the element in the node's slice (not part of the order).
    pos: u32,
}

impl<T: Scalar> Keyed<T> {
    /// A blank record (the scratch column's initial value).
    pub fn blank() -> Self {
        Self {
            key: T::ZERO,
            id: 0,
            pos: 0,
        }
    }

    /// Total order: key by `f64::total_cmp` of its exact `f64` value (a
    /// total order even for NaN, which finite meshes do not produce), then
    /// triangle id.
    #[inline(always)]
    fn order(&self, other: &Self) -> core::cmp::Ordering {
        self.key
            .to_f64()
            .total_cmp(&other.key.to_f64())
            .then(self.id.cmp(&other.id))
    }
}

impl<'a, T: Scalar> Prims<'a, T> {
    #[inline]
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    #[inline]
    fn swap(&mut self, i: usize, j: usize) {
        self.tris.swap(i, j);
        self.moms.swap(i, j);
        self.ids.swap(i, j);
    }

    /// The centroid of element `i`.
    #[inline]
    pub fn centroid(&self, i: usize) -> &Point3<T> {
        &self.moms[i].centroid
    }

    /// Splits into `[0, k)` and `[k, len)`.
    pub fn split_at(self, k: usize) -> (Prims<'a, T>, Prims<'a, T>) {
        let (t0, t1) = self.tris.split_at_mut(k);
        let (m0, m1) = self.moms.split_at_mut(k);
        let (i0, i1) = self.ids.split_at_mut(k);
        let (k0, k1) = self.keys.split_at_mut(k);
        let (l0, l1) = self.left.split_at_mut(k);
        (
            Prims {
                tris: t0,
                moms: m0,
                ids: i0,
                keys: k0,
                left: l0,
            },
            Prims {
                tris: t1,
                moms: m1,
                ids: i1,
                keys: k1,
                left: l1,
            },
        )
    }

    /// Moves the elements whose centroid satisfies `left` to the front and
    /// returns their count. Deterministic (a single Lomuto pass).
    pub fn partition(&mut self, left: impl Fn(&Point3<T>) -> bool) -> usize {
        let mut k = 0;
        for i in 0..self.len() {
            if left(self.centroid(i)) {
                self.swap(i, k);
                k += 1;
            }
        }
        k
    }

    /// Moves the `k` elements of lowest rank by `key(centroid)` (ties broken
    /// by triangle id, a total order) to `[0, k)` and the others to `[k, len)`
    /// (`k <= len`); the order within each part is unspecified but
    /// deterministic. The `k`-th record is selected on the compact [`Keyed`]
    /// column (the standard library's introselect, deterministic, with a
    /// branch-free block partition); the triangles, moments and ids are then
    /// split around it by one two-ended (Hoare) sweep, which streams through
    /// them from both ends and moves only the misplaced elements.
    pub fn select_nth(&mut self, k: usize, key: impl Fn(&Point3<T>) -> T) {
        let n = self.len();
        if k == 0 || k >= n {
            return;
        }
        for (pos, (x, (m, &id))) in self
            .keys
            .iter_mut()
            .zip(self.moms.iter().zip(self.ids.iter()))
            .enumerate()
        {
            *x = Keyed {
                key: key(&m.centroid),
                id,
                pos: pos as u32,
            };
        }
        self.keys.select_nth_unstable_by(k, Keyed::order);
        // Exactly the k records before the k-th in the total order go left.
        self.left.fill(false);
        for r in &self.keys[..k] {
            self.left[r.pos as usize] = true;
        }
        let left = |s: &Self, i: usize| s.left[i];
        let (mut i, mut j) = (0, n);
        loop {
            while i < j && left(self, i) {
                i += 1;
            }
            while i < j && !left(self, j - 1) {
                j -= 1;
            }
            if i >= j {
                break;
            }
            // Here i < j - 1: element i goes right, element j - 1 left.
            self.swap(i, j - 1);
            self.left.swap(i, j - 1);
            i += 1;
            j -= 1;
        }
        debug_assert_eq!(i, k);
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
                let p = Point3::new(x, i as f64, 0.0);
                Triangle::new(p, p, p)
            })
            .collect();
        let mut moms: Vec<_> = tris.iter().map(TriangleMoments::new).collect();
        let mut ids: Vec<u32> = (0..n as u32).collect();
        let mut keys = vec![Keyed::blank(); n];
        let mut left = vec![false; n];
        let mut prims = Prims {
            tris: &mut tris,
            moms: &mut moms,
            ids: &mut ids,
            keys: &mut keys,
            left: &mut left,
        };
        // Oracle: the records sorted independently.
        let mut sorted: Vec<(f64, u32)> = (0..n)
            .map(|i| (prims.centroid(i).x, prims.ids[i]))
            .collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for k in [0, 1, 100, 128, 255, 256, 257] {
            prims.select_nth(k, |c| c.x);
            let mut low: Vec<(f64, u32)> = (0..k)
                .map(|i| (prims.centroid(i).x, prims.ids[i]))
                .collect();
            low.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            assert_eq!(low, sorted[..k], "k = {k}");
            for i in 0..n {
                assert_eq!(prims.tris[i].a, *prims.centroid(i));
                assert_eq!(prims.tris[i].a.y, f64::from(prims.ids[i]));
            }
        }
        let k = prims.partition(|c| c.x < 50.0);
        assert!((0..k).all(|i| prims.centroid(i).x < 50.0));
        assert!((k..n).all(|i| prims.centroid(i).x >= 50.0));
        assert!((0..n).all(|i| prims.tris[i].a == *prims.centroid(i)));
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
