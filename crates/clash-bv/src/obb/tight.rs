//! Volume-minimising refinement of PCA boxes (RTCD §4.4.4–4.4.5; Eberly
//! §6.1.1 on why PCA alone is not optimal).
//!
//! The exact minimum-volume box (O'Rourke's algorithm) is cubic in the hull
//! size; instead, candidate axes are taken from the principal axes and the
//! normals of the largest hull faces, and for each axis `n` the hull is
//! projected on the plane orthogonal to `n` where the minimum-area rectangle
//! (rotating calipers, `min_area_rect.rs`) fixes the other two axes.
//! The best box is then refined axis by axis until no step shrinks it. The
//! PCA boxes are candidates too, so the result is never larger than them.
use super::min_area_rect::{hull_2d, min_area_direction};
use crate::fit::axes::{any_orthogonal, principal_axes, single_triangle_axes};
use crate::fit::check::{check_points, triangle_corners};
use crate::{BoundingVolume, FitError, Obb};
use clash_math::hull::ConvexHull;
use clash_math::{
    Matrix3, Point3, Scalar, Triangle, Vector3, covariance_of_convex_hull, covariance_of_hull,
    covariance_of_points, covariance_of_triangles,
};

/// How many of the largest hull faces lend their normals as candidate axes.
const FACE_CANDIDATES: usize = 48;
/// Rounds of axis-by-axis refinement of the best box.
const REFINE_ROUNDS: usize = 4;

impl<T: Scalar> Obb<T> {
    /// Tight box of a point set: the smallest of the PCA boxes (points and
    /// hull) and the minimum-area-rectangle refinements around candidate axes
    /// (RTCD §4.4.4–4.4.5). Never larger than [`Obb::fit_pca_points`] or
    /// [`Obb::fit_pca_hull`].
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn fit_tight(points: &[Point3<T>]) -> Result<Self, FitError> {
        check_points(points)?;
        let hull = ConvexHull::new(points).ok();
        let seeds = vec![
            principal_axes(&covariance_of_points(points)?.matrix),
            principal_axes(&hull_covariance(points, hull.as_ref())?),
        ];
        Ok(tighten(points, &seeds, hull.as_ref()))
    }

    /// Tight box of a triangle set: as [`Obb::fit_tight`] on the corners,
    /// with the continuous-PCA axes (Eberly §6.1.3) as an extra seed, so the
    /// result is never larger than [`Obb::fit_pca_triangles`].
    ///
    /// # Errors
    /// [`FitError::Empty`] or [`FitError::NonFinite`].
    pub fn fit_tight_triangles(triangles: &[Triangle<T>]) -> Result<Self, FitError> {
        let corners = triangle_corners(triangles)?;
        let hull = ConvexHull::new(&corners).ok();
        let mut seeds = vec![
            principal_axes(&covariance_of_triangles(triangles)?.matrix),
            principal_axes(&covariance_of_points(&corners)?.matrix),
            principal_axes(&hull_covariance(&corners, hull.as_ref())?),
        ];
        // The frame `fit_pca_triangles` uses for a lone triangle.
        if let [t] = triangles {
            seeds.extend(single_triangle_axes(t));
        }
        Ok(tighten(&corners, &seeds, hull.as_ref()))
    }
}

/// The covariance of the points' hull, from `hull` when it could be built
/// (one hull serves both the seed and [`tighten`]).
fn hull_covariance<T: Scalar>(
    points: &[Point3<T>],
    hull: Option<&ConvexHull<T>>,
) -> Result<Matrix3<T>, FitError> {
    Ok(match hull {
        Some(h) => covariance_of_convex_hull(h)?.matrix,
        None => covariance_of_hull(points)?.matrix,
    })
}

fn tighten<T: Scalar>(
    points: &[Point3<T>],
    seeds: &[Matrix3<T>],
    hull: Option<&ConvexHull<T>>,
) -> Obb<T> {
    // The box of the hull vertices is the box of the points (boxes are convex).
    let hv: &[Point3<T>] = hull.map_or(points, |h| h.vertices());
    let consider = |b: Obb<T>, best: &mut Obb<T>| {
        if b.volume() < best.volume() {
            *best = b;
        }
    };
    // The seeds' boxes over all points, exactly as the PCA fits compute them.
    let mut baseline = Obb::from_axes_and_points(&seeds[0], points);
    for s in &seeds[1..] {
        consider(Obb::from_axes_and_points(s, points), &mut baseline);
    }
    let mut best = Obb::from_axes_and_points(&baseline.axes, hv);
    let mut axes: Vec<Vector3<T>> = seeds
        .iter()
        .flat_map(|s| {
            [
                s.column(0).into_owned(),
                s.column(1).into_owned(),
                s.column(2).into_owned(),
            ]
        })
        .collect();
    if let Some(h) = hull {
        let mut faces: Vec<(T, Vector3<T>)> = h
            .triangles()
            .iter()
            .filter_map(|t| Some((t.area(), t.normal()?)))
            .collect();
        faces.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(core::cmp::Ordering::Equal));
        axes.extend(faces.iter().take(FACE_CANDIDATES).map(|f| f.1));
    }
    for n in &axes {
        if let Some(b) = rectangle_box(n, hv) {
            consider(b, &mut best);
        }
    }
    for _ in 0..REFINE_ROUNDS {
        let before = best.volume();
        for k in 0..3 {
            let n = best.axes.column(k).into_owned();
            if let Some(b) = rectangle_box(&n, hv) {
                consider(b, &mut best);
            }
        }
        if best.volume() >= before {
            break;
        }
    }
    let refined = Obb::from_axes_and_points(&best.axes, points);
    if refined.volume() < baseline.volume() {
        refined
    } else {
        baseline
    }
}

/// The box with one axis `n` whose other two axes are those of the
/// minimum-area rectangle of the points projected on the plane orthogonal to `n`.
fn rectangle_box<T: Scalar>(n: &Vector3<T>, pts: &[Point3<T>]) -> Option<Obb<T>> {
    let n = n.try_normalize(T::ZERO)?;
    let e1 = any_orthogonal(&n);
    let e2 = n.cross(&e1);
    let o = pts[0];
    let flat: Vec<[f64; 2]> = pts
        .iter()
        .map(|p| [(p - o).dot(&e1).to_f64(), (p - o).dot(&e2).to_f64()])
        .collect();
    let h = hull_2d(&flat);
    let (c, s) = match min_area_direction(&h) {
        Some((u, _)) => (T::lit(u[0]), T::lit(u[1])),
        None if h.len() == 2 => {
            let (dx, dy) = (h[1][0] - h[0][0], h[1][1] - h[0][1]);
            let l = (dx * dx + dy * dy).sqrt();
            (T::lit(dx / l), T::lit(dy / l))
        }
        None => (T::ONE, T::ZERO),
    };
    let a1 = (e1 * c + e2 * s).try_normalize(T::ZERO)?;
    let a2 = n.cross(&a1);
    Some(Obb::from_axes_and_points(
        &Matrix3::from_columns(&[a1, a2, n]),
        pts,
    ))
}
