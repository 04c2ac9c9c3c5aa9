//! `clash.Mesh`: a validated triangle mesh from numpy arrays, a file, or
//! anything with `vertices` and `faces` (a `trimesh.Trimesh`), and the
//! mesh sources `Tree.build` accepts.

use crate::arrays;
use crate::error::{Error, Result};
use crate::input::{Array, shape_text};
use clash::bvh::{MeshError, TriMesh};
use clash::math::{Point3, Scalar};
use numpy::PyArray2;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use std::path::PathBuf;
use std::sync::Arc;

/// Triangles from integer vertex indices (row-major, three per triangle),
/// each index checked against `num_vertices` with the message of
/// [`MeshError::IndexOutOfRange`].
///
/// # Errors
/// [`Error::Value`] naming the first triangle with an index outside
/// `0..num_vertices` (negative ones included).
pub fn faces_from_indices(values: &[i128], num_vertices: usize) -> Result<Vec<[u32; 3]>> {
    values
        .chunks_exact(3)
        .enumerate()
        .map(|(t, f)| {
            let mut out = [0u32; 3];
            for (slot, &v) in out.iter_mut().zip(f) {
                *slot = match u32::try_from(v) {
                    Ok(i) if (i as usize) < num_vertices => i,
                    _ => {
                        return Err(Error::Value(format!(
                            "invalid mesh: triangle {t} refers to vertex {v}, but the mesh has \
                             {num_vertices} vertices"
                        )));
                    }
                };
            }
            Ok(out)
        })
        .collect()
}

/// A mesh error in the words of the command line (`invalid mesh: ...`).
pub fn invalid(e: MeshError) -> Error {
    Error::Value(format!("invalid mesh: {e}"))
}

/// `mesh` with its vertices rounded to `T` (a copy; `f64` keeps them).
///
/// # Errors
/// [`Error::Value`] when a coordinate overflows `T`.
pub fn with_precision<T: Scalar>(mesh: &TriMesh<f64>) -> Result<TriMesh<T>> {
    let vertices = mesh
        .vertices()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let q = Point3::new(T::lit(p.x), T::lit(p.y), T::lit(p.z));
            match (0..3).find(|&k| !q[k].finite()) {
                Some(k) => Err(Error::Value(format!(
                    "invalid mesh: vertex {i} has coordinate {:?}, out of range for {} trees",
                    p[k],
                    T::NAME
                ))),
                None => Ok(q),
            }
        })
        .collect::<Result<Vec<_>>>()?;
    TriMesh::new(vertices, mesh.indices().to_vec()).map_err(invalid)
}

/// A triangle mesh: vertices (float64) and counter-clockwise triangles of
/// vertex indices, validated (finite coordinates, indices in range, at least
/// one triangle). Triangle `i` of every answer is row `i` of `faces`.
///
/// ``Mesh(vertices, faces)`` takes an ``(N, 3)`` array-like of real numbers
/// and an ``(M, 3)`` array-like of integers. Build trees from it with
/// ``Tree.build``; it pickles by its arrays.
#[pyclass(module = "clash", frozen)]
pub struct Mesh {
    pub(crate) mesh: Arc<TriMesh<f64>>,
}

impl Mesh {
    /// The mesh of `vertices` and `faces` array-likes.
    pub fn from_arrays(vertices: &Bound<'_, PyAny>, faces: &Bound<'_, PyAny>) -> PyResult<Self> {
        let v = arrays::read_f64(vertices, "vertices")?;
        let points = vertex_rows(&v)?;
        let faces = arrays::read_faces(faces, points.len())?;
        let mesh = TriMesh::new(points, faces).map_err(invalid)?;
        Ok(Self {
            mesh: Arc::new(mesh),
        })
    }
}

/// The rows of an `(N, 3)` vertex array as points (finiteness is checked
/// by `TriMesh::new`, with its message).
fn vertex_rows(v: &Array) -> Result<Vec<Point3<f64>>> {
    if !matches!(v.shape.as_slice(), [_, 3]) {
        return Err(Error::Value(format!(
            "vertices must have shape (N, 3), not {}",
            shape_text(&v.shape)
        )));
    }
    Ok(v.data
        .chunks_exact(3)
        .map(|r| Point3::new(r[0], r[1], r[2]))
        .collect())
}

