//! Reading a URDF's links, joints and collision elements as written, before
//! names are linked into a tree ([`super::tree`]) and meshes are loaded
//! ([`super::meshes`]).
//!
//! Follows the URDF specification (ROS wiki, `urdf/XML`): `<origin>`
//! defaults to the identity, `<axis>` to `1 0 0`, `<limit>` is required on
//! revolute and prismatic joints (its `lower` and `upper` default to 0, as
//! urdfdom reads them), `<mimic>`'s `multiplier` to 1 and `offset` to 0.
//! Visual, inertial, transmission and simulator elements are not read.

use super::error::{RobotError, RobotErrorKind};
use super::model::{CollisionGeometry, JointKind, JointLimits};
use super::xml::{XmlFile, child, children};
use clash_math::{Isometry3, Vector3};
use nalgebra::Unit;
use roxmltree::Node;

/// A `<link>` as written.
pub(crate) struct RawLink {
    pub(crate) name: String,
    pub(crate) line: usize,
    pub(crate) collisions: Vec<RawCollision>,
}

/// A `<collision>` as written.
pub(crate) struct RawCollision {
    /// How errors name it: `collision 2 of link "hand"`.
    pub(crate) element: String,
    pub(crate) line: usize,
    pub(crate) name: Option<String>,
    pub(crate) origin: Isometry3<f64>,
    pub(crate) geometry: RawGeometry,
}

/// A `<geometry>`'s shape as written: a primitive as it will be kept, or a
/// mesh not yet loaded.
pub(crate) enum RawGeometry {
    Primitive(CollisionGeometry),
    Mesh {
        filename: String,
        scale: Vector3<f64>,
    },
}

/// A `<mimic>` as written.
pub(crate) struct RawMimic {
    pub(crate) leader: String,
    pub(crate) multiplier: f64,
    pub(crate) offset: f64,
}

/// A `<joint>` as written, its links still names.
pub(crate) struct RawJoint {
    pub(crate) name: String,
    pub(crate) line: usize,
    pub(crate) kind: JointKind,
    pub(crate) parent: String,
    pub(crate) child: String,
    pub(crate) origin: Isometry3<f64>,
    pub(crate) axis: Unit<Vector3<f64>>,
    pub(crate) limits: Option<JointLimits>,
    pub(crate) mimic: Option<RawMimic>,
}

/// A URDF as written.
pub(crate) struct RawRobot {
    pub(crate) name: String,
    pub(crate) links: Vec<RawLink>,
    pub(crate) joints: Vec<RawJoint>,
}

/// Reads the links and joints of a URDF document.
pub(crate) fn parse(file: &XmlFile<'_>) -> Result<RawRobot, RobotError> {
    let robot = file.robot()?;
    let name = robot.attribute("name").unwrap_or_default().to_string();
    let links = children(robot, "link")
        .map(|node| parse_link(file, node))
        .collect::<Result<_, _>>()?;
    let joints = children(robot, "joint")
        .map(|node| parse_joint(file, node))
        .collect::<Result<_, _>>()?;
    Ok(RawRobot {
        name,
        links,
        joints,
    })
}

fn parse_link(file: &XmlFile<'_>, node: Node<'_, '_>) -> Result<RawLink, RobotError> {
    let name = file.required(node, "name", "<link>")?.to_string();
    let collisions = children(node, "collision")
        .enumerate()
        .map(|(i, c)| parse_collision(file, c, format!("collision {i} of link {name:?}")))
        .collect::<Result<_, _>>()?;
    Ok(RawLink {
        line: file.line(node),
        name,
        collisions,
    })
}

fn parse_collision(
    file: &XmlFile<'_>,
    node: Node<'_, '_>,
    element: String,
) -> Result<RawCollision, RobotError> {
    let origin = file.origin(node, &element)?;
    let geometry = child(node, "geometry").ok_or_else(|| {
        file.error(
            node,
            RobotErrorKind::MissingElement {
                element: element.clone(),
                child: "geometry",
            },
        )
    })?;
    let Some(shape) = geometry.children().find(Node::is_element) else {
        return Err(file.error(
            geometry,
            RobotErrorKind::MissingElement {
                element,
                child: "box, sphere, cylinder, capsule or mesh",
            },
        ));
    };
    let geometry = parse_shape(file, shape, &element)?;
    Ok(RawCollision {
        line: file.line(node),
        name: node.attribute("name").map(str::to_string),
        origin,
        geometry,
        element,
    })
}

