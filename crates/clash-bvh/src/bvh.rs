//! [`Bvh`]: a bounding volume hierarchy over a [`TriMesh`].

use crate::build::{self, BuildOptions};
use crate::query::containment::component_vertices;
use crate::{BuildError, Node, TriMesh};
use clash_bv::{BoundingVolume, FitVolume, FlatVolume};
use clash_math::{Point3, Scalar, Triangle};
use std::marker::PhantomData;
use std::sync::OnceLock;

/// A bounding volume hierarchy over a triangle mesh, generic over the
/// precision `T` and the volume type `B` (any [`BoundingVolume`] of
/// clash-bv: AABB, OBB, RSS, sphere, capsule, k-DOP). Queries take the
/// geometry alone; building and refitting also take [`FitVolume`], saving,
/// loading and validating [`FlatVolume`] ([`crate::TreeVolume`] is all of
/// them).
///
/// The tree is one contiguous node array in depth-first preorder (RTCD §6.6.2),
/// left child adjacent, right child by 32-bit index, with a copy of the
/// triangles reordered so that each leaf's triangles are contiguous. Every
/// answer names triangles by their index in the mesh as given.
///
/// ```
/// use clash_bvh::{Bvh, BuildOptions, TriMesh};
/// use clash_bv::Obb;
/// use clash_math::{Isometry3, Point3, Vector3};
///
/// let mesh = TriMesh::new(
///     vec![Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0)],
///     vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
/// )?;
/// let tree: Bvh<f64, Obb<f64>> = Bvh::build(mesh, &BuildOptions::default())?;
/// let near = Isometry3::translation(0.5, 0.0, 0.0);
/// let far = Isometry3::translation(5.0, 0.0, 0.0);
/// assert!(tree.intersects(&tree, &near));
/// assert!(!tree.intersects(&tree, &far));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Bvh<T: Scalar, B: BoundingVolume<T>> {
    pub(crate) mesh: TriMesh<T>,
    pub(crate) nodes: Vec<Node<B>>,
    /// Mesh triangle index of each position in leaf order.
    pub(crate) order: Vec<u32>,
    /// The triangles in leaf order (derived from `mesh` and `order`).
    pub(crate) leaf_tris: Vec<Triangle<T>>,
    pub(crate) options: BuildOptions,
    /// Derived lazily: whether the mesh is closed, and one vertex per
    /// connected piece (both only needed by containment queries).
    pub(crate) topology: OnceLock<Topology>,
    /// Derived lazily: pseudo-normals for signed distance.
    pub(crate) pseudo_normals: OnceLock<crate::query::closest_point::PseudoNormals<T>>,
    /// Derived lazily: the 8-wide layout ray and closest-point queries traverse.
    pub(crate) ray_layout: OnceLock<crate::query::ray::wide::WideBvh<T>>,
    pub(crate) _scalar: PhantomData<T>,
}

impl<T: Scalar, B: BoundingVolume<T>> Bvh<T, B> {
    /// The mesh the tree was built over.
    pub fn mesh(&self) -> &TriMesh<T> {
        &self.mesh
    }

    /// The nodes in depth-first preorder; node 0 is the root.
    pub fn nodes(&self) -> &[Node<B>] {
        &self.nodes
    }

    /// The root's bounding volume.
    pub fn root_bv(&self) -> &B {
        &self.nodes[0].bv
    }

    /// Mesh triangle indices in leaf order: leaf ranges index into this.
    pub fn leaf_order(&self) -> &[u32] {
        &self.order
    }

    /// The options the tree was built with.
    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    /// `true` when the mesh is closed (every edge shared by two oppositely
    /// wound triangles, by vertex index); containment queries need it.
    pub fn is_closed(&self) -> bool {
        self.topology().closed
    }

    pub(crate) fn topology(&self) -> &Topology {
        self.topology.get_or_init(|| Topology {
            closed: self.mesh.is_closed(),
            component_vertices: component_vertices(self.mesh.indices(), self.mesh.vertices().len()),
        })
    }

    /// The triangle at position `pos` in leaf order, with its mesh index.
    #[inline(always)]
    pub(crate) fn leaf_triangle(&self, pos: usize) -> (&Triangle<T>, u32) {
        (&self.leaf_tris[pos], self.order[pos])
    }

    /// Depth of the tree (a single leaf has depth 0).
    pub fn depth(&self) -> u32 {
        let mut max = 0;
        let mut stack = vec![(0u32, 0u32)];
        while let Some((i, d)) = stack.pop() {
            max = max.max(d);
            if let Some((l, r)) = self.nodes[i as usize].children(i) {
                stack.push((l, d + 1));
                stack.push((r, d + 1));
            }
        }
        max
    }

