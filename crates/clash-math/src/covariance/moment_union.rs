//! The moments of a union of triangle sets (Eberly §6.1.3): a tree builder
//! sums its children's moments instead of every triangle's.

use crate::{Scalar, TriangleMoments};

impl<T: Scalar> TriangleMoments<T> {
    /// The moments of the union of two disjoint surfaces, each given by its
    /// moments (a triangle's, or a union's), in the same form: total area,
    /// area-weighted centroid `c = c₁ + (c₂ - c₁) A₂ / A`, and second moment
    /// about `c` by the parallel-axis theorem,
    /// `S = S₁ + S₂ + (A₁ A₂ / A) d dᵀ` with `d = c₂ - c₁` (Eberly §6.1.3:
    /// the covariance of a union is a sum). So the moments of a node of a
    /// tree are its children's union, and
    /// [`crate::covariance_of_moments`] of that one entry is the node's
    /// covariance, up to rounding. Only differences of centroids are
    /// formed, so sets far from the origin lose no precision.
    ///
    /// When the total area is zero (both surfaces degenerate) the centroid
    /// is the midpoint of the two and the second moment the sum (zero); a
    /// fit then falls back to the triangles, as it does for any zero area.
    /// Non-finite input gives a non-finite area.
    pub fn union(&self, other: &Self) -> Self {
        let area = self.area + other.area;
        let d = other.centroid - self.centroid;
        if area <= T::ZERO || !area.finite() {
            return Self {
                centroid: self.centroid + d * T::HALF,
                area,
                second: core::array::from_fn(|k| self.second[k] + other.second[k]),
            };
        }
        let w = self.area * other.area / area;
        let cross = [
            d.x * d.x,
            d.y * d.y,
            d.z * d.z,
            d.x * d.y,
            d.x * d.z,
            d.y * d.z,
        ];
        Self {
            centroid: self.centroid + d * (other.area / area),
            area,
            second: core::array::from_fn(|k| self.second[k] + other.second[k] + w * cross[k]),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{
        Point3, Triangle, TriangleMoments, covariance_of_moments, covariance_of_triangles,
    };

    fn tri(i: usize, shift: f64) -> Triangle<f64> {
        let h = |s: usize| ((i * 7919 + s * 104_729) % 1009) as f64 * 0.01;
        let p = Point3::new(h(1) + shift, h(2) - shift, h(3));
        Triangle::new(
            p,
            Point3::new(p.x + h(4) * 0.1, p.y + 0.05, p.z),
            Point3::new(p.x, p.y + h(5) * 0.1, p.z + 0.2),
        )
    }

    /// Folded pairwise, far from the origin, the union gives the set's
    /// covariance and centroid to rounding, and union is commutative up to
    /// rounding.
    #[test]
    fn union_gives_the_covariance_of_the_set() {
        for shift in [0.0, 1e6] {
            let tris: Vec<Triangle<f64>> = (0..37).map(|i| tri(i, shift)).collect();
            let moms: Vec<_> = tris.iter().map(TriangleMoments::new).collect();
            // A tree-shaped fold: halves, recursively.
            fn fold(m: &[TriangleMoments<f64>]) -> TriangleMoments<f64> {
                if m.len() == 1 {
                    return m[0];
                }
                let (l, r) = m.split_at(m.len() / 2);
                fold(l).union(&fold(r))
            }
            let u = fold(&moms);
            let want = covariance_of_triangles(&tris).unwrap();
            let got = covariance_of_moments(core::slice::from_ref(&u)).unwrap();
            let scale = want.matrix.abs().max();
            assert!(
                (got.matrix - want.matrix).abs().max() <= 1e-9 * scale,
                "{shift}"
            );
            assert!((got.mean - want.mean).norm() <= 1e-9 * (1.0 + shift));
            let total: f64 = moms.iter().map(|m| m.area).sum();
            assert!((u.area - total).abs() <= 1e-12 * total);
            let (a, b) = (moms[3].union(&moms[7]), moms[7].union(&moms[3]));
            assert!((a.centroid - b.centroid).norm() <= 1e-9 * (1.0 + shift));
        }
    }

    /// Degenerate and non-finite parts.
    #[test]
    fn union_of_degenerate_and_non_finite_parts() {
        let p = Point3::new(1.0, 2.0, 3.0);
        let flat = TriangleMoments::new(&Triangle::new(p, p, p));
        let other = TriangleMoments::new(&Triangle::new(p * 3.0, p * 3.0, p * 3.0));
        let u = flat.union(&other);
        assert_eq!(u.area, 0.0);
        assert_eq!(u.centroid, p * 2.0);
        assert_eq!(u.second, [0.0; 6]);
        assert!(covariance_of_moments(core::slice::from_ref(&u)).is_none());
        let real = TriangleMoments::new(&tri(1, 0.0));
        // A zero-area part moves nothing.
        let v = real.union(&flat);
        assert_eq!(v.area, real.area);
        assert_eq!(v.centroid, real.centroid);
        let bad = TriangleMoments::new(&Triangle::new(Point3::new(f64::NAN, 0.0, 0.0), p, p * 2.0));
        assert!(!real.union(&bad).area.is_finite());
    }
}
