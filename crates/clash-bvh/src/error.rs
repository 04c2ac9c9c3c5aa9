use thiserror::Error;

/// Why a mesh could not be built or updated.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum MeshError {
    /// The mesh has no triangles.
    #[error("the mesh has no triangles")]
    Empty,
    /// A vertex coordinate is NaN or infinite.
    #[error("vertex {vertex} has a non-finite coordinate (NaN or infinity)")]
    NonFiniteVertex {
        /// Index of the vertex.
        vertex: usize,
    },
    /// A vertex coordinate is beyond [`clash_math::Scalar::MAX_COORDINATE`]
    /// in magnitude: the queries could overflow.
    #[error("vertex {vertex}: {source}")]
    CoordinateOutOfRange {
        /// Index of the vertex.
        vertex: usize,
        /// The coordinate and the range.
        source: clash_math::RangeError,
    },
    /// A triangle refers to a vertex that does not exist.
    #[error(
        "triangle {triangle} refers to vertex {index}, but the mesh has {num_vertices} vertices"
    )]
    IndexOutOfRange {
        /// Index of the triangle.
        triangle: usize,
        /// The offending vertex index.
        index: u32,
        /// Number of vertices in the mesh.
        num_vertices: usize,
    },
    /// More vertices or triangles than 32-bit indices can address.
    #[error("the mesh has more vertices or triangles than 32-bit indices can address")]
    TooLarge,
    /// New vertex positions for a refit do not match the mesh's vertex count.
    #[error("expected {expected} vertex positions, found {found}")]
    VertexCountMismatch {
        /// Vertices in the mesh.
        expected: usize,
        /// Positions given.
        found: usize,
    },
}

/// Why a tree could not be built or refitted.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum BuildError {
    /// A build option is out of range.
    #[error("invalid build options: {0}")]
    InvalidOptions(&'static str),
    /// The mesh data is invalid.
    #[error(transparent)]
    Mesh(#[from] MeshError),
    /// A bounding volume could not be fitted.
    #[error(transparent)]
    Fit(#[from] clash_bv::FitError),
}

/// Why a saved tree could not be loaded.
#[derive(Debug, Error)]
pub enum LoadError {
    /// Reading the file failed.
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
    /// The bytes do not start with the clash tree magic number.
    #[error("not a clash tree file (bad magic number)")]
    BadMagic,
    /// The file was written by an unsupported format version.
    #[error(
        "unsupported tree file version {found} (this build reads versions {oldest} to {newest})"
    )]
    UnsupportedVersion {
        /// Version in the file.
        found: u32,
        /// Oldest version this build reads.
        oldest: u32,
        /// Newest version this build reads (the one it writes).
        newest: u32,
    },
    /// The file holds a tree of another scalar type.
    #[error("the file holds an {found} tree, but an {expected} tree was requested")]
    ScalarMismatch {
        /// Scalar type in the file.
        found: String,
        /// Scalar type requested.
        expected: &'static str,
    },
    /// The file holds a tree of another bounding volume type.
    #[error("the file holds a tree of {found} volumes, but {expected} was requested")]
    BvMismatch {
        /// Volume type in the file.
        found: String,
        /// Volume type requested.
        expected: &'static str,
    },
    /// The file ends inside the header.
    #[error("truncated tree file: it ends inside the {expected}-byte header, after {found} bytes")]
    TruncatedHeader {
        /// Length of the header.
        expected: u64,
        /// Bytes present.
        found: u64,
    },
    /// The payload is shorter than the header says.
    #[error("truncated tree file: expected {expected} bytes of payload, found {found}")]
    Truncated {
        /// Bytes the header announces.
        expected: u64,
        /// Bytes present.
        found: u64,
    },
    /// The payload's checksum does not match.
    #[error("checksum mismatch: the tree file is corrupt")]
    Checksum,
    /// The payload could not be decoded.
    #[error("corrupt tree file: {0}")]
    Decode(String),
    /// The decoded tree violates an invariant (bad index, bad structure, bad mesh).
    #[error("invalid tree in file: {0}")]
    Invalid(String),
}

/// Why a batch could not run.
#[derive(Debug, Error)]
pub enum BatchError {
    /// The batch's own thread pool could not be started.
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        /// Workers asked for.
        threads: usize,
        /// Rayon's reason.
        #[source]
        source: rayon::ThreadPoolBuildError,
    },
}
