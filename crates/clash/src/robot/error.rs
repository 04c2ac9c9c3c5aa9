//! Errors of robot loading ([`RobotError`]) and of joint vectors
//! ([`JointError`]).

use crate::mesh_file::MeshFileError;
use std::fmt;
use std::path::PathBuf;
use thiserror::Error;

/// Why a URDF or SRDF could not be loaded: the file, the line of the
/// element at fault (when there is one) and what is wrong with it.
/// Displays as one line, `file:line: what`.
///
/// ```
/// use clash::robot::{PackageMap, Robot, RobotErrorKind};
/// let urdf = r#"<robot name="r"><link name="a"/><link name="b"/>
///   <joint name="j" type="floating"><parent link="a"/><child link="b"/></joint></robot>"#;
/// let err = Robot::from_urdf_str(urdf, ".", &PackageMap::new()).unwrap_err();
/// assert_eq!(err.line(), Some(2));
/// assert!(matches!(err.kind(), RobotErrorKind::UnsupportedJointType { joint, .. } if joint == "j"));
/// assert_eq!(err.to_string(),
///     "<memory>:2: joint \"j\": unsupported joint type \"floating\" \
///      (clash supports fixed, revolute, continuous and prismatic joints)");
/// ```
#[derive(Debug)]
pub struct RobotError {
    file: PathBuf,
    line: Option<usize>,
    kind: Box<RobotErrorKind>,
}

impl RobotError {
    pub(crate) fn new(file: impl Into<PathBuf>, line: Option<usize>, kind: RobotErrorKind) -> Self {
        Self {
            file: file.into(),
            line,
            kind: Box::new(kind),
        }
    }

    /// The file at fault (`<memory>` for text given as a string).
    pub fn file(&self) -> &std::path::Path {
        &self.file
    }

    /// The line (1-based) of the element at fault, when the error is about
    /// one element.
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// What is wrong.
    pub fn kind(&self) -> &RobotErrorKind {
        &self.kind
    }

    /// The package of a `package://` mesh path that was found nowhere, when
    /// that is the error (front ends add how to give its folder).
    pub fn unknown_package(&self) -> Option<&str> {
        match &*self.kind {
            RobotErrorKind::MeshPath {
                reason: super::PathError::UnknownPackage { package },
                ..
            } => Some(package),
            _ => None,
        }
    }
}

impl fmt::Display for RobotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for RobotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&*self.kind)
    }
}

