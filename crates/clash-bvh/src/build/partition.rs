//! In-place partitioning of the median/mean builder's working arrays, so that a node's
//! triangles stay one contiguous slice and no per-node buffer is allocated.

use clash_math::{MomentsAbout, Scalar, Triangle};

/// One triangle in the median/mean builder's working set: its moments
/// about the mesh's origin (computed once per triangle; see
/// [`MomentsAbout`]), whose centroid offset is also its split key's point,
/// and its id.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Elem {
    pub m: MomentsAbout,
    pub id: u32,
    /// The triangle's vertex indices (carried along, so that listing a
    /// node's corners reads no mesh index array at random).
    pub corners: [u32; 3],
}

/// The median/mean builder's working set for one node: slices of equal
/// length. A split ranks the elements on compact records (`recs`) to find
/// its pivot, then partitions the elements (and the triangles, when the
/// fits need them) in place, so a node's children find their elements
/// contiguous: no scratch column. `order` receives each leaf's triangle
/// ids at the leaf's position in the leaf order.
pub(crate) struct Prims<'a, T: Scalar> {
    pub elems: &'a mut [Elem],
    /// The triangles, permuted with `elems`; empty when the fits take no
    /// triangle slices.
    pub tris: &'a mut [Triangle<T>],
    /// Scratch: one rank record per element (see [`record`]).
    pub recs: &'a mut [u64],
    pub order: &'a mut [u32],
    /// The leaf triangles, by position in the leaf order like `order`,
    /// written by the leaves; empty when the build carries the triangles
    /// along or gathers them after the build (see `build::build`).
    pub leaf_tris: &'a mut [Triangle<T>],
}

/// The rank record of an element with split key `key` at position `pos`
/// of its node's slice: the key rounded to `f32` (rounding is monotone, so
/// the order of the keys is kept up to new ties), in the order of
/// `f32::total_cmp`, in the top 32 bits, then `pos` (unique, so records
/// compare as `(key, position)`). Comparing records is one 64-bit integer
/// comparison, and a record takes 8 bytes to move: the median selection
/// runs on every level of the tree. Ties (equal or nearly equal keys)
/// split in position order, which is deterministic; any split is a valid
/// one.
#[inline(always)]
pub(crate) fn record(key: f64, pos: usize) -> u64 {
    let bits = (key as f32).to_bits();
    // Negative keys (sign bit set) have all bits flipped, so that larger
    // magnitudes rank lower; others get the sign bit set, ranking above.
    let ordered = bits ^ ((((bits as i32) >> 31) as u32) | (1 << 31));
    ((ordered as u64) << 32) | pos as u64
}