    /// Summary figures of the tree.
    pub fn stats(&self) -> TreeStats {
        let leaves = self.nodes.iter().filter(|n| n.is_leaf()).count();
        TreeStats {
            triangles: self.mesh.num_triangles(),
            vertices: self.mesh.vertices().len(),
            nodes: self.nodes.len(),
            leaves,
            depth: self.depth(),
            memory_bytes: self.nodes.len() * core::mem::size_of::<Node<B>>()
                + self.order.len() * 4
                + self.leaf_tris.len() * core::mem::size_of::<Triangle<T>>()
                + core::mem::size_of_val(self.mesh.vertices())
                + self.mesh.num_triangles() * 12,
            sah_cost: self.sah_cost_by(|bv| {
                if B::SURFACE_AREA_IS_COSTLY {
                    bv.aabb().surface_area()
                } else {
                    bv.surface_area()
                }
            }),
            sah_cost_exact: !B::SURFACE_AREA_IS_COSTLY,
        }
    }

    /// The SAH cost measure ([`TreeStats::sah_cost`]) from the volumes'
    /// exact surface areas, for every volume type. For k-DOPs this solves
    /// each node's polytope vertices ([`BoundingVolume::SURFACE_AREA_IS_COSTLY`]),
    /// which is slow on large trees, so [`Self::stats`] measures their axis-aligned
    /// boxes instead; for the other types it equals `stats().sah_cost`.
    ///
    /// ```
    /// use clash_bv::{Aabb, Kdop14};
    /// use clash_bvh::{BuildOptions, Bvh, TriMesh};
    /// use clash_math::Point3;
    /// let mesh = TriMesh::new(
    ///     vec![Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0)],
    ///     vec![[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]],
    /// ).unwrap();
    /// let aabb = Bvh::<f64, Aabb<f64>>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    /// assert_eq!(aabb.exact_sah_cost(), aabb.stats().sah_cost);
    /// let kdop = Bvh::<f64, Kdop14<f64>>::build(mesh, &BuildOptions::default()).unwrap();
    /// assert!(!kdop.stats().sah_cost_exact && kdop.exact_sah_cost() > 0.0);
    /// ```
    pub fn exact_sah_cost(&self) -> f64 {
        self.sah_cost_by(|bv| bv.surface_area())
    }

    /// Sum of `area` over the internal nodes' volumes, over the root's.
    fn sah_cost_by(&self, area: impl Fn(&B) -> T) -> f64 {
        self.nodes
            .iter()
            .filter(|n| !n.is_leaf())
            .map(|n| area(&n.bv).to_f64())
            .sum::<f64>()
            / area(&self.nodes[0].bv).to_f64().max(f64::MIN_POSITIVE)
    }

    /// The tree of checked parts: `leaf_tris` must be [`leaf_triangles`]
    /// of the mesh and the leaf order.
    pub(crate) fn from_parts(
        mesh: TriMesh<T>,
        nodes: Vec<Node<B>>,
        order: Vec<u32>,
        leaf_tris: Vec<Triangle<T>>,
        options: BuildOptions,
    ) -> Self {
        Self {
            mesh,
            nodes,
            order,
            leaf_tris,
            options,
            topology: OnceLock::new(),
            pseudo_normals: OnceLock::new(),
            ray_layout: OnceLock::new(),
            _scalar: PhantomData,
        }
    }
}

impl<T: Scalar, B: FitVolume<T>> Bvh<T, B> {
    /// Builds the tree top-down (see [`BuildOptions`] and the `build` module
    /// docs), in parallel on the current rayon pool. The result is
    /// bit-identical whatever the number of threads.
    ///
    /// # Errors
    /// [`BuildError::InvalidOptions`] for out-of-range options.
    pub fn build(mesh: TriMesh<T>, options: &BuildOptions) -> Result<Self, BuildError> {
        options.validate()?;
        let options = options.for_volume::<T, B>();
        let corners = build::CornerSource {
            vertices: mesh.vertices(),
            indices: mesh.indices(),
        };
        let built = build::build::<T, B>(corners, &options)?;
        Ok(Self {
            mesh,
            nodes: built.nodes,
            order: built.ids,
            leaf_tris: built.tris,
            options,
            topology: OnceLock::new(),
            pseudo_normals: OnceLock::new(),
            ray_layout: OnceLock::new(),
            _scalar: PhantomData,
        })
    }

