//! Dispatch of the queries: the closed forms for pairs of built-in shapes
//! that have one, GJK and EPA for the rest.

use super::support_pair;
use super::{ContactResult, DistanceResult, QueryRequest, QueryStatus, WarmStart};
use crate::closed_form::{
    self, ClosedForm, Relative, ball_solid, cuboid_cuboid, swept, triangle_swept,
};
use crate::shape::ShapeRef;
use crate::support::SupportMap;
use clash_math::{Isometry3, Point3, Scalar, Vector3};

/// The closed form of the pair, if both shapes are built-in.
#[inline]
fn closed<T, A, B>(a: &A, pose_a: &Isometry3<T>, b: &B, pose_b: &Isometry3<T>) -> ClosedForm<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    match (a.shape_ref(), b.shape_ref()) {
        (Some(sa), Some(sb)) if has_closed_form(sa, sb) => {
            closed_form::contact(sa, pose_a, sb, pose_b)
        }
        _ => ClosedForm::None,
    }
}

/// `true` for the pairs [`closed_form::contact`] answers.
#[inline]
fn has_closed_form<T: Scalar>(a: ShapeRef<'_, T>, b: ShapeRef<'_, T>) -> bool {
    let swept = |s: ShapeRef<'_, T>| {
        matches!(
            s,
            ShapeRef::Ball(_) | ShapeRef::Capsule(_) | ShapeRef::Segment(_)
        )
    };
    let solid = |s: ShapeRef<'_, T>| {
        matches!(
            s,
            ShapeRef::Cuboid(_) | ShapeRef::Cylinder(_) | ShapeRef::Cone(_)
        )
    };
    let ball = |s: ShapeRef<'_, T>| matches!(s, ShapeRef::Ball(_));
    (swept(a) && swept(b))
        || (ball(a) && solid(b))
        || (solid(a) && ball(b))
        || matches!((a, b), (ShapeRef::Cuboid(_), ShapeRef::Cuboid(_)))
}

/// The request with the warm start replaced by `dir` when it has none.
#[inline]
fn seeded<T: Scalar>(request: &QueryRequest<T>, dir: Vector3<T>) -> QueryRequest<T> {
    let mut r = *request;
    if r.warm_start.is_none() {
        r.warm_start = Some(WarmStart {
            direction: -dir,
            hints: [0, 0],
        });
    }
    r
}

/// A closed-form answer past the upper bound says so.
#[inline]
fn bounded<T: Scalar>(mut c: ContactResult<T>, request: &QueryRequest<T>) -> ContactResult<T> {
    if c.distance > request.distance_upper_bound {
        c.status = QueryStatus::UpperBoundExceeded;
    }
    c
}

/// A pair of a ball and another shape, seen from the ball.
struct BallWithOther<'s, T: Scalar> {
    /// The ball's centre (world frame).
    centre: Point3<T>,
    /// The ball's radius with its margin.
    margin: T,
    /// The other shape.
    other: ShapeRef<'s, T>,
    /// The other shape's pose.
    pose: &'s Isometry3<T>,
    /// The ball is the pair's first shape.
    ball_first: bool,
}

/// The pair seen from its ball when exactly one of the two built-in
/// shapes is a ball (pairs of balls have their own closed form).
#[inline]
fn ball_with_other<'s, T, A, B>(
    a: &'s A,
    pose_a: &'s Isometry3<T>,
    b: &'s B,
    pose_b: &'s Isometry3<T>,
) -> Option<BallWithOther<'s, T>>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let at = |pose: &Isometry3<T>| Point3::from(pose.translation.vector);
    match (a.shape_ref()?, b.shape_ref()?) {
        (ShapeRef::Ball(_), ShapeRef::Ball(_)) => None,
        (ShapeRef::Ball(_), other) => Some(BallWithOther {
            centre: at(pose_a),
            margin: a.margin(),
            other,
            pose: pose_b,
            ball_first: true,
        }),
        (other, ShapeRef::Ball(_)) => Some(BallWithOther {
            centre: at(pose_b),
            margin: b.margin(),
            other,
            pose: pose_a,
            ball_first: false,
        }),
        _ => None,
    }
}

pub(crate) fn contact<T, A, B>(
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
    if let (Some(ShapeRef::Ball(_)), Some(ShapeRef::Ball(_))) = (a.shape_ref(), b.shape_ref()) {
        let (ca, cb) = (
            Point3::from(pose_a.translation.vector),
            Point3::from(pose_b.translation.vector),
        );
        return bounded(swept::ball_ball(&ca, a.margin(), &cb, b.margin()), request);
    }
    // A ball against a box, cylinder or cone, without the common point
    // (matched here, ahead of `ball_with_other`, whose general path does
    // more work).
    match (a.shape_ref(), b.shape_ref()) {
        (Some(ShapeRef::Ball(_)), Some(solid)) => {
            let centre = Point3::from(pose_a.translation.vector);
            if let Some((c, _)) = ball_solid::contact(&centre, a.margin(), solid, pose_b) {
                return bounded(c.swapped_sides(), request);
            }
        }
        (Some(solid), Some(ShapeRef::Ball(_))) => {
            let centre = Point3::from(pose_b.translation.vector);
            if let Some((c, _)) = ball_solid::contact(&centre, b.margin(), solid, pose_a) {
                return bounded(c, request);
            }
        }
        _ => {}
    }
    if let Some(c) = triangle_swept::Cores::of(a, pose_a, b, pose_b).and_then(|c| c.contact()) {
        return bounded(c, request);
    }
    match closed(a, pose_a, b, pose_b) {
        ClosedForm::Contact(c, _) => bounded(c, request),
        ClosedForm::SeparatedBoxes(axis) => {
            support_pair::contact(a, pose_a, b, pose_b, &seeded(request, axis))
        }
        ClosedForm::None => support_pair::contact(a, pose_a, b, pose_b, request),
    }
}

