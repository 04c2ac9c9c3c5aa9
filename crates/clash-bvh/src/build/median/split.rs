//! The median and mean splits of a node: where it is cut and which
//! elements go left.

use super::Builder;
use crate::build::SplitRule;
use crate::build::partition::{Elem, Prims};
use clash_bv::{BoundingVolume, FitVolume};
use clash_math::{Scalar, Vector3};

impl Builder {
    /// Finds a median or mean split of `prims`: the size `k` of the left
    /// part (`0 < k < n`) and which elements go there ([`Cut`]). Keys are
    /// the centroids' offsets from the mesh's origin along the longest
    /// axis of the node's volume (or, for volumes whose bounding box says
    /// nothing of their contents' shape, along the longest side of the
    /// centroids' box: [`FitVolume::SPLIT_ALONG_BOUNDING_OBB`]). A node of two elements is ordered in
    /// place here.
    pub(super) fn split<T: Scalar, B: FitVolume<T>>(
        &self,
        bv: &B,
        prims: &mut Prims<'_, T>,
    ) -> Cut {
        let n = prims.len();
        let axis = if B::SPLIT_ALONG_BOUNDING_OBB {
            let a = longest_axis(bv).map(T::to_f64);
            [a.x, a.y, a.z]
        } else {
            widest_centroid_axis(prims.elems)
        };
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

/// The world axis along which the elements' centroids spread widest (the
/// first of equal ones): the longest side of their box, whose minima and
/// maxima are exact, so the choice does not depend on the thread count.
fn widest_centroid_axis(elems: &[Elem]) -> [f64; 3] {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for e in elems {
        for i in 0..3 {
            lo[i] = lo[i].min(e.m.offset[i]);
            hi[i] = hi[i].max(e.m.offset[i]);
        }
    }
    let w = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
    let i = if w[0] >= w[1] && w[0] >= w[2] {
        0
    } else if w[1] >= w[2] {
        1
    } else {
        2
    };
    let mut axis = [0.0; 3];
    axis[i] = 1.0;
    axis
}
