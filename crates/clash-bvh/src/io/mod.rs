//! Saving and loading trees: a small header and a checksummed bincode payload.
//!
//! Layout (all integers little-endian):
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `b"CLASHBVH"` |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 8 | scalar type name, NUL-padded (`f32` / `f64`) |
//! | 16 | volume type name, NUL-padded ([`FlatVolume::NAME`]) |
//! | 8 | payload length in bytes |
//! | 4 | CRC-32 (IEEE) of the payload |
//! | n | payload: bincode (standard config, serde) of the build options, then four byte strings |
//!
//! The payload's byte strings (each, as bincode writes serde's bytes, a
//! variable-length integer of its length, then the bytes) hold the bulk
//! arrays as little-endian values, one fixed-size record after another, so
//! that loading decodes them in one tight loop each instead of field by
//! field (version 1 files, which bincode encoded field by field, still
//! load):
//!
//! | byte string | records |
//! | --- | --- |
//! | vertices | `x, y, z`: 3 scalars each |
//! | indices | a triangle's three vertex indices: 3 `u32` each |
//! | leaf order | a mesh triangle index (`u32`) per leaf position |
//! | nodes | the volume's flat form ([`FlatVolume::write_flat`], [`FlatVolume::FLAT_LEN`] scalars), then the right child or first leaf position (`u32`), then the leaf's triangle count (`u32`, 0 for an internal node) |
//!
//! Loading checks every header field and the length, decodes the payload
//! (a file is read in chunks, never whole), re-validates the mesh, checks
//! the checksum, every node index and the whole tree structure, then that
//! every volume is well formed and holds every corner of the triangles
//! below it, before any query can see the tree. Corrupt, truncated or
//! foreign bytes give a [`LoadError`], never a panic, a later out-of-bounds
//! access or a missed contact; a payload whose checksum fails is reported as
//! [`LoadError::Checksum`] whatever else is wrong with it. A loaded tree
//! answers every query exactly as the tree it was saved from (the triangle
//! copy in leaf order is rebuilt from the mesh, bit for bit).

mod payload;
mod source;
mod v1;

use crate::validate::PreviousUses;
use crate::{BuildOptions, Bvh, LoadError, Node, TriMesh, ValidationError};
use clash_bv::FlatVolume;
use clash_math::{Scalar, Triangle};
use source::{ReaderSource, SliceSource, Source};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

/// Magic number at the start of every tree file.
pub const MAGIC: [u8; 8] = *b"CLASHBVH";
/// The format version this build writes; it reads this one and every
/// earlier one (from [`OLDEST_VERSION`]).
pub const FORMAT_VERSION: u32 = 2;
/// The oldest format version this build reads: version 1 encoded the
/// arrays field by field.
pub const OLDEST_VERSION: u32 = 1;
const HEADER_LEN: usize = 8 + 4 + 8 + 16 + 8 + 4;

/// The bincode configuration of every payload.
fn config() -> bincode::config::Configuration {
    bincode::config::standard()
}

fn name_field<const N: usize>(name: &str) -> [u8; N] {
    let mut out = [0u8; N];
    let bytes = name.as_bytes();
    let n = bytes.len().min(N);
    out[..n].copy_from_slice(&bytes[..n]);
    out
}

/// A bincode decoding error in words (bincode displays its debug form).
fn decode_error(e: bincode::error::DecodeError) -> String {
    use bincode::error::DecodeError as E;
    match e {
        E::UnexpectedEnd { .. } => "the payload ends early".into(),
        E::LimitExceeded => "a length exceeds the decoding limit".into(),
        E::InvalidIntegerType { expected, found } => {
            format!("an integer of type {found:?} where {expected:?} was expected")
        }
        E::UnexpectedVariant {
            type_name, found, ..
        } => format!("{type_name} has no variant {found}"),
        E::Utf8 { inner } => format!("a string is not UTF-8 ({inner})"),
        E::InvalidBooleanValue(v) => format!("{v} is not a boolean"),
        E::ArrayLengthMismatch { required, found } => {
            format!("an array of {found} values where {required} were expected")
        }
        E::OutsideUsizeRange(v) => format!("the length {v} is out of range"),
        E::Io { inner, .. } => inner.to_string(),
        E::Other(m) => m.into(),
        E::OtherString(m) => m,
        other => format!("{other:?}"),
    }
}

fn field_name(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// The header of a tree file: what it holds, readable without decoding the
/// payload (for tools that must pick the right `Bvh<T, B>` type to load).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeHeader {
    /// Format version ([`FORMAT_VERSION`] for files this build writes).
    pub version: u32,
    /// Scalar type name ([`Scalar::NAME`]: `"f32"` or `"f64"`).
    pub scalar: String,
    /// Bounding volume type name ([`FlatVolume::NAME`], e.g. `"obb"`).
    pub volume: String,
    /// Length of the payload in bytes.
    pub payload_len: u64,
    /// CRC-32 (IEEE) of the payload.
    pub checksum: u32,
}

