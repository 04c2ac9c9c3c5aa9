//! A mesh against a convex shape of clash-convex placed by a pose in the
//! mesh's frame: whether they meet, which triangles meet the shape, the
//! distance with its witness points and triangle, and a contact (depth,
//! normal, points) per triangle.
//!
//! Nodes are pruned with the shape's bounding box (overlap) or bounding
//! ball (distance); each leaf triangle runs clash-convex's query with the
//! triangle as a [`TriangleShape`]. Two shapes keep the exact tests of the
//! primitive queries when the request has no security margin: a triangle
//! without margin goes through the exact triangle/triangle test (on its
//! corners placed by the pose), a box without margin through the
//! box/triangle test.

use crate::{BvQuery, Bvh, MAX_DEPTH};
use clash_bv::{BoundingVolume, Obb};
use clash_convex::query::{self, ContactResult, QueryRequest, QueryStatus};
use clash_convex::shape::bounding;
use clash_convex::{ShapeRef, SupportMap, TriangleShape};
use clash_math::stack::Stack;
use clash_math::{Isometry3, Point3, Scalar, Triangle, isometry_is_finite};
use clash_narrow::overlap;

const STACK: usize = MAX_DEPTH as usize + 2;

/// The triangle of a mesh closest to a convex shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshConvexDistance<T: Scalar> {
    /// Index of the triangle: the smallest index among triangles at the
    /// same positive distance; when the mesh and the shape touch or
    /// overlap, the first triangle found meeting the shape.
    pub triangle: u32,
    /// The distance between mesh and shape; 0 when they touch or overlap.
    pub distance: T,
    /// The closest points, on the mesh and on the shape (the mesh's frame).
    pub nearest_points: [Point3<T>; 2],
    /// How the triangle's query ended: `Converged`, or `IterationLimit`
    /// when the request's iteration limit stopped it first.
    pub status: QueryStatus,
}

/// The contact of one triangle of a mesh with a convex shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TriangleContact<T: Scalar> {
    /// Index of the triangle.
    pub triangle: u32,
    /// The signed distance (minus the depth when they overlap), the normal
    /// from the triangle to the shape and a witness point on each (the
    /// mesh's frame).
    pub contact: ContactResult<T>,
}

/// The leaf test of the overlap queries for one shape and request.
enum LeafTest<T: Scalar> {
    /// A triangle without margin, placed: the exact triangle/triangle test.
    Triangle(Triangle<T>),
    /// A box without margin, placed: the box/triangle test.
    Box(Obb<T>),
    /// Any other shape or request: clash-convex's `intersects`.
    General,
}

impl<T: Scalar> LeafTest<T> {
    fn new<S: SupportMap<T> + ?Sized>(
        shape: &S,
        pose: &Isometry3<T>,
        request: &QueryRequest<T>,
    ) -> Self {
        if request.security_margin != T::ZERO || shape.margin() != T::ZERO {
            return Self::General;
        }
        match shape.shape_ref() {
            Some(ShapeRef::Triangle(t)) => Self::Triangle(t.triangle().transformed(pose)),
            Some(ShapeRef::Cuboid(b)) => Self::Box(Obb {
                center: Point3::from(pose.translation.vector),
                axes: pose.rotation.to_rotation_matrix().into_inner(),
                half_extents: b.half_extents(),
            }),
            _ => Self::General,
        }
    }

    fn meets<S: SupportMap<T> + ?Sized>(
        &self,
        triangle: &Triangle<T>,
        shape: &S,
        pose: &Isometry3<T>,
        request: &QueryRequest<T>,
    ) -> bool {
        match self {
            Self::Triangle(u) => overlap::triangle_triangle(triangle, u),
            Self::Box(b) => overlap::obb_triangle(b, triangle),
            Self::General => {
                let t = triangle_shape(triangle);
                query::intersects(&t, &Isometry3::identity(), shape, pose, request)
            }
        }
    }
}

/// A mesh triangle as a shape (mesh vertices are finite, so this cannot fail).
fn triangle_shape<T: Scalar>(t: &Triangle<T>) -> TriangleShape<T> {
    TriangleShape::new(t.a, t.b, t.c).expect("mesh vertices are finite")
}

