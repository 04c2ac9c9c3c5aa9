//! Closed forms for the pairs where they are exact and faster than GJK:
//! shapes whose cores are points or segments (balls, capsules, segments:
//! [`swept`]), a ball against a box, a cylinder or a cone ([`ball_solid`])
//! and box against box by
//! separating axes ([`cuboid_cuboid`], RTCD §4.4.1). [`crate::query`]
//! dispatches to them through [`crate::SupportMap::shape_ref`].
//!
//! Everything here works in the first shape's frame, with the second
//! shape's pose given relative to it.

pub(crate) mod ball_solid;
pub(crate) mod cuboid_cuboid;
pub(crate) mod swept;

use crate::query::{ContactResult, QueryStatus, WarmStart};
use crate::shape::ShapeRef;
use clash_math::{Matrix3, Point3, Scalar, Vector3};

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

/// The closed form of a pair in the first shape's frame, if it has one.
pub(crate) fn contact<T: Scalar>(
    a: ShapeRef<'_, T>,
    b: ShapeRef<'_, T>,
    rel: &Relative<T>,
) -> ClosedForm<T> {
    if let (Some(ca), Some(cb)) = (swept::Core::of(a), swept::Core::of(b)) {
        let c = swept::contact(&ca, &cb.placed(rel), a.margin_of(), b.margin_of());
        let common = common_of(&c, a.margin_of(), b.margin_of());
        return ClosedForm::Contact(c, Some(common));
    }
    match (a, b) {
        (ShapeRef::Cuboid(ca), ShapeRef::Cuboid(cb)) => match cuboid_cuboid::contact(ca, cb, rel) {
            Ok(c) => ClosedForm::Contact(c, None),
            Err(axis) => ClosedForm::SeparatedBoxes(axis),
        },
        (ShapeRef::Ball(_), solid) => {
            match ball_solid::contact_ball_first(a.margin_of(), solid, rel) {
                Some((c, inside)) => {
                    let common = if inside {
                        Point3::origin()
                    } else {
                        common_of(&c, a.margin_of(), b.margin_of())
                    };
                    ClosedForm::Contact(c, Some(common))
                }
                None => ClosedForm::None,
            }
        }
        (solid, ShapeRef::Ball(_)) => {
            match ball_solid::contact_solid_first(solid, b.margin_of(), rel) {
                Some((c, inside)) => {
                    let common = if inside {
                        Point3::from(rel.trans)
                    } else {
                        common_of(&c, a.margin_of(), b.margin_of())
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
