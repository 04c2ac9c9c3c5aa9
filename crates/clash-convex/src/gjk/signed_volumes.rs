//! The point of minimum norm in the convex hull of up to four points, by
//! the signed-volumes method (Montanari, Petrinic and Barbieri, "Improving
//! the GJK Algorithm for Faster and More Reliable Distance Queries Between
//! Convex Objects", ACM ToG 2017), the robust replacement for Johnson's
//! distance sub-algorithm of RTCD §9.5.2.
//!
//! Barycentric coordinates come from signed lengths, areas and volumes of
//! the sub-simplices with the origin (or its projection) in place of each
//! vertex, computed in the coordinate plane or axis where the simplex
//! projects largest, so that thin and degenerate simplices need no special
//! tolerance: a coordinate whose sign differs from the whole's sends the
//! search to the opposite sub-simplex, and a flat simplex (zero volume or
//! area) searches all its facets. Unlike the paper's, these routines do not
//! assume that the newest point is part of the answer, so they serve the
//! Nesterov-accelerated variant too.

use clash_math::{Scalar, Vector3};

/// The minimum-norm point of a sub-simplex: `v = Σ lambda[i] w[i]` over the
/// indices in `set` (a bit mask), `vv = |v|²`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Projection<T: Scalar> {
    pub v: Vector3<T>,
    pub vv: T,
    pub lambda: [T; 4],
    pub set: u8,
}

impl<T: Scalar> Projection<T> {
    /// The vertex `w[i]` alone.
    #[inline]
    pub(crate) fn vertex(w: &[Vector3<T>; 4], i: usize) -> Self {
        let mut lambda = [T::ZERO; 4];
        lambda[i] = T::ONE;
        Self {
            v: w[i],
            vv: w[i].norm_squared(),
            lambda,
            set: 1 << i,
        }
    }

    /// No point yet: loses to any projection.
    #[inline]
    fn none() -> Self {
        Self {
            v: Vector3::zeros(),
            vv: T::INFINITY,
            lambda: [T::ZERO; 4],
            set: 0,
        }
    }

    #[inline]
    fn min(self, other: Self) -> Self {
        if other.vv < self.vv { other } else { self }
    }
}

/// `true` when `a` and `b` are both positive or both negative. A product
/// that underflows to 0 reads as a mismatch, which only sends the search
/// to the sub-simplices as well: never a wrong answer.
#[inline]
fn same_sign<T: Scalar>(a: T, b: T) -> bool {
    a * b > T::ZERO
}

/// Minimum-norm point of the segment `w[i] w[j]`.
pub(crate) fn segment<T: Scalar>(w: &[Vector3<T>; 4], i: usize, j: usize) -> Projection<T> {
    let (a, b) = (w[i], w[j]);
    let t = b - a;
    // The projection of the origin on the line, then its signed lengths to
    // both ends along the axis where the segment is longest.
    let tt = t.norm_squared();
    if !(tt > T::ZERO) {
        return Projection::vertex(w, i);
    }
    let p = a - t * (a.dot(&t) / tt);
    let k = t.iamax();
    let mu = a[k] - b[k];
    let ci = p[k] - b[k]; // weight of a
    let cj = a[k] - p[k]; // weight of b
    if same_sign(mu, ci) && same_sign(mu, cj) {
        let mut lambda = [T::ZERO; 4];
        lambda[i] = ci / mu;
        lambda[j] = cj / mu;
        Projection {
            v: p,
            vv: p.norm_squared(),
            lambda,
            set: (1 << i) | (1 << j),
        }
    } else if same_sign(mu, ci) {
        // p lies beyond a.
        Projection::vertex(w, i)
    } else if same_sign(mu, cj) {
        Projection::vertex(w, j)
    } else {
        Projection::vertex(w, i).min(Projection::vertex(w, j))
    }
}

/// Twice the signed area of `(p, q, r)` in the coordinate plane `(u, v)`.
#[inline]
fn area<T: Scalar>(p: &Vector3<T>, q: &Vector3<T>, r: &Vector3<T>, u: usize, v: usize) -> T {
    (q[u] - p[u]) * (r[v] - p[v]) - (q[v] - p[v]) * (r[u] - p[u])
}

