//! Loading a [`Robot`] from a URDF: parse ([`super::urdf`]), link
//! ([`super::tree`]), load the collision meshes ([`super::meshes`]).

use super::Robot;
use super::error::RobotError;
use super::meshes::MeshCache;
use super::model::CollisionElement;
use super::package::PackageMap;
use super::xml::{MEMORY, XmlFile, read_text};
use super::{tree, urdf};
use std::path::Path;

impl Robot {
    /// Loads the URDF file at `path`. Mesh `filename`s resolve through
    /// `packages` (`package://` URIs) or relative to the URDF's folder; every
    /// collision mesh is loaded now, so that a missing or malformed mesh is
    /// an error here, naming the collision element, its line and the file,
    /// rather than in the middle of a query.
    ///
    /// ```
    /// use clash::robot::{PackageMap, Robot};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/ur5");
    /// let packages = PackageMap::new()
    ///     .with("example-robot-data/robots/ur_description/meshes/ur5", data.join("meshes"));
    /// let ur5 = Robot::from_urdf_file(data.join("urdf/ur5_robot.urdf"), &packages)?;
    /// assert_eq!((ur5.dof(), ur5.collision_elements().len()), (6, 8));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A [`RobotError`] naming the file, the line and the element at fault:
    /// malformed XML, missing or malformed attributes, NaN or infinite
    /// numbers, unsupported joint types, zero axes, bad limits, duplicate
    /// names, unknown links, cycles, several roots, unresolved or
    /// unloadable meshes.
    pub fn from_urdf_file(
        path: impl AsRef<Path>,
        packages: &PackageMap,
    ) -> Result<Self, RobotError> {
        let path = path.as_ref();
        let text = read_text(path)?;
        let base_dir = path.parent().unwrap_or(Path::new("."));
        Self::from_urdf_text(&text, path, base_dir, packages)
    }

    /// Loads a URDF given as text; relative mesh paths resolve against
    /// `base_dir`. Errors name the file `<memory>`.
    ///
    /// ```
    /// use clash::robot::{JointKind, PackageMap, Robot};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let urdf = r#"<robot name="arm">
    ///   <link name="base"/>
    ///   <link name="tip"><collision><geometry><sphere radius="0.1"/></geometry></collision></link>
    ///   <joint name="turn" type="revolute">
    ///     <parent link="base"/><child link="tip"/>
    ///     <origin xyz="1 0 0"/><axis xyz="0 0 1"/><limit lower="-1" upper="1"/>
    ///   </joint>
    /// </robot>"#;
    /// let robot = Robot::from_urdf_str(urdf, ".", &PackageMap::new())?;
    /// assert_eq!(robot.dof(), 1);
    /// assert_eq!(robot.joints()[0].kind, JointKind::Revolute);
    /// assert_eq!(robot.links()[robot.root()].name, "base");
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`from_urdf_file`](Self::from_urdf_file).
    pub fn from_urdf_str(
        urdf: &str,
        base_dir: impl AsRef<Path>,
        packages: &PackageMap,
    ) -> Result<Self, RobotError> {
        Self::from_urdf_text(urdf, Path::new(MEMORY), base_dir.as_ref(), packages)
    }

    fn from_urdf_text(
        text: &str,
        path: &Path,
        base_dir: &Path,
        packages: &PackageMap,
    ) -> Result<Self, RobotError> {
        let file = XmlFile::parse(text, path)?;
        let raw = urdf::parse(&file)?;
        let tree::Tree {
            mut links,
            joints,
            root,
            order,
            dofs,
        } = tree::build(&raw, path)?;
        let mut meshes = MeshCache::new(packages, base_dir, path);
        let mut collisions = Vec::new();
        for (l, raw_link) in raw.links.iter().enumerate() {
            let start = collisions.len();
            for c in &raw_link.collisions {
                collisions.push(CollisionElement {
                    link: l,
                    name: c.name.clone(),
                    origin: c.origin,
                    geometry: meshes.geometry(c)?,
                });
            }
            links[l].collisions = start..collisions.len();
        }
        Ok(Self {
            name: raw.name,
            links,
            joints,
            collisions,
            root,
            order,
            dofs,
        })
    }
}
