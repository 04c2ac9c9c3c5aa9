//! Robots as robotics users hand them over: a URDF (links, joints,
//! collision geometry) and an SRDF (pairs of links never checked), and
//! forward kinematics from a joint vector to every link's pose.
//!
//! - [`Robot::from_urdf_file`] loads a URDF: fixed, revolute, continuous
//!   and prismatic joints (mimic joints follow their leaders), collision
//!   boxes, spheres, cylinders, capsules and meshes (loaded through
//!   [`crate::mesh_file`], `package://` paths resolved by a [`PackageMap`]).
//!   Every defect is a [`RobotError`] naming the file, the line and the element.
//! - [`Srdf::from_file`] reads the SRDF's `<disable_collisions>` pairs into
//!   an [`AllowedCollisionMatrix`].
//! - [`Robot::forward_kinematics`] fills a reusable [`RobotPoses`] with
//!   every link's and collision element's world pose, allocating nothing.
//! - A joint vector holds the positions of the movable joints that are not
//!   mimics, in the URDF's order ([`Robot::dof_joints`]);
//!   [`Robot::check_limits`] checks one, [`Robot::read_configurations`]
//!   reads a file of them, [`ConfigurationSampler`] draws random ones.
//! - [`RobotWorld`] puts the collision elements and obstacles in a
//!   [`CollisionWorld`](crate::CollisionWorld) and answers self-collision,
//!   collision with obstacles and minimum distance for one joint vector or
//!   a batch of them.
//!
//! ```
//! use clash::robot::{CollisionGeometry, PackageMap, Robot, RobotPoses, Srdf};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
//! // The URDF's meshes read package://example-robot-data/robots/panda_description/meshes/...
//! let packages = PackageMap::new().with("example-robot-data/robots/panda_description", &data);
//! let panda = Robot::from_urdf_file(data.join("urdf/panda.urdf"), &packages)?;
//! assert_eq!(panda.dof(), 8); // 7 arm joints and the first finger (the second mimics it)
//!
//! // Forward kinematics into a buffer reused from call to call.
//! let mut poses = RobotPoses::new(&panda);
//! panda.forward_kinematics(&[0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02], &mut poses)?;
//! let hand = panda.link_index("panda_hand").unwrap();
//! let z = poses.links()[hand].translation.z;
//! assert!(0.4 < z && z < 0.6); // the ready pose holds the hand about half a metre up
//!
//! // Collision elements and their world poses.
//! let first = &panda.collision_elements()[0];
//! assert!(matches!(first.geometry, CollisionGeometry::Mesh { .. }));
//! let _world_pose = poses.collisions()[0];
//!
//! // The SRDF's pairs of links that are never checked.
//! let srdf = Srdf::from_file(data.join("srdf/panda.srdf"), &panda)?;
//! let acm = srdf.allowed_collisions();
//! let (l0, l1) = (panda.link_index("panda_link0").unwrap(), panda.link_index("panda_link1").unwrap());
//! assert!(acm.is_allowed(l0, l1)); // adjacent links
//! assert_eq!(acm.allowed_pairs().count(), 35);
//! # Ok(()) }
//! ```

mod allowed;
mod configs;
mod error;
mod kinematics;
mod limits;
mod load;
mod meshes;
mod model;
mod package;
mod sample;
mod srdf;
mod tree;
mod urdf;
mod world;
mod xml;

pub use allowed::AllowedCollisionMatrix;
pub use configs::{ConfigsError, ConfigsErrorKind, Configurations, LimitCheck};
pub use error::{JointError, RobotError, RobotErrorKind};
pub use kinematics::RobotPoses;
pub use model::{
    CollisionElement, CollisionGeometry, Joint, JointKind, JointLimits, JointSource, Link, Mimic,
};
pub use package::{PACKAGE_SEARCH_DEPTH, PackageMap, PathError};
pub use sample::ConfigurationSampler;
pub use srdf::{GroupState, LinkPair, Srdf};
pub use world::{OBSTACLE_GROUP, ROBOT_GROUP, RobotWorld, RobotWorldError, RobotWorldOptions};

/// A robot model: its links and joints as a kinematic tree, its collision
/// elements, and the joints that make up a joint vector. Loaded from a URDF
/// ([`Robot::from_urdf_file`]); immutable afterwards, so one model can be
/// shared by every thread.
#[derive(Debug, Clone)]
pub struct Robot {
    name: String,
    links: Vec<Link>,
    joints: Vec<Joint>,
    collisions: Vec<CollisionElement>,
    root: usize,
    /// Every joint, each after the joint that moves its parent link.
    order: Vec<usize>,
    /// The joint of each entry of a joint vector.
    dofs: Vec<usize>,
}

impl Robot {
    /// The URDF's `<robot name>`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The links, in the URDF's order.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// The joints, in the URDF's order.
    pub fn joints(&self) -> &[Joint] {
        &self.joints
    }

    /// Every collision element, link after link in the URDF's order (a
    /// link's elements are [`Link::collisions`]).
    pub fn collision_elements(&self) -> &[CollisionElement] {
        &self.collisions
    }

    /// The root link (the one link no joint moves).
    pub fn root(&self) -> usize {
        self.root
    }

    /// The joints in kinematic order: each after the joint that moves its
    /// parent link.
    pub fn kinematic_order(&self) -> &[usize] {
        &self.order
    }

    /// The joint of each entry of a joint vector: the movable joints that
    /// are not mimics (revolute, continuous, prismatic), in the URDF's order.
    pub fn dof_joints(&self) -> &[usize] {
        &self.dofs
    }

    /// The length of a joint vector.
    pub fn dof(&self) -> usize {
        self.dofs.len()
    }

    /// The index of the link named `name`.
    pub fn link_index(&self, name: &str) -> Option<usize> {
        self.links.iter().position(|l| l.name == name)
    }

    /// The index of the joint named `name`.
    pub fn joint_index(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// Whether two links are joined by a joint (one is the other's parent):
    /// the pairs MoveIt's setup assistant marks `Adjacent`.
    pub fn are_adjacent(&self, a: usize, b: usize) -> bool {
        let parent_of = |l: usize| self.links[l].parent_joint.map(|j| self.joints[j].parent);
        parent_of(a) == Some(b) || parent_of(b) == Some(a)
    }
}
