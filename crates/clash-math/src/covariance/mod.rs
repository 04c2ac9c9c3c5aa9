//! Covariance matrices of point sets, of triangle sets as continuous
//! area-weighted distributions, and of convex hulls (RTCD §4.3.3,
//! Eberly *Dynamic Collision Detection using OBBs* §6.1.2–6.1.3).

mod moment_union;

use crate::{MathError, Pair, Scalar, Triangle, hull::ConvexHull, point_is_finite};
use nalgebra::{Matrix3, Point3, Vector3};

/// The mean and covariance matrix of a distribution of points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Covariance<T: Scalar> {
    /// Mean (centre of mass) of the distribution.
    pub mean: Point3<T>,
    /// Covariance matrix about [`Self::mean`] (symmetric, positive semi-definite).
    pub matrix: Matrix3<T>,
}

fn check_points<T: Scalar>(points: &[Point3<T>]) -> Result<(), MathError> {
    if points.is_empty() {
        return Err(MathError::Empty);
    }
    match points.iter().position(|p| !point_is_finite(p)) {
        Some(index) => Err(MathError::NonFinite { index }),
        None => Ok(()),
    }
}

/// Covariance of a finite point set, each point with equal weight (RTCD §4.3.3).
///
/// Computed about a shifted origin (the first point) so that large
/// coordinates far from the origin lose no precision.
///
/// # Errors
/// [`MathError::Empty`] for no points, [`MathError::NonFinite`] for NaN/inf.
pub fn covariance_of_points<T: Scalar>(points: &[Point3<T>]) -> Result<Covariance<T>, MathError> {
    check_points(points)?;
    let origin = points[0];
    let inv_n = T::ONE / T::lit(points.len() as f64);
    let mut sum = Vector3::zeros();
    for p in points {
        sum += p - origin;
    }
    let mean_local = sum * inv_n;
    let mut m = Matrix3::zeros();
    for p in points {
        let d = (p - origin) - mean_local;
        m += d * d.transpose();
    }
    Ok(Covariance {
        mean: origin + mean_local,
        matrix: m * inv_n,
    })
}

/// Covariance of the surface of a triangle set, each triangle a uniform
/// distribution of mass over its area (Eberly §6.1.3, after Gottschalk's
/// OBBTree): for triangle `i` with corners `p, q, r`, area `A_i` and
/// centroid `m_i`,
/// `C = (1/A) Σ A_i/12 (9 m_i m_iᵀ + p pᵀ + q qᵀ + r rᵀ) − m mᵀ`.
///
/// The result does not depend on how a surface is cut into triangles, which
/// is why OBB trees fit with it. When the total area is zero (all triangles
/// degenerate), it falls back to [`covariance_of_points`] of the corners.
///
/// # Errors
/// [`MathError::Empty`] for no triangles, [`MathError::NonFinite`] for NaN/inf.
pub fn covariance_of_triangles<T: Scalar>(
    triangles: &[Triangle<T>],
) -> Result<Covariance<T>, MathError> {
    if triangles.is_empty() {
        return Err(MathError::Empty);
    }
    if let Some(index) = triangles.iter().position(|t| !t.is_finite()) {
        return Err(MathError::NonFinite { index });
    }
    let origin = triangles[0].a;
    let mut area_sum = T::ZERO;
    let mut mean_sum = Vector3::zeros();
    // The six distinct entries of the symmetric second-moment sum:
    // xx, yy, zz, xy, xz, yz.
    let mut second = [T::ZERO; 6];
    let third = T::ONE / T::lit(3.0);
    let twelfth = T::ONE / T::lit(12.0);
    for t in triangles {
        let (p, q, r) = (t.a - origin, t.b - origin, t.c - origin);
        let area = (q - p).cross(&(r - p)).norm() * T::HALF;
        let sum = p + q + r;
        let m = sum * third;
        area_sum += area;
        mean_sum += m * area;
        // 9 m mᵀ + p pᵀ + q qᵀ + r rᵀ, with 9 m mᵀ = sum sumᵀ.
        let w = area * twelfth;
        let entry = |i: usize, j: usize| sum[i] * sum[j] + p[i] * p[j] + q[i] * q[j] + r[i] * r[j];
        second[0] += entry(0, 0) * w;
        second[1] += entry(1, 1) * w;
        second[2] += entry(2, 2) * w;
        second[3] += entry(0, 1) * w;
        second[4] += entry(0, 2) * w;
        second[5] += entry(1, 2) * w;
    }
    let [xx, yy, zz, xy, xz, yz] = second;
    let second = Matrix3::new(xx, xy, xz, xy, yy, yz, xz, yz, zz);
    if area_sum <= T::ZERO || !area_sum.finite() {
        let corners: Vec<Point3<T>> = triangles.iter().flat_map(|t| t.vertices()).collect();
        return covariance_of_points(&corners);
    }
    let mean = mean_sum / area_sum;
    let mut matrix = second / area_sum - mean * mean.transpose();
    // Symmetrise against rounding.
    matrix = (matrix + matrix.transpose()) * T::HALF;
    Ok(Covariance {
        mean: origin + mean,
        matrix,
    })
}

