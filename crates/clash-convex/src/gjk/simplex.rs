//! The GJK simplex: up to four support points with the barycentric
//! coordinates of the current closest point (RTCD §9.5.2–9.5.3).
//!
//! The points of the difference (`w`) and of each shape (`a`, `b`) are kept
//! in separate arrays: the sub-algorithm reads the `w`s in place (a
//! candidate point is written into the free slot and only kept when it
//! helps), and reducing the simplex moves only the points that stay.

use super::minkowski::SupportPoint;
use super::signed_volumes::{self, Projection};
use clash_math::{Point3, Scalar, Vector3};

/// Up to four support points; `lambda` are the barycentric coordinates of
/// the closest point found on them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Simplex<T: Scalar> {
    w: [Vector3<T>; 4],
    a: [Point3<T>; 4],
    b: [Point3<T>; 4],
    lambda: [T; 4],
    pub len: usize,
}

impl<T: Scalar> Simplex<T> {
    /// The simplex of one point.
    #[inline]
    pub fn single(p: SupportPoint<T>) -> Self {
        let mut s = Self {
            w: [Vector3::zeros(); 4],
            a: [Point3::origin(); 4],
            b: [Point3::origin(); 4],
            lambda: [T::ZERO; 4],
            len: 1,
        };
        s.w[0] = p.w;
        s.a[0] = p.a;
        s.b[0] = p.b;
        s.lambda[0] = T::ONE;
        s
    }

    /// Point `i`.
    #[inline]
    pub fn point(&self, i: usize) -> SupportPoint<T> {
        SupportPoint {
            w: self.w[i],
            a: self.a[i],
            b: self.b[i],
        }
    }

    /// `true` when `w` is (bit for bit) one of the simplex's points.
    #[inline]
    pub fn contains(&self, w: &Vector3<T>) -> bool {
        self.w[..self.len].iter().any(|p| p == w)
    }

    /// The closest point of the hull of the simplex with a point `w` added.
    /// `w` goes into the free slot; the simplex keeps it only through
    /// [`Self::commit`].
    #[inline]
    pub fn project_with(&mut self, w: &Vector3<T>) -> Projection<T> {
        self.w[self.len] = *w;
        match self.len + 1 {
            1 => Projection::vertex(&self.w, 0),
            2 => signed_volumes::segment(&self.w, 0, 1),
            3 => signed_volumes::triangle(&self.w, 0, 1, 2),
            _ => signed_volumes::tetrahedron(&self.w),
        }
    }

    /// Keeps `p` (just projected by [`Self::project_with`]) and the points
    /// of `proj`, with their coordinates.
    #[inline]
    pub fn commit(&mut self, p: SupportPoint<T>, proj: &Projection<T>) {
        self.w[self.len] = p.w;
        self.a[self.len] = p.a;
        self.b[self.len] = p.b;
        self.len += 1;
        let mut n = 0;
        for i in 0..self.len {
            if proj.set & (1 << i) != 0 {
                if n != i {
                    self.w[n] = self.w[i];
                    self.a[n] = self.a[i];
                    self.b[n] = self.b[i];
                }
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
        for i in 0..self.len {
            a += self.a[i].coords * self.lambda[i];
            b += self.b[i].coords * self.lambda[i];
        }
        (Point3::from(a), Point3::from(b))
    }
}
