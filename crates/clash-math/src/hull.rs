//! 3D convex hull by Quickhull (Barber, Dobkin and Huhdanpaa 1996; RTCD
//! §12.5.2 and §9.4.1), with every visibility decision made by the exact
//! [`orient3d`] predicate so that duplicates, coplanar and nearly coplanar
//! points cannot corrupt the hull's topology.
//!
//! Flat input (all points coplanar) gets the 2D hull of its plane by Andrew's
//! monotone chain with the exact [`orient2d`]; collinear input gets its two
//! extreme points; a single (repeated) point gets itself. In all three cases
//! [`ConvexHull::triangles`] is empty.

use crate::predicates::{cross_signs, orient2d, orient3d};
use crate::{MathError, Scalar, Triangle, point_is_finite};
use nalgebra::Point3;
use std::collections::HashMap;

/// The convex hull of a point set.
#[derive(Debug, Clone)]
pub struct ConvexHull<T: Scalar> {
    vertices: Vec<Point3<T>>,
    faces: Vec<[u32; 3]>,
}

/// A face of the hull under construction: corners counter-clockwise seen
/// from outside, so that `orient3d(a, b, c, p) > 0` exactly when `p` sees it.
struct Face {
    v: [u32; 3],
    outside: Vec<u32>,
    alive: bool,
}

#[inline]
fn edge_key(a: u32, b: u32) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

impl<T: Scalar> ConvexHull<T> {
    /// Computes the convex hull of `points` (Quickhull, RTCD §12.5.2).
    ///
    /// The result is deterministic (no hashing order or randomness leaks into
    /// it). Faces are triangles wound counter-clockwise seen from outside;
    /// coplanar neighbouring faces are not merged.
    ///
    /// # Errors
    /// [`MathError::Empty`] for no points, [`MathError::NonFinite`] for NaN/inf.
    pub fn new(points: &[Point3<T>]) -> Result<Self, MathError> {
        if points.is_empty() {
            return Err(MathError::Empty);
        }
        if let Some(index) = points.iter().position(|p| !point_is_finite(p)) {
            return Err(MathError::NonFinite { index });
        }
        let p = points;
        // Initial simplex: a, the point farthest from a, the point farthest
        // from their line, the point farthest from their plane.
        let i0 = (0..p.len()).fold(
            0,
            |best, i| if lex_less(&p[i], &p[best]) { i } else { best },
        );
        let i1 = argmax(p, |q| (q - p[i0]).norm_squared());
        if p[i1] == p[i0] {
            return Ok(Self {
                vertices: vec![p[i0]],
                faces: Vec::new(),
            });
        }
        let d01 = p[i1] - p[i0];
        let mut i2 = argmax(p, |q| (q - p[i0]).cross(&d01).norm_squared());
        if crate::predicates::collinear3(&p[i0], &p[i1], &p[i2]) {
            match (0..p.len()).find(|&i| !crate::predicates::collinear3(&p[i0], &p[i1], &p[i])) {
                Some(i) => i2 = i,
                None => {
                    // Collinear: the lexicographic extremes are the line's ends.
                    let hi = (0..p.len()).fold(
                        0,
                        |best, i| if lex_less(&p[best], &p[i]) { i } else { best },
                    );
                    return Ok(Self {
                        vertices: vec![p[i0], p[hi]],
                        faces: Vec::new(),
                    });
                }
            }
        }
        let i3 = argmax(p, |q| T::lit(orient3d(&p[i0], &p[i1], &p[i2], q).abs()));
        if orient3d(&p[i0], &p[i1], &p[i2], &p[i3]) == 0.0 {
            return Ok(Self {
                vertices: planar_hull(p, &p[i0], &p[i1], &p[i2]),
                faces: Vec::new(),
            });
        }
        Ok(quickhull(p, [i0 as u32, i1 as u32, i2 as u32, i3 as u32]))
    }

    /// The hull's vertices: for a solid hull the corners of its faces, for a
    /// flat set the corners of its convex polygon (in order), for a collinear
    /// set its two ends, for a single point that point.
    pub fn vertices(&self) -> &[Point3<T>] {
        &self.vertices
    }

    /// The hull's faces as triangles wound counter-clockwise seen from
    /// outside; empty when the hull has no volume.
    pub fn triangles(&self) -> Vec<Triangle<T>> {
        self.faces
            .iter()
            .map(|f| {
                Triangle::new(
                    self.vertices[f[0] as usize],
                    self.vertices[f[1] as usize],
                    self.vertices[f[2] as usize],
                )
            })
            .collect()
    }

