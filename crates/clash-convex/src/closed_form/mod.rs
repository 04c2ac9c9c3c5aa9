//! Closed forms for the pairs where they are exact and faster than GJK:
//! shapes whose cores are points or segments (balls, capsules, segments:
//! [`swept`]), a ball against a box, a cylinder or a cone ([`ball_solid`]),
//! a triangle against a ball, capsule or segment while they are apart
//! ([`triangle_swept`]) and box against box by
//! separating axes ([`cuboid_cuboid`], RTCD §4.4.1). [`crate::query`]
//! dispatches to them through [`crate::SupportMap::shape_ref`].
//!
//! Balls, capsules and segments work in the world frame (their cores are
//! placed directly, which costs less than a relative pose); a ball against
//! a solid works in the solid's frame; box against box in the first box's
//! frame. Every answer comes back in the world frame.

pub(crate) mod ball_solid;
pub(crate) mod cuboid_cuboid;
pub(crate) mod swept;
pub(crate) mod triangle_swept;

use crate::query::{ContactResult, QueryStatus, WarmStart};
use crate::shape::ShapeRef;
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Vector3};

/// The second shape's pose in the first one's frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Relative<T: Scalar> {
    pub rot: Matrix3<T>,
    pub trans: Vector3<T>,
}

impl<T: Scalar> Relative<T> {
    /// The pose of `pose_b` seen from `pose_a`.
    #[inline]
    pub fn between(pose_a: &clash_math::Isometry3<T>, pose_b: &clash_math::Isometry3<T>) -> Self {
        let rel = pose_a.inv_mul(pose_b);
        Self {
            rot: rel.rotation.to_rotation_matrix().into_inner(),
            trans: rel.translation.vector,
        }
    }

    /// `p` (second frame) in the first frame.
    #[inline]
    pub fn apply(&self, p: &Point3<T>) -> Point3<T> {
        Point3::from(self.rot * p.coords + self.trans)
    }
}

/// A contact from the closest points of two cores `ca`, `cb` (in the first
/// frame), their margins, and the normal to use when the cores meet.
#[inline]
pub(crate) fn from_cores<T: Scalar>(
    ca: Point3<T>,
    cb: Point3<T>,
    core_distance: T,
    normal: Vector3<T>,
    ma: T,
    mb: T,
) -> ContactResult<T> {
    ContactResult {
        distance: core_distance - ma - mb,
        normal,
        nearest_points: [ca + normal * ma, cb - normal * mb],
        status: QueryStatus::Converged,
        error_bound: T::ZERO,
        warm_start: WarmStart {
            direction: -normal,
            hints: [0, 0],
        },
    }
}

/// A point of both shapes when the cores' closest points `ca`, `cb` are
/// within the margins: on the segment between them.
#[inline]
pub(crate) fn common_point<T: Scalar>(ca: Point3<T>, cb: Point3<T>, ma: T, mb: T) -> Point3<T> {
    let d = (cb - ca).norm();
    if d > T::ZERO {
        let t = ((d + ma - mb) * T::HALF / d).max_of(T::ZERO).min_of(T::ONE);
        ca + (cb - ca) * t
    } else {
        ca
    }
}

/// What the closed forms make of a pair.
pub(crate) enum ClosedForm<T: Scalar> {
    /// The exact contact, and the cores' closest points (`None` when the
    /// ball's centre is inside the box: then it is the common point).
    Contact(ContactResult<T>, Option<Point3<T>>),
    /// Two boxes whose cores this axis (first frame, towards the second)
    /// separates: GJK measures the distance from there.
    SeparatedBoxes(Vector3<T>),
    /// No closed form for this pair.
    None,
}

/// The closed form of a pair, in the world frame, if it has one.
pub(crate) fn contact<T: Scalar>(
    a: ShapeRef<'_, T>,
    pose_a: &Isometry3<T>,
    b: ShapeRef<'_, T>,
    pose_b: &Isometry3<T>,
) -> ClosedForm<T> {
    let (ma, mb) = (a.margin_of(), b.margin_of());
    if let (Some(ca), Some(cb)) = (swept::Core::of(a, pose_a), swept::Core::of(b, pose_b)) {
        let c = swept::contact(&ca, &cb, ma, mb);
        return ClosedForm::Contact(c, Some(common_of(&c, ma, mb)));
    }
    match (a, b) {
        (ShapeRef::Cuboid(ca), ShapeRef::Cuboid(cb)) => {
            let rel = Relative::between(pose_a, pose_b);
            match cuboid_cuboid::contact(ca, cb, &rel) {
                Ok(c) => ClosedForm::Contact(c.placed(pose_a), None),
                Err(axis) => ClosedForm::SeparatedBoxes(axis),
            }
        }
        (ShapeRef::Ball(_), solid) => {
            let centre = Point3::from(pose_a.translation.vector);
            match ball_solid::contact(&centre, ma, solid, pose_b) {
                Some((c, inside)) => {
                    let c = c.swapped_sides();
                    let common = if inside {
                        centre
                    } else {
                        common_of(&c, ma, mb)
                    };
                    ClosedForm::Contact(c, Some(common))
                }
                None => ClosedForm::None,
            }
        }
        (solid, ShapeRef::Ball(_)) => {
            let centre = Point3::from(pose_b.translation.vector);
            match ball_solid::contact(&centre, mb, solid, pose_a) {
                Some((c, inside)) => {
                    let common = if inside {
                        centre
                    } else {
                        common_of(&c, ma, mb)
                    };
                    ClosedForm::Contact(c, Some(common))
                }
                None => ClosedForm::None,
            }
        }
        _ => ClosedForm::None,
    }
}

/// The common point of a contact built by [`from_cores`] whose cores are
/// within the margins.
fn common_of<T: Scalar>(c: &ContactResult<T>, ma: T, mb: T) -> Point3<T> {
    let ca = c.nearest_points[0] - c.normal * ma;
    let cb = c.nearest_points[1] + c.normal * mb;
    common_point(ca, cb, ma, mb)
}

impl<T: Scalar> ShapeRef<'_, T> {
    /// The shape's total margin.
    #[inline]
    pub(crate) fn margin_of(&self) -> T {
        use crate::support::SupportMap;
        self.margin()
    }
}