fn parse_shape(
    file: &XmlFile<'_>,
    shape: Node<'_, '_>,
    element: &str,
) -> Result<RawGeometry, RobotError> {
    let tag = shape.tag_name().name();
    let e = format!("{element} <{tag}>");
    Ok(match tag {
        "box" => {
            let size = file.numbers::<3>(shape, "size", &e)?.ok_or_else(|| {
                file.error(
                    shape,
                    RobotErrorKind::MissingAttribute {
                        element: e.clone(),
                        attribute: "size",
                    },
                )
            })?;
            if size.iter().any(|&s| s < 0.0) {
                return Err(file.error(
                    shape,
                    RobotErrorKind::BadValue {
                        element: e,
                        attribute: "size",
                        value: shape.attribute("size").unwrap_or_default().to_string(),
                        expected: "three numbers at least 0",
                    },
                ));
            }
            RawGeometry::Primitive(CollisionGeometry::Box {
                half_extents: Vector3::from(size) * 0.5,
            })
        }
        "sphere" => RawGeometry::Primitive(CollisionGeometry::Sphere {
            radius: file.size(shape, "radius", &e, true)?,
        }),
        "cylinder" => RawGeometry::Primitive(CollisionGeometry::Cylinder {
            radius: file.size(shape, "radius", &e, true)?,
            length: file.size(shape, "length", &e, true)?,
        }),
        "capsule" => RawGeometry::Primitive(CollisionGeometry::Capsule {
            radius: file.size(shape, "radius", &e, true)?,
            length: file.size(shape, "length", &e, true)?,
        }),
        "mesh" => {
            let filename = file.required(shape, "filename", &e)?.to_string();
            let scale = file.numbers::<3>(shape, "scale", &e)?.unwrap_or([1.0; 3]);
            if scale.contains(&0.0) {
                return Err(file.error(
                    shape,
                    RobotErrorKind::BadValue {
                        element: e,
                        attribute: "scale",
                        value: shape.attribute("scale").unwrap_or_default().to_string(),
                        expected: "three non-zero numbers",
                    },
                ));
            }
            RawGeometry::Mesh {
                filename,
                scale: Vector3::from(scale),
            }
        }
        _ => {
            return Err(file.error(
                shape,
                RobotErrorKind::UnknownGeometry {
                    element: element.to_string(),
                    geometry: tag.to_string(),
                },
            ));
        }
    })
}

fn parse_joint(file: &XmlFile<'_>, node: Node<'_, '_>) -> Result<RawJoint, RobotError> {
    let name = file.required(node, "name", "<joint>")?.to_string();
    let element = format!("joint {name:?}");
    let joint_type = file.required(node, "type", &element)?;
    let kind = match joint_type {
        "fixed" => JointKind::Fixed,
        "revolute" => JointKind::Revolute,
        "continuous" => JointKind::Continuous,
        "prismatic" => JointKind::Prismatic,
        _ => {
            return Err(file.error(
                node,
                RobotErrorKind::UnsupportedJointType {
                    joint: name,
                    joint_type: joint_type.to_string(),
                },
            ));
        }
    };
    let link_of = |tag: &'static str| -> Result<String, RobotError> {
        let c = child(node, tag).ok_or_else(|| {
            file.error(
                node,
                RobotErrorKind::MissingElement {
                    element: element.clone(),
                    child: tag,
                },
            )
        })?;
        Ok(file
            .required(c, "link", &format!("{element} <{tag}>"))?
            .to_string())
    };
    let parent = link_of("parent")?;
    let child_link = link_of("child")?;
    let origin = file.origin(node, &element)?;
    let axis = parse_axis(file, node, &name, kind)?;
    let limits = parse_limits(file, node, &name, kind)?;
    let mimic = match child(node, "mimic") {
        Some(m) if kind.is_movable() => Some(RawMimic {
            leader: file
                .required(m, "joint", &format!("{element} <mimic>"))?
                .to_string(),
            multiplier: file.number(m, "multiplier", &element)?.unwrap_or(1.0),
            offset: file.number(m, "offset", &element)?.unwrap_or(0.0),
        }),
        // A fixed joint has no position to derive: its <mimic> means nothing.
        _ => None,
    };
    Ok(RawJoint {
        line: file.line(node),
        name,
        kind,
        parent,
        child: child_link,
        origin,
        axis,
        limits,
        mimic,
    })
}

fn parse_axis(
    file: &XmlFile<'_>,
    node: Node<'_, '_>,
    name: &str,
    kind: JointKind,
) -> Result<Unit<Vector3<f64>>, RobotError> {
    let element = format!("joint {name:?} <axis>");
    let xyz = match child(node, "axis") {
        Some(axis) => file
            .numbers::<3>(axis, "xyz", &element)?
            .unwrap_or([1.0, 0.0, 0.0]),
        None => [1.0, 0.0, 0.0],
    };
    let v = Vector3::from(xyz);
    // Scaled by its largest component first, so tiny and huge finite axes
    // normalise without underflow or overflow.
    let m = v.amax();
    if m > 0.0 {
        Ok(Unit::new_normalize(v / m))
    } else if !kind.is_movable() {
        Ok(Vector3::x_axis())
    } else {
        Err(file.error(
            child(node, "axis").unwrap_or(node),
            RobotErrorKind::ZeroAxis {
                joint: name.to_string(),
            },
        ))
    }
}

fn parse_limits(
    file: &XmlFile<'_>,
    node: Node<'_, '_>,
    name: &str,
    kind: JointKind,
) -> Result<Option<JointLimits>, RobotError> {
    if !matches!(kind, JointKind::Revolute | JointKind::Prismatic) {
        return Ok(None);
    }
    let element = format!("joint {name:?} <limit>");
    let limit = child(node, "limit").ok_or_else(|| {
        file.error(
            node,
            RobotErrorKind::MissingElement {
                element: format!("joint {name:?}"),
                child: "limit",
            },
        )
    })?;
    let lower = file.number(limit, "lower", &element)?.unwrap_or(0.0);
    let upper = file.number(limit, "upper", &element)?.unwrap_or(0.0);
    if lower > upper {
        return Err(file.error(
            limit,
            RobotErrorKind::BadLimits {
                joint: name.to_string(),
                lower,
                upper,
            },
        ));
    }
    Ok(Some(JointLimits { lower, upper }))
}
