//! The GJK simplex: up to four support points with the barycentric
//! coordinates of the current closest point (RTCD §9.5.2–9.5.3).

use super::minkowski::SupportPoint;
use super::signed_volumes::{self, Projection};
use clash_math::{Point3, Scalar, Vector3};

/// Up to four support points; `lambda` are the barycentric coordinates of
/// the closest point found on them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Simplex<T: Scalar> {
    pub pts: [SupportPoint<T>; 4],
    pub lambda: [T; 4],
    pub len: usize,
}

impl<T: Scalar> Simplex<T> {
    /// The simplex of one point.
    #[inline]
    pub fn single(p: SupportPoint<T>) -> Self {
        let mut s = Self {
            pts: [SupportPoint::default(); 4],
            lambda: [T::ZERO; 4],
            len: 1,
        };
        s.pts[0] = p;
        s.lambda[0] = T::ONE;
        s
    }

    /// The simplex's points.
    #[inline]
    pub fn points(&self) -> &[SupportPoint<T>] {
        &self.pts[..self.len]
    }

    /// `true` when `w` is (bit for bit) one of the simplex's points.
    #[inline]
    pub fn contains(&self, w: &Vector3<T>) -> bool {
        self.points().iter().any(|p| p.w == *w)
    }

    /// The closest point of the hull of the simplex with `p` added, and the
    /// simplex it reduces to (`self` is left unchanged).
    #[inline]
    pub fn with_point(&self, p: SupportPoint<T>) -> (Simplex<T>, Projection<T>) {
        let mut s = *self;
        s.pts[s.len] = p;
        s.len += 1;
        let w = [s.pts[0].w, s.pts[1].w, s.pts[2].w, s.pts[3].w];
        let proj = match s.len {
            1 => {
                let mut lambda = [T::ZERO; 4];
                lambda[0] = T::ONE;
                Projection {
                    v: w[0],
                    vv: w[0].norm_squared(),
                    lambda,
                    set: 1,
                }
            }
            2 => signed_volumes::segment(&w, 0, 1),
            3 => signed_volumes::triangle(&w, 0, 1, 2),
            _ => signed_volumes::tetrahedron(&w),
        };
        s.reduce(&proj);
        (s, proj)
    }

    /// Keeps the points in `proj.set`, with their coordinates.
    #[inline]
    fn reduce(&mut self, proj: &Projection<T>) {
        let mut n = 0;
        for i in 0..self.len {
            if proj.set & (1 << i) != 0 {
                self.pts[n] = self.pts[i];
                self.lambda[n] = proj.lambda[i];
                n += 1;
            }
        }
        self.len = n;
    }

    /// The witness points `(Σ λ a_i, Σ λ b_i)` (RTCD §9.5.3).
    #[inline]
    pub fn witnesses(&self) -> (Point3<T>, Point3<T>) {
        let mut a = Vector3::zeros();
        let mut b = Vector3::zeros();
        for (p, &l) in self.points().iter().zip(&self.lambda) {
            a += p.a.coords * l;
            b += p.b.coords * l;
        }
        (Point3::from(a), Point3::from(b))
    }
}
