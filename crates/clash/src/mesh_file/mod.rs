//! Loading triangle meshes from OBJ, STL (ASCII and binary) and PLY (ASCII
//! and binary) files.
//!
//! Every loader keeps the faces in file order: triangle `i` of the loaded
//! [`TriMesh`] is the `i`-th triangle of the file (polygons with more than
//! three corners are split into a fan, in order), so that answers given as
//! triangle indices map back to the user's data. STL files repeat each
//! vertex per facet; their bit-identical vertices are welded, which changes
//! no triangle. Malformed files give a [`MeshFileError`] naming the file and,
//! for text formats, the line; nothing panics.
//!
//! The three formats are read by the small parsers of this module: errors
//! name the line, binary STL is told from ASCII by its exact size rather
//! than by the word `solid` (which some binary exporters write in the
//! header), and no malformed file can panic (the `ply-rs` crate could; the
//! `mesh_file` fuzz target found it).

mod obj;
mod ply;
mod stl;

use clash_bvh::{MeshError, TriMesh};
use clash_math::{Point3, Scalar};
use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The mesh file formats clash reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MeshFormat {
    /// Wavefront OBJ (`v` and `f` statements; everything else is skipped).
    Obj,
    /// STL, ASCII or binary (told apart by the file size).
    Stl,
    /// PLY, ASCII or binary (little or big endian).
    Ply,
}

impl MeshFormat {
    /// The format named by a file's extension (case-insensitive), if any.
    ///
    /// ```
    /// use clash::mesh_file::MeshFormat;
    /// assert_eq!(MeshFormat::from_path("robot/link6.STL"), Some(MeshFormat::Stl));
    /// assert_eq!(MeshFormat::from_path("notes.txt"), None);
    /// ```
    pub fn from_path(path: impl AsRef<Path>) -> Option<Self> {
        let ext = path.as_ref().extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "obj" => Some(Self::Obj),
            "stl" => Some(Self::Stl),
            "ply" => Some(Self::Ply),
            _ => None,
        }
    }
}

impl fmt::Display for MeshFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Obj => "OBJ",
            Self::Stl => "STL",
            Self::Ply => "PLY",
        })
    }
}

/// Where in a file a parse error was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// A line of a text file (1-based).
    Line(usize),
    /// A byte offset in a binary file (of the value at fault, or where the
    /// data ends early).
    Byte(u64),
    /// No finer location is known.
    File,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Line(n) => write!(f, ":{n}"),
            Self::Byte(b) => write!(f, ": byte {b}"),
            Self::File => Ok(()),
        }
    }
}

/// Why a mesh file could not be loaded. Displays as one line starting with
/// the file name (and `:line` for text formats).
#[derive(Debug, Error)]
pub enum MeshFileError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The i/o error.
        source: std::io::Error,
    },
    /// The extension names no supported format.
    #[error("{}: unknown mesh format (expected a .obj, .stl or .ply file)", path.display())]
    UnknownFormat {
        /// The file.
        path: PathBuf,
    },
    /// The file is not well-formed.
    #[error("{}{location}: malformed {format} file: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The format it was read as.
        format: MeshFormat,
        /// Where the problem is.
        location: Location,
        /// What is wrong.
        message: String,
    },
    /// The file parsed, but does not describe a valid mesh (no triangles,
    /// too many vertices). NaN, infinite and out-of-range coordinates are
    /// [`MeshFileError::Parse`] errors, with their line or byte.
    #[error("{}: invalid mesh: {source}", path.display())]
    InvalidMesh {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: MeshError,
    },
}

/// A parse error before the file name is attached.
#[derive(Debug)]
pub(crate) struct ParseError {
    pub(crate) location: Location,
    pub(crate) message: String,
}

impl ParseError {
    pub(crate) fn line(line: usize, message: impl Into<String>) -> Self {
        Self {
            location: Location::Line(line),
            message: message.into(),
        }
    }
}

/// `bytes` as text, or an error naming the line of the first byte that is
/// not UTF-8.
pub(crate) fn utf8_text(bytes: &[u8]) -> Result<&str, ParseError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        ParseError::line(line, "not UTF-8 text")
    })
}

/// The coordinates the scalar type `T` of the mesh being read can hold.
/// Each coordinate is checked as it is read, so that NaN, infinities and
/// values beyond the type's range are reported where they are in the file
/// (the line, or the byte of a binary file), not later as a vertex number.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Coordinates<T>(std::marker::PhantomData<T>);

impl<T: Scalar> Coordinates<T> {
    /// `true` when `v` rounds to a finite `T`.
    #[inline]
    pub(crate) fn fits(self, v: f64) -> bool {
        T::lit(v).finite()
    }

