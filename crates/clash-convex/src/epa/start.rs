//! EPA's first polytope: GJK's final simplex, which holds the origin, blown
//! up to a solid when it is a triangle, a segment or a point (touching
//! shapes, flat differences).

use super::polytope::Polytope;
use crate::gjk::minkowski::{MinkowskiPair, SupportPoint};
use crate::gjk::simplex::Simplex;
use crate::shape::bounding::any_orthogonal;
use crate::support::SupportMap;
use clash_math::{Scalar, Vector3};

/// How the start went.
pub(super) enum Start<T: Scalar> {
    /// A solid polytope around the origin.
    Solid,
    /// The origin is on the boundary of `A - B` (within `eps`), with this
    /// outward normal: depth 0 (touching, or a flat difference).
    Boundary(Vector3<T>),
}

/// Fills `poly` from `simplex`; `eps` is the distance below which a support
/// point counts as lying in a plane or on a line.
pub(super) fn start<T, A, B>(
    pair: &mut MinkowskiPair<'_, T, A, B>,
    simplex: &Simplex<T>,
    eps: T,
    poly: &mut Polytope<T>,
) -> Start<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let mut pts: [SupportPoint<T>; 4] = [SupportPoint::default(); 4];
    for (i, p) in pts.iter_mut().enumerate().take(simplex.len) {
        *p = simplex.point(i);
    }
    let mut n = simplex.len;
    if n == 4 {
        let ok = tetrahedron(&pts[..4], poly);
        if ok {
            return Start::Solid;
        }
        // Rounding made the tetrahedron flat: start again from a triangle.
        poly.verts.clear();
        poly.faces.clear();
        n = 3;
    }
    if n == 1 {
        // The origin is (nearly) the one point: reach out along the axes.
        let a = pts[0].w;
        let mut found = false;
        for d in [Vector3::x(), Vector3::y(), Vector3::z()] {
            for d in [d, -d] {
                let p = pair.support(&d);
                if (p.w - a).norm() > eps {
                    pts[1] = p;
                    found = true;
                    break;
                }
            }
            if found {
                break;
            }
        }
        if !found {
            // `A - B` is a single point at the origin.
            return Start::Boundary(Vector3::x());
        }
        n = 2;
    }
    if n == 2 {
        let (a, b) = (pts[0].w, pts[1].w);
        let u = (b - a).normalize();
        let d1 = any_orthogonal(&u);
        let d2 = u.cross(&d1);
        let mut found = false;
        for d in [d1, -d1, d2, -d2] {
            let p = pair.support(&d);
            let off = (p.w - a).cross(&u).norm();
            if off > eps {
                pts[2] = p;
                found = true;
                break;
            }
        }
        if !found {
            // `A - B` is a segment through the origin.
            return Start::Boundary(d1);
        }
    }
    // A triangle through (or next to) the origin: the tetrahedron with the
    // support point on one side of its plane. The origin lies on (or next
    // to) its face (a, b, c); EPA expands through that face first when the
    // difference reaches past it on the other side.
    let (a, b, c) = (pts[0].w, pts[1].w, pts[2].w);
    let normal = (b - a).cross(&(c - a));
    let len = normal.norm();
    if !(len > T::ZERO) {
        return Start::Boundary(any_orthogonal(&(b - a).normalize()));
    }
    let normal = normal / len;
    let plane = normal.dot(&(a + b + c)) / T::lit(3.0);
    let mut up = pair.support(&normal);
    let mut side = normal;
    if normal.dot(&up.w) - plane <= eps {
        up = pair.support(&-normal);
        side = -normal;
        if plane - normal.dot(&up.w) <= eps {
            // Flat: `A - B` lies in the plane, which holds the origin.
            return Start::Boundary(normal);
        }
    }
    pts[3] = up;
    if tetrahedron(&pts[..4], poly) {
        Start::Solid
    } else {
        Start::Boundary(side)
    }
}

/// The tetrahedron of four points; `false` when it is flat.
fn tetrahedron<T: Scalar>(pts: &[SupportPoint<T>], poly: &mut Polytope<T>) -> bool {
    for p in pts {
        if poly.add_vertex(*p).is_none() {
            return false;
        }
    }
    let inside = (pts[0].w + pts[1].w + pts[2].w + pts[3].w) / T::lit(4.0);
    let tris = [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]];
    poly.build(&tris, &inside).is_some()
}