impl TreeHeader {
    /// Length of the header in bytes.
    pub const LEN: usize = HEADER_LEN;

    /// Reads and checks the header at the start of `bytes` (magic number
    /// and version, [`OLDEST_VERSION`] to [`FORMAT_VERSION`]); the payload
    /// is not looked at.
    ///
    /// # Errors
    /// [`LoadError::BadMagic`], [`LoadError::TruncatedHeader`] or
    /// [`LoadError::UnsupportedVersion`].
    pub fn read(bytes: &[u8]) -> Result<Self, LoadError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(if MAGIC.starts_with(bytes) {
                LoadError::TruncatedHeader {
                    expected: HEADER_LEN as u64,
                    found: bytes.len() as u64,
                }
            } else {
                LoadError::BadMagic
            });
        }
        let header = bytes.get(..HEADER_LEN).ok_or(LoadError::TruncatedHeader {
            expected: HEADER_LEN as u64,
            found: bytes.len() as u64,
        })?;
        let u32_at = |o: usize| u32::from_le_bytes(header[o..o + 4].try_into().unwrap_or([0; 4]));
        let version = u32_at(8);
        if !(OLDEST_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(LoadError::UnsupportedVersion {
                found: version,
                oldest: OLDEST_VERSION,
                newest: FORMAT_VERSION,
            });
        }
        Ok(Self {
            version,
            scalar: field_name(&header[12..20]),
            volume: field_name(&header[20..36]),
            payload_len: u64::from_le_bytes(header[36..44].try_into().unwrap_or([0; 8])),
            checksum: u32_at(44),
        })
    }

    /// `true` when `bytes` start with the tree file magic number.
    pub fn is_tree_file(bytes: &[u8]) -> bool {
        bytes.starts_with(&MAGIC)
    }

    /// The header of a `T`, `B` tree whose payload has `len` bytes and
    /// checksum `checksum`, as this build writes it.
    fn bytes<T: Scalar, B: FlatVolume<T>>(len: u64, checksum: u32) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        out[..8].copy_from_slice(&MAGIC);
        out[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        out[12..20].copy_from_slice(&name_field::<8>(T::NAME));
        out[20..36].copy_from_slice(&name_field::<16>(B::NAME));
        out[36..44].copy_from_slice(&len.to_le_bytes());
        out[44..48].copy_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Checks that the header is that of a `T`, `B` tree.
    fn expect<T: Scalar, B: FlatVolume<T>>(&self) -> Result<(), LoadError> {
        if self.scalar != T::NAME {
            return Err(LoadError::ScalarMismatch {
                found: self.scalar.clone(),
                expected: T::NAME,
            });
        }
        if self.volume != B::NAME {
            return Err(LoadError::BvMismatch {
                found: self.volume.clone(),
                expected: B::NAME,
            });
        }
        Ok(())
    }

    /// Checks the payload length against the `found` bytes that follow the
    /// header.
    fn expect_payload(&self, found: u64) -> Result<(), LoadError> {
        let expected = self.payload_len;
        if found < expected {
            return Err(LoadError::Truncated { expected, found });
        }
        if found > expected {
            return Err(LoadError::Decode(format!(
                "{} bytes of trailing data",
                found - expected
            )));
        }
        Ok(())
    }
}

/// A writer that passes bytes on and keeps their count and CRC-32.
struct Hashing<W> {
    inner: W,
    hasher: crc32fast::Hasher,
    len: u64,
}

impl<W: Write> Hashing<W> {
    fn new(inner: W) -> Self {
        Self {
            inner,
            hasher: crc32fast::Hasher::new(),
            len: 0,
        }
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Decoded nodes, with what the checks after decoding read of them.
struct Nodes<B> {
    nodes: Vec<Node<B>>,
    /// Each node's `(child_or_first, count)`, for the structure check (8
    /// bytes a node instead of a pass over the nodes themselves).
    links: Vec<(u32, u32)>,
    /// The first node whose volume is not well formed.
    malformed: Option<usize>,
}

/// A decoded payload, the mesh and leaf order checked, before the structure
/// and containment checks.
struct Decoded<T: Scalar, B> {
    mesh: TriMesh<T>,
    nodes: Nodes<B>,
    order: Vec<u32>,
    leaf_tris: Vec<Triangle<T>>,
    /// Each corner's previous use, for the containment check, if found.
    prev: Option<PreviousUses>,
    options: BuildOptions,
}

impl<T: Scalar, B: FlatVolume<T>> Bvh<T, B> {
    /// The tree and its mesh as bytes in the clash tree format (see the
    /// module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        // Room for the whole file up front, its pages mapped in one call:
        // growing the buffer by doubling copied it about once more and
        // faulted twice its pages in.
        let mut out = Vec::with_capacity(HEADER_LEN + payload::len_bound(self));
        crate::build::prefault::prefault(out.spare_capacity_mut());
        out.resize(HEADER_LEN, 0);
        let mut w = Hashing::new(&mut out);
        payload::write(self, &mut w).expect("writing plain data into a Vec cannot fail");
        let (len, crc) = (w.len, w.hasher.finalize());
        out[..HEADER_LEN].copy_from_slice(&TreeHeader::bytes::<T, B>(len, crc));
        out
    }

    /// Writes the tree to `w` (the bytes of [`Self::to_bytes`]). The
    /// payload is encoded twice, once for its length and checksum and once
    /// into `w`, so that no copy of the whole file is held in memory.
    ///
    /// # Errors
    /// Any error of `w`.
    pub fn write_to(&self, w: impl Write) -> std::io::Result<()> {
        let mut count = Hashing::new(std::io::sink());
        payload::write(self, &mut count)?;
        let (len, crc) = (count.len, count.hasher.finalize());
        let mut w = std::io::BufWriter::new(w);
        w.write_all(&TreeHeader::bytes::<T, B>(len, crc))?;
        payload::write(self, &mut w)?;
        w.flush()
    }

    /// Saves the tree to a file (the bytes of [`Self::to_bytes`]), encoding
    /// the payload once and writing the header's length and checksum last.
    ///
    /// # Errors
    /// Any i/o error creating or writing the file.
    pub fn save(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
        file.write_all(&[0u8; HEADER_LEN])?;
        let mut w = Hashing::new(&mut file);
        payload::write(self, &mut w)?;
        let (len, crc) = (w.len, w.hasher.finalize());
        let mut file = file.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&TreeHeader::bytes::<T, B>(len, crc))?;
        file.flush()
    }

