//! [`FitScratch`]: memory a fit along axes reuses from one call to the next.
use clash_math::Scalar;

/// Memory reused by [`crate::FitVolume::fit_along_axes_with`] from one
/// fit to the next: the RSS fit stores its points' coordinates in the
/// frame on its first pass and reads them back on the next two, instead of
/// computing them three times. A tree builder keeps one per thread of work,
/// so fitting its nodes allocates nothing once the largest node has been
/// fitted.
///
/// ```
/// use clash_bv::{BoundingVolume, FitScratch, FitVolume, IndexedPoints, Rss};
/// use clash_math::{Matrix3, Point3};
/// let v = [
///     Point3::new(0.0_f64, 0.0, 0.0),
///     Point3::new(2.0, 0.0, 0.0),
///     Point3::new(0.0, 1.0, 0.0),
///     Point3::new(2.0, 1.0, 0.1),
///     Point3::new(1.0, 0.5, -0.1),
/// ];
/// let ids = [0, 1, 2, 3, 4];
/// let points = IndexedPoints::new(&v, &ids).unwrap();
/// let mut scratch = FitScratch::new();
/// let rss = Rss::fit_along_axes_with(&Matrix3::identity(), &points, &mut scratch).unwrap();
/// assert!(v.iter().all(|p| rss.contains_point(p)));
/// assert_eq!(Some(rss), Rss::fit_along_axes(&Matrix3::identity(), &points));
/// ```
pub struct FitScratch<T: Scalar> {
    /// The coordinates of two points at a time, x, y and z lanes.
    pub(crate) coords: Vec<[T::Pair; 3]>,
}

impl<T: Scalar> FitScratch<T> {
    /// Empty scratch (allocates on first use).
    pub fn new() -> Self {
        Self { coords: Vec::new() }
    }
}

impl<T: Scalar> Default for FitScratch<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Scalar> core::fmt::Debug for FitScratch<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FitScratch")
            .field("capacity", &self.coords.capacity())
            .finish()
    }
}