/// The position a record carries.
#[inline(always)]
fn position(r: u64) -> usize {
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
        let kt = k.min(self.tris.len());
        let (t0, t1) = self.tris.split_at_mut(kt);
        let (r0, r1) = self.recs.split_at_mut(k);
        let (o0, o1) = self.order.split_at_mut(k);
        let kl = k.min(self.leaf_tris.len());
        let (l0, l1) = self.leaf_tris.split_at_mut(kl);
        (
            Prims {
                elems: e0,
                tris: t0,
                recs: r0,
                order: o0,
                leaf_tris: l0,
            },
            Prims {
                elems: e1,
                tris: t1,
                recs: r1,
                order: o1,
                leaf_tris: l1,
            },
        )
    }

    /// The record ([`record`], a total order on `(key, position)`) of rank
    /// `k` among the elements' (`0 < k < len`): the `k` elements whose
    /// records are below it are the `k` lowest. The standard library's
    /// introselect on the 8-byte records.
    pub fn pivot_record(&mut self, k: usize, key: impl Fn(&Elem) -> f64) -> u64 {
        for (pos, (r, e)) in self.recs.iter_mut().zip(self.elems.iter()).enumerate() {
            *r = record(key(e), pos);
        }
        *self.recs.select_nth_unstable(k).1
    }

    /// Orders two elements by `(key, position)` ([`record`]) in place.
    pub fn order_pair(&mut self, key: impl Fn(&Elem) -> f64) {
        let (a, b) = (&self.elems[0], &self.elems[1]);
        if record(key(b), 1) < record(key(a), 0) {
            self.elems.swap(0, 1);
            if !self.tris.is_empty() {
                self.tris.swap(0, 1);
            }
        }
    }

    /// Partitions the elements (and carried triangles) in place so that
    /// the `k` whose records [`Self::pivot_record`] ranked lowest come
    /// first, reading the ranked records only. After the selection
    /// `recs[..k]` hold the positions of the left part, so those at `k` or
    /// beyond are left elements on the wrong side, and those in `recs[k..]`
    /// below `k` are right elements on the wrong side: one branch-free
    /// pass over each half lists them (in place, each list never
    /// overtaking its reading), and they trade places pairwise.
    pub fn partition_ranked(&mut self, k: usize) {
        let (ranked_left, ranked_right) = self.recs.split_at_mut(k);
        let mut a = 0;
        for j in 0..ranked_left.len() {
            let pos = position(ranked_left[j]);
            ranked_left[a] = pos as u64;
            a += usize::from(pos >= k);
        }
        let mut b = 0;
        for j in 0..ranked_right.len() {
            let pos = position(ranked_right[j]);
            ranked_right[b] = pos as u64;
            b += usize::from(pos < k);
        }
        debug_assert_eq!(a, b);
        let pairs = ranked_right[..b.min(a)]
            .iter()
            .zip(&ranked_left[..a.min(b)])
            .map(|(&x, &y)| (x as usize, y as usize - k));
        swap_pairs(self.elems, self.tris, k, pairs);
    }

    /// Partitions the elements (and carried triangles) in place so that
    /// the `k` for which `left(element, position)` holds come first
    /// (`left` must hold for exactly `k`; it sees each element once, at its
    /// position before the pass).
    ///
    /// The elements on the wrong side of `k` are as many on the left as on
    /// the right: one branch-free pass lists them (in `recs`, used here as
    /// scratch), then they trade places pairwise, so each element moves at
    /// most once. The mean split's partition.
    #[inline(always)]
    pub fn partition(&mut self, k: usize, left: impl Fn(&Elem, usize) -> bool) {
        let (wrong_left, wrong_right) = self.recs.split_at_mut(k);
        let (mut a, mut b) = (0, 0);
        for (i, e) in self.elems[..k].iter().enumerate() {
            wrong_left[a] = i as u64;
            a += usize::from(!left(e, i));
        }
        for (i, e) in self.elems[k..].iter().enumerate() {
            wrong_right[b] = i as u64;
            b += usize::from(left(e, k + i));
        }
        debug_assert_eq!(a, b);
        let pairs = wrong_left[..a.min(b)]
            .iter()
            .zip(&wrong_right[..a.min(b)])
            .map(|(&x, &y)| (x as usize, y as usize));
        swap_pairs(self.elems, self.tris, k, pairs);
    }
}