#[pymethods]
impl Mesh {
    /// A mesh from an ``(N, 3)`` array of vertices and an ``(M, 3)`` array
    /// of vertex indices (any integer dtype).
    ///
    /// Raises ``ValueError`` for wrong shapes or dtypes, non-finite
    /// coordinates, out-of-range indices or no triangles.
    #[new]
    fn py_new(vertices: &Bound<'_, PyAny>, faces: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::from_arrays(vertices, faces)
    }

    /// Loads an OBJ, STL (ASCII or binary) or PLY (ASCII or binary) file.
    /// Triangles keep the file's order (polygons become fans, in order);
    /// bit-identical STL vertices are welded.
    ///
    /// Raises ``OSError`` when the file cannot be read, ``ValueError`` when
    /// it is malformed, naming the file and line.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let mesh = py.detach(|| {
            crate::pool::on_pool(|| {
                clash::mesh_file::load_mesh::<f64>(&path).map_err(Error::mesh_file)
            })
        })?;
        Ok(Self {
            mesh: Arc::new(mesh),
        })
    }

    /// A mesh from any object with ``vertices`` and ``faces`` arrays, such as
    /// a ``trimesh.Trimesh`` (trimesh itself is not needed).
    #[staticmethod]
    fn from_trimesh(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::from_arrays(&obj.getattr("vertices")?, &obj.getattr("faces")?)
    }

    /// The vertices, an ``(N, 3)`` float64 array (a copy).
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let v: Vec<[f64; 3]> = self
            .mesh
            .vertices()
            .iter()
            .map(|p| p.coords.into())
            .collect();
        arrays::rows(py, v)
    }

    /// The triangles, an ``(M, 3)`` int64 array of vertex indices (a copy).
    #[getter]
    fn faces<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i64>> {
        faces_array(py, &self.mesh)
    }

    /// Number of vertices.
    #[getter]
    fn num_vertices(&self) -> usize {
        self.mesh.vertices().len()
    }

    /// Number of triangles.
    #[getter]
    fn num_triangles(&self) -> usize {
        self.mesh.num_triangles()
    }

    /// ``True`` when every edge is shared by exactly two oppositely wound
    /// triangles (the mesh bounds a volume; signed distance needs this).
    #[getter]
    fn is_closed(&self) -> bool {
        self.mesh.is_closed()
    }

    /// Pickles as ``Mesh(vertices, faces)``.
    fn __reduce__<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let me = slf.get();
        Ok((
            slf.get_type().into_any(),
            (me.vertices(py).into_any(), me.faces(py).into_any()),
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "clash.Mesh({} vertices, {} triangles)",
            self.mesh.vertices().len(),
            self.mesh.num_triangles()
        )
    }
}

/// What `Mesh.__reduce__` returns: the class and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (Bound<'py, PyAny>, Bound<'py, PyAny>));

/// The triangles of `mesh` as an `(M, 3)` int64 array.
pub fn faces_array<'py, T: Scalar>(
    py: Python<'py>,
    mesh: &TriMesh<T>,
) -> Bound<'py, PyArray2<i64>> {
    let f: Vec<[i64; 3]> = mesh.indices().iter().map(|t| t.map(i64::from)).collect();
    arrays::rows(py, f)
}

/// The vertices of `mesh` as an `(N, 3)` float64 array.
pub fn vertices_array<'py, T: Scalar>(
    py: Python<'py>,
    mesh: &TriMesh<T>,
) -> Bound<'py, PyArray2<f64>> {
    let v: Vec<[f64; 3]> = mesh
        .vertices()
        .iter()
        .map(|p| [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()])
        .collect();
    arrays::rows(py, v)
}

