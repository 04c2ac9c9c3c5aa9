//! Mesh/mesh collision equals brute force over all triangle pairs, for every
//! bounding volume type, f32 and f64, on random, real and adversarial scenes.

use crate::common;

use clash_bv::{Aabb, BoundingVolume, Capsule, Kdop14, Kdop18, Kdop26, Obb, Rss, Sphere};
use clash_bvh::{BuildOptions, BvPair, Bvh, CollisionRequest, FitQuality, TreeVolume, TriMesh};
use clash_math::{Isometry3, Scalar};
use common::*;

/// Checks one pose: all pairs, any contact and first-N against brute force.
fn check_pose<T: Scalar, A: BoundingVolume<T> + BvPair<T, B>, B: BoundingVolume<T>>(
    a: &Bvh<T, A>,
    b: &Bvh<T, B>,
    pose: &Isometry3<T>,
    expected: &[[u32; 2]],
    what: &str,
) {
    let got = sorted(a.contacts(b, pose));
    assert_eq!(
        got, expected,
        "{what}: contact set differs from brute force (pose {pose})"
    );
    assert_eq!(
        a.intersects(b, pose),
        !expected.is_empty(),
        "{what}: any-contact differs"
    );
    let first = a.collide(b, pose, &CollisionRequest::first(3)).pairs;
    assert_eq!(first.len(), expected.len().min(3), "{what}: first-3 count");
    assert!(
        first.iter().all(|p| expected.binary_search(p).is_ok()),
        "{what}: first-3 pairs are contacts"
    );
}

fn check_type<T: Scalar, B: TreeVolume<T>>(seed: u64) {
    let mut rng = seeded(seed);
    for (k, opts) in tree_shapes().iter().enumerate() {
        let ma: TriMesh<T> = random_soup(&mut rng, 300, 1.0, 0.15);
        let mb: TriMesh<T> = random_soup(&mut rng, 200, 1.0, 0.15);
        let a = Bvh::<T, B>::build(ma.clone(), opts).unwrap();
        let b = Bvh::<T, B>::build(mb.clone(), opts).unwrap();
        a.validate().unwrap();
        b.validate().unwrap();
        let mut hits = 0;
        for _ in 0..12 {
            let pose = random_pose::<T>(&mut rng, 0.8, 3.0);
            let expected = sorted(brute_force_contacts(&ma, &mb, &pose));
            hits += usize::from(!expected.is_empty());
            check_pose(
                &a,
                &b,
                &pose,
                &expected,
                &format!("{} {} opts {k}", T::NAME, B::NAME),
            );
        }
        assert!(hits > 0, "the random scenes should contain contacts");
    }
}

#[test]
fn random_soups_every_bv_type_f64() {
    check_type::<f64, Aabb<f64>>(1);
    check_type::<f64, Obb<f64>>(2);
    check_type::<f64, Sphere<f64>>(3);
    check_type::<f64, Capsule<f64>>(4);
    check_type::<f64, Rss<f64>>(5);
    check_type::<f64, Kdop14<f64>>(6);
    check_type::<f64, Kdop18<f64>>(7);
    check_type::<f64, Kdop26<f64>>(8);
}

#[test]
fn random_soups_every_bv_type_f32() {
    check_type::<f32, Aabb<f32>>(11);
    check_type::<f32, Obb<f32>>(12);
    check_type::<f32, Sphere<f32>>(13);
    check_type::<f32, Capsule<f32>>(14);
    check_type::<f32, Rss<f32>>(15);
    check_type::<f32, Kdop14<f32>>(16);
    check_type::<f32, Kdop18<f32>>(17);
    check_type::<f32, Kdop26<f32>>(18);
}

#[test]
fn mixed_bv_types_pair_up() {
    let mut rng = seeded(21);
    let ma: TriMesh<f64> = random_soup(&mut rng, 250, 1.0, 0.15);
    let mb: TriMesh<f64> = random_soup(&mut rng, 250, 1.0, 0.15);
    let opts = BuildOptions::default();
    let a_obb = Bvh::<f64, Obb<f64>>::build(ma.clone(), &opts).unwrap();
    let b_aabb = Bvh::<f64, Aabb<f64>>::build(mb.clone(), &opts).unwrap();
    let b_rss = Bvh::<f64, Rss<f64>>::build(mb.clone(), &opts).unwrap();
    let b_sphere = Bvh::<f64, Sphere<f64>>::build(mb.clone(), &opts).unwrap();
    let b_kdop = Bvh::<f64, Kdop18<f64>>::build(mb.clone(), &opts).unwrap();
    for _ in 0..10 {
        let pose = random_pose::<f64>(&mut rng, 0.8, 3.0);
        let expected = sorted(brute_force_contacts(&ma, &mb, &pose));
        check_pose(&a_obb, &b_aabb, &pose, &expected, "obb/aabb");
        check_pose(&a_obb, &b_rss, &pose, &expected, "obb/rss");
        check_pose(&a_obb, &b_sphere, &pose, &expected, "obb/sphere");
        check_pose(&a_obb, &b_kdop, &pose, &expected, "obb/kdop18");
    }
}

