//! Reading an SRDF (MoveIt's semantic robot description) against a loaded
//! [`Robot`]: the pairs of links whose collisions are never checked, and
//! the named joint configurations.
//!
//! Read: `<disable_collisions link1 link2 reason>`,
//! `<disable_default_collisions link>` and `<enable_collisions link1 link2>`
//! (which together give the [`AllowedCollisionMatrix`]), and
//! `<group_state name group>` with its `<joint name value>`s. Not read (they
//! describe planning, not collision): `<group>`, `<end_effector>`,
//! `<virtual_joint>`, `<passive_joint>`, `<link_sphere_approximation>`. The
//! SRDF's robot name is not compared with the URDF's.

use super::Robot;
use super::allowed::AllowedCollisionMatrix;
use super::error::{RobotError, RobotErrorKind};
use super::xml::{MEMORY, XmlFile, children, read_text};
use roxmltree::Node;
use std::path::Path;

/// A pair of links named by `<disable_collisions>` or `<enable_collisions>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkPair {
    /// The first link (an index into [`Robot::links`](super::Robot::links)).
    pub link1: usize,
    /// The second link.
    pub link2: usize,
    /// The `reason` attribute (`Adjacent`, `Never`, `Default`, ...), if any.
    pub reason: Option<String>,
    /// Whether the element disables (`true`) or re-enables (`false`) the
    /// pair's collisions.
    pub disabled: bool,
}

/// A `<group_state>`: a named configuration of some joints.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupState {
    /// Its name (`ready`, `home`, ...).
    pub name: String,
    /// The planning group it is for.
    pub group: String,
    /// Each joint it sets (an index into [`Robot::joints`](super::Robot::joints))
    /// and the joint's position.
    pub joints: Vec<(usize, f64)>,
}

/// The collision semantics of an SRDF, its link and joint names checked
/// against a [`Robot`].
#[derive(Debug, Clone, PartialEq)]
pub struct Srdf {
    /// The `<robot name>`.
    pub name: String,
    /// The `<disable_collisions>` and `<enable_collisions>` pairs, in file order.
    pub pairs: Vec<LinkPair>,
    /// The links of `<disable_default_collisions>`: every pair with them is
    /// allowed unless an `<enable_collisions>` names it.
    pub disabled_by_default: Vec<usize>,
    /// The `<group_state>`s, in file order.
    pub group_states: Vec<GroupState>,
    links: usize,
}

impl Srdf {
    /// Reads the SRDF file at `path` for `robot`.
    ///
    /// # Errors
    /// A [`RobotError`] naming the file, line and element: malformed XML,
    /// a missing attribute, a link or joint name the robot does not have,
    /// a non-finite joint value.
    pub fn from_file(path: impl AsRef<Path>, robot: &Robot) -> Result<Self, RobotError> {
        let path = path.as_ref();
        let text = read_text(path)?;
        Self::from_text(&text, path, robot)
    }

    /// Reads an SRDF given as text (errors name the file `<memory>`).
    ///
    /// ```
    /// use clash::robot::{PackageMap, Robot, Srdf};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let robot = Robot::from_urdf_str(r#"<robot name="r"><link name="a"/><link name="b"/>
    ///   <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint></robot>"#,
    ///   ".", &PackageMap::new())?;
    /// let srdf = Srdf::from_str(
    ///     r#"<robot name="r"><disable_collisions link1="a" link2="b" reason="Adjacent"/></robot>"#,
    ///     &robot)?;
    /// assert!(srdf.allowed_collisions().is_allowed(0, 1));
    /// assert!(Srdf::from_str(r#"<robot name="r"><disable_collisions link1="a" link2="c"/></robot>"#,
    ///     &robot).is_err());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`from_file`](Self::from_file).
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(srdf: &str, robot: &Robot) -> Result<Self, RobotError> {
        Self::from_text(srdf, Path::new(MEMORY), robot)
    }

    fn from_text(text: &str, path: &Path, robot: &Robot) -> Result<Self, RobotError> {
        let file = XmlFile::parse(text, path)?;
        let root = file.robot()?;
        let link = |node: Node<'_, '_>, attribute: &'static str| -> Result<usize, RobotError> {
            let tag = node.tag_name().name();
            let name = file.required(node, attribute, tag)?;
            robot.link_index(name).ok_or_else(|| {
                file.error(
                    node,
                    RobotErrorKind::UnknownLink {
                        element: format!("<{tag} {attribute}=\"{name}\">"),
                        link: name.to_string(),
                    },
                )
            })
        };
        let mut pairs = Vec::new();
        let mut disabled_by_default = Vec::new();
        let mut group_states = Vec::new();
        for node in root.children().filter(Node::is_element) {
            match node.tag_name().name() {
                tag @ ("disable_collisions" | "enable_collisions") => pairs.push(LinkPair {
                    link1: link(node, "link1")?,
                    link2: link(node, "link2")?,
                    reason: node.attribute("reason").map(str::to_string),
                    disabled: tag == "disable_collisions",
                }),
                "disable_default_collisions" => disabled_by_default.push(link(node, "link")?),
                "group_state" => group_states.push(group_state(&file, node, robot)?),
                _ => {}
            }
        }
        Ok(Self {
            name: root.attribute("name").unwrap_or_default().to_string(),
            pairs,
            disabled_by_default,
            group_states,
            links: robot.links().len(),
        })
    }

    /// The pairs of links never checked: every pair with a
    /// `<disable_default_collisions>` link, then each
    /// `<disable_collisions>` (allowed) or `<enable_collisions>` (checked)
    /// in file order, a later element overriding an earlier one.
    pub fn allowed_collisions(&self) -> AllowedCollisionMatrix {
        let mut acm = AllowedCollisionMatrix::new(self.links);
        for &link in &self.disabled_by_default {
            acm.set_all(link, true);
        }
        for pair in &self.pairs {
            acm.set(pair.link1, pair.link2, pair.disabled);
        }
        acm
    }
}

fn group_state(
    file: &XmlFile<'_>,
    node: Node<'_, '_>,
    robot: &Robot,
) -> Result<GroupState, RobotError> {
    let name = file.required(node, "name", "<group_state>")?.to_string();
    let group = file.required(node, "group", "<group_state>")?.to_string();
    let element = format!("<group_state name=\"{name}\"> <joint>");
    let joints = children(node, "joint")
        .map(|j| {
            let joint_name = file.required(j, "name", &element)?;
            let index = robot.joint_index(joint_name).ok_or_else(|| {
                file.error(
                    j,
                    RobotErrorKind::UnknownJoint {
                        element: element.clone(),
                        joint: joint_name.to_string(),
                    },
                )
            })?;
            // MoveIt writes multi-variable joints' values as lists; the
            // joints clash supports have one value.
            let value = file.number(j, "value", &element)?.ok_or_else(|| {
                file.error(
                    j,
                    RobotErrorKind::MissingAttribute {
                        element: element.clone(),
                        attribute: "value",
                    },
                )
            })?;
            Ok((index, value))
        })
        .collect::<Result<_, RobotError>>()?;
    Ok(GroupState {
        name,
        group,
        joints,
    })
}
