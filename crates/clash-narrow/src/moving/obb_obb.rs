use super::sat::{
    Sweep, alternating_projection, box_edges, clip_segments_obb, contact_from_features,
    nalgebra_mid, support_feature,
};
use super::{Contact, pfinite, valid_horizon, vfinite};
use crate::closest::point_obb;
use clash_bv::Obb;
use clash_math::{Point3, Scalar, Vector3};

pub(crate) fn obb_corners<T: Scalar>(o: &Obb<T>) -> [Point3<T>; 8] {
    let mut out = [o.center; 8];
    for (k, p) in out.iter_mut().enumerate() {
        for i in 0..3 {
            let s = if k >> i & 1 == 1 {
                o.half_extents[i]
            } else {
                -o.half_extents[i]
            };
            *p += o.axes.column(i) * s;
        }
    }
    out
}

#[inline]
pub(crate) fn obb_interval<T: Scalar>(o: &Obb<T>, l: &Vector3<T>) -> (T, T) {
    let c = l.dot(&o.center.coords);
    let r = o.half_extents[0] * o.axes.column(0).dot(l).abs()
        + o.half_extents[1] * o.axes.column(1).dot(l).abs()
        + o.half_extents[2] * o.axes.column(2).dot(l).abs();
    (c - r, c + r)
}

pub(crate) fn obb_finite<T: Scalar>(o: &Obb<T>) -> bool {
    pfinite(&o.center) && vfinite(&o.half_extents) && o.axes.iter().all(|x| x.finite())
}

pub(crate) fn moved<T: Scalar>(o: &Obb<T>, v: &Vector3<T>, t: T) -> Obb<T> {
    Obb {
        center: o.center + v * t,
        ..*o
    }
}

pub(crate) fn obb_scale<T: Scalar>(o: &Obb<T>) -> T {
    o.center.coords.abs().max() + o.half_extents.abs().sum()
}

/// First contact of two OBBs moving with constant velocities `va`, `vb`
/// during `[0, t_end]`: Eberly §2.2.2 (test) and §2.3 (first time and point
/// of contact).
///
/// Axes: the 3 + 3 face normals and the 9 edge cross products
/// `A_i × B_j` (cross products of nearly parallel edges are skipped: a face
/// axis separates then), plus Eberly's 6 motion axes `W × A_i`, `W × B_j`
/// (`W = vb - va`), on which the projections do not move, so they reject
/// pairs whose silhouettes seen along `W` are disjoint. On every axis the
/// time interval in which the projections overlap is computed exactly, and
/// the intervals are intersected (as the per-axis "first time / last time"
/// bookkeeping of §2.3.1): the 15 static axes form a complete separating set
/// at every instant, so the boxes touch at `t` iff `t` lies in every
/// interval, and the first contact time is the largest entry time.
///
/// The contact point is the midpoint of the closest points of the two
/// support features (vertex, edge or face of each box) across the last
/// separating axis at the contact time, which is the point Eberly §2.3.2
/// reconstructs case by case. Overlap at `t = 0` reports time 0 and the
/// centroid of the edges of each box clipped against the other (a point of
/// the intersection). `axes` must be orthonormal.
pub fn obb_obb<T: Scalar>(
    a: &Obb<T>,
    va: &Vector3<T>,
    b: &Obb<T>,
    vb: &Vector3<T>,
    t_end: T,
) -> Option<Contact<T>> {
    if !obb_finite(a) || !obb_finite(b) || !vfinite(va) || !vfinite(vb) || !valid_horizon(t_end) {
        return None;
    }
    let w = vb - va;
    let mut sweep = Sweep::new(t_end);
    let proj = |l: &Vector3<T>| (obb_interval(a, l), obb_interval(b, l));
    let ww = w.norm_squared();
    for i in 0..3 {
        let ai: Vector3<T> = a.axes.column(i).into();
        let bi: Vector3<T> = b.axes.column(i).into();
        if !sweep.axis(ai, T::ONE, &w, proj) || !sweep.axis(bi, T::ONE, &w, proj) {
            return None;
        }
        if !sweep.axis(w.cross(&ai), ww, &w, proj) || !sweep.axis(w.cross(&bi), ww, &w, proj) {
            return None;
        }
    }
    for i in 0..3 {
        let ai: Vector3<T> = a.axes.column(i).into();
        for j in 0..3 {
            if !sweep.axis(ai.cross(&b.axes.column(j)), T::ONE, &w, proj) {
                return None;
            }
        }
    }
    let time = sweep.first;
    let a_t = moved(a, va, time);
    let b_t = moved(b, vb, time);
    let point = if sweep.normal == Vector3::zeros() {
        // Every corner of the intersection polytope is a corner of one box
        // inside the other or an edge of one crossing a face of the other, so
        // the edges of each box clipped against the other give points of the
        // intersection; their centroid is one too.
        let mut sum = Vector3::zeros();
        let n = clip_segments_obb(&box_edges(&obb_corners(&a_t)), &b_t, &mut sum)
            + clip_segments_obb(&box_edges(&obb_corners(&b_t)), &a_t, &mut sum);
        if n > 0 {
            Point3::from(sum / T::lit(n as f64))
        } else {
            // One box strictly inside the other's interior cannot happen
            // without a corner inside; this is a rounding fallback.
            alternating_projection(
                nalgebra_mid(&a_t.center, &b_t.center),
                |p| point_obb(p, &a_t),
                |p| point_obb(p, &b_t),
                64,
            )
        }
    } else {
        let n = sweep.normal;
        let scale = obb_scale(&a_t) + obb_scale(&b_t);
        let (fa, ka) = support_feature(&obb_corners(&a_t), &n, scale);
        let (fb, kb) = support_feature(&obb_corners(&b_t), &-n, scale);
        contact_from_features(&fa[..ka.min(4)], &fb[..kb.min(4)])
    };
    Some(Contact {
        time,
        point,
        normal: sweep.normal,
    })
}
