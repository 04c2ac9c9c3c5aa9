//! Parallel batch queries over rayon; results come back in input order,
//! and do not depend on the number of threads.
//!
//! Batches run on the current rayon pool (rayon's global pool, one thread
//! per core, unless called inside another pool); [`BatchOptions::run`] runs
//! any batch on a pool of the size asked for instead.

use crate::{BatchError, BvPair, Bvh, CollisionRequest, CollisionResult};
use clash_bv::{BoundingVolume, RelativePose};
use clash_math::{Isometry3, Scalar};
use rayon::prelude::*;

/// A pose as batches take it: an [`Isometry3`], or a [`RelativePose`] (a
/// rotation matrix used exactly as given, as the command line and the
/// Python package read poses). The single queries take the same two types
/// through `impl Into<RelativePose<T>>`.
pub trait PoseInput<T: Scalar>: Sync {
    /// The pose in the form the traversals use.
    fn relative_pose(&self) -> RelativePose<T>;
}

impl<T: Scalar> PoseInput<T> for Isometry3<T> {
    #[inline]
    fn relative_pose(&self) -> RelativePose<T> {
        RelativePose::new(self)
    }
}

impl<T: Scalar> PoseInput<T> for RelativePose<T> {
    #[inline]
    fn relative_pose(&self) -> RelativePose<T> {
        *self
    }
}

/// How a batch runs: on the current rayon pool (`threads: None`, the
/// default) or on a pool of its own with `threads: Some(n)` workers, started
/// for the call and stopped after it (`Some(0)`: one per core). Answers are
/// the same for every thread count.
///
/// ```
/// use clash_bvh::{BatchOptions, BuildOptions, Bvh, TriMesh};
/// use clash_bv::Aabb;
/// use clash_math::{Isometry3, Point3};
/// let tri = TriMesh::new(
///     vec![Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)],
///     vec![[0, 1, 2]],
/// )?;
/// let tree: Bvh<f64, Aabb<f64>> = Bvh::build(tri, &BuildOptions::default())?;
/// let poses: Vec<_> = (0..100).map(|i| Isometry3::translation(0.0, 0.0, i as f64 * 0.01)).collect();
/// let two = BatchOptions::threads(2).run(|| tree.intersects_poses(&tree, &poses))?;
/// assert_eq!(two, tree.intersects_poses(&tree, &poses));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BatchOptions {
    /// Workers of the batch's own pool; `None` for the current pool.
    pub threads: Option<usize>,
}

impl BatchOptions {
    /// Options for a pool of `n` workers (`0`: one per core).
    pub const fn threads(n: usize) -> Self {
        Self { threads: Some(n) }
    }

    /// Runs `f` on the pool these options name: rayon's parallel iterators
    /// inside `f`, the batch functions among them, use its workers.
    ///
    /// # Errors
    /// [`BatchError::Threads`] when the pool's threads cannot be started.
    pub fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> Result<R, BatchError> {
        match self.threads {
            None => Ok(f()),
            Some(threads) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|source| BatchError::Threads { threads, source })?;
                Ok(pool.install(f))
            }
        }
    }
}

impl<T: Scalar, B: BoundingVolume<T>> Bvh<T, B> {
    /// [`Bvh::collide`] for many poses of `other` relative to `self`, in
    /// parallel on the current rayon pool (see [`BatchOptions`]); `result[i]`
    /// answers `poses[i]`, given as [`Isometry3`]s or [`RelativePose`]s.
    pub fn collide_poses<B2: BoundingVolume<T>, P: PoseInput<T>>(
        &self,
        other: &Bvh<T, B2>,
        poses: &[P],
        request: &CollisionRequest,
    ) -> Vec<CollisionResult>
    where
        B: BvPair<T, B2>,
    {
        poses
            .par_iter()
            .map(|pose| self.collide(other, pose.relative_pose(), request))
            .collect()
    }

    /// [`Bvh::intersects`] for many poses, in parallel on the current rayon
    /// pool (see [`BatchOptions`]); `result[i]` answers `poses[i]`.
    pub fn intersects_poses<B2: BoundingVolume<T>, P: PoseInput<T>>(
        &self,
        other: &Bvh<T, B2>,
        poses: &[P],
    ) -> Vec<bool>
    where
        B: BvPair<T, B2>,
    {
        poses
            .par_iter()
            .map(|pose| self.intersects(other, pose.relative_pose()))
            .collect()
    }
}

/// One job of [`collide_pairs`]: two trees and the pose of the second in the
/// first's frame (an [`Isometry3`] unless `P` names another [`PoseInput`]).
pub type TreePair<'a, T, B, B2, P = Isometry3<T>> = (&'a Bvh<T, B>, &'a Bvh<T, B2>, P);

/// [`Bvh::collide`] for many pairs of trees, each with the pose of its second
/// tree in the first one's frame, in parallel on the current rayon pool (see
/// [`BatchOptions`]); `result[i]` answers `pairs[i]`.
pub fn collide_pairs<T, B, B2, P>(
    pairs: &[TreePair<'_, T, B, B2, P>],
    request: &CollisionRequest,
) -> Vec<CollisionResult>
where
    T: Scalar,
    B: BoundingVolume<T> + BvPair<T, B2>,
    B2: BoundingVolume<T>,
    P: PoseInput<T>,
{
    pairs
        .par_iter()
        .map(|(a, b, pose)| a.collide(b, pose.relative_pose(), request))
        .collect()
}
