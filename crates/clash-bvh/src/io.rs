//! Saving and loading trees: a small header and a checksummed bincode payload.
//!
//! Layout (all integers little-endian):
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `b"CLASHBVH"` |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 8 | scalar type name, NUL-padded (`f32` / `f64`) |
//! | 16 | volume type name, NUL-padded ([`BoundingVolume::NAME`]) |
//! | 8 | payload length in bytes |
//! | 4 | CRC-32 (IEEE) of the payload |
//! | n | payload: bincode (standard config, serde) of the mesh, nodes, leaf order and build options |
//!
//! Loading checks every header field, the length and the checksum, decodes
//! the payload, re-validates the mesh, and checks every node index and the
//! whole tree structure before any query can see it, so corrupt, truncated or
//! foreign bytes give a [`LoadError`], never a panic or a later
//! out-of-bounds access. A loaded tree answers every query exactly as the
//! tree it was saved from (the triangle copy in leaf order is rebuilt from
//! the mesh, bit for bit).

use crate::{BuildOptions, Bvh, LoadError, Node, TriMesh};
use clash_bv::BoundingVolume;
use clash_math::{Point3, Scalar};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::Path;

/// Magic number at the start of every tree file.
pub const MAGIC: [u8; 8] = *b"CLASHBVH";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
const HEADER_LEN: usize = 8 + 4 + 8 + 16 + 8 + 4;

#[derive(Serialize)]
#[serde(bound = "T: Scalar, B: Serialize")]
struct PayloadRef<'a, T: Scalar, B> {
    vertices: &'a [Point3<T>],
    indices: &'a [[u32; 3]],
    nodes: &'a [Node<B>],
    order: &'a [u32],
    options: BuildOptions,
}

#[derive(Deserialize)]
#[serde(bound = "T: Scalar, B: serde::de::DeserializeOwned")]
struct Payload<T: Scalar, B> {
    vertices: Vec<Point3<T>>,
    indices: Vec<[u32; 3]>,
    nodes: Vec<Node<B>>,
    order: Vec<u32>,
    options: BuildOptions,
}

