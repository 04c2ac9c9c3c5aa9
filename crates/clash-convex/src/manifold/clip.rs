//! Polygon clipping (Sutherland–Hodgman, RTCD §8.3.4): an incident face
//! clipped to the side planes of a reference face.

use arrayvec::ArrayVec;
use clash_math::{Point3, Scalar, Vector3};

/// The most points a clipped polygon keeps (an incident polygon of up to
/// `MAX_POLYGON` corners, clipped by any number of planes, gains at most one
/// corner per plane; beyond this the extra corners are dropped).
pub(crate) const MAX_POLYGON: usize = 64;

/// A polygon in a fixed buffer.
pub(crate) type Polygon<T> = ArrayVec<Point3<T>, MAX_POLYGON>;

/// Keeps the part of `poly` with `n·p <= d` (the plane `n·p = d`).
pub(crate) fn clip_plane<T: Scalar>(poly: &Polygon<T>, n: &Vector3<T>, d: T) -> Polygon<T> {
    let mut out = Polygon::new();
    let len = poly.len();
    for k in 0..len {
        let p = poly[k];
        let q = poly[(k + 1) % len];
        let dp = n.dot(&p.coords) - d;
        let dq = n.dot(&q.coords) - d;
        if dp <= T::ZERO {
            let _ = out.try_push(p);
        }
        if (dp < T::ZERO && dq > T::ZERO) || (dp > T::ZERO && dq < T::ZERO) {
            let t = dp / (dp - dq);
            let _ = out.try_push(p + (q - p) * t);
        }
    }
    out
}

/// The polygon `corners` (in a box's frame) clipped to the slab of face
/// axis `i` of the box with half-extents `e`: `|x_k| <= e_k` for `k != i`.
pub(crate) fn clip_to_box_face<T: Scalar>(
    corners: &[Point3<T>],
    e: &Vector3<T>,
    i: usize,
) -> Polygon<T> {
    let mut poly: Polygon<T> = corners.iter().copied().take(MAX_POLYGON).collect();
    for k in 0..3 {
        if k == i {
            continue;
        }
        let mut n = Vector3::zeros();
        n[k] = T::ONE;
        poly = clip_plane(&poly, &n, e[k]);
        poly = clip_plane(&poly, &-n, e[k]);
        if poly.is_empty() {
            break;
        }
    }
    poly
}
