//! Top-down construction (RTCD §6.2.1, Eberly §6.2), parallel with
//! `rayon::join` and bit-identical on any number of threads.
//!
//! Two builders share the options (`options.rs`), the mesh they read
//! ([`CornerSource`]) and what they return ([`Built`]); neither imports the
//! other: the median/mean builder (`median/`, over the in-place partition
//! of `partition.rs`) and the binned-SAH builder (`sah/`). [`build`] picks
//! one by the split rule.

mod median;
mod options;
pub(crate) mod partition;
pub(crate) mod prefault;
mod sah;

pub use options::{BuildOptions, DEFAULT_TIGHT_ABOVE, FitQuality, MAX_DEPTH, SplitRule};

use crate::Node;
use clash_bv::{FitError, FitVolume};
use clash_math::{Point3, Scalar, Triangle};
use rayon::prelude::*;

/// Subtrees with fewer triangles than this are built on the current thread.
pub(crate) const PARALLEL_THRESHOLD: usize = 2048;

/// Output of the builder: nodes in preorder, triangles and ids in leaf order.
pub(crate) struct Built<T: Scalar, B> {
    pub nodes: Vec<Node<B>>,
    pub tris: Vec<Triangle<T>>,
    pub ids: Vec<u32>,
}

/// A mesh's vertices and triangle indices, from which the median/mean
/// builder lists each node's distinct corners for the fits along axes
/// ([`FitVolume::fit_along_axes`]): about six times fewer points than
/// three corners per triangle on a closed mesh.
#[derive(Clone, Copy)]
pub(crate) struct CornerSource<'a, T: Scalar> {
    pub vertices: &'a [Point3<T>],
    pub indices: &'a [[u32; 3]],
}

impl<T: Scalar> CornerSource<'_, T> {
    /// Triangle `id` of the mesh.
    #[inline]
    fn triangle(&self, id: usize) -> Triangle<T> {
        self.triangle_at(self.indices[id])
    }

    /// The triangle of the vertices at `corners`.
    #[inline(always)]
    fn triangle_at(&self, [a, b, c]: [u32; 3]) -> Triangle<T> {
        let v = self.vertices;
        Triangle::new(v[a as usize], v[b as usize], v[c as usize])
    }

    /// The triangles `0..n` in parallel (order-preserving).
    fn triangles(&self) -> Vec<Triangle<T>> {
        (0..self.indices.len())
            .into_par_iter()
            .map(|i| self.triangle(i))
            .collect()
    }
}

/// The tree over `corners`' triangles built as `opts` asks: the binned-SAH
/// builder for [`SplitRule::Sah`], else the median/mean builder.
pub(crate) fn build<T: Scalar, B: FitVolume<T>>(
    corners: CornerSource<'_, T>,
    opts: &BuildOptions,
) -> Result<Built<T, B>, FitError> {
    match opts.split {
        SplitRule::Sah { .. } => sah::build(corners, opts),
        SplitRule::Median | SplitRule::Mean => median::build(corners, opts),
    }
}
