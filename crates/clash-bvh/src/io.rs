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
//! | n | payload: bincode (standard config, serde) of the build options and four byte strings |
//!
//! The payload's byte strings hold the bulk arrays as little-endian values,
//! one fixed-size record after another, so that loading decodes them in one
//! tight loop each instead of field by field (version 1 files, which bincode
//! encoded field by field, still load):
//!
//! | byte string | records |
//! | --- | --- |
//! | vertices | `x, y, z`: 3 scalars each |
//! | indices | a triangle's three vertex indices: 3 `u32` each |
//! | nodes | the volume's flat form ([`BoundingVolume::write_flat`], [`BoundingVolume::FLAT_LEN`] scalars), then the right child or first leaf position (`u32`), then the leaf's triangle count (`u32`, 0 for an internal node) |
//! | leaf order | a mesh triangle index (`u32`) per leaf position |
//!
//! Loading checks every header field, the length and the checksum, decodes
//! the payload, re-validates the mesh, and checks every node index and the
//! whole tree structure before any query can see it, then that every
//! volume is well formed and holds every corner of the triangles below it,
//! so corrupt, truncated or foreign bytes give a [`LoadError`], never a
//! panic, a later out-of-bounds access or a missed contact. A loaded tree
//! answers every query exactly as the tree it was saved from (the triangle
//! copy in leaf order is rebuilt from the mesh, bit for bit).

use crate::prefault::prefault;
use crate::{BuildOptions, Bvh, LoadError, Node, TriMesh};
use clash_bv::BoundingVolume;
use clash_math::{Point3, Scalar};
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use rayon::prelude::*;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::io::{Read, Write};
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

/// The payload of a version 2 file (see the module docs).
#[derive(Serialize, Deserialize)]
struct Payload<'a> {
    options: BuildOptions,
    #[serde(borrow)]
    vertices: Bytes<'a>,
    #[serde(borrow)]
    indices: Bytes<'a>,
    #[serde(borrow)]
    nodes: Bytes<'a>,
    #[serde(borrow)]
    order: Bytes<'a>,
}

/// A byte string of the payload: serde's bytes, so bincode writes its length
/// and copies it, and reads it back borrowed from the file's bytes.
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Bytes<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <&'de [u8]>::deserialize(deserializer).map(Bytes)
    }
}

/// The payload of a version 1 file: the arrays encoded field by field.
#[derive(Deserialize)]
#[serde(bound = "T: Scalar, B: serde::de::DeserializeOwned")]
struct PayloadV1<T: Scalar, B> {
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
    /// and version, [`OLDEST_VERSION`] to [`FORMAT_VERSION`]); the payload
    /// is not looked at.
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
}

