//! Binned surface-area-heuristic construction (RTCD §6.2.2; Wald 2007,
//! *On fast construction of SAH-based bounding volume hierarchies*),
//! parallel with `rayon::join` and bit-identical on any number of threads.
//!
//! The builder permutes only each triangle's box (in the lane layout of
//! [`Lanes`]) and its id; the triangles are gathered into leaf order at the
//! end, straight from the mesh. Every node's exact corner bounds come from
//! the split of its parent (the bins, or the sweep), so no node is fitted
//! during the build: AABB trees with the default fit take them as their
//! volumes, other volumes are fitted afterwards to each node's (final,
//! contiguous) triangles. Subtrees write runs of nodes in preorder with
//! run-relative child links; the runs are concatenated at the end.
//!
//! Per node:
//! - at most [`SWEEP_MAX`] triangles: the exact SAH over every split of the
//!   triangles sorted by box centre on each axis (a sweep; RTCD §6.2.2),
//!   which also replaces the fixed costs of binning where they dominate;
//! - larger: binning of the box centres into `bins` bins per axis. One pass
//!   bins every box on all three axes and records its three bin numbers
//!   (`codes`); the partition then reads the chosen axis's bin number back
//!   instead of recomputing it, with no branch (Lomuto with a conditional
//!   increment), and a second pass takes each part's centre bounds.
//!
//! Nodes of at least [`PARALLEL_SPLIT`] triangles bin and partition in
//! chunked parallel passes whose chunks depend only on the node size; the
//! partition is then the unique stable one, so the tree does not depend on
//! the number of threads.

use crate::Node;
use crate::build::{BuildOptions, Built, CornerSource, FitQuality, PARALLEL_THRESHOLD};
use clash_bv::{Aabb, BoundingVolume, FitError, FitScratch, IndexedPoints};
use clash_math::{Point3, Scalar, Triangle, TriangleMoments};
use core::sync::atomic::{AtomicU32, Ordering};
use rayon::prelude::*;

/// SAH nodes with at least this many triangles are binned and partitioned
/// in chunked parallel passes (the choice depends only on the node's size,
/// so the tree does not depend on the number of threads).
pub(crate) const PARALLEL_SPLIT: usize = 1 << 15;

/// Nodes of at most this many triangles take the exact sweep instead of
/// binning.
pub(crate) const SWEEP_MAX: usize = 8;

// --- lanes -------------------------------------------------------------------

/// A box in the SAH builder's lane layout:
/// `[-min.x, -min.y, -min.z, 0, max.x, max.y, max.z, 0]`. Negating the
/// minimum makes growing a box one lane-wise maximum over all eight lanes
/// (a few SIMD max instructions), and `max[k] + min[k]`, twice the box centre
/// (the split key), is `b[4 + k] - b[k]`. Empty boxes have `-inf` in the six
/// bound lanes.
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

/// The exact box of three points.
#[inline(always)]
fn corner_lanes<T: Scalar>(a: &Point3<T>, b: &Point3<T>, c: &Point3<T>) -> Lanes<T> {
    let lo = |k: usize| a[k].min_of(b[k]).min_of(c[k]);
    let hi = |k: usize| a[k].max_of(b[k]).max_of(c[k]);
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

/// The split keys of box `b` (twice its centre) in lanes 0 to 2, 0 in lane 3.
#[inline(always)]
fn keys<T: Scalar>(b: &Lanes<T>) -> [T; 4] {
    core::array::from_fn(|k| b[4 + k] - b[k])
}

/// Bounds of split keys, `[min; 4]` and `[max; 4]` (lane 3 unused).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct KeyBounds<T> {
    lo: [T; 4],
    hi: [T; 4],
}

impl<T: Scalar> KeyBounds<T> {
    /// No keys.
    #[inline(always)]
    pub(crate) fn empty() -> Self {
        Self {
            lo: [T::INFINITY; 4],
            hi: [T::NEG_INFINITY; 4],
        }
    }

    /// Grows the bounds to hold the keys of box `b`.
    #[inline(always)]
    pub(crate) fn add(&mut self, b: &Lanes<T>) {
        for (k, c) in keys(b).into_iter().enumerate() {
            self.lo[k] = self.lo[k].min_of(c);
            self.hi[k] = self.hi[k].max_of(c);
        }
    }

    /// Both bounds.
    #[inline(always)]
    pub(crate) fn merge(mut self, o: &Self) -> Self {
        for k in 0..4 {
            self.lo[k] = self.lo[k].min_of(o.lo[k]);
            self.hi[k] = self.hi[k].max_of(o.hi[k]);
        }
        self
    }

