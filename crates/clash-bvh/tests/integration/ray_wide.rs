//! Ray casts, which traverse the derived 8-wide layout (with prefetching),
//! equal brute force over all triangles (`ray_triangle` per triangle) on
//! random meshes and adversarial rays: through shared edges and vertices,
//! axis-parallel with zero direction components, starting on box faces and
//! inside the mesh; for every volume type, f32 and f64, several leaf sizes,
//! and after a refit.

use crate::common;

use crate::queries_brute_force::brute_closest;
use clash_bv::{Aabb, Capsule, Kdop18, Obb, Rss, Sphere};
use clash_bvh::{BuildOptions, BvQuery, Bvh, RayOrder, RayQuery, TreeVolume, TriMesh};
use clash_math::{Point3, Ray, Scalar, Vector3};
use clash_narrow::cast::{Culling, ray_triangle};
use common::*;
use rand::RngExt;

fn queries<T: Scalar>() -> [RayQuery<T>; 4] {
    [
        RayQuery::default(),
        RayQuery::within(T::lit(0.25), T::lit(0.75)),
        RayQuery {
            culling: Culling::FrontOnly,
            ..RayQuery::default()
        },
        RayQuery::within(T::ZERO, T::ZERO),
    ]
}

/// Checks all three ray queries against brute force; returns how many hit.
fn check<T: Scalar, B: BvQuery<T>>(tree: &Bvh<T, B>, rays: &[Ray<T>]) -> usize {
    let mut all = Vec::new();
    let mut hits = 0;
    for ray in rays {
        for q in queries::<T>() {
            let expected = brute_ray(tree.mesh(), ray, &q);
            let got = tree.cast_ray(ray, &q);
            assert_eq!(
                got.map(|h| (h.t, h.triangle)),
                expected.first().copied(),
                "{} {}: closest hit of {ray:?} {q:?}",
                T::NAME,
                std::any::type_name::<B>()
            );
            if let Some(h) = got {
                let tri = tree.mesh().triangle(h.triangle as usize);
                let full = ray_triangle(ray, &tri, q.culling, q.t_min, q.t_max).unwrap();
                assert_eq!((h.point, h.normal), (full.point, full.normal));
            }
            assert_eq!(
                tree.cast_ray_any(ray, &q).is_some(),
                !expected.is_empty(),
                "{ray:?} {q:?}: any hit"
            );
            tree.cast_ray_all(ray, &q, &mut all);
            assert_eq!(
                all.iter().map(|h| (h.t, h.triangle)).collect::<Vec<_>>(),
                expected,
                "{ray:?} {q:?}: all hits"
            );
            hits += usize::from(!expected.is_empty());
        }
    }
    hits
}

