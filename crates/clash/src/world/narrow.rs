//! The narrow phase of one pair of objects, whatever their kinds: a mesh
//! pair goes to the tree/tree queries of clash-bvh, a mesh and a convex
//! shape to the tree/shape queries, two convex shapes to clash-convex.
//! Every answer is in the world frame.

use super::answer::Contact;
use super::object::{Geometry, WorldVolume};
use clash_bvh::{Bvh, CollisionRequest, DistanceRequest};
use clash_convex::query::{self, QueryRequest, QueryStatus};
use clash_convex::{Shape, TriangleShape};
use clash_math::{Isometry3, Point3, Scalar, Triangle, Vector3};

/// A geometry with its world pose.
pub(crate) struct Placed<'a, T: Scalar, B: WorldVolume<T>> {
    pub(crate) geometry: &'a Geometry<T, B>,
    pub(crate) pose: &'a Isometry3<T>,
}

impl<T: Scalar, B: WorldVolume<T>> Clone for Placed<'_, T, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Scalar, B: WorldVolume<T>> Copy for Placed<'_, T, B> {}

/// The closest points of a pair (world frame) and the triangles they lie on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Closest<T: Scalar> {
    pub(crate) distance: T,
    pub(crate) points: [Point3<T>; 2],
    pub(crate) triangles: [Option<u32>; 2],
}

impl<T: Scalar> Closest<T> {
    /// The same answer seen from the other object.
    fn swapped(self) -> Self {
        Self {
            distance: self.distance,
            points: [self.points[1], self.points[0]],
            triangles: [self.triangles[1], self.triangles[0]],
        }
    }
}

fn convex_request<T: Scalar>(margin: T, upper_bound: T) -> QueryRequest<T> {
    QueryRequest {
        security_margin: margin,
        distance_upper_bound: upper_bound,
        ..QueryRequest::default()
    }
}

/// `true` when the objects are closer than `margin` (touching counts).
pub(crate) fn intersects<T: Scalar, B: WorldVolume<T>>(
    a: Placed<'_, T, B>,
    b: Placed<'_, T, B>,
    margin: T,
) -> bool {
    let request = convex_request(margin, T::INFINITY);
    match (a.geometry, b.geometry) {
        (Geometry::Mesh(ta), Geometry::Mesh(tb)) => {
            let b_to_a = a.pose.inv_mul(b.pose);
            if margin == T::ZERO {
                ta.intersects(tb, b_to_a)
            } else {
                let within = DistanceRequest {
                    upper_bound: margin,
                    stop_below: margin,
                };
                ta.distance_with(tb, b_to_a, &within).is_some()
            }
        }
        (Geometry::Mesh(t), Geometry::Convex(s)) => {
            t.intersects_convex(s, &a.pose.inv_mul(b.pose), &request)
        }
        (Geometry::Convex(s), Geometry::Mesh(t)) => {
            t.intersects_convex(s, &b.pose.inv_mul(a.pose), &request)
        }
        (Geometry::Convex(sa), Geometry::Convex(sb)) => {
            query::intersects(sa, a.pose, sb, b.pose, &request)
        }
    }
}

/// The contacts of a pair closer than `margin`, at most `max` of them
/// (empty when the pair is farther apart).
pub(crate) fn contacts<T: Scalar, B: WorldVolume<T>>(
    a: Placed<'_, T, B>,
    b: Placed<'_, T, B>,
    margin: T,
    max: usize,
) -> Vec<Contact<T>> {
    match (a.geometry, b.geometry) {
        (Geometry::Mesh(ta), Geometry::Mesh(tb)) => {
            mesh_mesh_contacts(ta, a.pose, tb, b.pose, margin, max)
        }
        (Geometry::Mesh(t), Geometry::Convex(s)) => {
            mesh_convex_contacts(t, a.pose, s, b.pose, margin, max)
        }
        (Geometry::Convex(s), Geometry::Mesh(t)) => {
            mesh_convex_contacts(t, b.pose, s, a.pose, margin, max)
                .into_iter()
                .map(Contact::swapped)
                .collect()
        }
        (Geometry::Convex(sa), Geometry::Convex(sb)) => {
            let request = convex_request(margin, T::INFINITY);
            if !query::intersects(sa, a.pose, sb, b.pose, &request) {
                return Vec::new();
            }
            let c = query::contact(sa, a.pose, sb, b.pose, &request);
            vec![Contact {
                distance: c.distance,
                normal: c.normal,
                points: c.nearest_points,
                triangles: [None, None],
            }]
        }
    }
}

/// A mesh triangle as a shape (mesh vertices are finite, so this cannot fail).
fn triangle_shape<T: Scalar>(t: &Triangle<T>) -> TriangleShape<T> {
    TriangleShape::new(t.a, t.b, t.c).expect("mesh vertices are finite")
}

