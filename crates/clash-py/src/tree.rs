//! `clash.Tree`: a bounding volume hierarchy of any volume type and
//! precision over a mesh; built in parallel without the GIL, saved and
//! loaded as files or bytes in the clash tree format, pickled through those
//! bytes (so it can be sent to worker processes).

use crate::error::{Error, Result, catch_panic};
use crate::kind::{AnyTree, TreeKind};
use crate::mesh::{MeshSource, faces_array, vertices_array};
use crate::pool;
use crate::{with_kind, with_tree, with_tree_pair};
use clash::bv::{FitVolume, FlatVolume};
use clash::bvh::io::TreeHeader;
use clash::bvh::{BuildOptions, Bvh, FitQuality, SplitRule};
use clash::math::Scalar;
use numpy::PyArray2;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyType};
use std::borrow::Cow;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The build options of `Tree.build`, checked as the command line checks
/// its own (`--split`, `--leaf-size`, `--tight`, `--tight-above`,
/// `--basic-fit`).
///
/// # Errors
/// [`Error::Value`] for an unknown split, a leaf size outside 1..=255, or
/// more than one fit option.
pub fn build_options(
    split: &str,
    leaf_size: i64,
    tight: bool,
    tight_above: Option<i64>,
    basic_fit: bool,
) -> Result<BuildOptions> {
    let split = match split {
        "median" => SplitRule::Median,
        "mean" => SplitRule::Mean,
        "sah" => SplitRule::Sah { bins: 16 },
        other => {
            return Err(Error::Value(format!(
                "unknown split {other:?} (expected one of median, mean, sah)"
            )));
        }
    };
    let leaf_size = u32::try_from(leaf_size)
        .ok()
        .filter(|n| (1..=255).contains(n))
        .ok_or_else(|| {
            Error::Value(format!(
                "leaf_size must be between 1 and 255, not {leaf_size}"
            ))
        })?;
    let mut o = BuildOptions::default()
        .with_split(split)
        .with_max_leaf_size(leaf_size);
    if usize::from(tight) + usize::from(tight_above.is_some()) + usize::from(basic_fit) > 1 {
        return Err(Error::Value(
            "tight, tight_above and basic_fit cannot be used together".into(),
        ));
    }
    match (tight, tight_above) {
        (true, _) => o.fit = FitQuality::Tight,
        (false, Some(n)) => {
            let min_triangles = u32::try_from(n).map_err(|_| {
                Error::Value(format!(
                    "tight_above must be a triangle count (0 or more), not {n}"
                ))
            })?;
            o.fit = FitQuality::TightAbove { min_triangles };
        }
        (false, None) if basic_fit => o.fit = FitQuality::Basic,
        (false, None) => {}
    }
    Ok(o)
}

fn build_as<T: Scalar, B: FitVolume<T>>(
    source: &MeshSource,
    options: &BuildOptions,
) -> Result<AnyTree>
where
    AnyTree: From<Bvh<T, B>>,
{
    let (mesh, name) = source.load::<T>()?;
    let tree =
        Bvh::<T, B>::build(mesh, options).map_err(|e| Error::Value(format!("{name}: {e}")))?;
    Ok(tree.into())
}

fn load_as<T: Scalar, B: FlatVolume<T>>(path: &Path) -> Result<AnyTree>
where
    AnyTree: From<Bvh<T, B>>,
{
    Bvh::<T, B>::load(path)
        .map(AnyTree::from)
        .map_err(|e| Error::load(&path.display().to_string(), e))
}

fn from_bytes_as<T: Scalar, B: FlatVolume<T>>(bytes: &[u8]) -> Result<AnyTree>
where
    AnyTree: From<Bvh<T, B>>,
{
    Bvh::<T, B>::from_bytes(bytes)
        .map(AnyTree::from)
        .map_err(|e| Error::load(BYTES, e))
}

/// How errors name tree bytes.
const BYTES: &str = "tree bytes";

