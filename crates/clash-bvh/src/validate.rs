//! Structural invariants of a [`Bvh`], checked by tests and after loading.

use crate::Bvh;
use clash_bv::BoundingVolume;
use clash_math::Scalar;
use rayon::prelude::*;

pub(crate) fn validate<T: Scalar, B: BoundingVolume<T>>(bvh: &Bvh<T, B>) -> Result<(), String> {
    check_structure(
        bvh.nodes.len(),
        bvh.order.len(),
        bvh.mesh.num_triangles(),
        |i| {
            let n = &bvh.nodes[i];
            (n.child_or_first, n.count)
        },
    )?;
    let mut seen = vec![false; bvh.mesh.num_triangles()];
    for &id in &bvh.order {
        let slot = seen
            .get_mut(id as usize)
            .ok_or_else(|| format!("leaf order names triangle {id}, out of range"))?;
        if *slot {
            return Err(format!("triangle {id} appears twice in the leaf order"));
        }
        *slot = true;
    }
    // well-formed volumes: a loaded file could hold, say, an OBB with skewed
    // axes that contains its triangles but breaks the separating-axis test.
    // Fits produce axes orthonormal to a few ulps; the separating-axis test's
    // padding (RTCD §4.4.2) covers that much and no more.
    let axes_tol = 16.0 * T::EPSILON.to_f64();
    for (i, node) in bvh.nodes.iter().enumerate() {
        let obb = node.bv.bounding_obb();
        let finite = obb
            .center
            .iter()
            .chain(obb.half_extents.iter())
            .chain(obb.axes.iter())
            .all(|x| x.finite());
        let extents_ok = obb.half_extents.iter().all(|&e| e >= T::ZERO);
        let gram = obb.axes.transpose() * obb.axes - clash_math::Matrix3::identity();
        let orthonormal =
            gram.iter().all(|x| x.abs().to_f64() <= axes_tol) && obb.axes.determinant() > T::ZERO;
        if !(finite && extents_ok && orthonormal) {
            return Err(format!("node {i} has a malformed bounding volume"));
        }
    }
    // Containment of every triangle corner in every ancestor's volume,
    // checked node by node over the node's stretch of the leaf-ordered
    // triangles (contiguous, so each node reads memory in order with its
    // volume in registers; OBBs and RSSs test a stretch without branches,
    // `contains_points`). A child whose volume the node holds
    // (`contains_volume`) is skipped: its own check covers its corners (by
    // induction from the leaves). AABB and k-DOP children always lie in
    // their parents, so those trees test each corner only in its few
    // smallest ancestors (children under `NEST_FROM` triangles are scanned
    // anyway); OBB and RSS children of surface patches seldom do (they poke out
    // where the patch meets its parent's faces), and there each corner is
    // tested once per ancestor. In parallel over nodes, no allocation per
    // node; the first failing node in preorder is reported.
    let spans = leaf_spans(&bvh.nodes);
    let failure = (0..bvh.nodes.len())
        .into_par_iter()
        .find_map_first(|i| holds_subtree(bvh, &spans, i).err());
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Each node's stretch `[start, end)` of the leaf order, by one backward
/// pass (in preorder a node's children follow it). The structure has been
/// checked.
fn leaf_spans<B>(nodes: &[crate::Node<B>]) -> Vec<(u32, u32)> {
    let mut spans = vec![(0u32, 0u32); nodes.len()];
    for i in (0..nodes.len()).rev() {
        let node = &nodes[i];
        spans[i] = match node.children(i as u32) {
            Some((l, r)) => (spans[l as usize].0, spans[r as usize].1),
            None => (node.child_or_first, node.child_or_first + node.count),
        };
    }
    spans
}

/// Children over fewer triangles than this are scanned without testing
/// whether their volume lies inside their parent's.
const NEST_FROM: u32 = 8;

/// Whether node `at` holds every corner of the triangles below it, given
/// that each node below holds its own (see [`validate`]).
fn holds_subtree<T: Scalar, B: BoundingVolume<T>>(
    bvh: &Bvh<T, B>,
    spans: &[(u32, u32)],
    at: usize,
) -> Result<(), String> {
    let node = &bvh.nodes[at];
    let bv = &node.bv;
    let check = |(start, end): (u32, u32)| -> Result<(), String> {
        let start = start as usize;
        let tris = &bvh.leaf_tris[start..end as usize];
        if bv.contains_points(tris.iter().flat_map(|t| [&t.a, &t.b, &t.c])) {
            return Ok(());
        }
        // Name the first triangle with a corner outside.
        let k = tris
            .iter()
            .position(|t| !t.vertices().iter().all(|p| bv.contains_point(p)))
            .unwrap_or(0);
        Err(format!(
            "node {at} ({}) does not contain a corner of triangle {}",
            B::NAME,
            bvh.order[start + k]
        ))
    };
    match node.children(at as u32) {
        Some((l, r)) => {
            for c in [l, r] {
                let span = spans[c as usize];
                // Below a few triangles the scan costs less than the test
                // of the child's volume.
                if span.1 - span.0 < NEST_FROM || !bv.contains_volume(&bvh.nodes[c as usize].bv) {
                    check(span)?;
                }
            }
            Ok(())
        }
        None => check(spans[at]),
    }
}

/// Checks that `n` nodes (given as `(child_or_first, count)`) form a valid
/// preorder tree whose leaves tile `0..order_len` in order, and that
/// `order_len == num_triangles`. Never indexes out of range, never loops.
pub(crate) fn check_structure(
    n: usize,
    order_len: usize,
    num_triangles: usize,
    node: impl Fn(usize) -> (u32, u32),
) -> Result<(), String> {
    if n == 0 {
        return Err("the tree has no nodes".into());
    }
    if order_len != num_triangles {
        return Err(format!(
            "leaf order has {order_len} entries for {num_triangles} triangles"
        ));
    }
    if n > 2 * num_triangles.max(1) {
        return Err(format!("{n} nodes for {num_triangles} triangles"));
    }
    // Walk in preorder; node i's subtree must occupy exactly [i, end).
    // stack of (node, end of its subtree's slot range)
    let mut next_leaf_pos = 0usize;
    let mut expected = 0usize; // next node index preorder must visit
    let mut stack: Vec<(usize, usize, u32)> = vec![(0, n, 0)];
    while let Some((i, end, depth)) = stack.pop() {
        if depth > crate::MAX_DEPTH {
            return Err(format!("node {i} is deeper than {}", crate::MAX_DEPTH));
        }
        if i != expected || i >= end || end > n {
            return Err(format!("node {i} is out of preorder"));
        }
        expected += 1;
        let (c, count) = node(i);
        if count > 0 {
            if c as usize != next_leaf_pos {
                return Err(format!("leaf {i} starts at {c}, expected {next_leaf_pos}"));
            }
            next_leaf_pos = next_leaf_pos
                .checked_add(count as usize)
                .filter(|&e| e <= order_len)
                .ok_or_else(|| format!("leaf {i} runs past the triangle list"))?;
            if expected != end {
                return Err(format!("leaf {i} does not end its subtree"));
            }
        } else {
            let r = c as usize;
            if r <= i + 1 || r >= end {
                return Err(format!(
                    "internal node {i} has right child {r} outside ({}, {end})",
                    i + 1
                ));
            }
            stack.push((r, end, depth + 1));
            stack.push((i + 1, r, depth + 1));
        }
    }
    if expected != n {
        return Err(format!("{} nodes are unreachable", n - expected));
    }
    if next_leaf_pos != order_len {
        return Err(format!(
            "leaves cover {next_leaf_pos} of {order_len} triangles"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::{BuildOptions, Bvh, TriMesh};
    use clash_bv::{Aabb, BoundingVolume, Kdop18, Obb, Rss};
    use clash_math::Point3;

    /// A wavy sheet of `2 n²` triangles (curved, so OBB and RSS children
    /// poke out of their parents).
    fn sheet(n: u32) -> TriMesh<f64> {
        let v = |i: u32, j: u32| {
            let (x, y) = (f64::from(i) / f64::from(n), f64::from(j) / f64::from(n));
            Point3::new(x, y, 0.3 * (3.0 * x).sin() * (2.0 * y).cos())
        };
        let mut vertices = Vec::new();
        for j in 0..=n {
            for i in 0..=n {
                vertices.push(v(i, j));
            }
        }
        let at = |i: u32, j: u32| j * (n + 1) + i;
        let mut indices = Vec::new();
        for j in 0..n {
            for i in 0..n {
                indices.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                indices.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
            }
        }
        TriMesh::new(vertices, indices).unwrap()
    }

    /// Every node of a valid tree passes; a node that misses one corner of
    /// one triangle below it (its volume moved away a little) is caught
    /// and named, whether its children lie inside it or not, at every
    /// depth.
    fn check<B: BoundingVolume<f64>>(moved: impl Fn(&B, f64) -> B) {
        let tree = Bvh::<f64, B>::build(sheet(12), &BuildOptions::default()).unwrap();
        tree.validate().unwrap();
        for i in (0..tree.nodes.len()).step_by(7) {
            let mut bad = tree.clone();
            // Move the volume by 1e-6 of the sheet along x, then along -x:
            // one of the two leaves a triangle corner out.
            let failures = [1e-6, -1e-6]
                .iter()
                .filter(|&&d| {
                    bad.nodes[i].bv = moved(&tree.nodes[i].bv, d);
                    bad.validate()
                        .is_err_and(|e| e.starts_with(&format!("node {i} ")))
                })
                .count();
            assert!(failures >= 1, "{}: node {i} moved passes", B::NAME);
        }
    }

    #[test]
    fn a_node_missing_a_corner_is_named() {
        let shift = |c: Point3<f64>, d: f64| c + clash_math::Vector3::new(d, 0.0, 0.0);
        check::<Obb<f64>>(|b, d| Obb {
            center: shift(b.center, d),
            ..*b
        });
        check::<Rss<f64>>(|b, d| Rss {
            center: shift(b.center, d),
            ..*b
        });
        check::<Aabb<f64>>(|b, d| Aabb::new(shift(b.min, d), shift(b.max, d)));
        check::<Kdop18<f64>>(|b, d| {
            let mut k = *b;
            // Slab 0 is the x axis.
            k.min[0] += d;
            k.max[0] += d;
            k
        });
    }
}