fn mesh_mesh_contacts<T: Scalar, B: WorldVolume<T>>(
    ta: &Bvh<T, B>,
    pa: &Isometry3<T>,
    tb: &Bvh<T, B>,
    pb: &Isometry3<T>,
    margin: T,
    max: usize,
) -> Vec<Contact<T>> {
    let b_to_a = pa.inv_mul(pb);
    let pairs = ta.collide(tb, b_to_a, &CollisionRequest::first(max)).pairs;
    if pairs.is_empty() {
        if margin <= T::ZERO {
            return Vec::new();
        }
        let within = DistanceRequest {
            upper_bound: margin,
            stop_below: T::ZERO,
        };
        return ta
            .distance_with(tb, b_to_a, &within)
            .map(|d| {
                let (p, q) = (pa * d.point_a, pa * d.point_b);
                vec![Contact {
                    distance: d.distance,
                    normal: (q - p)
                        .try_normalize(T::ZERO)
                        .unwrap_or_else(Vector3::zeros),
                    points: [p, q],
                    triangles: [Some(d.triangles[0]), Some(d.triangles[1])],
                }]
            })
            .unwrap_or_default();
    }
    let identity = Isometry3::identity();
    let request = QueryRequest::default();
    pairs
        .into_iter()
        .map(|[ia, ib]| {
            let u = triangle_shape(&ta.mesh().triangle(ia as usize).transformed(pa));
            let v = triangle_shape(&tb.mesh().triangle(ib as usize).transformed(pb));
            let c = query::contact(&u, &identity, &v, &identity, &request);
            Contact {
                distance: c.distance.min_of(T::ZERO),
                normal: c.normal,
                points: c.nearest_points,
                triangles: [Some(ia), Some(ib)],
            }
        })
        .collect()
}

fn mesh_convex_contacts<T: Scalar, B: WorldVolume<T>>(
    tree: &Bvh<T, B>,
    mesh_pose: &Isometry3<T>,
    shape: &Shape<T>,
    shape_pose: &Isometry3<T>,
    margin: T,
    max: usize,
) -> Vec<Contact<T>> {
    let local = mesh_pose.inv_mul(shape_pose);
    let request = convex_request(margin, T::INFINITY);
    let mut triangles = tree.triangles_meeting_convex(shape, &local, &request);
    triangles.truncate(max);
    triangles
        .into_iter()
        .map(|id| {
            let t = triangle_shape(&tree.mesh().triangle(id as usize).transformed(mesh_pose));
            let c = query::contact(&t, &Isometry3::identity(), shape, shape_pose, &request);
            Contact {
                distance: c.distance,
                normal: c.normal,
                points: c.nearest_points,
                triangles: [Some(id), None],
            }
        })
        .collect()
}

/// The distance of a pair with its closest points, when it is below
/// `upper_bound`; a search may stop at any pair closer than `stop_below`.
pub(crate) fn distance<T: Scalar, B: WorldVolume<T>>(
    a: Placed<'_, T, B>,
    b: Placed<'_, T, B>,
    upper_bound: T,
    stop_below: T,
) -> Option<Closest<T>> {
    let found = match (a.geometry, b.geometry) {
        (Geometry::Mesh(ta), Geometry::Mesh(tb)) => {
            let request = DistanceRequest {
                upper_bound,
                stop_below,
            };
            ta.distance_with(tb, a.pose.inv_mul(b.pose), &request)
                .map(|d| Closest {
                    distance: d.distance,
                    points: [a.pose * d.point_a, a.pose * d.point_b],
                    triangles: [Some(d.triangles[0]), Some(d.triangles[1])],
                })
        }
        (Geometry::Mesh(t), Geometry::Convex(s)) => {
            mesh_convex_distance(t, a.pose, s, b.pose, upper_bound)
        }
        (Geometry::Convex(s), Geometry::Mesh(t)) => {
            mesh_convex_distance(t, b.pose, s, a.pose, upper_bound).map(Closest::swapped)
        }
        (Geometry::Convex(sa), Geometry::Convex(sb)) => {
            let r = query::distance(
                sa,
                a.pose,
                sb,
                b.pose,
                &convex_request(T::ZERO, upper_bound),
            );
            (r.status != QueryStatus::UpperBoundExceeded && r.status != QueryStatus::NonFinitePose)
                .then_some(Closest {
                    distance: r.distance,
                    points: r.nearest_points,
                    triangles: [None, None],
                })
        }
    };
    found.filter(|c| c.distance < upper_bound)
}

fn mesh_convex_distance<T: Scalar, B: WorldVolume<T>>(
    tree: &Bvh<T, B>,
    mesh_pose: &Isometry3<T>,
    shape: &Shape<T>,
    shape_pose: &Isometry3<T>,
    upper_bound: T,
) -> Option<Closest<T>> {
    let local = mesh_pose.inv_mul(shape_pose);
    tree.distance_to_convex(shape, &local, &convex_request(T::ZERO, upper_bound))
        .map(|d| Closest {
            distance: d.distance,
            points: [
                mesh_pose * d.nearest_points[0],
                mesh_pose * d.nearest_points[1],
            ],
            triangles: [Some(d.triangle), None],
        })
}
