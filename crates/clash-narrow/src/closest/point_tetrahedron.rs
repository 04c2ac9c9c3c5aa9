use super::point_triangle;
use clash_math::{Point3, Scalar, Tetrahedron, Triangle};

/// The point of the (solid) tetrahedron `tet` closest to `p`: `p` itself when
/// it is inside, otherwise the closest of the closest points on the faces
/// whose plane separates `p` from the opposite corner. Ericson, RTCD §5.1.6.
///
/// Either orientation of the corners is accepted. A flat tetrahedron (all
/// corners coplanar) is the union of its four (possibly degenerate) faces.
pub fn point_tetrahedron<T: Scalar>(p: &Point3<T>, tet: &Tetrahedron<T>) -> Point3<T> {
    let [a, b, c, d] = tet.vertices();
    let faces = [(a, b, c, d), (a, c, d, b), (a, d, b, c), (b, d, c, a)];
    let flat = tet.signed_volume() == T::ZERO;
    let mut best = *p;
    let mut best_d2 = T::INFINITY;
    for (x, y, z, opposite) in faces {
        let n = (y - x).cross(&(z - x));
        let sp = n.dot(&(p - x));
        let so = n.dot(&(opposite - x));
        // p is outside this face when it lies strictly on the other side of
        // the face's plane than the opposite corner.
        if flat || sp * so < T::ZERO {
            let q = point_triangle(p, &Triangle::new(x, y, z)).point;
            let d2 = (q - p).norm_squared();
            if d2 < best_d2 {
                best_d2 = d2;
                best = q;
            }
        }
    }
    best
}
