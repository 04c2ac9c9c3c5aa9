//! A derived 8-wide layout of a tree for ray queries.
//!
//! Ray casts on large meshes are bound by memory latency: each step of a
//! binary traversal waits for the boxes of two children, and random rays
//! find few of them in cache. This layout collapses the binary tree
//! (whatever its volume type) into nodes of up to eight children whose boxes
//! are stored together, one array per axis and side (structure of arrays),
//! so one fetch of four adjacent cache lines (`f32`) tests eight boxes and a
//! traversal takes about a third as many dependent steps (Wald et al.,
//! "Getting rid of packets", 2008; Dammertz et al., "Shallow bounding volume
//! hierarchies", 2008). The traversal also prefetches the node or the leaf
//! triangles of every child it puts on its stack, so that those fetches
//! overlap. Nodes hold eight children rather than four: fewer dependent
//! steps again, for more memory in the nodes that are not full.
//!
//! The boxes are the exact axis-aligned bounds of the triangles below each
//! child (minima and maxima of corner coordinates, computed without
//! rounding), so they never exclude a point of a triangle, for every volume
//! type of the canonical tree. Leaves keep their runs of the canonical leaf
//! order, so triangles are read from [`crate::Bvh`]'s `leaf_tris` and no
//! triangle is copied. The layout is derived from the canonical nodes, which
//! stay as they are (and are what is saved).
//!
//! The derivation is sequential and depends only on the canonical tree: the
//! same tree gives the same layout whatever the thread count.
//!
//! On x86_64, `f32` nodes are tested four children per instruction in SSE2
//! (`sse`), with results identical bit for bit to the portable test, which
//! rays with a zero direction component and `f64` trees use.

mod point;
#[cfg(target_arch = "x86_64")]
mod sse;

pub(crate) use point::WidePoint;

use crate::Node;
use crate::traverse::bv_query::PreparedRay;
use clash_math::prefetch::{prefetch, prefetch_bytes};
use clash_math::stack::Stack;
use clash_math::{Point3, Scalar, Triangle};

/// Children per wide node.
pub(crate) const WIDTH: usize = 8;

/// `child` of an unused slot.
const EMPTY: u32 = u32::MAX;

/// Largest number of pending entries of a traversal: a wide node is at
/// least one binary level below its parent, so the wide depth is at most the
/// binary depth ([`crate::MAX_DEPTH`], checked by the builder and by
/// validation on load), and each level leaves at most `WIDTH - 1` siblings
/// pending.
pub(crate) const STACK: usize = (WIDTH - 1) * (crate::MAX_DEPTH as usize + 1) + WIDTH;

/// A node of up to [`WIDTH`] children: their boxes in structure-of-arrays
/// form, then what each child is. 256 bytes for `f32`, aligned to a cache
/// line.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct WideNode<T> {
    /// `bounds[0][k][j]` and `bounds[1][k][j]`: lower and upper bound on
    /// axis `k` of child `j`'s box.
    bounds: [[[T; WIDTH]; 3]; 2],
    /// Internal child: its wide node index. Leaf: its first position in
    /// leaf order. Unused slot: [`EMPTY`].
    child: [u32; WIDTH],
    /// Leaf: number of triangles (at least 1). Internal child or unused: 0.
    count: [u32; WIDTH],
}

impl<T: Scalar> WideNode<T> {
    fn empty() -> Self {
        Self {
            bounds: [[[T::ZERO; WIDTH]; 3]; 2],
            child: [EMPTY; WIDTH],
            count: [0; WIDTH],
        }
    }
}

/// The wide layout of a whole tree; node 0 is the root.
#[derive(Debug, Clone)]
pub(crate) struct WideBvh<T> {
    nodes: Vec<WideNode<T>>,
    /// Largest coordinate magnitude of the triangles (0 for none).
    extent: T,
    /// Exact bounds of all the triangles, `[min, max]` (inverted, `min`
    /// above `max`, for no triangle).
    root: Bounds<T>,
}

/// Exact bounds of a set of triangles: `[min, max]`.
pub(crate) type Bounds<T> = [[T; 3]; 2];

fn tri_bounds<T: Scalar>(tris: &[Triangle<T>]) -> Bounds<T> {
    let mut b = [[T::INFINITY; 3], [T::NEG_INFINITY; 3]];
    for t in tris {
        for p in [&t.a, &t.b, &t.c] {
            for k in 0..3 {
                b[0][k] = b[0][k].min_of(p[k]);
                b[1][k] = b[1][k].max_of(p[k]);
            }
        }
    }
    b
}