    /// The key bounds of `boxes`.
    #[inline]
    pub(crate) fn of(boxes: &[Lanes<T>]) -> Self {
        let mut c = Self::empty();
        for b in boxes {
            c.add(b);
        }
        c
    }
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

/// The union of `boxes`.
#[inline]
fn union_of<T: Scalar>(boxes: &[Lanes<T>]) -> Lanes<T> {
    let mut acc = empty_lanes();
    for b in boxes {
        grow_lanes(&mut acc, b);
    }
    acc
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
    let parts: Vec<R> = (0..n.div_ceil(CHUNK).max(1))
        .into_par_iter()
        .map(|c| f(c * CHUNK..((c + 1) * CHUNK).min(n)))
        .collect();
    let mut it = parts.into_iter();
    let first = it.next().expect("at least one chunk");
    it.fold(first, merge)
}

// --- working set ---------------------------------------------------------------

/// The SAH builder's working set for one node: the triangles' boxes and
/// ids, permuted together, a scratch pair of the same length for
/// out-of-place (stable, parallel) partitions, and a scratch column where
/// binning records each box's three bin numbers (by position; never
/// permuted). After an out-of-place partition the data lives in the scratch
/// pair and the two pairs trade places; `swapped` records that the live
/// pair is the scratch one, and [`Self::go_home`] moves it back.
pub(crate) struct SahPrims<'a, T: Scalar> {
    pub boxes: &'a mut [Lanes<T>],
    pub ids: &'a mut [u32],
    pub alt_boxes: &'a mut [Lanes<T>],
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
    pub fn bounds(&self) -> (Lanes<T>, KeyBounds<T>) {
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

// --- binning -----------------------------------------------------------------

/// The binning of a node: per axis and bin, the bounds of the boxes whose
/// key falls in it and their count.
#[derive(Clone, Copy)]
struct Bins<T: Scalar, const N: usize> {
    boxes: [[Lanes<T>; N]; 3],
    counts: [[u32; N]; 3],
}

impl<T: Scalar, const N: usize> Bins<T, N> {
    #[inline(always)]
    fn empty() -> Self {
        Self {
            boxes: [[empty_lanes(); N]; 3],
            counts: [[0; N]; 3],
        }
    }

    fn merge(mut self, other: Self) -> Self {
        self.merge_from(&other);
        self
    }

    /// Adds `other`'s boxes and counts, bin by bin.
    #[inline(always)]
    fn merge_from(&mut self, other: &Self) {
        for k in 0..3 {
            for b in 0..N {
                grow_lanes(&mut self.boxes[k][b], &other.boxes[k][b]);
                self.counts[k][b] += other.counts[k][b];
            }
        }
    }
}

/// The bin of a key already scaled to bin units, `x = (key - origin) *
/// scale`: `floor(x)` clamped to `0..=top` (`top` is the last bin, at
/// most 255), with NaN in bin 0.
#[inline(always)]
fn bin_index<T: Scalar>(x: T, top: f32) -> u32 {
    let f = x.to_f32();
    let f = if f > 0.0 { f } else { 0.0 };
    let f = if f < top { f } else { top };
    // SAFETY: `f` lies in `[0, top]` with `top <= 255` (NaN fails `f > 0`
    // and became 0), so it is finite and its truncation fits in `i32`, as
    // `to_int_unchecked` requires. Tested by `tests::bin_index_clamps`.
    unsafe { f.to_int_unchecked::<i32>() as u32 }
}

/// Where a node's keys go: bin origin and scale per axis (lane 3 of both
/// is 0, so the padding lane bins to 0 with the others).
struct Grid<T: Scalar> {
    origin: [T; 4],
    scale: [T; 4],
    live: [bool; 3],
    bins: usize,
    /// The last bin, `bins - 1`.
    top: f32,
}

impl<T: Scalar> Grid<T> {
    /// The grid over key bounds `cents`.
    fn new(cents: &KeyBounds<T>, bins: usize) -> Self {
        let mut origin = [T::ZERO; 4];
        let mut scale = [T::ZERO; 4];
        let mut live = [false; 3];
        for k in 0..3 {
            origin[k] = cents.lo[k];
            let extent = cents.hi[k] - cents.lo[k];
            live[k] = extent > T::ZERO && extent.finite();
            if live[k] {
                scale[k] = T::lit(bins as f64) / extent;
            }
        }
        Self {
            origin,
            scale,
            live,
            bins,
            top: (bins - 1) as f32,
        }
    }

    /// Bins `boxes` on all three axes in one pass into `out`, recording
    /// each box's bin numbers in `codes` (`x | y << 8 | z << 16`). Longer
    /// runs alternate between two sets of bins, merged at the end (bounds
    /// and counts merge exactly): consecutive boxes often fall in the same
    /// bins, and one set would chain each update on the store before it.
    #[inline(always)]
    fn fill<const N: usize>(&self, boxes: &[Lanes<T>], codes: &mut [u32], out: &mut Bins<T, N>) {
        if boxes.len() < TWO_SETS_MIN {
            for (b, code) in boxes.iter().zip(codes.iter_mut()) {
                self.bin_one(b, code, out);
            }
            return;
        }
        let mut other = Bins::empty();
        let (pairs, last) = boxes.as_chunks::<2>();
        let (code_pairs, last_code) = codes.as_chunks_mut::<2>();
        for (b, c) in pairs.iter().zip(code_pairs.iter_mut()) {
            self.bin_one(&b[0], &mut c[0], out);
            self.bin_one(&b[1], &mut c[1], &mut other);
        }
        if let ([b], [c]) = (last, last_code) {
            self.bin_one(b, c, out);
        }
        out.merge_from(&other);
    }

    /// Bins one box into `out` and records its bin numbers in `code`.
    #[inline(always)]
    fn bin_one<const N: usize>(&self, b: &Lanes<T>, code: &mut u32, out: &mut Bins<T, N>) {
        // The three bins first (four lanes, one vector), then the
        // updates: the box stays in registers.
        let b = *b;
        let c = keys(&b);
        let at: [u32; 4] =
            core::array::from_fn(|k| bin_index((c[k] - self.origin[k]) * self.scale[k], self.top));
        *code = at[0] | (at[1] << 8) | (at[2] << 16);
        for (k, &bin) in at[..3].iter().enumerate() {
            // `bin <= top < N`, and `N` is a power of two: the mask
            // only spares the bounds check.
            let bin = bin as usize & (N - 1);
            grow_lanes(&mut out.boxes[k][bin], &b);
            out.counts[k][bin] += 1;
        }
    }
}

/// Runs of at least this many boxes are binned into two sets of bins
/// ([`Grid::fill`]).
const TWO_SETS_MIN: usize = 256;

/// A node's split: the left part's size and both parts' exact corner
/// bounds and key bounds.
pub(crate) struct Split<T: Scalar> {
    pub k: usize,
    pub left: Lanes<T>,
    pub right: Lanes<T>,
    pub left_cents: KeyBounds<T>,
    pub right_cents: KeyBounds<T>,
}

/// Chooses the SAH plane for `prims` (key bounds `cents`) and partitions
/// them by it: the exact sweep for nodes of at most [`SWEEP_MAX`] triangles,
/// else binning. When all keys coincide, binning splits the current order
/// in half.
pub(crate) fn sah_split<T: Scalar>(
    prims: &mut SahPrims<'_, T>,
    bins: usize,
    cents: &KeyBounds<T>,
) -> Split<T> {
    let n = prims.len();
    if n <= SWEEP_MAX {
        return sweep_split(prims);
    }
    let grid = Grid::new(cents, bins);
    let plane = if bins <= 16 {
        best_plane::<T, 16>(prims, &grid)
    } else if bins <= 64 {
        best_plane::<T, 64>(prims, &grid)
    } else {
        best_plane::<T, 256>(prims, &grid)
    };
    let Some((axis, last_left, left, right)) = plane else {
        let k = n / 2;
        let (l, r) = prims.boxes.split_at(k);
        return Split {
            k,
            left: union_of(l),
            right: union_of(r),
            left_cents: KeyBounds::of(l),
            right_cents: KeyBounds::of(r),
        };
    };
    // The very binning that chose the plane sends each box left or right
    // (its recorded bin number), so the bins' bounds are exactly the parts'
    // bounds and neither part is empty.
    let (k, left_cents, right_cents) = if n >= PARALLEL_SPLIT {
        prims.partition_codes_stable(axis, last_left as u32)
    } else {
        prims.partition_codes(axis, last_left as u32)
    };
    debug_assert!(0 < k && k < n);
    Split {
        k,
        left,
        right,
        left_cents,
        right_cents,
    }
}

/// Binned SAH over `grid.bins <= N` bins per axis: bins the boxes
/// (recording their bin numbers in `prims.codes`) and returns the plane
/// (axis, last bin on the left) with the lowest cost, left area times left
/// count plus right area times right count, with both parts' bounds;
/// `None` when no axis is live. `N` only sizes the stack arrays, so that
/// small bin counts do not initialise 256 bins per node.
#[inline(never)]
fn best_plane<T: Scalar, const N: usize>(
    prims: &mut SahPrims<'_, T>,
    grid: &Grid<T>,
) -> Option<(usize, usize, Lanes<T>, Lanes<T>)> {
    if !grid.live.iter().any(|&l| l) {
        return None;
    }
    let n = prims.len();
    let (boxes, codes) = (&*prims.boxes, &mut *prims.codes);
    let mut binned = Bins::<T, N>::empty();
    if n >= PARALLEL_SPLIT {
        let parts: Vec<Bins<T, N>> = boxes
            .par_chunks(CHUNK)
            .zip(codes.par_chunks_mut(CHUNK))
            .map(|(b, c)| {
                let mut out = Bins::empty();
                grid.fill(b, c, &mut out);
                out
            })
            .collect();
        binned = parts.into_iter().reduce(Bins::merge).expect("a chunk");
    } else {
        grid.fill(boxes, codes, &mut binned);
    }
    let plane = sweep_bins(&binned, grid, n);
    let (axis, last_left) = plane?;
    let bins = grid.bins;
    Some((
        axis,
        last_left,
        union_of(&binned.boxes[axis][..last_left + 1]),
        union_of(&binned.boxes[axis][last_left + 1..bins]),
    ))
}

/// Boxes of the three axes side by side, one axis per lane
/// (structure of arrays): lane `a` of `lo[c]` is `-min[c]` of axis `a`'s
/// box and lane `a` of `hi[c]` its `max[c]`; lane 3 is an empty box. The
/// binned sweep grows and measures the three axes' boxes in the same
/// vector operations.
#[derive(Clone, Copy)]
struct AxisBoxes<T> {
    lo: [[T; 4]; 3],
    hi: [[T; 4]; 3],
}

impl<T: Scalar> AxisBoxes<T> {
    #[inline(always)]
    fn empty() -> Self {
        Self {
            lo: [[T::NEG_INFINITY; 4]; 3],
            hi: [[T::NEG_INFINITY; 4]; 3],
        }
    }

    /// Bin `i` of each axis of `bins`.
    #[inline(always)]
    fn of_bin<const N: usize>(bins: &Bins<T, N>, i: usize) -> Self {
        let mut s = Self::empty();
        for a in 0..3 {
            let b = &bins.boxes[a][i];
            for c in 0..3 {
                s.lo[c][a] = b[c];
                s.hi[c][a] = b[4 + c];
            }
        }
        s
    }

    #[inline(always)]
    fn grow(&mut self, o: &Self) {
        for c in 0..3 {
            for a in 0..4 {
                self.lo[c][a] = self.lo[c][a].max_of(o.lo[c][a]);
                self.hi[c][a] = self.hi[c][a].max_of(o.hi[c][a]);
            }
        }
    }

    /// Half the surface area of each lane's box, as [`half_area_lanes`]
    /// computes it for a non-empty box (the same products, summed in the
    /// same order), with no test for emptiness, so that the lanes compute
    /// in one vector.
    #[inline(always)]
    fn half_areas(&self) -> [T; 4] {
        let d: [[T; 4]; 3] =
            core::array::from_fn(|c| core::array::from_fn(|a| self.hi[c][a] + self.lo[c][a]));
        core::array::from_fn(|a| d[0][a] * d[1][a] + d[1][a] * d[2][a] + d[2][a] * d[0][a])
    }
}

/// The cheapest plane of a binning over `n` boxes: `(axis, last bin on
/// the left)` minimising left area times left count plus right area times
/// right count over the live axes, the first axis and then the first bin
/// on ties; `None` without a live axis. The three axes are swept
/// together, one per lane ([`AxisBoxes`]).
///
/// On a live axis the first bin holds the box of least key and the last
/// bin the box of greatest key ([`Grid::new`] spans exactly the keys'
/// range), so every plane leaves both sides non-empty and no accumulated
/// box is empty: the sweep needs no test per plane but the comparison.
fn sweep_bins<T: Scalar, const N: usize>(
    binned: &Bins<T, N>,
    grid: &Grid<T>,
    n: usize,
) -> Option<(usize, usize)> {
    let bins = grid.bins;
    debug_assert!(
        (0..3)
            .all(|a| !grid.live[a] || (binned.counts[a][0] > 0 && binned.counts[a][bins - 1] > 0))
    );
    let soa: [AxisBoxes<T>; N] = core::array::from_fn(|i| {
        if i < bins {
            AxisBoxes::of_bin(binned, i)
        } else {
            AxisBoxes::empty()
        }
    });
    let total = T::lit(n as f64);
    // Sweep from the right: the areas of bins [i, bins).
    let mut right_area = [[T::ZERO; 4]; N];
    let mut acc = AxisBoxes::empty();
    for i in (1..bins).rev() {
        acc.grow(&soa[i]);
        right_area[i] = acc.half_areas();
    }
    // Sweep from the left, keeping each lane's first cheapest plane.
    let mut acc = AxisBoxes::empty();
    let mut nl = [T::ZERO; 4];
    let mut best_cost = [T::ZERO; 4];
    let mut best_bin = [0u32; 4];
    for i in 0..bins - 1 {
        acc.grow(&soa[i]);
        let left_area = acc.half_areas();
        for a in 0..4 {
            let c = if a < 3 { binned.counts[a][i] } else { 0 };
            nl[a] += T::lit(f64::from(c));
            let cost = left_area[a] * nl[a] + right_area[i + 1][a] * (total - nl[a]);
            let take = i == 0 || cost < best_cost[a];
            best_cost[a] = if take { cost } else { best_cost[a] };
            best_bin[a] = if take { i as u32 } else { best_bin[a] };
        }
    }
    let mut best: Option<(T, usize)> = None;
    for a in (0..3).filter(|&a| grid.live[a]) {
        if best.is_none_or(|(c, _)| best_cost[a] < c) {
            best = Some((best_cost[a], a));
        }
    }
    best.map(|(_, a)| (a, best_bin[a] as usize))
}

/// The exact SAH split of a small node (`2 <= n <= SWEEP_MAX`): on each
/// axis the boxes sorted by key (ties by triangle id, so the order does not
/// depend on the input order), then every split of that order is costed
/// from prefix and suffix boxes (RTCD §6.2.2), left area times left count
/// plus right area times right count; the cheapest split (first axis,
/// then first position, on ties) is applied. Every split is a valid one,
/// even where all keys coincide.
fn sweep_split<T: Scalar>(prims: &mut SahPrims<'_, T>) -> Split<T> {
    let n = prims.len();
    debug_assert!((2..=SWEEP_MAX).contains(&n));
    let (boxes, ids) = (&mut *prims.boxes, &mut *prims.ids);
    if n == 2 {
        // Both splits of every axis cost the same (the two areas' sum, in
        // either order): the first axis's order decides.
        let key = |b: &Lanes<T>| b[4] - b[0];
        if key(&boxes[1]) < key(&boxes[0]) || (key(&boxes[1]) == key(&boxes[0]) && ids[1] < ids[0])
        {
            boxes.swap(0, 1);
            ids.swap(0, 1);
        }
        return Split {
            k: 1,
            left: boxes[0],
            right: boxes[1],
            left_cents: KeyBounds::of(&boxes[..1]),
            right_cents: KeyBounds::of(&boxes[1..]),
        };
    }
    let mut orders = [[0u8; SWEEP_MAX]; 3];
    let mut right_area = [T::ZERO; SWEEP_MAX];
    let mut best = (T::ZERO, 0usize, 0usize);
    for (axis, order) in orders.iter_mut().enumerate() {
        let key: [T; SWEEP_MAX] = core::array::from_fn(|i| {
            if i < n {
                boxes[i][4 + axis] - boxes[i][axis]
            } else {
                T::ZERO
            }
        });
        let order = &mut order[..n];
        // Insertion sort of the positions by (key, id).
        for j in 0..n {
            let x = j as u8;
            let (kx, ix) = (key[j], ids[j]);
            let mut m = j;
            while m > 0 {
                let y = order[m - 1] as usize;
                if !(kx < key[y] || (kx == key[y] && ix < ids[y])) {
                    break;
                }
                order[m] = order[m - 1];
                m -= 1;
            }
            order[m] = x;
        }
        let mut acc = empty_lanes();
        for j in (1..n).rev() {
            grow_lanes(&mut acc, &boxes[order[j] as usize]);
            right_area[j] = half_area_lanes(&acc);
        }
        let mut acc = empty_lanes();
        for i in 0..n - 1 {
            grow_lanes(&mut acc, &boxes[order[i] as usize]);
            let cost = half_area_lanes(&acc) * T::lit((i + 1) as f64)
                + right_area[i + 1] * T::lit((n - i - 1) as f64);
            if (axis == 0 && i == 0) || cost < best.0 {
                best = (cost, axis, i);
            }
        }
    }
    let (_, axis, last_left) = best;
    let mut tb = [empty_lanes::<T>(); SWEEP_MAX];
    let mut ti = [0u32; SWEEP_MAX];
    for (j, &o) in orders[axis][..n].iter().enumerate() {
        tb[j] = boxes[o as usize];
        ti[j] = ids[o as usize];
    }
    boxes.copy_from_slice(&tb[..n]);
    ids.copy_from_slice(&ti[..n]);
    let k = last_left + 1;
    let (l, r) = boxes.split_at(k);
    Split {
        k,
        left: union_of(l),
        right: union_of(r),
        left_cents: KeyBounds::of(l),
        right_cents: KeyBounds::of(r),
    }
}

// --- the builder -------------------------------------------------------------

/// A node of the SAH builder before its volume is fitted.
#[derive(Clone, Copy)]
pub(crate) struct RawNode<T: Scalar> {
    /// Exact bounds of the node's triangles' corners.
    pub bounds: Lanes<T>,
    /// Leaf-order position of its first triangle.
    pub first: u32,
    /// Number of triangles below it.
    pub n: u32,
    /// Internal node: the right child's index relative to the start of the
    /// node's run. 0 for a leaf.
    pub right: u32,
}

/// Runs of nodes in preorder; concatenated, they are the tree.
type Runs<T> = Vec<Vec<RawNode<T>>>;

struct SahBuilder {
    bins: usize,
    max_leaf_size: usize,
    max_depth: u32,
}

impl SahBuilder {
    fn is_leaf(&self, n: usize, depth: u32) -> bool {
        n <= self.max_leaf_size || depth >= self.max_depth
    }

    /// Builds the subtree over `prims` (exact corner bounds `bounds`, key
    /// bounds `cents`; `first` is the leaf-order position of `prims[0]`),
    /// forking below nodes of at least [`PARALLEL_THRESHOLD`] triangles.
    fn task<T: Scalar>(
        &self,
        mut prims: SahPrims<'_, T>,
        first: u32,
        depth: u32,
        bounds: Lanes<T>,
        cents: KeyBounds<T>,
    ) -> Runs<T> {
        let n = prims.len();
        if n < PARALLEL_THRESHOLD || self.is_leaf(n, depth) {
            prims.go_home();
            // At most 2n - 1 nodes: no reallocation while the run grows.
            let mut run = Vec::with_capacity(2 * n);
            self.seq(prims, first, depth, bounds, cents, &mut run);
            return vec![run];
        }
        let s = sah_split(&mut prims, self.bins, &cents);
        let k = s.k;
        let (lp, rp) = prims.split_at(k);
        let (l, r) = rayon::join(
            || self.task(lp, first, depth + 1, s.left, s.left_cents),
            || self.task(rp, first + k as u32, depth + 1, s.right, s.right_cents),
        );
        let left_nodes: usize = l.iter().map(Vec::len).sum();
        let mut runs = Vec::with_capacity(1 + l.len() + r.len());
        runs.push(vec![RawNode {
            bounds,
            first,
            n: n as u32,
            right: 1 + left_nodes as u32,
        }]);
        runs.extend(l);
        runs.extend(r);
        runs
    }

    /// [`Self::task`] on the current thread, appending to one run.
    fn seq<T: Scalar>(
        &self,
        mut prims: SahPrims<'_, T>,
        first: u32,
        depth: u32,
        bounds: Lanes<T>,
        cents: KeyBounds<T>,
        run: &mut Vec<RawNode<T>>,
    ) {
        let n = prims.len();
        let me = run.len();
        run.push(RawNode {
            bounds,
            first,
            n: n as u32,
            right: 0,
        });
        if self.is_leaf(n, depth) {
            return;
        }
        let s = sah_split(&mut prims, self.bins, &cents);
        let (lp, rp) = prims.split_at(s.k);
        self.seq(lp, first, depth + 1, s.left, s.left_cents, run);
        run[me].right = run.len() as u32;
        self.seq(
            rp,
            first + s.k as u32,
            depth + 1,
            s.right,
            s.right_cents,
            run,
        );
    }
}

/// The binned-SAH tree over a mesh's triangles (`opts.split` must be
/// [`crate::SplitRule::Sah`]).
pub(crate) fn build_sah<T: Scalar, B: BoundingVolume<T>>(
    corners: CornerSource<'_, T>,
    opts: &BuildOptions,
) -> Result<Built<T, B>, FitError> {
    let crate::SplitRule::Sah { bins } = opts.split else {
        unreachable!("build_sah takes SAH options")
    };
    let builder = SahBuilder {
        bins: bins as usize,
        max_leaf_size: opts.max_leaf_size as usize,
        max_depth: opts.max_depth,
    };
    let CornerSource { vertices, indices } = corners;
    let n = indices.len();
    let v = |i: u32| &vertices[i as usize];
    let mut boxes: Vec<Lanes<T>> = indices
        .par_iter()
        .map(|&[a, b, c]| corner_lanes(v(a), v(b), v(c)))
        .collect();
    let mut ids: Vec<u32> = (0..n as u32).into_par_iter().collect();
    // Zeroed allocations: pages are only touched by the passes that use them.
    let mut alt_boxes: Vec<Lanes<T>> = vec![[T::ZERO; 8]; n];
    let mut alt_ids: Vec<u32> = vec![0; n];
    let mut codes: Vec<u32> = vec![0; n];
    let prims = SahPrims {
        boxes: &mut boxes,
        ids: &mut ids,
        alt_boxes: &mut alt_boxes,
        alt_ids: &mut alt_ids,
        codes: &mut codes,
        swapped: false,
    };
    let (bounds, cents) = prims.bounds();
    let runs = builder.task(prims, 0, 0, bounds, cents);
    drop((boxes, alt_boxes, alt_ids, codes));
    let tris: Vec<Triangle<T>> = ids
        .par_iter()
        .map(|&i| {
            let [a, b, c] = indices[i as usize];
            Triangle::new(*v(a), *v(b), *v(c))
        })
        .collect();
    let mut offsets = Vec::with_capacity(runs.len());
    let mut total = 0u32;
    for run in &runs {
        offsets.push(total);
        total += run.len() as u32;
    }
    let fit = opts.fit;
    // Node `g` is entry `g - offsets[r]` of the run `r` that holds it.
    let locate = |g: u32| {
        let run = offsets.partition_point(|&o| o <= g) - 1;
        (&runs[run][(g - offsets[run]) as usize], offsets[run])
    };
    if B::FITS_ALONG_AXES && fit != FitQuality::Tight {
        let topo: Vec<Topo> = (0..total)
            .into_par_iter()
            .map(|g| {
                let (r, offset) = locate(g);
                Topo {
                    first: r.first,
                    n: r.n,
                    right: if r.right == 0 { 0 } else { offset + r.right },
                }
            })
            .collect();
        drop(runs);
        let nodes = SummedFit {
            topo: &topo,
            tris: &tris,
            ids: &ids,
            vertices,
            indices,
            fit,
        }
        .run()?;
        return Ok(Built { nodes, tris, ids });
    }
    // One indexed parallel pass writes the final array.
    let nodes = (0..total)
        .into_par_iter()
        .map(|g| {
            let (r, offset) = locate(g);
            let from_bounds = match fit {
                FitQuality::Default => B::from_triangle_bounds(&lanes_to_aabb(&r.bounds)),
                FitQuality::Tight | FitQuality::TightAbove { .. } => None,
            };
            let bv = match from_bounds {
                Some(bv) => bv,
                None => fit.fit(&tris[r.first as usize..(r.first + r.n) as usize])?,
            };
            Ok(if r.right == 0 {
                Node {
                    bv,
                    child_or_first: r.first,
                    count: r.n,
                }
            } else {
                Node {
                    bv,
                    child_or_first: offset + r.right,
                    count: 0,
                }
            })
        })
        .collect::<Result<Vec<_>, FitError>>()?;
    Ok(Built { nodes, tris, ids })
}

// --- summed-moment fits ---------------------------------------------------------

/// A node's place in the finished tree: its leaf-order range and (internal
/// nodes) the right child's index, 0 for a leaf.
#[derive(Clone, Copy)]
struct Topo {
    first: u32,
    n: u32,
    right: u32,
}

/// Nodes smaller than this list their triangles' corners as they come
/// (no stamps); so does every node of a mesh that shares few vertices.
const CORNER_LIST_MIN: usize = 4;

/// The OBB and RSS fits of the SAH tree ([`BoundingVolume::FITS_ALONG_AXES`]),
/// bottom-up over the finished topology: each triangle's moments are
/// computed once ([`TriangleMoments`]), each internal node's are its
/// children's union ([`TriangleMoments::union`], Eberly §6.1.3), so a
/// node's axes cost a constant, and its extents come from its distinct
/// vertices when the mesh shares them, listed with one stamp per vertex
/// (the node's index, unique) as the median builder does: a stamp
/// overwritten by a node on another thread only lists a vertex twice,
/// which changes no extent, so the tree does not depend on the schedule.
/// Corner lists go to one scratch array of three entries per triangle,
/// each subtree using the part under its own triangles: no allocation per
/// node. Leaves of one triangle take [`BoundingVolume::fit_triangles_with_moments`]
/// (the triangle's own frame), as in the median builder.
struct SummedFit<'a, T: Scalar> {
    topo: &'a [Topo],
    tris: &'a [Triangle<T>],
    ids: &'a [u32],
    vertices: &'a [Point3<T>],
    indices: &'a [[u32; 3]],
    fit: FitQuality,
}

/// [`SummedFit`]'s shared state: the moments and the stamps.
struct SummedState<T: Scalar> {
    moms: Vec<TriangleMoments<T>>,
    stamps: Vec<AtomicU32>,
}

impl<T: Scalar> SummedFit<'_, T> {
    fn run<B: BoundingVolume<T>>(&self) -> Result<Vec<Node<B>>, FitError> {
        let n = self.tris.len();
        let moms: Vec<TriangleMoments<T>> =
            self.tris.par_iter().map(TriangleMoments::new).collect();
        // Listing distinct corners pays when triangles share vertices (a
        // welded closed mesh has about half as many vertices as triangles).
        let shared = self.vertices.len() < n + n / 2;
        let stamps: Vec<AtomicU32> = if shared {
            (0..self.vertices.len())
                .into_par_iter()
                .map(|_| AtomicU32::new(u32::MAX))
                .collect()
        } else {
            Vec::new()
        };
        let state = SummedState { moms, stamps };
        let mut scratch = vec![0u32; 3 * n];
        let mut bvs: Vec<Option<B>> = vec![None; self.topo.len()];
        self.subtree(&state, 0, &mut bvs, &mut scratch, &mut FitScratch::new())?;
        Ok(self
            .topo
            .par_iter()
            .zip(bvs.into_par_iter())
            .map(|(t, bv)| Node {
                bv: bv.expect("every node fitted"),
                child_or_first: if t.right == 0 { t.first } else { t.right },
                count: if t.right == 0 { t.n } else { 0 },
            })
            .collect())
    }

