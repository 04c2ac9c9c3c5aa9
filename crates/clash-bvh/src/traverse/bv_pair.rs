//! [`BvPair`]: overlap tests between volumes of two trees, of the same type
//! or of different types (FCL and coal pair only trees of one type).

use clash_bv::{Aabb, BoundingVolume, Capsule, Kdop, Obb, RelativePose, Rss, Sphere};
use clash_math::Scalar;

/// Overlap of a volume of one tree with a volume of another tree whose frame
/// is placed by `pose` (the other frame in this one). Conservative: `false` only when the volumes
/// are certainly disjoint.
///
/// Volumes of the same type use that type's own test
/// ([`BoundingVolume::overlaps_relative`]); mixed pairs compare the two
/// volumes' bounding OBBs with the separating-axis test.
pub trait BvPair<T: Scalar, Other>: BoundingVolume<T> {
    /// `false` only when `self` and `other` (moved by `pose`) are disjoint.
    fn overlaps_pair(&self, other: &Other, pose: &RelativePose<T>) -> bool;

    /// Two tests at once: lane `k` is `a[k].overlaps_pair(b[k], pose)`.
    /// Descents test the two children of the node they open this way; OBB
    /// pairs evaluate both lanes side by side in SIMD
    /// ([`Obb::overlaps_relative_x2`]), other types one after the other.
    #[inline]
    fn overlaps_pair_x2(a: [&Self; 2], b: [&Other; 2], pose: &RelativePose<T>) -> [bool; 2] {
        [
            a[0].overlaps_pair(b[0], pose),
            a[1].overlaps_pair(b[1], pose),
        ]
    }

    /// The four cross tests of two volumes against two: `[i][j]` is
    /// `a[i].overlaps_pair(b[j], pose)`. Descents that open both nodes of a
    /// pair test their children this way; OBB pairs place `b`'s two boxes
    /// once for both rows ([`Obb::overlaps_relative_2x2`]), other types make
    /// two [`overlaps_pair_x2`](Self::overlaps_pair_x2) calls.
    #[inline]
    fn overlaps_pair_2x2(a: [&Self; 2], b: [&Other; 2], pose: &RelativePose<T>) -> [[bool; 2]; 2] {
        a.map(|ai| Self::overlaps_pair_x2([ai, ai], b, pose))
    }
}

impl<T: Scalar> BvPair<T, Obb<T>> for Obb<T> {
    #[inline]
    fn overlaps_pair(&self, other: &Obb<T>, pose: &RelativePose<T>) -> bool {
        self.overlaps_relative(other, pose)
    }
    #[inline]
    fn overlaps_pair_x2(a: [&Self; 2], b: [&Obb<T>; 2], pose: &RelativePose<T>) -> [bool; 2] {
        Obb::overlaps_relative_x2(a, b, pose)
    }
    #[inline]
    fn overlaps_pair_2x2(a: [&Self; 2], b: [&Obb<T>; 2], pose: &RelativePose<T>) -> [[bool; 2]; 2] {
        Obb::overlaps_relative_2x2(a, b, pose)
    }
}

macro_rules! same {
    ($($t:ty),*) => {$(
        impl<T: Scalar> BvPair<T, $t> for $t {
            #[inline]
            fn overlaps_pair(&self, other: &$t, pose: &RelativePose<T>) -> bool {
                self.overlaps_relative(other, pose)
            }
        }
    )*};
}

macro_rules! mixed {
    ($a:ty => $($b:ty),*) => {$(
        impl<T: Scalar> BvPair<T, $b> for $a {
            #[inline]
            fn overlaps_pair(&self, other: &$b, pose: &RelativePose<T>) -> bool {
                self.bounding_obb().overlaps_relative(&other.bounding_obb(), pose)
            }
        }
    )*};
}

same!(Aabb<T>, Sphere<T>, Capsule<T>, Rss<T>, Kdop<T, 7>, Kdop<T, 9>, Kdop<T, 13>);
mixed!(Aabb<T> => Sphere<T>, Obb<T>, Capsule<T>, Rss<T>, Kdop<T, 7>, Kdop<T, 9>, Kdop<T, 13>);
mixed!(Sphere<T> => Aabb<T>, Obb<T>, Capsule<T>, Rss<T>, Kdop<T, 7>, Kdop<T, 9>, Kdop<T, 13>);
mixed!(Obb<T> => Aabb<T>, Sphere<T>, Capsule<T>, Rss<T>, Kdop<T, 7>, Kdop<T, 9>, Kdop<T, 13>);
mixed!(Capsule<T> => Aabb<T>, Sphere<T>, Obb<T>, Rss<T>, Kdop<T, 7>, Kdop<T, 9>, Kdop<T, 13>);
mixed!(Rss<T> => Aabb<T>, Sphere<T>, Obb<T>, Capsule<T>, Kdop<T, 7>, Kdop<T, 9>, Kdop<T, 13>);
mixed!(Kdop<T, 7> => Aabb<T>, Sphere<T>, Obb<T>, Capsule<T>, Rss<T>, Kdop<T, 9>, Kdop<T, 13>);
mixed!(Kdop<T, 9> => Aabb<T>, Sphere<T>, Obb<T>, Capsule<T>, Rss<T>, Kdop<T, 7>, Kdop<T, 13>);
mixed!(Kdop<T, 13> => Aabb<T>, Sphere<T>, Obb<T>, Capsule<T>, Rss<T>, Kdop<T, 7>, Kdop<T, 9>);
