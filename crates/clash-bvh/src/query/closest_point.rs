//! Closest point on a mesh to a query point, and signed distance for closed
//! meshes by angle-weighted pseudo-normals (Bærentzen and Aanæs, "Signed
//! distance computation using the angle weighted pseudonormal", 2005).

use crate::query::ray::wide::WidePoint;
use crate::{BvQuery, Bvh};
use clash_bv::BoundingVolume;
use clash_math::{Point3, Scalar, Vector3};
use clash_narrow::closest::point_triangle;
use rayon::prelude::*;
use std::collections::HashMap;

/// The point of a mesh closest to a query point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshPoint<T: Scalar> {
    /// Index of the triangle the point lies on (the smallest index among
    /// triangles at the same distance).
    pub triangle: u32,
    /// The closest point.
    pub point: Point3<T>,
    /// Barycentric weights of the point in its triangle.
    pub barycentric: [T; 3],
    /// Squared distance from the query point.
    pub distance_squared: T,
}

/// Signed distance from a closed mesh: negative inside.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SignedDistance<T: Scalar> {
    /// Distance, negative when the query point is inside the mesh, zero on it.
    pub distance: T,
    /// The closest point of the mesh.
    pub closest: MeshPoint<T>,
}

/// Why a signed-distance query cannot be answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SignedDistanceError {
    /// The mesh does not bound a volume (an edge is not shared by exactly two
    /// oppositely wound triangles); weld it first if it is a soup.
    #[error("signed distance needs a closed mesh")]
    NotClosed,
}

/// Angle-weighted pseudo-normals of a closed mesh: per face, per vertex and
/// per edge; and the mesh's orientation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PseudoNormals<T: Scalar> {
    face: Vec<Vector3<T>>,
    vertex: Vec<Vector3<T>>,
    edge: HashMap<(u32, u32), Vector3<T>>,
    /// `true` when the signed volume is not negative (normals outward):
    /// the sign of points far outside.
    outward: bool,
}

impl<T: Scalar> PseudoNormals<T> {
    pub(crate) fn new(mesh: &crate::TriMesh<T>) -> Self {
        let v = mesh.vertices();
        let mut face = Vec::with_capacity(mesh.num_triangles());
        let mut vertex = vec![Vector3::zeros(); v.len()];
        let mut edge: HashMap<(u32, u32), Vector3<T>> = HashMap::new();
        // Six times the signed volume, from the first vertex (closer to the
        // mesh than the origin may be), summed in f64.
        let o = v
            .first()
            .map_or_else(Point3::origin, |p| p.map(|x| x.to_f64()));
        let mut volume = 0.0;
        for (i, tri) in mesh.indices().iter().enumerate() {
            let t = mesh.triangle(i);
            let [a, b, c] = t.vertices().map(|p| p.map(|x| x.to_f64()) - o);
            volume += a.dot(&b.cross(&c));
            let n = t.normal().unwrap_or_else(Vector3::zeros);
            face.push(n);
            for k in 0..3 {
                let (p, q, r) = (tri[k], tri[(k + 1) % 3], tri[(k + 2) % 3]);
                let (e1, e2) = (v[q as usize] - v[p as usize], v[r as usize] - v[p as usize]);
                let angle = match (e1.try_normalize(T::ZERO), e2.try_normalize(T::ZERO)) {
                    (Some(a), Some(b)) => a.dot(&b).clamp(-T::ONE, T::ONE).acos(),
                    _ => T::ZERO,
                };
                vertex[p as usize] += n * angle;
                *edge
                    .entry((p.min(q), p.max(q)))
                    .or_insert_with(Vector3::zeros) += n;
            }
        }
        Self {
            face,
            vertex,
            edge,
            outward: !(volume < 0.0),
        }
    }
}

impl<T: Scalar, B: BvQuery<T>> Bvh<T, B> {
    /// The point of the mesh closest to `p` (exact up to rounding: among
    /// triangles whose distances tie, the smallest index). Boxes are visited
    /// nearest first and pruned by their distance bound; no allocation once
    /// the tree's wide layout is derived (on the first query).
    pub fn closest_point(&self, p: &Point3<T>) -> MeshPoint<T> {
        self.closest_point_within(p, T::INFINITY)
            .unwrap_or_else(|| {
                // Only reachable for a non-finite query point: answer with triangle 0.
                let r = point_triangle(p, &self.mesh.triangle(0));
                MeshPoint {
                    triangle: 0,
                    point: r.point,
                    barycentric: [r.u, r.v, r.w],
                    distance_squared: (r.point - p).norm_squared(),
                }
            })
    }

