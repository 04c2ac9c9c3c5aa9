//! Mesh/mesh distance by simultaneous descent with volume distance bounds
//! (RTCD §6.3, as in PQP with RSS or OBB bounds), ending in clash-narrow's
//! triangle/triangle closest points.

use crate::{BvPair, Bvh, MAX_DEPTH};
use clash_bv::{BoundingVolume, RelativePose};
use clash_math::{Isometry3, Point3, Scalar};
use clash_narrow::closest::triangle_triangle;
use core::ops::ControlFlow;
use rayon::prelude::*;

/// The closest pair of points of two meshes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshDistance<T: Scalar> {
    /// Distance (0 when the meshes touch).
    pub distance: T,
    /// Closest point on the first mesh, in the first mesh's frame.
    pub point_a: Point3<T>,
    /// Closest point on the second mesh, in the first mesh's frame.
    pub point_b: Point3<T>,
    /// The triangles the points lie on: `[index in A, index in B]`.
    pub triangles: [u32; 2],
}

/// Options of [`Bvh::distance_with`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistanceRequest<T: Scalar> {
    /// Only pairs closer than this are of interest: the search starts with
    /// it as the best distance (and answers `None` when nothing is closer).
    pub upper_bound: T,
    /// Stop as soon as a pair closer than this is found ("closer than
    /// tolerance" test); `0` searches for the exact minimum.
    pub stop_below: T,
}

impl<T: Scalar> Default for DistanceRequest<T> {
    /// The exact minimum, no bound.
    fn default() -> Self {
        Self {
            upper_bound: T::INFINITY,
            stop_below: T::ZERO,
        }
    }
}

const STACK: usize = 2 * MAX_DEPTH as usize + 4;

