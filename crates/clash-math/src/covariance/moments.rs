//! Triangle moments (Eberly §6.1.3): each triangle's area, centroid and
//! second moment, computed once, from which the covariance of any set of
//! triangles is a sum (about the set's first centroid, or about one fixed
//! origin in `f64`).

use super::Covariance;
use crate::lanes::{Lanes, Pair};
use crate::{Scalar, Triangle};
use nalgebra::{Matrix3, Point3, Vector3};

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
    /// degenerate, or overflow), where [`covariance_of_triangles`](super::covariance_of_triangles) falls
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
    // Internal to the clash crates: clash-bv's paired fits solve through it.
    #[doc(hidden)]
    #[inline]
    pub fn covariance_x2(sums: [&Self; 2]) -> [Option<Covariance<f64>>; 2] {
        type P = <f64 as Scalar>::Pair;
        let a = P::new(sums[0].area, sums[1].area);
        // `a > 0` and finite: false for NaN, as the single test's `a <= 0 || !finite`.
        let usable = P::and(a.gt_mask(P::splat(0.0)), a.lt_mask(P::splat(f64::INFINITY)));
        let usable = [P::flag(usable, 0), P::flag(usable, 1)];
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

/// [`covariance_of_triangles`](super::covariance_of_triangles) from the triangles' [`TriangleMoments`]:
/// the same distribution (Eberly §6.1.3), summed about the first centroid
/// by the parallel-axis theorem, `C = (1/A) Σ (S_i + A_i d_i d_iᵀ) − d̄ d̄ᵀ`
/// with `d_i = c_i - c_0` and `d̄ = Σ A_i d_i / A`. `None` for no moments or
/// a zero or non-finite total area (where [`covariance_of_triangles`](super::covariance_of_triangles) falls
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
