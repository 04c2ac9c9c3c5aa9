//! A coherent order for a batch of rays.
//!
//! Ray casts on a mesh whose tree is larger than the cache wait on node
//! fetches: each traversal reads a few dozen nodes and leaves scattered over
//! the tree. Two rays that enter the mesh's bounds at nearly the same point
//! and point nearly the same way visit nearly the same nodes, so tracing such
//! rays one after the other finds those nodes still in cache. A large batch
//! is therefore traced in the order of a key per ray: the point where the ray
//! enters the bounds of the mesh (three coordinates) and its direction (two,
//! by the octahedral map), each quantised to a few bits and bit-interleaved
//! into a Z-order code (Morton 1966), so that rays near each other in these
//! five coordinates get near keys.
//!
//! The key only chooses the order in which independent queries run, so it
//! changes no answer. It is computed the same way whatever the thread count,
//! and ties are broken by input index (a stable sort of rays in input
//! order), so the order is deterministic too.

use super::wide::Bounds;
use clash_math::{Ray, Scalar};
use rayon::prelude::*;

/// Batches smaller than this are traced in input order by
/// [`RayOrder::Auto`]: below it, the sort costs about what it saves.
pub(crate) const MIN_BATCH: usize = 4096;

/// Trees whose ray layout and triangles take fewer bytes than this (a
/// common last-level cache) are traced in input order by [`RayOrder::Auto`]:
/// most of such a tree stays in cache anyway, and the sort does not pay.
pub(crate) const MIN_TREE_BYTES: usize = 32 << 20;

/// The order in which [`crate::Bvh::cast_rays_with`] traces a batch. The
/// answers come back in input order and are the same whatever the order: it
/// only decides which nodes are in cache when.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RayOrder {
    /// [`Self::Coherent`] for a batch of a few thousand rays or more on a
    /// tree larger than a common last-level cache, [`Self::Input`]
    /// otherwise.
    #[default]
    Auto,
    /// As given.
    Input,
    /// Sorted by where each ray enters the bounds of the mesh and which way
    /// it points (ties by input index), so that consecutive rays visit
    /// mostly the same nodes.
    Coherent,
}

/// Bits of each of the five coordinates in a key.
const BITS: u32 = 6;

/// Bits of a key.
const KEY_BITS: u32 = 5 * BITS;

/// The key of rays that miss the bounds or have no usable direction: the
/// largest, so they come last (in input order).
const LAST: u32 = (1 << KEY_BITS) - 1;

/// Indices of `rays` in the order to trace them (see the module doc): by
/// key, ties by index. `rays.len()` must fit in `u32`.
pub(crate) fn coherent_order<T: Scalar>(rays: &[Ray<T>], bounds: &Bounds<T>) -> Vec<u32> {
    debug_assert!(u32::try_from(rays.len()).is_ok());
    let frame = Frame::new(bounds);
    // The key above the index, in input order: a stable sort on the key
    // leaves equal keys in index order.
    let mut keys: Vec<u64> = rays
        .par_iter()
        .enumerate()
        .map(|(i, ray)| (u64::from(frame.key(ray)) << 32) | i as u64)
        .collect();
    radix_sort_keys(&mut keys);
    keys.into_par_iter().map(|k| k as u32).collect()
}

/// Sorts `v` stably by bits `32..32 + KEY_BITS`: least significant digit
/// first (Knuth, TAOCP vol. 3 §5.2.5), three passes of ten bits.
fn radix_sort_keys(v: &mut Vec<u64>) {
    const DIGIT: u32 = 10;
    const _: () = assert!(3 * DIGIT >= KEY_BITS);
    let mut buf = vec![0u64; v.len()];
    for pass in 0..3 {
        let shift = 32 + pass * DIGIT;
        let digit = |x: u64| ((x >> shift) & ((1 << DIGIT) - 1)) as usize;
        let mut start = vec![0usize; 1 << DIGIT];
        for &x in v.iter() {
            start[digit(x)] += 1;
        }
        let mut sum = 0;
        for s in &mut start {
            let count = *s;
            *s = sum;
            sum += count;
        }
        for &x in v.iter() {
            let d = digit(x);
            buf[start[d]] = x;
            start[d] += 1;
        }
        core::mem::swap(v, &mut buf);
    }
}

/// The bounds of the mesh and the scale that maps them to key cells, in
/// `f64` (the key needs no more).
struct Frame {
    lo: [f64; 3],
    hi: [f64; 3],
    /// Cells per unit length along each axis (0 for a flat or empty axis).
    scale: [f64; 3],
}

impl Frame {
    fn new<T: Scalar>(b: &Bounds<T>) -> Self {
        let lo = b[0].map(|x| x.to_f64());
        let hi = b[1].map(|x| x.to_f64());
        let cells = f64::from(1u32 << BITS);
        let scale = core::array::from_fn(|k| {
            let w = hi[k] - lo[k];
            if w > 0.0 && w.is_finite() {
                cells / w
            } else {
                0.0
            }
        });
        Self { lo, hi, scale }
    }

