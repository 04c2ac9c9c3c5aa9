//! Tree quality: every volume type with every split rule gives a tree whose
//! SAH cost ([`TreeStats::sah_cost`]) stays within a small factor of the
//! axis-aligned SAH tree's, and the statistics' cost measure is the sum it
//! names (exact areas, or k-DOPs' slab boxes unless asked).

use crate::common;

use clash_bv::{Aabb, BoundingVolume, Capsule, Kdop14, Kdop18, Kdop26, Obb, Rss, Sphere};
use clash_bvh::{BuildOptions, Bvh, SplitRule, TreeStats, TreeVolume, TriMesh};
use common::*;

/// The split rules a user can pick.
fn splits() -> [(&'static str, BuildOptions); 3] {
    [
        ("median", BuildOptions::default()),
        ("mean", BuildOptions::default().with_split(SplitRule::Mean)),
        ("sah", BuildOptions::sah()),
    ]
}

fn stats<B: TreeVolume<f64>>(mesh: &TriMesh<f64>, opts: &BuildOptions) -> TreeStats {
    Bvh::<f64, B>::build(mesh.clone(), opts).unwrap().stats()
}

/// Every volume/split pair's SAH cost over the AABB/SAH tree's, by name.
fn cost_ratios(mesh: &TriMesh<f64>) -> Vec<(String, f64)> {
    let reference = stats::<Aabb<f64>>(mesh, &BuildOptions::sah()).sah_cost;
    let mut out = Vec::new();
    for (split, opts) in splits() {
        let costs = [
            ("aabb", stats::<Aabb<f64>>(mesh, &opts)),
            ("obb", stats::<Obb<f64>>(mesh, &opts)),
            ("rss", stats::<Rss<f64>>(mesh, &opts)),
            ("sphere", stats::<Sphere<f64>>(mesh, &opts)),
            ("capsule", stats::<Capsule<f64>>(mesh, &opts)),
            ("kdop14", stats::<Kdop14<f64>>(mesh, &opts)),
            ("kdop18", stats::<Kdop18<f64>>(mesh, &opts)),
            ("kdop26", stats::<Kdop26<f64>>(mesh, &opts)),
        ];
        for (bv, s) in costs {
            out.push((format!("{bv}/{split}"), s.sah_cost / reference));
        }
    }
    out
}

/// The bound: a median or mean tree, or a tree of rounder volumes, costs
/// somewhat more than the AABB/SAH tree, never orders of magnitude more.
const MAX_COST_RATIO: f64 = 8.0;

fn assert_sane(name: &str, mesh: &TriMesh<f64>) {
    let ratios = cost_ratios(mesh);
    for (pair, r) in &ratios {
        assert!(
            r.is_finite() && *r <= MAX_COST_RATIO,
            "{name}: {pair} costs {r:.2}x the AABB/SAH tree: {ratios:?}"
        );
    }
}

#[test]
fn every_volume_and_split_is_near_the_aabb_sah_tree_on_real_meshes() {
    for name in ["bunny_lo.stl", "dog_sacrum.stl", "panda_link6.stl"] {
        assert_sane(name, &read_stl::<f64>(name));
    }
}

#[test]
fn every_volume_and_split_is_near_the_aabb_sah_tree_on_generated_meshes() {
    // A long thin soup (a median split along the wrong axis shows at once)
    // and a closed sphere.
    let mut rng = seeded(71);
    let soup: TriMesh<f64> = random_soup(&mut rng, 3000, 10.0, 0.3);
    let long = TriMesh::new(
        soup.vertices()
            .iter()
            .map(|p| clash_math::Point3::new(p.x * 0.05, p.y, p.z * 0.2))
            .collect(),
        soup.indices().to_vec(),
    )
    .unwrap();
    assert_sane("long soup", &long);
    assert_sane("uv sphere", &uv_sphere::<f64>(1.0, 40, 60));
}

#[test]
fn stats_cost_is_exact_except_for_kdops_slab_boxes() {
    let mut rng = seeded(72);
    let mesh: TriMesh<f64> = random_soup(&mut rng, 200, 1.0, 0.2);
    // Internal nodes' areas over the root's (the root comes first).
    fn by_hand<B: BoundingVolume<f64>>(t: &Bvh<f64, B>, area: impl Fn(&B) -> f64) -> f64 {
        let v: Vec<f64> = t
            .nodes()
            .iter()
            .filter(|n| n.triangle_range().is_none())
            .map(|n| area(&n.bv))
            .collect();
        v.iter().sum::<f64>() / v[0]
    }
    let obb = Bvh::<f64, Obb<f64>>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    let s = obb.stats();
    assert!(s.sah_cost_exact);
    assert_eq!(s.sah_cost, obb.exact_sah_cost());
    assert!((s.sah_cost - by_hand(&obb, |b| b.surface_area())).abs() <= 1e-12 * s.sah_cost);

    let kdop = Bvh::<f64, Kdop26<f64>>::build(mesh, &BuildOptions::default()).unwrap();
    let s = kdop.stats();
    assert!(!s.sah_cost_exact);
    let boxes = by_hand(&kdop, |b| b.aabb().surface_area());
    assert!((s.sah_cost - boxes).abs() <= 1e-12 * boxes);
    let exact = kdop.exact_sah_cost();
    assert!((exact - by_hand(&kdop, |b| b.surface_area())).abs() <= 1e-12 * exact);
    // Each polytope lies in its slab box, so its area is no larger (up to
    // the rounding of the vertex solve, relative to the root's size).
    let root = kdop.nodes()[0].bv.aabb().surface_area();
    for n in kdop.nodes() {
        let (a, b) = (n.bv.surface_area(), n.bv.aabb().surface_area());
        assert!(
            a <= b * (1.0 + 1e-9) + root * 1e-12,
            "{a} > {b}: {:?}",
            n.bv
        );
    }
}