    /// The faces as index triples into [`Self::vertices`].
    pub fn faces(&self) -> &[[u32; 3]] {
        &self.faces
    }
}

fn lex_less<T: Scalar>(a: &Point3<T>, b: &Point3<T>) -> bool {
    (a.x, a.y, a.z).partial_cmp(&(b.x, b.y, b.z)) == Some(core::cmp::Ordering::Less)
}

/// Index of the first point maximising `f`.
fn argmax<T: Scalar>(p: &[Point3<T>], f: impl Fn(&Point3<T>) -> T) -> usize {
    let mut best = 0;
    let mut best_v = f(&p[0]);
    for (i, q) in p.iter().enumerate().skip(1) {
        let v = f(q);
        if v > best_v {
            best = i;
            best_v = v;
        }
    }
    best
}

/// 2D hull of coplanar points (plane through `a`, `b`, `c`, not collinear):
/// project onto the coordinate plane where the exact normal component is
/// non-zero (an affine bijection of the plane, so orientations keep their
/// exact signs) and run Andrew's monotone chain with [`orient2d`].
fn planar_hull<T: Scalar>(
    p: &[Point3<T>],
    a: &Point3<T>,
    b: &Point3<T>,
    c: &Point3<T>,
) -> Vec<Point3<T>> {
    let signs = cross_signs(a, b, c);
    let n = (b - a).cross(&(c - a));
    let mut drop = 0;
    let mut best = -1.0;
    for k in 0..3 {
        let m = n[k].to_f64().abs();
        if signs[k] != 0.0 && m > best {
            best = m;
            drop = k;
        }
    }
    let (u, v) = ((drop + 1) % 3, (drop + 2) % 3);
    let xy = |q: &Point3<T>| [q[u].to_f64(), q[v].to_f64()];
    let mut idx: Vec<usize> = (0..p.len()).collect();
    idx.sort_by(|&i, &j| {
        xy(&p[i])
            .partial_cmp(&xy(&p[j]))
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    idx.dedup_by(|i, j| xy(&p[*i]) == xy(&p[*j]));
    let mut hull: Vec<usize> = Vec::with_capacity(idx.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let order: Box<dyn Iterator<Item = &usize>> = if pass == 0 {
            Box::new(idx.iter())
        } else {
            Box::new(idx.iter().rev())
        };
        for &i in order {
            while hull.len() >= start + 2
                && orient2d(
                    xy(&p[hull[hull.len() - 2]]),
                    xy(&p[hull[hull.len() - 1]]),
                    xy(&p[i]),
                ) <= 0.0
            {
                let _ = hull.pop();
            }
            hull.push(i);
        }
        let _ = hull.pop();
    }
    hull.into_iter().map(|i| p[i]).collect()
}

fn quickhull<T: Scalar>(p: &[Point3<T>], s: [u32; 4]) -> ConvexHull<T> {
    let pt = |i: u32| &p[i as usize];
    let vis = |f: &[u32; 3], i: u32| orient3d(pt(f[0]), pt(f[1]), pt(f[2]), pt(i));
    let mut faces: Vec<Face> = Vec::new();
    let mut edges: HashMap<u64, u32> = HashMap::new();
    for (tri, opp) in [
        ([s[0], s[1], s[2]], s[3]),
        ([s[0], s[3], s[1]], s[2]),
        ([s[1], s[3], s[2]], s[0]),
        ([s[2], s[3], s[0]], s[1]),
    ] {
        let v = if vis(&tri, opp) > 0.0 {
            [tri[0], tri[2], tri[1]]
        } else {
            tri
        };
        faces.push(Face {
            v,
            outside: Vec::new(),
            alive: true,
        });
    }
    for (fi, f) in faces.iter().enumerate() {
        for k in 0..3 {
            let _ = edges.insert(edge_key(f.v[k], f.v[(k + 1) % 3]), fi as u32);
        }
    }
    // Assign each point to the first initial face it sees.
    for i in 0..p.len() as u32 {
        if s.contains(&i) {
            continue;
        }
        for f in faces.iter_mut() {
            if vis(&f.v, i) > 0.0 {
                f.outside.push(i);
                break;
            }
        }
    }
    let mut stack: Vec<u32> = (0..4)
        .filter(|&f| !faces[f as usize].outside.is_empty())
        .collect();
    let mut visible: Vec<u32> = Vec::new();
    let mut horizon: Vec<(u32, u32)> = Vec::new();
    let mut orphans: Vec<u32> = Vec::new();
    while let Some(fi) = stack.pop() {
        let f = &faces[fi as usize];
        if !f.alive || f.outside.is_empty() {
            continue;
        }
        // Farthest outside point (|orient3d| is proportional to distance for a fixed face).
        let fv = f.v;
        let apex = *f
            .outside
            .iter()
            .max_by(|&&a, &&b| {
                vis(&fv, a)
                    .partial_cmp(&vis(&fv, b))
                    .unwrap_or(core::cmp::Ordering::Equal)
            })
            .unwrap_or(&f.outside[0]);
        // Visible region by search over face adjacency; record horizon edges.
        visible.clear();
        horizon.clear();
        faces[fi as usize].alive = false;
        visible.push(fi);
        let mut k = 0;
        while k < visible.len() {
            let v = faces[visible[k] as usize].v;
            k += 1;
            for e in 0..3 {
                let (a, b) = (v[e], v[(e + 1) % 3]);
                let n = edges[&edge_key(b, a)];
                let nf = &faces[n as usize];
                if !nf.alive {
                    continue; // already in the visible set
                }
                if vis(&nf.v, apex) > 0.0 {
                    faces[n as usize].alive = false;
                    visible.push(n);
                } else {
                    horizon.push((a, b));
                }
            }
        }
        // Horizon edges in visible-set order may interleave with later
        // discoveries, which is harmless: each one makes one new face.
        horizon.retain(|&(a, b)| faces[edges[&edge_key(b, a)] as usize].alive);
        orphans.clear();
        for &vf in &visible {
            let f = &mut faces[vf as usize];
            orphans.append(&mut f.outside);
            let v = f.v;
            for e in 0..3 {
                let key = edge_key(v[e], v[(e + 1) % 3]);
                if edges.get(&key) == Some(&vf) {
                    let _ = edges.remove(&key);
                }
            }
        }
        let first_new = faces.len();
        for &(a, b) in &horizon {
            let nf = faces.len() as u32;
            faces.push(Face {
                v: [a, b, apex],
                outside: Vec::new(),
                alive: true,
            });
            for (x, y) in [(a, b), (b, apex), (apex, a)] {
                let _ = edges.insert(edge_key(x, y), nf);
            }
        }
        for &o in &orphans {
            if o == apex {
                continue;
            }
            for f in faces[first_new..].iter_mut() {
                if vis(&f.v, o) > 0.0 {
                    f.outside.push(o);
                    break;
                }
            }
        }
        for (nf, f) in faces.iter().enumerate().skip(first_new) {
            if !f.outside.is_empty() {
                stack.push(nf as u32);
            }
        }
    }
    // Compact the vertex set.
    let mut remap: HashMap<u32, u32> = HashMap::new();
    let mut vertices = Vec::new();
    let mut out = Vec::new();
    for f in faces.iter().filter(|f| f.alive) {
        let mut t = [0u32; 3];
        for k in 0..3 {
            t[k] = *remap.entry(f.v[k]).or_insert_with(|| {
                vertices.push(p[f.v[k] as usize]);
                (vertices.len() - 1) as u32
            });
        }
        out.push(t);
    }
    ConvexHull {
        vertices,
        faces: out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    fn check_hull(points: &[Point3<f64>], hull: &ConvexHull<f64>) {
        let tris = hull.triangles();
        assert!(!tris.is_empty());
        for t in &tris {
            for q in points {
                assert!(orient3d(&t.a, &t.b, &t.c, q) <= 0.0, "point outside a face");
            }
        }
        // Closed, consistently oriented 2-manifold: each directed edge once,
        // and its reverse once.
        let mut seen = std::collections::HashSet::new();
        for f in hull.faces() {
            for k in 0..3 {
                assert!(
                    seen.insert((f[k], f[(k + 1) % 3])),
                    "directed edge used twice"
                );
            }
        }
        for &(a, b) in &seen {
            assert!(seen.contains(&(b, a)), "open edge");
        }
        // Euler characteristic of a sphere.
        let v = hull.vertices().len() as i64;
        let f = hull.faces().len() as i64;
        assert_eq!(v - seen.len() as i64 / 2 + f, 2);
        // Outward: the centroid of the vertices is behind every face.
        let c = Point3::from(
            hull.vertices()
                .iter()
                .map(|p| p.coords)
                .sum::<nalgebra::Vector3<f64>>()
                / v as f64,
        );
        for t in &tris {
            assert!(orient3d(&t.a, &t.b, &t.c, &c) <= 0.0);
        }
    }

    #[test]
    fn random_clouds_and_spheres() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for n in [4usize, 5, 10, 100, 1000] {
            for _ in 0..20 {
                let pts: Vec<Point3<f64>> = (0..n)
                    .map(|_| {
                        Point3::new(
                            rng.random_range(-1.0..1.0),
                            rng.random_range(-1.0..1.0),
                            rng.random_range(-1.0..1.0),
                        )
                    })
                    .collect();
                let h = ConvexHull::new(&pts).unwrap();
                if n > 4 || orient3d(&pts[0], &pts[1], &pts[2], &pts[3]) != 0.0 {
                    check_hull(&pts, &h);
                }
            }
        }
        // Points on a sphere: all are vertices.
        let pts: Vec<Point3<f64>> = (0..500)
            .map(|_| {
                let v = nalgebra::Vector3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0_f64),
                );
                Point3::from(v.normalize())
            })
            .collect();
        let h = ConvexHull::new(&pts).unwrap();
        check_hull(&pts, &h);
        assert_eq!(h.vertices().len(), 500);
    }

    #[test]
    fn grid_with_duplicates_and_coplanar_faces() {
        let mut pts = Vec::new();
        for i in 0..6 {
            for j in 0..6 {
                for k in 0..6 {
                    pts.push(Point3::new(i as f64 * 0.1, j as f64 * 0.1, k as f64 * 0.1));
                }
            }
        }
        let dup = pts.clone();
        pts.extend(dup);
        let h = ConvexHull::new(&pts).unwrap();
        check_hull(&pts, &h);
        // Volume of the hull equals the cube's.
        let vol: f64 = h
            .triangles()
            .iter()
            .map(|t| t.a.coords.dot(&t.b.coords.cross(&t.c.coords)) / 6.0)
            .sum();
        assert!((vol - 0.125).abs() < 1e-12, "{vol}");
        // Only the 8 corners are needed; the face grid points are on faces, and
        // a strict hull would drop them, but they may stay as vertices of
        // coplanar triangles. Every vertex must be on the cube's boundary.
        for v in h.vertices() {
            let on = [v.x, v.y, v.z]
                .iter()
                .any(|&c| c == 0.0 || (c - 0.5).abs() < 1e-12);
            assert!(on);
        }
    }

    #[test]
    fn degenerate_inputs() {
        let p = Point3::new(1.0_f32, 2.0, 3.0);
        let h = ConvexHull::new(&[p, p, p]).unwrap();
        assert_eq!(h.vertices(), &[p]);
        assert!(h.triangles().is_empty());
        let line: Vec<Point3<f64>> = (0..10)
            .map(|i| Point3::new(i as f64, 2.0 * i as f64, -(i as f64)))
            .rev()
            .collect();
        let h = ConvexHull::new(&line).unwrap();
        assert!(h.triangles().is_empty());
        assert_eq!(h.vertices().len(), 2);
        assert!(h.vertices().contains(&line[0]) && h.vertices().contains(&line[9]));
        // Square grid in a tilted plane: hull polygon is the 4 corners.
        let mut flat = Vec::new();
        for i in 0..5 {
            for j in 0..5 {
                flat.push(Point3::new(i as f64, j as f64, (i + j) as f64));
            }
        }
        let h = ConvexHull::new(&flat).unwrap();
        assert!(h.triangles().is_empty());
        assert_eq!(h.vertices().len(), 4);
        assert_eq!(ConvexHull::<f64>::new(&[]).unwrap_err(), MathError::Empty);
        assert_eq!(
            ConvexHull::new(&[p, Point3::new(f32::INFINITY, 0.0, 0.0)]).unwrap_err(),
            MathError::NonFinite { index: 1 }
        );
    }

    #[test]
    fn large_input_is_fast_enough() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        let pts: Vec<Point3<f64>> = (0..100_000)
            .map(|_| {
                Point3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                )
            })
            .collect();
        let t = std::time::Instant::now();
        let h = ConvexHull::new(&pts).unwrap();
        assert!(t.elapsed().as_secs_f64() < 5.0);
        for t in h.triangles().iter().step_by(7) {
            for q in pts.iter().step_by(13) {
                assert!(orient3d(&t.a, &t.b, &t.c, q) <= 0.0);
            }
        }
    }
}
