//! Support points of the Minkowski difference `A - B`, with `B` placed in
//! `A`'s frame (RTCD §9.5.1; the direction, not the shape, is rotated into
//! `B`'s frame, §9.5.6).

use crate::support::SupportMap;
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Vector3};

/// A point `w = a - b` of the Minkowski difference with the points `a` of
/// `A` and `b` of `B` it came from, all in `A`'s frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SupportPoint<T: Scalar> {
    pub w: Vector3<T>,
    pub a: Point3<T>,
    pub b: Point3<T>,
}

impl<T: Scalar> Default for SupportPoint<T> {
    fn default() -> Self {
        Self {
            w: Vector3::zeros(),
            a: Point3::origin(),
            b: Point3::origin(),
        }
    }
}

/// Two shapes, `B` placed in `A`'s frame by a rotation matrix and a
/// translation, with the hill-climbing hints of both.
pub(crate) struct MinkowskiPair<'a, T: Scalar, A: ?Sized, B: ?Sized> {
    pub a: &'a A,
    pub b: &'a B,
    /// `B`'s axes in `A`'s frame.
    pub rot: Matrix3<T>,
    /// `B`'s origin in `A`'s frame.
    pub trans: Vector3<T>,
    pub hint_a: u32,
    pub hint_b: u32,
}

impl<'a, T: Scalar, A: SupportMap<T> + ?Sized, B: SupportMap<T> + ?Sized>
    MinkowskiPair<'a, T, A, B>
{
    /// The pair with `B` at `pose_b` seen from `A` at `pose_a`.
    #[inline]
    pub fn new(
        a: &'a A,
        pose_a: &Isometry3<T>,
        b: &'a B,
        pose_b: &Isometry3<T>,
        hints: [u32; 2],
    ) -> Self {
        let rel = pose_a.inv_mul(pose_b);
        Self {
            a,
            b,
            rot: rel.rotation.to_rotation_matrix().into_inner(),
            trans: rel.translation.vector,
            hint_a: hints[0],
            hint_b: hints[1],
        }
    }

    /// The point of `A - B` farthest along `d` (not necessarily unit).
    #[inline]
    pub fn support(&mut self, d: &Vector3<T>) -> SupportPoint<T> {
        let a = self.a.support_point_hinted(d, &mut self.hint_a);
        let db = -self.rot.tr_mul(d);
        let b_local = self.b.support_point_hinted(&db, &mut self.hint_b);
        let b = Point3::from(self.rot * b_local.coords + self.trans);
        SupportPoint { w: a - b, a, b }
    }

    /// `B`'s point `p` (in `B`'s frame) seen in `A`'s frame.
    #[inline]
    pub fn b_to_a(&self, p: &Point3<T>) -> Point3<T> {
        Point3::from(self.rot * p.coords + self.trans)
    }

    /// The sum of both margins.
    #[inline]
    pub fn margins(&self) -> T {
        self.a.margin() + self.b.margin()
    }

    /// The size relative tolerances scale with: both cores' extents and
    /// margins.
    #[inline]
    pub fn size(&self) -> T {
        self.a.extent() + self.b.extent() + self.margins()
    }

    /// The magnitude of the coordinates the differences are computed from:
    /// the size plus the distance between the frames, for rounding bounds.
    #[inline]
    pub fn magnitude(&self) -> T {
        self.size() + self.trans.norm()
    }

    /// The difference of the shapes' centres: a good first direction
    /// (RTCD §9.5.5).
    #[inline]
    pub fn center_difference(&self) -> Vector3<T> {
        self.a.center() - self.b_to_a(&self.b.center())
    }
}