/// Minimum-norm point of the triangle `w[i] w[j] w[k]`.
pub(crate) fn triangle<T: Scalar>(
    w: &[Vector3<T>; 4],
    i: usize,
    j: usize,
    k: usize,
) -> Projection<T> {
    let (a, b, c) = (w[i], w[j], w[k]);
    let n = (b - a).cross(&(c - a));
    let nn = n.norm_squared();
    let edges = || segment(w, j, k).min(segment(w, i, k)).min(segment(w, i, j));
    if !(nn > T::ZERO) {
        return edges();
    }
    // The origin projected on the plane; its barycentric coordinates from
    // areas in the coordinate plane where the triangle projects largest
    // (axes in cyclic order, so that the whole's area is n[m]).
    let p = n * (a.dot(&n) / nn);
    let m = n.iamax();
    let (u, v) = ((m + 1) % 3, (m + 2) % 3);
    let mu = n[m];
    let ca = area(&p, &b, &c, u, v);
    let cb = area(&a, &p, &c, u, v);
    let cc = area(&a, &b, &p, u, v);
    if same_sign(mu, ca) && same_sign(mu, cb) && same_sign(mu, cc) {
        let sum = ca + cb + cc;
        let mut lambda = [T::ZERO; 4];
        lambda[i] = ca / sum;
        lambda[j] = cb / sum;
        lambda[k] = cc / sum;
        return Projection {
            v: p,
            vv: p.norm_squared(),
            lambda,
            set: (1 << i) | (1 << j) | (1 << k),
        };
    }
    // The closest point lies on an edge whose outer side holds p (at least
    // one coordinate's sign differs here).
    let mut best = Projection::none();
    if !same_sign(mu, ca) {
        best = best.min(segment(w, j, k));
    }
    if !same_sign(mu, cb) {
        best = best.min(segment(w, i, k));
    }
    if !same_sign(mu, cc) {
        best = best.min(segment(w, i, j));
    }
    best
}

/// Minimum-norm point of the tetrahedron `w[0..4]`; `set == 0b1111` and
/// `v == 0` when the origin is inside.
pub(crate) fn tetrahedron<T: Scalar>(w: &[Vector3<T>; 4]) -> Projection<T> {
    let (a, b, c, d) = (w[0], w[1], w[2], w[3]);
    let (ab, ac, ad) = (b - a, c - a, d - a);
    let det = ab.dot(&ac.cross(&ad));
    // Signed volumes with the origin in place of each vertex.
    let ca = b.dot(&c.cross(&d));
    let cb = -a.dot(&ac.cross(&ad));
    let cc = -ab.dot(&a.cross(&ad));
    let cd = -ab.dot(&ac.cross(&a));
    if same_sign(det, ca) && same_sign(det, cb) && same_sign(det, cc) && same_sign(det, cd) {
        let sum = ca + cb + cc + cd;
        return Projection {
            v: Vector3::zeros(),
            vv: T::ZERO,
            lambda: [ca / sum, cb / sum, cc / sum, cd / sum],
            set: 0b1111,
        };
    }
    // At least one sign differs when the origin is not strictly inside.
    let mut best = Projection::none();
    if !same_sign(det, ca) {
        best = best.min(triangle(w, 1, 2, 3));
    }
    if !same_sign(det, cb) {
        best = best.min(triangle(w, 0, 2, 3));
    }
    if !same_sign(det, cc) {
        best = best.min(triangle(w, 0, 1, 3));
    }
    if !same_sign(det, cd) {
        best = best.min(triangle(w, 0, 1, 2));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64, z: f64) -> Vector3<f64> {
        Vector3::new(x, y, z)
    }

    #[test]
    fn segment_regions() {
        let w = [
            v(1.0, -1.0, 1.0),
            v(1.0, 1.0, 1.0),
            v(0.0, 0.0, 0.0),
            v(0.0, 0.0, 0.0),
        ];
        let p = segment(&w, 0, 1);
        assert_eq!(p.set, 0b11);
        assert!((p.v - v(1.0, 0.0, 1.0)).norm() < 1e-15);
        let w = [
            v(1.0, 1.0, 0.0),
            v(1.0, 2.0, 0.0),
            v(0.0, 0.0, 0.0),
            v(0.0, 0.0, 0.0),
        ];
        assert_eq!(segment(&w, 0, 1).set, 0b01);
        assert_eq!(segment(&w, 1, 0).set, 0b01);
    }

    #[test]
    fn triangle_and_tetrahedron_regions() {
        let w = [
            v(-1.0, -1.0, 2.0),
            v(3.0, -1.0, 2.0),
            v(-1.0, 3.0, 2.0),
            v(0.0, 0.0, -1.0),
        ];
        let t = triangle(&w, 0, 1, 2);
        assert_eq!(t.set, 0b111);
        assert!((t.v - v(0.0, 0.0, 2.0)).norm() < 1e-15);
        let sum: f64 = t.lambda.iter().sum();
        assert!((sum - 1.0).abs() < 1e-15);
        let inside = tetrahedron(&w);
        assert_eq!(inside.set, 0b1111);
        assert_eq!(inside.vv, 0.0);
        // Shift so that the origin is below the bottom vertex.
        let s = v(0.0, 0.0, 2.0);
        let w2 = w.map(|p| p + s);
        let below = tetrahedron(&w2);
        assert_eq!(below.set, 0b1000);
        assert!((below.v - v(0.0, 0.0, 1.0)).norm() < 1e-15);
    }

    #[test]
    fn flat_tetrahedron_searches_its_faces() {
        let w = [
            v(1.0, 0.0, 1.0),
            v(0.0, 1.0, 1.0),
            v(-1.0, -1.0, 1.0),
            v(0.2, 0.2, 1.0),
        ];
        let p = tetrahedron(&w);
        assert!((p.v - v(0.0, 0.0, 1.0)).norm() < 1e-15);
        assert!((p.vv - 1.0).abs() < 1e-15);
    }
}
