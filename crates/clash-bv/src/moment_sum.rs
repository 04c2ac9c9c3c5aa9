//! OBB and RSS fits from a triangle set's summed moments
//! ([`crate::BoundingVolume::fit_triangles_with_moment_sum_over`]).
use crate::FitError;
use crate::obb_fit::{principal_axes, single_triangle_axes};
use clash_math::{Matrix3, Scalar, Triangle, TriangleMoments, covariance_of_moments};

/// The axes of the continuous-PCA fits (Eberly §6.1.3) from the moments of
/// the whole set summed into one (`sum`, e.g. by
/// [`TriangleMoments::union`]): a lone triangle's own frame, else the
/// principal axes of `sum`'s covariance; `None` when the total area is zero
/// or non-finite (degenerate or non-finite input).
fn axes_of_sum<T: Scalar>(
    triangles: &[Triangle<T>],
    sum: &TriangleMoments<T>,
) -> Option<Matrix3<T>> {
    if sum.area <= T::ZERO || !sum.area.finite() {
        return None;
    }
    match triangles {
        [t] => single_triangle_axes(t),
        _ => covariance_of_moments(core::slice::from_ref(sum)).map(|c| principal_axes(&c.matrix)),
    }
}

/// Fits `along` the axes of the summed moments, or takes `fallback` (the
/// checked fit over the triangles) on degenerate or non-finite input;
/// [`FitError::Empty`] without triangles.
pub(crate) fn fit_with_sum_axes<T: Scalar, V>(
    triangles: &[Triangle<T>],
    sum: &TriangleMoments<T>,
    along: impl FnOnce(&Matrix3<T>) -> V,
    fallback: impl FnOnce() -> Result<V, FitError>,
) -> Result<V, FitError> {
    if triangles.is_empty() {
        return Err(FitError::Empty);
    }
    match axes_of_sum(triangles, sum) {
        Some(axes) => Ok(along(&axes)),
        None => fallback(),
    }
}

#[cfg(test)]
mod tests {
    use crate::{BoundingVolume, FitError, IndexedPoints, Obb, Rss};
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

    /// From the union of the moments the boxes hold every corner, match
    /// the per-triangle moment fit to rounding in the axes, and a lone
    /// triangle gets exactly the per-triangle fit; degenerate input takes
    /// the checked path and no triangles is an error.
    #[test]
    fn summed_moment_fits() {
        let (corners, tris) = soup(40);
        let ids: Vec<u32> = (0..corners.len() as u32).collect();
        let points = IndexedPoints::new(&corners, &ids).unwrap();
        let moms: Vec<_> = tris.iter().map(TriangleMoments::new).collect();
        let sum = moms[1..].iter().fold(moms[0], |s, m| s.union(m));
        let obb = Obb::fit_triangles_with_moment_sum_over(&tris, &sum, &points).unwrap();
        let rss = Rss::fit_triangles_with_moment_sum_over(&tris, &sum, &points).unwrap();
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
        assert_eq!(
            Obb::fit_triangles_with_moment_sum_over(&tris[..1], &moms[0], &one).unwrap(),
            Obb::fit_triangles_with_moments_over(&tris[..1], &moms[..1], &one).unwrap()
        );
        assert_eq!(
            Rss::fit_triangles_with_moment_sum_over(&tris[..1], &moms[0], &one).unwrap(),
            Rss::fit_triangles_with_moments_over(&tris[..1], &moms[..1], &one).unwrap()
        );
        // Degenerate: every corner on a line.
        let p = |x: f64| Point3::new(x, 2.0 * x, 0.0);
        let flat = vec![
            Triangle::new(p(0.0), p(1.0), p(2.0)),
            Triangle::new(p(3.0), p(4.0), p(5.0)),
        ];
        let fm: Vec<_> = flat.iter().map(TriangleMoments::new).collect();
        let fc: Vec<Point3<f64>> = flat.iter().flat_map(|t| t.vertices()).collect();
        let fi: Vec<u32> = (0..6).collect();
        let fp = IndexedPoints::new(&fc, &fi).unwrap();
        let o = Obb::fit_triangles_with_moment_sum_over(&flat, &fm[0].union(&fm[1]), &fp).unwrap();
        assert_eq!(o, Obb::fit_pca_triangles(&flat).unwrap());
        assert_eq!(
            Obb::fit_triangles_with_moment_sum_over(&[], &fm[0], &fp).unwrap_err(),
            FitError::Empty
        );
        // Non-finite input: the checked path's typed error.
        let nan = [Triangle::new(p(f64::NAN), p(1.0), p(2.0)), flat[1]];
        let nm = TriangleMoments::new(&nan[0]).union(&fm[1]);
        assert!(matches!(
            Rss::fit_triangles_with_moment_sum_over(&nan, &nm, &fp),
            Err(FitError::NonFinite { .. })
        ));
    }
}