/// Swaps the elements (and carried triangles) at `x` and `k + y` for
/// each pair `(x, y)`.
#[inline(always)]
fn swap_pairs<T: Scalar>(
    elems: &mut [Elem],
    tris: &mut [Triangle<T>],
    k: usize,
    pairs: impl Iterator<Item = (usize, usize)>,
) {
    let (el, er) = elems.split_at_mut(k);
    if tris.is_empty() {
        for (x, y) in pairs {
            core::mem::swap(&mut el[x], &mut er[y]);
        }
    } else {
        let (tl, tr) = tris.split_at_mut(k);
        for (x, y) in pairs {
            core::mem::swap(&mut el[x], &mut er[y]);
            core::mem::swap(&mut tl[x], &mut tr[y]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_math::Point3;

    /// Records order as `f32::total_cmp` of the key rounded to `f32`, then
    /// the position; rounding keeps the order of distinct `f32` keys.
    #[test]
    fn records_order_as_rounded_key_then_position() {
        let keys = [
            f64::NEG_INFINITY,
            -1e300,
            -2.5,
            -f64::from(f32::MIN_POSITIVE),
            -1e-45,
            -0.0,
            0.0,
            1e-45,
            1.0,
            1.0 + f64::from(f32::EPSILON),
            1e300,
            f64::INFINITY,
        ];
        for (i, &a) in keys.iter().enumerate() {
            for (j, &b) in keys.iter().enumerate() {
                for (pa, pb) in [(3, 7), (7, 3)] {
                    let want = (a as f32).total_cmp(&(b as f32)).then(pa.cmp(&pb));
                    let got = record(a, pa).cmp(&record(b, pb));
                    assert_eq!(got, want, "{a} at {pa} vs {b} at {pb}");
                }
                if i < j && (a as f32) != (b as f32) {
                    assert!(record(a, 9) < record(b, 1), "{a} vs {b}");
                }
            }
        }
        assert_eq!(position(record(-3.0, 123_456)), 123_456);
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
                corners: [0; 3],
            })
            .collect();
        (elems, tris)
    }

    /// The pivot record splits off exactly the `k` lowest `(key,
    /// position)` pairs, and the in-place partitions (from the ranked
    /// records, or by comparing with the pivot) put them first,
    /// carrying each element's triangle along and losing none: checked
    /// against an independent sort, on keys with many ties and on keys
    /// that are all equal.
    #[test]
    fn pivot_and_partition_split_off_the_k_lowest() {
        let n = 257;
        for all_equal in [false, true] {
            let key = |e: &Elem| if all_equal { 1.5 } else { e.m.offset[0] };
            for (k, ranked) in [1, 2, 100, 128, 255, 256]
                .into_iter()
                .flat_map(|k| [(k, false), (k, true)])
            {
                let (mut elems, mut tris) = test_prims(n);
                let (mut recs, mut order) = (vec![0u64; n], vec![0u32; n]);
                let mut prims = Prims {
                    elems: &mut elems,
                    tris: &mut tris,
                    recs: &mut recs,
                    order: &mut order,
                    leaf_tris: &mut [],
                };
                // Oracle: the (key, id) pairs sorted independently (the
                // elements start in id order, so positions break ties as
                // ids).
                let mut sorted: Vec<(f64, u32)> =
                    prims.elems.iter().map(|e| (key(e), e.id)).collect();
                sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let pivot = prims.pivot_record(k, key);
                if ranked {
                    prims.partition_ranked(k);
                } else {
                    prims.partition(k, |e, pos| record(key(e), pos) < pivot);
                }
                let mut low: Vec<(f64, u32)> =
                    prims.elems[..k].iter().map(|e| (key(e), e.id)).collect();
                low.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                assert_eq!(low, sorted[..k], "k = {k}");
                for (e, t) in prims.elems.iter().zip(prims.tris.iter()) {
                    assert_eq!(t.a.y, f64::from(e.id));
                }
                let mut all: Vec<u32> = prims.elems.iter().map(|e| e.id).collect();
                all.sort();
                assert_eq!(all, (0..n as u32).collect::<Vec<_>>());
                assert_eq!(position(pivot), sorted[k].1 as usize);
            }
        }
        // Partition by a predicate (the mean split), without carried
        // triangles.
        let (mut elems, _) = test_prims(n);
        let (mut recs, mut order) = (vec![0u64; n], vec![0u32; n]);
        let mut prims = Prims::<f64> {
            elems: &mut elems,
            tris: &mut [],
            recs: &mut recs,
            order: &mut order,
            leaf_tris: &mut [],
        };
        let key = |e: &Elem| e.m.offset[0];
        let k = (0..n).filter(|i| (i * 7919) % 101 < 50).count();
        prims.partition(k, |e, _| key(e) < 0.0);
        assert!(prims.elems[..k].iter().all(|e| key(e) < 0.0));
        assert!(prims.elems[k..].iter().all(|e| key(e) >= 0.0));
        let mut all: Vec<u32> = prims.elems.iter().map(|e| e.id).collect();
        all.sort();
        assert_eq!(all, (0..n as u32).collect::<Vec<_>>());
    }
}
