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
    /// Every coordinate is below `1 / MAX_COORDINATE` in magnitude (and not
    /// all are 0): products of the queries' arithmetic (squared distances,
    /// Gram determinants) would underflow.
    #[error(
        "the mesh's largest coordinate magnitude {magnitude:e} is below {min:e}, the smallest \
         {precision} queries answer without underflow (scale the scene up)"
    )]
    TooSmall {
        /// The largest coordinate magnitude.
        magnitude: f64,
        /// `1 / MAX_COORDINATE`.
        min: f64,
        /// The scalar type (`Scalar::NAME`).
        precision: &'static str,
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
    /// The decoded tree violates an invariant (bad index, bad structure, bad
    /// mesh, a volume that misses a triangle).
    #[error("invalid tree in file: {0}")]
    Invalid(#[from] ValidationError),
}

/// Which invariant of a tree is broken: what [`Bvh::validate`](crate::Bvh::validate)
/// reports, and what loading reports inside [`LoadError::Invalid`]. Each
/// variant names the node, triangle or count involved; the first broken
/// invariant found is reported, the same on any number of threads.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ValidationError {
    /// The node array is empty.
    #[error("the tree has no nodes")]
    NoNodes,
    /// The leaf order does not have one entry per triangle.
    #[error("leaf order has {order_len} entries for {num_triangles} triangles")]
    OrderLength {
        /// Entries in the leaf order.
        order_len: usize,
        /// Triangles in the mesh.
        num_triangles: usize,
    },
    /// More nodes than a tree with non-empty leaves can have (`2n - 1`).
    #[error("{nodes} nodes for {num_triangles} triangles")]
    TooManyNodes {
        /// Nodes in the tree.
        nodes: usize,
        /// Triangles in the mesh.
        num_triangles: usize,
    },
    /// A node lies deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    #[error("node {node} is deeper than {max_depth}")]
    TooDeep {
        /// The node.
        node: usize,
        /// The deepest level allowed.
        max_depth: u32,
    },
    /// A node is not where depth-first preorder puts it.
    #[error("node {node} is out of preorder")]
    OutOfPreorder {
        /// The node.
        node: usize,
    },
    /// A leaf's run of the leaf order does not start where the previous
    /// leaf's ended.
    #[error("leaf {node} starts at {start}, expected {expected}")]
    LeafStart {
        /// The leaf node.
        node: usize,
        /// Where its run starts.
        start: u32,
        /// Where the previous leaf's run ended.
        expected: usize,
    },
    /// A leaf's run goes past the end of the leaf order.
    #[error("leaf {node} runs past the triangle list")]
    LeafPastEnd {
        /// The leaf node.
        node: usize,
    },
    /// A leaf is followed by nodes of the subtree its parent gave it.
    #[error("leaf {node} does not end its subtree")]
    LeafNotLast {
        /// The leaf node.
        node: usize,
    },
    /// An internal node's right child is not within its own subtree's slots.
    #[error("internal node {node} has right child {right} outside ({}, {end})", node + 1)]
    RightChildOutOfRange {
        /// The internal node.
        node: usize,
        /// Its right child's index.
        right: usize,
        /// The end of the slots its subtree may use.
        end: usize,
    },
    /// Nodes that no path from the root reaches.
    #[error("{count} nodes are unreachable")]
    Unreachable {
        /// How many.
        count: usize,
    },
    /// The leaves' runs do not cover the whole leaf order.
    #[error("leaves cover {covered} of {order_len} triangles")]
    LeavesCover {
        /// Entries the leaves cover.
        covered: usize,
        /// Entries in the leaf order.
        order_len: usize,
    },
    /// The leaf order names a triangle the mesh does not have.
    #[error("leaf order names triangle {triangle}, out of range")]
    OrderOutOfRange {
        /// The triangle index named.
        triangle: u32,
    },
    /// The leaf order names a triangle twice.
    #[error("triangle {triangle} appears twice in the leaf order")]
    OrderRepeats {
        /// The triangle index.
        triangle: u32,
    },
    /// A node's volume is not well formed
    /// ([`BoundingVolume::is_well_formed`](clash_bv::BoundingVolume::is_well_formed):
    /// a non-finite value, axes that are not orthonormal).
    #[error("node {node} has a malformed bounding volume")]
    MalformedVolume {
        /// The node.
        node: usize,
    },
    /// A node's volume does not contain a corner of a triangle below it.
    #[error("node {node} ({volume}) does not contain a corner of triangle {triangle}")]
    CornerOutside {
        /// The node.
        node: usize,
        /// The volume type's name ([`FlatVolume::NAME`](clash_bv::FlatVolume::NAME)).
        volume: &'static str,
        /// The triangle (its index in the mesh as given).
        triangle: u32,
    },
    /// A loaded tree's mesh is invalid (loading only: a built tree's mesh
    /// was checked when it was made).
    #[error(transparent)]
    Mesh(#[from] MeshError),
    /// A loaded tree's build options are out of range (loading only).
    #[error("invalid build options: {0}")]
    Options(&'static str),
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
