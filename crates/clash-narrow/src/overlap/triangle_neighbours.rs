//! Whether two triangles that share corners (neighbours in a mesh) meet
//! anywhere besides what they share: a fold or a piercing next to a shared
//! vertex, two faces folded flat onto each other across their shared edge, a
//! face duplicated on the same three vertices.
//!
//! # Method
//!
//! Every decision is the sign of an exact orientation predicate
//! ([`super::exact`]) or a comparison of input coordinates, as in
//! [`super::triangle_triangle`].
//!
//! * **One shared vertex `v`.** `A ∩ B` is convex and holds `v`; it holds a
//!   second point `p` iff it holds the segment `vp`. Along the ray from `v`
//!   through `p`, `A` ends at a point of its *far set* `F(A)`: the edge
//!   opposite `v` for a non-degenerate `A`, the far end (or both ends) of the
//!   segment a collinear `A` is, nothing for an `A` that is the point `v`.
//!   The nearer of the two ends lies in both triangles, so `A ∩ B ≠ {v}` iff
//!   `F(A)` meets `B` or `F(B)` meets `A` (and `F` never holds `v`, so any
//!   such meeting is a point other than `v`). Each test is the exact
//!   segment/triangle test of [`super::triangle_triangle`].
//! * **A shared edge `vw`** (`v ≠ w`; otherwise the shared vertex case).
//!   The planes of two non-degenerate triangles that are not coplanar cross
//!   in the line `vw`, where each triangle is the edge itself: they meet
//!   only there. Coplanar, they overlap in area iff their third corners lie
//!   on the same side of `vw`. A degenerate triangle lies on the line `vw`;
//!   it meets a non-degenerate neighbour only on the edge, and a degenerate
//!   one beyond the edge iff both stick out past the same end of it.
//! * **All three corners shared:** the two faces are one triangle, and they
//!   overlap in area iff it is non-degenerate.

use super::exact::{P3, Probe, drop_axis, orient2d, orient3d, p3};
use super::triangle_triangle::{dominant, seg_tri, tri_tri};
use clash_math::{Scalar, Triangle};

/// Which corners two triangles share: a vertex, an edge, or all three
/// (from the triangles' vertex indices, [`SharedCorners::of_indices`]).
/// Argument of [`triangle_triangle_beyond_shared`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SharedCorners {
    shared: Shared,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shared {
    /// Corner `.0` of the first triangle is corner `.1` of the second.
    Vertex(usize, usize),
    /// Corners `.0[0]`, `.0[1]` of the first triangle are corners `.1[0]`,
    /// `.1[1]` of the second.
    Edge([usize; 2], [usize; 2]),
    /// The triangles have the same three distinct vertices.
    All,
}

impl SharedCorners {
    /// The corners two triangles with vertex indices `a` and `b` share:
    /// `None` when they share no index. Repeated indices within a triangle
    /// (a degenerate one) count once.
    ///
    /// ```
    /// use clash_narrow::overlap::SharedCorners;
    /// assert!(SharedCorners::of_indices([0, 1, 2], [3, 4, 5]).is_none());
    /// assert!(SharedCorners::of_indices([0, 1, 2], [2, 1, 7]).is_some());
    /// ```
    pub fn of_indices(a: [u32; 3], b: [u32; 3]) -> Option<Self> {
        let mut first = [0usize; 3];
        let mut second = [0usize; 3];
        let mut n = 0;
        for i in 0..3 {
            if a[..i].contains(&a[i]) {
                continue;
            }
            if let Some(j) = b.iter().position(|&x| x == a[i]) {
                first[n] = i;
                second[n] = j;
                n += 1;
            }
        }
        let shared = match n {
            0 => return None,
            1 => Shared::Vertex(first[0], second[0]),
            2 => Shared::Edge([first[0], first[1]], [second[0], second[1]]),
            _ => Shared::All,
        };
        Some(Self { shared })
    }
}

