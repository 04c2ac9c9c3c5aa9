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

/// Squared distance between the closed segments `p1q1` and `p2q2`
/// (RTCD §5.1.9, clamped closest points).
pub(crate) fn segment_segment_dist2<T: Scalar>(
    p1: &Point3<T>,
    q1: &Point3<T>,
    p2: &Point3<T>,
    q2: &Point3<T>,
) -> T {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.norm_squared();
    let e = d2.norm_squared();
    let f = d2.dot(&r);
    let clamp01 = |x: T| x.max(T::ZERO).min(T::ONE);
    let (s, t);
    if a <= T::ZERO && e <= T::ZERO {
        return r.norm_squared();
    }
    if a <= T::ZERO {
        s = T::ZERO;
        t = clamp01(f / e);
    } else {
        let c = d1.dot(&r);
        if e <= T::ZERO {
            t = T::ZERO;
            s = clamp01(-c / a);
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > T::ZERO {
                clamp01((b * f - c * e) / denom)
            } else {
                T::ZERO
            };
            let mut t0 = (b * s0 + f) / e;
            if t0 < T::ZERO {
                t0 = T::ZERO;
                s0 = clamp01(-c / a);
            } else if t0 > T::ONE {
                t0 = T::ONE;
                s0 = clamp01((b - c) / a);
            }
            s = s0;
            t = t0;
        }
    }
    let c1 = p1 + d1 * s;
    let c2 = p2 + d2 * t;
    (c1 - c2).norm_squared()
}
