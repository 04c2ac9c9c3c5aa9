//! The median and mean splits of a node: where it is cut and which
//! elements go left.

use super::Builder;
use crate::build::SplitRule;
use crate::build::partition::{Elem, Prims};
use clash_bv::BoundingVolume;
use clash_math::{Scalar, Vector3};

impl Builder {
    /// Finds a median or mean split of `prims`: the size `k` of the left
    /// part (`0 < k < n`) and which elements go there ([`Cut`]). Keys are
    /// the centroids' offsets from the mesh's origin along the longest
    /// axis of the node's volume. A node of two elements is ordered in
    /// place here.
    pub(super) fn split<T: Scalar, B: BoundingVolume<T>>(
        &self,
        bv: &B,
        prims: &mut Prims<'_, T>,
    ) -> Cut {
        let n = prims.len();
        let axis = longest_axis(bv).map(T::to_f64);
        let axis = [axis.x, axis.y, axis.z];
        let key = |e: &Elem| key_along(&axis, e);
        if n == 2 {
            // The median and the mean split agree on two elements (the mean
            // of two keys lies between them; equal keys fall back to the
            // median): the lower record goes left.
            prims.order_pair(key);
            return Cut {
                k: 1,
                axis,
                left: Left::Ordered,
            };
        }
        if let SplitRule::Mean = self.opts.split {
            let mean = prims.elems.iter().fold(0.0, |s, e| s + key(e)) / n as f64;
            let k = prims.elems.iter().filter(|e| key(e) < mean).count();
            if 0 < k && k < n {
                return Cut {
                    k,
                    axis,
                    left: Left::BelowKey(mean),
                };
            }
        }
        let k = n / 2;
        prims.pivot_record(k, key);
        Cut {
            k,
            axis,
            left: Left::Ranked,
        }
    }
}

/// A node's split (see [`Builder::split`]): the left part's size and which
/// elements go there.
pub(super) struct Cut {
    pub(super) k: usize,
    /// The axis of the keys ([`key_along`]).
    pub(super) axis: [f64; 3],
    pub(super) left: Left,
}

/// Which elements go to the left part of a [`Cut`].
pub(super) enum Left {
    /// The `k` whose records ([`record`](crate::build::partition::record): key,
    /// then position in the node's slice) were ranked lowest, as `recs`
    /// holds them (median split, [`Prims::pivot_record`]).
    Ranked,
    /// Those whose key is below this mean (mean split).
    BelowKey(f64),
    /// The elements are in place already (a node of two).
    Ordered,
}

/// An element's split key: its centroid's offset from the mesh's origin
/// along `axis`.
#[inline(always)]
pub(super) fn key_along(axis: &[f64; 3], e: &Elem) -> f64 {
    let d = &e.m.offset;
    d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2]
}

/// The longest axis of a volume's bounding OBB (for an AABB: its longest side).
fn longest_axis<T: Scalar, B: BoundingVolume<T>>(bv: &B) -> Vector3<T> {
    let obb = bv.bounding_obb();
    let e = obb.half_extents;
    let i = if e.x >= e.y && e.x >= e.z {
        0
    } else if e.y >= e.z {
        1
    } else {
        2
    };
    obb.axes.column(i).into_owned()
}