/// One triangle as a uniform mass distribution over its area (Eberly
/// §6.1.3): its area, centroid and second moment about the centroid. The
/// moments of a set of triangles about any origin `o` are sums of these
/// by the parallel-axis theorem (`∫(x - o)(x - o)ᵀ = S + A (c - o)(c - o)ᵀ`),
/// so a tree builder that fits every node computes them once per triangle
/// and [`covariance_of_moments`] costs a few multiply-adds per triangle
/// instead of a cross product, a square root and the corner products.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TriangleMoments<T: Scalar> {
    /// Centroid (`Triangle::centroid`).
    pub centroid: Point3<T>,
    /// Area.
    pub area: T,
    /// The distinct entries xx, yy, zz, xy, xz, yz of the second moment
    /// about the centroid, `∫(x - c)(x - c)ᵀ dA = A/12 Σ (v - c)(v - c)ᵀ`
    /// over the three corners `v`.
    pub second: [T; 6],
}

impl<T: Scalar> TriangleMoments<T> {
    /// The moments of `t` (computed in coordinates relative to its centroid,
    /// so far from the origin they lose no precision).
    pub fn new(t: &Triangle<T>) -> Self {
        let centroid = t.centroid();
        let (p, q, r) = (t.a - centroid, t.b - centroid, t.c - centroid);
        let area = (q - p).cross(&(r - p)).norm() * T::HALF;
        let w = area / T::lit(12.0);
        let entry = |i: usize, j: usize| (p[i] * p[j] + q[i] * q[j] + r[i] * r[j]) * w;
        Self {
            centroid,
            area,
            second: [
                entry(0, 0),
                entry(1, 1),
                entry(2, 2),
                entry(0, 1),
                entry(0, 2),
                entry(1, 2),
            ],
        }
    }
}

impl<T: Scalar> TriangleMoments<T> {
    /// These moments about the fixed point `origin`, in `f64` (see
    /// [`MomentsAbout`]).
    pub fn about(&self, origin: &Point3<f64>) -> MomentsAbout {
        let c = self.centroid.coords.map(T::to_f64);
        let d = [c.x - origin.x, c.y - origin.y, c.z - origin.z];
        let a = self.area.to_f64();
        let s = self.second.map(T::to_f64);
        // Parallel-axis theorem: ∫(x - o)(x - o)ᵀ = S + A d dᵀ.
        let ad = [a * d[0], a * d[1], a * d[2]];
        MomentsAbout {
            offset: d,
            area: a,
            second: [
                s[0] + ad[0] * d[0],
                s[1] + ad[1] * d[1],
                s[2] + ad[2] * d[2],
                s[3] + ad[0] * d[1],
                s[4] + ad[0] * d[2],
                s[5] + ad[1] * d[2],
            ],
        }
    }
}

/// One triangle's moments about a fixed origin `o` shared by a whole mesh
/// (Eberly §6.1.3, the parallel-axis theorem): the centroid's offset
/// `d = c - o`, the area `A` and the second moment about `o`,
/// `S + A d dᵀ`, in `f64` for either scalar. Summing these over any
/// subset of the mesh ([`MomentSum`]) takes ten additions and three
/// multiplications per triangle, against about forty operations for
/// [`covariance_of_moments`], which shifts every triangle to the set's own
/// first centroid: a tree builder that fits every node sums each triangle
/// once per tree level.
///
/// The price is precision: the covariance of a set of size `s` at distance
/// up to `R` from `o` is a difference of second moments of size `R²`, so it
/// carries a relative error of about `ε (R / s)²` (`ε = 2⁻⁵³`): about `1e-11`
/// for a node `1/300` of the mesh's size around the mesh's centre, which
/// moves the principal axes in their last digits only. Any axes give a valid
/// volume (its extents come from the corners), so this affects tightness
/// alone, and negligibly.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MomentsAbout {
    /// Centroid minus the origin.
    pub offset: [f64; 3],
    /// Area.
    pub area: f64,
    /// The distinct entries xx, yy, zz, xy, xz, yz of the second moment
    /// about the origin.
    pub second: [f64; 6],
}

