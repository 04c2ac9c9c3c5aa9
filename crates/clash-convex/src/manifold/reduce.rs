//! Reducing a clipped polygon to at most four contact points: the deepest,
//! the one farthest from it, and the two that make the largest triangles
//! with them on either side (the usual choice of physics engines: the
//! points that best span the contact area).

use super::ContactPoint;
use arrayvec::ArrayVec;
use clash_math::Scalar;

/// At most four of `points`, spanning them as widely as possible.
pub(super) fn four<T: Scalar>(points: &[ContactPoint<T>]) -> ArrayVec<ContactPoint<T>, 4> {
    let mut out = ArrayVec::new();
    if points.len() <= 4 {
        out.extend(points.iter().copied());
        return out;
    }
    let at = |i: usize| points[i].point_b;
    let deepest = (0..points.len())
        .min_by(|&i, &j| {
            points[i]
                .distance
                .partial_cmp(&points[j].distance)
                .unwrap_or(core::cmp::Ordering::Equal)
        })
        .unwrap_or(0);
    let far = (0..points.len())
        .max_by(|&i, &j| {
            let di = (at(i) - at(deepest)).norm_squared();
            let dj = (at(j) - at(deepest)).norm_squared();
            di.partial_cmp(&dj).unwrap_or(core::cmp::Ordering::Equal)
        })
        .unwrap_or(0);
    let axis = at(far) - at(deepest);
    // Signed areas of the triangles with the first two, about their line.
    let mut normal = None;
    for i in 0..points.len() {
        let n = axis.cross(&(at(i) - at(deepest)));
        if n.norm_squared() > T::ZERO {
            normal = Some(n);
            break;
        }
    }
    out.push(points[deepest]);
    if far != deepest {
        out.push(points[far]);
    }
    if let Some(n) = normal {
        let area = |i: usize| n.dot(&axis.cross(&(at(i) - at(deepest))));
        let (mut lo, mut hi) = (None, None);
        for i in 0..points.len() {
            let s = area(i);
            if lo.is_none_or(|(_, v)| s < v) {
                lo = Some((i, s));
            }
            if hi.is_none_or(|(_, v)| s > v) {
                hi = Some((i, s));
            }
        }
        for (i, s) in [hi, lo].into_iter().flatten() {
            if s != T::ZERO && i != deepest && i != far {
                out.push(points[i]);
            }
        }
    }
    out
}