    /// Refits the tree to new vertex positions of a mesh with the same
    /// topology (a deformed mesh), bottom-up without rebuilding (RTCD §6.5):
    /// leaves are fitted to their triangles and internal nodes merge their
    /// children. Queries stay exact; only pruning may get looser if the
    /// deformation is large.
    ///
    /// # Errors
    /// [`MeshError::VertexCountMismatch`](crate::MeshError::VertexCountMismatch) or [`MeshError::NonFiniteVertex`](crate::MeshError::NonFiniteVertex);
    /// the tree is unchanged on error.
    pub fn refit(&mut self, vertices: &[Point3<T>]) -> Result<(), BuildError> {
        self.mesh.set_vertices(vertices).map_err(BuildError::Mesh)?;
        self.ray_layout = OnceLock::new();
        self.pseudo_normals = OnceLock::new();
        for (pos, &id) in self.order.iter().enumerate() {
            self.leaf_tris[pos] = self.mesh.triangle(id as usize);
        }
        for i in (0..self.nodes.len()).rev() {
            let bv = match self.nodes[i].triangle_range() {
                Some(range) => self.options.fit.fit(&self.leaf_tris[range])?,
                None => {
                    let right = self.nodes[i].child_or_first as usize;
                    self.nodes[i + 1].bv.merge(&self.nodes[right].bv)
                }
            };
            self.nodes[i].bv = bv;
        }
        Ok(())
    }
}

impl<T: Scalar, B: FlatVolume<T>> Bvh<T, B> {
    /// Checks every structural invariant: preorder child links in range,
    /// leaves covering each triangle exactly once, every volume containing
    /// the triangles below it exactly (by [`BoundingVolume::contains_point`]
    /// on their corners, or for a child's whole subtree by
    /// [`BoundingVolume::contains_volume`] of the child's volume), and every
    /// volume well formed ([`BoundingVolume::is_well_formed`]: finite,
    /// orthonormal axes). Loading ([`crate::io`]) checks the same.
    ///
    /// # Errors
    /// The first broken invariant found, naming the node or triangle
    /// involved ([`ValidationError`](crate::ValidationError)).
    ///
    /// ```
    /// use clash_bv::Rss;
    /// use clash_bvh::{BuildOptions, Bvh, TriMesh};
    /// use clash_math::Point3;
    /// let mesh = TriMesh::new(
    ///     vec![Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0)],
    ///     vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
    /// ).unwrap();
    /// let tree = Bvh::<f64, Rss<f64>>::build(mesh, &BuildOptions::default()).unwrap();
    /// assert_eq!(tree.validate(), Ok(()));
    /// ```
    pub fn validate(&self) -> Result<(), crate::ValidationError> {
        crate::validate::validate(self)
    }
}

/// The mesh's triangles in leaf order (`order` in range), copied on every
/// thread of the current rayon pool.
pub(crate) fn leaf_triangles<T: Scalar>(mesh: &TriMesh<T>, order: &[u32]) -> Vec<Triangle<T>> {
    use rayon::prelude::*;
    let mut leaf_tris = Vec::with_capacity(order.len());
    crate::build::prefault::prefault(leaf_tris.spare_capacity_mut());
    order
        .par_iter()
        .with_min_len(16 * 1024)
        .map(|&i| mesh.triangle(i as usize))
        .collect_into_vec(&mut leaf_tris);
    leaf_tris
}

/// Two trees are equal when their meshes, nodes, leaf order and options are
/// (the lazily derived topology is not compared).
impl<T: Scalar, B: BoundingVolume<T>> PartialEq for Bvh<T, B> {
    fn eq(&self, other: &Self) -> bool {
        self.mesh == other.mesh
            && self.nodes == other.nodes
            && self.order == other.order
            && self.options == other.options
    }
}

/// Mesh topology that containment queries need, computed on first use.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Topology {
    pub closed: bool,
    pub component_vertices: Vec<u32>,
}

/// Summary figures of a tree, from [`Bvh::stats`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TreeStats {
    /// Triangles in the mesh.
    pub triangles: usize,
    /// Vertices in the mesh.
    pub vertices: usize,
    /// Nodes in the tree.
    pub nodes: usize,
    /// Leaves in the tree.
    pub leaves: usize,
    /// Depth (root = 0).
    pub depth: u32,
    /// Heap memory held by the tree and its mesh, in bytes.
    pub memory_bytes: usize,
    /// Sum of internal node surface areas over the root's: the SAH cost
    /// measure (lower is better for ray queries). Exact when
    /// [`Self::sah_cost_exact`]; otherwise (k-DOPs) the areas are those of
    /// the volumes' axis-aligned boxes, and [`Bvh::exact_sah_cost`] gives
    /// the exact figure on request.
    pub sah_cost: f64,
    /// Whether [`Self::sah_cost`] sums the volumes' own surface areas
    /// (`false`: their axis-aligned boxes', see
    /// [`clash_bv::BoundingVolume::SURFACE_AREA_IS_COSTLY`]).
    pub sah_cost_exact: bool,
}
