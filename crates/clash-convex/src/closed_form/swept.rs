//! Pairs of shapes whose cores are points or segments: ball/ball,
//! ball/capsule, capsule/capsule, and segments with or without margins.
//! The closest points of the cores (clash-narrow's point/segment and
//! segment/segment, RTCD §5.1.2 and §5.1.9) give the exact answer; the
//! margins are added along the line between them.

use super::{Relative, from_cores};
use crate::query::ContactResult;
use crate::shape::ShapeRef;
use crate::shape::bounding::any_orthogonal;
use clash_math::{Point3, Scalar, Segment, Vector3};
use clash_narrow::closest::{point_segment, segment_segment};

/// A core that is a point or a segment.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Core<T: Scalar> {
    Point(Point3<T>),
    Segment(Segment<T>),
}

impl<T: Scalar> Core<T> {
    /// The core of a ball, capsule or segment shape.
    #[inline]
    pub fn of(s: ShapeRef<'_, T>) -> Option<Self> {
        match s {
            ShapeRef::Ball(_) => Some(Core::Point(Point3::origin())),
            ShapeRef::Capsule(c) => Some(Core::Segment(c.segment())),
            ShapeRef::Segment(s) => Some(Core::Segment(s.segment())),
            _ => None,
        }
    }

    /// The core placed by `rel`.
    #[inline]
    pub fn placed(&self, rel: &Relative<T>) -> Self {
        match self {
            Core::Point(p) => Core::Point(rel.apply(p)),
            Core::Segment(s) => Core::Segment(Segment::new(rel.apply(&s.a), rel.apply(&s.b))),
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
