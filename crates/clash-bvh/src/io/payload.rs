//! The version 2 payload: the build options (bincode, serde), then four
//! byte strings of fixed-size little-endian records (see the `io` module
//! docs). Writing goes record by record through a small buffer; reading
//! takes each byte string from a [`Source`] a chunk at a time and decodes
//! the chunk's records on every thread of the current rayon pool into
//! arrays allocated once, while the leaf-ordered triangles are copied and
//! the corners' previous uses found for the containment check.

use super::source::{CHUNK_BYTES, Source};
use super::{Decoded, Nodes, config};
use crate::build::prefault::prefault;
use crate::validate::PreviousUses;
use crate::{Bvh, LoadError, Node, TriMesh, ValidationError};
use clash_bv::FlatVolume;
use clash_math::{Point3, Scalar};
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use rayon::prelude::*;
use std::io::Write;

/// Bytes of one node record.
pub(super) fn node_record_len<T: Scalar, B: FlatVolume<T>>() -> usize {
    B::FLAT_LEN * T::BYTES + 8
}

/// An upper bound on the length of [`write`]'s payload: the four byte
/// strings' records exactly, and room for the options and the four lengths
/// (small bincode values: the options are a few enum tags and integers,
/// each length a variable-length integer of at most 9 bytes).
pub(super) fn len_bound<T: Scalar, B: FlatVolume<T>>(tree: &Bvh<T, B>) -> usize {
    const SMALL_VALUES: usize = 256;
    SMALL_VALUES
        + tree.mesh.vertices().len() * 3 * T::BYTES
        + tree.mesh.indices().len() * 12
        + tree.order.len() * 4
        + tree.nodes.len() * node_record_len::<T, B>()
}

/// Writes the payload of `tree` to `w`.
pub(super) fn write<T: Scalar, B: FlatVolume<T>>(
    tree: &Bvh<T, B>,
    w: &mut impl Write,
) -> std::io::Result<()> {
    bincode::serde::encode_into_std_write(tree.options, w, config())
        .map_err(std::io::Error::other)?;
    byte_string(w, tree.mesh.vertices(), 3 * T::BYTES, |p, out| {
        for &x in p.coords.iter() {
            x.write_le(out);
        }
    })?;
    byte_string(w, tree.mesh.indices(), 12, |t, out| {
        for i in t {
            out.extend_from_slice(&i.to_le_bytes());
        }
    })?;
    byte_string(w, &tree.order, 4, |i, out| {
        out.extend_from_slice(&i.to_le_bytes())
    })?;
    let mut flat = Vec::with_capacity(B::FLAT_LEN);
    byte_string(w, &tree.nodes, node_record_len::<T, B>(), |n, out| {
        flat.clear();
        n.bv.write_flat(&mut flat);
        for &x in &flat {
            x.write_le(out);
        }
        out.extend_from_slice(&n.child_or_first.to_le_bytes());
        out.extend_from_slice(&n.count.to_le_bytes());
    })
}

