//! A triangle against a ball, capsule or segment: the closest points of
//! the triangle and the core (clash-narrow's point/triangle and
//! segment/triangle, RTCD §5.1.5 and §5.1.10) give the distance, exact up
//! to rounding at any ratio of sizes, where GJK's tolerance is relative to
//! the larger shape (a segment 10^30 long 2 away from a triangle is 2
//! away, not 0). The margins are taken off along the line between the
//! closest points. Penetration depths of overlapping pairs are left to EPA.

use super::swept::Core;
use super::{common_point, from_cores};
use crate::query::ContactResult;
use crate::shape::ShapeRef;
use crate::support::SupportMap;
use clash_math::{Isometry3, Point3, Scalar, Triangle};
use clash_narrow::closest::{point_triangle, segment_triangle};

/// The closest points of a triangle's and a swept shape's cores, seen from
/// the pair's first shape, with both margins.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cores<T: Scalar> {
    on_a: Point3<T>,
    on_b: Point3<T>,
    distance: T,
    ma: T,
    mb: T,
}

impl<T: Scalar> Cores<T> {
    /// The cores of a triangle shape and a ball, capsule or segment (in
    /// either order), or `None` for other pairs.
    pub fn of<A, B>(a: &A, pose_a: &Isometry3<T>, b: &B, pose_b: &Isometry3<T>) -> Option<Self>
    where
        A: SupportMap<T> + ?Sized,
        B: SupportMap<T> + ?Sized,
    {
        let (on_a, on_b) = match (a.shape_ref()?, b.shape_ref()?) {
            (ShapeRef::Triangle(t), other) => {
                let (on_tri, on_core) = closest(t.triangle(), pose_a, &Core::of(other, pose_b)?);
                (on_tri, on_core)
            }
            (other, ShapeRef::Triangle(t)) => {
                let (on_tri, on_core) = closest(t.triangle(), pose_b, &Core::of(other, pose_a)?);
                (on_core, on_tri)
            }
            _ => return None,
        };
        Some(Self {
            on_a,
            on_b,
            distance: (on_b - on_a).norm(),
            ma: a.margin(),
            mb: b.margin(),
        })
    }

    /// The signed distance of the shapes, margins included (negative when
    /// the cores are closer than the margins; not the penetration depth).
    pub fn gap(&self) -> T {
        self.distance - self.ma - self.mb
    }

    /// The contact when the shapes are apart.
    pub fn contact(&self) -> Option<ContactResult<T>> {
        (self.gap() > T::ZERO).then(|| {
            let normal = (self.on_b - self.on_a) / self.distance;
            from_cores(
                self.on_a,
                self.on_b,
                self.distance,
                normal,
                self.ma,
                self.mb,
            )
        })
    }

    /// A point of both shapes when they meet.
    pub fn common_point(&self) -> Point3<T> {
        common_point(self.on_a, self.on_b, self.ma, self.mb)
    }
}

/// The closest points of triangle `tri` placed by `pose` and `core`: on
/// the triangle, on the core.
fn closest<T: Scalar>(
    tri: Triangle<T>,
    pose: &Isometry3<T>,
    core: &Core<T>,
) -> (Point3<T>, Point3<T>) {
    let tri = Triangle::new(pose * tri.a, pose * tri.b, pose * tri.c);
    match core {
        Core::Point(p) => (point_triangle(p, &tri).point, *p),
        Core::Segment(s) => {
            let c = segment_triangle(s, &tri);
            (c.b, c.a)
        }
    }
}