/// The kind a tree file's or buffer's header names; `what` names the source.
fn header_kind(head: &[u8], what: &str) -> Result<TreeKind> {
    let header = TreeHeader::read(head).map_err(|e| Error::load(what, e))?;
    TreeKind::from_header(&header.scalar, &header.volume).map_err(|e| e.context(what))
}

/// The first bytes of a file, up to a tree header's length.
fn file_head(path: &Path) -> Result<Vec<u8>> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    let mut head = Vec::with_capacity(TreeHeader::LEN);
    file.take(TreeHeader::LEN as u64)
        .read_to_end(&mut head)
        .map_err(|e| Error::io(path, &e))?;
    Ok(head)
}

/// A bounding volume hierarchy over a triangle mesh, of one of eight
/// volume types (``aabb``, ``obb``, ``rss``, ``sphere``, ``capsule``,
/// ``kdop14``, ``kdop18``, ``kdop26``) in ``f64`` or ``f32``.
///
/// Make one with ``Tree.build``, ``Tree.load`` or ``Tree.from_bytes``. Trees
/// are immutable and safe to share between threads; they pickle through
/// ``to_bytes`` (the tree is not rebuilt on unpickling).
#[pyclass(module = "clash", frozen)]
pub struct Tree {
    pub(crate) tree: Arc<AnyTree>,
}

impl Tree {
    fn new(tree: AnyTree) -> Self {
        Self {
            tree: Arc::new(tree),
        }
    }

    /// The tree's kind.
    pub fn kind(&self) -> TreeKind {
        self.tree.kind()
    }
}