fn half_area<T: Scalar>(b: &Bounds<T>) -> T {
    let d = [b[1][0] - b[0][0], b[1][1] - b[0][1], b[1][2] - b[0][2]];
    d[0] * d[1] + d[1] * d[2] + d[2] * d[0]
}

impl<T: Scalar> WideBvh<T> {
    /// Collapses the binary tree `nodes` over `tris` (in leaf order).
    ///
    /// Each wide node starts from a binary node's two children and opens the
    /// internal child of largest surface area (the one a random ray is most
    /// likely to enter; the first on a tie) until it has [`WIDTH`] children or
    /// only leaves are left (Wald et al. 2008).
    pub(crate) fn build<B>(nodes: &[Node<B>], tris: &[Triangle<T>]) -> Self {
        // Exact bounds of every binary node, bottom-up (children follow their
        // parent in preorder).
        let mut bounds: Vec<Bounds<T>> = vec![[[T::ZERO; 3]; 2]; nodes.len()];
        for i in (0..nodes.len()).rev() {
            bounds[i] = match nodes[i].triangle_range() {
                Some(range) => tri_bounds(&tris[range]),
                None => {
                    let (l, r) = (&bounds[i + 1], &bounds[nodes[i].child_or_first as usize]);
                    let mut b = *l;
                    for k in 0..3 {
                        b[0][k] = b[0][k].min_of(r[0][k]);
                        b[1][k] = b[1][k].max_of(r[1][k]);
                    }
                    b
                }
            };
        }
        let mut out = Vec::with_capacity(nodes.len() / 5 + 1);
        out.push(WideNode::empty());
        // (wide node to fill, binary node it stands for)
        let mut work = vec![(0usize, 0u32)];
        while let Some((w, b)) = work.pop() {
            let mut slots = [0u32; WIDTH];
            let mut len = 1;
            slots[0] = b;
            if !nodes[b as usize].is_leaf() {
                slots[0] = b + 1;
                slots[1] = nodes[b as usize].child_or_first;
                len = 2;
            }
            while len < WIDTH {
                let mut open: Option<(usize, T)> = None;
                for (j, &s) in slots[..len].iter().enumerate() {
                    if nodes[s as usize].is_leaf() {
                        continue;
                    }
                    let a = half_area(&bounds[s as usize]);
                    if open.is_none_or(|(_, best)| a > best) {
                        open = Some((j, a));
                    }
                }
                let Some((j, _)) = open else { break };
                let s = slots[j];
                slots[j] = s + 1;
                slots[len] = nodes[s as usize].child_or_first;
                len += 1;
            }
            let mut node = WideNode::empty();
            for (j, &s) in slots[..len].iter().enumerate() {
                let [lo, hi] = &bounds[s as usize];
                for (k, (l, h)) in lo.iter().zip(hi).enumerate() {
                    node.bounds[0][k][j] = *l;
                    node.bounds[1][k][j] = *h;
                }
                let n = &nodes[s as usize];
                if n.is_leaf() {
                    node.child[j] = n.child_or_first;
                    node.count[j] = n.count;
                } else {
                    let c = out.len();
                    out.push(WideNode::empty());
                    node.child[j] = u32::try_from(c).expect("fewer wide nodes than nodes");
                    work.push((c, s));
                }
            }
            out[w] = node;
        }
        out.shrink_to_fit();
        let extent = bounds.first().map_or(T::ZERO, |b| {
            b.iter().flatten().fold(T::ZERO, |e, x| e.max_of(x.abs()))
        });
        let root = bounds
            .first()
            .copied()
            .unwrap_or([[T::INFINITY; 3], [T::NEG_INFINITY; 3]]);
        Self {
            nodes: out,
            extent,
            root,
        }
    }

    /// Exact bounds of all the triangles, `[min, max]`.
    pub(crate) fn root_bounds(&self) -> &Bounds<T> {
        &self.root
    }

