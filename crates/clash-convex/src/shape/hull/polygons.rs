//! The polygonal faces of a hull: neighbouring triangles that are exactly
//! coplanar (by the exact `orient3d`) merged, for clipping contact manifolds.

use clash_math::predicates::orient3d;
use clash_math::{Point3, Scalar, Vector3};
use std::collections::HashMap;

/// Polygons in compressed rows.
pub(super) struct Polygons<T: Scalar> {
    pub start: Vec<u32>,
    pub vertices: Vec<u32>,
    pub normals: Vec<Vector3<T>>,
}

/// The polygons of a hull with `triangles` (outward winding) over
/// `vertices`; for a flat hull (no triangles) its polygon, once per side.
pub(super) fn merge<T: Scalar>(vertices: &[Point3<T>], triangles: &[[u32; 3]]) -> Polygons<T> {
    let mut out = Polygons {
        start: vec![0],
        vertices: Vec::new(),
        normals: Vec::new(),
    };
    if triangles.is_empty() {
        flat(vertices, &mut out);
        return out;
    }
    let mut edge_face = HashMap::with_capacity(triangles.len() * 3);
    for (f, t) in triangles.iter().enumerate() {
        for k in 0..3 {
            edge_face.insert((t[k], t[(k + 1) % 3]), f);
        }
    }
    let mut parent: Vec<usize> = (0..triangles.len()).collect();
    for (f, t) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let Some(&g) = edge_face.get(&(b, a)) else {
                continue;
            };
            if g <= f {
                continue;
            }
            let opp = triangles[g].iter().copied().find(|&v| v != a && v != b);
            let Some(opp) = opp else { continue };
            let [p, q, r] = t.map(|i| vertices[i as usize]);
            if orient3d(&p, &q, &r, &vertices[opp as usize]) == 0.0 {
                let (rf, rg) = (find(&mut parent, f), find(&mut parent, g));
                parent[rf.max(rg)] = rf.min(rg);
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of = vec![usize::MAX; triangles.len()];
    for f in 0..triangles.len() {
        let r = find(&mut parent, f);
        if group_of[r] == usize::MAX {
            group_of[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[group_of[r]].push(f);
    }
    for group in &groups {
        let root = find(&mut parent, group[0]);
        let mut next: HashMap<u32, u32> = HashMap::new();
        let mut first = None;
        for &f in group {
            let t = triangles[f];
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                let inner = edge_face
                    .get(&(b, a))
                    .is_some_and(|&g| find(&mut parent, g) == root);
                if !inner {
                    next.insert(a, b);
                    first.get_or_insert(a);
                }
            }
        }
        let normal = best_normal(vertices, triangles, group);
        let loop_ok = first.and_then(|s| chain(&next, s));
        match loop_ok {
            Some(ring) => push(&mut out, &ring, normal),
            // Not a simple ring (cannot happen for a convex polytope's
            // coplanar faces); keep the triangles as they are.
            None => {
                for &f in group {
                    push(&mut out, &triangles[f], normal);
                }
            }
        }
    }
    out
}

/// The ring that `next` forms from `start`, if it is one simple ring using
/// every entry.
fn chain(next: &HashMap<u32, u32>, start: u32) -> Option<Vec<u32>> {
    let mut ring = vec![start];
    let mut cur = *next.get(&start)?;
    while cur != start {
        if ring.len() > next.len() {
            return None;
        }
        ring.push(cur);
        cur = *next.get(&cur)?;
    }
    (ring.len() == next.len()).then_some(ring)
}

fn push<T: Scalar>(out: &mut Polygons<T>, ring: &[u32], normal: Vector3<T>) {
    out.vertices.extend_from_slice(ring);
    out.start.push(out.vertices.len() as u32);
    out.normals.push(normal);
}

/// The unit normal of the group's largest triangle.
fn best_normal<T: Scalar>(
    vertices: &[Point3<T>],
    triangles: &[[u32; 3]],
    group: &[usize],
) -> Vector3<T> {
    let mut best = Vector3::zeros();
    let mut best_n2 = T::ZERO;
    for &f in group {
        let [a, b, c] = triangles[f].map(|i| vertices[i as usize]);
        let n = (b - a).cross(&(c - a));
        let n2 = n.norm_squared();
        if n2 > best_n2 {
            best_n2 = n2;
            best = n;
        }
    }
    if best_n2 > T::ZERO {
        best / best_n2.sqrt()
    } else {
        Vector3::zeros()
    }
}

/// A flat hull's polygon on both sides (nothing for segments and points).
fn flat<T: Scalar>(vertices: &[Point3<T>], out: &mut Polygons<T>) {
    let n = vertices.len();
    if n < 3 {
        return;
    }
    // Newell's normal of the ring, about its first vertex.
    let o = vertices[0];
    let mut normal = Vector3::zeros();
    for i in 1..n - 1 {
        normal += (vertices[i] - o).cross(&(vertices[i + 1] - o));
    }
    let len = normal.norm();
    if !(len > T::ZERO) {
        return;
    }
    normal /= len;
    let ring: Vec<u32> = (0..n as u32).collect();
    push(out, &ring, normal);
    let back: Vec<u32> = ring.iter().rev().copied().collect();
    push(out, &back, -normal);
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}