/// `true` when the closed triangles `t1` and `t2`, which share the corners
/// `shared` (one mesh vertex, or two, or three), have a common point besides
/// the shared vertex or the shared edge: two neighbours of a mesh that
/// intersect each other. The shared corners of `t2` are taken to be those of
/// `t1` (they name the same mesh vertices).
///
/// Exact for every finite `f32`/`f64` input, in the sense and range of
/// [`super::triangle_triangle`] (see [`super`]); degenerate triangles are the
/// segments or points they are. Two faces on the same three vertices
/// overlap iff they are non-degenerate. Returns `false` when any coordinate
/// is NaN or infinite.
///
/// ```
/// use clash_math::{Point3, Triangle};
/// use clash_narrow::overlap::{SharedCorners, triangle_triangle_beyond_shared};
/// let p = |x, y, z| Point3::new(x, y, z);
/// // Vertices 0..4; triangles [0, 1, 2] and [0, 1, 3] share the edge 0-1.
/// let flat = Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0));
/// let hinge = Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 0.0, 1.0));
/// let folded = Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.5, 0.5, 0.0));
/// let shared = SharedCorners::of_indices([0, 1, 2], [0, 1, 3]).unwrap();
/// // A hinge meets its neighbour only along the shared edge ...
/// assert!(!triangle_triangle_beyond_shared(&flat, &hinge, shared));
/// // ... a face folded flat onto it overlaps it.
/// assert!(triangle_triangle_beyond_shared(&flat, &folded, shared));
/// ```
pub fn triangle_triangle_beyond_shared<T: Scalar>(
    t1: &Triangle<T>,
    t2: &Triangle<T>,
    shared: SharedCorners,
) -> bool {
    if !(t1.is_finite() && t2.is_finite()) {
        return false;
    }
    let a = [p3(&t1.a), p3(&t1.b), p3(&t1.c)];
    let b = [p3(&t2.a), p3(&t2.b), p3(&t2.c)];
    beyond_shared(&mut (), &a, &b, shared.shared)
}

fn beyond_shared<P: Probe>(pr: &mut P, a: &[P3; 3], b: &[P3; 3], shared: Shared) -> bool {
    match shared {
        Shared::Vertex(i, j) => {
            let rest_a = [a[(i + 1) % 3], a[(i + 2) % 3]];
            let rest_b = [b[(j + 1) % 3], b[(j + 2) % 3]];
            beyond_vertex(pr, &a[i], &rest_a, &rest_b)
        }
        Shared::Edge([i0, i1], [j0, j1]) => {
            let (third_a, third_b) = (a[3 - i0 - i1], b[3 - j0 - j1]);
            beyond_edge(pr, &a[i0], &a[i1], &third_a, &third_b)
        }
        Shared::All => normal_witness(pr, &a[0], &a[1], &a[2]) != [0; 3],
    }
}

/// Triangles `(v, ra[0], ra[1])` and `(v, rb[0], rb[1])`: a common point
/// other than `v`?
fn beyond_vertex<P: Probe>(pr: &mut P, v: &P3, ra: &[P3; 2], rb: &[P3; 2]) -> bool {
    // The usual case first: each triangle's two other corners strictly on
    // one side of the other's plane (which proves that plane's triangle
    // non-degenerate); the far sets lie between those corners, so neither
    // meets the other triangle.
    let beside = |pr: &mut P, r: &[P3; 2], o: &[P3; 2]| {
        let s0 = orient3d(pr, v, &o[0], &o[1], &r[0]);
        s0 != 0 && s0 == orient3d(pr, v, &o[0], &o[1], &r[1])
    };
    if beside(pr, ra, rb) && beside(pr, rb, ra) {
        return false;
    }
    let ta = [*v, ra[0], ra[1]];
    let tb = [*v, rb[0], rb[1]];
    let na = normal_witness(pr, v, &ra[0], &ra[1]);
    let nb = normal_witness(pr, v, &rb[0], &rb[1]);
    far_set(v, ra, na).meets(pr, &tb, nb) || far_set(v, rb, nb).meets(pr, &ta, na)
}

/// The exact sign of the component of `(b - a) × (c - a)` that
/// [`dominant`] picks (z, else x, else y), the others left zero: all zero
/// iff the triangle is degenerate, and `dominant` of it is `dominant` of
/// the full normal signs. Usually one `orient2d` instead of three.
fn normal_witness<P: Probe>(pr: &mut P, a: &P3, b: &P3, c: &P3) -> [i8; 3] {
    for k in [2, 0, 1] {
        let s = orient2d(pr, &drop_axis(a, k), &drop_axis(b, k), &drop_axis(c, k));
        if s != 0 {
            let mut n = [0; 3];
            n[k] = s;
            return n;
        }
    }
    [0; 3]
}

/// The far set of a triangle seen from its corner `v` (see the module
/// notes): up to two segments (a point as a segment of equal ends), none of
/// which holds `v`.
#[derive(Clone, Copy)]
struct FarSet {
    pieces: [[P3; 2]; 2],
    len: usize,
}

