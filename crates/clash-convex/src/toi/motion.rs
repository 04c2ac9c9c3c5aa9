//! [`Motion`]: a pose moving with constant linear and angular velocity.

use clash_math::{Isometry3, Scalar, Translation3, UnitQuaternion, Vector3};
use serde::{Deserialize, Serialize};

/// A rigid motion: the pose at time 0, and constant linear and angular
/// velocities in the world frame (the shape turns about its own origin,
/// the pose's translation).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Motion<T: Scalar> {
    /// The pose at time 0.
    pub start: Isometry3<T>,
    /// Velocity of the shape's origin.
    pub linear_velocity: Vector3<T>,
    /// Angular velocity (axis times radians per unit time).
    pub angular_velocity: Vector3<T>,
}

impl<T: Scalar> Motion<T> {
    /// The motion from `start` with the given velocities.
    pub fn new(
        start: Isometry3<T>,
        linear_velocity: Vector3<T>,
        angular_velocity: Vector3<T>,
    ) -> Self {
        Self {
            start,
            linear_velocity,
            angular_velocity,
        }
    }

    /// A shape at rest at `pose`.
    pub fn still(pose: Isometry3<T>) -> Self {
        Self::new(pose, Vector3::zeros(), Vector3::zeros())
    }

    /// The pose at time `t`.
    ///
    /// ```
    /// use clash_convex::toi::Motion;
    /// use clash_math::{Isometry3, Point3, Vector3};
    /// let m = Motion::new(Isometry3::identity(), Vector3::x(), Vector3::z() * std::f64::consts::PI);
    /// let p = m.at(1.0) * Point3::new(1.0, 0.0, 0.0); // half a turn, moved by 1
    /// assert!((p - Point3::new(0.0, 0.0, 0.0)).norm() < 1e-12);
    /// ```
    pub fn at(&self, t: T) -> Isometry3<T> {
        let turn = UnitQuaternion::from_scaled_axis(self.angular_velocity * t);
        Isometry3::from_parts(
            Translation3::from(self.start.translation.vector + self.linear_velocity * t),
            turn * self.start.rotation,
        )
    }
}
