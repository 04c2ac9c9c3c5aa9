//! [`IndexedPoints`]: points picked from a vertex array by index.
use crate::FitError;
use crate::fit::lanes::pair_of;
use crate::fit::point_set::PointSet;
use clash_math::lanes::Lanes;
use clash_math::{Point3, Scalar};

/// Points picked from a vertex array by index, each index naming
/// `vertices[index]`: how a tree builder hands a node's distinct triangle
/// corners to [`crate::FitVolume::fit_triangles_with_moments_over`].
/// On a closed mesh a node of `n` triangles has about `n / 2` distinct
/// corners against `3 n` corners counted per triangle, so the passes that
/// take a fit's extents visit about six times fewer points.
#[derive(Clone, Copy, Debug)]
pub struct IndexedPoints<'a, T: Scalar> {
    vertices: &'a [Point3<T>],
    ids: &'a [u32],
}

impl<'a, T: Scalar> IndexedPoints<'a, T> {
    /// The points `vertices[i]` for `i` in `ids` (repeats allowed).
    ///
    /// # Errors
    /// [`FitError::Empty`] without indices, [`FitError::IndexOutOfRange`]
    /// for an index past the end of `vertices`.
    pub fn new(vertices: &'a [Point3<T>], ids: &'a [u32]) -> Result<Self, FitError> {
        if ids.is_empty() {
            return Err(FitError::Empty);
        }
        // One branch-free pass over the largest index (builders construct a
        // set per tree node); the offending index is looked up only on error.
        let len = vertices.len();
        if ids.iter().fold(0, |m: u32, &i| m.max(i)) as usize >= len
            && let Some(&index) = ids.iter().find(|&&i| i as usize >= len)
        {
            return Err(FitError::IndexOutOfRange {
                index,
                len: vertices.len(),
            });
        }
        Ok(Self { vertices, ids })
    }

    /// Number of indices.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// `false`: a set is never empty (checked at construction).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Point `i` of the set (`i < len`).
    #[inline(always)]
    pub(crate) fn point(&self, i: usize) -> Point3<T> {
        self.vertices[self.ids[i] as usize]
    }

    /// The points, in index order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Point3<T>> + '_ {
        self.ids.iter().map(|&i| self.vertices[i as usize])
    }
}

impl<T: Scalar> PointSet<T> for IndexedPoints<'_, T> {
    #[inline]
    fn first(&self) -> Point3<T> {
        self.vertices[self.ids[0] as usize]
    }
    #[inline]
    fn len(&self) -> usize {
        self.ids.len()
    }
    #[inline(always)]
    fn each(&self, mut f: impl FnMut(&Point3<T>)) {
        for &i in self.ids {
            f(&self.vertices[i as usize]);
        }
    }
    #[inline(always)]
    fn each_pair<L: Lanes<T>>(&self, mut f: impl FnMut([L; 3])) {
        let v = self.vertices;
        let mut pairs = self.ids.chunks_exact(2);
        for p in &mut pairs {
            f(pair_of(&v[p[0] as usize], &v[p[1] as usize]));
        }
        if let [i] = pairs.remainder() {
            let p = &v[*i as usize];
            f(pair_of(p, p));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::IndexedPoints;
    use crate::{Aabb, FitError, FitVolume, Obb, Rss};
    use clash_math::{Point3, Triangle, TriangleMoments};

    #[test]
    fn bad_indices_are_typed_errors() {
        let v = [Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0)];
        assert_eq!(IndexedPoints::new(&v, &[]).unwrap_err(), FitError::Empty);
        assert_eq!(
            IndexedPoints::new(&v, &[0, 2]).unwrap_err(),
            FitError::IndexOutOfRange { index: 2, len: 2 }
        );
        let p = IndexedPoints::new(&v, &[1, 0, 1]).unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!(p.iter().collect::<Vec<_>>(), vec![v[1], v[0], v[1]]);
    }

    /// Two triangles sharing an edge (a quad with a bent corner): fits over
    /// the four distinct vertices, first corner first, equal the fits over
    /// all six corners; volumes without an override ignore the points.
    #[test]
    fn fit_over_distinct_corners_equals_fit_over_every_corner() {
        let v = [
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(2.0, 0.1, 0.0),
            Point3::new(2.0, 1.0, 0.3),
            Point3::new(-0.1, 1.2, 0.0),
        ];
        let tris = [
            Triangle::new(v[0], v[1], v[2]),
            Triangle::new(v[0], v[2], v[3]),
        ];
        let moms = tris.map(|t| TriangleMoments::new(&t));
        let corners = IndexedPoints::new(&v, &[0, 1, 2, 3]).unwrap();
        assert_eq!(
            Obb::fit_triangles_with_moments_over(&tris, &moms, &corners).unwrap(),
            Obb::fit_triangles_with_moments(&tris, &moms).unwrap()
        );
        assert_eq!(
            Rss::fit_triangles_with_moments_over(&tris, &moms, &corners).unwrap(),
            Rss::fit_triangles_with_moments(&tris, &moms).unwrap()
        );
        assert_eq!(
            Aabb::fit_triangles_with_moments_over(&tris, &moms, &corners).unwrap(),
            Aabb::fit_triangles_with_moments(&tris, &moms).unwrap()
        );
        // Mismatched moments stay a typed error on this path too.
        assert!(matches!(
            Obb::fit_triangles_with_moments_over(&tris, &moms[..1], &corners),
            Err(FitError::MomentsMismatch { .. })
        ));
    }
}