    /// Fits the subtree of node `g` (whose nodes are `bvs`, from `g` on;
    /// `scratch` has three entries per triangle of the subtree; `fits` is
    /// the fits' reusable memory on this thread) and returns its moments.
    fn subtree<B: BoundingVolume<T>>(
        &self,
        state: &SummedState<T>,
        g: usize,
        bvs: &mut [Option<B>],
        scratch: &mut [u32],
        fits: &mut FitScratch<T>,
    ) -> Result<TriangleMoments<T>, FitError> {
        let Topo { first, n, right } = self.topo[g];
        let range = first as usize..(first + n) as usize;
        let sum = if right == 0 {
            let m = &state.moms[range.clone()];
            m[1..].iter().fold(m[0], |s, x| s.union(x))
        } else {
            let right = right as usize;
            let k = self.topo[g + 1].n as usize;
            let (_, rest) = bvs.split_at_mut(1);
            let (lb, rb) = rest.split_at_mut(right - g - 1);
            let (ls, rs) = scratch.split_at_mut(3 * k);
            let (l, r) = if n as usize >= PARALLEL_THRESHOLD {
                rayon::join(
                    || self.subtree(state, g + 1, lb, ls, fits),
                    || self.subtree(state, right, rb, rs, &mut FitScratch::new()),
                )
            } else {
                (
                    self.subtree(state, g + 1, lb, ls, fits),
                    self.subtree(state, right, rb, rs, fits),
                )
            };
            l?.union(&r?)
        };
        bvs[0] = Some(self.node(state, g as u32, range, &sum, scratch, fits)?);
        Ok(sum)
    }