    /// Loads a tree from bytes written by [`Self::to_bytes`], validating
    /// everything (see the module docs).
    ///
    /// # Errors
    /// A [`LoadError`] naming what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, LoadError> {
        let header = TreeHeader::read(bytes)?;
        header.expect::<T, B>()?;
        let body = &bytes[HEADER_LEN..];
        header.expect_payload(body.len() as u64)?;
        Self::from_source(header.version, &mut SliceSource::new(body, header.checksum))
    }

    /// Reads a tree written by [`Self::write_to`] from `r` (into memory
    /// first: the length of what `r` holds is not known beforehand).
    ///
    /// # Errors
    /// A [`LoadError`].
    pub fn read_from(mut r: impl Read) -> Result<Self, LoadError> {
        let mut bytes = Vec::new();
        let _ = r.read_to_end(&mut bytes)?;
        Self::from_bytes(&bytes)
    }

    /// Loads a tree saved by [`Self::save`], reading the file in chunks.
    ///
    /// # Errors
    /// A [`LoadError`]: i/o, foreign or corrupt file, or a tree of another
    /// scalar or volume type.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, LoadError> {
        let mut file = std::fs::File::open(path)?;
        let size = file.metadata()?.len();
        let mut head = Vec::with_capacity(HEADER_LEN);
        let _ = (&mut file).take(HEADER_LEN as u64).read_to_end(&mut head)?;
        let header = TreeHeader::read(&head)?;
        header.expect::<T, B>()?;
        header.expect_payload(size - HEADER_LEN as u64)?;
        // Bulk records are read straight into the source's chunk buffer
        // (`BufReader` passes large reads through); the small bincode parts,
        // and version 1 payloads, are read through the buffer.
        let file = std::io::BufReader::with_capacity(64 << 10, file);
        let mut src = ReaderSource::new(file, header.payload_len, header.checksum);
        Self::from_source(header.version, &mut src)
    }

    /// The tree of the payload in `src`, of format `version`: decoded,
    /// its checksum compared, then checked.
    fn from_source(version: u32, src: &mut impl Source) -> Result<Self, LoadError> {
        let decoded = if version == 1 {
            v1::read::<T, B, _>(src)
        } else {
            payload::read::<T, B, _>(src)
        };
        // A payload that fails to decode, or decodes into parts that are no
        // tree, while its checksum holds is intact: it was written in another
        // format than its header's version, which is a decoding failure.
        let in_format = |m: &dyn std::fmt::Display| {
            LoadError::Decode(format!(
                "the payload does not decode as the version {version} format its header names: {m}"
            ))
        };
        let decoded = decoded.map_err(|e| match src.fail(e) {
            LoadError::Decode(m) => in_format(&m),
            LoadError::Invalid(e) => in_format(&e),
            other => other,
        })?;
        src.finish()?;
        let Decoded {
            mesh,
            nodes,
            order,
            leaf_tris,
            prev,
            options,
        } = decoded;
        let links = &nodes.links;
        crate::validate::check_structure(links.len(), order.len(), mesh.num_triangles(), |i| {
            links[i]
        })?;
        if let Some(node) = nodes.malformed {
            return Err(ValidationError::MalformedVolume { node }.into());
        }
        let tree = Self::from_parts(mesh, nodes.nodes, order, leaf_tris, options);
        // Volumes must contain their triangles, or queries could miss contacts.
        crate::validate::check_volumes(&tree, prev)?;
        Ok(tree)
    }
}
