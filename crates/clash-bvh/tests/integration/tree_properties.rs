//! Determinism across thread counts, batch order, refit, self-collision,
//! welding and the tree invariants.

use crate::common;

use clash_bv::{Aabb, Kdop14, Obb, Rss};
use clash_bvh::{BuildOptions, Bvh, CollisionRequest, SplitRule, TriMesh, collide_pairs};
use clash_math::{Isometry3, Point3, Vector3};
use common::*;

#[test]
fn build_is_bit_identical_on_any_thread_count() {
    let mut rng = seeded(41);
    let mesh: TriMesh<f64> = random_soup(&mut rng, 20_000, 10.0, 0.2);
    for opts in [
        BuildOptions::default(),
        BuildOptions::sah(),
        BuildOptions::sah().with_split(SplitRule::Sah { bins: 40 }),
        BuildOptions::sah().with_split(SplitRule::Sah { bins: 256 }),
        BuildOptions::default().with_split(SplitRule::Mean),
        BuildOptions::default().with_fit(clash_bvh::FitQuality::TightAbove { min_triangles: 500 }),
        BuildOptions::default().with_fit(clash_bvh::FitQuality::Basic),
    ] {
        let one = in_pool(1, || {
            Bvh::<f64, Obb<f64>>::build(mesh.clone(), &opts).unwrap()
        });
        let four = in_pool(4, || {
            Bvh::<f64, Obb<f64>>::build(mesh.clone(), &opts).unwrap()
        });
        assert_eq!(one, four, "{opts:?}");
        assert_eq!(one.to_bytes(), four.to_bytes());
        one.validate().unwrap();
        let a1 = in_pool(1, || {
            Bvh::<f64, Aabb<f64>>::build(mesh.clone(), &opts).unwrap()
        });
        let a3 = in_pool(3, || {
            Bvh::<f64, Aabb<f64>>::build(mesh.clone(), &opts).unwrap()
        });
        assert_eq!(a1, a3);
    }
}

/// OBB and RSS fits of a welded mesh take their extents over each node's
/// distinct vertices (about a sixth of its triangle corners), listed with
/// per-vertex stamps that threads may overwrite; the tree equals, bit for
/// bit, the one fitted over every corner of the same triangles as a soup,
/// on 1 and 3 threads, in f64 and f32, including a sphere's shared poles
/// and a robot link with degenerate triangles.
#[test]
fn welded_meshes_build_the_same_tree_as_their_soup() {
    fn check<T: clash_math::Scalar>(welded: TriMesh<T>) {
        let tris: Vec<_> = welded.triangles().collect();
        let soup = TriMesh::from_triangles(&tris).unwrap();
        assert!(welded.vertices().len() * 2 < soup.vertices().len());
        let opts = BuildOptions::default();
        let soup_obb = Bvh::<T, Obb<T>>::build(soup.clone(), &opts).unwrap();
        let soup_rss = Bvh::<T, Rss<T>>::build(soup, &opts).unwrap();
        for threads in [1, 3] {
            let obb = in_pool(threads, || {
                Bvh::<T, Obb<T>>::build(welded.clone(), &opts).unwrap()
            });
            assert!(obb.nodes() == soup_obb.nodes(), "OBB, {threads} threads");
            obb.validate().unwrap();
            let rss = in_pool(threads, || {
                Bvh::<T, Rss<T>>::build(welded.clone(), &opts).unwrap()
            });
            assert!(rss.nodes() == soup_rss.nodes(), "RSS, {threads} threads");
            rss.validate().unwrap();
        }
    }
    check::<f64>(read_stl("bunny_lo.stl"));
    check::<f64>(read_stl("panda_link6.stl"));
    check::<f32>(read_stl("dog_sacrum.stl"));
    check::<f64>(uv_sphere(2.0, 40, 60));
}

