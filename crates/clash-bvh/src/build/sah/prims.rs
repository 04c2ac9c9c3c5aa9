//! The SAH builder's working set ([`SahPrims`]) and its partitions by
//! recorded bin numbers: in place, or stable and in chunked parallel
//! passes.

use super::boxes::{BoxLanes, KeyBounds, grow_lanes, union_of};
use super::{CHUNK, fold_chunks};
use clash_math::Scalar;
use rayon::prelude::*;

/// The SAH builder's working set for one node: the triangles' boxes and
/// ids, permuted together, a scratch pair of the same length for
/// out-of-place (stable, parallel) partitions, and a scratch column where
/// binning records each box's three bin numbers (by position; never
/// permuted). After an out-of-place partition the data lives in the scratch
/// pair and the two pairs trade places; `swapped` records that the live
/// pair is the scratch one, and [`Self::go_home`] moves it back.
pub(crate) struct SahPrims<'a, T: Scalar> {
    pub boxes: &'a mut [BoxLanes<T>],
    pub ids: &'a mut [u32],
    pub alt_boxes: &'a mut [BoxLanes<T>],
    pub alt_ids: &'a mut [u32],
    pub codes: &'a mut [u32],
    pub swapped: bool,
}

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
        let (c0, c1) = self.codes.split_at_mut(k);
        (
            SahPrims {
                boxes: b0,
                ids: i0,
                alt_boxes: ab0,
                alt_ids: ai0,
                codes: c0,
                swapped: self.swapped,
            },
            SahPrims {
                boxes: b1,
                ids: i1,
                alt_boxes: ab1,
                alt_ids: ai1,
                codes: c1,
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

    /// Bounds of the boxes and of their keys, in chunked parallel passes.
    pub fn bounds(&self) -> (BoxLanes<T>, KeyBounds<T>) {
        let boxes = &*self.boxes;
        fold_chunks(
            boxes.len(),
            |r| (union_of(&boxes[r.clone()]), KeyBounds::of(&boxes[r])),
            |(mut b0, c0), (b1, c1)| {
                grow_lanes(&mut b0, &b1);
                (b0, c0.merge(&c1))
            },
        )
    }

    /// Moves the boxes whose bin number on `axis` (recorded in `codes` by
    /// the binning) is at most `last_left` to the front and returns their
    /// count with both parts' key bounds. Lomuto's partition with the swap
    /// done unconditionally and the boundary advanced by the comparison, so
    /// no branch depends on the data; each position is read once before
    /// anything moves into it, so `codes` (indexed by position) needs no
    /// permuting.
    pub fn partition_codes(&mut self, axis: usize, last_left: u32) -> Parted<T> {
        let shift = 8 * axis as u32;
        let n = self.len();
        let (boxes, ids, codes) = (&mut *self.boxes, &mut *self.ids, &*self.codes);
        let mut k = 0;
        for i in 0..n {
            let left = (codes[i] >> shift) & 0xff <= last_left;
            let (b, id) = (boxes[i], ids[i]);
            boxes[i] = boxes[k];
            ids[i] = ids[k];
            boxes[k] = b;
            ids[k] = id;
            k += left as usize;
        }
        (
            k,
            KeyBounds::of(&self.boxes[..k]),
            KeyBounds::of(&self.boxes[k..]),
        )
    }

    /// [`Self::partition_codes`] as a stable partition into the scratch
    /// arrays (which then become the live ones), in chunked parallel
    /// passes: count per chunk, then scatter. The result is the unique
    /// stable partition, so it does not depend on the number of threads.
    pub fn partition_codes_stable(&mut self, axis: usize, last_left: u32) -> Parted<T> {
        let shift = 8 * axis as u32;
        let left = move |code: u32| (code >> shift) & 0xff <= last_left;
        let n = self.len();
        let codes = &*self.codes;
        let counts: Vec<usize> = codes
            .par_chunks(CHUNK)
            .map(|c| c.iter().filter(|&&x| left(x)).count())
            .collect();
        let k: usize = counts.iter().sum();
        // Disjoint destinations: chunk c's left elements follow those of
        // chunks before it in `[0, k)`, its right ones likewise in `[k, n)`.
        let mut dests = Vec::with_capacity(counts.len());
        let (mut lbox, mut rbox) = self.alt_boxes.split_at_mut(k);
        let (mut lid, mut rid) = self.alt_ids.split_at_mut(k);
        for (c, &kc) in counts.iter().enumerate() {
            let rc = ((c + 1) * CHUNK).min(n) - c * CHUNK - kc;
            let (lb_c, lb_rest) = core::mem::take(&mut lbox).split_at_mut(kc);
            let (rb_c, rb_rest) = core::mem::take(&mut rbox).split_at_mut(rc);
            let (li_c, li_rest) = core::mem::take(&mut lid).split_at_mut(kc);
            let (ri_c, ri_rest) = core::mem::take(&mut rid).split_at_mut(rc);
            (lbox, rbox, lid, rid) = (lb_rest, rb_rest, li_rest, ri_rest);
            dests.push((c, lb_c, li_c, rb_c, ri_c));
        }
        let (boxes, ids) = (&*self.boxes, &*self.ids);
        // Key bounds are maxima and minima, exact in any order.
        let (lb, rb) = dests
            .into_par_iter()
            .map(|(c, lb_c, li_c, rb_c, ri_c)| {
                let (mut l, mut r) = (0, 0);
                let (mut lk, mut rk) = (KeyBounds::empty(), KeyBounds::empty());
                let range = c * CHUNK..((c + 1) * CHUNK).min(n);
                for ((b, &id), &code) in boxes[range.clone()]
                    .iter()
                    .zip(&ids[range.clone()])
                    .zip(&codes[range])
                {
                    if left(code) {
                        lb_c[l] = *b;
                        li_c[l] = id;
                        l += 1;
                        lk.add(b);
                    } else {
                        rb_c[r] = *b;
                        ri_c[r] = id;
                        r += 1;
                        rk.add(b);
                    }
                }
                (lk, rk)
            })
            .reduce(
                || (KeyBounds::empty(), KeyBounds::empty()),
                |(l0, r0), (l1, r1)| (l0.merge(&l1), r0.merge(&r1)),
            );
        self.trade();
        (k, lb, rb)
    }
}

/// Left count and the key bounds of the left and right parts.
pub(crate) type Parted<T> = (usize, KeyBounds<T>, KeyBounds<T>);
