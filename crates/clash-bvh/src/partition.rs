//! In-place partitioning of the builders' working arrays, so that a node's
//! triangles stay one contiguous slice and no per-node buffer is allocated.

use clash_bv::Aabb;
use clash_math::{MomentsAbout, Point3, Scalar, Triangle};

/// One triangle in the median/mean builder's working set: its moments
/// about the mesh's origin (computed once per triangle; see
/// [`MomentsAbout`]), whose centroid offset is also its split key's point,
/// and its id.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Elem {
    pub m: MomentsAbout,
    pub id: u32,
}

/// The median/mean builder's working set for one node: slices of equal
/// length. A split ranks the elements on compact records (`recs`) and then
/// moves them once, in the new order, into the scratch column `alt` (and
/// the triangles, when the fits need them, into `alt_tris`); the two
/// columns then trade places, so a node's children find their elements
/// contiguous in `elems` at either depth. `order` receives each leaf's
/// triangle ids at the leaf's position in the leaf order.
pub(crate) struct Prims<'a, T: Scalar> {
    pub elems: &'a mut [Elem],
    pub alt: &'a mut [Elem],
    /// The triangles, permuted with `elems`; empty (as is `alt_tris`) when
    /// the fits take no triangle slices.
    pub tris: &'a mut [Triangle<T>],
    pub alt_tris: &'a mut [Triangle<T>],
    /// Scratch: one rank record per element (see [`record`]).
    pub recs: &'a mut [u128],
    pub order: &'a mut [u32],
}

/// The rank record of an element with split key `key`, triangle id `id`, at
/// position `pos` of its node's slice: `key` in the order of
/// `f64::total_cmp` (a total order even for NaN, which finite meshes do
/// not produce) in the top 64 bits, then `id` (the tie-break), then `pos`
/// (unique, so records compare as the `(key, id)` order and carry the
/// position along). Comparing records is one 128-bit integer comparison.
#[inline(always)]
pub(crate) fn record(key: f64, id: u32, pos: usize) -> u128 {
    let bits = key.to_bits();
    // Negative keys (sign bit set) have all bits flipped, so that larger
    // magnitudes rank lower; others get the sign bit set, ranking above.
    let ordered = bits ^ ((((bits as i64) >> 63) as u64) | (1 << 63));
    ((ordered as u128) << 64) | ((id as u128) << 32) | pos as u128
}

/// The position a record carries.
#[inline(always)]
fn position(r: u128) -> usize {
    r as u32 as usize
}

impl<'a, T: Scalar> Prims<'a, T> {
    #[inline]
    pub fn len(&self) -> usize {
        self.elems.len()
    }

    /// Splits into `[0, k)` and `[k, len)`.
    pub fn split_at(self, k: usize) -> (Prims<'a, T>, Prims<'a, T>) {
        let (e0, e1) = self.elems.split_at_mut(k);
        let (a0, a1) = self.alt.split_at_mut(k);
        let kt = k.min(self.tris.len());
        let (t0, t1) = self.tris.split_at_mut(kt);
        let (at0, at1) = self.alt_tris.split_at_mut(kt);
        let (r0, r1) = self.recs.split_at_mut(k);
        let (o0, o1) = self.order.split_at_mut(k);
        (
            Prims {
                elems: e0,
                alt: a0,
                tris: t0,
                alt_tris: at0,
                recs: r0,
                order: o0,
            },
            Prims {
                elems: e1,
                alt: a1,
                tris: t1,
                alt_tris: at1,
                recs: r1,
                order: o1,
            },
        )
    }

    /// Ranks the elements so that the records of the `k` lowest by
    /// `(key, id)` (a total order) come first (`0 < k < len`), in an
    /// unspecified but deterministic order: the standard library's
    /// introselect on the 16-byte records.
    pub fn select_lowest(&mut self, k: usize, key: impl Fn(&Elem) -> f64) {
        for (pos, (r, e)) in self.recs.iter_mut().zip(self.elems.iter()).enumerate() {
            *r = record(key(e), e.id, pos);
        }
        self.recs.select_nth_unstable(k);
    }

    /// Orders two elements by `(key, id)` in place (no records, no move to
    /// the scratch column).
    pub fn order_pair(&mut self, key: impl Fn(&Elem) -> f64) {
        let (a, b) = (&self.elems[0], &self.elems[1]);
        if record(key(b), b.id, 1) < record(key(a), a.id, 0) {
            self.elems.swap(0, 1);
            if !self.tris.is_empty() {
                self.tris.swap(0, 1);
            }
        }
    }

    /// Puts the records of the elements satisfying `left` first (in element
    /// order; the others follow in reverse order) and returns their count.
    pub fn partition_records(&mut self, left: impl Fn(&Elem) -> bool) -> usize {
        let (mut l, mut r) = (0, self.len());
        for (pos, e) in self.elems.iter().enumerate() {
            let rec = record(0.0, e.id, pos);
            if left(e) {
                self.recs[l] = rec;
                l += 1;
            } else {
                r -= 1;
                self.recs[r] = rec;
            }
        }
        l
    }

