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
    // Containment of every triangle corner in every ancestor's volume:
    // O(n * depth) tests, in parallel over leaves, with no allocation per node.
    let mut parent = vec![u32::MAX; bvh.nodes.len()];
    for (i, node) in bvh.nodes.iter().enumerate() {
        if let Some((l, r)) = node.children(i as u32) {
            parent[l as usize] = i as u32;
            parent[r as usize] = i as u32;
        }
    }
    let leaves: Vec<usize> = (0..bvh.nodes.len())
        .filter(|&i| bvh.nodes[i].is_leaf())
        .collect();
    leaves.par_iter().try_for_each(|&leaf| {
        let range = bvh.nodes[leaf].triangle_range().unwrap_or(0..0);
        for pos in range {
            let t = &bvh.leaf_tris[pos];
            let mut a = leaf as u32;
            while a != u32::MAX {
                let bv = &bvh.nodes[a as usize].bv;
                if !t.vertices().iter().all(|p| bv.contains_point(p)) {
                    return Err(format!(
                        "node {a} ({}) does not contain a corner of triangle {}",
                        B::NAME,
                        bvh.order[pos]
                    ));
                }
                a = parent[a as usize];
            }
        }
        Ok(())
    })?;
    Ok(())
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