impl<T: Scalar, B: BoundingVolume<T>> Bvh<T, B> {
    /// The tree and its mesh as bytes in the clash tree format (see the
    /// module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut vertices = Vec::with_capacity(3 * T::BYTES * self.mesh.vertices().len());
        for p in self.mesh.vertices() {
            for &x in p.coords.iter() {
                x.write_le(&mut vertices);
            }
        }
        let indices: Vec<u8> = self
            .mesh
            .indices()
            .iter()
            .flatten()
            .flat_map(|i| i.to_le_bytes())
            .collect();
        let mut nodes = Vec::with_capacity(self.nodes.len() * node_record_len::<T, B>());
        let mut flat = Vec::with_capacity(B::FLAT_LEN);
        for node in &self.nodes {
            flat.clear();
            node.bv.write_flat(&mut flat);
            for &x in &flat {
                x.write_le(&mut nodes);
            }
            nodes.extend_from_slice(&node.child_or_first.to_le_bytes());
            nodes.extend_from_slice(&node.count.to_le_bytes());
        }
        let order: Vec<u8> = self.order.iter().flat_map(|i| i.to_le_bytes()).collect();
        let payload = Payload {
            options: self.options,
            vertices: Bytes(&vertices),
            indices: Bytes(&indices),
            nodes: Bytes(&nodes),
            order: Bytes(&order),
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
        if header.version == 1 {
            return Self::from_payload_v1(body);
        }
        let (payload, used): (Payload<'_>, usize) =
            bincode::serde::borrow_decode_from_slice(body, bincode::config::standard())
                .map_err(|e| LoadError::Decode(e.to_string()))?;
        if used != body.len() {
            return Err(LoadError::Decode(format!(
                "{} bytes left after the payload",
                body.len() - used
            )));
        }
        let vertices = records(payload.vertices.0, 3 * T::BYTES, "vertex", |r| {
            let mut xyz = [T::ZERO; 3];
            T::read_le(r, &mut xyz);
            Point3::from(xyz)
        })?;
        let indices = records(payload.indices.0, 12, "index", |r| {
            [u32_le(&r[0..4]), u32_le(&r[4..8]), u32_le(&r[8..12])]
        })?;
        let order = records(payload.order.0, 4, "leaf order", u32_le)?;
        let nodes = || decode_nodes::<T, B>(payload.nodes.0);
        let nested = root_children_nest::<T, B>(payload.nodes.0);
        Self::from_arrays(vertices, indices, nodes, nested, order, payload.options)
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

    fn from_payload_v1(body: &[u8]) -> Result<Self, LoadError> {
        let (p, used): (PayloadV1<T, B>, usize) =
            bincode::serde::decode_from_slice(body, bincode::config::standard())
                .map_err(|e| LoadError::Decode(e.to_string()))?;
        if used != body.len() {
            return Err(LoadError::Decode(format!(
                "{} bytes left after the payload",
                body.len() - used
            )));
        }
        let nested = p.nodes.first().is_some_and(|root| {
            root.children(0).is_some_and(|(l, r)| {
                [l, r].iter().all(|&c| {
                    p.nodes
                        .get(c as usize)
                        .is_some_and(|c| root.bv.contains_volume(&c.bv))
                })
            })
        });
        let nodes = || Ok(Nodes::of(p.nodes));
        Self::from_arrays(p.vertices, p.indices, nodes, nested, p.order, p.options)
    }

    /// The tree of decoded arrays, after every check (see the module
    /// docs). The nodes are decoded by `nodes`, on every thread of the
    /// current rayon pool, while the leaf-ordered triangles are copied and,
    /// unless the root's children lie inside it (`nested`: then every
    /// child likely does, and the containment check needs no numbering),
    /// the vertices are numbered for the containment check: the passes
    /// are bound by memory traffic and by memory latency, and overlap.
    fn from_arrays(
        vertices: Vec<Point3<T>>,
        indices: Vec<[u32; 3]>,
        nodes: impl FnOnce() -> Result<Nodes<B>, LoadError> + Send,
        nested: bool,
        order: Vec<u32>,
        options: BuildOptions,
    ) -> Result<Self, LoadError> {
        let invalid = |e: String| LoadError::Invalid(e);
        let mesh = TriMesh::new(vertices, indices).map_err(|e| invalid(e.to_string()))?;
        options.validate().map_err(|e| invalid(e.to_string()))?;
        crate::validate::check_order(&order, mesh.num_triangles()).map_err(invalid)?;
        let (nodes, (leaf_tris, uses)) = rayon::join(nodes, || {
            rayon::join(
                || crate::bvh::leaf_triangles(&mesh, &order),
                || (!nested).then(|| crate::validate::FirstUses::new(&mesh, &order)),
            )
        });
        let Nodes {
            nodes,
            links,
            malformed,
        } = nodes?;
        crate::validate::check_structure(links.len(), order.len(), mesh.num_triangles(), |i| {
            links[i]
        })
        .map_err(invalid)?;
        if let Some(i) = malformed {
            return Err(invalid(crate::validate::malformed(i)));
        }
        let tree = Self::from_parts(mesh, nodes, order, leaf_tris, options);
        // Volumes must contain their triangles, or queries could miss contacts.
        crate::validate::check_volumes(&tree, uses).map_err(invalid)?;
        Ok(tree)
    }
}

/// Bytes of one node record of a version 2 file.
fn node_record_len<T: Scalar, B: BoundingVolume<T>>() -> usize {
    B::FLAT_LEN * T::BYTES + 8
}

/// The `u32` whose little-endian bytes are `b` (four of them).
#[inline]
fn u32_le(b: &[u8]) -> u32 {
    let mut le = [0u8; 4];
    le.copy_from_slice(b);
    u32::from_le_bytes(le)
}

/// How many records of `size` bytes `bytes` holds; a typed error unless a
/// whole number.
fn record_count(bytes: &[u8], size: usize, what: &str) -> Result<usize, LoadError> {
    if bytes.len().is_multiple_of(size) {
        Ok(bytes.len() / size)
    } else {
        Err(LoadError::Decode(format!(
            "{} bytes of {what} records of {size} bytes each",
            bytes.len()
        )))
    }
}

/// The records of `size` bytes each that `bytes` holds, read by `read`
/// on every thread of the current rayon pool into an array allocated once
/// (its pages mapped in one call, see [`prefault`]); a typed error when
/// `bytes` is not a whole number of records.
fn records<R: Send>(
    bytes: &[u8],
    size: usize,
    what: &str,
    read: impl Fn(&[u8]) -> R + Sync + Send,
) -> Result<Vec<R>, LoadError> {
    let mut out = Vec::with_capacity(record_count(bytes, size, what)?);
    prefault(out.spare_capacity_mut());
    bytes
        .par_chunks_exact(size)
        .with_min_len(RECORDS_PER_TASK)
        .map(read)
        .collect_into_vec(&mut out);
    Ok(out)
}

/// Records decoded by one task at least (so that small trees decode on the
/// calling thread).
const RECORDS_PER_TASK: usize = 16 * 1024;

/// Decoded nodes, with what the checks after decoding read of them.
struct Nodes<B> {
    nodes: Vec<Node<B>>,
    /// Each node's `(child_or_first, count)`, for the structure check (16
    /// bytes a node instead of a pass over the nodes themselves).
    links: Vec<(u32, u32)>,
    /// The first node whose volume is not well formed.
    malformed: Option<usize>,
}

impl<B> Nodes<B> {
    /// The links and form of nodes decoded by bincode (version 1).
    fn of<T: Scalar>(nodes: Vec<Node<B>>) -> Self
    where
        B: BoundingVolume<T>,
    {
        Self {
            links: nodes.iter().map(|n| (n.child_or_first, n.count)).collect(),
            malformed: nodes.iter().position(|n| !n.bv.is_well_formed()),
            nodes,
        }
    }
}

/// The node records of a version 2 file (see the module docs), decoded on
/// every thread of the current rayon pool; each volume's form is checked
/// while it is at hand.
fn decode_nodes<T: Scalar, B: BoundingVolume<T>>(bytes: &[u8]) -> Result<Nodes<B>, LoadError> {
    let size = node_record_len::<T, B>();
    let n = record_count(bytes, size, "node")?;
    // A volume type that refuses its own flat form's length would leave a
    // record unread: name it rather than decode a placeholder.
    let Some(placeholder) = B::read_flat(&vec![T::ZERO; B::FLAT_LEN]) else {
        return Err(LoadError::Decode(format!(
            "the {} volume type reads no flat form of {} values",
            B::NAME,
            B::FLAT_LEN
        )));
    };
    let refused = AtomicBool::new(false);
    let malformed = AtomicUsize::new(usize::MAX);
    let (mut nodes, mut links) = (Vec::with_capacity(n), Vec::with_capacity(n));
    prefault(nodes.spare_capacity_mut());
    prefault(links.spare_capacity_mut());
    bytes
        .par_chunks_exact(size)
        .with_min_len(RECORDS_PER_TASK)
        .enumerate()
        .map(|(i, r)| {
            let node = decode_node::<T, B>(r).unwrap_or_else(|| {
                refused.store(true, Ordering::Relaxed);
                Node {
                    bv: placeholder.clone(),
                    child_or_first: 0,
                    count: 0,
                }
            });
            if !node.bv.is_well_formed() {
                malformed.fetch_min(i, Ordering::Relaxed);
            }
            let link = (node.child_or_first, node.count);
            (node, link)
        })
        .unzip_into_vecs(&mut nodes, &mut links);
    if refused.into_inner() {
        return Err(LoadError::Decode(format!(
            "a {} node record the volume type refuses",
            B::NAME
        )));
    }
    let malformed = Some(malformed.into_inner()).filter(|&i| i < n);
    Ok(Nodes {
        nodes,
        links,
        malformed,
    })
}

/// One node record (of [`node_record_len`] bytes); `None` when the volume
/// type refuses its flat form.
#[inline]
fn decode_node<T: Scalar, B: BoundingVolume<T>>(r: &[u8]) -> Option<Node<B>> {
    let (volume, link) = r.split_at(B::FLAT_LEN * T::BYTES);
    let mut flat = [T::ZERO; FLAT_ON_STACK];
    let bv = match flat.get_mut(..B::FLAT_LEN) {
        Some(flat) => {
            T::read_le(volume, flat);
            B::read_flat(flat)
        }
        None => {
            let mut flat = vec![T::ZERO; B::FLAT_LEN];
            T::read_le(volume, &mut flat);
            B::read_flat(&flat)
        }
    }?;
    Some(Node {
        bv,
        child_or_first: u32_le(&link[0..4]),
        count: u32_le(&link[4..8]),
    })
}

/// Whether the root's two children lie inside it (`false` for a lone
/// leaf or unreadable records), read from the node records before they
/// are decoded: the loader then expects every child to lie in its parent
/// (see [`crate::validate::check_volumes`]) and does not number the
/// vertices while the nodes are decoded. Only a guess for scheduling.
fn root_children_nest<T: Scalar, B: BoundingVolume<T>>(bytes: &[u8]) -> bool {
    let size = node_record_len::<T, B>();
    let record = |i: usize| {
        let r = bytes.get(i.checked_mul(size)?..(i + 1).checked_mul(size)?)?;
        decode_node::<T, B>(r)
    };
    let Some(root) = record(0) else {
        return false;
    };
    root.children(0).is_some_and(|(l, r)| {
        [l, r]
            .iter()
            .all(|&c| record(c as usize).is_some_and(|c| root.bv.contains_volume(&c.bv)))
    })
}

/// Volumes whose flat form is at most this long decode through the stack
/// (the k-DOP26's is 26 values; longer ones take a buffer each).
const FLAT_ON_STACK: usize = 32;
