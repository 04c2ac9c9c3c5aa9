//! [`TreeVolume`]: every trait a tree's volume type takes, in one bound.

use crate::{BvPair, BvQuery};
use clash_bv::{FitVolume, FlatVolume};
use clash_math::Scalar;

/// A volume type a tree can be built with ([`FitVolume`]), saved and loaded
/// with ([`FlatVolume`]), and queried with: against shapes and rays
/// ([`BvQuery`]) and against another tree of the same type
/// ([`BvPair<T, Self>`](BvPair)). Implemented for every type that has those
/// traits, which includes every volume of clash-bv: a function that does
/// all of these needs only `B: TreeVolume<T>`. Functions that only query
/// take [`BoundingVolume`](clash_bv::BoundingVolume).
///
/// ```
/// use clash_bv::{Obb, Rss};
/// use clash_bvh::{BuildOptions, Bvh, TreeVolume, TriMesh};
/// use clash_math::{Isometry3, Point3, Scalar};
///
/// /// Builds a tree, saves and reloads it, and tests it against itself.
/// fn round_trip<T: Scalar, B: TreeVolume<T>>(mesh: TriMesh<T>) -> bool {
///     let tree = Bvh::<T, B>::build(mesh, &BuildOptions::default()).unwrap();
///     let loaded = Bvh::<T, B>::from_bytes(&tree.to_bytes()).unwrap();
///     loaded.intersects(&tree, &Isometry3::identity())
/// }
/// let mesh = TriMesh::new(
///     vec![Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)],
///     vec![[0, 1, 2]],
/// )?;
/// assert!(round_trip::<f64, Obb<f64>>(mesh.clone()));
/// assert!(round_trip::<f64, Rss<f64>>(mesh));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait TreeVolume<T: Scalar>:
    FitVolume<T> + FlatVolume<T> + BvQuery<T> + BvPair<T, Self>
{
}

impl<T: Scalar, B> TreeVolume<T> for B where
    B: FitVolume<T> + FlatVolume<T> + BvQuery<T> + BvPair<T, B>
{
}
