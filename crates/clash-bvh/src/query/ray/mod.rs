//! Ray casts against a mesh (RTCD §6.3 traversal, ending in clash-narrow's
//! watertight ray/triangle test).

mod order;
pub use order::RayOrder;
mod scatter;
pub(crate) mod wide;

use crate::{BvQuery, Bvh, PreparedRay};
use clash_math::{Point3, Ray, Scalar, Vector3};
use clash_narrow::cast::{BarycentricHit, Culling, ShearedRay};
use rayon::prelude::*;
use wide::WideBvh;

/// A ray hit on a mesh.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshRayHit<T: Scalar> {
    /// Index of the triangle hit, in the mesh as given.
    pub triangle: u32,
    /// Ray parameter of the hit.
    pub t: T,
    /// Barycentric weights of the triangle's corners `a`, `b`, `c`.
    pub barycentric: [T; 3],
    /// The hit point.
    pub point: Point3<T>,
    /// Unit normal of the triangle (counter-clockwise winding), not flipped towards the ray.
    pub normal: Vector3<T>,
}

/// Which part of the ray to search and which sides of the triangles count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayQuery<T: Scalar> {
    /// Smallest accepted parameter; `-∞` accepts the whole line before
    /// `t_max` (a hit behind the origin has a negative parameter).
    pub t_min: T,
    /// Largest accepted parameter.
    pub t_max: T,
    /// Both sides, or front faces only.
    pub culling: Culling,
}

impl<T: Scalar> Default for RayQuery<T> {
    /// The whole ray, both sides.
    fn default() -> Self {
        Self {
            t_min: T::ZERO,
            t_max: T::INFINITY,
            culling: Culling::BothSides,
        }
    }
}

impl<T: Scalar> RayQuery<T> {
    /// The interval `[t_min, t_max]`, both sides.
    pub fn within(t_min: T, t_max: T) -> Self {
        Self {
            t_min,
            t_max,
            culling: Culling::BothSides,
        }
    }
}

