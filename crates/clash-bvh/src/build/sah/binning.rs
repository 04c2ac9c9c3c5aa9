//! Binning a node's boxes by key on all three axes, and the cheapest
//! plane of a binning (Wald 2007).

use super::boxes::{BoxLanes, KeyBounds, empty_lanes, grow_lanes, keys, union_of};
use super::prims::SahPrims;
use super::{CHUNK, PARALLEL_SPLIT};
use clash_math::Scalar;
use rayon::prelude::*;

/// The binning of a node: per axis and bin, the bounds of the boxes whose
/// key falls in it and their count.
#[derive(Clone, Copy)]
struct Bins<T: Scalar, const N: usize> {
    boxes: [[BoxLanes<T>; N]; 3],
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
pub(super) fn bin_index<T: Scalar>(x: T, top: f32) -> u32 {
    let f = x.to_f32();
    let f = if f > 0.0 { f } else { 0.0 };
    let f = if f < top { f } else { top };
    // `f` lies in `[0, top]` (NaN fails `f > 0` and became 0): the
    // truncation is exact and in range.
    f as u32
}

/// Where a node's keys go: bin origin and scale per axis (lane 3 of both
/// is 0, so the padding lane bins to 0 with the others).
pub(super) struct Grid<T: Scalar> {
    origin: [T; 4],
    scale: [T; 4],
    live: [bool; 3],
    bins: usize,
    /// The last bin, `bins - 1`.
    top: f32,
}

impl<T: Scalar> Grid<T> {
    /// The grid over key bounds `cents`.
    pub(super) fn new(cents: &KeyBounds<T>, bins: usize) -> Self {
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
    fn fill<const N: usize>(&self, boxes: &[BoxLanes<T>], codes: &mut [u32], out: &mut Bins<T, N>) {
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
    fn bin_one<const N: usize>(&self, b: &BoxLanes<T>, code: &mut u32, out: &mut Bins<T, N>) {
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

/// Binned SAH over `grid.bins <= N` bins per axis: bins the boxes
/// (recording their bin numbers in `prims.codes`) and returns the plane
/// (axis, last bin on the left) with the lowest cost, left area times left
/// count plus right area times right count, with both parts' bounds;
/// `None` when no axis is live. `N` only sizes the stack arrays, so that
/// small bin counts do not initialise 256 bins per node.
#[inline(never)]
pub(super) fn best_plane<T: Scalar, const N: usize>(
    prims: &mut SahPrims<'_, T>,
    grid: &Grid<T>,
) -> Option<(usize, usize, BoxLanes<T>, BoxLanes<T>)> {
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