impl FarSet {
    /// Does a piece meet the triangle `t` ([`normal_witness`] `nt`)?
    fn meets<P: Probe>(&self, pr: &mut P, t: &[P3; 3], nt: [i8; 3]) -> bool {
        self.pieces[..self.len].iter().any(|[p, q]| {
            let apart = (0..3).any(|k| {
                p[k].max(q[k]) < t[0][k].min(t[1][k]).min(t[2][k])
                    || p[k].min(q[k]) > t[0][k].max(t[1][k]).max(t[2][k])
            });
            if apart {
                false
            } else if nt != [0; 3] {
                seg_tri(pr, p, q, t, nt)
            } else {
                // A degenerate triangle: the general test, which takes it
                // edge by edge.
                tri_tri(pr, &[*p, *q, *q], t)
            }
        })
    }
}

/// The far set of the triangle `(v, r[0], r[1])`, whose
/// [`normal_witness`] is `n`, seen from its corner `v`.
fn far_set(v: &P3, r: &[P3; 2], n: [i8; 3]) -> FarSet {
    let mut far = FarSet {
        pieces: [[*v; 2]; 2],
        len: 0,
    };
    if n != [0; 3] {
        far.pieces[0] = *r;
        far.len = 1;
        return far;
    }
    // Collinear (or coincident) corners. Along an axis on which they are
    // not all equal, the coordinate is an injective parameter of their line.
    let Some(k) = (0..3).find(|&k| !(v[k] == r[0][k] && v[k] == r[1][k])) else {
        return far; // the point v
    };
    let (lo, hi) = if r[0][k] <= r[1][k] {
        (r[0], r[1])
    } else {
        (r[1], r[0])
    };
    if v[k] <= lo[k] {
        far.pieces[0] = [hi, hi];
        far.len = 1;
    } else if v[k] >= hi[k] {
        far.pieces[0] = [lo, lo];
        far.len = 1;
    } else {
        far.pieces = [[lo, lo], [hi, hi]];
        far.len = 2;
    }
    far
}

