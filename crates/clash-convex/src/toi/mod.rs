//! Time of impact of two convex shapes moving with constant linear and
//! angular velocity: conservative advancement on the GJK distance (Mirtich
//! 1996; RTCD §9.5.7 for GJK on moving objects).
//!
//! At each step the shapes are placed at the current time, GJK gives their
//! distance `d` and separating direction `n`, and time advances by
//! `d / w`, where `w` bounds how fast the gap along `n` can close:
//! `n·(v_a - v_b) + |ω_a| r_a + |ω_b| r_b` (`r` the largest distance of a
//! shape's point from its frame's origin, about which it turns). The gap
//! along a fixed direction bounds the distance from below, so no step can
//! pass through a contact: the first time at which the distance falls to
//! the tolerance is the time of impact, from below.

mod motion;

pub use motion::Motion;

use crate::query::{QueryRequest, distance};
use crate::support::SupportMap;
use clash_math::{Point3, Scalar, Vector3};
use serde::{Deserialize, Serialize};

/// Parameters of [`time_of_impact`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct ToiRequest<T: Scalar> {
    /// The end of the step: motions are followed over `[0, max_time]`.
    pub max_time: T,
    /// Shapes closer than this, relative to their size (the sum of their
    /// radii about their origins), count as touching: `1e-6` by default.
    pub tolerance: T,
    /// The most advancement steps (256 by default).
    pub max_iterations: u32,
    /// The distance queries' own parameters (tolerance, GJK variant).
    pub query: QueryRequest<T>,
}

impl<T: Scalar> Default for ToiRequest<T> {
    fn default() -> Self {
        Self {
            max_time: T::ONE,
            tolerance: T::lit(1e-6),
            max_iterations: 256,
            query: QueryRequest::default(),
        }
    }
}

/// How the advancement ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToiStatus {
    /// The shapes come within the tolerance at `time`.
    Impact,
    /// They already touch or overlap at time 0.
    Touching,
    /// They stay apart over the whole step.
    Miss,
    /// The iteration limit came first: they stay apart up to `time`.
    IterationLimit,
}

/// The answer of [`time_of_impact`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct TimeOfImpact<T: Scalar> {
    /// How it ended.
    pub status: ToiStatus,
    /// The time of first contact (for a miss, the end of the step; for the
    /// iteration limit, the time reached, before any contact).
    pub time: T,
    /// The closest points at `time` (world frame), on the first and the
    /// second shape: the points of contact on an impact.
    pub nearest_points: [Point3<T>; 2],
    /// The separating direction at `time`, from the first shape to the
    /// second (zero when they overlap at time 0).
    pub normal: Vector3<T>,
    /// The distance at `time`.
    pub distance: T,
}

/// When two moving convex shapes first touch within `[0, max_time]`.
///
/// ```
/// use clash_convex::{Ball, Cuboid, toi::{time_of_impact, Motion, ToiRequest, ToiStatus}};
/// use clash_math::{Isometry3, Vector3};
/// let ball = Ball::new(0.5_f64)?;
/// let wall = Cuboid::new(Vector3::new(0.5, 5.0, 5.0))?;
/// // The ball flies at 10 units/s towards a wall 3 away (surface to surface 2).
/// let flying = Motion::new(Isometry3::translation(-3.0, 0.0, 0.0), Vector3::new(10.0, 0.0, 0.0), Vector3::zeros());
/// let still = Motion::still(Isometry3::identity());
/// let hit = time_of_impact(&ball, &flying, &wall, &still, &ToiRequest::default());
/// assert_eq!(hit.status, ToiStatus::Impact);
/// assert!((hit.time - 0.2).abs() < 1e-6);
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
pub fn time_of_impact<T, A, B>(
    a: &A,
    motion_a: &Motion<T>,
    b: &B,
    motion_b: &Motion<T>,
    request: &ToiRequest<T>,
) -> TimeOfImpact<T>
where
    T: Scalar,
    A: SupportMap<T> + ?Sized,
    B: SupportMap<T> + ?Sized,
{
    let reach = |s: &dyn Fn() -> (T, T, T)| {
        let (extent, center, margin) = s();
        extent.max_of(center) + margin
    };
    let ra = reach(&|| (a.extent(), a.center().coords.norm(), a.margin()));
    let rb = reach(&|| (b.extent(), b.center().coords.norm(), b.margin()));
    let target = request.tolerance * (ra + rb);
    let spin = motion_a.angular_velocity.norm() * ra + motion_b.angular_velocity.norm() * rb;
    let relative = motion_a.linear_velocity - motion_b.linear_velocity;
    let mut query = request.query;
    let mut t = T::ZERO;
    let mut k = 0;
    loop {
        let (pa, pb) = (motion_a.at(t), motion_b.at(t));
        let d = distance(a, &pa, b, &pb, &query);
        query.warm_start = Some(d.warm_start);
        let answer = |status| TimeOfImpact {
            status,
            time: t,
            nearest_points: d.nearest_points,
            normal: d.normal,
            distance: d.distance,
        };
        if !d.distance.finite() {
            // Non-finite motions: nothing can be said.
            return answer(ToiStatus::IterationLimit);
        }
        if d.distance <= target {
            let status = if t == T::ZERO {
                ToiStatus::Touching
            } else {
                ToiStatus::Impact
            };
            return answer(status);
        }
        if k >= request.max_iterations {
            return answer(ToiStatus::IterationLimit);
        }
        k += 1;
        let closing = d.normal.dot(&relative) + spin;
        if !(closing > T::ZERO) {
            return TimeOfImpact {
                time: request.max_time,
                ..answer(ToiStatus::Miss)
            };
        }
        // Advance to where the gap could first have closed to the target
        // (the full gap when it is within twice the target, to finish).
        let gap = d.distance - target * T::HALF;
        let next = t + gap / closing;
        if next > request.max_time {
            let (pa, pb) = (motion_a.at(request.max_time), motion_b.at(request.max_time));
            let end = distance(a, &pa, b, &pb, &query);
            if end.distance > target {
                return TimeOfImpact {
                    status: ToiStatus::Miss,
                    time: request.max_time,
                    nearest_points: end.nearest_points,
                    normal: end.normal,
                    distance: end.distance,
                };
            }
            t = request.max_time;
            continue;
        }
        if next <= t {
            // No progress in floating point: within rounding of contact.
            return answer(ToiStatus::Impact);
        }
        t = next;
    }
}