impl<T: Scalar, B: BvQuery<T>> Bvh<T, B> {
    /// The closest hit of `ray` on the mesh within the query's interval (the
    /// smallest `t`; among equal `t`, the smallest triangle index), or `None`.
    ///
    /// Watertight: a ray through an edge or vertex shared by triangles of
    /// the mesh hits one of them (see [`clash_narrow::cast::ray_triangle`]),
    /// and volumes are tested conservatively, so no ray slips through.
    /// Children are visited nearest entry first; no allocation.
    ///
    /// ```
    /// use clash_bvh::{Bvh, BuildOptions, RayQuery, TriMesh};
    /// use clash_bv::Aabb;
    /// use clash_math::{Point3, Ray, Vector3};
    /// let mesh = TriMesh::new(
    ///     vec![Point3::new(0.0_f32, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)],
    ///     vec![[0, 1, 2]],
    /// )?;
    /// let tree: Bvh<f32, Aabb<f32>> = Bvh::build(mesh, &BuildOptions::sah())?;
    /// let ray = Ray::new(Point3::new(0.25, 0.25, 2.0), Vector3::new(0.0, 0.0, -1.0));
    /// let hit = tree.cast_ray(&ray, &RayQuery::default()).unwrap();
    /// assert_eq!((hit.triangle, hit.t), (0, 2.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cast_ray(&self, ray: &Ray<T>, query: &RayQuery<T>) -> Option<MeshRayHit<T>> {
        // Only the best hit's point and normal are computed, at the end.
        let mut best: Option<(usize, BarycentricHit<T>)> = None;
        self.ray_traverse(ray, query, |pos, hit| {
            let better = best.is_none_or(|(bp, b)| {
                hit.t < b.t || (hit.t == b.t && self.order[pos] < self.order[bp])
            });
            if better {
                // The answer names the mesh triangle: start fetching its
                // index while the traversal goes on.
                clash_math::prefetch::prefetch(self.order.as_ptr().wrapping_add(pos));
                best = Some((pos, hit));
            }
            (best.map_or(query.t_max, |(_, b)| b.t), false)
        });
        best.map(|(pos, hit)| self.mesh_ray_hit(pos, &hit))
    }

    /// Some hit of `ray` within the interval (the first found), or `None`:
    /// the cheapest occlusion test.
    pub fn cast_ray_any(&self, ray: &Ray<T>, query: &RayQuery<T>) -> Option<MeshRayHit<T>> {
        let mut found = None;
        self.ray_traverse(ray, query, |pos, hit| {
            found = Some((pos, hit));
            (query.t_max, true)
        });
        found.map(|(pos, hit)| self.mesh_ray_hit(pos, &hit))
    }

    /// Every hit of `ray` within the interval, sorted by `t`, then triangle
    /// index; `out` is cleared first (reuse it across calls to avoid allocation).
    pub fn cast_ray_all(&self, ray: &Ray<T>, query: &RayQuery<T>, out: &mut Vec<MeshRayHit<T>>) {
        out.clear();
        self.ray_traverse(ray, query, |pos, hit| {
            out.push(self.mesh_ray_hit(pos, &hit));
            (query.t_max, false)
        });
        out.sort_by(|a, b| {
            a.t.partial_cmp(&b.t)
                .unwrap_or(core::cmp::Ordering::Equal)
                .then(a.triangle.cmp(&b.triangle))
        });
    }

    /// [`Self::cast_ray`] for many rays in parallel; `result[i]` answers
    /// `rays[i]`, and is the same answer, bit for bit, whatever the thread
    /// count.
    ///
    /// A batch of a few thousand rays or more on a tree larger than a common
    /// last-level cache is traced in a coherent order rather than as given
    /// ([`RayOrder::Auto`]): sorted by where each ray enters the bounds of the
    /// mesh and which way it points, so that consecutive rays visit mostly
    /// the same nodes and find them in cache. The answers are written back
    /// in input order; the order is deterministic, and changes no answer.
    /// [`Self::cast_rays_with`] chooses the order.
    ///
    /// ```
    /// use clash_bvh::{Bvh, BuildOptions, RayQuery, TriMesh};
    /// use clash_bv::Aabb;
    /// use clash_math::{Point3, Ray, Vector3};
    /// let mesh = TriMesh::new(
    ///     vec![Point3::new(0.0_f32, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)],
    ///     vec![[0, 1, 2]],
    /// )?;
    /// let tree: Bvh<f32, Aabb<f32>> = Bvh::build(mesh, &BuildOptions::sah())?;
    /// let rays: Vec<_> = (0..10_000)
    ///     .map(|i| Ray::new(Point3::new((i % 100) as f32 * 0.01, 0.25, 1.0), Vector3::new(0.0, 0.0, -1.0)))
    ///     .collect();
    /// let hits = tree.cast_rays(&rays, &RayQuery::default());
    /// for (ray, hit) in rays.iter().zip(&hits) {
    ///     assert_eq!(*hit, tree.cast_ray(ray, &RayQuery::default()));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cast_rays(&self, rays: &[Ray<T>], query: &RayQuery<T>) -> Vec<Option<MeshRayHit<T>>> {
        self.cast_rays_with(rays, query, RayOrder::Auto, |_| {})
    }

    /// [`Self::cast_rays`], tracing in the given `order`, and calling
    /// `progress(n)` each time another `n` rays are done, from the worker
    /// that traced them (a few hundred rays at a time, so that a progress
    /// bar's lock does not serialise the workers).
    pub fn cast_rays_with(
        &self,
        rays: &[Ray<T>],
        query: &RayQuery<T>,
        order: RayOrder,
        progress: impl Fn(usize) + Sync,
    ) -> Vec<Option<MeshRayHit<T>>> {
        const STEP: usize = 256;
        let tell = |k: usize| {
            if k % STEP == STEP - 1 {
                progress(STEP);
            }
        };
        let layout = self.ray_layout();
        let coherent = u32::try_from(rays.len()).is_ok()
            && match order {
                RayOrder::Input => false,
                RayOrder::Coherent => true,
                RayOrder::Auto => {
                    let bytes = layout.memory_bytes()
                        + self.leaf_tris.len() * core::mem::size_of::<clash_math::Triangle<T>>();
                    rays.len() >= order::MIN_BATCH && bytes >= order::MIN_TREE_BYTES
                }
            };
        let out = if !coherent {
            rays.par_iter()
                .enumerate()
                .map(|(k, ray)| {
                    let hit = self.cast_ray(ray, query);
                    tell(k);
                    hit
                })
                .collect()
        } else {
            let order = order::coherent_order(rays, layout.root_bounds());
            let mut out = Vec::with_capacity(rays.len());
            let slots = scatter::Scatter::new(out.spare_capacity_mut());
            order.par_iter().enumerate().for_each(|(k, &i)| {
                let hit = self.cast_ray(&rays[i as usize], query);
                // SAFETY: `order` is a permutation of `0..rays.len()`, so no
                // other worker writes slot `i`.
                unsafe { slots.write(i as usize, hit) };
                tell(k);
            });
            // SAFETY: the loop above wrote every slot of `0..rays.len()`
            // (`order` is a permutation of it).
            unsafe { out.set_len(rays.len()) };
            out
        };
        progress(rays.len() % STEP);
        out
    }

    /// The full hit for the triangle at leaf position `pos`.
    fn mesh_ray_hit(&self, pos: usize, hit: &BarycentricHit<T>) -> MeshRayHit<T> {
        let (tri, id) = self.leaf_triangle(pos);
        let h = hit.complete(tri);
        MeshRayHit {
            triangle: id,
            t: h.t,
            barycentric: [h.u, h.v, h.w],
            point: h.point,
            normal: h.normal,
        }
    }

    /// Builds the layout ray queries traverse now, if not built yet; else
    /// the first ray query builds it.
    ///
    /// Ray casts traverse a derived 8-wide layout of the tree (nodes of up to
    /// eight children whose exact triangle bounds are stored together, read
    /// ahead by prefetching; leaves read the tree's triangles in place),
    /// which cuts the dependent cache misses of a traversal. It is derived
    /// from the nodes in one sequential pass, identical whatever the thread
    /// count, takes one node of 256 bytes (`f32`; 448 for `f64`) per group
    /// of up to eight children, and is dropped by [`Self::refit`] (and
    /// rebuilt on the next ray query). It is not saved.
    pub fn prepare_rays(&self) {
        self.ray_layout();
    }

    #[inline]
    pub(crate) fn ray_layout(&self) -> &WideBvh<T> {
        self.ray_layout
            .get_or_init(|| WideBvh::build(&self.nodes, &self.leaf_tris))
    }

    /// Depth-first traversal, nearer children first. `on_hit` gets the leaf
    /// position of a hit triangle and the hit, and returns the new upper
    /// bound on `t` and whether to stop.
    fn ray_traverse(
        &self,
        ray: &Ray<T>,
        query: &RayQuery<T>,
        mut on_hit: impl FnMut(usize, BarycentricHit<T>) -> (T, bool),
    ) {
        // An empty interval (or a NaN end) holds no hit. The ends may be
        // infinite: the slab and triangle tests compare with them as they are.
        if !(query.t_min <= query.t_max) || query.t_min == T::INFINITY {
            return;
        }
        // `None` for a non-finite or zero direction: such a ray hits nothing.
        let Some(sheared) = ShearedRay::new(ray) else {
            return;
        };
        let prepared = PreparedRay::new(ray);
        let tris = &self.leaf_tris[..];
        self.ray_layout().traverse(
            tris,
            &prepared,
            query.t_min,
            query.t_max,
            |first, count, mut t_max| {
                let (first, count) = (first as usize, count as usize);
                for (pos, tri) in tris[first..first + count].iter().enumerate() {
                    if let Some(hit) = sheared.hit(tri, query.culling, query.t_min, t_max) {
                        let (bound, stop) = on_hit(first + pos, hit);
                        if stop {
                            return (t_max, true);
                        }
                        t_max = bound;
                    }
                }
                (t_max, false)
            },
        );
    }
}
