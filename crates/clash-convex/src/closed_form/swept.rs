//! Pairs of shapes whose cores are points or segments: ball/ball,
//! ball/capsule, capsule/capsule, and segments with or without margins.
//! The closest points of the cores (clash-narrow's point/segment and
//! segment/segment, RTCD §5.1.2 and §5.1.9) give the exact answer; the
//! margins are added along the line between them.

use super::from_cores;
use crate::query::ContactResult;
use crate::shape::ShapeRef;
use crate::shape::bounding::any_orthogonal;
use clash_math::{Isometry3, Point3, Scalar, Segment, Vector3};
use clash_narrow::closest::{point_segment, segment_segment};

/// A core that is a point or a segment.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Core<T: Scalar> {
    Point(Point3<T>),
    Segment(Segment<T>),
}

impl<T: Scalar> Core<T> {
    /// The core of a ball, capsule or segment shape placed by `pose`.
    #[inline]
    pub fn of(s: ShapeRef<'_, T>, pose: &Isometry3<T>) -> Option<Self> {
        let t = Point3::from(pose.translation.vector);
        match s {
            ShapeRef::Ball(_) => Some(Core::Point(t)),
            ShapeRef::Capsule(c) => {
                // The capsule's axis is the rotation's third column.
                let q = pose.rotation.quaternion();
                let (x, y, z, w) = (q.i, q.j, q.k, q.w);
                let two = T::TWO;
                let axis = Vector3::new(
                    two * (x * z + w * y),
                    two * (y * z - w * x),
                    T::ONE - two * (x * x + y * y),
                ) * c.half_height();
                Some(Core::Segment(Segment::new(t - axis, t + axis)))
            }
            ShapeRef::Segment(s) => {
                let seg = s.segment();
                Some(Core::Segment(Segment::new(pose * seg.a, pose * seg.b)))
            }
            _ => None,
        }
    }
}

/// The closest points of two cores and, when they meet, a normal of their
/// difference there (across both segments, or across the one segment).
#[inline]
pub(crate) fn closest<T: Scalar>(a: &Core<T>, b: &Core<T>) -> (Point3<T>, Point3<T>, Vector3<T>) {
    let across = |s: &Segment<T>| {
        let d = s.b - s.a;
        let n = d.norm();
        if n > T::ZERO {
            any_orthogonal(&(d / n))
        } else {
            Vector3::x()
        }
    };
    match (a, b) {
        (Core::Point(p), Core::Point(q)) => (*p, *q, Vector3::x()),
        (Core::Point(p), Core::Segment(s)) => (*p, point_segment(p, s).1, across(s)),
        (Core::Segment(s), Core::Point(q)) => (point_segment(q, s).1, *q, across(s)),
        (Core::Segment(s), Core::Segment(t)) => {
            let c = segment_segment(s, t);
            let n = (s.b - s.a).cross(&(t.b - t.a));
            let len = n.norm();
            let n = if len > T::ZERO { n / len } else { across(s) };
            (c.points.a, c.points.b, n)
        }
    }
}

/// The contact of two cores with margins `ma`, `mb` (`b` in `a`'s frame).
#[inline]
pub(crate) fn contact<T: Scalar>(a: &Core<T>, b: &Core<T>, ma: T, mb: T) -> ContactResult<T> {
    let (ca, cb, across) = closest(a, b);
    let d = (cb - ca).norm();
    let normal = if d > T::ZERO { (cb - ca) / d } else { across };
    from_cores(ca, cb, d, normal, ma, mb)
}

/// Ball against ball in the world frame: the centres' difference is all
/// there is to it. `ra`, `rb` are the total radii (radius and margin).
#[inline]
pub(crate) fn ball_ball<T: Scalar>(
    ca: &Point3<T>,
    ra: T,
    cb: &Point3<T>,
    rb: T,
) -> ContactResult<T> {
    let d = cb - ca;
    let len = d.norm();
    let normal = if len > T::ZERO { d / len } else { Vector3::x() };
    from_cores(*ca, *cb, len, normal, ra, rb)
}
