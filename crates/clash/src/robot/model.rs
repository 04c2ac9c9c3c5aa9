//! The parts of a robot model: links, joints and collision elements.

use clash_bvh::TriMesh;
use clash_math::{Isometry3, Vector3};
use nalgebra::Unit;
use std::path::PathBuf;
use std::sync::Arc;

/// A rigid body of the robot. Links are indexed in the URDF's order
/// ([`Robot::links`](super::Robot::links)).
#[derive(Debug, Clone)]
pub struct Link {
    /// The link's name.
    pub name: String,
    /// The joint that moves this link (its index in
    /// [`Robot::joints`](super::Robot::joints)); `None` for the root.
    pub parent_joint: Option<usize>,
    /// The link's collision elements, as indices into
    /// [`Robot::collision_elements`](super::Robot::collision_elements), in
    /// the URDF's order.
    pub collisions: std::ops::Range<usize>,
}

/// How a joint moves its child link relative to its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JointKind {
    /// No motion.
    Fixed,
    /// Rotation about the axis, within limits.
    Revolute,
    /// Rotation about the axis, unbounded.
    Continuous,
    /// Translation along the axis, within limits.
    Prismatic,
}

impl JointKind {
    /// Whether the joint has a position (every kind but [`Fixed`](Self::Fixed)).
    pub fn is_movable(self) -> bool {
        self != Self::Fixed
    }
}

/// A joint's position limits (radians or metres), `lower <= upper`, both finite.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointLimits {
    /// The lowest position.
    pub lower: f64,
    /// The highest position.
    pub upper: f64,
}

impl JointLimits {
    /// Whether `value` lies within the limits (bounds included).
    pub fn contains(&self, value: f64) -> bool {
        self.lower <= value && value <= self.upper
    }
}

/// A mimic joint's rule: its position is `multiplier * leader + offset`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mimic {
    /// The joint it follows (an index into [`Robot::joints`](super::Robot::joints)).
    pub leader: usize,
    /// URDF `multiplier` (1 when absent).
    pub multiplier: f64,
    /// URDF `offset` (0 when absent).
    pub offset: f64,
}

/// Where a movable joint's position comes from in a joint vector.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JointSource {
    /// A fixed joint: no position.
    None,
    /// Entry `i` of the joint vector.
    Dof(usize),
    /// `multiplier * q[dof] + offset`: a mimic joint, its chain of leaders
    /// resolved down to a joint of the vector.
    Mimic {
        /// The entry of the joint vector it follows.
        dof: usize,
        /// The product of the chain's multipliers.
        multiplier: f64,
        /// The chain's offsets, composed.
        offset: f64,
    },
}

impl JointSource {
    /// The joint's position for the joint vector `q` (0 for a fixed joint).
    #[inline]
    pub fn position(&self, q: &[f64]) -> f64 {
        match *self {
            Self::None => 0.0,
            Self::Dof(i) => q[i],
            Self::Mimic {
                dof,
                multiplier,
                offset,
            } => multiplier * q[dof] + offset,
        }
    }
}

/// A joint between two links. Joints are indexed in the URDF's order
/// ([`Robot::joints`](super::Robot::joints)).
#[derive(Debug, Clone)]
pub struct Joint {
    /// The joint's name.
    pub name: String,
    /// How it moves.
    pub kind: JointKind,
    /// The parent link (an index into [`Robot::links`](super::Robot::links)).
    pub parent: usize,
    /// The child link.
    pub child: usize,
    /// The child's frame in the parent's frame at position 0 (URDF `<origin>`).
    pub origin: Isometry3<f64>,
    /// The axis of rotation or translation in the child's frame (URDF
    /// `<axis>`, normalised; `x` when absent).
    pub axis: Unit<Vector3<f64>>,
    /// The limits: `Some` for revolute and prismatic joints, `None` for
    /// continuous (unbounded) and fixed ones.
    pub limits: Option<JointLimits>,
    /// The mimic rule, for a joint that follows another.
    pub mimic: Option<Mimic>,
    /// Where the position comes from in a joint vector.
    pub source: JointSource,
}

impl Joint {
    /// The child's pose in the parent's frame at position `value`:
    /// `origin * motion(value)` (a rotation about the axis by `value`
    /// radians, or a translation along it by `value` metres).
    #[inline]
    pub fn local_pose(&self, value: f64) -> Isometry3<f64> {
        match self.kind {
            JointKind::Fixed => self.origin,
            JointKind::Revolute | JointKind::Continuous => Isometry3::from_parts(
                self.origin.translation,
                self.origin.rotation * nalgebra::UnitQuaternion::from_axis_angle(&self.axis, value),
            ),
            JointKind::Prismatic => {
                let mut pose = self.origin;
                pose.translation.vector += self.origin.rotation * (self.axis.into_inner() * value);
                pose
            }
        }
    }
}

/// The shape of a collision element, in the element's frame (URDF
/// conventions: cylinders and capsules along `z`, every shape centred on
/// the frame's origin).
#[derive(Debug, Clone)]
pub enum CollisionGeometry {
    /// A box with these half-widths along `x`, `y`, `z` (half the URDF `size`).
    Box {
        /// Half the size along each axis.
        half_extents: Vector3<f64>,
    },
    /// A ball.
    Sphere {
        /// Its radius.
        radius: f64,
    },
    /// A cylinder along `z`, from `-length / 2` to `length / 2`.
    Cylinder {
        /// Its radius.
        radius: f64,
        /// Its length.
        length: f64,
    },
    /// A capsule along `z`: the points within `radius` of the segment from
    /// `-length / 2` to `length / 2` (`length` excludes the caps, as in
    /// URDF 1.2 and Drake).
    Capsule {
        /// Its radius.
        radius: f64,
        /// The length of its core segment.
        length: f64,
    },
    /// A triangle mesh, loaded from `path`, its vertices multiplied by
    /// `scale` (a negative scale's mirror keeps faces outward: their
    /// winding is reversed).
    Mesh {
        /// The resolved file.
        path: PathBuf,
        /// The URDF `scale` (1 1 1 when absent).
        scale: Vector3<f64>,
        /// The scaled mesh, shared by every element that names the same
        /// file with the same scale.
        mesh: Arc<TriMesh<f64>>,
    },
}

/// One `<collision>` of a link: a shape placed in the link's frame.
#[derive(Debug, Clone)]
pub struct CollisionElement {
    /// The link it belongs to (an index into [`Robot::links`](super::Robot::links)).
    pub link: usize,
    /// URDF `name` of the `<collision>`, if any.
    pub name: Option<String>,
    /// The shape's frame in the link's frame (URDF `<origin>`).
    pub origin: Isometry3<f64>,
    /// The shape.
    pub geometry: CollisionGeometry,
}