/// Meshes large enough for the SAH builder's chunked parallel binning and
/// stable partitioning (nodes of at least 32768 triangles, chunks of 8192):
/// the tree is bit-identical on any number of threads and valid.
#[test]
fn large_sah_build_is_bit_identical_on_any_thread_count() {
    let mut rng = seeded(47);
    let mesh: TriMesh<f32> = random_soup(&mut rng, 150_000, 10.0, 0.05);
    for opts in [
        BuildOptions::sah(),
        BuildOptions::sah().with_split(SplitRule::Sah { bins: 40 }),
        BuildOptions::sah().with_split(SplitRule::Sah { bins: 256 }),
    ] {
        let one = in_pool(1, || {
            Bvh::<f32, Aabb<f32>>::build(mesh.clone(), &opts).unwrap()
        });
        one.validate().unwrap();
        for threads in [2, 3] {
            let par = in_pool(threads, || {
                Bvh::<f32, Aabb<f32>>::build(mesh.clone(), &opts).unwrap()
            });
            assert_eq!(one, par, "{opts:?} on {threads} threads");
            assert_eq!(one.to_bytes(), par.to_bytes());
        }
    }
    // Volumes fitted after the build (OBB) over the same topology.
    let opts = BuildOptions::sah();
    let one = in_pool(1, || {
        Bvh::<f32, Obb<f32>>::build(mesh.clone(), &opts).unwrap()
    });
    let two = in_pool(2, || {
        Bvh::<f32, Obb<f32>>::build(mesh.clone(), &opts).unwrap()
    });
    assert_eq!(one, two);
    one.validate().unwrap();
}

#[test]
fn batch_results_come_back_in_input_order() {
    let mut rng = seeded(42);
    let ma: TriMesh<f32> = random_soup(&mut rng, 400, 1.0, 0.15);
    let mb: TriMesh<f32> = random_soup(&mut rng, 400, 1.0, 0.15);
    let a = Bvh::<f32, Obb<f32>>::build(ma, &BuildOptions::default()).unwrap();
    let b = Bvh::<f32, Rss<f32>>::build(mb, &BuildOptions::default()).unwrap();
    let poses: Vec<Isometry3<f32>> = (0..300).map(|_| random_pose(&mut rng, 1.0, 3.0)).collect();
    let seq: Vec<_> = poses
        .iter()
        .map(|p| a.collide(&b, p, &CollisionRequest::all()))
        .collect();
    for threads in [1, 2, 4] {
        let par = in_pool(threads, || {
            a.collide_poses(&b, &poses, &CollisionRequest::all())
        });
        assert_eq!(par, seq);
        let any = in_pool(threads, || a.intersects_poses(&b, &poses));
        assert_eq!(any, seq.iter().map(|r| r.collides()).collect::<Vec<_>>());
    }
    assert!(seq.iter().any(|r| r.collides()) && seq.iter().any(|r| !r.collides()));
    let pairs: Vec<_> = poses.iter().map(|p| (&a, &b, *p)).collect();
    assert_eq!(collide_pairs(&pairs, &CollisionRequest::all()), seq);
}

#[test]
fn refit_matches_a_fresh_build() {
    let mut rng = seeded(43);
    let mesh: TriMesh<f64> = read_stl("bunny_lo.stl");
    let other: TriMesh<f64> = random_soup(&mut rng, 300, 1.0, 0.2);
    let b = Bvh::<f64, Obb<f64>>::build(other.clone(), &BuildOptions::default()).unwrap();
    let mut tree = Bvh::<f64, Obb<f64>>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    // A smooth deformation: twist about z and swell.
    let deformed: Vec<Point3<f64>> = mesh
        .vertices()
        .iter()
        .map(|p| {
            let a = 0.8 * p.z;
            let (s, c) = a.sin_cos();
            Point3::new(
                (c * p.x - s * p.y) * 1.3,
                (s * p.x + c * p.y) * 1.3,
                p.z * 0.9,
            )
        })
        .collect();
    tree.refit(&deformed).unwrap();
    tree.validate().unwrap();
    let mut fresh_mesh = mesh.clone();
    fresh_mesh.set_vertices(&deformed).unwrap();
    for _ in 0..10 {
        let pose = random_pose::<f64>(&mut rng, 1.0, 3.0);
        let expected = sorted(brute_force_contacts(&fresh_mesh, &other, &pose));
        assert_eq!(sorted(tree.contacts(&b, pose)), expected);
    }
    // bad refits leave the tree unchanged
    let before = tree.clone();
    assert!(tree.refit(&deformed[..10]).is_err());
    let mut nan = deformed.clone();
    nan[3].y = f64::NAN;
    assert!(tree.refit(&nan).is_err());
    assert_eq!(tree, before);
}