/// One byte string of `items.len()` records of `size` bytes, each written
/// by `put`: its length as bincode writes a byte string's (a variable-length
/// integer), then the records, through a buffer of about 64 KiB.
fn byte_string<I>(
    w: &mut impl Write,
    items: &[I],
    size: usize,
    mut put: impl FnMut(&I, &mut Vec<u8>),
) -> std::io::Result<()> {
    let len = (items.len() * size) as u64;
    bincode::serde::encode_into_std_write(len, w, config()).map_err(std::io::Error::other)?;
    const BUF: usize = 64 << 10;
    let mut buf = Vec::with_capacity(BUF + size);
    for item in items {
        put(item, &mut buf);
        if buf.len() >= BUF {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)
}

/// Decodes a payload from `src` up to the containment check (which the
/// caller runs once the checksum is known to match).
pub(super) fn read<T: Scalar, B: FlatVolume<T>, S: Source>(
    src: &mut S,
) -> Result<Decoded<T, B>, LoadError> {
    let options: crate::BuildOptions = decode_small(src)?;
    let vertices = records(src, 3 * T::BYTES, "vertex", |r| {
        let mut xyz = [T::ZERO; 3];
        T::read_le(r, &mut xyz);
        Point3::from(xyz)
    })?;
    let indices = records(src, 12, "index", |r| {
        [u32_le(&r[0..4]), u32_le(&r[4..8]), u32_le(&r[8..12])]
    })?;
    let order = records(src, 4, "leaf order", u32_le)?;
    let mesh = TriMesh::new(vertices, indices).map_err(ValidationError::from)?;
    options.check().map_err(ValidationError::Options)?;
    crate::validate::check_order(&order, mesh.num_triangles())?;
    // The nodes stream in while the triangles are copied into leaf order
    // and, unless the first chunk's left child lies inside the root (then
    // every child likely lies in its parent, and the containment check
    // needs no previous uses), each corner's previous use is found.
    let mut nodes = NodeDecoder::<T, B>::new(src)?;
    nodes.next_chunk(src)?;
    let nested = nodes.left_child_nests();
    let (done, (leaf_tris, prev)) = rayon::join(
        || nodes.rest(src),
        || {
            rayon::join(
                || crate::bvh::leaf_triangles(&mesh, &order),
                || (!nested).then(|| PreviousUses::new(&mesh, &order)),
            )
        },
    );
    done?;
    Ok(Decoded {
        mesh,
        nodes: nodes.finish()?,
        order,
        leaf_tris,
        prev,
        options,
    })
}

/// A small bincode value (the options, a byte string's length).
fn decode_small<D: serde::de::DeserializeOwned, S: Source>(src: &mut S) -> Result<D, LoadError> {
    bincode::serde::decode_from_std_read(src, config())
        .map_err(|e| LoadError::Decode(super::decode_error(e)))
}

/// The number of `size`-byte records in the next byte string, whose length
/// must fit in what is left of the payload (so that no allocation exceeds
/// the payload's size).
fn record_count<S: Source>(src: &mut S, size: usize, what: &str) -> Result<usize, LoadError> {
    let len: u64 = decode_small(src)?;
    let remaining = src.remaining();
    if len > remaining {
        return Err(LoadError::Decode(format!(
            "the {what} records claim {len} bytes, {remaining} are left"
        )));
    }
    let len = len as usize;
    if len.is_multiple_of(size) {
        Ok(len / size)
    } else {
        Err(LoadError::Decode(format!(
            "{len} bytes of {what} records of {size} bytes each"
        )))
    }
}

/// Records decoded by one task at least (so that small trees decode on the
/// calling thread).
const RECORDS_PER_TASK: usize = 16 * 1024;

/// The next byte string's records of `size` bytes, each read by `read`.
fn records<R: Send, S: Source>(
    src: &mut S,
    size: usize,
    what: &str,
    read: impl Fn(&[u8]) -> R + Sync + Send,
) -> Result<Vec<R>, LoadError> {
    let count = record_count(src, size, what)?;
    let mut out = Vec::with_capacity(count);
    prefault(out.spare_capacity_mut());
    let per_chunk = (CHUNK_BYTES / size).max(1);
    while out.len() < count {
        let k = (count - out.len()).min(per_chunk);
        let bytes = src.take_bytes(k * size)?;
        out.par_extend(
            bytes
                .par_chunks_exact(size)
                .with_min_len(RECORDS_PER_TASK)
                .map(&read),
        );
    }
    Ok(out)
}

/// The `u32` whose little-endian bytes are `b` (four of them).
#[inline]
fn u32_le(b: &[u8]) -> u32 {
    let mut le = [0u8; 4];
    le.copy_from_slice(b);
    u32::from_le_bytes(le)
}

/// Volumes whose flat form is at most this long decode through the stack
/// (the k-DOP26's is 26 values; longer ones take a buffer each).
const FLAT_ON_STACK: usize = 32;

/// One node record; `None` when the volume type refuses its flat form.
#[inline]
fn decode_node<T: Scalar, B: FlatVolume<T>>(r: &[u8]) -> Option<Node<B>> {
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

/// The node byte string, decoded a chunk at a time; each volume's form is
/// checked while it is at hand, and each node's links kept for the
/// structure check.
struct NodeDecoder<T, B> {
    count: usize,
    nodes: Vec<Node<B>>,
    links: Vec<(u32, u32)>,
    placeholder: B,
    refused: AtomicBool,
    malformed: AtomicUsize,
    _scalar: core::marker::PhantomData<T>,
}

impl<T: Scalar, B: FlatVolume<T>> NodeDecoder<T, B> {
    fn new<S: Source>(src: &mut S) -> Result<Self, LoadError> {
        let count = record_count(src, node_record_len::<T, B>(), "node")?;
        // A volume type that refuses its own flat form's length would leave
        // a record unread: name it rather than decode a placeholder.
        let Some(placeholder) = B::read_flat(&vec![T::ZERO; B::FLAT_LEN]) else {
            return Err(LoadError::Decode(format!(
                "the {} volume type reads no flat form of {} values",
                B::NAME,
                B::FLAT_LEN
            )));
        };
        let (mut nodes, mut links) = (Vec::with_capacity(count), Vec::with_capacity(count));
        prefault(nodes.spare_capacity_mut());
        prefault(links.spare_capacity_mut());
        Ok(Self {
            count,
            nodes,
            links,
            placeholder,
            refused: AtomicBool::new(false),
            malformed: AtomicUsize::new(usize::MAX),
            _scalar: core::marker::PhantomData,
        })
    }

    /// Decodes the next chunk of records; `false` when none is left.
    fn next_chunk<S: Source>(&mut self, src: &mut S) -> Result<bool, LoadError> {
        let size = node_record_len::<T, B>();
        let start = self.nodes.len();
        let k = (self.count - start).min((CHUNK_BYTES / size).max(1));
        if k == 0 {
            return Ok(false);
        }
        let bytes = src.take_bytes(k * size)?;
        let (refused, malformed, placeholder) = (&self.refused, &self.malformed, &self.placeholder);
        let decoded = bytes
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
                    malformed.fetch_min(start + i, Ordering::Relaxed);
                }
                let link = (node.child_or_first, node.count);
                (node, link)
            });
        let mut pair = (
            core::mem::take(&mut self.nodes),
            core::mem::take(&mut self.links),
        );
        pair.par_extend(decoded);
        (self.nodes, self.links) = pair;
        Ok(true)
    }

    /// Decodes every chunk left.
    fn rest<S: Source>(&mut self, src: &mut S) -> Result<(), LoadError> {
        while self.next_chunk(src)? {}
        Ok(())
    }

    /// Whether the root's left child lies inside it (`false` for a lone
    /// leaf): a guess, for scheduling only, at whether every child does.
    fn left_child_nests(&self) -> bool {
        match (self.nodes.first(), self.nodes.get(1)) {
            (Some(root), Some(left)) => !root.is_leaf() && root.bv.contains_volume(&left.bv),
            _ => false,
        }
    }

    fn finish(self) -> Result<Nodes<B>, LoadError> {
        if self.refused.into_inner() {
            return Err(LoadError::Decode(format!(
                "a {} node record the volume type refuses",
                B::NAME
            )));
        }
        let n = self.nodes.len();
        Ok(Nodes {
            nodes: self.nodes,
            links: self.links,
            malformed: Some(self.malformed.into_inner()).filter(|&i| i < n),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BuildOptions, FitQuality, SplitRule};
    use clash_bv::{Aabb, Obb};

    /// The payload never outgrows [`len_bound`] (the room `to_bytes`
    /// reserves), with the options' integers at their widest encodings.
    #[test]
    fn payload_fits_its_length_bound() {
        let p = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
        let vertices = vec![
            p(0.0, 0.0, 0.0),
            p(1.0, 0.0, 0.0),
            p(0.0, 1.0, 0.0),
            p(0.0, 0.0, 1.0),
        ];
        let indices = vec![[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]];
        let mesh = TriMesh::new(vertices, indices).unwrap();
        let wide = BuildOptions::default()
            .with_max_leaf_size(u32::MAX)
            .with_max_depth(crate::MAX_DEPTH)
            .with_fit(FitQuality::TightAbove {
                min_triangles: u32::MAX,
            });
        let sah = BuildOptions::sah()
            .with_split(SplitRule::Sah { bins: 256 })
            .with_max_leaf_size(u32::MAX);
        for opts in [BuildOptions::default(), wide, sah] {
            let obb = Bvh::<f64, Obb<f64>>::build(mesh.clone(), &opts).unwrap();
            let mut out = Vec::new();
            write(&obb, &mut out).unwrap();
            assert!(out.len() <= len_bound(&obb), "{opts:?}");
            let aabb = Bvh::<f64, Aabb<f64>>::build(mesh.clone(), &opts).unwrap();
            let mut out = Vec::new();
            write(&aabb, &mut out).unwrap();
            assert!(out.len() <= len_bound(&aabb), "{opts:?}");
            // No regrowth: the file fits the room reserved for it.
            assert!(aabb.to_bytes().capacity() <= super::super::HEADER_LEN + len_bound(&aabb));
        }
    }
}
