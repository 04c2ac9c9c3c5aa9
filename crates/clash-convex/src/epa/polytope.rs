//! EPA's polytope: vertices and triangular faces with adjacency, in fixed
//! buffers, and the expansion step (the horizon of the faces a new point
//! sees, and the fan that replaces them).

use super::{MAX_FACES, MAX_VERTICES};
use crate::gjk::minkowski::SupportPoint;
use arrayvec::ArrayVec;
use clash_math::{Scalar, Vector3};

/// A face: corners counter-clockwise seen from outside, `adj[i]` the face
/// across the edge `(v[i], v[i + 1])` and `adj_edge[i]` that edge's index
/// in it; the unit outward normal and the plane's distance from the origin.
#[derive(Debug, Clone, Copy)]
pub(super) struct Face<T: Scalar> {
    pub v: [u16; 3],
    pub adj: [u16; 3],
    pub adj_edge: [u8; 3],
    pub normal: Vector3<T>,
    pub dist: T,
    pub alive: bool,
}

/// Why the polytope could not be expanded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stuck {
    /// The buffers are full.
    Capacity,
    /// Rounding broke the polytope (a zero-area face, a horizon that is
    /// not one loop, or the origin outside a new face).
    Degenerate,
}

/// The polytope.
pub(super) struct Polytope<T: Scalar> {
    pub verts: ArrayVec<SupportPoint<T>, MAX_VERTICES>,
    pub faces: ArrayVec<Face<T>, MAX_FACES>,
    free: ArrayVec<u16, MAX_FACES>,
    /// A point must be this far in front of a face to see it: rounding
    /// must not make a point in a face's plane cut it away.
    see: T,
}

impl<T: Scalar> Polytope<T> {
    pub fn new(see: T) -> Self {
        Self {
            verts: ArrayVec::new(),
            faces: ArrayVec::new(),
            free: ArrayVec::new(),
            see,
        }
    }

    /// Adds a vertex; `None` when full.
    pub fn add_vertex(&mut self, p: SupportPoint<T>) -> Option<u16> {
        self.verts.try_push(p).ok()?;
        Some((self.verts.len() - 1) as u16)
    }

    /// A face over vertices `v` (normal and distance computed, adjacency
    /// unset); `None` for a zero-area face.
    fn make_face(&self, v: [u16; 3]) -> Option<Face<T>> {
        let [a, b, c] = v.map(|i| self.verts[i as usize].w);
        let n = (b - a).cross(&(c - a));
        let len = n.norm();
        if !(len > T::ZERO) || !len.finite() {
            return None;
        }
        let n = n / len;
        // The plane's offset from the centroid of the corners: the average
        // is less sensitive to rounding than any single corner.
        let dist = n.dot(&(a + b + c)) / T::lit(3.0);
        Some(Face {
            v,
            adj: [u16::MAX; 3],
            adj_edge: [0; 3],
            normal: n,
            dist,
            alive: true,
        })
    }

    /// Stores a face, reusing a dead slot when there is one.
    fn store(&mut self, f: Face<T>) -> Option<u16> {
        if let Some(i) = self.free.pop() {
            self.faces[i as usize] = f;
            Some(i)
        } else {
            self.faces.try_push(f).ok()?;
            Some((self.faces.len() - 1) as u16)
        }
    }

    /// Builds a closed convex polytope from triangles over the vertices,
    /// orienting each away from `inside` and linking faces that share an
    /// edge. `None` when a face has no area or the surface is not closed.
    pub fn build(&mut self, tris: &[[u16; 3]], inside: &Vector3<T>) -> Option<()> {
        for t in tris {
            let mut f = self.make_face(*t)?;
            if f.normal.dot(&(self.verts[t[0] as usize].w - inside)) < T::ZERO {
                f = self.make_face([t[0], t[2], t[1]])?;
            }
            self.store(f)?;
        }
        let n = self.faces.len();
        for i in 0..n {
            for e in 0..3 {
                let (p, q) = (self.faces[i].v[e], self.faces[i].v[(e + 1) % 3]);
                let (j, ej) = (0..n).filter(|&j| j != i).find_map(|j| {
                    (0..3).find_map(|k| {
                        let f = &self.faces[j];
                        (f.v[k] == q && f.v[(k + 1) % 3] == p).then_some((j, k))
                    })
                })?;
                self.faces[i].adj[e] = j as u16;
                self.faces[i].adj_edge[e] = ej as u8;
            }
        }
        Some(())
    }