fn name_field<const N: usize>(name: &str) -> [u8; N] {
    let mut out = [0u8; N];
    let bytes = name.as_bytes();
    let n = bytes.len().min(N);
    out[..n].copy_from_slice(&bytes[..n]);
    out
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
    /// Bounding volume type name ([`BoundingVolume::NAME`], e.g. `"obb"`).
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
    /// and version); the payload is not looked at.
    ///
    /// # Errors
    /// [`LoadError::BadMagic`], [`LoadError::Truncated`] or
    /// [`LoadError::UnsupportedVersion`].
    pub fn read(bytes: &[u8]) -> Result<Self, LoadError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(if MAGIC.starts_with(bytes) {
                LoadError::Truncated {
                    expected: HEADER_LEN as u64,
                    found: bytes.len() as u64,
                }
            } else {
                LoadError::BadMagic
            });
        }
        let header = bytes.get(..HEADER_LEN).ok_or(LoadError::Truncated {
            expected: HEADER_LEN as u64,
            found: bytes.len() as u64,
        })?;
        let u32_at = |o: usize| u32::from_le_bytes(header[o..o + 4].try_into().unwrap_or([0; 4]));
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(LoadError::UnsupportedVersion {
                found: version,
                supported: FORMAT_VERSION,
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
}

impl<T: Scalar, B: BoundingVolume<T>> Bvh<T, B> {
    /// The tree and its mesh as bytes in the clash tree format (see the
    /// module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = PayloadRef {
            vertices: self.mesh.vertices(),
            indices: self.mesh.indices(),
            nodes: &self.nodes,
            order: &self.order,
            options: self.options,
        };
        let body = bincode::serde::encode_to_vec(&payload, bincode::config::standard())
            .expect("encoding plain data into a Vec cannot fail");
        let mut out = Vec::with_capacity(HEADER_LEN + body.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&name_field::<8>(T::NAME));
        out.extend_from_slice(&name_field::<16>(B::NAME));
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Writes the tree to `w` (see [`Self::to_bytes`]).
    ///
    /// # Errors
    /// Any error of `w`.
    pub fn write_to(&self, mut w: impl Write) -> std::io::Result<()> {
        w.write_all(&self.to_bytes())
    }

    /// Saves the tree to a file.
    ///
    /// # Errors
    /// Any i/o error creating or writing the file.
    pub fn save(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
        self.write_to(&mut f)?;
        f.flush()
    }

    /// Loads a tree from bytes written by [`Self::to_bytes`], validating
    /// everything (see the module docs).
    ///
    /// # Errors
    /// A [`LoadError`] naming what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, LoadError> {
        let header = TreeHeader::read(bytes)?;
        if header.scalar != T::NAME {
            return Err(LoadError::ScalarMismatch {
                found: header.scalar,
                expected: T::NAME,
            });
        }
        if header.volume != B::NAME {
            return Err(LoadError::BvMismatch {
                found: header.volume,
                expected: B::NAME,
            });
        }
        let (len, crc) = (header.payload_len, header.checksum);
        let body = &bytes[HEADER_LEN..];
        if (body.len() as u64) < len {
            return Err(LoadError::Truncated {
                expected: len,
                found: body.len() as u64,
            });
        }
        if (body.len() as u64) > len {
            return Err(LoadError::Decode(format!(
                "{} bytes of trailing data",
                body.len() as u64 - len
            )));
        }
        if crc32fast::hash(body) != crc {
            return Err(LoadError::Checksum);
        }
        let (payload, used): (Payload<T, B>, usize) =
            bincode::serde::decode_from_slice(body, bincode::config::standard())
                .map_err(|e| LoadError::Decode(e.to_string()))?;
        if used != body.len() {
            return Err(LoadError::Decode(format!(
                "{} bytes left after the payload",
                body.len() - used
            )));
        }
        Self::from_payload(payload)
    }

    /// Reads a tree written by [`Self::write_to`] from `r`.
    ///
    /// # Errors
    /// A [`LoadError`].
    pub fn read_from(mut r: impl Read) -> Result<Self, LoadError> {
        let mut bytes = Vec::new();
        let _ = r.read_to_end(&mut bytes)?;
        Self::from_bytes(&bytes)
    }

    /// Loads a tree saved by [`Self::save`].
    ///
    /// # Errors
    /// A [`LoadError`]: i/o, foreign or corrupt file, or a tree of another
    /// scalar or volume type.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, LoadError> {
        Self::from_bytes(&std::fs::read(path)?)
    }

    fn from_payload(p: Payload<T, B>) -> Result<Self, LoadError> {
        let invalid = |e: String| LoadError::Invalid(e);
        let mesh = TriMesh::new(p.vertices, p.indices).map_err(|e| invalid(e.to_string()))?;
        p.options.validate().map_err(|e| invalid(e.to_string()))?;
        crate::validate::check_structure(p.nodes.len(), p.order.len(), mesh.num_triangles(), |i| {
            (p.nodes[i].child_or_first, p.nodes[i].count)
        })
        .map_err(invalid)?;
        let mut seen = vec![false; mesh.num_triangles()];
        for &id in &p.order {
            match seen.get_mut(id as usize) {
                Some(s) if !*s => *s = true,
                _ => {
                    return Err(invalid(format!(
                        "leaf order entry {id} is out of range or repeated"
                    )));
                }
            }
        }
        let tree = Self::from_parts(mesh, p.nodes, p.order, p.options)
            .map_err(|e| invalid(e.to_string()))?;
        // Volumes must contain their triangles, or queries could miss contacts.
        tree.validate().map_err(invalid)?;
        Ok(tree)
    }
}
