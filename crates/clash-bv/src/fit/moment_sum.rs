//! The OBB and RSS fit axes of a triangle set from its moments summed by
//! union ([`principal_axes_of_moment_union`]).
use crate::fit::axes::{principal_axes, single_triangle_axes};
use clash_math::{Matrix3, Scalar, Triangle, TriangleMoments, covariance_of_moments};

/// The axes of the default OBB and RSS fits (continuous PCA, Eberly
/// §6.1.3) of `triangles` from their moments summed into one (`sum`, the
/// fold of their [`TriangleMoments`] by [`TriangleMoments::union`] in any
/// grouping, e.g. a tree node's as the union of its children's): a lone
/// triangle's own frame ([`crate::lone_triangle_axes`]), else the principal
/// axes of `sum`'s covariance, equal to those of the per-triangle moments
/// up to rounding. With them, [`crate::FitVolume::fit_along_axes`]
/// fits a node at a cost independent of its size. `None` when the total
/// area is zero or non-finite (degenerate or non-finite input, or no
/// triangles): the checked fit over the triangles then applies.
pub fn principal_axes_of_moment_union<T: Scalar>(
    triangles: &[Triangle<T>],
    sum: &TriangleMoments<T>,
) -> Option<Matrix3<T>> {
    if triangles.is_empty() || sum.area <= T::ZERO || !sum.area.finite() {
        return None;
    }
    match triangles {
        [t] => single_triangle_axes(t),
        _ => covariance_of_moments(core::slice::from_ref(sum)).map(|c| principal_axes(&c.matrix)),
    }
}

#[cfg(test)]
mod tests {
    use super::principal_axes_of_moment_union;
    use crate::{BoundingVolume, FitVolume, IndexedPoints, Obb, Rss};
    use clash_math::{Point3, Triangle, TriangleMoments};

    fn soup(n: usize) -> (Vec<Point3<f64>>, Vec<Triangle<f64>>) {
        let h = |i: usize, s: usize| ((i * 7919 + s * 104_729) % 1009) as f64 * 0.01;
        let tris: Vec<Triangle<f64>> = (0..n)
            .map(|i| {
                let p = Point3::new(h(i, 1), h(i, 2) * 0.3, h(i, 3) * 0.1);
                Triangle::new(
                    p,
                    Point3::new(p.x + 0.3, p.y, p.z + h(i, 4) * 0.01),
                    Point3::new(p.x, p.y + 0.2, p.z),
                )
            })
            .collect();
        (tris.iter().flat_map(|t| t.vertices()).collect(), tris)
    }

    /// Along the axes of the union of the moments, the boxes hold every
    /// corner and match the per-triangle moment fit to rounding in the
    /// axes; a lone triangle gets exactly the per-triangle fit; degenerate,
    /// non-finite and empty input gives no axes (the checked fit applies).
    #[test]
    fn summed_moment_fits() {
        let (corners, tris) = soup(40);
        let ids: Vec<u32> = (0..corners.len() as u32).collect();
        let points = IndexedPoints::new(&corners, &ids).unwrap();
        let moms: Vec<_> = tris.iter().map(TriangleMoments::new).collect();
        let sum = moms[1..].iter().fold(moms[0], |s, m| s.union(m));
        let axes = principal_axes_of_moment_union(&tris, &sum).unwrap();
        let obb = Obb::fit_along_axes(&axes, &points).unwrap();
        let rss = Rss::fit_along_axes(&axes, &points).unwrap();
        for p in &corners {
            assert!(obb.contains_point(p) && rss.contains_point(p));
        }
        let want = Obb::fit_triangles_with_moments(&tris, &moms).unwrap();
        assert!((obb.half_extents - want.half_extents).norm() < 1e-9);
        assert!((obb.volume() - want.volume()).abs() < 1e-9 * want.volume());
        let rss_want = Rss::fit_triangles_with_moments(&tris, &moms).unwrap();
        assert!((rss.volume() - rss_want.volume()).abs() < 1e-9 * rss_want.volume());
        // One triangle: its own frame, as the per-triangle fit.
        let one = IndexedPoints::new(&corners, &ids[..3]).unwrap();
        let lone = principal_axes_of_moment_union(&tris[..1], &moms[0]).unwrap();
        assert_eq!(
            Obb::fit_along_axes(&lone, &one).unwrap(),
            Obb::fit_triangles_with_moments_over(&tris[..1], &moms[..1], &one).unwrap()
        );
        assert_eq!(
            Rss::fit_along_axes(&lone, &one).unwrap(),
            Rss::fit_triangles_with_moments_over(&tris[..1], &moms[..1], &one).unwrap()
        );
        // Degenerate: every corner on a line.
        let p = |x: f64| Point3::new(x, 2.0 * x, 0.0);
        let flat = vec![
            Triangle::new(p(0.0), p(1.0), p(2.0)),
            Triangle::new(p(3.0), p(4.0), p(5.0)),
        ];
        let fm: Vec<_> = flat.iter().map(TriangleMoments::new).collect();
        assert_eq!(
            principal_axes_of_moment_union(&flat, &fm[0].union(&fm[1])),
            None
        );
        assert_eq!(principal_axes_of_moment_union::<f64>(&[], &sum), None);
        // Non-finite input.
        let nan = [Triangle::new(p(f64::NAN), p(1.0), p(2.0)), flat[1]];
        let nm = TriangleMoments::new(&nan[0]).union(&fm[1]);
        assert_eq!(principal_axes_of_moment_union(&nan, &nm), None);
    }
}
