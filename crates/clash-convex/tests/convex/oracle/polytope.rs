//! A convex polytope in the world frame as plain data, and brute-force
//! distance, intersection and penetration depth between two of them.

use clash_convex::ConvexHull;
use clash_math::predicates::orient3d;
use clash_math::{Isometry3, Point3, Triangle, Vector3};
use clash_narrow::{closest, overlap};

/// A polytope (solid, flat, a segment or a point) placed in the world.
#[derive(Debug, Clone)]
pub struct Poly {
    /// Vertices.
    pub verts: Vec<Point3<f64>>,
    /// Boundary triangles (outward for solids; a fan for a flat polygon;
    /// degenerate triangles for a segment or a point).
    pub tris: Vec<Triangle<f64>>,
    /// Outward triangles as indices, for exact containment (solids only).
    pub faces: Vec<[usize; 3]>,
    /// Edges as vertex index pairs.
    pub edges: Vec<(usize, usize)>,
    /// The margin the polytope is grown by.
    pub margin: f64,
}

impl Poly {
    /// The hull placed by `pose` (its margin kept aside).
    pub fn from_hull(hull: &ConvexHull<f64>, pose: &Isometry3<f64>) -> Self {
        use clash_convex::SupportMap;
        let verts: Vec<Point3<f64>> = hull.vertices().iter().map(|p| pose * p).collect();
        let n = verts.len();
        let mut tris = Vec::new();
        let mut faces = Vec::new();
        let mut edges = Vec::new();
        if !hull.triangles().is_empty() {
            for t in hull.triangles() {
                let f = t.map(|i| i as usize);
                faces.push(f);
                tris.push(Triangle::new(verts[f[0]], verts[f[1]], verts[f[2]]));
                for k in 0..3 {
                    let (a, b) = (f[k], f[(k + 1) % 3]);
                    if a < b {
                        edges.push((a, b));
                    }
                }
            }
        } else if n >= 3 {
            for i in 1..n - 1 {
                tris.push(Triangle::new(verts[0], verts[i], verts[i + 1]));
            }
            for i in 0..n {
                edges.push((i, (i + 1) % n));
            }
        } else if n == 2 {
            tris.push(Triangle::new(verts[0], verts[1], verts[1]));
            edges.push((0, 1));
        } else {
            tris.push(Triangle::new(verts[0], verts[0], verts[0]));
        }
        Self {
            verts,
            tris,
            faces,
            edges,
            margin: hull.margin(),
        }
    }

    /// The largest distance of a vertex from the first one: the size.
    pub fn size(&self) -> f64 {
        let o = self.verts[0];
        self.verts
            .iter()
            .map(|p| (p - o).norm())
            .fold(0.0, f64::max)
            + 2.0 * self.margin
    }

    /// `max p·u` over the vertices.
    pub fn support(&self, u: &Vector3<f64>) -> f64 {
        self.verts
            .iter()
            .map(|p| p.coords.dot(u))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// `true` when `p` is inside or on the solid polytope (exact; `false`
    /// for flat ones).
    pub fn contains_exact(&self, p: &Point3<f64>) -> bool {
        !self.faces.is_empty()
            && self.faces.iter().all(|f| {
                orient3d(&self.verts[f[0]], &self.verts[f[1]], &self.verts[f[2]], p) <= 0.0
            })
    }
}

/// The closest points of two polytopes' surfaces (cores), by brute force
/// over triangle pairs: `(distance, point on a, point on b)`. Meaningful
/// when they do not overlap.
pub fn surface_distance(a: &Poly, b: &Poly) -> (f64, Point3<f64>, Point3<f64>) {
    let mut best = (f64::INFINITY, a.verts[0], b.verts[0]);
    for ta in &a.tris {
        for tb in &b.tris {
            let c = closest::triangle_triangle(ta, tb);
            let d = c.distance_squared;
            if d < best.0 {
                best = (d, c.a, c.b);
            }
        }
    }
    (best.0.sqrt(), best.1, best.2)
}

/// `true` when the cores (margins ignored) share a point, exactly: two
/// triangles meet, or one solid holds a vertex of the other.
pub fn cores_intersect_exact(a: &Poly, b: &Poly) -> bool {
    a.tris
        .iter()
        .any(|ta| b.tris.iter().any(|tb| overlap::triangle_triangle(ta, tb)))
        || b.contains_exact(&a.verts[0])
        || a.contains_exact(&b.verts[0])
}

/// The signed distance between the cores: the surface distance when apart,
/// minus the penetration depth when they overlap (the least overlap over
/// every separating-axis candidate: face normals of both and cross
/// products of their edges, which is exact for polytopes), with the
/// normal from `a` to `b`.
pub fn signed_distance(a: &Poly, b: &Poly) -> (f64, Vector3<f64>) {
    if !cores_intersect_exact(a, b) {
        let (d, pa, pb) = surface_distance(a, b);
        let n = if d > 0.0 {
            (pb - pa) / d
        } else {
            Vector3::zeros()
        };
        return (d, n);
    }
    let (depth, n) = penetration_depth(a, b);
    (-depth, n)
}

/// The penetration depth of overlapping cores and its direction (from `a`
/// to `b`), over all separating-axis candidates.
pub fn penetration_depth(a: &Poly, b: &Poly) -> (f64, Vector3<f64>) {
    let mut axes: Vec<Vector3<f64>> = Vec::new();
    for t in a.tris.iter().chain(&b.tris) {
        let n = (t.b - t.a).cross(&(t.c - t.a));
        let len = n.norm();
        if len > 0.0 {
            axes.push(n / len);
        }
    }
    for &(i, j) in &a.edges {
        let ea = a.verts[j] - a.verts[i];
        for &(k, l) in &b.edges {
            let eb = b.verts[l] - b.verts[k];
            let c = ea.cross(&eb);
            let len = c.norm();
            if len > 0.0 {
                axes.push(c / len);
            }
        }
    }
    // A difference that is a segment (parallel segments, a point and a
    // segment) has every direction across it as a normal.
    for poly in [a, b] {
        for &(i, j) in &poly.edges {
            let e = poly.verts[j] - poly.verts[i];
            let len = e.norm();
            if len > 0.0 {
                let u = e / len;
                let k = if u.x.abs() < 0.5 {
                    Vector3::x()
                } else {
                    Vector3::y()
                };
                let p = u.cross(&k).normalize();
                axes.push(p);
                axes.push(u.cross(&p));
            }
        }
    }
    // Flat or degenerate pairs may have no candidates: the coordinate axes
    // keep the answer finite (and exact when the difference is flat, where
    // the depth is 0 along its normal, found among the face normals).
    axes.extend([Vector3::x(), Vector3::y(), Vector3::z()]);
    let mut best = (f64::INFINITY, Vector3::x());
    for u in axes {
        // Moving b along +u by `ab` separates them, along -u by `ba`.
        let ab = a.support(&u) + b.support(&-u);
        let ba = b.support(&u) + a.support(&-u);
        if ab < best.0 {
            best = (ab, u);
        }
        if ba < best.0 {
            best = (ba, -u);
        }
    }
    (best.0.max(0.0), best.1)
}
