use super::point_triangle;
use clash_math::{Point3, Scalar, Triangle};

/// A convex polyhedron given by its corners and its boundary triangulated:
/// `faces[i]` indexes three corners, wound counter-clockwise seen from
/// outside (so `(b - a) × (c - a)` points outwards). Convexity and closedness
/// are the caller's promise; they are not checked.
#[derive(Debug, Clone, Copy)]
pub struct ConvexPolyhedron<'a, T: Scalar> {
    /// Corner positions.
    pub vertices: &'a [Point3<T>],
    /// Boundary triangles as indices into `vertices`, outward winding.
    pub faces: &'a [[usize; 3]],
}

/// The point of the solid convex polyhedron `poly` closest to `p`: `p` itself
/// when it is behind (or on) every face plane, otherwise the closest point on
/// the boundary triangles in front of which `p` lies. Ericson, RTCD §5.1.7
/// (with the boundary triangulated and the per-face closest point of §5.1.5).
///
/// Returns `None` when `poly` has no faces or a face index is out of range.
pub fn point_convex_polyhedron<T: Scalar>(
    p: &Point3<T>,
    poly: &ConvexPolyhedron<'_, T>,
) -> Option<Point3<T>> {
    if poly.faces.is_empty() {
        return None;
    }
    let mut best = *p;
    let mut best_d2 = T::INFINITY;
    for f in poly.faces {
        let (a, b, c) = (
            *poly.vertices.get(f[0])?,
            *poly.vertices.get(f[1])?,
            *poly.vertices.get(f[2])?,
        );
        let n = (b - a).cross(&(c - a));
        if n.dot(&(p - a)) > T::ZERO {
            let q = point_triangle(p, &Triangle::new(a, b, c)).point;
            let d2 = (q - p).norm_squared();
            if d2 < best_d2 {
                best_d2 = d2;
                best = q;
            }
        }
    }
    Some(best)
}