#[pymethods]
impl Tree {
    /// Builds a tree over ``mesh`` in parallel (without the GIL).
    ///
    /// ``mesh`` is a ``clash.Mesh``, a mesh file path (OBJ, STL, PLY; read
    /// at the tree's precision), a ``(vertices, faces)`` pair of arrays, or
    /// any object with ``vertices`` and ``faces`` (a ``trimesh.Trimesh``).
    /// ``bv`` is the volume type, ``precision`` ``"f64"`` or ``"f32"``,
    /// ``split`` ``"median"``, ``"mean"`` or ``"sah"`` (binned, 16 bins),
    /// ``leaf_size`` the most triangles per leaf (1 to 255). ``tight=True``
    /// fits volume-minimising boxes (slower build, faster queries);
    /// ``tight_above=n`` does so on nodes of at least ``n`` triangles only
    /// (the default is 128, which keeps most of the gain); ``basic_fit=True``
    /// fits every node the quick way (continuous PCA for OBBs: quickest
    /// build, slower queries). The fit options matter for OBB trees only.
    /// ``threads`` as for the queries.
    ///
    /// Raises ``ValueError`` for unknown options or an invalid mesh,
    /// ``OSError`` when a mesh file cannot be read.
    #[classmethod]
    #[pyo3(signature = (mesh, bv="obb", precision="f64", split="median", leaf_size=1, tight=false, tight_above=None, basic_fit=false, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn build(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        mesh: &Bound<'_, PyAny>,
        bv: &str,
        precision: &str,
        split: &str,
        leaf_size: i64,
        tight: bool,
        tight_above: Option<i64>,
        basic_fit: bool,
        #[pyo3(from_py_with = crate::pool::threads_from_py)] threads: Option<usize>,
    ) -> PyResult<Self> {
        let kind = TreeKind::parse(bv, precision)?;
        let options = build_options(split, leaf_size, tight, tight_above, basic_fit)?;
        let source = MeshSource::extract(mesh)?;
        let tree = py.detach(|| {
            catch_panic(|| {
                pool::run(threads, || {
                    with_kind!(kind, |T, B| build_as::<T, B>(&source, &options))
                })?
            })
        })?;
        Ok(Self::new(tree))
    }

    /// Loads a tree file written by ``save`` (or the ``clash build``
    /// command), of whatever volume type and precision it holds.
    ///
    /// Raises ``OSError`` when the file cannot be read, ``ValueError`` when
    /// it is not a tree file or is corrupt.
    #[classmethod]
    fn load(_cls: &Bound<'_, PyType>, py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let tree = py.detach(|| {
            crate::pool::on_pool(|| {
                let what = path.display().to_string();
                let kind = header_kind(&file_head(&path)?, &what)?;
                with_kind!(kind, |T, B| load_as::<T, B>(&path))
            })
        })?;
        Ok(Self::new(tree))
    }

    /// A tree from the bytes of ``to_bytes`` (``bytes``, ``bytearray`` or
    /// any buffer), checked in full (checksum and structure).
    ///
    /// Raises ``ValueError`` for bytes that are not a valid tree.
    #[classmethod]
    fn from_bytes(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let bytes: Cow<'_, [u8]> = if let Ok(b) = data.cast::<PyBytes>() {
            Cow::Borrowed(b.as_bytes())
        } else if let Ok(b) = data.cast::<PyByteArray>() {
            Cow::Owned(b.to_vec())
        } else {
            let b = py.get_type::<PyBytes>().call1((data,))?;
            Cow::Owned(b.cast::<PyBytes>()?.as_bytes().to_vec())
        };
        let bytes: &[u8] = &bytes;
        let tree = py.detach(|| {
            crate::pool::on_pool(|| {
                let kind = header_kind(bytes, BYTES)?;
                with_kind!(kind, |T, B| from_bytes_as::<T, B>(bytes))
            })
        })?;
        Ok(Self::new(tree))
    }

    /// Writes the tree to a file (the bytes of ``to_bytes``).
    ///
    /// Raises ``OSError`` when the file cannot be written.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let tree = &*self.tree;
        py.detach(|| {
            crate::pool::on_pool(|| {
                with_tree!(tree, t => t.save(&path)).map_err(|e| Error::io(&path, &e))
            })
        })?;
        Ok(())
    }

    /// The tree and its mesh as ``bytes`` in the clash tree file format.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let tree = &*self.tree;
        let bytes =
            py.detach(|| crate::pool::on_pool(|| Ok(with_tree!(tree, t => t.to_bytes()))))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Pickles as ``Tree.from_bytes(tree.to_bytes())``.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let from_bytes = slf.get_type().getattr("from_bytes")?;
        Ok((from_bytes, (slf.get().to_bytes(py)?,)))
    }

    /// The volume type: ``"obb"``, ``"rss"``, ...
    #[getter]
    fn bv(&self) -> &'static str {
        self.kind().bv
    }

    /// The precision: ``"f64"`` or ``"f32"``.
    #[getter]
    fn precision(&self) -> &'static str {
        self.kind().precision
    }

    /// Number of triangles of the mesh.
    #[getter]
    fn num_triangles(&self) -> usize {
        with_tree!(&*self.tree, t => t.mesh().num_triangles())
    }

    /// Number of vertices of the mesh.
    #[getter]
    fn num_vertices(&self) -> usize {
        with_tree!(&*self.tree, t => t.mesh().vertices().len())
    }

    /// The mesh's vertices, an ``(N, 3)`` float64 array (a copy).
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        with_tree!(&*self.tree, t => vertices_array(py, t.mesh()))
    }

    /// The mesh's triangles, an ``(M, 3)`` int64 array (a copy); triangle
    /// indices in answers are rows of it.
    #[getter]
    fn faces<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i64>> {
        with_tree!(&*self.tree, t => faces_array(py, t.mesh()))
    }

    /// ``True`` when the mesh is closed (``signed_distance`` needs it).
    #[getter]
    fn is_closed(&self) -> bool {
        with_tree!(&*self.tree, t => t.is_closed())
    }

    /// Size and shape: ``triangles``, ``vertices``, ``nodes``, ``leaves``,
    /// ``depth``, ``memory_bytes``, ``sah_cost`` (for k-DOP trees measured on
    /// the nodes' axis-aligned boxes, then ``sah_cost_exact`` is ``False``),
    /// and the build options ``split``, ``leaf_size``, ``fit``.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (s, o) = with_tree!(&*self.tree, t => (t.stats(), *t.options()));
        let d = PyDict::new(py);
        d.set_item("triangles", s.triangles)?;
        d.set_item("vertices", s.vertices)?;
        d.set_item("nodes", s.nodes)?;
        d.set_item("leaves", s.leaves)?;
        d.set_item("depth", s.depth)?;
        d.set_item("memory_bytes", s.memory_bytes)?;
        d.set_item("sah_cost", s.sah_cost)?;
        d.set_item("sah_cost_exact", s.sah_cost_exact)?;
        d.set_item("split", format!("{:?}", o.split))?;
        d.set_item("leaf_size", o.max_leaf_size)?;
        d.set_item("fit", format!("{:?}", o.fit))?;
        Ok(d)
    }

    /// Two trees are equal when they are of the same type and hold the same
    /// nodes, triangles and mesh.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(other) = other.cast::<Tree>() else {
            return false;
        };
        with_tree_pair!(&*self.tree, &*other.get().tree, (x, y) => x == y, _ => false)
    }

    fn __repr__(&self) -> String {
        format!(
            "clash.Tree({}, {} triangles)",
            self.kind().name(),
            self.num_triangles()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_options_follow_the_command_line() {
        let o = build_options("sah", 4, false, Some(64), false).unwrap();
        assert_eq!(o.split, SplitRule::Sah { bins: 16 });
        assert_eq!(o.max_leaf_size, 4);
        assert_eq!(o.fit, FitQuality::TightAbove { min_triangles: 64 });
        assert_eq!(
            build_options("median", 1, true, None, false).unwrap().fit,
            FitQuality::Tight
        );
        assert_eq!(
            build_options("median", 1, false, None, true).unwrap().fit,
            FitQuality::Basic
        );
        assert_eq!(
            build_options("mean", 1, false, None, false).unwrap(),
            BuildOptions::default().with_split(SplitRule::Mean)
        );
        for (leaf, msg) in [(0, "0"), (256, "256"), (-3, "-3")] {
            assert_eq!(
                build_options("median", leaf, false, None, false).unwrap_err(),
                Error::Value(format!("leaf_size must be between 1 and 255, not {msg}"))
            );
        }
        assert_eq!(
            build_options("binned", 1, false, None, false).unwrap_err(),
            Error::Value("unknown split \"binned\" (expected one of median, mean, sah)".into())
        );
        for (tight, above, basic) in [
            (true, Some(8), false),
            (true, None, true),
            (false, Some(8), true),
        ] {
            assert!(build_options("median", 1, tight, above, basic).is_err());
        }
        assert!(build_options("median", 1, false, Some(-1), false).is_err());
    }

    #[test]
    fn headers_name_the_kind_or_the_fault() {
        let mesh = clash::mesh_from_points::<f32, _>(
            [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            vec![[0, 1, 2]],
        )
        .unwrap();
        let tree =
            Bvh::<f32, clash::bv::Kdop18<f32>>::build(mesh, &BuildOptions::default()).unwrap();
        let bytes = tree.to_bytes();
        assert_eq!(
            header_kind(&bytes, BYTES).unwrap(),
            TreeKind::parse("kdop18", "f32").unwrap()
        );
        assert_eq!(
            header_kind(
                b"not a tree at all, not at all......................",
                BYTES
            )
            .unwrap_err(),
            Error::Value("tree bytes: not a clash tree file (bad magic number)".into())
        );
        let mut corrupt = bytes.clone();
        let last = corrupt.len() - 1;
        corrupt[last] ^= 0x55;
        assert!(matches!(
            from_bytes_as::<f32, clash::bv::Kdop18<f32>>(&corrupt),
            Err(Error::Value(m)) if m.starts_with("tree bytes: ")
        ));
    }
}
