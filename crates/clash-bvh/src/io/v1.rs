//! The version 1 payload, which bincode encoded field by field (serde's
//! derived forms of the mesh, nodes, leaf order and options): still read,
//! no longer written.

use super::source::Source;
use super::{Decoded, Nodes, config, decode_error};
use crate::validate::PreviousUses;
use crate::{BuildOptions, LoadError, Node, TriMesh, ValidationError};
use clash_bv::FlatVolume;
use clash_math::{Point3, Scalar};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(bound = "T: Scalar, B: serde::de::DeserializeOwned")]
struct Payload<T: Scalar, B> {
    vertices: Vec<Point3<T>>,
    indices: Vec<[u32; 3]>,
    nodes: Vec<Node<B>>,
    order: Vec<u32>,
    options: BuildOptions,
}

/// Decodes a version 1 payload from `src` up to the containment check.
pub(super) fn read<T: Scalar, B: FlatVolume<T>, S: Source>(
    src: &mut S,
) -> Result<Decoded<T, B>, LoadError> {
    let p: Payload<T, B> = bincode::serde::decode_from_std_read(src, config())
        .map_err(|e| LoadError::Decode(decode_error(e)))?;
    let mesh = TriMesh::new(p.vertices, p.indices).map_err(ValidationError::from)?;
    p.options.check().map_err(ValidationError::Options)?;
    crate::validate::check_order(&p.order, mesh.num_triangles())?;
    let leaf_tris = crate::bvh::leaf_triangles(&mesh, &p.order);
    let prev = Some(PreviousUses::new(&mesh, &p.order));
    Ok(Decoded {
        mesh,
        nodes: Nodes {
            links: p
                .nodes
                .iter()
                .map(|n| (n.child_or_first, n.count))
                .collect(),
            malformed: p.nodes.iter().position(|n| !n.bv.is_well_formed()),
            nodes: p.nodes,
        },
        order: p.order,
        leaf_tris,
        prev,
        options: p.options,
    })
}