/// What is wrong with a URDF or SRDF. Elements are named as
/// `joint "panda_joint2"`, `link "panda_hand"`, `collision 2 of link "panda_hand"`
/// or by their tag (`disable_collisions`).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum RobotErrorKind {
    /// The file could not be read.
    #[error("{0}")]
    Io(#[source] std::io::Error),
    /// The text is not well-formed XML.
    #[error("malformed XML: {message}")]
    Xml {
        /// The XML parser's message.
        message: String,
    },
    /// The root element is not `<robot>`.
    #[error("the root element is <{found}>, expected <robot>")]
    NotARobot {
        /// The root element's tag.
        found: String,
    },
    /// A required attribute is missing.
    #[error("{element}: missing attribute {attribute:?}")]
    MissingAttribute {
        /// The element.
        element: String,
        /// The attribute.
        attribute: &'static str,
    },
    /// A required child element is missing.
    #[error("{element}: missing <{child}>")]
    MissingElement {
        /// The element.
        element: String,
        /// The missing child's tag.
        child: &'static str,
    },
    /// An attribute's value is not what it should be (not a number, the
    /// wrong count of numbers, a negative size).
    #[error("{element}: attribute {attribute:?} is {value:?}, expected {expected}")]
    BadValue {
        /// The element.
        element: String,
        /// The attribute.
        attribute: &'static str,
        /// Its text.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A number is NaN or infinite.
    #[error("{element}: attribute {attribute:?} is {value:?}, which is not finite")]
    NonFinite {
        /// The element.
        element: String,
        /// The attribute.
        attribute: &'static str,
        /// Its text.
        value: String,
    },
    /// A movable joint's axis is the zero vector.
    #[error("joint {joint:?}: the axis is the zero vector")]
    ZeroAxis {
        /// The joint.
        joint: String,
    },
    /// A joint's lower limit is above its upper limit.
    #[error("joint {joint:?}: lower limit {lower} is above upper limit {upper}")]
    BadLimits {
        /// The joint.
        joint: String,
        /// The lower limit.
        lower: f64,
        /// The upper limit.
        upper: f64,
    },
    /// A joint's type is not one clash supports (floating, planar, ...).
    #[error(
        "joint {joint:?}: unsupported joint type {joint_type:?} \
         (clash supports fixed, revolute, continuous and prismatic joints)"
    )]
    UnsupportedJointType {
        /// The joint.
        joint: String,
        /// The type as written.
        joint_type: String,
    },
    /// A `<geometry>` holds no shape clash knows.
    #[error(
        "{element}: unsupported geometry <{geometry}> (expected box, sphere, cylinder, capsule or mesh)"
    )]
    UnknownGeometry {
        /// The collision element.
        element: String,
        /// The tag found.
        geometry: String,
    },
    /// Two links or two joints share a name.
    #[error("two {what}s are named {name:?}")]
    DuplicateName {
        /// `"link"` or `"joint"`.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// An element names a link the URDF does not define.
    #[error("{element}: no link named {link:?}")]
    UnknownLink {
        /// The element naming it.
        element: String,
        /// The name.
        link: String,
    },
    /// An element names a joint the URDF does not define.
    #[error("{element}: no joint named {joint:?}")]
    UnknownJoint {
        /// The element naming it.
        element: String,
        /// The name.
        joint: String,
    },
    /// A link is the child of more than one joint.
    #[error("link {link:?} is the child of joints {first:?} and {second:?}")]
    SeveralParents {
        /// The link.
        link: String,
        /// The first joint naming it as child.
        first: String,
        /// The second.
        second: String,
    },
    /// The joints form a cycle: each link listed is the parent of the next,
    /// and the last the parent of the first.
    #[error("the joints form a cycle through links {links:?}")]
    Cycle {
        /// The links of the cycle.
        links: Vec<String>,
    },
    /// The URDF has no link.
    #[error("the robot has no link")]
    NoLinks,
    /// More than one link is the child of no joint.
    #[error("the robot has several root links (links no joint moves): {roots:?}")]
    SeveralRoots {
        /// The root links.
        roots: Vec<String>,
    },
    /// Mimic joints follow each other in a cycle.
    #[error("mimic joints follow each other in a cycle: {joints:?}")]
    MimicCycle {
        /// The joints of the cycle.
        joints: Vec<String>,
    },
    /// A joint mimics a fixed joint, which has no position.
    #[error("joint {joint:?} mimics the fixed joint {leader:?}")]
    MimicOfFixed {
        /// The mimic joint.
        joint: String,
        /// The fixed joint it names.
        leader: String,
    },
    /// A mesh path could not be turned into a file (unknown package,
    /// unsupported URI scheme).
    #[error("{element}: cannot resolve mesh {uri:?}: {reason}")]
    MeshPath {
        /// The collision element.
        element: String,
        /// The `filename` as written.
        uri: String,
        /// Why.
        reason: super::PathError,
    },
    /// A mesh file could not be loaded (missing, malformed, unknown format).
    #[error("{element}: {source}")]
    Mesh {
        /// The collision element.
        element: String,
        /// The loader's error (names the file).
        #[source]
        source: MeshFileError,
    },
}

/// Why a joint vector was refused: the wrong number of values, a NaN or
/// infinite value, a value outside its joint's limits, or poses that came
/// out non-finite.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum JointError {
    /// The vector does not hold one value per degree of freedom.
    #[error(
        "expected {expected} joint values (one per movable joint that is not a mimic), found {found}"
    )]
    WrongLength {
        /// [`Robot::dof`](super::Robot::dof).
        expected: usize,
        /// The vector's length.
        found: usize,
    },
    /// A value is NaN or infinite.
    #[error("joint {joint:?}: value {value} is not finite")]
    NonFinite {
        /// The joint.
        joint: String,
        /// The value.
        value: f64,
    },
    /// A value is outside its joint's limits.
    #[error("joint {joint:?}: value {value} is outside its limits [{lower}, {upper}]")]
    OutOfLimits {
        /// The joint.
        joint: String,
        /// The value.
        value: f64,
        /// The lower limit.
        lower: f64,
        /// The upper limit.
        upper: f64,
    },
    /// A pose came out NaN or infinite: a non-finite base pose, or values so
    /// large that a product overflowed.
    #[error(
        "the pose of link {link:?} is not finite (a non-finite base pose, or joint values too large)"
    )]
    NonFinitePose {
        /// The first link (or the link of the first collision element) at fault.
        link: String,
    },
}