    /// Heap bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.nodes.len() * core::mem::size_of::<WideNode<T>>()
    }

    /// Number of wide nodes.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Depth-first traversal, nearer children first, of every leaf whose box
    /// the ray may meet within `[t_min, t_max]` (the upper end shrinking as
    /// `on_hit` says). `leaf` gets the leaf order range `first..first + count`
    /// and the current `t_max`, and returns the new `t_max` and whether to stop.
    #[inline(always)]
    pub(crate) fn traverse(
        &self,
        tris: &[Triangle<T>],
        ray: &PreparedRay<T>,
        t_min: T,
        mut t_max: T,
        mut leaf: impl FnMut(u32, u32, T) -> (T, bool),
    ) {
        let wr = WideRay::new(ray);
        #[cfg(target_arch = "x86_64")]
        let sse = (&wr as &dyn core::any::Any)
            .downcast_ref::<WideRay<f32>>()
            .and_then(sse::SseRay::new);
        // (child, count, entry key): count 0 for a wide node.
        let mut stack = Stack::<(u32, u32, T), STACK>::with((0, 0, T::NEG_INFINITY));
        while let Some((child, count, entry)) = stack.pop() {
            if entry > t_max {
                continue;
            }
            if count > 0 {
                let (bound, stop) = leaf(child, count, t_max);
                if stop {
                    return;
                }
                t_max = bound;
                continue;
            }
            let node = &self.nodes[child as usize];
            let (t, mut hits) = 'test: {
                #[cfg(target_arch = "x86_64")]
                if let (Some(s), Some(n)) = (
                    &sse,
                    (node as &dyn core::any::Any).downcast_ref::<WideNode<f32>>(),
                ) {
                    let (key, mask) = s.slab_all(n, t_min.to_f32(), t_max.to_f32());
                    break 'test (key.map(T::from_f32_exact), mask);
                }
                wr.slab_all(node, t_min, t_max)
            };
            // Push the hit children sorted by decreasing entry (insertion
            // into the top of the stack), so that the nearest is popped first.
            let base = stack.len();
            while hits != 0 {
                let j = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                let (c, count, key) = (node.child[j], node.count[j], t[j]);
                // Start every fetch the coming steps wait for now, so that
                // they overlap (a far child pruned later costs only bandwidth).
                if count == 0 {
                    // Nodes are aligned to a cache line: fetch each of theirs.
                    let p = self.nodes.as_ptr().wrapping_add(c as usize).cast::<u8>();
                    for line in (0..core::mem::size_of::<WideNode<T>>()).step_by(64) {
                        prefetch(p.wrapping_add(line));
                    }
                } else {
                    let p = tris.as_ptr().wrapping_add(c as usize).cast::<u8>();
                    let bytes = count as usize * core::mem::size_of::<Triangle<T>>();
                    prefetch_bytes(p, bytes.min(MAX_PREFETCH));
                }
                stack.push_sorted(base, (c, count, key), |below| below.2 >= key);
            }
        }
    }
}

/// A ray prepared for [`WideNode`] slab tests.
struct WideRay<T: Scalar> {
    origin: [T; 3],
    inv: [T; 3],
    zero: [bool; 3],
    /// Whether some direction component is zero (the slower general test).
    any_zero: bool,
    /// Per axis, which side of a box the ray enters its slab at: 0 (lower)
    /// or 1 (upper), an index into [`WideNode::bounds`].
    near: [usize; 3],
    /// The axis of the largest direction component, as
    /// [`clash_narrow::cast::ShearedRay`] picks it.
    kz: usize,
    /// Relative margin of the comparisons with the interval: `128 ε`, at
    /// least `2⁻³⁶` (the hit parameter is computed in `f64` from corner
    /// parameters rounded to `T`; the margin covers that rounding many
    /// times over and costs no measurable pruning).
    tol: T,
}

impl<T: Scalar> WideRay<T> {
    #[inline(always)]
    fn new(r: &PreparedRay<T>) -> Self {
        let (inv, zero) = r.parts();
        let o: Point3<T> = r.ray.origin;
        let ad = r.ray.dir.map(|x| x.abs());
        let side = |x: T| usize::from(x < T::ZERO);
        Self {
            origin: [o.x, o.y, o.z],
            inv: [inv.x, inv.y, inv.z],
            zero,
            any_zero: zero[0] | zero[1] | zero[2],
            near: [side(inv.x), side(inv.y), side(inv.z)],
            kz: if ad.x >= ad.y && ad.x >= ad.z {
                0
            } else if ad.y >= ad.z {
                1
            } else {
                2
            },
            tol: (T::EPSILON * T::lit(128.0)).max_of(T::lit(2f64.powi(-36))),
        }
    }

