//! Reading URDF and SRDF elements with `roxmltree`: attributes parsed as
//! finite numbers, every error carrying the file and the element's line.

use super::error::{RobotError, RobotErrorKind};
use clash_math::{Isometry3, Translation3, UnitQuaternion, Vector3};
use roxmltree::{Document, Node};
use std::path::Path;

/// A parsed XML file and its name, for errors.
pub(crate) struct XmlFile<'a> {
    pub(crate) path: &'a Path,
    pub(crate) doc: Document<'a>,
}

/// The `<memory>` file name of text given as a string.
pub(crate) const MEMORY: &str = "<memory>";

impl<'a> XmlFile<'a> {
    /// Parses `text`; a malformed document is an error at the parser's line.
    pub(crate) fn parse(text: &'a str, path: &'a Path) -> Result<Self, RobotError> {
        let doc = Document::parse(text).map_err(|e| {
            RobotError::new(
                path,
                Some(e.pos().row as usize),
                RobotErrorKind::Xml {
                    message: e.to_string(),
                },
            )
        })?;
        Ok(Self { path, doc })
    }

    /// The root element, which must be `<robot>`.
    pub(crate) fn robot(&self) -> Result<Node<'_, 'a>, RobotError> {
        let root = self.doc.root_element();
        if root.tag_name().name() == "robot" {
            Ok(root)
        } else {
            Err(self.error(
                root,
                RobotErrorKind::NotARobot {
                    found: root.tag_name().name().to_string(),
                },
            ))
        }
    }

    /// The 1-based line where `node` starts.
    pub(crate) fn line(&self, node: Node<'_, '_>) -> usize {
        self.doc.text_pos_at(node.range().start).row as usize
    }

    /// An error about `node`.
    pub(crate) fn error(&self, node: Node<'_, '_>, kind: RobotErrorKind) -> RobotError {
        RobotError::new(self.path, Some(self.line(node)), kind)
    }

    /// The attribute `name` of `node`, which must be present.
    pub(crate) fn required<'n>(
        &self,
        node: Node<'n, 'a>,
        name: &'static str,
        element: &str,
    ) -> Result<&'n str, RobotError> {
        node.attribute(name).ok_or_else(|| {
            self.error(
                node,
                RobotErrorKind::MissingAttribute {
                    element: element.to_string(),
                    attribute: name,
                },
            )
        })
    }

    /// The attribute `name` as `N` finite numbers separated by white space,
    /// if present.
    pub(crate) fn numbers<const N: usize>(
        &self,
        node: Node<'_, '_>,
        name: &'static str,
        element: &str,
    ) -> Result<Option<[f64; N]>, RobotError> {
        let Some(text) = node.attribute(name) else {
            return Ok(None);
        };
        let bad = |expected| {
            self.error(
                node,
                RobotErrorKind::BadValue {
                    element: element.to_string(),
                    attribute: name,
                    value: text.to_string(),
                    expected,
                },
            )
        };
        let expected = if N == 1 { "a number" } else { "three numbers" };
        let mut out = [0.0_f64; N];
        let mut tokens = text.split_whitespace();
        for slot in &mut out {
            let token = tokens.next().ok_or_else(|| bad(expected))?;
            *slot = token.parse().map_err(|_| bad(expected))?;
            if !slot.is_finite() {
                return Err(self.error(
                    node,
                    RobotErrorKind::NonFinite {
                        element: element.to_string(),
                        attribute: name,
                        value: text.to_string(),
                    },
                ));
            }
        }
        if tokens.next().is_some() {
            return Err(bad(expected));
        }
        Ok(Some(out))
    }

    /// The attribute `name` as one finite number, if present.
    pub(crate) fn number(
        &self,
        node: Node<'_, '_>,
        name: &'static str,
        element: &str,
    ) -> Result<Option<f64>, RobotError> {
        Ok(self.numbers::<1>(node, name, element)?.map(|[x]| x))
    }

    /// The attribute `name` as one finite number greater than zero (or at
    /// least zero when `allow_zero`), which must be present.
    pub(crate) fn size(
        &self,
        node: Node<'_, '_>,
        name: &'static str,
        element: &str,
        allow_zero: bool,
    ) -> Result<f64, RobotError> {
        let value = self.number(node, name, element)?.ok_or_else(|| {
            self.error(
                node,
                RobotErrorKind::MissingAttribute {
                    element: element.to_string(),
                    attribute: name,
                },
            )
        })?;
        if value > 0.0 || (allow_zero && value == 0.0) {
            Ok(value)
        } else {
            Err(self.error(
                node,
                RobotErrorKind::BadValue {
                    element: element.to_string(),
                    attribute: name,
                    value: node.attribute(name).unwrap_or_default().to_string(),
                    expected: if allow_zero {
                        "a number at least 0"
                    } else {
                        "a number greater than 0"
                    },
                },
            ))
        }
    }

    /// The pose of an `<origin xyz=".." rpy="..">` child of `node` (the
    /// identity when absent; each attribute defaults to zeros). URDF's
    /// roll-pitch-yaw is `Rz(yaw) Ry(pitch) Rx(roll)`, nalgebra's
    /// `from_euler_angles(roll, pitch, yaw)`.
    pub(crate) fn origin(
        &self,
        node: Node<'_, '_>,
        element: &str,
    ) -> Result<Isometry3<f64>, RobotError> {
        let Some(origin) = child(node, "origin") else {
            return Ok(Isometry3::identity());
        };
        let [x, y, z] = self.numbers(origin, "xyz", element)?.unwrap_or([0.0; 3]);
        let [roll, pitch, yaw] = self.numbers(origin, "rpy", element)?.unwrap_or([0.0; 3]);
        Ok(Isometry3::from_parts(
            Translation3::from(Vector3::new(x, y, z)),
            UnitQuaternion::from_euler_angles(roll, pitch, yaw),
        ))
    }
}

/// The first child element of `node` with tag `tag`.
pub(crate) fn child<'a, 'input>(node: Node<'a, 'input>, tag: &str) -> Option<Node<'a, 'input>> {
    node.children()
        .find(|c| c.is_element() && c.tag_name().name() == tag)
}

/// The child elements of `node` with tag `tag`, in document order.
pub(crate) fn children<'a, 'input: 'a>(
    node: Node<'a, 'input>,
    tag: &'a str,
) -> impl Iterator<Item = Node<'a, 'input>> + 'a {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == tag)
}

/// Reads a file as UTF-8 text; errors name the file.
pub(crate) fn read_text(path: &Path) -> Result<String, RobotError> {
    let bytes =
        std::fs::read(path).map_err(|e| RobotError::new(path, None, RobotErrorKind::Io(e)))?;
    String::from_utf8(bytes).map_err(|e| {
        let line = e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        RobotError::new(
            path,
            Some(line),
            RobotErrorKind::Xml {
                message: "not UTF-8 text".into(),
            },
        )
    })
}