    /// Moves the elements (and carried triangles) into the order of the
    /// records, visiting the first `k` with `left` and the others with
    /// `right` as they move: one pass, each element moved once.
    pub fn gather(&mut self, k: usize, mut left: impl FnMut(&Elem), mut right: impl FnMut(&Elem)) {
        let (lr, rr) = self.recs.split_at(k);
        let (la, ra) = self.alt.split_at_mut(k);
        for (dst, &r) in la.iter_mut().zip(lr) {
            let e = self.elems[position(r)];
            *dst = e;
            left(&e);
        }
        for (dst, &r) in ra.iter_mut().zip(rr) {
            let e = self.elems[position(r)];
            *dst = e;
            right(&e);
        }
        if !self.tris.is_empty() {
            for (dst, &r) in self.alt_tris.iter_mut().zip(self.recs.iter()) {
                *dst = self.tris[position(r)];
            }
        }
        core::mem::swap(&mut self.elems, &mut self.alt);
        core::mem::swap(&mut self.tris, &mut self.alt_tris);
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

    /// Records order as `f64::total_cmp` of the key, then the id.
    #[test]
    fn records_order_as_total_cmp_then_id() {
        let keys = [
            f64::NEG_INFINITY,
            -1e300,
            -2.5,
            -f64::MIN_POSITIVE,
            -5e-324,
            -0.0,
            0.0,
            5e-324,
            1.0,
            1.0 + f64::EPSILON,
            1e300,
            f64::INFINITY,
        ];
        for (i, &a) in keys.iter().enumerate() {
            for (j, &b) in keys.iter().enumerate() {
                for (ia, ib) in [(3, 7), (7, 3), (5, 5)] {
                    let want = a.total_cmp(&b).then(ia.cmp(&ib));
                    let got = record(a, ia, i).cmp(&record(b, ib, j));
                    if want != core::cmp::Ordering::Equal {
                        assert_eq!(got, want, "{a} {ia} vs {b} {ib}");
                    }
                }
            }
        }
        assert_eq!(position(record(-3.0, 9, 123_456)), 123_456);
    }

    /// Elements `i` with key `x = (i * 7919) % 101` (many ties) and the
    /// triangle `(x, i, 0)` repeated, so that moved triangles can be
    /// checked against their elements.
    fn test_prims(n: usize) -> (Vec<Elem>, Vec<Triangle<f64>>) {
        let tris: Vec<Triangle<f64>> = (0..n)
            .map(|i| {
                let x = ((i * 7919) % 101) as f64 - 50.0;
                let p = Point3::new(x, i as f64, 0.0);
                Triangle::new(p, p, p)
            })
            .collect();
        let elems = (0..n)
            .map(|i| Elem {
                m: clash_math::TriangleMoments::new(&tris[i]).about(&Point3::origin()),
                id: i as u32,
            })
            .collect();
        (elems, tris)
    }

    #[test]
    fn select_gather_and_partition() {
        let n = 257;
        let key = |e: &Elem| e.m.offset[0];
        for k in [1, 100, 128, 255, 256] {
            let (mut elems, mut tris) = test_prims(n);
            let (mut alt, mut alt_tris) = (vec![Elem::default(); n], tris.clone());
            let (mut recs, mut order) = (vec![0u128; n], vec![0u32; n]);
            let mut prims = Prims {
                elems: &mut elems,
                alt: &mut alt,
                tris: &mut tris,
                alt_tris: &mut alt_tris,
                recs: &mut recs,
                order: &mut order,
            };
            // Oracle: the (key, id) pairs sorted independently.
            let mut sorted: Vec<(f64, u32)> = prims.elems.iter().map(|e| (key(e), e.id)).collect();
            sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            prims.select_lowest(k, key);
            let (mut seen_left, mut seen_right) = (Vec::new(), Vec::new());
            prims.gather(k, |e| seen_left.push(e.id), |e| seen_right.push(e.id));
            let mut low: Vec<(f64, u32)> =
                prims.elems[..k].iter().map(|e| (key(e), e.id)).collect();
            low.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            assert_eq!(low, sorted[..k], "k = {k}");
            let ids: Vec<u32> = prims.elems.iter().map(|e| e.id).collect();
            assert_eq!(seen_left, ids[..k]);
            assert_eq!(seen_right, ids[k..]);
            for (e, t) in prims.elems.iter().zip(prims.tris.iter()) {
                assert_eq!(t.a.y, f64::from(e.id));
            }
            let mut all = ids.clone();
            all.sort();
            assert_eq!(all, (0..n as u32).collect::<Vec<_>>());
        }
        // Partition by a predicate, without carried triangles.
        let (mut elems, _) = test_prims(n);
        let mut alt = vec![Elem::default(); n];
        let (mut recs, mut order) = (vec![0u128; n], vec![0u32; n]);
        let mut prims = Prims::<f64> {
            elems: &mut elems,
            alt: &mut alt,
            tris: &mut [],
            alt_tris: &mut [],
            recs: &mut recs,
            order: &mut order,
        };
        let k = prims.partition_records(|e| key(e) < 0.0);
        prims.gather(k, |e| assert!(key(e) < 0.0), |e| assert!(key(e) >= 0.0));
        assert!(prims.elems[..k].iter().all(|e| key(e) < 0.0));
        assert!(prims.elems[k..].iter().all(|e| key(e) >= 0.0));
        assert_eq!(k, (0..n).filter(|i| (i * 7919) % 101 < 50).count());
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
