//! The median/mean builder (RTCD §6.2.1, Eberly §6.2), parallel with
//! `rayon::join` and bit-identical on any number of threads.
//!
//! It keeps one working element per triangle (its
//! moments about the mesh's origin and its id; see `partition::Prims`), so
//! a node's triangles are always one contiguous slice: no buffer is
//! allocated per node. Each triangle's moments are computed once, so a
//! node's continuous-PCA covariance is a sum (Eberly §6.1.3); a parent
//! partitions its elements in place, then sums each child's moments and
//! lists its distinct vertices in one pass over the child. Volumes
//! fitted along principal axes (OBB, RSS) then need no triangles: the axes
//! come from the sum and the extents from the listed vertices. A subtree over `n`
//! triangles owns `2n - 1` node slots (the most a tree with non-empty leaves can
//! use); its left child over `k` triangles owns the next `2k - 1` slots and the
//! right child the `2(n - k) - 1` after those. Subtrees therefore write disjoint
//! slices and can be built in parallel with no synchronisation. The slots
//! start as copies of the root; with one triangle per leaf every slot is
//! written, and otherwise a final walk from the root collects the written
//! ones, keeping preorder (`assemble.rs`).
//!
//! This file holds the set-up and the descent; `shared.rs` what every node
//! reads (the mesh, the per-vertex stamps of the corner lists), `split.rs`
//! the median and mean splits, `fit.rs` the node fits.

mod assemble;
mod fit;
mod shared;
mod split;
#[cfg(test)]
mod tests;

use crate::Node;
use crate::build::partition::{Elem, Prims};
use crate::build::prefault::prefault;
use crate::build::{BuildOptions, Built, CornerSource, FitQuality, PARALLEL_THRESHOLD};
use assemble::assemble;
use clash_bv::{FitError, FitScratch, FitVolume};
use clash_math::{MomentSum, Point3, Scalar, Triangle, TriangleMoments, Vector3};
use core::sync::atomic::AtomicU32;
use rayon::prelude::*;
use shared::Shared;
use split::{Left, key_along};
use std::sync::{Mutex, PoisonError};

struct Builder {
    opts: BuildOptions,
}

/// `n` copies of `e`, in a buffer mapped in one call when it is fresh
/// ([`prefault`]).
fn filled<E: Clone>(n: usize, e: E) -> Vec<E> {
    let mut v = Vec::with_capacity(n);
    prefault(v.spare_capacity_mut());
    v.resize(n, e);
    v
}

/// `n` zeros, as [`filled`].
fn zeroed<E: Clone + Default>(n: usize) -> Vec<E> {
    filled(n, E::default())
}

