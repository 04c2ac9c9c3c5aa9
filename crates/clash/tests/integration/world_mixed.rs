//! `CollisionWorld` of mixed kinds (meshes, balls, boxes, capsules,
//! cylinders, cones, hulls) against a brute-force loop of the pairwise
//! queries over every checked pair: filters, allowed pairs, selections,
//! margins, first collision, minimum distance, and batches, on 1 and 2
//! threads. Scenes of 2 to 300 objects by default; `CLASH_WORLD_OBJECTS=10000`
//! adds a scene of that size (see `docs/long_checks.md`).

use super::world::{random_pose, shipped};
use clash::prelude::*;
use clash::{Selection, WorldError};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

type World = CollisionWorld<f64, Obb<f64>>;
type Geo = clash::Geometry<f64, Obb<f64>>;

/// A closed octahedron-like mesh of radius `r` (eight faces).
fn octahedron(r: f64) -> TriMesh<f64> {
    let v = vec![
        Point3::new(r, 0.0, 0.0),
        Point3::new(-r, 0.0, 0.0),
        Point3::new(0.0, r, 0.0),
        Point3::new(0.0, -r, 0.0),
        Point3::new(0.0, 0.0, r),
        Point3::new(0.0, 0.0, -r),
    ];
    let f = vec![
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    TriMesh::new(v, f).unwrap()
}

struct Kinds {
    meshes: Vec<Arc<ObbTree<f64>>>,
}

impl Kinds {
    fn new() -> Self {
        let bunny = load_mesh::<f64>(shipped("bunny_lo.stl")).unwrap();
        // Scale the bunny to about one unit across.
        let b = Aabb::from_points(bunny.vertices()).unwrap();
        let s = 1.0 / (b.max - b.min).max();
        let c = nalgebra::center(&b.min, &b.max);
        let scaled = TriMesh::new(
            bunny
                .vertices()
                .iter()
                .map(|p| Point3::from((p - c) * s))
                .collect(),
            bunny.indices().to_vec(),
        )
        .unwrap();
        let build = |m| Arc::new(Bvh::build(m, &BuildOptions::default()).unwrap());
        Self {
            meshes: vec![build(scaled), build(octahedron(0.5))],
        }
    }

    fn random(&self, rng: &mut ChaCha8Rng) -> Geo {
        let s = |rng: &mut ChaCha8Rng| rng.random_range(0.1..0.6);
        match rng.random_range(0..8) {
            0 => Geo::Mesh(self.meshes[0].clone()),
            1 => Geo::Mesh(self.meshes[1].clone()),
            2 => Shape::Ball(Ball::new(s(rng)).unwrap()).into(),
            3 => Shape::Cuboid(Cuboid::new(Vector3::new(s(rng), s(rng), s(rng))).unwrap()).into(),
            4 => Shape::Capsule(CapsuleShape::new(s(rng), s(rng) / 2.0).unwrap()).into(),
            5 => Shape::Cylinder(Cylinder::new(s(rng), s(rng)).unwrap()).into(),
            6 => Shape::Cone(Cone::new(s(rng), s(rng)).unwrap()).into(),
            _ => {
                let points: Vec<Point3<f64>> = (0..12)
                    .map(|_| Point3::new(s(rng), s(rng), s(rng)) - Vector3::repeat(0.35))
                    .collect();
                Shape::ConvexHull(Arc::new(ConvexHull::new(&points).unwrap())).into()
            }
        }
    }
}

/// The pairwise queries, dispatched by hand: the oracle's narrow phase.
fn pair_intersects(a: (&Geo, &Isometry3<f64>), b: (&Geo, &Isometry3<f64>), margin: f64) -> bool {
    let req = QueryRequest {
        security_margin: margin,
        ..QueryRequest::default()
    };
    match (a.0, b.0) {
        (Geo::Mesh(x), Geo::Mesh(y)) if margin == 0.0 => x.intersects(y, a.1.inv_mul(b.1)),
        (Geo::Mesh(x), Geo::Mesh(y)) => x.distance(y, a.1.inv_mul(b.1)).distance < margin,
        (Geo::Mesh(x), Geo::Convex(s)) => x.intersects_convex(s, &a.1.inv_mul(b.1), &req),
        (Geo::Convex(s), Geo::Mesh(x)) => x.intersects_convex(s, &b.1.inv_mul(a.1), &req),
        (Geo::Convex(s), Geo::Convex(t)) => intersects(s, a.1, t, b.1, &req),
    }
}

fn pair_distance(a: (&Geo, &Isometry3<f64>), b: (&Geo, &Isometry3<f64>)) -> f64 {
    let req = QueryRequest::default();
    match (a.0, b.0) {
        (Geo::Mesh(x), Geo::Mesh(y)) => x.distance(y, a.1.inv_mul(b.1)).distance,
        (Geo::Mesh(x), Geo::Convex(s)) => {
            x.distance_to_convex(s, &a.1.inv_mul(b.1), &req)
                .unwrap()
                .distance
        }
        (Geo::Convex(s), Geo::Mesh(x)) => {
            x.distance_to_convex(s, &b.1.inv_mul(a.1), &req)
                .unwrap()
                .distance
        }
        (Geo::Convex(s), Geo::Convex(t)) => distance(s, a.1, t, b.1, &req).distance,
    }
}

/// A scene as the oracle sees it: objects in handle order with their
/// filters, and the allowed pairs.
struct Scene {
    world: World,
    handles: Vec<ObjectHandle>,
    geos: Vec<Geo>,
    poses: Vec<Isometry3<f64>>,
    filters: Vec<CollisionFilter>,
}

impl Scene {
    fn random(kinds: &Kinds, n: usize, seed: u64, spread: f64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let extent = spread * (n as f64).cbrt();
        let mut world = World::new(0.05).unwrap();
        let (mut handles, mut geos, mut poses, mut filters) = (vec![], vec![], vec![], vec![]);
        for _ in 0..n {
            let g = kinds.random(&mut rng);
            let p = random_pose(&mut rng, extent);
            let f = if rng.random_bool(0.5) {
                CollisionFilter::ALL
            } else {
                CollisionFilter::new(1 << rng.random_range(0..3), rng.random_range(1..8))
            };
            let settings = clash::ObjectSettings {
                filter: f,
                tag: handles.len() as u64,
            };
            handles.push(world.insert_with(g.clone(), p, settings).unwrap());
            geos.push(g);
            poses.push(p);
            filters.push(f);
        }
        // Allow about one pair per three objects.
        for _ in 0..n / 3 {
            let (i, j) = (rng.random_range(0..n), rng.random_range(0..n));
            if i != j {
                world.allow_pair(handles[i], handles[j], true).unwrap();
            }
        }
        Self {
            world,
            handles,
            geos,
            poses,
            filters,
        }
    }

    fn selected(&self, sel: Selection, i: usize, j: usize) -> bool {
        let (gi, gj) = (self.filters[i].groups, self.filters[j].groups);
        let chosen = match sel {
            Selection::All => true,
            Selection::Object(h) => self.handles[i] == h || self.handles[j] == h,
            Selection::GroupVsRest(g) => (gi & g != 0) != (gj & g != 0),
            Selection::WithinGroup(g) => gi & g != 0 && gj & g != 0,
        };
        chosen
            && self.filters[i].interacts(&self.filters[j])
            && !self.world.is_pair_allowed(self.handles[i], self.handles[j])
    }

    fn placed(&self, i: usize) -> (&Geo, &Isometry3<f64>) {
        (&self.geos[i], &self.poses[i])
    }

    /// Colliding pairs and the minimum distance (with every pair at it) by brute force.
    fn brute(
        &self,
        sel: Selection,
        margin: f64,
        with_distance: bool,
    ) -> (Vec<(ObjectHandle, ObjectHandle)>, Option<f64>) {
        let n = self.handles.len();
        let mut hits = Vec::new();
        let mut best: Option<f64> = None;
        for i in 0..n {
            for j in i + 1..n {
                if !self.selected(sel, i, j) {
                    continue;
                }
                if pair_intersects(self.placed(i), self.placed(j), margin) {
                    hits.push((self.handles[i], self.handles[j]));
                }
                if with_distance {
                    let d = pair_distance(self.placed(i), self.placed(j));
                    best = Some(best.map_or(d, |b: f64| b.min(d)));
                }
            }
        }
        (hits, best)
    }

    fn check(&mut self, sel: Selection, margin: f64, with_distance: bool) {
        let query = WorldQuery {
            selection: sel,
            margin,
            max_contacts_per_pair: 3,
            ..WorldQuery::default()
        };
        let (hits, best) = self.brute(sel, margin, with_distance);
        let got = self.world.collide(&query).unwrap();
        let pairs: Vec<_> = got.iter().map(|c| (c.a, c.b)).collect();
        assert_eq!(pairs, hits, "{sel:?} margin {margin}");
        for c in &got {
            assert!(!c.contacts.is_empty() && c.contacts.len() <= 3);
            for k in &c.contacts {
                assert!(
                    k.distance < margin + 1e-9 && k.distance.is_finite(),
                    "{k:?}"
                );
            }
        }
        assert_eq!(
            self.world.first_collision(&query).unwrap(),
            hits.first().copied()
        );
        if with_distance {
            let d = self.world.distance(&query).unwrap();
            match (d, best) {
                (Some(d), Some(b)) => {
                    assert!(
                        (d.distance - b).abs() <= 1e-9,
                        "{sel:?}: world {} brute {b}",
                        d.distance
                    );
                    let (i, j) = (self.index(d.a), self.index(d.b));
                    assert!(self.selected(sel, i, j));
                    let again = pair_distance(self.placed(i), self.placed(j));
                    assert!((again - d.distance).abs() <= 1e-9);
                    let gap = (d.points[1] - d.points[0]).norm();
                    assert!(
                        (gap - d.distance).abs() <= 1e-9,
                        "witness points {gap} apart"
                    );
                }
                (None, None) => {}
                other => panic!("{sel:?}: {other:?}"),
            }
        }
    }

    fn index(&self, h: ObjectHandle) -> usize {
        self.handles.iter().position(|&x| x == h).unwrap()
    }
}

/// Dense scenes (`spread` 0.55) have many collisions; sparse ones (1.5)
/// have positive minimum distances.
fn run(n: usize, seed: u64, spread: f64, with_distance: bool) -> Vec<String> {
    let kinds = Kinds::new();
    let mut scene = Scene::random(&kinds, n, seed, spread);
    let mut log = Vec::new();
    let some = scene.handles[n / 2];
    for sel in [
        Selection::All,
        Selection::Object(some),
        Selection::GroupVsRest(1),
        Selection::WithinGroup(2),
    ] {
        for margin in [0.0, 0.05] {
            scene.check(sel, margin, with_distance && margin == 0.0);
        }
        log.push(format!(
            "{:?}",
            scene
                .world
                .collide(&WorldQuery::default().with_selection(sel))
                .unwrap()
        ));
        if with_distance {
            log.push(format!(
                "{:?}",
                scene
                    .world
                    .distance(&WorldQuery::default().with_selection(sel))
                    .unwrap()
            ));
        }
    }
    log
}

#[test]
fn mixed_worlds_equal_brute_force_on_any_thread_count() {
    for (n, seed) in [(2, 1), (3, 2), (10, 3), (40, 4), (120, 5)] {
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let two = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for spread in [0.55, 1.5] {
            let a = one.install(|| run(n, seed, spread, true));
            let b = two.install(|| run(n, seed, spread, true));
            assert_eq!(a, b, "{n} objects");
        }
    }
}

#[test]
fn large_world_collisions_equal_brute_force() {
    let n = std::env::var("CLASH_WORLD_OBJECTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let kinds = Kinds::new();
    let mut scene = Scene::random(&kinds, n, 99, 0.55);
    scene.check(Selection::All, 0.0, false);
    scene.check(Selection::GroupVsRest(4), 0.02, false);
    // Distance over the whole scene: against brute force on a sample of
    // pairs is not enough, so check all pairs only up to 1,000 objects.
    scene.check(Selection::Object(scene.handles[0]), 0.0, true);
    if n <= 1000 {
        scene.check(Selection::All, 0.0, true);
    }
}

#[test]
fn batches_equal_single_queries() {
    let kinds = Kinds::new();
    let mut scene = Scene::random(&kinds, 30, 7, 0.55);
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let configs: Vec<Vec<Isometry3<f64>>> = (0..20)
        .map(|_| (0..30).map(|_| random_pose(&mut rng, 4.5)).collect())
        .collect();
    let flat: Vec<Isometry3<f64>> = configs.concat();
    for sel in [Selection::All, Selection::WithinGroup(1)] {
        let query = WorldQuery::default().with_selection(sel);
        let firsts = scene.world.batch_first_collision(&flat, &query).unwrap();
        let dists = scene.world.batch_distance(&flat, &query).unwrap();
        assert_eq!(firsts.len(), 20);
        for (k, poses) in configs.iter().enumerate() {
            for (h, p) in scene.handles.iter().zip(poses) {
                scene.world.set_pose(*h, *p).unwrap();
            }
            assert_eq!(
                firsts[k],
                scene.world.first_collision(&query).unwrap(),
                "config {k}"
            );
            let single = scene.world.distance(&query).unwrap();
            assert_eq!(
                dists[k].map(|d| (d.a, d.b, d.distance)),
                single.map(|d| (d.a, d.b, d.distance))
            );
        }
        assert!(firsts.iter().any(Option::is_some) && firsts.iter().any(Option::is_none));
    }
}

/// Worlds of more than 2^20 object pairs sort and sweep each
/// configuration's boxes instead of testing a list of pairs.
#[test]
fn batches_of_large_worlds_equal_single_queries() {
    let n = 1500;
    let mut world = World::new(0.0).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let handles: Vec<ObjectHandle> = (0..n)
        .map(|i| {
            let shape = if i % 2 == 0 {
                Shape::Ball(Ball::new(0.3).unwrap())
            } else {
                Shape::Cuboid(Cuboid::new(Vector3::new(0.3, 0.2, 0.1)).unwrap())
            };
            world.insert(shape, Isometry3::identity()).unwrap()
        })
        .collect();
    for _ in 0..n / 10 {
        let (i, j) = (rng.random_range(0..n), rng.random_range(0..n));
        if i != j {
            world.allow_pair(handles[i], handles[j], true).unwrap();
        }
    }
    let configs: Vec<Vec<Isometry3<f64>>> = [9.0, 30.0, 60.0]
        .iter()
        .map(|&reach| (0..n).map(|_| random_pose(&mut rng, reach)).collect())
        .collect();
    let query = WorldQuery::default();
    let firsts = world
        .batch_first_collision(&configs.concat(), &query)
        .unwrap();
    let dists = world.batch_distance(&configs.concat(), &query).unwrap();
    for (k, poses) in configs.iter().enumerate() {
        for (h, p) in handles.iter().zip(poses) {
            world.set_pose(*h, *p).unwrap();
        }
        assert_eq!(
            firsts[k],
            world.first_collision(&query).unwrap(),
            "config {k}"
        );
        let single = world.distance(&query).unwrap().unwrap();
        let batch = dists[k].unwrap();
        assert_eq!(
            (batch.a, batch.b, batch.distance),
            (single.a, single.b, single.distance)
        );
    }
    assert!(firsts[0].is_some() && firsts[2].is_none(), "{firsts:?}");
}

#[test]
fn bad_queries_and_batches_are_refused() {
    let kinds = Kinds::new();
    let mut scene = Scene::random(&kinds, 5, 11, 0.55);
    let bad = |q: WorldQuery<f64>| q;
    for q in [
        bad(WorldQuery {
            margin: -1.0,
            ..WorldQuery::default()
        }),
        bad(WorldQuery {
            margin: f64::NAN,
            ..WorldQuery::default()
        }),
        bad(WorldQuery {
            max_contacts_per_pair: 0,
            ..WorldQuery::default()
        }),
        bad(WorldQuery {
            max_distance: f64::NAN,
            ..WorldQuery::default()
        }),
    ] {
        assert!(matches!(
            scene.world.collide(&q),
            Err(WorldError::InvalidQuery(_))
        ));
        assert!(matches!(
            scene.world.distance(&q),
            Err(WorldError::InvalidQuery(_))
        ));
    }
    let removed = scene.handles[4];
    scene.world.remove(removed).unwrap();
    let stale = WorldQuery::default().with_selection(Selection::Object(removed));
    assert!(matches!(
        scene.world.first_collision(&stale),
        Err(WorldError::BroadPhase(_))
    ));
    let q = WorldQuery::default();
    let four = vec![Isometry3::identity(); 4];
    assert!(scene.world.batch_first_collision(&four[..3], &q).is_err());
    let mut nan = four.clone();
    nan[2] = Isometry3::translation(f64::NAN, 0.0, 0.0);
    assert_eq!(
        scene.world.batch_distance(&nan, &q).unwrap_err(),
        WorldError::NonFiniteBatchPose {
            config: 0,
            object: 2
        }
    );
    assert!(
        scene
            .world
            .allow_pair(scene.handles[0], scene.handles[0], true)
            .is_err()
    );
    assert!(
        scene
            .world
            .allow_pair(scene.handles[0], removed, true)
            .is_err()
    );
}

#[test]
fn touching_objects_collide_and_are_at_distance_zero() {
    let mut world = World::new(0.0).unwrap();
    let cube = Shape::Cuboid(Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap());
    let a = world.insert(cube.clone(), Isometry3::identity()).unwrap();
    let tree = Arc::new(Bvh::build(octahedron(0.5), &BuildOptions::default()).unwrap());
    // The octahedron's vertex touches the cube's face.
    let b = world
        .insert(tree, Isometry3::translation(1.0, 0.0, 0.0))
        .unwrap();
    let q = WorldQuery::default();
    assert_eq!(world.first_collision(&q).unwrap(), Some((a, b)));
    assert_eq!(world.distance(&q).unwrap().unwrap().distance, 0.0);
    world
        .set_pose(b, Isometry3::translation(1.0 + 1e-9, 0.0, 0.0))
        .unwrap();
    assert_eq!(world.first_collision(&q).unwrap(), None);
    let d = world.distance(&q).unwrap().unwrap().distance;
    assert!((d - 1e-9).abs() < 1e-15, "{d}");
    let near = WorldQuery { margin: 2e-9, ..q };
    assert_eq!(world.first_collision(&near).unwrap(), Some((a, b)));
}
