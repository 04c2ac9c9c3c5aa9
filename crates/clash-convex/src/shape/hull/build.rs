//! Building a [`ConvexHull`]: Quickhull, then vertex adjacency, merged
//! polygons and local bounding volumes.

use super::{ConvexHull, polygons};
use crate::error::ShapeError;
use crate::scale::{PowerOfTwo, to_unit};
use clash_bv::{Aabb, BoundingVolume, Obb, Sphere};
use clash_math::{MathError, Point3, Scalar, Vector3, point_is_finite};

/// The hull of `points`, built at unit size when they are far from it
/// (see [`crate::scale`]): the hull's vertices are the input points, so
/// scaling back gives them exactly.
pub(super) fn from_points<T: Scalar>(points: &[Point3<T>]) -> Result<ConvexHull<T>, ShapeError> {
    let m = points
        .iter()
        .map(|p| p.coords.amax())
        .fold(T::ZERO, |m, x| m.max_of(x));
    match to_unit(m) {
        Some(f) => {
            let unit: Vec<_> = points.iter().map(|p| f.point(p)).collect();
            Ok(scaled(unit_size(&unit)?, f.inverse()))
        }
        None => unit_size(points),
    }
}

/// The hull of points whose magnitude needs no scaling.
fn unit_size<T: Scalar>(points: &[Point3<T>]) -> Result<ConvexHull<T>, ShapeError> {
    let hull = clash_math::hull::ConvexHull::new(points).map_err(|e| match e {
        MathError::Empty => ShapeError::EmptyHull,
        MathError::NonFinite { index } => ShapeError::NonFinitePoint { index },
    })?;
    Ok(assemble(hull.vertices().to_vec(), hull.faces().to_vec()))
}

/// `hull` multiplied by `f` (a power of two: exact for the vertices).
fn scaled<T: Scalar>(mut hull: ConvexHull<T>, f: PowerOfTwo<T>) -> ConvexHull<T> {
    for v in &mut hull.vertices {
        *v = f.point(v);
    }
    hull.center = f.point(&hull.center);
    hull.extent = f.apply(hull.extent);
    hull.local_obb.center = f.point(&hull.local_obb.center);
    hull.local_obb.half_extents = f.vector(&hull.local_obb.half_extents);
    hull.local_sphere = Sphere::new(
        f.point(&hull.local_sphere.center),
        f.apply(hull.local_sphere.radius),
    );
    hull
}

/// The hull of the vertices used by `triangles`.
pub(super) fn from_triangles<T: Scalar>(
    vertices: &[Point3<T>],
    triangles: &[[u32; 3]],
) -> Result<ConvexHull<T>, ShapeError> {
    if triangles.is_empty() {
        return Err(ShapeError::EmptyHull);
    }
    let mut used = vec![false; vertices.len()];
    for (t, tri) in triangles.iter().enumerate() {
        for &i in tri {
            let Some(u) = used.get_mut(i as usize) else {
                return Err(ShapeError::IndexOutOfRange {
                    triangle: t,
                    index: i,
                    vertices: vertices.len(),
                });
            };
            *u = true;
        }
    }
    let mut points = Vec::new();
    for (i, (p, &u)) in vertices.iter().zip(&used).enumerate() {
        if u {
            if !point_is_finite(p) {
                return Err(ShapeError::NonFinitePoint { index: i });
            }
            points.push(*p);
        }
    }
    from_points(&points)
}

/// The hull's derived data from its vertices and triangles.
fn assemble<T: Scalar>(vertices: Vec<Point3<T>>, triangles: Vec<[u32; 3]>) -> ConvexHull<T> {
    let n = vertices.len();
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n];
    if triangles.is_empty() {
        // A flat hull's vertices run around its polygon (or are a segment's ends).
        if n == 2 {
            lists[0].push(1);
            lists[1].push(0);
        } else if n >= 3 {
            for (i, l) in lists.iter_mut().enumerate() {
                l.push(((i + n - 1) % n) as u32);
                l.push(((i + 1) % n) as u32);
            }
        }
    } else {
        for t in &triangles {
            for k in 0..3 {
                lists[t[k] as usize].push(t[(k + 1) % 3]);
            }
        }
    }
    let mut neighbour_start = Vec::with_capacity(n + 1);
    let mut neighbours = Vec::new();
    neighbour_start.push(0);
    for l in &mut lists {
        l.sort_unstable();
        l.dedup();
        neighbours.extend_from_slice(l);
        neighbour_start.push(neighbours.len() as u32);
    }
    let faces = polygons::merge(&vertices, &triangles);

    let mut sum = Vector3::zeros();
    let mut extent = T::ZERO;
    for v in &vertices {
        sum += v.coords;
        extent = extent.max_of(v.coords.norm());
    }
    let center = Point3::from(sum / T::lit(n as f64));
    let aabb = Aabb::from_points(&vertices).expect("hull vertices are finite and not empty");
    let local_obb = Obb::fit_tight(&vertices).unwrap_or_else(|_| aabb.bounding_obb());
    let local_sphere = Sphere::welzl(&vertices)
        .unwrap_or_else(|_| Sphere::new(center, extent + center.coords.norm()));
    ConvexHull {
        vertices,
        triangles,
        neighbour_start,
        neighbours,
        polygon_start: faces.start,
        polygon_vertices: faces.vertices,
        polygon_normals: faces.normals,
        center,
        extent,
        local_obb,
        local_sphere,
        margin: T::ZERO,
    }
}