    /// `v`, read from the text `token`, when `T` holds it; otherwise what
    /// is wrong with it.
    #[inline]
    pub(crate) fn check(self, v: f64, token: &str) -> Result<f64, String> {
        if self.fits(v) {
            Ok(v)
        } else {
            Err(Self::problem(v, token))
        }
    }

    /// Why `v` (read from `token`, or a binary value printed) is not a
    /// coordinate of type `T`.
    #[cold]
    pub(crate) fn problem(v: f64, token: &str) -> String {
        if v.is_nan() {
            format!("coordinate {token} is not a number (NaN)")
        } else if v.is_infinite() && token.to_ascii_lowercase().contains("inf") {
            format!("coordinate {token} is infinite")
        } else {
            // A finite number too large for `T` (for f64, a text whose value
            // rounds to infinity when parsed).
            format!(
                "coordinate {token} is out of {} range (largest magnitude {:e})",
                T::NAME,
                T::MAX.to_f64()
            )
        }
    }
}

/// Vertices and triangles as read, before conversion to a [`TriMesh`].
#[derive(Debug, Default)]
pub(crate) struct RawMesh {
    pub(crate) vertices: Vec<[f64; 3]>,
    pub(crate) triangles: Vec<[u32; 3]>,
}

impl RawMesh {
    /// Appends a polygon as a fan of triangles `(0, i, i + 1)`.
    pub(crate) fn push_polygon(&mut self, corners: &[u32]) {
        for i in 1..corners.len() - 1 {
            self.triangles
                .push([corners[0], corners[i], corners[i + 1]]);
        }
    }
}

/// Loads a mesh file, choosing the format by the extension (`.obj`, `.stl`,
/// `.ply`, any case).
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let path = std::env::temp_dir().join("clash_doc_tetra.obj");
/// std::fs::write(&path, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n")?;
/// let mesh: clash::bvh::TriMesh<f64> = clash::mesh_file::load_mesh(&path)?;
/// assert_eq!(mesh.num_triangles(), 4);
/// # Ok(()) }
/// ```
///
/// # Errors
/// A [`MeshFileError`] naming the file (and line) on unreadable, unknown,
/// malformed or invalid input.
pub fn load_mesh<T: Scalar>(path: impl AsRef<Path>) -> Result<TriMesh<T>, MeshFileError> {
    let path = path.as_ref();
    let format = MeshFormat::from_path(path).ok_or_else(|| MeshFileError::UnknownFormat {
        path: path.to_path_buf(),
    })?;
    let bytes = std::fs::read(path).map_err(|source| MeshFileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read_mesh_named(&bytes, format, path)
}

/// Reads a mesh of format `format` from the bytes of a file.
///
/// ```
/// use clash::mesh_file::{read_mesh, MeshFormat};
/// let obj = b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";
/// let mesh = read_mesh::<f32>(obj, MeshFormat::Obj).unwrap();
/// assert_eq!(mesh.indices(), &[[0, 1, 2], [0, 2, 3]]); // the quad as a fan
/// assert!(read_mesh::<f32>(b"v 0 0 zero\n", MeshFormat::Obj).is_err());
/// ```
///
/// # Errors
/// A [`MeshFileError`] (the file is named `<memory>`).
pub fn read_mesh<T: Scalar>(bytes: &[u8], format: MeshFormat) -> Result<TriMesh<T>, MeshFileError> {
    read_mesh_named(bytes, format, Path::new("<memory>"))
}

fn read_mesh_named<T: Scalar>(
    bytes: &[u8],
    format: MeshFormat,
    path: &Path,
) -> Result<TriMesh<T>, MeshFileError> {
    let coordinates = Coordinates::<T>::default();
    let raw = match format {
        MeshFormat::Obj => obj::parse(bytes, coordinates),
        MeshFormat::Stl => stl::parse(bytes, coordinates),
        MeshFormat::Ply => ply::parse(bytes, coordinates),
    }
    .map_err(|e| MeshFileError::Parse {
        path: path.to_path_buf(),
        format,
        location: e.location,
        message: e.message,
    })?;
    let invalid = |source| MeshFileError::InvalidMesh {
        path: path.to_path_buf(),
        source,
    };
    let vertices: Vec<Point3<T>> = raw
        .vertices
        .iter()
        .map(|v| Point3::new(T::lit(v[0]), T::lit(v[1]), T::lit(v[2])))
        .collect();
    let mesh = TriMesh::new(vertices, raw.triangles).map_err(invalid)?;
    Ok(match format {
        // STL repeats every vertex per facet: weld the bit-identical ones.
        MeshFormat::Stl => mesh.welded(T::ZERO),
        MeshFormat::Obj | MeshFormat::Ply => mesh,
    })
}
