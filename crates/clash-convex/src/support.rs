//! The [`SupportMap`] trait: a convex shape as GJK and EPA see it.

use crate::shape::ShapeRef;
use clash_math::{Point3, Scalar, Vector3};

/// A convex shape given by its support mapping (Ericson, RTCD §3.8 and
/// §9.5.1): the point of the shape farthest in a direction, in the shape's
/// own (local) frame.
///
/// A shape is its *core* grown by a ball of radius [`Self::margin`]: a ball
/// is a point with a margin, a capsule a segment with one, a rounded box a
/// box with one. The queries work on the cores and add the margins
/// exactly, so round parts cost nothing.
///
/// Implement it for your own convex shapes; every query in
/// [`crate::query`] accepts any two `SupportMap`s.
///
/// ```
/// use clash_convex::{SupportMap, query::{distance, QueryRequest}};
/// use clash_math::{Isometry3, Point3, Vector3};
///
/// /// An axis-aligned unit square in the plane z = 0.
/// struct Square;
/// impl SupportMap<f64> for Square {
///     fn support_point(&self, d: &Vector3<f64>) -> Point3<f64> {
///         Point3::new(d.x.signum(), d.y.signum(), 0.0)
///     }
///     fn extent(&self) -> f64 { 2f64.sqrt() }
/// }
/// let r = distance(&Square, &Isometry3::identity(), &Square,
///                  &Isometry3::translation(0.0, 0.0, 3.0), &QueryRequest::default());
/// assert!((r.distance - 3.0).abs() < 1e-12);
/// ```
pub trait SupportMap<T: Scalar> {
    /// A point of the core with the largest dot product with `dir`, in the
    /// local frame. `dir` need not be unit; for a zero `dir` any point of
    /// the core. Must be finite for finite `dir`.
    fn support_point(&self, dir: &Vector3<T>) -> Point3<T>;

    /// [`Self::support_point`] starting from a hint (a vertex index that
    /// hill climbing starts from, RTCD §9.5.4) and leaving in it the index of
    /// the vertex returned, so that the next call in a nearby direction
    /// starts there (RTCD §9.5.5). Shapes without vertices ignore it.
    #[inline]
    fn support_point_hinted(&self, dir: &Vector3<T>, hint: &mut u32) -> Point3<T> {
        let _ = hint;
        self.support_point(dir)
    }

    /// Radius of the ball the core is grown by (0 by default).
    #[inline]
    fn margin(&self) -> T {
        T::ZERO
    }

    /// A point of the core, preferably central: where GJK starts from.
    #[inline]
    fn center(&self) -> Point3<T> {
        Point3::origin()
    }

    /// The largest distance from the local origin to a point of the core:
    /// the size that relative tolerances are measured against.
    fn extent(&self) -> T;

    /// The built-in shape this is, if any: lets the queries use closed forms
    /// (sphere/sphere, box/box, ...) instead of GJK. `None` by default.
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        None
    }

    /// The support point of the whole shape (core and margin) for a non-zero
    /// `dir`.
    #[inline]
    fn support_point_with_margin(&self, dir: &Vector3<T>) -> Point3<T> {
        let p = self.support_point(dir);
        let m = self.margin();
        let n = dir.norm();
        if m > T::ZERO && n > T::ZERO {
            p + dir * (m / n)
        } else {
            p
        }
    }
}

impl<T: Scalar, S: SupportMap<T> + ?Sized> SupportMap<T> for &S {
    #[inline]
    fn support_point(&self, dir: &Vector3<T>) -> Point3<T> {
        (**self).support_point(dir)
    }
    #[inline]
    fn support_point_hinted(&self, dir: &Vector3<T>, hint: &mut u32) -> Point3<T> {
        (**self).support_point_hinted(dir, hint)
    }
    #[inline]
    fn margin(&self) -> T {
        (**self).margin()
    }
    #[inline]
    fn center(&self) -> Point3<T> {
        (**self).center()
    }
    #[inline]
    fn extent(&self) -> T {
        (**self).extent()
    }
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        (**self).shape_ref()
    }
}
