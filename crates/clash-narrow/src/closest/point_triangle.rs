use super::point_segment;
use clash_math::{Point3, Scalar, Segment, Triangle};

/// A point of a triangle with its barycentric coordinates:
/// `point = u a + v b + w c`, `u + v + w = 1`, all in `[0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrianglePoint<T: Scalar> {
    /// The point.
    pub point: Point3<T>,
    /// Weight of corner `a`.
    pub u: T,
    /// Weight of corner `b`.
    pub v: T,
    /// Weight of corner `c`.
    pub w: T,
}

/// The point of the (closed, solid) triangle `tri` closest to `p`, found by
/// locating the Voronoi region of `p` (three vertex, three edge and the face
/// region) with the barycentric sign tests of Ericson, RTCD §5.1.5.
///
/// Degenerate and needle-like triangles (squared area below a relative
/// threshold of `EPSILON` times the squared longest edge squared) are treated
/// as the union of their three edges, so a triangle collapsed to a segment or
/// a point gives the point of that segment or point.
pub fn point_triangle<T: Scalar>(p: &Point3<T>, tri: &Triangle<T>) -> TrianglePoint<T> {
    let (a, b, c) = (tri.a, tri.b, tri.c);
    let ab = b - a;
    let ac = c - a;
    let n2 = ab.cross(&ac).norm_squared();
    let l2 = ab
        .norm_squared()
        .max_of(ac.norm_squared())
        .max_of((c - b).norm_squared());
    if !(n2 > T::EPSILON * l2 * l2) {
        return degenerate(p, tri);
    }
    let ap = p - a;
    let d1 = ab.dot(&ap);
    let d2 = ac.dot(&ap);
    if d1 <= T::ZERO && d2 <= T::ZERO {
        return corner(a, T::ONE, T::ZERO, T::ZERO);
    }
    let bp = p - b;
    let d3 = ab.dot(&bp);
    let d4 = ac.dot(&bp);
    if d3 >= T::ZERO && d4 <= d3 {
        return corner(b, T::ZERO, T::ONE, T::ZERO);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= T::ZERO && d1 >= T::ZERO && d3 <= T::ZERO {
        let v = d1 / (d1 - d3);
        return corner(a + ab * v, T::ONE - v, v, T::ZERO);
    }
    let cp = p - c;
    let d5 = ab.dot(&cp);
    let d6 = ac.dot(&cp);
    if d6 >= T::ZERO && d5 <= d6 {
        return corner(c, T::ZERO, T::ZERO, T::ONE);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= T::ZERO && d2 >= T::ZERO && d6 <= T::ZERO {
        let w = d2 / (d2 - d6);
        return corner(a + ac * w, T::ONE - w, T::ZERO, w);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= T::ZERO && (d4 - d3) >= T::ZERO && (d5 - d6) >= T::ZERO {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return corner(b + (c - b) * w, T::ZERO, T::ONE - w, w);
    }
    // Face region. `va + vb + vc` is `n2` in exact arithmetic; `n2` itself
    // is positive here, while the computed sum can cancel to any sign far
    // from the plane.
    let v = (vb / n2).max_of(T::ZERO).min_of(T::ONE);
    let w = (vc / n2).max_of(T::ZERO).min_of(T::ONE - v);
    let n = ab.cross(&ac);
    let h = n.dot(&ap);
    // The projection's rounding is that of `p` and of its offset from the
    // plane; within eight times the triangle's size or coordinate
    // magnitude of the plane, that is a few ulps of the triangle's own
    // coordinates, so the projected point lies on the triangle to rounding.
    // (Compared unsquared: `h` is a length times an area, whose square
    // overflows `f32` for large triangles.)
    let m = a
        .coords
        .amax()
        .max_of(b.coords.amax())
        .max_of(c.coords.amax());
    let reach = l2.sqrt().max_of(m) * T::lit(8.0);
    let q = if h.abs() <= n2.sqrt() * reach {
        // Near the plane: the orthogonal projection, exact to rounding
        // however thin the triangle.
        p - n * (h / n2)
    } else {
        // Farther: the convex combination of the weights, which lies on the
        // triangle whatever the distance, while a projection would be off
        // it by rounding that grows with the distance.
        a + ab * v + ac * w
    };
    corner(q, T::ONE - v - w, v, w)
}

#[inline(always)]
fn corner<T: Scalar>(point: Point3<T>, u: T, v: T, w: T) -> TrianglePoint<T> {
    TrianglePoint { point, u, v, w }
}

/// Closest point on the union of the three edges.
fn degenerate<T: Scalar>(p: &Point3<T>, tri: &Triangle<T>) -> TrianglePoint<T> {
    let (s0, q0) = point_segment(p, &Segment::new(tri.a, tri.b));
    let (s1, q1) = point_segment(p, &Segment::new(tri.b, tri.c));
    let (s2, q2) = point_segment(p, &Segment::new(tri.c, tri.a));
    let d0 = (q0 - p).norm_squared();
    let d1 = (q1 - p).norm_squared();
    let d2 = (q2 - p).norm_squared();
    if d0 <= d1 && d0 <= d2 {
        corner(q0, T::ONE - s0, s0, T::ZERO)
    } else if d1 <= d2 {
        corner(q1, T::ZERO, T::ONE - s1, s1)
    } else {
        corner(q2, s2, T::ZERO, T::ONE - s2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_of_unit_triangle() {
        let t = Triangle::new(
            Point3::new(0.0_f64, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
        );
        let q = point_triangle(&Point3::new(0.25, 0.25, 3.0), &t);
        assert_eq!(q.point, Point3::new(0.25, 0.25, 0.0));
        assert!((q.u - 0.5).abs() < 1e-15 && (q.v - 0.25).abs() < 1e-15);
        assert_eq!(point_triangle(&Point3::new(-1.0, -1.0, 0.0), &t).point, t.a);
        assert_eq!(point_triangle(&Point3::new(2.0, -1.0, 1.0), &t).point, t.b);
        let e = point_triangle(&Point3::new(1.0, 1.0, 0.0), &t);
        assert!((e.point - Point3::new(0.5, 0.5, 0.0)).norm() < 1e-15);
        assert_eq!(e.u, 0.0);
    }

    #[test]
    fn collapsed_triangles() {
        let p = Point3::new(1.0_f64, 1.0, 1.0);
        let s = Triangle::new(
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(2.0, 0.0, 0.0),
            Point3::new(4.0, 0.0, 0.0),
        );
        assert!((point_triangle(&p, &s).point - Point3::new(1.0, 0.0, 0.0)).norm() < 1e-15);
        let o = Triangle::new(
            Point3::new(3.0, 3.0, 3.0),
            Point3::new(3.0, 3.0, 3.0),
            Point3::new(3.0, 3.0, 3.0),
        );
        assert_eq!(point_triangle(&p, &o).point, Point3::new(3.0, 3.0, 3.0));
    }
}
