//! The queries for any pair of convex shapes under two poses:
//! [`intersects`], [`distance`] and [`contact`].
//!
//! Each takes the shapes with their world poses and a [`QueryRequest`];
//! pairs of built-in shapes with a closed form (balls, capsules, segments
//! among themselves; a ball against a box, a cylinder or a cone; box
//! against box) get it, every other pair runs GJK (and EPA for depths) on
//! the shapes' cores and adds their margins exactly.
//!
//! Every call terminates and never answers NaN: a non-finite pose gives
//! [`QueryStatus::NonFinitePose`] (and `intersects` gives `false`); a
//! user's support map that answers NaN stops GJK at the last finite state.

mod dispatch;
mod request;
mod result;
mod scaled;
mod support_pair;

pub use request::QueryRequest;
pub use result::{ContactResult, DistanceResult, QueryStatus, WarmStart};

use crate::support::SupportMap;
use clash_math::{Isometry3, Scalar, isometry_is_finite};

/// `true` when every number of both poses is finite.
#[inline]
fn finite<T: Scalar>(a: &Isometry3<T>, b: &Isometry3<T>) -> bool {
    isometry_is_finite(a) && isometry_is_finite(b)
}

/// `true` when the shapes are closer than the request's `security_margin`
/// (touching counts; distances within rounding of the margin count as
/// touching: the answer is exact up to rounding, whatever the request's
/// tolerance).
///
/// ```
/// use clash_convex::{Cylinder, query::{intersects, QueryRequest}};
/// use clash_math::Isometry3;
/// let c = Cylinder::new(1.0_f64, 0.5)?;
/// let req = QueryRequest::default();
/// assert!(intersects(&c, &Isometry3::identity(), &c, &Isometry3::translation(1.0, 0.0, 0.0), &req));
/// assert!(!intersects(&c, &Isometry3::identity(), &c, &Isometry3::translation(1.01, 0.0, 0.0), &req));
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
pub fn intersects<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    request: &QueryRequest<T>,
) -> bool
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    if !finite(pose_a, pose_b) {
        return false;
    }
    match scaled::scaling(a, pose_a, b, pose_b) {
        Some(f) => scaled::intersects(a, pose_a, b, pose_b, request, f),
        None => dispatch::intersects(a, pose_a, b, pose_b, request),
    }
}

/// The distance between the shapes with the closest point on each and the
/// separating direction; 0 (with a common point) when they overlap.
///
/// ```
/// use clash_convex::{Cone, Cuboid, query::{distance, QueryRequest}};
/// use clash_math::{Isometry3, Vector3};
/// let cone = Cone::new(1.0_f64, 0.5)?;
/// let slab = Cuboid::new(Vector3::new(5.0, 5.0, 0.5))?;
/// // The cone's apex 1 above its centre, the slab's top 0.5 below its centre.
/// let d = distance(&cone, &Isometry3::identity(), &slab, &Isometry3::translation(0.0, 0.0, 3.0),
///                  &QueryRequest::default());
/// assert!((d.distance - 1.5).abs() < 1e-12);
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
pub fn distance<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    request: &QueryRequest<T>,
) -> DistanceResult<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    if !finite(pose_a, pose_b) {
        return DistanceResult::non_finite();
    }
    match scaled::scaling(a, pose_a, b, pose_b) {
        Some(f) => scaled::distance(a, pose_a, b, pose_b, request, f),
        None => dispatch::distance(a, pose_a, b, pose_b, request),
    }
}

/// The signed distance between the shapes: when they overlap, minus the
/// penetration depth, with the normal from the first to the second and a
/// witness point on each; when apart, the distance with its points. Exactly
/// 0 when they touch (within rounding).
///
/// ```
/// use clash_convex::{Cuboid, query::{contact, QueryRequest}};
/// use clash_math::{Isometry3, Vector3};
/// let b = Cuboid::new(Vector3::new(1.0_f64, 1.0, 1.0))?;
/// let c = contact(&b, &Isometry3::identity(), &b, &Isometry3::translation(1.9, 0.0, 0.0),
///                 &QueryRequest::default());
/// assert!((c.penetration_depth() - 0.1).abs() < 1e-12);
/// assert!((c.normal - Vector3::x()).norm() < 1e-12);
/// let touching = contact(&b, &Isometry3::identity(), &b, &Isometry3::translation(2.0, 0.0, 0.0),
///                        &QueryRequest::default());
/// assert_eq!(touching.distance, 0.0);
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
pub fn contact<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    request: &QueryRequest<T>,
) -> ContactResult<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    if !finite(pose_a, pose_b) {
        return ContactResult::non_finite();
    }
    match scaled::scaling(a, pose_a, b, pose_b) {
        Some(f) => scaled::contact(a, pose_a, b, pose_b, request, f),
        None => dispatch::contact(a, pose_a, b, pose_b, request),
    }
}