/// The moments of a set of triangles about a fixed origin (see
/// [`MomentsAbout`]): total area, first moment `Σ A_i d_i` and second
/// moment, from which [`MomentSum::covariance`] gives the set's
/// continuous-PCA covariance (Eberly §6.1.3).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MomentSum {
    /// Total area.
    pub area: f64,
    /// `Σ A_i d_i`.
    pub first: [f64; 3],
    /// xx, yy, zz, xy, xz, yz of the summed second moment about the origin.
    pub second: [f64; 6],
}

impl MomentSum {
    /// Adds one triangle.
    #[inline(always)]
    pub fn add(&mut self, m: &MomentsAbout) {
        self.area += m.area;
        for k in 0..3 {
            self.first[k] += m.area * m.offset[k];
        }
        for k in 0..6 {
            self.second[k] += m.second[k];
        }
    }

    /// The sum over `moments`, in order.
    pub fn of(moments: impl IntoIterator<Item = MomentsAbout>) -> Self {
        let mut s = Self::default();
        for m in moments {
            s.add(&m);
        }
        s
    }

    /// The covariance of the triangles as a continuous distribution
    /// (`C = M₂ / A − m mᵀ` with `m = M₁ / A`), its mean relative to the
    /// origin; `None` for a zero or non-finite total area (all triangles
    /// degenerate, or overflow), where [`covariance_of_triangles`] falls
    /// back to the corners, which the sum does not hold.
    pub fn covariance(&self) -> Option<Covariance<f64>> {
        let a = self.area;
        if a <= 0.0 || !a.is_finite() {
            return None;
        }
        let ia = 1.0 / a;
        let m = Vector3::new(self.first[0] * ia, self.first[1] * ia, self.first[2] * ia);
        let [xx, yy, zz, xy, xz, yz] = self.second.map(|s| s * ia);
        let matrix = Matrix3::new(
            xx - m.x * m.x,
            xy - m.x * m.y,
            xz - m.x * m.z,
            xy - m.x * m.y,
            yy - m.y * m.y,
            yz - m.y * m.z,
            xz - m.x * m.z,
            yz - m.y * m.z,
            zz - m.z * m.z,
        );
        Some(Covariance {
            mean: Point3::from(m),
            matrix,
        })
    }

    /// [`MomentSum::covariance`] of two sums, computed side by side in the
    /// lanes of a [`Pair`] (SSE2 on x86_64), each answer bit for bit the
    /// single one's: a tree builder takes the two children of a node
    /// together.
    #[inline]
    pub fn covariance_x2(sums: [&Self; 2]) -> [Option<Covariance<f64>>; 2] {
        type P = <f64 as Scalar>::Pair;
        let a = P::new(sums[0].area, sums[1].area);
        // `a > 0` and finite: false for NaN, as the single test's `a <= 0 || !finite`.
        let usable = P::mask_lanes(P::mask_and(
            a.positive_mask(),
            a.lt_mask(P::splat(f64::INFINITY)),
        ));
        let ia = P::splat(1.0) / a;
        let m: [P; 3] = core::array::from_fn(|k| P::new(sums[0].first[k], sums[1].first[k]) * ia);
        let [xx, yy, zz, xy, xz, yz]: [P; 6] =
            core::array::from_fn(|k| P::new(sums[0].second[k], sums[1].second[k]) * ia);
        let [mx, my, mz] = m;
        let c = [
            xx - mx * mx,
            xy - mx * my,
            xz - mx * mz,
            yy - my * my,
            yz - my * mz,
            zz - mz * mz,
        ];
        let lane = |l: usize| {
            usable[l].then(|| {
                let [c00, c01, c02, c11, c12, c22] = c.map(|x| x.lanes()[l]);
                Covariance {
                    mean: Point3::from(m.map(|x| x.lanes()[l])),
                    matrix: Matrix3::new(c00, c01, c02, c01, c11, c12, c02, c12, c22),
                }
            })
        };
        [lane(0), lane(1)]
    }
}

