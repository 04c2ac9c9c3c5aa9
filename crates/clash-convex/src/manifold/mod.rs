//! Contact manifolds: up to four points where two shapes touch, for
//! physics users (a box resting on a box needs its four corners, not one
//! deepest point).
//!
//! The normal and depth come from [`crate::query::contact`]. When the
//! normal is a face normal of one shape (box/box, hull/hull, box/hull: the
//! reference face) the other shape's face most opposed to it (the incident
//! face) is clipped against the reference face's side planes
//! (Sutherland–Hodgman, `clip`) and the clipped corners no farther than
//! the request's `security_margin` become contact points, reduced to the
//! four that span the largest area (`reduce`). Other pairs, and
//! edge-against-edge contacts, get the one deepest point.

pub(crate) mod clip;
mod faces;
mod reduce;

use crate::query::{QueryRequest, contact};
use crate::support::SupportMap;
use clash_math::{Isometry3, Point3, Scalar, Vector3};
use faces::Faces;
use serde::{Deserialize, Serialize};

/// One point of a manifold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct ContactPoint<T: Scalar> {
    /// The point on the first shape (world frame).
    pub point_a: Point3<T>,
    /// The point on the second shape (world frame).
    pub point_b: Point3<T>,
    /// Signed distance along the manifold's normal:
    /// `point_b - point_a = distance * normal` (negative when overlapping).
    pub distance: T,
}

/// Up to four contact points sharing one normal.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct ContactManifold<T: Scalar> {
    /// Unit normal from the first shape to the second (world frame): the
    /// reference face's normal when the points were clipped from faces,
    /// else the contact's.
    pub normal: Vector3<T>,
    points: [ContactPoint<T>; 4],
    len: usize,
}

impl<T: Scalar> ContactManifold<T> {
    /// The contact points (none when the shapes are farther apart than the
    /// request's `security_margin`).
    pub fn points(&self) -> &[ContactPoint<T>] {
        &self.points[..self.len]
    }

    /// The deepest point's signed distance (infinite when empty).
    pub fn distance(&self) -> T {
        self.points()
            .iter()
            .map(|p| p.distance)
            .fold(T::INFINITY, |a, b| a.min_of(b))
    }

    fn empty(normal: Vector3<T>) -> Self {
        let zero = ContactPoint {
            point_a: Point3::origin(),
            point_b: Point3::origin(),
            distance: T::ZERO,
        };
        Self {
            normal,
            points: [zero; 4],
            len: 0,
        }
    }

    fn push(&mut self, p: ContactPoint<T>) {
        if self.len < 4 {
            self.points[self.len] = p;
            self.len += 1;
        }
    }
}

/// Normals closer than this to a face normal (`1 - cos`) count as that
/// face's: the contact is face against something.
const FACE_ALIGNMENT: f64 = 1e-6;

/// The contact manifold of two shapes: up to four points with one normal,
/// for every pair closer than `request.security_margin` (touching and
/// overlapping ones at the default 0).
///
/// ```
/// use clash_convex::{Cuboid, manifold::contact_manifold, query::QueryRequest};
/// use clash_math::{Isometry3, Vector3};
/// let b = Cuboid::new(Vector3::new(1.0_f64, 1.0, 1.0))?;
/// // A box resting 0.01 deep on another, turned a little about the normal.
/// let pose = Isometry3::new(Vector3::new(0.2, 0.1, 1.99), Vector3::z() * 0.3);
/// let m = contact_manifold(&b, &Isometry3::identity(), &b, &pose, &QueryRequest::default());
/// assert_eq!(m.points().len(), 4);
/// assert!(m.points().iter().all(|p| (p.distance + 0.01).abs() < 1e-12));
/// assert!((m.normal - Vector3::z()).norm() < 1e-12);
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
pub fn contact_manifold<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    request: &QueryRequest<T>,
) -> ContactManifold<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let c = contact(a, pose_a, b, pose_b, request);
    let mut m = ContactManifold::empty(c.normal);
    if !c.distance.finite() || c.distance > request.security_margin {
        return m;
    }
    let deepest = ContactPoint {
        point_a: c.nearest_points[0],
        point_b: c.nearest_points[1],
        distance: c.distance,
    };
    let (fa, fb) = (
        a.shape_ref().and_then(Faces::of),
        b.shape_ref().and_then(Faces::of),
    );
    if let (Some(fa), Some(fb)) = (fa, fb) {
        let clipped = faces::clip_faces(
            &fa,
            pose_a,
            &fb,
            pose_b,
            &c.normal,
            T::lit(FACE_ALIGNMENT),
            request.security_margin,
            a.margin(),
            b.margin(),
        );
        if let Some((points, normal)) = clipped {
            for p in reduce::four(&points) {
                m.push(p);
            }
            if m.len > 0 {
                m.normal = normal;
                return m;
            }
        }
    }
    m.push(deepest);
    m
}