#[test]
fn self_collision_matches_brute_force() {
    let mut rng = seeded(44);
    for opts in [
        BuildOptions::default(),
        BuildOptions::sah(),
        BuildOptions::sah().with_split(SplitRule::Sah { bins: 256 }),
    ] {
        let soup: TriMesh<f64> = random_soup(&mut rng, 600, 1.0, 0.1);
        // share some vertices so that adjacency exclusion is exercised
        let welded = soup.welded(0.05);
        for mesh in [soup, welded] {
            let tree = Bvh::<f64, Kdop14<f64>>::build(mesh.clone(), &opts).unwrap();
            let got = sorted(tree.self_contacts());
            assert_eq!(got, brute_force_self_contacts(&mesh));
        }
    }
    // A closed sphere does not collide with itself.
    let s = Bvh::<f32, Obb<f32>>::build(uv_sphere(1.0, 10, 12), &BuildOptions::default()).unwrap();
    assert!(s.self_contacts().is_empty());
}

#[test]
fn depth_limited_descent_is_conservative() {
    let mut rng = seeded(45);
    let m: TriMesh<f64> = random_soup(&mut rng, 500, 1.0, 0.1);
    let t = Bvh::<f64, Obb<f64>>::build(m, &BuildOptions::default()).unwrap();
    for _ in 0..10 {
        let pose = random_pose::<f64>(&mut rng, 1.0, 3.0);
        let exact = t.intersects(&t, pose);
        for depth in [0, 2, 5] {
            let mut any = false;
            let _ = t.for_each_overlapping_node(&t, pose, depth, |_, _| {
                any = true;
                core::ops::ControlFlow::Break(())
            });
            assert!(any || !exact, "depth {depth} missed a contact");
        }
    }
}

#[test]
fn options_and_shape() {
    let mut rng = seeded(46);
    let m: TriMesh<f32> = random_soup(&mut rng, 1000, 1.0, 0.1);
    assert!(
        Bvh::<f32, Aabb<f32>>::build(m.clone(), &BuildOptions::default().with_max_leaf_size(0))
            .is_err()
    );
    assert!(
        Bvh::<f32, Aabb<f32>>::build(m.clone(), &BuildOptions::default().with_max_depth(65))
            .is_err()
    );
    let t = Bvh::<f32, Aabb<f32>>::build(m.clone(), &BuildOptions::default()).unwrap();
    let s = t.stats();
    assert_eq!(s.nodes, 2 * 1000 - 1);
    assert_eq!(s.leaves, 1000);
    assert_eq!(s.depth, 10); // median split: ceil(log2 1000)
    let shallow =
        Bvh::<f32, Aabb<f32>>::build(m.clone(), &BuildOptions::default().with_max_depth(3))
            .unwrap();
    assert_eq!(shallow.stats().depth, 3);
    shallow.validate().unwrap();
    let big_leaves = Bvh::<f32, Aabb<f32>>::build(m, &BuildOptions::sah()).unwrap();
    assert!(
        big_leaves
            .nodes()
            .iter()
            .filter_map(|n| n.triangle_range())
            .all(|r| r.len() <= 4)
    );
    let _ = Vector3::<f32>::zeros();
}

/// The default fit is the tight fit on nodes of at least
/// `DEFAULT_TIGHT_ABOVE` triangles, for the one volume type that has a
/// tight fit (OBB); every other type builds and records the basic fit.
#[test]
fn default_fit_is_tight_above_for_obb_trees_only() {
    use clash_bvh::{DEFAULT_TIGHT_ABOVE, FitQuality};
    let mut rng = seeded(47);
    let m: TriMesh<f64> = random_soup(&mut rng, 600, 1.0, 0.1);
    let tight_above = FitQuality::TightAbove {
        min_triangles: DEFAULT_TIGHT_ABOVE,
    };
    assert_eq!(BuildOptions::default().fit, tight_above);
    let basic = BuildOptions::default().with_fit(FitQuality::Basic);
    let obb = Bvh::<f64, Obb<f64>>::build(m.clone(), &BuildOptions::default()).unwrap();
    assert_eq!(obb.options().fit, tight_above);
    // The root (600 triangles) is fitted tightly: a different box from the
    // basic fit's, and no larger.
    let obb_basic = Bvh::<f64, Obb<f64>>::build(m.clone(), &basic).unwrap();
    let (tight_root, basic_root) = (&obb.nodes()[0].bv, &obb_basic.nodes()[0].bv);
    assert_ne!(tight_root, basic_root);
    let volume = |b: &Obb<f64>| b.half_extents.product();
    assert!(volume(tight_root) <= volume(basic_root));
    obb.validate().unwrap();
    for opts in [BuildOptions::default(), BuildOptions::sah()] {
        let rss = Bvh::<f64, Rss<f64>>::build(m.clone(), &opts).unwrap();
        assert_eq!(rss.options().fit, FitQuality::Basic);
        assert_eq!(
            rss,
            Bvh::<f64, Rss<f64>>::build(m.clone(), &opts.with_fit(FitQuality::Basic)).unwrap()
        );
        let aabb = Bvh::<f64, Aabb<f64>>::build(m.clone(), &opts).unwrap();
        assert_eq!(aabb.options().fit, FitQuality::Basic);
    }
}

