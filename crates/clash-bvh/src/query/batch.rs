//! Parallel batch queries over rayon; results come back in input order.

use crate::{BvPair, Bvh, CollisionRequest, CollisionResult};
use clash_bv::BoundingVolume;
use clash_math::{Isometry3, Scalar};
use rayon::prelude::*;

impl<T: Scalar, B: BoundingVolume<T>> Bvh<T, B> {
    /// [`Bvh::collide`] for many poses of `other` relative to `self`, in
    /// parallel on the current rayon pool; `result[i]` answers `poses[i]`.
    pub fn collide_poses<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        poses: &[Isometry3<T>],
        request: &CollisionRequest,
    ) -> Vec<CollisionResult>
    where
        B: BvPair<T, B2>,
    {
        poses
            .par_iter()
            .map(|pose| self.collide(other, pose, request))
            .collect()
    }

    /// [`Bvh::intersects`] for many poses, in parallel; `result[i]` answers `poses[i]`.
    pub fn intersects_poses<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        poses: &[Isometry3<T>],
    ) -> Vec<bool>
    where
        B: BvPair<T, B2>,
    {
        poses
            .par_iter()
            .map(|pose| self.intersects(other, pose))
            .collect()
    }
}

/// One job of [`collide_pairs`]: two trees and the pose of the second in the first's frame.
pub type TreePair<'a, T, B, B2> = (&'a Bvh<T, B>, &'a Bvh<T, B2>, Isometry3<T>);

/// [`Bvh::collide`] for many pairs of trees, each with the pose of its second
/// tree in the first one's frame, in parallel; `result[i]` answers `pairs[i]`.
pub fn collide_pairs<T: Scalar, B: BoundingVolume<T> + BvPair<T, B2>, B2: BoundingVolume<T>>(
    pairs: &[TreePair<'_, T, B, B2>],
    request: &CollisionRequest,
) -> Vec<CollisionResult> {
    pairs
        .par_iter()
        .map(|(a, b, pose)| a.collide(b, pose, request))
        .collect()
}
