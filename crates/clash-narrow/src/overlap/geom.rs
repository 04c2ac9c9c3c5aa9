//! Small private floating-point helpers (closest points) for the
//! distance-based overlap tests.

use clash_math::{Point3, Scalar};

/// Closest point of the closed triangle `abc` to `p` (RTCD §5.1.5, Voronoi
/// regions); works for degenerate triangles too (falls back to the edges).
pub(crate) fn closest_on_triangle<T: Scalar>(
    p: &Point3<T>,
    a: &Point3<T>,
    b: &Point3<T>,
    c: &Point3<T>,
) -> Point3<T> {
    let ab = b - a;
    let ac = c - a;
    let n = ab.cross(&ac);
    if n.norm_squared() <= T::ZERO {
        // Degenerate: the nearest of the three edges.
        let mut best = closest_on_segment(p, a, b);
        for q in [closest_on_segment(p, b, c), closest_on_segment(p, c, a)] {
            if (q - p).norm_squared() < (best - p).norm_squared() {
                best = q;
            }
        }
        return best;
    }
    let ap = p - a;
    let d1 = ab.dot(&ap);
    let d2 = ac.dot(&ap);
    if d1 <= T::ZERO && d2 <= T::ZERO {
        return *a;
    }
    let bp = p - b;
    let d3 = ab.dot(&bp);
    let d4 = ac.dot(&bp);
    if d3 >= T::ZERO && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= T::ZERO && d1 >= T::ZERO && d3 <= T::ZERO {
        let v = d1 / (d1 - d3);
        return a + ab * v;
    }
    let cp = p - c;
    let d5 = ab.dot(&cp);
    let d6 = ac.dot(&cp);
    if d6 >= T::ZERO && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= T::ZERO && d2 >= T::ZERO && d6 <= T::ZERO {
        let w = d2 / (d2 - d6);
        return a + ac * w;
    }
    let va = d3 * d6 - d5 * d4;
    if va <= T::ZERO && (d4 - d3) >= T::ZERO && (d5 - d6) >= T::ZERO {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return b + (c - b) * w;
    }
    let denom = T::ONE / (va + vb + vc);
    let v = vb * denom;
    let w = vc * denom;
    a + ab * v + ac * w
}

/// Closest point of the closed segment `ab` to `p` (RTCD §5.1.2).
pub(crate) fn closest_on_segment<T: Scalar>(
    p: &Point3<T>,
    a: &Point3<T>,
    b: &Point3<T>,
) -> Point3<T> {
    let ab = b - a;
    let l = ab.norm_squared();
    if l <= T::ZERO {
        return *a;
    }
    let t = ((p - a).dot(&ab) / l).max(T::ZERO).min(T::ONE);
    a + ab * t
}