impl<T: Scalar, B: BvQuery<T>> Bvh<T, B> {
    /// `true` when some triangle is closer to `shape`, placed by `pose` in
    /// the mesh's frame, than the request's `security_margin` (touching
    /// counts). A pose that is not finite meets nothing.
    ///
    /// ```
    /// use clash_bv::Obb;
    /// use clash_bvh::{BuildOptions, Bvh, TriMesh};
    /// use clash_convex::{Ball, query::QueryRequest};
    /// use clash_math::{Isometry3, Point3};
    ///
    /// let floor = TriMesh::new(
    ///     vec![Point3::new(-5.0, -5.0, 0.0), Point3::new(5.0, -5.0, 0.0), Point3::new(0.0, 5.0, 0.0)],
    ///     vec![[0, 1, 2]],
    /// )?;
    /// let tree = Bvh::<f64, Obb<f64>>::build(floor, &BuildOptions::default())?;
    /// let ball = Ball::new(0.5)?;
    /// let req = QueryRequest::default();
    /// assert!(tree.intersects_convex(&ball, &Isometry3::translation(0.0, 0.0, 0.5), &req));
    /// assert!(!tree.intersects_convex(&ball, &Isometry3::translation(0.0, 0.0, 0.51), &req));
    /// let d = tree.distance_to_convex(&ball, &Isometry3::translation(0.0, 0.0, 2.0), &req).unwrap();
    /// assert!((d.distance - 1.5).abs() < 1e-12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn intersects_convex<S: SupportMap<T> + ?Sized>(
        &self,
        shape: &S,
        pose: &Isometry3<T>,
        request: &QueryRequest<T>,
    ) -> bool {
        let mut found = false;
        self.visit_triangles_meeting_convex(shape, pose, request, |_| {
            found = true;
            false
        });
        found
    }

    /// Indices of the triangles closer to `shape` (placed by `pose` in the
    /// mesh's frame) than the request's `security_margin`, sorted.
    pub fn triangles_meeting_convex<S: SupportMap<T> + ?Sized>(
        &self,
        shape: &S,
        pose: &Isometry3<T>,
        request: &QueryRequest<T>,
    ) -> Vec<u32> {
        let mut out = Vec::new();
        self.visit_triangles_meeting_convex(shape, pose, request, |id| {
            out.push(id);
            true
        });
        out.sort_unstable();
        out
    }

    /// The contact of every triangle closer to `shape` than the request's
    /// `security_margin` (touching counts), in triangle order: signed
    /// distance, normal from the triangle to the shape, witness points.
    pub fn contacts_with_convex<S: SupportMap<T> + ?Sized>(
        &self,
        shape: &S,
        pose: &Isometry3<T>,
        request: &QueryRequest<T>,
    ) -> Vec<TriangleContact<T>> {
        let identity = Isometry3::identity();
        self.triangles_meeting_convex(shape, pose, request)
            .into_iter()
            .map(|id| {
                let t = triangle_shape(&self.mesh.triangle(id as usize));
                TriangleContact {
                    triangle: id,
                    contact: query::contact(&t, &identity, shape, pose, request),
                }
            })
            .collect()
    }

    /// The distance from the mesh to `shape` (placed by `pose` in the
    /// mesh's frame) with the closest triangle and points; `None` when the
    /// pose is not finite or every triangle is farther than the request's
    /// `distance_upper_bound`. The search stops at the first triangle met.
    /// Without a security margin the distance is 0 exactly when
    /// [`Self::intersects_convex`] says the two meet: near contact, where
    /// GJK's distance is only within its tolerance of 0, the overlap test
    /// decides.
    pub fn distance_to_convex<S: SupportMap<T> + ?Sized>(
        &self,
        shape: &S,
        pose: &Isometry3<T>,
        request: &QueryRequest<T>,
    ) -> Option<MeshConvexDistance<T>> {
        if !isometry_is_finite(pose) {
            return None;
        }
        let ball = bounding::bounding_sphere(shape, pose);
        // A point bound shrunk by its rounding, minus the ball's radius.
        let shrink = T::ONE - T::EPSILON * T::lit(4.0);
        let lower = |bv: &B| {
            let d = bv.point_distance_squared_lower_bound(&ball.center).sqrt() * shrink;
            (d - ball.radius).max(T::ZERO)
        };
        let identity = Isometry3::identity();
        let mut req = *request;
        let mut best: Option<MeshConvexDistance<T>> = None;
        let mut stack = Stack::<_, STACK>::with((0u32, lower(&self.nodes[0].bv)));
        while let Some((i, lb)) = stack.pop() {
            if lb > req.distance_upper_bound {
                continue;
            }
            let node = &self.nodes[i as usize];
            match node.triangle_range() {
                Some(range) => {
                    for pos in range {
                        let (tri, id) = self.leaf_triangle(pos);
                        let r = query::distance(&triangle_shape(tri), &identity, shape, pose, &req);
                        if r.status == QueryStatus::UpperBoundExceeded
                            || r.distance > req.distance_upper_bound
                        {
                            continue;
                        }
                        let closer = best.is_none_or(|b| {
                            r.distance < b.distance || (r.distance == b.distance && id < b.triangle)
                        });
                        if closer {
                            req.distance_upper_bound = r.distance;
                            best = Some(MeshConvexDistance {
                                triangle: id,
                                distance: r.distance,
                                nearest_points: r.nearest_points,
                                status: r.status,
                            });
                            if r.distance == T::ZERO {
                                return best;
                            }
                        }
                    }
                }
                None => {
                    let (l, r) = (i + 1, node.child_or_first);
                    let dl = lower(&self.nodes[l as usize].bv);
                    let dr = lower(&self.nodes[r as usize].bv);
                    let (near, far) = if dl <= dr {
                        ((l, dl), (r, dr))
                    } else {
                        ((r, dr), (l, dl))
                    };
                    stack.push(far);
                    stack.push(near);
                }
            }
        }
        // Near contact GJK's distance is within its tolerance of 0, and may
        // not agree with the overlap test: within `√ε` of the scene's
        // magnitude of 0 the overlap test that `intersects_convex` runs
        // decides, so the two queries agree.
        if let Some(b) = &mut best
            && b.distance > T::ZERO
            && request.security_margin == T::ZERO
        {
            let root = self.nodes[0].bv.aabb();
            let magnitude = root.min.coords.amax().max_of(root.max.coords.amax())
                + ball.center.coords.amax()
                + ball.radius;
            if b.distance <= magnitude * T::EPSILON.sqrt() {
                let mut meeting = None;
                self.visit_triangles_meeting_convex(shape, pose, request, |id| {
                    meeting = Some(id);
                    false
                });
                if let Some(id) = meeting {
                    let t = triangle_shape(&self.mesh.triangle(id as usize));
                    let r = query::distance(&t, &identity, shape, pose, request);
                    *b = MeshConvexDistance {
                        triangle: id,
                        distance: T::ZERO,
                        nearest_points: r.nearest_points,
                        status: r.status,
                    };
                }
            }
        }
        best
    }

    /// Calls `f` with each triangle meeting the shape in traversal order
    /// until it returns `false`.
    fn visit_triangles_meeting_convex<S: SupportMap<T> + ?Sized>(
        &self,
        shape: &S,
        pose: &Isometry3<T>,
        request: &QueryRequest<T>,
        mut f: impl FnMut(u32) -> bool,
    ) {
        if !isometry_is_finite(pose) {
            return;
        }
        let mut region = bounding::obb(shape, pose);
        if request.security_margin > T::ZERO {
            region.half_extents = region.half_extents.add_scalar(request.security_margin);
        }
        let leaf = LeafTest::new(shape, pose, request);
        let mut stack = Stack::<_, STACK>::with(0u32);
        while let Some(i) = stack.pop() {
            let node = &self.nodes[i as usize];
            if !node.bv.bounding_obb().overlaps(&region) {
                continue;
            }
            match node.triangle_range() {
                Some(range) => {
                    for pos in range {
                        let (tri, id) = self.leaf_triangle(pos);
                        if leaf.meets(tri, shape, pose, request) && !f(id) {
                            return;
                        }
                    }
                }
                None => {
                    stack.push(node.child_or_first);
                    stack.push(i + 1);
                }
            }
        }
    }
}