/// [`covariance_of_triangles`] from the triangles' [`TriangleMoments`]:
/// the same distribution (Eberly §6.1.3), summed about the first centroid
/// by the parallel-axis theorem, `C = (1/A) Σ (S_i + A_i d_i d_iᵀ) − d̄ d̄ᵀ`
/// with `d_i = c_i - c_0` and `d̄ = Σ A_i d_i / A`. `None` for no moments or
/// a zero or non-finite total area (where [`covariance_of_triangles`] falls
/// back to the corners, which the moments do not hold).
pub fn covariance_of_moments<T: Scalar>(moments: &[TriangleMoments<T>]) -> Option<Covariance<T>> {
    let origin = moments.first()?.centroid;
    let mut area_sum = T::ZERO;
    let mut mean_sum = Vector3::zeros();
    let mut second = [T::ZERO; 6];
    for m in moments {
        let d = m.centroid - origin;
        let ad = d * m.area;
        area_sum += m.area;
        mean_sum += ad;
        second[0] += m.second[0] + ad.x * d.x;
        second[1] += m.second[1] + ad.y * d.y;
        second[2] += m.second[2] + ad.z * d.z;
        second[3] += m.second[3] + ad.x * d.y;
        second[4] += m.second[4] + ad.x * d.z;
        second[5] += m.second[5] + ad.y * d.z;
    }
    if area_sum <= T::ZERO || !area_sum.finite() {
        return None;
    }
    let [xx, yy, zz, xy, xz, yz] = second;
    let second = Matrix3::new(xx, xy, xz, xy, yy, yz, xz, yz, zz);
    let mean = mean_sum / area_sum;
    let mut matrix = second / area_sum - mean * mean.transpose();
    // Symmetrise against rounding.
    matrix = (matrix + matrix.transpose()) * T::HALF;
    Some(Covariance {
        mean: origin + mean,
        matrix,
    })
}

/// Covariance of the convex hull of a point set (Eberly §6.1.2): the hull's
/// surface as a continuous distribution ([`covariance_of_triangles`] of the
/// hull faces), so interior points and uneven sampling of the surface do not
/// bias the axes. For flat or collinear sets, whose hull has no volume, the
/// hull vertices are used as points.
///
/// # Errors
/// [`MathError::Empty`] for no points, [`MathError::NonFinite`] for NaN/inf.
pub fn covariance_of_hull<T: Scalar>(points: &[Point3<T>]) -> Result<Covariance<T>, MathError> {
    check_points(points)?;
    covariance_of_convex_hull(&ConvexHull::new(points)?)
}

