//! Turning the collision elements as written into [`CollisionGeometry`]:
//! mesh paths resolved through the [`PackageMap`], files loaded through
//! [`crate::mesh_file::load_mesh`] once per file and scale, and scaled.

use super::error::{RobotError, RobotErrorKind};
use super::model::CollisionGeometry;
use super::package::PackageMap;
use super::urdf::{RawCollision, RawGeometry};
use crate::mesh_file::{MeshFileError, load_mesh};
use clash_bvh::{MeshError, TriMesh};
use clash_math::{Point3, Vector3};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Loads each mesh file once: elements naming the same file with the same
/// scale share one mesh.
pub(crate) struct MeshCache<'a> {
    packages: &'a PackageMap,
    base_dir: &'a Path,
    urdf: &'a Path,
    loaded: HashMap<(PathBuf, [u64; 3]), Arc<TriMesh<f64>>>,
}

impl<'a> MeshCache<'a> {
    /// A cache resolving paths with `packages` and relative to `base_dir`;
    /// errors name the file `urdf`.
    pub(crate) fn new(packages: &'a PackageMap, base_dir: &'a Path, urdf: &'a Path) -> Self {
        Self {
            packages,
            base_dir,
            urdf,
            loaded: HashMap::new(),
        }
    }

    /// The geometry of `collision`, its mesh loaded if it has one.
    pub(crate) fn geometry(
        &mut self,
        collision: &RawCollision,
    ) -> Result<CollisionGeometry, RobotError> {
        Ok(match &collision.geometry {
            RawGeometry::Primitive(shape) => shape.clone(),
            RawGeometry::Mesh { filename, scale } => {
                let error = |kind| RobotError::new(self.urdf, Some(collision.line), kind);
                let path = self
                    .packages
                    .resolve(filename, self.base_dir)
                    .map_err(|reason| {
                        error(RobotErrorKind::MeshPath {
                            element: collision.element.clone(),
                            uri: filename.clone(),
                            reason,
                        })
                    })?;
                let key = (path.clone(), scale.map(f64::to_bits).into());
                let mesh = match self.loaded.get(&key) {
                    Some(mesh) => mesh.clone(),
                    None => {
                        let mesh_error = |source| {
                            error(RobotErrorKind::Mesh {
                                element: collision.element.clone(),
                                source,
                            })
                        };
                        let mesh = load_mesh::<f64>(&path).map_err(mesh_error)?;
                        let mesh = scaled(mesh, scale).map_err(|source| {
                            mesh_error(MeshFileError::InvalidMesh {
                                path: path.clone(),
                                source,
                            })
                        })?;
                        let mesh = Arc::new(mesh);
                        self.loaded.insert(key, mesh.clone());
                        mesh
                    }
                };
                CollisionGeometry::Mesh {
                    path,
                    scale: *scale,
                    mesh,
                }
            }
        })
    }
}

/// `mesh` with its vertices multiplied by `scale` component-wise; an odd
/// number of negative components mirrors the mesh, so each triangle's
/// winding is reversed to keep its normal pointing out.
///
/// # Errors
/// A coordinate overflowed to infinity (a huge scale).
fn scaled(mesh: TriMesh<f64>, scale: &Vector3<f64>) -> Result<TriMesh<f64>, MeshError> {
    if *scale == Vector3::repeat(1.0) {
        return Ok(mesh);
    }
    let vertices: Vec<Point3<f64>> = mesh
        .vertices()
        .iter()
        .map(|v| Point3::from(v.coords.component_mul(scale)))
        .collect();
    let mirrored = scale.iter().filter(|&&s| s < 0.0).count() % 2 == 1;
    let indices = mesh
        .indices()
        .iter()
        .map(|&[a, b, c]| if mirrored { [a, c, b] } else { [a, b, c] })
        .collect();
    TriMesh::new(vertices, indices)
}