/// Where `Tree.build` takes its mesh from.
pub enum MeshSource {
    /// A validated mesh.
    Mesh(Arc<TriMesh<f64>>),
    /// A mesh file, loaded at the tree's precision as the command line does.
    File(PathBuf),
}

impl MeshSource {
    /// A `clash.Mesh`, a path (`str` or `os.PathLike`), a `(vertices,
    /// faces)` pair, or an object with `vertices` and `faces` attributes.
    ///
    /// # Errors
    /// `TypeError` for anything else; the array errors of [`Mesh::from_arrays`].
    pub fn extract(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(m) = obj.cast::<Mesh>() {
            return Ok(Self::Mesh(m.get().mesh.clone()));
        }
        if obj.is_instance_of::<PyString>() || obj.hasattr("__fspath__")? {
            return Ok(Self::File(obj.extract::<PathBuf>()?));
        }
        if (obj.is_instance_of::<PyTuple>() || obj.is_instance_of::<PyList>()) && obj.len()? == 2 {
            let m = Mesh::from_arrays(&obj.get_item(0)?, &obj.get_item(1)?)?;
            return Ok(Self::Mesh(m.mesh));
        }
        if obj.hasattr("vertices")? && obj.hasattr("faces")? {
            return Ok(Self::Mesh(Mesh::from_trimesh(obj)?.mesh));
        }
        Err(PyTypeError::new_err(format!(
            "expected a clash.Mesh, a mesh file path, a (vertices, faces) pair or an object \
             with vertices and faces (such as a trimesh.Trimesh), not {}",
            obj.get_type().name()?
        )))
    }

    /// The mesh at precision `T`, and a name for it in error messages.
    ///
    /// # Errors
    /// The file's errors (`OSError`, `ValueError`), or a coordinate that
    /// overflows `T`.
    pub fn load<T: Scalar>(&self) -> Result<(TriMesh<T>, String)> {
        match self {
            Self::File(path) => Ok((
                clash::mesh_file::load_mesh::<T>(path).map_err(Error::mesh_file)?,
                path.display().to_string(),
            )),
            Self::Mesh(m) => Ok((with_precision::<T>(m)?, "mesh".into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_out_of_range_get_the_mesh_error_message() {
        assert_eq!(
            faces_from_indices(&[0, 1, 2, 2, 1, 3], 4).unwrap(),
            vec![[0, 1, 2], [2, 1, 3]]
        );
        for bad in [-1_i128, 4, i128::from(u32::MAX) + 1, i128::from(u64::MAX)] {
            let e = faces_from_indices(&[0, 1, 2, 0, bad, 1], 4).unwrap_err();
            assert_eq!(
                e,
                Error::Value(format!(
                    "invalid mesh: triangle 1 refers to vertex {bad}, but the mesh has 4 vertices"
                ))
            );
        }
        // The same words as TriMesh::new's own check.
        let e = TriMesh::new(vec![Point3::new(0.0_f64, 0.0, 0.0)], vec![[0, 0, 4]]).unwrap_err();
        assert_eq!(
            invalid(e),
            Error::Value(
                "invalid mesh: triangle 0 refers to vertex 4, but the mesh has 1 vertices".into()
            )
        );
    }

    #[test]
    fn single_precision_meshes_round_and_reject_overflow() {
        let tri = |z: f64| {
            TriMesh::new(
                vec![
                    Point3::new(0.1, 0.0, 0.0),
                    Point3::new(1.0, 0.0, 0.0),
                    Point3::new(0.0, 1.0, z),
                ],
                vec![[0, 1, 2]],
            )
            .unwrap()
        };
        let m = with_precision::<f32>(&tri(0.0)).unwrap();
        assert_eq!(m.vertices()[0].x, 0.1_f32);
        assert_eq!(with_precision::<f64>(&tri(0.0)).unwrap(), tri(0.0));
        assert_eq!(
            with_precision::<f32>(&tri(3.4028236e38)).unwrap_err(),
            Error::Value(
                "invalid mesh: vertex 2 has coordinate 3.4028236e38, out of range for f32 trees"
                    .into()
            )
        );
    }
}
