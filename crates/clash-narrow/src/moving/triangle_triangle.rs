use super::interval_halving::conservative_advancement;
use super::sat::{Sweep, contact_from_features, nalgebra_mid, support_feature, tri_interval};
use super::{Contact, valid_horizon, vfinite};
use crate::closest;
use clash_math::{Scalar, Triangle, Vector3};

fn moved<T: Scalar>(t: &Triangle<T>, v: &Vector3<T>, time: T) -> Triangle<T> {
    let d = v * time;
    Triangle::new(t.a + d, t.b + d, t.c + d)
}

/// First contact of two triangles moving with constant velocities `va`, `vb`
/// during `[0, t_end]`: Eberly §4.2.2 (test) and §4.3 (first time and point
/// of contact); the normal points from the first triangle to the second.
///
/// Axes: the normals `N`, `M`, the 9 edge products `E_i × F_j`, the 12
/// in-plane axes `N × E_i`, `N × F_j`, `M × E_i`, `M × F_j` (Eberly's 6
/// coplanar axes, taken for both normals so that a triangle collapsed to a
/// segment lying in the other's plane is covered too) and the 6 motion axes
/// `W × E_i`, `W × F_j`. Each axis gives the exact time interval of
/// overlapping projections; the intervals are intersected, and since the
/// static axes are complete at every instant, the largest entry time is the
/// first contact. The contact point is the midpoint of the closest points
/// (RTCD §5.1.11) of the triangles at that time; overlap at `t = 0` reports
/// time 0 and a common point.
///
/// When both triangles are degenerate (segments or points), no fixed axis
/// set is complete, so the first time is found by conservative advancement
/// ([`conservative_advancement`]) on the exact distance with the relative
/// speed as closing-speed bound, to a distance tolerance of
/// `sqrt(ε)` times the coordinate scale.
pub fn triangle_triangle<T: Scalar>(
    a: &Triangle<T>,
    va: &Vector3<T>,
    b: &Triangle<T>,
    vb: &Vector3<T>,
    t_end: T,
) -> Option<Contact<T>> {
    if !a.is_finite() || !b.is_finite() || !vfinite(va) || !vfinite(vb) || !valid_horizon(t_end) {
        return None;
    }
    let w = vb - va;
    let ea = [a.b - a.a, a.c - a.b, a.a - a.c];
    let eb = [b.b - b.a, b.c - b.b, b.a - b.c];
    let la = ea.map(|e| e.norm_squared());
    let lb = eb.map(|e| e.norm_squared());
    let n = ea[0].cross(&ea[1]);
    let m = eb[0].cross(&eb[1]);
    let (nn, mm) = (la[0] * la[1], lb[0] * lb[1]);
    let degenerate = |x: &Vector3<T>, s: T| !(x.norm_squared() > T::lit(64.0) * T::EPSILON * s);
    if degenerate(&n, nn) && degenerate(&m, mm) {
        return degenerate_pair(a, va, b, vb, t_end);
    }
    let ww = w.norm_squared();
    let proj = |l: &Vector3<T>| (tri_interval(a, l), tri_interval(b, l));
    let mut sweep = Sweep::new(t_end);
    if !sweep.axis(n, nn, &w, proj) || !sweep.axis(m, mm, &w, proj) {
        return None;
    }
    for i in 0..3 {
        for j in 0..3 {
            if !sweep.axis(ea[i].cross(&eb[j]), la[i] * lb[j], &w, proj) {
                return None;
            }
        }
    }
    for (e, l2) in ea.iter().zip(la).chain(eb.iter().zip(lb)) {
        if !sweep.axis(n.cross(e), nn * l2, &w, proj)
            || !sweep.axis(m.cross(e), mm * l2, &w, proj)
            || !sweep.axis(w.cross(e), ww * l2, &w, proj)
        {
            return None;
        }
    }
    let time = sweep.first;
    let (at, bt) = (moved(a, va, time), moved(b, vb, time));
    let point = if sweep.normal == Vector3::zeros() {
        let c = closest::triangle_triangle(&at, &bt);
        nalgebra_mid(&c.a, &c.b)
    } else {
        let nrm = sweep.normal;
        let scale = at
            .vertices()
            .iter()
            .chain(bt.vertices().iter())
            .map(|p| p.coords.abs().max())
            .fold(T::ZERO, |x, y| x.max_of(y));
        let (fa, ka) = support_feature(&at.vertices(), &nrm, scale);
        let (fb, kb) = support_feature(&bt.vertices(), &-nrm, scale);
        contact_from_features(&fa[..ka], &fb[..kb])
    };
    Some(Contact {
        time,
        point,
        normal: sweep.normal,
    })
}

fn degenerate_pair<T: Scalar>(
    a: &Triangle<T>,
    va: &Vector3<T>,
    b: &Triangle<T>,
    vb: &Vector3<T>,
    t_end: T,
) -> Option<Contact<T>> {
    let speed = (vb - va).norm();
    let scale = a
        .vertices()
        .iter()
        .chain(b.vertices().iter())
        .map(|p| p.coords.abs().max())
        .fold(T::ONE, |x, y| x.max_of(y));
    let tol = T::EPSILON.sqrt() * scale;
    let dist = |t: T| closest::triangle_triangle(&moved(a, va, t), &moved(b, vb, t)).distance();
    let time = conservative_advancement(T::ZERO, t_end, dist, speed, tol, 256)?;
    let c = closest::triangle_triangle(&moved(a, va, time), &moved(b, vb, time));
    let normal = if time == T::ZERO {
        Vector3::zeros()
    } else {
        (c.b - c.a)
            .try_normalize(T::ZERO)
            .unwrap_or_else(Vector3::zeros)
    };
    Some(Contact {
        time,
        point: nalgebra_mid(&c.a, &c.b),
        normal,
    })
}