/// Triangles `(v, w, a)` and `(v, w, b)`: a common point off the segment
/// `vw`?
fn beyond_edge<P: Probe>(pr: &mut P, v: &P3, w: &P3, a: &P3, b: &P3) -> bool {
    if v == w {
        return beyond_vertex(pr, v, &[*w, *a], &[*w, *b]);
    }
    if orient3d(pr, v, w, a, b) != 0 {
        // Not coplanar, so both are non-degenerate: they meet on vw only.
        return false;
    }
    let na = normal_witness(pr, v, w, a);
    let nb = normal_witness(pr, v, w, b);
    match (na == [0; 3], nb == [0; 3]) {
        (false, false) => {
            // One plane; dropping `k` maps it one to one to a coordinate
            // plane, where the third corners' sides of vw are non-zero.
            let k = dominant(na);
            let (v2, w2) = (drop_axis(v, k), drop_axis(w, k));
            orient2d(pr, &v2, &w2, &drop_axis(a, k)) == orient2d(pr, &v2, &w2, &drop_axis(b, k))
        }
        (true, true) => {
            // Both on the line vw; `k` parametrises it injectively.
            let k = (0..3).find(|&k| v[k] != w[k]).unwrap_or(0);
            let (lo, hi) = (v[k].min(w[k]), v[k].max(w[k]));
            (a[k] > hi && b[k] > hi) || (a[k] < lo && b[k] < lo)
        }
        // A segment on the line vw against a non-degenerate triangle, whose
        // only points on that line are the edge's.
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_math::Point3;

    fn t(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> Triangle<f64> {
        Triangle::new(Point3::from(a), Point3::from(b), Point3::from(c))
    }

    fn shared(a: [u32; 3], b: [u32; 3]) -> SharedCorners {
        SharedCorners::of_indices(a, b).unwrap()
    }

    #[test]
    fn shared_corners_from_indices() {
        assert_eq!(shared([4, 5, 6], [6, 7, 8]).shared, Shared::Vertex(2, 0));
        assert_eq!(
            shared([4, 5, 6], [5, 9, 4]).shared,
            Shared::Edge([0, 1], [2, 0])
        );
        assert_eq!(shared([4, 5, 6], [6, 4, 5]).shared, Shared::All);
        // Repeated indices count once.
        assert_eq!(shared([4, 4, 6], [4, 7, 8]).shared, Shared::Vertex(0, 0));
        assert_eq!(
            shared([4, 4, 6], [6, 4, 4]).shared,
            Shared::Edge([0, 2], [1, 0])
        );
        assert!(SharedCorners::of_indices([1, 2, 3], [4, 5, 6]).is_none());
    }

    #[test]
    fn neighbours_by_vertex() {
        let s = shared([0, 1, 2], [0, 3, 4]);
        let base = t([0.0; 3], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]);
        // Touching only at the vertex, on either side or in the plane.
        let up = t([0.0; 3], [-1.0, 0.0, 1.0], [0.0, -1.0, 1.0]);
        let beside = t([0.0; 3], [-1.0, 0.0, 0.0], [-1.0, -1.0, 0.0]);
        assert!(!triangle_triangle_beyond_shared(&base, &up, s));
        assert!(!triangle_triangle_beyond_shared(&base, &beside, s));
        // Piercing the base away from the vertex.
        let pierce = t([0.0; 3], [1.0, 1.0, -1.0], [0.2, 0.2, 1.0]);
        assert!(triangle_triangle_beyond_shared(&base, &pierce, s));
        // Coplanar sectors that overlap, and that share only a ray.
        let over = t([0.0; 3], [1.0, 1.0, 0.0], [-1.0, 1.0, 0.0]);
        let along = t([0.0; 3], [1.0, 0.0, 0.0], [1.0, -1.0, 0.0]);
        assert!(triangle_triangle_beyond_shared(&base, &over, s));
        assert!(triangle_triangle_beyond_shared(&base, &along, s));
        // Lying along an edge of the base from the vertex (a degenerate
        // neighbour), and pointing away from it.
        let seg_in = t([0.0; 3], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]);
        let seg_out = t([0.0; 3], [-1.0, 0.0, 0.0], [-3.0, 0.0, 0.0]);
        assert!(triangle_triangle_beyond_shared(&base, &seg_in, s));
        assert!(!triangle_triangle_beyond_shared(&base, &seg_out, s));
        // A degenerate neighbour through the vertex, reaching into the base
        // on one side only.
        let through = t([0.0; 3], [-1.0, -1.0, 0.0], [1.0, 1.0, 0.0]);
        assert!(triangle_triangle_beyond_shared(&base, &through, s));
        // A neighbour that is the point v.
        let point = t([0.0; 3], [0.0; 3], [0.0; 3]);
        assert!(!triangle_triangle_beyond_shared(&base, &point, s));
        // A non-finite corner: no answer but false.
        let nan = t([0.0; 3], [f64::NAN, 0.0, 0.0], [0.2, 0.2, 1.0]);
        assert!(!triangle_triangle_beyond_shared(&base, &nan, s));
    }

    #[test]
    fn neighbours_by_edge() {
        let s = shared([0, 1, 2], [0, 1, 3]);
        let base = t([0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        let hinge = t([0.0; 3], [1.0, 0.0, 0.0], [0.3, 0.0, 1e-30]);
        let unfolded = t([0.0; 3], [1.0, 0.0, 0.0], [0.5, -1.0, 0.0]);
        let folded = t([0.0; 3], [1.0, 0.0, 0.0], [7.0, 3.0, 0.0]);
        assert!(!triangle_triangle_beyond_shared(&base, &hinge, s));
        assert!(!triangle_triangle_beyond_shared(&base, &unfolded, s));
        assert!(triangle_triangle_beyond_shared(&base, &folded, s));
        // Degenerate neighbours on the edge's line.
        let inside = t([0.0; 3], [1.0, 0.0, 0.0], [0.5, 0.0, 0.0]);
        let past = t([0.0; 3], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]);
        let before = t([0.0; 3], [1.0, 0.0, 0.0], [-2.0, 0.0, 0.0]);
        assert!(!triangle_triangle_beyond_shared(&base, &past, s));
        assert!(!triangle_triangle_beyond_shared(&inside, &past, s));
        assert!(triangle_triangle_beyond_shared(&past, &past, s));
        assert!(!triangle_triangle_beyond_shared(&past, &before, s));
        // The shared corners coincide: a shared vertex in effect.
        let (v, w) = ([1.0, 1.0, 1.0], [1.0, 1.0, 1.0]);
        let a = t(v, w, [2.0, 1.0, 1.0]);
        let b = t(v, w, [3.0, 1.0, 1.0]);
        let c = t(v, w, [0.0, 1.0, 1.0]);
        assert!(triangle_triangle_beyond_shared(&a, &b, s));
        assert!(!triangle_triangle_beyond_shared(&a, &c, s));
    }

    #[test]
    fn same_three_vertices() {
        let s = shared([0, 1, 2], [2, 0, 1]);
        let face = t([0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        let flat = t([0.0; 3], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]);
        assert!(triangle_triangle_beyond_shared(&face, &face, s));
        assert!(!triangle_triangle_beyond_shared(&flat, &flat, s));
    }
}
