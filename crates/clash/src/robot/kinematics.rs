//! Forward kinematics: every link's and every collision element's pose for
//! a joint vector, written into a reusable [`RobotPoses`].

use super::Robot;
use super::error::JointError;
use clash_math::Isometry3;

/// The world poses of a robot's links and collision elements for one joint
/// vector, filled by [`Robot::forward_kinematics`]. Reuse one buffer across
/// calls: once sized for its robot, it is never reallocated.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RobotPoses {
    links: Vec<Isometry3<f64>>,
    collisions: Vec<Isometry3<f64>>,
}

impl RobotPoses {
    /// A buffer sized for `robot` (every pose the identity until filled).
    pub fn new(robot: &Robot) -> Self {
        Self {
            links: vec![Isometry3::identity(); robot.links().len()],
            collisions: vec![Isometry3::identity(); robot.collision_elements().len()],
        }
    }

    /// The pose of each link in the world, indexed as
    /// [`Robot::links`](super::Robot::links).
    pub fn links(&self) -> &[Isometry3<f64>] {
        &self.links
    }

    /// The pose of each collision element's shape in the world, indexed as
    /// [`Robot::collision_elements`](super::Robot::collision_elements):
    /// its link's pose times its origin.
    pub fn collisions(&self) -> &[Isometry3<f64>] {
        &self.collisions
    }
}

impl Robot {
    /// Every link's and collision element's pose for the joint vector `q`
    /// (one value per [`dof_joints`](Self::dof_joints) entry, in the URDF's
    /// order; mimic joints follow their leaders), the root link at the
    /// origin. Allocation-free once `out` is sized for this robot.
    ///
    /// Each joint places its child at `parent * origin * motion(value)`
    /// (Craig, *Introduction to Robotics*, §3.6: a chain of frame
    /// transforms), visiting joints parents first.
    ///
    /// Limits are not checked here (see [`check_limits`](Self::check_limits)).
    ///
    /// ```
    /// use clash::robot::{PackageMap, Robot, RobotPoses};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
    ///   <joint name="j" type="continuous"><parent link="a"/><child link="b"/>
    ///     <origin xyz="1 0 0"/><axis xyz="0 0 1"/></joint></robot>"#;
    /// let robot = Robot::from_urdf_str(urdf, ".", &PackageMap::new())?;
    /// let mut poses = RobotPoses::new(&robot);
    /// robot.forward_kinematics(&[std::f64::consts::FRAC_PI_2], &mut poses)?;
    /// let b = poses.links()[1];
    /// // b sits at (1, 0, 0), turned a quarter about z: its x axis is the world's y.
    /// assert!((b.translation.vector - nalgebra::Vector3::new(1.0, 0.0, 0.0)).norm() < 1e-15);
    /// assert!((b * nalgebra::Point3::new(1.0, 0.0, 0.0) - nalgebra::Point3::new(1.0, 1.0, 0.0)).norm() < 1e-15);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`JointError::WrongLength`] or [`JointError::NonFinite`] for a bad
    /// vector (`out` is then unchanged); [`JointError::NonFinitePose`] if
    /// huge values overflowed a pose.
    pub fn forward_kinematics(&self, q: &[f64], out: &mut RobotPoses) -> Result<(), JointError> {
        self.forward_kinematics_from(&Isometry3::identity(), q, out)
    }

    /// [`forward_kinematics`](Self::forward_kinematics) with the root link
    /// placed at `base`.
    ///
    /// # Errors
    /// As [`forward_kinematics`](Self::forward_kinematics), and
    /// [`JointError::NonFinitePose`] for a non-finite `base`.
    pub fn forward_kinematics_from(
        &self,
        base: &Isometry3<f64>,
        q: &[f64],
        out: &mut RobotPoses,
    ) -> Result<(), JointError> {
        self.check_values(q)?;
        out.links.resize(self.links.len(), Isometry3::identity());
        out.collisions
            .resize(self.collisions.len(), Isometry3::identity());
        out.links[self.root] = *base;
        for &j in &self.order {
            let joint = &self.joints[j];
            let local = joint.local_pose(joint.source.position(q));
            out.links[joint.child] = out.links[joint.parent] * local;
        }
        for (pose, element) in out.collisions.iter_mut().zip(&self.collisions) {
            *pose = out.links[element.link] * element.origin;
        }
        // `c - c` is 0 for a finite `c` and NaN otherwise: one branch-free
        // sum tells whether every component is finite.
        #[allow(clippy::eq_op)] // `c - c` on purpose: 0, or NaN for NaN and infinities
        let zero_if_finite = |p: &Isometry3<f64>| -> f64 {
            let t = &p.translation.vector;
            let r = &p.rotation.coords;
            (t - t).sum() + (r - r).sum()
        };
        let sum: f64 = out
            .links
            .iter()
            .chain(&out.collisions)
            .map(zero_if_finite)
            .sum();
        if sum == 0.0 {
            return Ok(());
        }
        let finite = |p: &Isometry3<f64>| zero_if_finite(p) == 0.0;
        if let Some(link) = out.links.iter().position(|p| !finite(p)) {
            return Err(JointError::NonFinitePose {
                link: self.links[link].name.clone(),
            });
        }
        if let Some(c) = out.collisions.iter().position(|p| !finite(p)) {
            return Err(JointError::NonFinitePose {
                link: self.links[self.collisions[c].link].name.clone(),
            });
        }
        Ok(())
    }

    /// [`forward_kinematics`](Self::forward_kinematics) into a new buffer.
    ///
    /// # Errors
    /// As [`forward_kinematics`](Self::forward_kinematics).
    pub fn poses(&self, q: &[f64]) -> Result<RobotPoses, JointError> {
        let mut out = RobotPoses::new(self);
        self.forward_kinematics(q, &mut out)?;
        Ok(out)
    }
}