/// [`covariance_of_hull`] of a hull already built (fits that also need the
/// hull for other purposes build it once).
///
/// # Errors
/// [`MathError::Empty`] for a hull without vertices.
pub fn covariance_of_convex_hull<T: Scalar>(
    hull: &ConvexHull<T>,
) -> Result<Covariance<T>, MathError> {
    let faces = hull.triangles();
    if faces.is_empty() {
        covariance_of_points(hull.vertices())
    } else {
        covariance_of_triangles(&faces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn points_covariance_matches_definition() {
        let pts = [
            Point3::new(1.0_f64, 0.0, 0.0),
            Point3::new(-1.0, 0.0, 0.0),
            Point3::new(0.0, 2.0, 0.0),
            Point3::new(0.0, -2.0, 0.0),
        ];
        let c = covariance_of_points(&pts).unwrap();
        assert_eq!(c.mean, Point3::origin());
        assert!((c.matrix - Matrix3::from_diagonal(&Vector3::new(0.5, 2.0, 0.0))).norm() < 1e-15);
    }

    #[test]
    fn triangle_covariance_independent_of_subdivision() {
        // One triangle vs the same triangle split in four: identical distributions.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..200 {
            let mut p = || {
                Point3::new(
                    rng.random_range(-5.0..5.0),
                    rng.random_range(-5.0..5.0),
                    rng.random_range(-5.0..5.0),
                )
            };
            let (a, b, c) = (p(), p(), p());
            let (ab, bc, ca) = (
                nalgebra::center(&a, &b),
                nalgebra::center(&b, &c),
                nalgebra::center(&c, &a),
            );
            let one = covariance_of_triangles(&[Triangle::new(a, b, c)]).unwrap();
            let four = covariance_of_triangles(&[
                Triangle::new(a, ab, ca),
                Triangle::new(ab, b, bc),
                Triangle::new(ca, bc, c),
                Triangle::new(ab, bc, ca),
            ])
            .unwrap();
            assert!((one.mean - four.mean).norm() < 1e-12);
            assert!((one.matrix - four.matrix).norm() < 1e-10 * (1.0 + one.matrix.norm()));
        }
    }

    #[test]
    fn triangle_covariance_matches_dense_sampling() {
        let t = Triangle::new(
            Point3::new(0.0_f64, 0.0, 0.0),
            Point3::new(4.0, 0.0, 1.0),
            Point3::new(1.0, 3.0, -2.0),
        );
        let exact = covariance_of_triangles(&[t]).unwrap();
        let n = 400;
        let mut pts = Vec::new();
        for i in 0..n {
            for j in 0..n - i {
                // centroids of a regular subdivision: uniform samples
                let (u, v) = (
                    (i as f64 + 1.0 / 3.0) / n as f64,
                    (j as f64 + 1.0 / 3.0) / n as f64,
                );
                pts.push(t.at_barycentric(u, v));
                if i + j + 1 < n {
                    let (u2, v2) = (
                        (i as f64 + 2.0 / 3.0) / n as f64,
                        (j as f64 + 2.0 / 3.0) / n as f64,
                    );
                    pts.push(t.at_barycentric(u2, v2));
                }
            }
        }
        let sampled = covariance_of_points(&pts).unwrap();
        assert!((exact.mean - sampled.mean).norm() < 1e-9);
        assert!(
            (exact.matrix - sampled.matrix).norm() < 1e-3 * exact.matrix.norm(),
            "{} vs {}",
            exact.matrix,
            sampled.matrix
        );
    }

    #[test]
    fn moments_covariance_matches_triangles() {
        // Independent oracle: the direct corner formula of
        // `covariance_of_triangles`, here on sets far from the origin too.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for round in 0..300 {
            let shift = if round % 3 == 0 { 1e4 } else { 0.0 };
            let n = 1 + round % 17;
            let tris: Vec<Triangle<f64>> = (0..n)
                .map(|_| {
                    let mut p = || {
                        Point3::new(
                            shift + rng.random_range(-5.0..5.0),
                            rng.random_range(-5.0..5.0),
                            shift + rng.random_range(-5.0..5.0),
                        )
                    };
                    Triangle::new(p(), p(), p())
                })
                .collect();
            let moments: Vec<_> = tris.iter().map(TriangleMoments::new).collect();
            let want = covariance_of_triangles(&tris).unwrap();
            let got = covariance_of_moments(&moments).unwrap();
            let scale = 1.0 + want.matrix.norm();
            assert!((want.mean - got.mean).norm() < 1e-9 * (1.0 + shift));
            assert!(
                (want.matrix - got.matrix).norm() < 1e-9 * scale,
                "{} vs {}",
                want.matrix,
                got.matrix
            );
            assert_eq!(got.matrix, got.matrix.transpose());
        }
        assert_eq!(covariance_of_moments::<f64>(&[]), None);
        let flat = Triangle::new(
            Point3::new(0.0_f64, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(2.0, 0.0, 0.0),
        );
        assert_eq!(covariance_of_moments(&[TriangleMoments::new(&flat)]), None);
    }

    #[test]
    fn moment_sums_about_an_origin_match_triangles() {
        // Independent oracle: the direct corner formula of
        // `covariance_of_triangles`. Sets near and far (1e4) from the
        // coordinate origin, summed about an origin near the mesh (as a
        // builder does: the centre of the mesh's bounds), with subsets far
        // smaller than the distance to it.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
        for round in 0..300 {
            let shift = if round % 3 == 0 { 1e4 } else { 0.0 };
            let spread = if round % 2 == 0 { 5.0 } else { 0.05 };
            let n = 1 + round % 17;
            let at = Vector3::new(
                rng.random_range(-50.0..50.0),
                rng.random_range(-50.0..50.0),
                rng.random_range(-50.0..50.0),
            );
            let tris: Vec<Triangle<f64>> = (0..n)
                .map(|_| {
                    let mut p = || {
                        Point3::new(
                            shift + at.x + rng.random_range(-spread..spread),
                            at.y + rng.random_range(-spread..spread),
                            shift + at.z + rng.random_range(-spread..spread),
                        )
                    };
                    Triangle::new(p(), p(), p())
                })
                .collect();
            let origin = Point3::new(shift, 0.0, shift);
            let sum = MomentSum::of(tris.iter().map(|t| TriangleMoments::new(t).about(&origin)));
            let want = covariance_of_triangles(&tris).unwrap();
            let got = sum.covariance().unwrap();
            // Relative error about eps (R / s)^2 with R ~ 90, s ~ spread.
            let scale = want.matrix.norm();
            let tol = 4e-15 * (90.0 / spread) * (90.0 / spread);
            assert!(
                (want.mean - (got.mean + origin.coords)).norm() < 1e-9 * (1.0 + shift),
                "{round}"
            );
            assert!(
                (want.matrix - got.matrix).norm() <= tol * scale,
                "{round}: {} vs {}",
                want.matrix,
                got.matrix
            );
            assert_eq!(got.matrix, got.matrix.transpose());
        }
        assert_eq!(MomentSum::default().covariance(), None);
        let flat = Triangle::new(
            Point3::new(0.0_f64, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(2.0, 0.0, 0.0),
        );
        let m = TriangleMoments::new(&flat).about(&Point3::origin());
        assert_eq!(MomentSum::of([m]).covariance(), None);
        // f32 moments are summed in f64.
        let t32 = Triangle::new(
            Point3::new(0.0_f32, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.5),
            Point3::new(0.0, 2.0, 0.0),
        );
        let t64 = Triangle::new(t32.a.cast(), t32.b.cast(), t32.c.cast());
        let c32 = MomentSum::of([TriangleMoments::new(&t32).about(&Point3::origin())]);
        let c64 = covariance_of_triangles(&[t64]).unwrap();
        assert!((c32.covariance().unwrap().matrix - c64.matrix).norm() < 1e-6);
    }

    /// Two sums' covariances side by side are each the single one, bit for
    /// bit, `None` included (zero, negative, subnormal, infinite and NaN
    /// areas, alone or next to an ordinary sum).
    #[test]
    fn paired_covariances_match_single_ones() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        let mut sums: Vec<MomentSum> = (0..40)
            .map(|_| MomentSum {
                area: rng.random_range(1e-3..1e3),
                first: core::array::from_fn(|_| rng.random_range(-1e3..1e3)),
                second: core::array::from_fn(|_| rng.random_range(-1e6..1e6)),
            })
            .collect();
        let ordinary = sums[0];
        for area in [
            0.0,
            -0.0,
            -1.0,
            1e-310,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ] {
            sums.push(MomentSum { area, ..ordinary });
        }
        sums.push(MomentSum {
            first: [f64::NAN, 1.0, f64::INFINITY],
            ..ordinary
        });
        let bits = |c: Option<Covariance<f64>>| {
            c.map(|c| {
                let mut v: Vec<u64> = c.mean.iter().map(|x| x.to_bits()).collect();
                v.extend(c.matrix.iter().map(|x| x.to_bits()));
                v
            })
        };
        for a in &sums {
            for b in &sums {
                let [ca, cb] = MomentSum::covariance_x2([a, b]);
                assert_eq!(bits(ca), bits(a.covariance()), "{a:?}");
                assert_eq!(bits(cb), bits(b.covariance()), "{b:?}");
            }
        }
    }

    #[test]
    fn errors_and_degenerate_fallback() {
        assert_eq!(covariance_of_points::<f32>(&[]), Err(MathError::Empty));
        assert_eq!(covariance_of_triangles::<f64>(&[]), Err(MathError::Empty));
        assert_eq!(
            covariance_of_points(&[Point3::new(0.0, 0.0, 0.0), Point3::new(f64::NAN, 0.0, 0.0)]),
            Err(MathError::NonFinite { index: 1 })
        );
        let flat = Triangle::new(
            Point3::new(0.0_f64, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(2.0, 0.0, 0.0),
        );
        let c = covariance_of_triangles(&[flat]).unwrap();
        assert!(c.matrix[(0, 0)] > 0.0 && c.matrix.iter().all(|x| x.is_finite()));
    }

    #[test]
    fn hull_covariance_ignores_interior_points() {
        let mut cube: Vec<Point3<f64>> = (0..8)
            .map(|i| Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
            .collect();
        let a = covariance_of_hull(&cube).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        for _ in 0..500 {
            cube.push(Point3::new(
                rng.random_range(0.2..0.4),
                rng.random_range(0.1..0.9),
                rng.random_range(0.6..0.9),
            ));
        }
        let b = covariance_of_hull(&cube).unwrap();
        assert!((a.matrix - b.matrix).norm() < 1e-12);
        assert!((a.mean - Point3::new(0.5, 0.5, 0.5)).norm() < 1e-12);
    }
}