    /// The live face closest to the origin.
    pub fn closest_face(&self) -> Option<u16> {
        let mut best = None;
        let mut best_d = T::INFINITY;
        for (i, f) in self.faces.iter().enumerate() {
            if f.alive && f.dist < best_d {
                best_d = f.dist;
                best = Some(i as u16);
            }
        }
        best
    }

    /// Replaces the faces that vertex `w` sees, starting from `first`
    /// (which must see it), by the fan from `w` over their horizon.
    pub fn expand(&mut self, first: u16, w: u16) -> Result<(), Stuck> {
        let p = self.verts[w as usize].w;
        let mut horizon: ArrayVec<(u16, u8), MAX_FACES> = ArrayVec::new();
        self.kill(first);
        for e in 0..3 {
            let f = self.faces[first as usize];
            self.silhouette(f.adj[e], f.adj_edge[e], &p, &mut horizon)?;
        }
        if horizon.len() < 3 {
            return Err(Stuck::Degenerate);
        }
        let mut created: ArrayVec<u16, MAX_FACES> = ArrayVec::new();
        for &(f, e) in &horizon {
            let kept = self.faces[f as usize];
            let a = kept.v[(e as usize + 1) % 3];
            let b = kept.v[e as usize];
            let mut nf = self.make_face([a, b, w]).ok_or(Stuck::Degenerate)?;
            nf.adj[0] = f;
            nf.adj_edge[0] = e;
            let id = self.store(nf).ok_or(Stuck::Capacity)?;
            self.faces[f as usize].adj[e as usize] = id;
            self.faces[f as usize].adj_edge[e as usize] = 0;
            created.try_push(id).map_err(|_| Stuck::Capacity)?;
        }
        // Link the fan: face (a, b, w)'s edge (b, w) meets the face whose
        // first corner is b, along its edge (w, b).
        for &i in &created {
            let b = self.faces[i as usize].v[1];
            let mut next = created
                .iter()
                .copied()
                .filter(|&j| self.faces[j as usize].v[0] == b);
            let j = next.next().ok_or(Stuck::Degenerate)?;
            if next.next().is_some() {
                // The horizon touches itself: not one loop.
                return Err(Stuck::Degenerate);
            }
            self.faces[i as usize].adj[1] = j;
            self.faces[i as usize].adj_edge[1] = 2;
            self.faces[j as usize].adj[2] = i;
            self.faces[j as usize].adj_edge[2] = 1;
        }
        Ok(())
    }

    fn kill(&mut self, f: u16) {
        self.faces[f as usize].alive = false;
        // The slot is reused only after the expansion (the horizon still
        // refers to live faces only, never to this one).
        let _ = self.free.try_push(f);
    }

    /// Van den Bergen's silhouette walk: face `f` entered across its edge
    /// `e`; a face that sees `p` dies and its two other edges are walked, one
    /// that does not is on the horizon.
    fn silhouette(
        &mut self,
        f: u16,
        e: u8,
        p: &Vector3<T>,
        horizon: &mut ArrayVec<(u16, u8), MAX_FACES>,
    ) -> Result<(), Stuck> {
        let face = self
            .faces
            .get(f as usize)
            .copied()
            .ok_or(Stuck::Degenerate)?;
        if !face.alive {
            return Ok(());
        }
        if face.normal.dot(p) - face.dist > self.see {
            self.kill(f);
            for k in 1..3 {
                let edge = (e as usize + k) % 3;
                self.silhouette(face.adj[edge], face.adj_edge[edge], p, horizon)?;
            }
            Ok(())
        } else {
            horizon.try_push((f, e)).map_err(|_| Stuck::Capacity)
        }
    }
}