pub(crate) fn distance<T, A, B>(
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
    if let (Some(ShapeRef::Ball(_)), Some(ShapeRef::Ball(_))) = (a.shape_ref(), b.shape_ref()) {
        let (ca, cb) = (
            Point3::from(pose_a.translation.vector),
            Point3::from(pose_b.translation.vector),
        );
        let (ra, rb) = (a.margin(), b.margin());
        let d = cb - ca;
        let len = d.norm();
        let gap = len - ra - rb;
        if gap > T::ZERO {
            let n = d / len;
            let status = if gap > request.distance_upper_bound {
                QueryStatus::UpperBoundExceeded
            } else {
                QueryStatus::Converged
            };
            return DistanceResult {
                distance: gap,
                nearest_points: [ca + n * ra, cb - n * rb],
                normal: n,
                status,
                error_bound: T::ZERO,
                warm_start: WarmStart {
                    direction: -n,
                    hints: [0, 0],
                },
            };
        }
        let p = closed_form::common_point(ca, cb, ra, rb);
        return DistanceResult {
            distance: T::ZERO,
            nearest_points: [p, p],
            normal: Vector3::zeros(),
            status: QueryStatus::Converged,
            error_bound: T::ZERO,
            warm_start: WarmStart::default(),
        };
    }
    // Boxes have no closed-form distance: GJK measures it directly.
    if let (Some(ShapeRef::Cuboid(_)), Some(ShapeRef::Cuboid(_))) = (a.shape_ref(), b.shape_ref()) {
        return support_pair::distance(a, pose_a, b, pose_b, request);
    }
    if let Some(cores) = triangle_swept::Cores::of(a, pose_a, b, pose_b) {
        return match cores.contact() {
            Some(c) => {
                let c = bounded(c, request);
                DistanceResult {
                    distance: c.distance,
                    nearest_points: c.nearest_points,
                    normal: c.normal,
                    status: c.status,
                    error_bound: T::ZERO,
                    warm_start: c.warm_start,
                }
            }
            None => {
                let p = cores.common_point();
                DistanceResult {
                    distance: T::ZERO,
                    nearest_points: [p, p],
                    normal: Vector3::zeros(),
                    status: QueryStatus::Converged,
                    error_bound: T::ZERO,
                    warm_start: WarmStart::default(),
                }
            }
        };
    }
    // A ball against a box, cylinder or cone, without the contact.
    if let Some(p) = ball_with_other(a, pose_a, b, pose_b) {
        let bound = request.distance_upper_bound;
        if let Some(d) =
            ball_solid::distance(&p.centre, p.margin, p.other, p.pose, p.ball_first, bound)
        {
            return d;
        }
    }
    match closed(a, pose_a, b, pose_b) {
        ClosedForm::Contact(c, Some(common)) => {
            let c = bounded(c, request);
            if c.distance > T::ZERO {
                DistanceResult {
                    distance: c.distance,
                    nearest_points: c.nearest_points,
                    normal: c.normal,
                    status: c.status,
                    error_bound: T::ZERO,
                    warm_start: c.warm_start,
                }
            } else {
                DistanceResult {
                    distance: T::ZERO,
                    nearest_points: [common, common],
                    normal: Vector3::zeros(),
                    status: QueryStatus::Converged,
                    error_bound: T::ZERO,
                    warm_start: c.warm_start,
                }
            }
        }
        ClosedForm::SeparatedBoxes(axis) => {
            support_pair::distance(a, pose_a, b, pose_b, &seeded(request, axis))
        }
        // Overlapping boxes: GJK finds a common point.
        ClosedForm::Contact(_, None) | ClosedForm::None => {
            support_pair::distance(a, pose_a, b, pose_b, request)
        }
    }
}

pub(crate) fn intersects<T, A, B>(
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
    if let (Some(ShapeRef::Cuboid(ca)), Some(ShapeRef::Cuboid(cb))) = (a.shape_ref(), b.shape_ref())
    {
        if ca.margin() == T::ZERO && cb.margin() == T::ZERO && request.security_margin == T::ZERO {
            let rel = Relative::between(pose_a, pose_b);
            return matches!(
                cuboid_cuboid::sat(&ca.half_extents(), &cb.half_extents(), &rel),
                cuboid_cuboid::Sat::Overlap { .. }
            );
        }
        return support_pair::intersects(a, pose_a, b, pose_b, request);
    }
    if let Some(cores) = triangle_swept::Cores::of(a, pose_a, b, pose_b) {
        return cores.gap() <= request.security_margin;
    }
    match closed(a, pose_a, b, pose_b) {
        ClosedForm::Contact(c, _) => c.distance <= request.security_margin,
        _ => support_pair::intersects(a, pose_a, b, pose_b, request),
    }
}
