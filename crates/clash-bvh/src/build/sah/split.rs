//! A node's SAH split: the exact sweep for small nodes, binning for the
//! others (RTCD §6.2.2).

use super::binning::{Grid, best_plane};
use super::boxes::{BoxLanes, KeyBounds, empty_lanes, grow_lanes, half_area_lanes, union_of};
use super::prims::SahPrims;
use super::{PARALLEL_SPLIT, SWEEP_MAX};
use clash_math::Scalar;

/// A node's split: the left part's size and both parts' exact corner
/// bounds and key bounds.
pub(crate) struct Split<T: Scalar> {
    pub k: usize,
    pub left: BoxLanes<T>,
    pub right: BoxLanes<T>,
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

/// The exact SAH split of a small node (`2 <= n <= SWEEP_MAX`): on each
/// axis the boxes sorted by key (ties by triangle id, so the order does not
/// depend on the input order), then every split of that order is costed
/// from prefix and suffix boxes (RTCD §6.2.2), left area times left count
/// plus right area times right count; the cheapest split (first axis,
/// then first position, on ties) is applied. Every split is a valid one,
/// even where all keys coincide.
pub(super) fn sweep_split<T: Scalar>(prims: &mut SahPrims<'_, T>) -> Split<T> {
    let n = prims.len();
    debug_assert!((2..=SWEEP_MAX).contains(&n));
    let (boxes, ids) = (&mut *prims.boxes, &mut *prims.ids);
    if n == 2 {
        // Both splits of every axis cost the same (the two areas' sum, in
        // either order): the first axis's order decides.
        let key = |b: &BoxLanes<T>| b[4] - b[0];
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
