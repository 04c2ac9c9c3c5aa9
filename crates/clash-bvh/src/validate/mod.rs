//! Structural invariants of a [`Bvh`], checked by tests and after loading:
//! preorder links, the leaf order, well-formed volumes, and containment.
//!
//! This file checks the structure and the leaf order; `volumes.rs` checks
//! that every volume holds the triangles below it.

#[cfg(test)]
mod tests;
mod volumes;

#[cfg(test)]
use volumes::PARALLEL_FROM;
pub(crate) use volumes::{PreviousUses, check_volumes};

use crate::{Bvh, ValidationError};
use clash_bv::FlatVolume;
use clash_math::Scalar;

/// Every invariant of `bvh` (see [`Bvh::validate`]).
pub(crate) fn validate<T: Scalar, B: FlatVolume<T>>(
    bvh: &Bvh<T, B>,
) -> Result<(), ValidationError> {
    check_structure(
        bvh.nodes.len(),
        bvh.order.len(),
        bvh.mesh.num_triangles(),
        |i| {
            let n = &bvh.nodes[i];
            (n.child_or_first, n.count)
        },
    )?;
    check_order(&bvh.order, bvh.mesh.num_triangles())?;
    if let Some(i) = bvh.nodes.iter().position(|n| !n.bv.is_well_formed()) {
        return Err(ValidationError::MalformedVolume { node: i });
    }
    check_volumes(bvh, None)
}

/// `order` must name each of `n` triangles exactly once.
pub(crate) fn check_order(order: &[u32], n: usize) -> Result<(), ValidationError> {
    let mut seen = vec![false; n];
    for &id in order {
        let slot = seen
            .get_mut(id as usize)
            .ok_or(ValidationError::OrderOutOfRange { triangle: id })?;
        if *slot {
            return Err(ValidationError::OrderRepeats { triangle: id });
        }
        *slot = true;
    }
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
) -> Result<(), ValidationError> {
    if n == 0 {
        return Err(ValidationError::NoNodes);
    }
    if order_len != num_triangles {
        return Err(ValidationError::OrderLength {
            order_len,
            num_triangles,
        });
    }
    if n > 2 * num_triangles.max(1) {
        return Err(ValidationError::TooManyNodes {
            nodes: n,
            num_triangles,
        });
    }
    // Walk in preorder; node i's subtree must occupy exactly [i, end).
    // stack of (node, end of its subtree's slot range)
    let mut next_leaf_pos = 0usize;
    let mut expected = 0usize; // next node index preorder must visit
    let mut stack: Vec<(usize, usize, u32)> = vec![(0, n, 0)];
    while let Some((i, end, depth)) = stack.pop() {
        if depth > crate::MAX_DEPTH {
            return Err(ValidationError::TooDeep {
                node: i,
                max_depth: crate::MAX_DEPTH,
            });
        }
        if i != expected || i >= end || end > n {
            return Err(ValidationError::OutOfPreorder { node: i });
        }
        expected += 1;
        let (c, count) = node(i);
        if count > 0 {
            if c as usize != next_leaf_pos {
                return Err(ValidationError::LeafStart {
                    node: i,
                    start: c,
                    expected: next_leaf_pos,
                });
            }
            next_leaf_pos = next_leaf_pos
                .checked_add(count as usize)
                .filter(|&e| e <= order_len)
                .ok_or(ValidationError::LeafPastEnd { node: i })?;
            if expected != end {
                return Err(ValidationError::LeafNotLast { node: i });
            }
        } else {
            let r = c as usize;
            if r <= i + 1 || r >= end {
                return Err(ValidationError::RightChildOutOfRange {
                    node: i,
                    right: r,
                    end,
                });
            }
            stack.push((r, end, depth + 1));
            stack.push((i + 1, r, depth + 1));
        }
    }
    if expected != n {
        return Err(ValidationError::Unreachable {
            count: n - expected,
        });
    }
    if next_leaf_pos != order_len {
        return Err(ValidationError::LeavesCover {
            covered: next_leaf_pos,
            order_len,
        });
    }
    Ok(())
}
