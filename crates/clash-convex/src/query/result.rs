//! What the queries answer: [`DistanceResult`], [`ContactResult`], their
//! [`QueryStatus`] and the [`WarmStart`] for the next call.

use clash_math::{Isometry3, Point3, Scalar, Vector3};
use serde::{Deserialize, Serialize};

/// How a query ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum QueryStatus {
    /// The answer is within the requested tolerance (closed forms are exact
    /// up to rounding).
    Converged,
    /// The iteration limit (or EPA's polytope capacity) was reached first;
    /// the answer is the best estimate and `error_bound` bounds its error.
    IterationLimit,
    /// The distance was proven larger than the request's
    /// `distance_upper_bound`; `distance` is a lower bound on it.
    UpperBoundExceeded,
    /// A pose was not finite (NaN or infinite): nothing was computed, the
    /// distance is infinite and the points are the origin.
    NonFinitePose,
}

/// Where the next query on the same pair may start: the last separating
/// direction (in the first shape's frame) and the hill-climbing hints of
/// both shapes (RTCD §9.5.5).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct WarmStart<T: Scalar> {
    /// A direction from the second shape towards the first, in the first
    /// shape's local frame (zero when unknown).
    pub direction: Vector3<T>,
    /// Vertex hints of the first and second shape.
    pub hints: [u32; 2],
}

impl<T: Scalar> Default for WarmStart<T> {
    fn default() -> Self {
        Self {
            direction: Vector3::zeros(),
            hints: [0, 0],
        }
    }
}

/// The answer of [`crate::query::distance`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct DistanceResult<T: Scalar> {
    /// Distance between the shapes (0 when they touch or overlap).
    pub distance: T,
    /// The closest points, on the first and on the second shape (world
    /// frame); a common point when they overlap.
    pub nearest_points: [Point3<T>; 2],
    /// Unit separating direction from the first shape to the second (world
    /// frame); zero when the shapes overlap.
    pub normal: Vector3<T>,
    /// How the query ended.
    pub status: QueryStatus,
    /// A bound on `|distance - exact distance|` (rounding aside).
    pub error_bound: T,
    /// Where the next query on this pair may start.
    pub warm_start: WarmStart<T>,
}

/// The answer of [`crate::query::contact`]: the signed distance with its
/// points and normal.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct ContactResult<T: Scalar> {
    /// Signed distance: positive when apart, exactly 0 when touching,
    /// negative (minus the penetration depth) when overlapping.
    pub distance: T,
    /// Unit normal from the first shape to the second (world frame): moving
    /// the second shape by `-distance * normal` makes them touch.
    pub normal: Vector3<T>,
    /// A point on each shape's surface (world frame), with
    /// `nearest_points[1] - nearest_points[0] = distance * normal`.
    pub nearest_points: [Point3<T>; 2],
    /// How the query ended.
    pub status: QueryStatus,
    /// A bound on `|distance - exact signed distance|` (rounding aside).
    pub error_bound: T,
    /// Where the next query on this pair may start.
    pub warm_start: WarmStart<T>,
}

impl<T: Scalar> ContactResult<T> {
    /// The answer to a query with a non-finite pose.
    pub(crate) fn non_finite() -> Self {
        Self {
            distance: T::INFINITY,
            normal: Vector3::x(),
            nearest_points: [Point3::origin(); 2],
            status: QueryStatus::NonFinitePose,
            error_bound: T::ZERO,
            warm_start: WarmStart::default(),
        }
    }

    /// The penetration depth: `-distance` when overlapping, else 0.
    pub fn penetration_depth(&self) -> T {
        (-self.distance).max_of(T::ZERO)
    }

    /// `true` when the shapes touch or overlap.
    pub fn is_colliding(&self) -> bool {
        self.distance <= T::ZERO
    }

    /// The same contact seen from the second shape (points swapped, normal
    /// reversed; the warm start is for the swapped pair only in direction).
    pub fn swapped(self) -> Self {
        Self {
            normal: -self.normal,
            nearest_points: [self.nearest_points[1], self.nearest_points[0]],
            warm_start: WarmStart {
                direction: Vector3::zeros(),
                hints: [self.warm_start.hints[1], self.warm_start.hints[0]],
            },
            ..self
        }
    }

    /// The same contact with the shapes' roles exchanged (points swapped,
    /// normal reversed; warm start dropped).
    pub(crate) fn swapped_sides(self) -> Self {
        Self {
            normal: -self.normal,
            nearest_points: [self.nearest_points[1], self.nearest_points[0]],
            warm_start: WarmStart::default(),
            ..self
        }
    }

    /// The result as computed in the first shape's frame, placed in the
    /// world by `pose` (points and normal).
    pub(crate) fn placed(mut self, pose: &Isometry3<T>) -> Self {
        self.nearest_points = self.nearest_points.map(|p| pose * p);
        self.normal = pose * self.normal;
        self
    }
}

impl<T: Scalar> DistanceResult<T> {
    /// The answer to a query with a non-finite pose.
    pub(crate) fn non_finite() -> Self {
        Self {
            distance: T::INFINITY,
            nearest_points: [Point3::origin(); 2],
            normal: Vector3::x(),
            status: QueryStatus::NonFinitePose,
            error_bound: T::ZERO,
            warm_start: WarmStart::default(),
        }
    }

    /// The result as computed in the first shape's frame, placed in the
    /// world by `pose`.
    pub(crate) fn placed(mut self, pose: &Isometry3<T>) -> Self {
        self.nearest_points = self.nearest_points.map(|p| pose * p);
        self.normal = pose * self.normal;
        self
    }
}