impl<T: Scalar, B: BoundingVolume<T> + BvPair<T, B>> Bvh<T, B> {
    /// The minimum distance between `self` and `other` placed by
    /// `other_to_self`, with the closest points and their triangles. Ties
    /// between equally close pairs go to the first found (deterministic).
    ///
    /// ```
    /// use clash_bvh::{Bvh, BuildOptions, TriMesh};
    /// use clash_bv::Rss;
    /// use clash_math::{Isometry3, Point3};
    /// let tri = TriMesh::new(
    ///     vec![Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)],
    ///     vec![[0, 1, 2]],
    /// )?;
    /// let tree: Bvh<f64, Rss<f64>> = Bvh::build(tri, &BuildOptions::default())?;
    /// let d = tree.distance(&tree, &Isometry3::translation(0.0, 0.0, 2.0));
    /// assert!((d.distance - 2.0).abs() < 1e-12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn distance(
        &self,
        other: &Bvh<T, B>,
        other_to_self: impl Into<RelativePose<T>>,
    ) -> MeshDistance<T> {
        let pose = other_to_self.into();
        match self.distance_with(other, pose, &DistanceRequest::default()) {
            Some(d) => d,
            // Unreachable for finite poses; answer with the first pair.
            None => {
                let c = triangle_triangle(
                    &self.leaf_tris[0],
                    &pose.transform_triangle(&other.leaf_tris[0]),
                );
                MeshDistance {
                    distance: c.distance(),
                    point_a: c.a,
                    point_b: c.b,
                    triangles: [self.order[0], other.order[0]],
                }
            }
        }
    }

    /// Distance with options (see [`DistanceRequest`]); `None` when no pair
    /// is closer than `upper_bound`.
    pub fn distance_with(
        &self,
        other: &Bvh<T, B>,
        other_to_self: impl Into<RelativePose<T>>,
        request: &DistanceRequest<T>,
    ) -> Option<MeshDistance<T>> {
        let pose: RelativePose<T> = other_to_self.into();
        // Intersecting meshes are at distance 0: the collision descent finds
        // a touching pair far sooner than the distance descent proves 0, and
        // the answer then agrees with `intersects` (exact triangle tests).
        let mut contact = None;
        let _ = self.for_each_contact(other, pose, |p| {
            contact = Some(p);
            ControlFlow::Break(())
        });
        if let Some([ia, ib]) = contact {
            let ta = self.mesh.triangle(ia as usize);
            let tb = pose.transform_triangle(&other.mesh.triangle(ib as usize));
            let c = triangle_triangle(&ta, &tb);
            return (request.upper_bound >= T::ZERO).then_some(MeshDistance {
                distance: T::ZERO,
                point_a: c.a,
                point_b: c.b,
                triangles: [ia, ib],
            });
        }
        let mut best_d2 = if request.upper_bound.finite() {
            request.upper_bound * request.upper_bound
        } else {
            T::INFINITY
        };
        let stop_d2 = request.stop_below * request.stop_below;
        let mut best: Option<MeshDistance<T>> = None;
        let to_other = pose.rotation.transpose();
        // The cheap bound: the gap between the two volumes' projections on
        // the line through their centres (a support-function bound; RTCD
        // §5.5.8's separating axis, measured), less a rounding allowance.
        let bound = |a: u32, b: u32| -> T {
            let (na, nb) = (&self.nodes[a as usize].bv, &other.nodes[b as usize].bv);
            let ca = na.center().coords;
            let cb = pose.rotation * nb.center().coords + pose.translation;
            let d = cb - ca;
            let len = d.norm();
            if len <= T::ZERO {
                return T::ZERO;
            }
            let u = d / len;
            let (ra, rb) = (
                na.projection_radius(&u),
                nb.projection_radius(&(to_other * u)),
            );
            let slack = (ca.amax() + cb.amax() + len + ra + rb) * (T::EPSILON * T::lit(64.0));
            let gap = len - ra - rb - slack;
            if gap > T::ZERO { gap * gap } else { T::ZERO }
        };
        // The volume type's own bound (for RSS the exact rectangle distance),
        // dearer: computed only for pairs the cheap bound could not prune.
        let exact_bound = |a: u32, b: u32| -> T {
            let (na, nb) = (&self.nodes[a as usize].bv, &other.nodes[b as usize].bv);
            match na.distance_lower_bound(&nb.transformed(&pose.iso)) {
                Some(d) => d * d,
                None => T::ZERO,
            }
        };
        let mut stack = [(0u32, 0u32, T::ZERO); STACK];
        stack[0] = (0, 0, bound(0, 0));
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let (a, b, lb) = stack[len];
            if lb >= best_d2 && best.is_some() || lb > best_d2 {
                continue;
            }
            let (na, nb) = (&self.nodes[a as usize], &other.nodes[b as usize]);
            // Refine where the cheap bound says little: always for types whose
            // own bound is cheap, and for the others when the cheap bound is
            // under a quarter of the best squared distance (near-touching
            // meshes, where every node pair projects onto overlapping intervals).
            let weak = lb < best_d2 * T::lit(0.25);
            if (B::REFINE_DISTANCE_BOUND || weak) && !(na.is_leaf() && nb.is_leaf()) {
                let lb = exact_bound(a, b);
                if lb >= best_d2 && best.is_some() || lb > best_d2 {
                    continue;
                }
            }
            match (na.triangle_range(), nb.triangle_range()) {
                (Some(ra), Some(rb)) => {
                    for pa in ra {
                        let (ta, ia) = self.leaf_triangle(pa);
                        for pb in rb.clone() {
                            let (tb, ib) = other.leaf_triangle(pb);
                            let c = triangle_triangle(ta, &pose.transform_triangle(tb));
                            if c.distance_squared < best_d2
                                || (best.is_none() && c.distance_squared <= best_d2)
                            {
                                best_d2 = c.distance_squared;
                                best = Some(MeshDistance {
                                    distance: c.distance(),
                                    point_a: c.a,
                                    point_b: c.b,
                                    triangles: [ia, ib],
                                });
                                if best_d2 < stop_d2 || best_d2 == T::ZERO {
                                    return best;
                                }
                            }
                        }
                    }
                }
                (leaf_a, leaf_b) => {
                    let descend_a = leaf_b.is_some()
                        || (leaf_a.is_none() && na.bv.surface_area() >= nb.bv.surface_area());
                    let (c1, c2) = if descend_a {
                        ((a + 1, b), (na.child_or_first, b))
                    } else {
                        ((a, b + 1), (a, nb.child_or_first))
                    };
                    let (d1, d2) = (bound(c1.0, c1.1), bound(c2.0, c2.1));
                    let (near, far) = if d1 <= d2 {
                        ((c1, d1), (c2, d2))
                    } else {
                        ((c2, d2), (c1, d1))
                    };
                    stack[len] = (far.0.0, far.0.1, far.1);
                    stack[len + 1] = (near.0.0, near.0.1, near.1);
                    len += 2;
                }
            }
        }
        best
    }

    /// [`Self::distance`] for many poses in parallel; `result[i]` answers `poses[i]`.
    pub fn distance_poses(
        &self,
        other: &Bvh<T, B>,
        poses: &[Isometry3<T>],
    ) -> Vec<MeshDistance<T>> {
        poses.par_iter().map(|p| self.distance(other, p)).collect()
    }
}
