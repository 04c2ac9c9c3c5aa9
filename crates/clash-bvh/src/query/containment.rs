//! Containment of one closed mesh in another, for collision queries that ask
//! for it: FCL and coal report "no collision" for a mesh wholly inside
//! another, because no triangles intersect.

use crate::{Bvh, Containment};
use clash_bv::BoundingVolume;
use clash_math::{Isometry3, Point3, Scalar};

/// Winding number of a closed mesh around `p`: the sum of the solid angles
/// its triangles subtend at `p`, over 4π (Van Oosterom and Strackee's
/// formula). About ±1 inside, 0 outside, for points off the surface.
pub(crate) fn winding_number<T: Scalar, B: BoundingVolume<T>>(
    tree: &Bvh<T, B>,
    p: &Point3<T>,
) -> f64 {
    let p = [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()];
    let mut sum = 0.0f64;
    for t in tree.leaf_tris.iter() {
        let rel = |q: &Point3<T>| {
            [
                q.x.to_f64() - p[0],
                q.y.to_f64() - p[1],
                q.z.to_f64() - p[2],
            ]
        };
        let (a, b, c) = (rel(&t.a), rel(&t.b), rel(&t.c));
        let dot = |u: [f64; 3], v: [f64; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
        let norm = |u: [f64; 3]| dot(u, u).sqrt();
        let det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
            + a[2] * (b[0] * c[1] - b[1] * c[0]);
        let (la, lb, lc) = (norm(a), norm(b), norm(c));
        let denom = la * lb * lc + dot(a, b) * lc + dot(b, c) * la + dot(c, a) * lb;
        sum += 2.0 * det.atan2(denom);
    }
    sum / (4.0 * core::f64::consts::PI)
}

/// `true` when some connected piece of `inner` (placed by `inner_to_outer`)
/// lies inside the closed mesh `outer`. Valid when the two surfaces do not
/// intersect: then every piece is wholly inside or wholly outside, and one
/// vertex per piece decides.
fn piece_inside<T: Scalar, B: BoundingVolume<T>, B2: BoundingVolume<T>>(
    outer: &Bvh<T, B>,
    inner: &Bvh<T, B2>,
    inner_to_outer: &Isometry3<T>,
) -> bool {
    if !outer.is_closed() {
        return false;
    }
    inner.topology().component_vertices.iter().any(|&v| {
        let p = inner_to_outer * inner.mesh.vertices()[v as usize];
        winding_number(outer, &p).abs() > 0.5
    })
}

/// Containment of `b` (placed by `b_to_a`) in `a` or of `a` in `b`, for meshes
/// whose surfaces do not intersect. `O(n)` per connected piece of the inner mesh.
pub(crate) fn containment<T: Scalar, B: BoundingVolume<T>, B2: BoundingVolume<T>>(
    a: &Bvh<T, B>,
    b: &Bvh<T, B2>,
    b_to_a: &Isometry3<T>,
) -> Option<Containment> {
    if piece_inside(a, b, b_to_a) {
        Some(Containment::BInsideA)
    } else if piece_inside(b, a, &b_to_a.inverse()) {
        Some(Containment::AInsideB)
    } else {
        None
    }
}

/// One vertex index per connected piece of the mesh (pieces joined by shared
/// vertex indices), lowest index first.
pub(crate) fn component_vertices(indices: &[[u32; 3]], num_vertices: usize) -> Vec<u32> {
    let mut parent: Vec<u32> = (0..num_vertices as u32).collect();
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let p = parent[x as usize];
            parent[x as usize] = parent[p as usize];
            x = p;
        }
        x
    }
    let mut used = vec![false; num_vertices];
    for tri in indices {
        for &v in tri {
            used[v as usize] = true;
        }
        let r0 = find(&mut parent, tri[0]);
        for &v in &tri[1..] {
            let r = find(&mut parent, v);
            if r != r0 {
                let (lo, hi) = (r.min(r0), r.max(r0));
                parent[hi as usize] = lo;
            }
        }
        let _ = find(&mut parent, tri[0]);
    }
    (0..num_vertices as u32)
        .filter(|&v| used[v as usize] && find(&mut parent, v) == v)
        .collect()
}