/// The median/mean tree over a mesh's triangles (`opts.split` is
/// [`SplitRule::Median`](crate::SplitRule::Median) or
/// [`SplitRule::Mean`](crate::SplitRule::Mean)).
pub(crate) fn build<T: Scalar, B: FitVolume<T>>(
    corners: CornerSource<'_, T>,
    opts: &BuildOptions,
) -> Result<Built<T, B>, FitError> {
    let builder = Builder { opts: *opts };
    let n = corners.indices.len();
    // Nodes fit along axes from summed moments and listed corners, without
    // their triangles, unless the volume or the fit needs the triangles.
    let lists = B::FITS_ALONG_AXES && opts.fit != FitQuality::Tight;
    let carry = !B::FITS_ALONG_AXES || opts.fit != FitQuality::Basic;
    // Set-up runs on the pool too (order-preserving collects). Each
    // triangle's moments once, about the centre of the centroids' bounds
    // (minimum and maximum are exact, so the reduction is deterministic).
    let (lo, hi) = (0..n)
        .into_par_iter()
        .map(|i| {
            let c = corners.triangle(i).centroid();
            (c, c)
        })
        .reduce(
            || {
                (
                    Point3::from(Vector3::repeat(T::INFINITY)),
                    Point3::from(Vector3::repeat(T::NEG_INFINITY)),
                )
            },
            |a, b| (a.0.inf(&b.0), a.1.sup(&b.1)),
        );
    let origin = Point3::from((lo.coords.map(T::to_f64) + hi.coords.map(T::to_f64)) * 0.5);
    let mut elems: Vec<Elem> = Vec::with_capacity(n);
    prefault(elems.spare_capacity_mut());
    (0..n)
        .into_par_iter()
        .map(|i| Elem {
            m: TriangleMoments::new(&corners.triangle(i)).about(&origin),
            id: i as u32,
            corners: corners.indices[i],
        })
        .collect_into_vec(&mut elems);
    let mut tris = if carry {
        corners.triangles()
    } else {
        Vec::new()
    };
    let mut recs = zeroed::<u64>(n);
    let mut order = zeroed::<u32>(n);
    // The tree keeps its triangles in leaf order. Carried triangles end up
    // in that order by themselves; otherwise each leaf writes its own,
    // while their corners are in cache, into a buffer mapped up front,
    // which saves a gather pass over the mesh.
    let at_leaves = !carry;
    let mut leaf_buf: Vec<Triangle<T>> = if at_leaves {
        let o = Point3::origin();
        filled(n, Triangle::new(o, o, o))
    } else {
        Vec::new()
    };
    let shared = Shared {
        stamps: if lists {
            (0..corners.vertices.len())
                .into_par_iter()
                .map(|_| AtomicU32::new(u32::MAX))
                .collect()
        } else {
            Vec::new()
        },
        source: corners,
        lists,
        spare: Mutex::new(Vec::new()),
    };
    let mut corner_ids: Vec<u32> = zeroed(if lists { 3 * n } else { 0 });
    let mut len = 0;
    // One pass over the elements: the root's moment sum and, when nodes
    // fit along axes, its corner list.
    let mut sum = MomentSum::default();
    for e in &elems {
        sum.add(&e.m);
        if lists {
            shared.list(e, 0, &mut corner_ids, &mut len);
        }
    }
    let root_axes = match (&*elems, shared.lists) {
        (_, false) => None,
        ([e], true) => shared.lone_axes(e),
        (_, true) => clash_bv::principal_axes_of_sum(&sum),
    };
    let mut scratch = FitScratch::new();
    let prims = Prims {
        elems: &mut elems,
        tris: &mut tris,
        recs: &mut recs,
        order: &mut order,
        leaf_tris: &mut leaf_buf,
    };
    let root: B = builder.fit(&shared, &prims, root_axes, &corner_ids[..len], &mut scratch)?;
    // Each slot is written once, by the node that owns it (a full tree,
    // one triangle per leaf, the default, writes every slot), and only
    // written slots are read (see `assemble`); the root's copies fill them
    // until then.
    let placeholder = Node {
        bv: root.clone(),
        child_or_first: 0,
        count: 0,
    };
    let mut slots = filled(2 * n - 1, placeholder);
    let used = if builder.is_leaf(n, 0) {
        builder.leaf(&shared, &mut slots[0], prims, root, 0)
    } else {
        builder.node(
            &shared,
            &mut slots,
            0,
            prims,
            root,
            &mut corner_ids,
            0,
            0,
            &mut scratch,
        )?
    };
    drop((elems, recs, corner_ids, shared));
    // Carried triangles were permuted with the elements; the others were
    // written by the leaves: in leaf order either way.
    let leaf_tris = if carry { tris } else { leaf_buf };
    Ok(Built {
        nodes: assemble(slots, used),
        tris: leaf_tris,
        ids: order,
    })
}

impl Builder {
    fn is_leaf(&self, n: usize, depth: u32) -> bool {
        n <= self.opts.max_leaf_size as usize || depth >= self.opts.max_depth
    }