    /// [`PreparedRay::slab`] against all boxes of `node` at once, with the
    /// same arithmetic per box and so the same guarantee that a ray meeting
    /// a box in exact arithmetic is never rejected. Returns each box's entry
    /// key (a lower bound on the parameter of any triangle hit in the box,
    /// as [`clash_narrow::cast::ShearedRay::hit`] computes it) and the mask
    /// of the boxes (bit `j` for child `j`) that may hold a hit within
    /// `[t_min, t_max]`.
    ///
    /// The comparisons with `t_min` and `t_max` allow a margin: the
    /// parameter of a hit is computed from the triangle's corners as seen
    /// along the ray's dominant axis, so it can differ from that of the
    /// exact hit point (inside the box) by a few ulps of the largest such
    /// corner parameter, which is at most that of the box's farther plane
    /// on that axis, `s`. Without the margin a hit at exactly the best `t`
    /// so far (a tie, to be broken by triangle index) or just inside the
    /// interval could lie in a box whose entry rounds past it.
    #[inline(always)]
    fn slab_all(&self, node: &WideNode<T>, t_min: T, t_max: T) -> ([T; WIDTH], u32) {
        let gamma2 = T::EPSILON * T::lit(3.0);
        let mut t0 = [T::NEG_INFINITY; WIDTH];
        let mut t1 = [T::INFINITY; WIDTH];
        let mut inside = [true; WIDTH];
        for k in 0..3 {
            let o = self.origin[k];
            if self.any_zero && self.zero[k] {
                // (origin and boxes are finite: no NaN to treat apart)
                let (lo, hi) = (&node.bounds[0][k], &node.bounds[1][k]);
                for j in 0..WIDTH {
                    inside[j] &= (o >= lo[j]) & (o <= hi[j]);
                }
                continue;
            }
            let inv = self.inv[k];
            let near = &node.bounds[self.near[k]][k];
            let far = &node.bounds[self.near[k] ^ 1][k];
            for j in 0..WIDTH {
                let a = (near[j] - o) * inv;
                let b = (far[j] - o) * inv;
                let b = b + b.abs() * gamma2;
                t0[j] = t0[j].max_of(a);
                t1[j] = t1[j].min_of(b);
            }
        }
        // The dominant axis is never a zero one.
        let k = self.kz;
        let (o, inv) = (self.origin[k], self.inv[k]);
        let (lo, hi) = (&node.bounds[0][k], &node.bounds[1][k]);
        let mut key = [T::ZERO; WIDTH];
        let mut mask = 0u32;
        for j in 0..WIDTH {
            let a = ((lo[j] - o) * inv).abs();
            let b = ((hi[j] - o) * inv).abs();
            let margin = a.max_of(b) * self.tol;
            key[j] = t0[j].max_of(t_min) - margin;
            let hit = inside[j]
                & (t0[j] <= t1[j])
                & (key[j] <= t_max)
                & (t1[j] + margin >= t_min)
                & (node.child[j] != EMPTY);
            mask |= u32::from(hit) << j;
        }
        (key, mask)
    }
}

