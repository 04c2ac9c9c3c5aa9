//! What every node of the median/mean builder reads: the mesh, and the
//! per-vertex stamps by which a parent lists its children's distinct
//! corners.

use crate::build::CornerSource;
use crate::build::partition::{Elem, Prims};
use clash_bv::{FitError, FitScratch, IndexedPoints};
use clash_math::{Matrix3, Scalar, Triangle};
use core::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

/// What every node of the median/mean builder reads: the mesh's vertices
/// and index triples (triangles by id), and one stamp per
/// vertex: the slot of the last node whose corner list took it. A parent
/// lists its children's corners (left child, then right) as it moves their
/// elements; siblings built on different threads share vertices, so a stamp
/// can be overwritten between two corners of one node, and the vertex is
/// then listed twice, which changes no extent (a minimum or maximum over a
/// repeated point), so the fit does not depend on the schedule. A vertex is
/// never missed: a node's slot is unique, so the first of its corners at a
/// vertex always finds another stamp. A list never exceeds three entries
/// per triangle.
pub(super) struct Shared<'a, T: Scalar> {
    pub(super) source: CornerSource<'a, T>,
    /// Empty when no node fits along axes (`lists` false).
    pub(super) stamps: Vec<AtomicU32>,
    pub(super) lists: bool,
    /// Fit scratch returned by finished subtrees that were forked off
    /// (see [`Builder::node`]), for the next forked subtree to reuse
    /// (mapped memory, of the size the fits there need) instead of
    /// growing a fresh one.
    pub(super) spare: Mutex<Vec<FitScratch<T>>>,
}

impl<T: Scalar> Shared<'_, T> {
    /// A lone triangle's frame ([`clash_bv::lone_triangle_axes`]); `None`
    /// for a degenerate or overflowing one (a non-finite corner makes the
    /// area non-finite).
    pub(super) fn lone_axes(&self, e: &Elem) -> Option<Matrix3<T>> {
        if e.m.area > 0.0 && e.m.area.is_finite() {
            let v = self.source.vertices;
            let [a, b, c] = e.corners.map(|i| v[i as usize]);
            clash_bv::lone_triangle_axes(&Triangle::new(a, b, c))
        } else {
            None
        }
    }

    /// [`Self::lone_axes`] of two lone triangles, computed side by side
    /// ([`clash_bv::lone_triangle_axes_x2`], bit for bit the single
    /// answers); a lane whose triangle fails the area check computes on it
    /// all the same, and answers `None`.
    pub(super) fn lone_axes_x2(&self, e: [&Elem; 2]) -> [Option<Matrix3<T>>; 2] {
        let v = self.source.vertices;
        let t = e.map(|e| {
            let [a, b, c] = e.corners.map(|i| v[i as usize]);
            Triangle::new(a, b, c)
        });
        let axes = clash_bv::lone_triangle_axes_x2([&t[0], &t[1]]);
        let ok = e.map(|e| e.m.area > 0.0 && e.m.area.is_finite());
        [0, 1].map(|l| if ok[l] { axes[l] } else { None })
    }

    /// A node's distinct corners, as its parent listed them in `listed`,
    /// or a lone triangle's own corners (which its parent does not list).
    pub(super) fn corners<'a>(
        &'a self,
        prims: &'a Prims<'_, T>,
        listed: &'a [u32],
    ) -> Result<IndexedPoints<'a, T>, FitError> {
        let ids = match &*prims.elems {
            [e] => &e.corners[..],
            _ => listed,
        };
        IndexedPoints::new(self.source.vertices, ids)
    }

    /// Appends the corners of triangle `id` not yet stamped `slot` to
    /// `out[*m..]`. Branch-free (whether a corner is new is as good as
    /// random): each corner is written at `out[*m]` and kept only if new,
    /// which stays in bounds since `out` has room for every corner visited.
    #[inline(always)]
    pub(super) fn list(&self, e: &Elem, slot: u32, out: &mut [u32], m: &mut usize) {
        for &v in &e.corners {
            let stamp = &self.stamps[v as usize];
            let new = stamp.load(Ordering::Relaxed) != slot;
            stamp.store(slot, Ordering::Relaxed);
            out[*m] = v;
            *m += new as usize;
        }
    }
}