    /// The closest point when it is within `max_distance` of `p`, else `None`
    /// (faster: the search starts with that bound).
    ///
    /// The search runs over the tree's derived 8-wide layout of exact
    /// triangle boxes (the one ray queries use, derived on the first query
    /// and shared with them, see [`Self::prepare_rays`]), whatever the
    /// tree's volume type.
    pub fn closest_point_within(&self, p: &Point3<T>, max_distance: T) -> Option<MeshPoint<T>> {
        let mut best_d2 = if max_distance.finite() {
            max_distance * max_distance
        } else {
            T::INFINITY
        };
        let mut best: Option<MeshPoint<T>> = None;
        let layout = self.ray_layout();
        let wp = WidePoint::new(p, layout.extent());
        let tris = &self.leaf_tris[..];
        // Boxes are kept up to a few ulps past the best distance so that
        // rounding in the squared distances cannot drop a tie.
        let grow = T::ONE + T::EPSILON * T::lit(16.0);
        layout.traverse_nearest(tris, &wp, best_d2 * grow, |first, count, bound| {
            let (first, count) = (first as usize, count as usize);
            for pos in first..first + count {
                let (tri, id) = self.leaf_triangle(pos);
                let r = point_triangle(p, tri);
                let d2 = (r.point - p).norm_squared();
                if d2 < best_d2 || (d2 == best_d2 && best.is_none_or(|b| id < b.triangle)) {
                    best_d2 = d2;
                    best = Some(MeshPoint {
                        triangle: id,
                        point: r.point,
                        barycentric: [r.u, r.v, r.w],
                        distance_squared: d2,
                    });
                }
            }
            if best.is_some() {
                best_d2 * grow
            } else {
                bound
            }
        });
        best
    }

    /// [`Self::closest_point`] for many points in parallel; `result[i]` answers `points[i]`.
    pub fn closest_points(&self, points: &[Point3<T>]) -> Vec<MeshPoint<T>> {
        points.par_iter().map(|p| self.closest_point(p)).collect()
    }

    /// Signed distance from `p` to a closed mesh: negative inside, positive
    /// outside, zero on the surface. The sign comes from the angle-weighted
    /// pseudo-normal of the closest feature (face, edge or vertex), which is
    /// right near edges and vertices where the face normal is not. A point
    /// outside the tree's bounding box takes the sign of the mesh's
    /// orientation (positive for outward normals, a positive signed
    /// volume), however far away, where rounding cannot tell the features'
    /// distances apart.
    ///
    /// # Errors
    /// [`SignedDistanceError::NotClosed`] for an open mesh.
    pub fn signed_distance(&self, p: &Point3<T>) -> Result<SignedDistance<T>, SignedDistanceError> {
        if !self.is_closed() {
            return Err(SignedDistanceError::NotClosed);
        }
        let normals = self
            .pseudo_normals
            .get_or_init(|| PseudoNormals::new(&self.mesh));
        let c = self.closest_point(p);
        let d = c.distance_squared.sqrt();
        if c.distance_squared == T::ZERO {
            return Ok(SignedDistance {
                distance: T::ZERO,
                closest: c,
            });
        }
        let tri = self.mesh.indices()[c.triangle as usize];
        let w = c.barycentric;
        let zero: Vec<usize> = (0..3).filter(|&k| w[k] == T::ZERO).collect();
        let n = match zero.len() {
            // on a vertex: the weight-one corner
            2 => {
                let k = (0..3).find(|k| !zero.contains(k)).unwrap_or(0);
                normals.vertex[tri[k] as usize]
            }
            // on an edge: the edge opposite the zero-weight corner
            1 => {
                let k = zero[0];
                let (a, b) = (tri[(k + 1) % 3], tri[(k + 2) % 3]);
                normals
                    .edge
                    .get(&(a.min(b), a.max(b)))
                    .copied()
                    .unwrap_or(normals.face[c.triangle as usize])
            }
            _ => normals.face[c.triangle as usize],
        };
        // Outside the root volume's box the sign is the mesh's orientation:
        // far away every feature's distance rounds alike, so the closest
        // feature found may be one whose pseudo-normal is nearly
        // orthogonal to the offset, which would make the sign noise.
        let inside = if self.nodes[0].bv.aabb().contains_point(p) {
            (p - c.point).dot(&n) < T::ZERO
        } else {
            !normals.outward
        };
        let sign = if inside { -T::ONE } else { T::ONE };
        Ok(SignedDistance {
            distance: d * sign,
            closest: c,
        })
    }

    /// `true` when `p` is inside the closed mesh or on its surface.
    ///
    /// # Errors
    /// [`SignedDistanceError::NotClosed`] for an open mesh.
    pub fn contains_point(&self, p: &Point3<T>) -> Result<bool, SignedDistanceError> {
        Ok(self.signed_distance(p)?.distance <= T::ZERO)
    }

    /// [`Self::signed_distance`] for many points in parallel; `result[i]` answers `points[i]`.
    ///
    /// # Errors
    /// [`SignedDistanceError::NotClosed`] for an open mesh.
    pub fn signed_distances(
        &self,
        points: &[Point3<T>],
    ) -> Result<Vec<SignedDistance<T>>, SignedDistanceError> {
        points.par_iter().map(|p| self.signed_distance(p)).collect()
    }
}
