//! Vertices of a k-DOP by plane-triple intersection (RTCD §4.6.5 needs them
//! to realign a moved k-DOP), and its exact volume and area via their hull.
use crate::Kdop;
use clash_math::hull::ConvexHull;
use clash_math::{Matrix3, Point3, Scalar, Vector3};

/// The vertices of the polytope `min_i <= d_i · x <= max_i`: every
/// intersection point of three independent slab planes that satisfies all
/// slabs (with a tolerance for the rounding of the 3×3 solve). Computed in
/// `f64` whatever `T`. May contain duplicates.
pub(crate) fn vertices<T: Scalar, const N: usize>(k: &Kdop<T, N>) -> Vec<Point3<T>> {
    let dirs: Vec<Vector3<f64>> = Kdop::<f64, N>::directions().to_vec();
    // Planes: (normal, offset) for both sides of each slab.
    let mut planes: Vec<(Vector3<f64>, f64)> = Vec::with_capacity(2 * N);
    for (i, d) in dirs.iter().enumerate() {
        planes.push((*d, k.max[i].to_f64()));
        planes.push((-d, -k.min[i].to_f64()));
    }
    let scale = (0..N)
        .fold(0.0f64, |m, i| {
            m.max(k.min[i].to_f64().abs()).max(k.max[i].to_f64().abs())
        })
        .max(f64::MIN_POSITIVE);
    let tol = scale * 1e-9;
    let mut out = Vec::new();
    let m = planes.len();
    for a in 0..m {
        for b in a + 1..m {
            if b == a + 1 && a % 2 == 0 {
                continue; // the two sides of one slab are parallel
            }
            for c in b + 1..m {
                let mat = Matrix3::from_rows(&[
                    planes[a].0.transpose(),
                    planes[b].0.transpose(),
                    planes[c].0.transpose(),
                ]);
                if mat.determinant().abs() < 1e-9 {
                    continue;
                }
                let Some(inv) = mat.try_inverse() else {
                    continue;
                };
                let x = inv * Vector3::new(planes[a].1, planes[b].1, planes[c].1);
                if planes.iter().all(|(n, d)| n.dot(&x) <= d + tol) {
                    out.push(Point3::new(T::lit(x.x), T::lit(x.y), T::lit(x.z)));
                }
            }
        }
    }
    out
}

/// Volume and surface area of the k-DOP (0 and the flat area for
/// degenerate ones; 0 and 0 when the slabs are empty).
pub(crate) fn volume_and_area<T: Scalar, const N: usize>(k: &Kdop<T, N>) -> (T, T) {
    let v = vertices(k);
    let Ok(h) = ConvexHull::new(&v) else {
        return (T::ZERO, T::ZERO);
    };
    let tris = h.triangles();
    if tris.is_empty() {
        // Flat polygon: twice its area counts as surface (both sides).
        let p = h.vertices();
        let mut area = clash_math::Vector3::<T>::zeros();
        for i in 1..p.len().saturating_sub(1) {
            area += (p[i] - p[0]).cross(&(p[i + 1] - p[0]));
        }
        return (T::ZERO, area.norm());
    }
    let o = h.vertices()[0];
    let mut vol = T::ZERO;
    let mut area = T::ZERO;
    for t in &tris {
        vol += (t.a - o).dot(&(t.b - o).cross(&(t.c - o)));
        area += t.area();
    }
    (vol / T::lit(6.0), area)
}