    /// Builds the subtree over `prims` into `slots` (whose first element is
    /// global slot `slot_base`); `bv` is its volume (fitted by the parent,
    /// see [`Self::fit_x2`]) and `corner_room` has room for three corners
    /// per triangle, where the node lists its children's corners; `first`
    /// is the global position of `prims[0]` in the leaf order. Median and
    /// mean splits.
    #[allow(clippy::too_many_arguments)]
    fn node<T: Scalar, B: FitVolume<T>>(
        &self,
        shared: &Shared<'_, T>,
        slots: &mut [Node<B>],
        slot_base: u32,
        mut prims: Prims<'_, T>,
        bv: B,
        corner_room: &mut [u32],
        first: u32,
        depth: u32,
        scratch: &mut FitScratch<T>,
    ) -> Result<usize, FitError> {
        let n = prims.len();
        if self.is_leaf(n, depth) {
            return Ok(self.leaf(shared, &mut slots[0], prims, bv, first));
        }
        let cut = self.split(&bv, &mut prims);
        let k = cut.k;
        let right_slot = slot_base + 2 * k as u32;
        // The elements are partitioned in place, then one pass over each
        // child sums its moments and lists its corners (a child fitted
        // along axes from more than one triangle needs both; a lone
        // triangle is fitted from itself). A node of two triangles has
        // been ordered in place by `split`.
        let axis = &cut.axis;
        match cut.left {
            Left::Ranked => prims.partition_ranked(k),
            Left::BelowKey(mean) => prims.partition(k, |e, _| key_along(axis, e) < mean),
            Left::Ordered => {}
        }
        let (ls_ids, rs_ids) = corner_room.split_at_mut((3 * k).min(corner_room.len()));
        let (mut ls, mut rs) = (MomentSum::default(), MomentSum::default());
        let (mut lm, mut rm) = (0, 0);
        if shared.lists && k > 1 {
            for e in &prims.elems[..k] {
                ls.add(&e.m);
                shared.list(e, slot_base + 1, ls_ids, &mut lm);
            }
        }
        if shared.lists && n - k > 1 {
            for e in &prims.elems[k..] {
                rs.add(&e.m);
                shared.list(e, right_slot, rs_ids, &mut rm);
            }
        }
        slots[0] = Node {
            bv,
            child_or_first: right_slot,
            count: 0,
        };
        let (_, rest) = slots.split_at_mut(1);
        let (left_slots, right_slots) = rest.split_at_mut(2 * k - 1);
        let (lp, rp) = prims.split_at(k);
        let axes = self.axes_x2(shared, [&*lp.elems, &*rp.elems], [&ls, &rs]);
        let corners = [&ls_ids[..lm], &rs_ids[..rm]];
        let [lb, rb] = self.fit_x2(shared, [&lp, &rp], axes, corners, scratch)?;
        let (lf, rf) = (first, first + k as u32);
        let (left_slot, d) = (slot_base + 1, depth + 1);
        if n >= PARALLEL_THRESHOLD {
            // The left subtree keeps this thread's scratch; the right one,
            // which may run on another thread, takes a spare one (a
            // finished forked subtree's) or starts its own, and leaves it
            // as a spare. The scratch holds no state between fits, so the
            // tree does not depend on which one a subtree gets.
            let (l, r) = rayon::join(
                move || {
                    self.node(
                        shared, left_slots, left_slot, lp, lb, ls_ids, lf, d, scratch,
                    )
                },
                move || {
                    let spare = || shared.spare.lock().unwrap_or_else(PoisonError::into_inner);
                    let own = &mut spare().pop().unwrap_or_default();
                    let r = self.node(shared, right_slots, right_slot, rp, rb, rs_ids, rf, d, own);
                    spare().push(core::mem::take(own));
                    r
                },
            );
            Ok(1 + l? + r?)
        } else {
            // No closures on the sequential path: their captures would be
            // marshalled for every node; leaves are written directly.
            let l = if self.is_leaf(k, d) {
                self.leaf(shared, &mut left_slots[0], lp, lb, lf)
            } else {
                self.node(
                    shared, left_slots, left_slot, lp, lb, ls_ids, lf, d, scratch,
                )?
            };
            let r = if self.is_leaf(n - k, d) {
                self.leaf(shared, &mut right_slots[0], rp, rb, rf)
            } else {
                self.node(
                    shared,
                    right_slots,
                    right_slot,
                    rp,
                    rb,
                    rs_ids,
                    rf,
                    d,
                    scratch,
                )?
            };
            Ok(1 + l + r)
        }
    }

    /// Writes the leaf over `prims`, of volume `bv`, into `slot`, its
    /// triangles' ids into the leaf order, and the triangles themselves
    /// when the build collects them at the leaves (`prims.leaf_tris` not
    /// empty, as long as the elements); returns the number of nodes
    /// written (one).
    #[inline]
    fn leaf<T: Scalar, B: FitVolume<T>>(
        &self,
        shared: &Shared<'_, T>,
        slot: &mut Node<B>,
        prims: Prims<'_, T>,
        bv: B,
        first: u32,
    ) -> usize {
        for (o, e) in prims.order.iter_mut().zip(prims.elems.iter()) {
            *o = e.id;
        }
        if !prims.leaf_tris.is_empty() {
            assert_eq!(prims.leaf_tris.len(), prims.elems.len());
            for (t, e) in prims.leaf_tris.iter_mut().zip(prims.elems.iter()) {
                *t = shared.source.triangle_at(e.corners);
            }
        }
        *slot = Node {
            bv,
            child_or_first: first,
            count: prims.len() as u32,
        };
        1
    }
}
