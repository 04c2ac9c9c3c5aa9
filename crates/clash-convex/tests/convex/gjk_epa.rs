//! GJK and EPA on random hull pairs of every kind, against the brute-force
//! polytope oracles.

use crate::check::hull_pair;
use crate::common::{Gen, Kind, cases};
use clash_convex::ConvexHull;
use clash_convex::gjk::GjkVariant;
use clash_convex::query::QueryRequest;
use clash_math::Vector3;
use proptest::prelude::*;

/// One random case: two hulls of random kinds at a random separation
/// (`gap` times their size along a random direction, from deep overlap to
/// far apart), scaled by `scale` and moved `offset` from the origin.
fn random_case(seed: u64, scale: f64, offset: f64, variant: GjkVariant) -> Result<(), String> {
    let mut g = Gen::new(seed);
    let (ka, kb) = (g.kind(), g.kind());
    let (na, nb) = (4 + g.below(28), 4 + g.below(28));
    let pa: Vec<_> = g.points(ka, na).iter().map(|p| p * scale).collect();
    let pb: Vec<_> = g.points(kb, nb).iter().map(|p| p * scale).collect();
    let a = ConvexHull::new(&pa).unwrap();
    let b = ConvexHull::new(&pb).unwrap();
    let gaps = [-1.5, -0.5, -0.1, -1e-3, 0.0, 1e-3, 0.1, 0.5, 1.0, 3.0];
    let gap = gaps[g.below(gaps.len())];
    let dir = g.unit();
    let base = g.unit() * offset;
    let pose_a = g.pose(base);
    let pose_b = g.pose(base + dir * ((2.0 + gap) * scale));
    let req = QueryRequest {
        gjk_variant: variant,
        ..QueryRequest::default()
    };
    hull_pair(&a, &pose_a, &b, &pose_b, &req, false)
        .map(|_| ())
        .map_err(|e| format!("seed {seed} kinds {ka:?} {kb:?} gap {gap}: {e}"))
}

#[test]
fn random_hull_pairs() {
    for seed in 0..cases(400) as u64 {
        random_case(seed, 1.0, 0.0, GjkVariant::Plain).unwrap();
    }
}

#[test]
fn random_hull_pairs_nesterov() {
    for seed in 0..cases(200) as u64 {
        random_case(seed, 1.0, 0.0, GjkVariant::Nesterov).unwrap();
    }
}

#[test]
fn scales_from_tiny_to_huge() {
    for (i, scale) in [1e-6, 1e-3, 1e3, 1e6].into_iter().enumerate() {
        for seed in 0..cases(60) as u64 {
            random_case(seed + 1000 * i as u64, scale, 0.0, GjkVariant::Plain).unwrap();
        }
    }
}

#[test]
fn far_from_the_origin() {
    for seed in 0..cases(100) as u64 {
        random_case(seed + 77_000, 1.0, 1e4, GjkVariant::Plain).unwrap();
    }
}

#[test]
fn identical_shapes_at_one_pose() {
    let mut g = Gen::new(5);
    for i in 0..cases(60) {
        let kind = [
            Kind::Round,
            Kind::Box,
            Kind::Flat,
            Kind::Needle,
            Kind::Tetra,
        ][i % 5];
        let pts = g.points(kind, 12);
        let h = ConvexHull::new(&pts).unwrap();
        let t = g_unit(&mut g);
        let pose = g.pose(t);
        hull_pair(&h, &pose, &h, &pose, &QueryRequest::default(), false)
            .unwrap_or_else(|e| panic!("case {i} {kind:?}: {e}"));
    }
}

fn g_unit(g: &mut Gen) -> Vector3<f64> {
    g.unit() * g.f(0.0, 10.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64) as u32))]
    #[test]
    fn prop_hull_pairs(seed in any::<u64>(), log_scale in -6.0..6.0f64, far in prop::bool::ANY) {
        let offset = if far { 1e3 } else { 0.0 };
        let r = random_case(seed, 10f64.powf(log_scale), offset, GjkVariant::Plain);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}
