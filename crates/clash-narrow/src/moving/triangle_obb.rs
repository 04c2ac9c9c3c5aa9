use super::obb_obb::{moved, obb_corners, obb_finite, obb_interval, obb_scale};
use super::sat::{
    Sweep, alternating_projection, box_edges, clip_segments_obb, contact_from_features,
    project_triangle, support_feature, tri_interval,
};
use super::{Contact, valid_horizon, vfinite};
use crate::closest::point_obb;
use clash_bv::Obb;
use clash_math::{Scalar, Triangle, Vector3};

/// First contact of a triangle (velocity `vt`) and an OBB (velocity `vb`)
/// during `[0, t_end]`: Eberly §3.2.2 (test) and §3.3 (first time and point
/// of contact); the normal points from the triangle to the box.
///
/// Axes: the triangle normal `N`, the box axes `A_k`, the 9 products
/// `A_k × E_j` with the triangle edges, and the motion axes `W × E_j`,
/// `W × A_k` (`W` the relative velocity). Each axis yields the exact time
/// interval of overlapping projections and the intervals are intersected;
/// the 13 static axes are complete at every instant (also for a triangle
/// collapsed to a segment or point, against a solid box), so the first time
/// is exact up to rounding. The contact point is the midpoint of the closest
/// points of the support features (Eberly §3.3.2); overlap at `t = 0`
/// reports time 0 and the centroid of the triangle edges clipped by the box
/// and the box edges meeting the triangle.
pub fn triangle_obb<T: Scalar>(
    tri: &Triangle<T>,
    vt: &Vector3<T>,
    obb: &Obb<T>,
    vb: &Vector3<T>,
    t_end: T,
) -> Option<Contact<T>> {
    if !tri.is_finite() || !obb_finite(obb) || !vfinite(vt) || !vfinite(vb) || !valid_horizon(t_end)
    {
        return None;
    }
    let w = vb - vt;
    let ww = w.norm_squared();
    let edges = [tri.b - tri.a, tri.c - tri.b, tri.a - tri.c];
    let mut sweep = Sweep::new(t_end);
    let proj = |l: &Vector3<T>| (tri_interval(tri, l), obb_interval(obb, l));
    let n = edges[0].cross(&edges[1]);
    let e2 = edges.map(|e| e.norm_squared());
    if !sweep.axis(n, e2[0] * e2[1], &w, proj) {
        return None;
    }
    for k in 0..3 {
        let ak: Vector3<T> = obb.axes.column(k).into();
        if !sweep.axis(ak, T::ONE, &w, proj) || !sweep.axis(w.cross(&ak), ww, &w, proj) {
            return None;
        }
    }
    for (e, l2) in edges.iter().zip(e2) {
        if !sweep.axis(w.cross(e), ww * l2, &w, proj) {
            return None;
        }
        for k in 0..3 {
            if !sweep.axis(obb.axes.column(k).cross(e), l2, &w, proj) {
                return None;
            }
        }
    }
    let time = sweep.first;
    let d = vt * time;
    let tri_t = Triangle::new(tri.a + d, tri.b + d, tri.c + d);
    let obb_t = moved(obb, vb, time);
    let point = if sweep.normal == Vector3::zeros() {
        // Corners of the intersection: triangle edges clipped by the box, and
        // box edges crossing the triangle; their centroid is in both.
        let mut sum = Vector3::zeros();
        let tri_edges = tri_t.edges().map(|e| (e.a, e.b));
        let mut n = clip_segments_obb(&tri_edges, &obb_t, &mut sum);
        for (p, q) in box_edges(&obb_corners(&obb_t)) {
            let c = crate::closest::segment_triangle(&clash_math::Segment::new(p, q), &tri_t);
            if c.distance_squared == T::ZERO {
                sum += c.a.coords;
                n += 1;
            }
        }
        if n > 0 {
            clash_math::Point3::from(sum / T::lit(n as f64))
        } else {
            alternating_projection(
                tri_t.centroid(),
                |p| project_triangle(&tri_t, p),
                |p| point_obb(p, &obb_t),
                64,
            )
        }
    } else {
        let n = sweep.normal;
        let scale = obb_scale(&obb_t)
            + tri_t
                .vertices()
                .iter()
                .map(|p| p.coords.abs().max())
                .fold(T::ZERO, |x, y| x.max_of(y));
        let (fa, ka) = support_feature(&tri_t.vertices(), &n, scale);
        let (fb, kb) = support_feature(&obb_corners(&obb_t), &-n, scale);
        contact_from_features(&fa[..ka], &fb[..kb.min(4)])
    };
    Some(Contact {
        time,
        point,
        normal: sweep.normal,
    })
}