/// Data derived lazily from the mesh (pseudo-normals for signed distance,
/// the ray layout) is rebuilt after a refit: answers equal a fresh build's.
#[test]
fn refit_drops_derived_query_data() {
    let sphere: TriMesh<f64> = uv_sphere(1.0, 12, 16);
    let mut tree = Bvh::<f64, Obb<f64>>::build(sphere.clone(), &BuildOptions::default()).unwrap();
    let points: Vec<Point3<f64>> = (0..40)
        .map(|i| {
            let a = i as f64 * 0.37;
            Point3::new(1.6 * a.cos(), 1.6 * a.sin(), 0.3 * (i % 7) as f64 - 0.9)
        })
        .collect();
    let ray = clash_math::Ray::new(Point3::new(3.0, 0.1, 0.2), Vector3::new(-1.0, 0.0, 0.0));
    let q = clash_bvh::RayQuery::default();
    let distances = |t: &Bvh<f64, Obb<f64>>| -> Vec<f64> {
        t.signed_distances(&points)
            .unwrap()
            .iter()
            .map(|s| s.distance)
            .collect()
    };
    // Fill the caches on the undeformed mesh.
    let before = distances(&tree);
    let _ = tree.cast_ray(&ray, &q);
    // Mirror in x and stretch: the winding turns inside out, so every
    // pseudo-normal flips and so does every sign.
    let deformed: Vec<Point3<f64>> = sphere
        .vertices()
        .iter()
        .map(|p| Point3::new(-p.x * 1.5, p.y, p.z))
        .collect();
    tree.refit(&deformed).unwrap();
    let mut moved = sphere.clone();
    moved.set_vertices(&deformed).unwrap();
    let fresh = Bvh::<f64, Obb<f64>>::build(moved, &BuildOptions::default()).unwrap();
    let got = distances(&tree);
    assert_eq!(got, distances(&fresh));
    assert!(
        got.iter()
            .zip(&before)
            .all(|(a, b)| a.signum() != b.signum()),
        "the mirrored sphere is inside out"
    );
    let hit = tree.cast_ray(&ray, &q).unwrap();
    let want = fresh.cast_ray(&ray, &q).unwrap();
    assert_eq!((hit.triangle, hit.t), (want.triangle, want.t));
}

