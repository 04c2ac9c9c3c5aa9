//! Tree types by volume, so a program names its scalar once:
//! `ObbTree<f64>` is `Bvh<f64, Obb<f64>>`.

use crate::Bvh;
use clash_bv::{Aabb, Capsule, Kdop14, Kdop18, Kdop26, Obb, Rss, Sphere};

/// A tree of axis-aligned boxes: `Bvh<T, Aabb<T>>`.
pub type AabbTree<T> = Bvh<T, Aabb<T>>;

/// A tree of oriented boxes: `Bvh<T, Obb<T>>`.
///
/// ```
/// use clash_bvh::{BuildOptions, ObbTree, TriMesh};
/// use clash_math::{Isometry3, Point3};
/// let tri = TriMesh::new(
///     vec![Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)],
///     vec![[0, 1, 2]],
/// )?;
/// let tree = ObbTree::<f64>::build(tri, &BuildOptions::default())?;
/// assert!(tree.intersects(&tree, &Isometry3::translation(0.5, 0.0, 0.0)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type ObbTree<T> = Bvh<T, Obb<T>>;

/// A tree of bounding spheres: `Bvh<T, Sphere<T>>`.
pub type SphereTree<T> = Bvh<T, Sphere<T>>;

/// A tree of capsules: `Bvh<T, Capsule<T>>`.
pub type CapsuleTree<T> = Bvh<T, Capsule<T>>;

/// A tree of rectangle swept spheres: `Bvh<T, Rss<T>>`.
pub type RssTree<T> = Bvh<T, Rss<T>>;

/// A tree of 14-DOPs: `Bvh<T, Kdop14<T>>`.
pub type Kdop14Tree<T> = Bvh<T, Kdop14<T>>;

/// A tree of 18-DOPs: `Bvh<T, Kdop18<T>>`.
pub type Kdop18Tree<T> = Bvh<T, Kdop18<T>>;

/// A tree of 26-DOPs: `Bvh<T, Kdop26<T>>`.
pub type Kdop26Tree<T> = Bvh<T, Kdop26<T>>;