/// Most bytes of a leaf's triangles fetched ahead (larger leaves, only
/// made at the depth limit, fetch the rest on use).
const MAX_PREFETCH: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BuildOptions, Bvh, TriMesh};
    use clash_bv::{Aabb, Obb};

    fn wavy_grid(n: u32) -> TriMesh<f32> {
        let mut v = Vec::new();
        for y in 0..=n {
            for x in 0..=n {
                let z = ((x * 7 + y * 13) % 5) as f32 * 0.25;
                v.push(Point3::new(x as f32, y as f32, z));
            }
        }
        let id = |x: u32, y: u32| y * (n + 1) + x;
        let mut f = Vec::new();
        for y in 0..n {
            for x in 0..n {
                f.push([id(x, y), id(x + 1, y), id(x + 1, y + 1)]);
                f.push([id(x, y), id(x + 1, y + 1), id(x, y + 1)]);
            }
        }
        TriMesh::new(v, f).unwrap()
    }

    /// Every leaf position is reached exactly once, every box holds the
    /// triangles below it, and the nodes are the advertised size.
    fn check<B: crate::BvQuery<f32>>(tree: &Bvh<f32, B>) {
        let w = WideBvh::build(&tree.nodes, &tree.leaf_tris);
        assert_eq!(core::mem::size_of::<WideNode<f32>>(), 256);
        assert_eq!(w.memory_bytes(), w.len() * 256);
        let mut seen = vec![0u32; tree.leaf_tris.len()];
        let mut stack = vec![0usize];
        let mut visits = 0;
        while let Some(i) = stack.pop() {
            visits += 1;
            let node = &w.nodes[i];
            for j in 0..WIDTH {
                if node.child[j] == EMPTY {
                    continue;
                }
                let inside = |p: &Point3<f32>| {
                    (0..3).all(|k| node.bounds[0][k][j] <= p[k] && p[k] <= node.bounds[1][k][j])
                };
                let mut below = vec![node.child[j] as usize];
                if node.count[j] == 0 {
                    stack.push(node.child[j] as usize);
                    below.clear();
                    let mut sub = vec![node.child[j] as usize];
                    while let Some(s) = sub.pop() {
                        for jj in 0..WIDTH {
                            match (w.nodes[s].child[jj], w.nodes[s].count[jj]) {
                                (EMPTY, _) => {}
                                (c, 0) => sub.push(c as usize),
                                (c, n) => below.extend(c as usize..(c + n) as usize),
                            }
                        }
                    }
                } else {
                    let c = node.child[j] as usize;
                    below = (c..c + node.count[j] as usize).collect();
                    for &pos in &below {
                        seen[pos] += 1;
                    }
                }
                for pos in below {
                    let t = &tree.leaf_tris[pos];
                    assert!(inside(&t.a) && inside(&t.b) && inside(&t.c));
                }
            }
        }
        assert_eq!(visits, w.len());
        assert!(seen.iter().all(|&n| n == 1));
    }

    /// The SSE2 slab test gives the portable one's keys and masks bit for
    /// bit: random boxes (some flat, some around the origin, unused slots),
    /// rays of every direction sign (no zero component: those take the
    /// portable test), intervals that cut boxes.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn sse_slab_test_equals_the_portable_one() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(81);
        let mut checked = 0;
        let mut hits = 0;
        for round in 0..20_000 {
            let mut node = WideNode::<f32>::empty();
            let used = rng.random_range(1..=WIDTH);
            for j in 0..used {
                for k in 0..3 {
                    let a: f32 = rng.random_range(-4.0..4.0);
                    let w: f32 = if rng.random_bool(0.2) {
                        0.0
                    } else {
                        rng.random_range(0.0..3.0)
                    };
                    node.bounds[0][k][j] = a;
                    node.bounds[1][k][j] = a + w;
                }
                node.child[j] = j as u32;
                node.count[j] = (round % 3) as u32;
            }
            let o = Point3::new(
                rng.random_range(-5.0..5.0f32),
                rng.random_range(-5.0..5.0),
                rng.random_range(-5.0..5.0),
            );
            let mut d = || {
                let x: f32 = rng.random_range(0.001..1.0);
                if rng.random_bool(0.5) { -x } else { x }
            };
            let dir = clash_math::Vector3::new(d(), d(), d());
            let ray = PreparedRay::new(&clash_math::Ray::new(o, dir));
            let wr = WideRay::new(&ray);
            let s = sse::SseRay::new(&wr).expect("no zero component");
            let (t_min, t_max) = match round % 4 {
                0 => (0.0, f32::INFINITY),
                1 => (rng.random_range(0.0..4.0), rng.random_range(4.0..12.0)),
                2 => (0.0, rng.random_range(0.0..6.0)),
                _ => (-f32::MAX, f32::MAX),
            };
            let (k0, m0) = wr.slab_all(&node, t_min, t_max);
            let (k1, m1) = s.slab_all(&node, t_min, t_max);
            assert_eq!(m0, m1, "{node:?} {ray:?} [{t_min}, {t_max}]");
            assert!(m0 >> used == 0, "an unused slot is never hit");
            for j in 0..used {
                assert_eq!(
                    k0[j].to_bits(),
                    k1[j].to_bits(),
                    "key {j}: {node:?} {ray:?}"
                );
            }
            checked += 1;
            hits += m0.count_ones();
        }
        assert!(checked == 20_000 && hits > 800, "too few hits: {hits}");
    }

    #[test]
    fn layout_covers_every_triangle_once_inside_its_boxes() {
        let mesh = wavy_grid(12);
        check(&Bvh::<f32, Aabb<f32>>::build(mesh.clone(), &BuildOptions::sah()).unwrap());
        check(&Bvh::<f32, Obb<f32>>::build(mesh.clone(), &BuildOptions::default()).unwrap());
        let one = TriMesh::new(mesh.vertices().to_vec(), vec![mesh.indices()[0]]).unwrap();
        check(&Bvh::<f32, Aabb<f32>>::build(one, &BuildOptions::sah()).unwrap());
    }
}