    /// The ray's key; [`LAST`] for a ray that misses the bounds or has no
    /// finite, non-zero direction.
    fn key<T: Scalar>(&self, ray: &Ray<T>) -> u32 {
        let o = [0, 1, 2].map(|k| ray.origin[k].to_f64());
        let d = [0, 1, 2].map(|k| ray.dir[k].to_f64());
        // Slab test (RTCD §5.3.3) for the entry parameter, from 0 on. A NaN
        // slab (a zero direction component with the origin on that face)
        // leaves the interval as it is: `max` and `min` skip NaN.
        let (mut t0, mut t1) = (0.0_f64, f64::INFINITY);
        for k in 0..3 {
            let inv = 1.0 / d[k];
            let (a, b) = ((self.lo[k] - o[k]) * inv, (self.hi[k] - o[k]) * inv);
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
        }
        let l1 = d[0].abs() + d[1].abs() + d[2].abs();
        if !(t0 <= t1 && t0.is_finite() && l1 > 0.0 && l1.is_finite()) {
            return LAST;
        }
        let max = (1 << BITS) - 1;
        // `as` saturates, and takes NaN to 0.
        let cell = |k: usize| (((o[k] + t0 * d[k] - self.lo[k]) * self.scale[k]) as u32).min(max);
        let [u, v] = octahedral(d, l1);
        let dir_cell = |x: f64| ((x * f64::from(1u32 << BITS)) as u32).min(max);
        let c = [cell(0), cell(1), cell(2), dir_cell(u), dir_cell(v)].map(|c| SPREAD5[c as usize]);
        (c[0] << 4) | (c[1] << 3) | (c[2] << 2) | (c[3] << 1) | c[4]
    }
}

/// A direction with L1 norm `l1` as a point of the unit square, nearby
/// directions to nearby points: projected onto the octahedron
/// `|x| + |y| + |z| = 1`, whose lower half is folded out over the upper one.
fn octahedral(d: [f64; 3], l1: f64) -> [f64; 2] {
    let (x, y) = (d[0] / l1, d[1] / l1);
    let (x, y) = if d[2] < 0.0 {
        ((1.0 - y.abs()) * x.signum(), (1.0 - x.abs()) * y.signum())
    } else {
        (x, y)
    };
    [(x + 1.0) * 0.5, (y + 1.0) * 0.5]
}

/// `SPREAD5[c]`: the bits of `c` five apart (bit `b` to bit `5 b`), so that
/// five spread coordinates shifted by 4, 3, 2, 1, 0 interleave.
const SPREAD5: [u32; 1 << BITS] = {
    let mut t = [0u32; 1 << BITS];
    let mut c = 0;
    while c < t.len() {
        let mut b = 0;
        while b < BITS {
            t[c] |= ((c as u32 >> b) & 1) << (5 * b);
            b += 1;
        }
        c += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use clash_math::{Point3, Vector3};

    #[test]
    fn spread_interleaves_bits() {
        assert_eq!(SPREAD5[0b101], (1 << 10) | 1);
        let all: u32 = (0..6).map(|b| 1 << (5 * b)).sum();
        assert_eq!(SPREAD5[0b11_1111], all);
    }

    #[test]
    fn radix_sort_is_stable_and_sorts_by_key() {
        let mut v: Vec<u64> = (0..5000u64).map(|i| ((i * 7919 % 13) << 32) | i).collect();
        let mut expected = v.clone();
        expected.sort_by_key(|x| (x >> 32, x & 0xffff_ffff));
        radix_sort_keys(&mut v);
        assert_eq!(v, expected);
    }

    #[test]
    fn order_is_a_permutation_with_misses_last() {
        let bounds = [[0.0_f64; 3], [1.0; 3]];
        let rays: Vec<Ray<f64>> = (0..100)
            .map(|i| {
                let f = f64::from(i);
                match i % 4 {
                    // Misses the box, NaN and zero directions.
                    0 => Ray::new(Point3::new(5.0, 5.0, 5.0), Vector3::new(1.0, 0.0, 0.0)),
                    1 => Ray::new(
                        Point3::new(0.5, 0.5, -1.0),
                        Vector3::new(f64::NAN, 0.0, 1.0),
                    ),
                    2 => Ray::new(Point3::new(0.5, 0.5, 0.5), Vector3::zeros()),
                    _ => Ray::new(
                        Point3::new(f / 100.0, 0.5, -1.0),
                        Vector3::new(0.0, 0.0, 1.0),
                    ),
                }
            })
            .collect();
        let order = coherent_order(&rays, &bounds);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<u32>>());
        // The 25 hitting rays first, the rest in input order.
        assert!(order[..25].iter().all(|i| i % 4 == 3));
        assert!(order[25..].windows(2).all(|w| w[0] < w[1]));
    }
}