    /// The volume of node `g` over leaf-order `range`, moments `sum`.
    fn node<B: BoundingVolume<T>>(
        &self,
        state: &SummedState<T>,
        g: u32,
        range: core::ops::Range<usize>,
        sum: &TriangleMoments<T>,
        scratch: &mut [u32],
        fits: &mut FitScratch<T>,
    ) -> Result<B, FitError> {
        let tris = &self.tris[range.clone()];
        match self.fit {
            FitQuality::TightAbove { min_triangles } if tris.len() >= min_triangles as usize => {
                return B::fit_triangles_tight(tris);
            }
            FitQuality::Tight => return B::fit_triangles_tight(tris),
            _ => {}
        }
        if tris.len() == 1 {
            return B::fit_triangles_with_moments(tris, &state.moms[range]);
        }
        let ids = &self.ids[range];
        let mut m = 0;
        if tris.len() >= CORNER_LIST_MIN && !state.stamps.is_empty() {
            for &id in ids {
                for &v in &self.indices[id as usize] {
                    let stamp = &state.stamps[v as usize];
                    if stamp.load(Ordering::Relaxed) != g {
                        stamp.store(g, Ordering::Relaxed);
                        scratch[m] = v;
                        m += 1;
                    }
                }
            }
        } else {
            for &id in ids {
                scratch[m..m + 3].copy_from_slice(&self.indices[id as usize]);
                m += 3;
            }
        }
        let points = IndexedPoints::new(self.vertices, &scratch[..m])?;
        // Degenerate or non-finite input has no axes: the checked fit.
        match clash_bv::principal_axes_of_moment_union(tris, sum)
            .and_then(|axes| B::fit_along_axes_with(&axes, &points, fits))
        {
            Some(bv) => Ok(bv),
            None => B::fit_triangles(tris),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bin_index_clamps() {
        let top = 15.0;
        for (x, want) in [
            (f32::NAN, 0),
            (f32::NEG_INFINITY, 0),
            (-3.5, 0),
            (-0.0, 0),
            (0.0, 0),
            (0.999, 0),
            (1.0, 1),
            (7.9, 7),
            (15.0, 15),
            (15.99, 15),
            (16.0, 15),
            (3e9, 15),
            (f32::INFINITY, 15),
        ] {
            assert_eq!(bin_index(x, top), want, "{x}");
            assert_eq!(bin_index(f64::from(x), top), want, "{x}");
        }
        assert_eq!(bin_index(2.0f64, 255.0), 2);
        assert_eq!(bin_index(1e300f64, 255.0), 255);
        assert_eq!(bin_index(300.5f32, 255.0), 255);
        assert_eq!(bin_index(254.5f32, 255.0), 254);
    }

    fn triangle_lanes(t: &Triangle<f32>) -> Lanes<f32> {
        corner_lanes(&t.a, &t.b, &t.c)
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

    /// The in-place and the chunked stable partitions by recorded bin
    /// numbers agree on the parts (as sets), the stable one keeps order,
    /// both report exact key bounds, and the chunked bounds pass equals a
    /// sequential fold, on sizes around chunk boundaries and on any number
    /// of threads.
    #[test]
    fn sah_partitions_agree() {
        for n in [1, 5, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 17] {
            let boxes = sah_boxes(n);
            // Bin numbers of the key on each axis, 0..=9.
            let code = |b: &Lanes<f32>| {
                let c = keys(b);
                (0..3).fold(0u32, |acc, k| acc | ((c[k] as u32 % 10) << (8 * k)))
            };
            let codes: Vec<u32> = boxes.iter().map(code).collect();
            let (axis, last_left) = (1, 4);
            let left = |b: &Lanes<f32>| (code(b) >> 8) & 0xff <= last_left;
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let (mut b1, mut i1) = (boxes.clone(), (0..n as u32).collect::<Vec<_>>());
                let (mut b2, mut i2) = (boxes.clone(), i1.clone());
                let (mut a1, mut ai1) = (vec![[0.0; 8]; n], vec![0; n]);
                let (mut a2, mut ai2) = (vec![[0.0; 8]; n], vec![0; n]);
                let (mut c1, mut c2) = (codes.clone(), codes.clone());
                let mut p1 = SahPrims {
                    boxes: &mut b1,
                    ids: &mut i1,
                    alt_boxes: &mut a1,
                    alt_ids: &mut ai1,
                    codes: &mut c1,
                    swapped: false,
                };
                let mut p2 = SahPrims {
                    boxes: &mut b2,
                    ids: &mut i2,
                    alt_boxes: &mut a2,
                    alt_ids: &mut ai2,
                    codes: &mut c2,
                    swapped: false,
                };
                assert_eq!(
                    pool.install(|| p1.bounds()),
                    (union_of(&boxes), KeyBounds::of(&boxes))
                );
                let (k1, l1, r1) = p1.partition_codes(axis, last_left);
                let (k2, l2, r2) = pool.install(|| p2.partition_codes_stable(axis, last_left));
                assert!(p2.swapped);
                assert_eq!((k1, l1, r1), (k2, l2, r2));
                assert_eq!(
                    (l1, r1),
                    (
                        KeyBounds::of(&p1.boxes[..k1]),
                        KeyBounds::of(&p1.boxes[k1..])
                    )
                );
                let expect: Vec<u32> = (0..n as u32)
                    .filter(|&i| left(&boxes[i as usize]))
                    .chain((0..n as u32).filter(|&i| !left(&boxes[i as usize])))
                    .collect();
                assert_eq!(p2.ids, &expect[..]);
                for (b, &id) in p2.boxes.iter().zip(p2.ids.iter()) {
                    assert_eq!(*b, boxes[id as usize]);
                }
                for (b, &id) in p1.boxes.iter().zip(p1.ids.iter()) {
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

    /// The sweep's split is the cheapest of every split of every axis's
    /// sorted order (checked by brute force over all of them), whatever
    /// the input order.
    #[test]
    fn sweep_split_is_the_exact_sah_split() {
        for n in 2..=SWEEP_MAX {
            for rot in [0, 1, n / 2] {
                let mut boxes = sah_boxes(n);
                boxes.rotate_left(rot % n);
                let mut ids: Vec<u32> =
                    (0..n as u32).map(|i| (i + rot as u32) % n as u32).collect();
                let orig: Vec<(u32, Lanes<f32>)> =
                    ids.iter().copied().zip(boxes.iter().copied()).collect();
                let (mut ab, mut ai, mut c) = (vec![[0.0; 8]; n], vec![0; n], vec![0; n]);
                let mut p = SahPrims {
                    boxes: &mut boxes,
                    ids: &mut ids,
                    alt_boxes: &mut ab,
                    alt_ids: &mut ai,
                    codes: &mut c,
                    swapped: false,
                };
                let s = sweep_split(&mut p);
                let cost = |l: &[Lanes<f32>], r: &[Lanes<f32>]| {
                    half_area_lanes(&union_of(l)) * l.len() as f32
                        + half_area_lanes(&union_of(r)) * r.len() as f32
                };
                let got = cost(&p.boxes[..s.k], &p.boxes[s.k..]);
                let mut best = f32::INFINITY;
                for axis in 0..3 {
                    let mut sorted = orig.clone();
                    sorted.sort_by(|a, b| {
                        keys(&a.1)[axis]
                            .total_cmp(&keys(&b.1)[axis])
                            .then(a.0.cmp(&b.0))
                    });
                    let bs: Vec<Lanes<f32>> = sorted.iter().map(|x| x.1).collect();
                    for k in 1..n {
                        best = best.min(cost(&bs[..k], &bs[k..]));
                    }
                }
                assert_eq!(got, best, "n = {n}");
                assert!(0 < s.k && s.k < n);
                assert_eq!(s.left, union_of(&p.boxes[..s.k]));
                assert_eq!(s.right, union_of(&p.boxes[s.k..]));
                assert_eq!(s.left_cents, KeyBounds::of(&p.boxes[..s.k]));
                for (id, b) in p.ids.iter().zip(p.boxes.iter()) {
                    assert_eq!(orig.iter().find(|x| x.0 == *id).unwrap().1, *b);
                }
            }
        }
    }
}
