//! Checking joint vectors: their length, finiteness and joint limits.

use super::Robot;
use super::error::JointError;

impl Robot {
    /// Checks that `q` holds one finite value per entry of the joint vector.
    ///
    /// # Errors
    /// [`JointError::WrongLength`], or [`JointError::NonFinite`] naming the
    /// first joint whose value is NaN or infinite.
    pub fn check_values(&self, q: &[f64]) -> Result<(), JointError> {
        if q.len() != self.dofs.len() {
            return Err(JointError::WrongLength {
                expected: self.dofs.len(),
                found: q.len(),
            });
        }
        match q.iter().position(|v| !v.is_finite()) {
            None => Ok(()),
            Some(i) => Err(JointError::NonFinite {
                joint: self.joints[self.dofs[i]].name.clone(),
                value: q[i],
            }),
        }
    }

    /// Checks [`check_values`](Self::check_values) and that each value lies
    /// within its joint's limits, bounds included (continuous joints are
    /// unbounded). Mimic joints are not in the vector and are not checked.
    ///
    /// ```
    /// use clash::robot::{JointError, PackageMap, Robot};
    /// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
    ///   <joint name="slide" type="prismatic"><parent link="a"/><child link="b"/>
    ///     <limit lower="0" upper="0.04"/></joint></robot>"#;
    /// let robot = Robot::from_urdf_str(urdf, ".", &PackageMap::new()).unwrap();
    /// assert!(robot.check_limits(&[0.04]).is_ok());
    /// assert!(matches!(robot.check_limits(&[0.05]),
    ///     Err(JointError::OutOfLimits { joint, .. }) if joint == "slide"));
    /// ```
    ///
    /// # Errors
    /// As [`check_values`](Self::check_values), and
    /// [`JointError::OutOfLimits`] naming the first joint out of its limits.
    pub fn check_limits(&self, q: &[f64]) -> Result<(), JointError> {
        self.check_values(q)?;
        for (&value, &j) in q.iter().zip(&self.dofs) {
            let joint = &self.joints[j];
            if let Some(limits) = joint.limits
                && !limits.contains(value)
            {
                return Err(JointError::OutOfLimits {
                    joint: joint.name.clone(),
                    value,
                    lower: limits.lower,
                    upper: limits.upper,
                });
            }
        }
        Ok(())
    }
}
