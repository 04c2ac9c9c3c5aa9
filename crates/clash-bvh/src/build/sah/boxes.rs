//! Boxes in the SAH builder's lane layout ([`BoxLanes`]) and the bounds of
//! their split keys ([`KeyBounds`]).

use clash_bv::Aabb;
use clash_math::{Point3, Scalar};

/// A box in the SAH builder's lane layout:
/// `[-min.x, -min.y, -min.z, 0, max.x, max.y, max.z, 0]`. Negating the
/// minimum makes growing a box one lane-wise maximum over all eight lanes
/// (a few SIMD max instructions), and `max[k] + min[k]`, twice the box centre
/// (the split key), is `b[4 + k] - b[k]`. Empty boxes have `-inf` in the six
/// bound lanes.
pub(crate) type BoxLanes<T> = [T; 8];

/// The empty box (`-inf` bounds, zero padding).
#[inline(always)]
pub(crate) fn empty_lanes<T: Scalar>() -> BoxLanes<T> {
    let n = T::NEG_INFINITY;
    [n, n, n, T::ZERO, n, n, n, T::ZERO]
}

/// Grows `acc` to contain `b` (lane-wise maximum).
#[inline(always)]
pub(crate) fn grow_lanes<T: Scalar>(acc: &mut BoxLanes<T>, b: &BoxLanes<T>) {
    for i in 0..8 {
        acc[i] = acc[i].max_of(b[i]);
    }
}

/// The exact box of three points.
#[inline(always)]
pub(super) fn corner_lanes<T: Scalar>(a: &Point3<T>, b: &Point3<T>, c: &Point3<T>) -> BoxLanes<T> {
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
pub(super) fn keys<T: Scalar>(b: &BoxLanes<T>) -> [T; 4] {
    core::array::from_fn(|k| b[4 + k] - b[k])
}

/// Bounds of split keys, `[min; 4]` and `[max; 4]` (lane 3 unused).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct KeyBounds<T> {
    pub(super) lo: [T; 4],
    pub(super) hi: [T; 4],
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
    pub(crate) fn add(&mut self, b: &BoxLanes<T>) {
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
    pub(crate) fn of(boxes: &[BoxLanes<T>]) -> Self {
        let mut c = Self::empty();
        for b in boxes {
            c.add(b);
        }
        c
    }
}

/// The box `b` as an [`Aabb`].
pub(crate) fn lanes_to_aabb<T: Scalar>(b: &BoxLanes<T>) -> Aabb<T> {
    Aabb {
        min: Point3::new(-b[0], -b[1], -b[2]),
        max: Point3::new(b[4], b[5], b[6]),
    }
}

/// Half the surface area of box `b` (0 for the empty box).
#[inline(always)]
pub(crate) fn half_area_lanes<T: Scalar>(b: &BoxLanes<T>) -> T {
    let (dx, dy, dz) = (b[4] + b[0], b[5] + b[1], b[6] + b[2]);
    if dx < T::ZERO {
        T::ZERO
    } else {
        dx * dy + dy * dz + dz * dx
    }
}

/// The union of `boxes`.
#[inline]
pub(super) fn union_of<T: Scalar>(boxes: &[BoxLanes<T>]) -> BoxLanes<T> {
    let mut acc = empty_lanes();
    for b in boxes {
        grow_lanes(&mut acc, b);
    }
    acc
}