#[test]
fn real_meshes_against_brute_force() {
    let bunny: TriMesh<f64> = read_stl("bunny_lo.stl");
    assert_eq!(bunny.num_triangles(), 902);
    let obb = Bvh::<f64, Obb<f64>>::build(bunny.clone(), &BuildOptions::default()).unwrap();
    let aabb = Bvh::<f64, Aabb<f64>>::build(bunny.clone(), &BuildOptions::sah()).unwrap();
    // Tight fits on the upper levels only (sampled axes above 64 triangles).
    let obb_top = Bvh::<f64, Obb<f64>>::build(
        bunny.clone(),
        &BuildOptions::default().with_fit(FitQuality::TightAbove { min_triangles: 100 }),
    )
    .unwrap();
    let rss = Bvh::<f64, Rss<f64>>::build(
        bunny.clone(),
        &BuildOptions::default().with_fit(FitQuality::Tight),
    )
    .unwrap();
    let mut rng = seeded(31);
    let mut hits = 0;
    for _ in 0..16 {
        let pose = random_pose::<f64>(&mut rng, 1.2, 3.0);
        let expected = sorted(brute_force_contacts(&bunny, &bunny, &pose));
        hits += usize::from(!expected.is_empty());
        check_pose(&obb, &obb, &pose, &expected, "bunny obb");
        check_pose(&aabb, &aabb, &pose, &expected, "bunny aabb sah");
        check_pose(
            &obb_top,
            &obb,
            &pose,
            &expected,
            "bunny obb-tight-above/obb",
        );
        check_pose(&rss, &obb, &pose, &expected, "bunny rss-tight/obb");
    }
    assert!(hits >= 4, "most poses near the bunny should touch: {hits}");
    // f32 on the panda link: a non-watertight robot mesh with degenerate triangles.
    let panda: TriMesh<f32> = read_stl("panda_link6.stl");
    let sacrum: TriMesh<f32> = read_stl("dog_sacrum.stl");
    let tp = Bvh::<f32, Obb<f32>>::build(panda.clone(), &BuildOptions::default()).unwrap();
    let ts = Bvh::<f32, Aabb<f32>>::build(sacrum.clone(), &BuildOptions::sah()).unwrap();
    let mut rng = seeded(32);
    for _ in 0..3 {
        let pose = random_pose::<f32>(&mut rng, 0.05, 3.0);
        let expected = sorted(brute_force_contacts(&panda, &sacrum, &pose));
        check_pose(&tp, &ts, &pose, &expected, "panda/sacrum f32");
    }
}

#[test]
fn adversarial_scenes() {
    // Coincident meshes: every triangle touches itself and its neighbours.
    let sphere: TriMesh<f64> = uv_sphere(1.0, 12, 16);
    let t = Bvh::<f64, Obb<f64>>::build(sphere.clone(), &BuildOptions::default()).unwrap();
    let id = Isometry3::identity();
    let expected = sorted(brute_force_contacts(&sphere, &sphere, &id));
    assert!(expected.len() >= sphere.num_triangles());
    check_pose(&t, &t, &id, &expected, "coincident");
    // Touching: a copy shifted by exactly the diameter along z: the south pole
    // of one is the north pole of the other, bit for bit.
    let shift = Isometry3::translation(0.0, 0.0, -2.0);
    let expected = sorted(brute_force_contacts(&sphere, &sphere, &shift));
    assert!(
        !expected.is_empty(),
        "touching spheres share the pole vertex"
    );
    check_pose(&t, &t, &shift, &expected, "touching");
    // Nested: a small sphere inside, no triangle contact; containment finds it.
    let small: TriMesh<f64> = uv_sphere(0.3, 6, 8);
    let ts = Bvh::<f64, Aabb<f64>>::build(small.clone(), &BuildOptions::default()).unwrap();
    let inside = Isometry3::translation(0.1, -0.2, 0.05);
    assert!(brute_force_contacts(&sphere, &small, &inside).is_empty());
    assert!(!t.intersects(&ts, inside));
    let r = t.collide(&ts, inside, &CollisionRequest::any().with_containment());
    assert_eq!(r.containment, Some(clash_bvh::Containment::BInsideA));
    let r = ts.collide(
        &t,
        inside.inverse(),
        &CollisionRequest::any().with_containment(),
    );
    assert_eq!(r.containment, Some(clash_bvh::Containment::AInsideB));
    let outside = Isometry3::translation(3.0, 0.0, 0.0);
    assert!(
        !t.collide(&ts, outside, &CollisionRequest::any().with_containment())
            .collides()
    );
    // Degenerate-only meshes: points and segments touching a triangle.
    let tri = TriMesh::<f64>::new(
        vec![
            clash_math::Point3::new(0.0, 0.0, 0.0),
            clash_math::Point3::new(1.0, 0.0, 0.0),
            clash_math::Point3::new(0.0, 1.0, 0.0),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap();
    let degen = TriMesh::<f64>::new(
        vec![
            clash_math::Point3::new(0.25, 0.25, 0.0),
            clash_math::Point3::new(0.25, 0.25, 1.0),
            clash_math::Point3::new(0.5, 0.5, 0.0),
        ],
        vec![[0, 0, 0], [0, 1, 1], [1, 1, 1], [2, 2, 2]],
    )
    .unwrap();
    let a = Bvh::<f64, Obb<f64>>::build(tri.clone(), &BuildOptions::default()).unwrap();
    let b = Bvh::<f64, Obb<f64>>::build(degen.clone(), &BuildOptions::default()).unwrap();
    let expected = sorted(brute_force_contacts(&tri, &degen, &id));
    assert_eq!(expected, vec![[0, 0], [0, 1], [0, 3]]);
    check_pose(&a, &b, &id, &expected, "degenerate");
}