/// SAH-split OBB and RSS trees fit every node from moments summed
/// bottom-up (children's unions) with extents over the node's distinct
/// vertices: the trees are bit-identical on 1 and 3 threads, valid (every
/// volume contains its triangles exactly), no larger (in area) than the from-scratch
/// fit of each node's triangles beyond rounding in the axes, and answer
/// collision queries as brute force does; on welded meshes (stamped vertex
/// lists) and a soup, in f64 and f32, with one and four triangles a leaf
/// and with the tight fit on the upper levels.
#[test]
fn sah_obb_and_rss_trees_from_summed_moments() {
    fn volumes_near_scratch<T: clash_math::Scalar, B: clash_bv::FitVolume<T>>(tree: &Bvh<T, B>) {
        // Each node's volume against the from-scratch fit of its triangles.
        let nodes = tree.nodes();
        let mut size = vec![(0usize, 0usize); nodes.len()];
        for i in (0..nodes.len()).rev() {
            size[i] = match nodes[i].triangle_range() {
                Some(r) => (r.start, r.len()),
                None => {
                    let (l, r) = nodes[i].children(i as u32).unwrap();
                    (size[l as usize].0, size[l as usize].1 + size[r as usize].1)
                }
            };
        }
        let (mut ours, mut scratch) = (0.0, 0.0);
        for (i, node) in nodes.iter().enumerate() {
            let (first, n) = size[i];
            let tris: Vec<_> = tree.leaf_order()[first..first + n]
                .iter()
                .map(|&t| tree.mesh().triangle(t as usize))
                .collect();
            let want = B::fit_triangles(&tris).unwrap().surface_area().to_f64();
            let got = node.bv.surface_area().to_f64();
            // Two or three triangles can have a nearly round covariance,
            // whose axes rounding turns freely (the median builder's boxes
            // differ from the from-scratch ones there too).
            if n >= 8 {
                assert!(got <= want * 1.5, "node {i} ({n}): {got} against {want}");
            }
            ours += got;
            scratch += want;
        }
        assert!(ours <= scratch * 1.01, "{ours} against {scratch}");
    }
    fn check<T: clash_math::Scalar>(mesh: TriMesh<T>, other: &TriMesh<T>, seed: u64) {
        let basic = clash_bvh::FitQuality::Basic;
        let sah = BuildOptions::default()
            .with_split(SplitRule::Sah { bins: 16 })
            .with_fit(basic);
        for opts in [
            sah,
            BuildOptions::sah().with_fit(basic),
            sah.with_fit(clash_bvh::FitQuality::TightAbove { min_triangles: 64 }),
        ] {
            let obb = in_pool(1, || Bvh::<T, Obb<T>>::build(mesh.clone(), &opts).unwrap());
            let obb3 = in_pool(3, || Bvh::<T, Obb<T>>::build(mesh.clone(), &opts).unwrap());
            assert!(obb == obb3, "OBB {opts:?}");
            obb.validate().unwrap();
            let rss = in_pool(1, || Bvh::<T, Rss<T>>::build(mesh.clone(), &opts).unwrap());
            let rss3 = in_pool(3, || Bvh::<T, Rss<T>>::build(mesh.clone(), &opts).unwrap());
            assert!(rss == rss3, "RSS {opts:?}");
            rss.validate().unwrap();
            if opts.fit == clash_bvh::FitQuality::Basic {
                volumes_near_scratch(&obb);
                volumes_near_scratch(&rss);
            }
            let ob = Bvh::<T, Obb<T>>::build(other.clone(), &opts).unwrap();
            let rb = Bvh::<T, Rss<T>>::build(other.clone(), &opts).unwrap();
            let mut rng = seeded(seed);
            let mut hits = 0;
            for _ in 0..12 {
                let pose = random_pose::<T>(&mut rng, 0.6, 3.0);
                let expected = sorted(brute_force_contacts(&mesh, other, &pose));
                hits += usize::from(!expected.is_empty());
                assert_eq!(sorted(obb.contacts(&ob, pose)), expected, "OBB {opts:?}");
                assert_eq!(sorted(rss.contacts(&rb, pose)), expected, "RSS {opts:?}");
            }
            assert!(hits > 0);
        }
    }
    let mut rng = seeded(48);
    let lo: TriMesh<f64> = read_stl("bunny_lo.stl");
    let scale = |m: TriMesh<f64>| {
        // Bring the bunny to the soup's size (about unit).
        let tris: Vec<_> = m.triangles().collect();
        let bb = tris.iter().fold(
            (
                Point3::new(f64::MAX, f64::MAX, f64::MAX),
                Point3::new(f64::MIN, f64::MIN, f64::MIN),
            ),
            |(lo, hi), t| {
                (
                    lo.inf(&t.a).inf(&t.b).inf(&t.c),
                    hi.sup(&t.a).sup(&t.b).sup(&t.c),
                )
            },
        );
        let s = 1.0 / (bb.1 - bb.0).max();
        let c = Point3::from((bb.0.coords + bb.1.coords) * 0.5);
        let v: Vec<Point3<f64>> = m
            .vertices()
            .iter()
            .map(|p| Point3::from((p - c) * s))
            .collect();
        TriMesh::new(v, m.indices().to_vec()).unwrap()
    };
    let bunny = scale(lo);
    let soup: TriMesh<f64> = random_soup(&mut rng, 300, 1.0, 0.2);
    check::<f64>(bunny.clone(), &soup, 49);
    check::<f64>(random_soup(&mut rng, 2000, 1.0, 0.1), &soup, 50);
    let to32 = |m: &TriMesh<f64>| {
        TriMesh::<f32>::new(
            m.vertices().iter().map(|p| p.cast()).collect(),
            m.indices().to_vec(),
        )
        .unwrap()
    };
    check::<f32>(to32(&bunny), &to32(&soup), 51);
    check::<f32>(to32(&scale(read_stl("panda_link6.stl"))), &to32(&soup), 52);
}