/// A heightfield over an `n` x `n` grid of unit cells (two triangles per
/// cell, sharing edges), integer corners and heights in `0..=h`, so every
/// coordinate is exact in f32 and f64.
fn grid<T: Scalar>(rng: &mut Rng, n: u32, h: i32) -> TriMesh<T> {
    let mut v = Vec::new();
    for y in 0..=n {
        for x in 0..=n {
            let z = rng.random_range(0..=h);
            v.push(Point3::new(
                T::lit(x as f64),
                T::lit(y as f64),
                T::lit(z as f64),
            ));
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

/// Adversarial rays for a mesh: aimed at every vertex and edge midpoint
/// (from above, below and the side), axis-parallel through them (two zero
/// direction components), along the mesh's bounding box faces (zero
/// components, origin on the face), and from inside, plus random rays.
fn adversarial_rays<T: Scalar>(rng: &mut Rng, mesh: &TriMesh<T>, random: usize) -> Vec<Ray<T>> {
    let v = mesh.vertices();
    let lo = v.iter().fold(v[0], |m, p| m.inf(p));
    let hi = v.iter().fold(v[0], |m, p| m.sup(p));
    let c = Point3::from((lo.coords + hi.coords) * T::HALF);
    let size = (hi - lo).amax() + T::ONE;
    let mut targets: Vec<Point3<T>> = v.to_vec();
    for t in mesh.indices().iter().take(60) {
        for k in 0..3 {
            let (a, b) = (v[t[k] as usize], v[t[(k + 1) % 3] as usize]);
            targets.push(Point3::from((a.coords + b.coords) * T::HALF));
        }
    }
    let mut rays = Vec::new();
    let axes = [Vector3::x(), Vector3::y(), Vector3::z()];
    for (i, p) in targets.iter().enumerate() {
        // Above, below and beside, not axis-parallel.
        let offs = [
            Vector3::new(T::lit(0.5), T::lit(0.25), size),
            Vector3::new(-T::lit(1.5), T::lit(0.75), -size),
            Vector3::new(size, -size, T::lit(0.125)),
        ];
        for o in offs {
            rays.push(Ray::new(p + o, -o));
        }
        // Axis-parallel through the target, both ways, from outside the box
        // and from the target itself.
        let k = i % 3;
        let d: Vector3<T> = axes[k];
        rays.push(Ray::new(p - d * size, d));
        rays.push(Ray::new(p + d * size, -d));
        rays.push(Ray::new(*p, d));
        // Along a face of the mesh's bounding box: origin on the face, the
        // direction in its plane (one zero component).
        let mut on_face = *p;
        on_face[k] = if i % 2 == 0 { lo[k] } else { hi[k] };
        let mut along = Vector3::new(T::ONE, T::lit(0.5), T::lit(-0.25));
        along[k] = T::ZERO;
        rays.push(Ray::new(on_face - along * size, along));
        rays.push(Ray::new(on_face, along));
    }
    // Axis-parallel along every face of the box, through its corners.
    for k in 0..3 {
        for corner in [lo, hi] {
            let mut o = corner;
            o[k] -= size;
            rays.push(Ray::new(o, axes[k]));
        }
    }
    // From the centre, and random rays (some from inside).
    for _ in 0..random {
        let mut r = || T::lit(rng.random_range(-1.0..1.0));
        let o = c + Vector3::new(r(), r(), r()) * size;
        let t = c + Vector3::new(r(), r(), r()) * (size * T::lit(0.4));
        rays.push(Ray::new(o, t - o));
        rays.push(Ray::new(c, Vector3::new(r(), r(), r())));
    }
    rays
}

fn check_mesh<T: Scalar>(mesh: &TriMesh<T>, rays: &[Ray<T>]) -> usize {
    fn one<T: Scalar, B: TreeVolume<T>>(mesh: &TriMesh<T>, rays: &[Ray<T>]) -> usize {
        let mut hits = 0;
        for opts in [
            BuildOptions::sah(),
            BuildOptions::default(),
            // Large leaves (beyond the prefetched bytes) at a depth limit.
            BuildOptions::sah().with_max_depth(3).with_max_leaf_size(64),
        ] {
            let tree = Bvh::<T, B>::build(mesh.clone(), &opts).unwrap();
            hits += check(&tree, rays);
        }
        hits
    }
    let h = one::<T, Aabb<T>>(mesh, rays);
    assert_eq!(one::<T, Obb<T>>(mesh, rays), h);
    assert_eq!(one::<T, Sphere<T>>(mesh, rays), h);
    assert_eq!(one::<T, Rss<T>>(mesh, rays), h);
    assert_eq!(one::<T, Capsule<T>>(mesh, rays), h);
    assert_eq!(one::<T, Kdop18<T>>(mesh, rays), h);
    h
}

fn random_meshes<T: Scalar>(seed: u64) {
    let mut rng = seeded(seed);
    let g: TriMesh<T> = grid(&mut rng, 9, 3);
    let rays = adversarial_rays(&mut rng, &g, 100);
    let hits = check_mesh(&g, &rays);
    assert!(hits > rays.len(), "too few hits on the grid: {hits}");

    let flat: TriMesh<T> = grid(&mut rng, 7, 0);
    let rays = adversarial_rays(&mut rng, &flat, 40);
    assert!(check_mesh(&flat, &rays) > rays.len() / 2);

    let soup: TriMesh<T> = random_soup(&mut rng, 300, 1.0, 0.2);
    let rays = adversarial_rays(&mut rng, &soup, 100);
    assert!(check_mesh(&soup, &rays) > 0);

    let sphere: TriMesh<T> = uv_sphere(1.0, 9, 14);
    let rays = adversarial_rays(&mut rng, &sphere, 50);
    assert!(check_mesh(&sphere, &rays) > rays.len());
}

#[test]
fn wide_rays_equal_brute_force_f64() {
    random_meshes::<f64>(71);
}

#[test]
fn wide_rays_equal_brute_force_f32() {
    random_meshes::<f32>(72);
}

#[test]
fn rays_after_refit_see_the_new_vertices() {
    let mut rng = seeded(73);
    let mesh: TriMesh<f64> = grid(&mut rng, 8, 2);
    let mut tree = Bvh::<f64, Aabb<f64>>::build(mesh.clone(), &BuildOptions::sah()).unwrap();
    tree.prepare_rays();
    let rays = adversarial_rays(&mut rng, &mesh, 50);
    check(&tree, &rays);
    // Lift and shear the grid: the old layout would miss the new triangles.
    let moved: Vec<Point3<f64>> = mesh
        .vertices()
        .iter()
        .map(|p| Point3::new(p.x + 0.5 * p.z, p.y, p.z + 5.0 + p.x))
        .collect();
    tree.refit(&moved).unwrap();
    let rays = adversarial_rays(&mut rng, tree.mesh(), 50);
    assert!(check(&tree, &rays) > 0);
}

#[test]
fn one_triangle_and_single_leaf_trees() {
    let mesh = TriMesh::new(
        vec![
            Point3::new(0.0_f32, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap();
    let tree = Bvh::<f32, Aabb<f32>>::build(mesh.clone(), &BuildOptions::sah()).unwrap();
    let rays = adversarial_rays(&mut seeded(74), &mesh, 50);
    assert!(check(&tree, &rays) > 0);
    let soup: TriMesh<f32> = random_soup(&mut seeded(75), 40, 1.0, 0.3);
    let tree = Bvh::<f32, Obb<f32>>::build(
        soup.clone(),
        &BuildOptions::default().with_max_leaf_size(100),
    )
    .unwrap();
    assert!(tree.nodes()[0].is_leaf());
    let rays = adversarial_rays(&mut seeded(76), &soup, 50);
    check(&tree, &rays);
}

#[test]
fn layout_is_the_same_on_any_thread_count() {
    let mesh: TriMesh<f64> = random_soup(&mut seeded(77), 2000, 1.0, 0.05);
    let rays = adversarial_rays(&mut seeded(78), &mesh, 300);
    let q = RayQuery::default();
    let answers = |threads: usize| {
        in_pool(threads, || {
            let tree = Bvh::<f64, Aabb<f64>>::build(mesh.clone(), &BuildOptions::sah()).unwrap();
            tree.cast_rays(&rays, &q)
        })
    };
    assert_eq!(answers(1), answers(4));
}

/// A batch of a few thousand rays, traced in the coherent order, as given,
/// and as `cast_rays` chooses, answers each ray exactly as `cast_ray` does,
/// in input order, on 1 and 2 threads, and reports progress for every ray: random rays from around the mesh, the adversarial ones,
/// zero, NaN and infinite directions, huge origins, rays that miss the
/// bounds, and duplicates.
fn batch_equals_single_rays<T: Scalar, B: TreeVolume<T>>(seed: u64) {
    let mut rng = seeded(seed);
    let mesh: TriMesh<T> = random_soup(&mut rng, 150, 1.0, 0.15);
    let tree = Bvh::<T, B>::build(mesh.clone(), &BuildOptions::sah()).unwrap();
    let mut rays = adversarial_rays(&mut rng, &mesh, 500);
    let big = T::lit(1e30);
    let (zero, one) = (T::ZERO, T::ONE);
    let c = Point3::new(T::HALF, T::HALF, T::HALF);
    rays.extend([
        Ray::new(c, Vector3::zeros()),
        Ray::new(c, Vector3::new(T::lit(f64::NAN), one, zero)),
        Ray::new(c, Vector3::new(T::INFINITY, zero, zero)),
        Ray::new(Point3::new(big, big, -big), Vector3::new(-one, -one, one)),
        Ray::new(Point3::new(-big, zero, zero), Vector3::new(one, zero, zero)),
        Ray::new(
            Point3::new(T::lit(f64::NAN), zero, zero),
            Vector3::new(one, zero, zero),
        ),
        Ray::new(
            Point3::new(T::lit(50.0), zero, zero),
            Vector3::new(one, zero, zero),
        ),
    ]);
    let dups: Vec<Ray<T>> = rays.iter().step_by(7).copied().collect();
    rays.extend(dups);
    assert!(
        rays.len() > 4096,
        "{} rays: too few for the coherent order",
        rays.len()
    );
    let q = RayQuery::default();
    let single: Vec<_> = rays.iter().map(|r| tree.cast_ray(r, &q)).collect();
    assert!(single.iter().filter(|h| h.is_some()).count() > rays.len() / 4);
    // Bit for bit: the debug text tells -0.0 from 0.0.
    let expected = format!("{single:?}");
    for threads in [1, 2] {
        let batch = in_pool(threads, || tree.cast_rays(&rays, &q));
        assert_eq!(
            format!("{batch:?}"),
            expected,
            "{} on {threads} threads",
            T::NAME
        );
        for order in [RayOrder::Coherent, RayOrder::Input] {
            let done = std::sync::atomic::AtomicUsize::new(0);
            let got = in_pool(threads, || {
                tree.cast_rays_with(&rays, &q, order, |n| {
                    done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                })
            });
            assert_eq!(
                format!("{got:?}"),
                expected,
                "{order:?} on {threads} threads"
            );
            assert_eq!(done.into_inner(), rays.len());
        }
    }
}

#[test]
fn ray_batches_equal_single_rays_in_input_order() {
    batch_equals_single_rays::<f32, Aabb<f32>>(79);
    batch_equals_single_rays::<f64, Obb<f64>>(80);
}

/// Points at and near every vertex and edge midpoint (where several
/// triangles tie), a hair off them, and random points in and around the box.
fn closest_point_queries<T: Scalar>(rng: &mut Rng, mesh: &TriMesh<T>) -> Vec<Point3<T>> {
    let v = mesh.vertices();
    let lo = v.iter().fold(v[0], |m, p| m.inf(p));
    let hi = v.iter().fold(v[0], |m, p| m.sup(p));
    let c = Point3::from((lo.coords + hi.coords) * T::HALF);
    let size = (hi - lo).amax() + T::ONE;
    let mut out: Vec<Point3<T>> = Vec::new();
    for t in mesh.indices().iter().take(80) {
        let (a, b) = (v[t[0] as usize], v[t[1] as usize]);
        let mid = Point3::from((a.coords + b.coords) * T::HALF);
        for q in [a, mid] {
            out.push(q);
            out.push(q + Vector3::new(T::ZERO, T::ZERO, T::lit(0.25)));
            let mut r = || T::lit(rng.random_range(-1e-3..1e-3));
            out.push(q + Vector3::new(r(), r(), r()));
        }
    }
    for _ in 0..150 {
        let mut r = || T::lit(rng.random_range(-1.0..1.0));
        out.push(c + Vector3::new(r(), r(), r()) * size);
    }
    out
}

/// Closest points, which traverse the wide layout, equal brute force bit for
/// bit (squared distance and smallest tied triangle) for every volume type
/// and several leaf sizes, within a radius too, on meshes near and far from
/// the origin.
fn check_closest_points<T: Scalar>(seed: u64) {
    fn one<T: Scalar, B: TreeVolume<T>>(mesh: &TriMesh<T>, points: &[Point3<T>]) {
        for opts in [
            BuildOptions::sah(),
            BuildOptions::default(),
            BuildOptions::sah().with_max_depth(3).with_max_leaf_size(64),
        ] {
            let tree = Bvh::<T, B>::build(mesh.clone(), &opts).unwrap();
            for p in points {
                let (d2, tri) = brute_closest(mesh, p);
                let got = tree.closest_point(p);
                assert_eq!(
                    (got.distance_squared, got.triangle),
                    (d2, tri),
                    "{} {} at {p}",
                    T::NAME,
                    std::any::type_name::<B>()
                );
                let within = d2.sqrt() * T::lit(1.5) + T::lit(1e-3);
                assert_eq!(tree.closest_point_within(p, within), Some(got));
                if d2 > T::ZERO {
                    assert_eq!(tree.closest_point_within(p, d2.sqrt() * T::HALF), None);
                }
            }
        }
    }
    let mut rng = seeded(seed);
    let g: TriMesh<T> = grid(&mut rng, 9, 3);
    // The same grid far from the origin (an exact shift in f32 and f64).
    let far = TriMesh::new(
        g.vertices()
            .iter()
            .map(|p| p + Vector3::repeat(T::lit(16384.0)))
            .collect(),
        g.indices().to_vec(),
    )
    .unwrap();
    let flat: TriMesh<T> = grid(&mut rng, 6, 0);
    let soup: TriMesh<T> = random_soup(&mut rng, 300, 1.0, 0.2);
    let sphere: TriMesh<T> = uv_sphere(1.0, 9, 14);
    for mesh in [g, far, flat, soup, sphere] {
        let points = closest_point_queries(&mut rng, &mesh);
        one::<T, Aabb<T>>(&mesh, &points);
        one::<T, Obb<T>>(&mesh, &points);
        one::<T, Sphere<T>>(&mesh, &points);
        one::<T, Kdop18<T>>(&mesh, &points);
    }
}

#[test]
fn wide_closest_points_equal_brute_force_f64() {
    check_closest_points::<f64>(79);
}

#[test]
fn wide_closest_points_equal_brute_force_f32() {
    check_closest_points::<f32>(80);
}
