//! `CollisionWorld` against brute force: over a random simulation with
//! insertions, removals, teleports and small moves, `collide` returns exactly
//! the pairs (and triangle pairs) that colliding every pair of objects
//! directly gives, in handle order, whatever the thread count.

use clash::prelude::*;
use clash::{CollisionWorld, WorldError, WorldQuery};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::sync::Arc;

pub(super) fn shipped(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/meshes")
        .join(name)
}

pub(super) fn random_pose(rng: &mut ChaCha8Rng, extent: f64) -> Isometry3<f64> {
    let axis = Vector3::new(
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
    );
    let t = Vector3::new(
        rng.random_range(-extent..extent),
        rng.random_range(-extent..extent),
        rng.random_range(-extent..extent),
    );
    Isometry3::from_parts(t.into(), UnitQuaternion::from_scaled_axis(axis))
}

type Tree = Bvh<f64, Obb<f64>>;
/// The colliding pairs of one step with their triangle pairs.
type StepContacts = Vec<(ObjectHandle, ObjectHandle, Vec<[u32; 2]>)>;

fn brute_force(objects: &BTreeMap<ObjectHandle, (Arc<Tree>, Isometry3<f64>)>) -> StepContacts {
    let list: Vec<_> = objects.iter().collect();
    let mut out = Vec::new();
    for i in 0..list.len() {
        for j in i + 1..list.len() {
            let (ha, (ta, pa)) = list[i];
            let (hb, (tb, pb)) = list[j];
            let r = ta.collide(tb, pa.inv_mul(pb), &CollisionRequest::all());
            if r.collides() {
                out.push((*ha, *hb, r.pairs));
            }
        }
    }
    out
}

fn run_simulation(threads: usize) -> Vec<StepContacts> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let bunny: Arc<Tree> = Arc::new(
            Bvh::build(
                load_mesh(shipped("bunny_lo.stl")).unwrap(),
                &BuildOptions::default(),
            )
            .unwrap(),
        );
        let sacrum: Arc<Tree> = Arc::new(
            Bvh::build(
                load_mesh(shipped("dog_sacrum.stl")).unwrap(),
                &BuildOptions::default(),
            )
            .unwrap(),
        );
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let mut world = CollisionWorld::new(0.05).unwrap();
        let mut objects = BTreeMap::new();
        let extent = 4.0;
        let mut answers = Vec::new();
        for step in 0..150 {
            // Insert, remove, teleport or nudge.
            for _ in 0..4 {
                let handles: Vec<ObjectHandle> = objects.keys().copied().collect();
                let op = if handles.is_empty() {
                    0
                } else {
                    rng.random_range(0..10)
                };
                match op {
                    0..=2 if objects.len() < 30 || handles.is_empty() => {
                        let tree = if rng.random_bool(0.5) {
                            &bunny
                        } else {
                            &sacrum
                        };
                        let pose = random_pose(&mut rng, extent);
                        let h = world.insert(tree.clone(), pose).unwrap();
                        objects.insert(h, (tree.clone(), pose));
                    }
                    0..=3 => {
                        let h = handles[rng.random_range(0..handles.len())];
                        world.remove(h).unwrap();
                        objects.remove(&h);
                        // A removed handle is refused from now on.
                        assert!(matches!(
                            world.set_pose(h, Isometry3::identity()),
                            Err(WorldError::BroadPhase(_))
                        ));
                    }
                    4..=5 => {
                        let h = handles[rng.random_range(0..handles.len())];
                        let pose = random_pose(&mut rng, extent);
                        world.set_pose(h, pose).unwrap();
                        objects.get_mut(&h).unwrap().1 = pose;
                    }
                    _ => {
                        for h in handles {
                            let small = Isometry3::from_parts(
                                Vector3::new(
                                    rng.random_range(-0.05..0.05),
                                    rng.random_range(-0.05..0.05),
                                    rng.random_range(-0.05..0.05),
                                )
                                .into(),
                                UnitQuaternion::from_scaled_axis(Vector3::new(0.0, 0.0, 0.02)),
                            );
                            let pose = small * objects[&h].1;
                            world.set_pose(h, pose).unwrap();
                            objects.get_mut(&h).unwrap().1 = pose;
                        }
                    }
                }
            }
            let all = WorldQuery {
                max_contacts_per_pair: usize::MAX,
                ..WorldQuery::default()
            };
            let got: Vec<_> = world
                .collide(&all)
                .unwrap()
                .into_iter()
                .map(|c| {
                    let pairs = c
                        .contacts
                        .iter()
                        .map(|k| [k.triangles[0].unwrap(), k.triangles[1].unwrap()]);
                    (c.a, c.b, pairs.collect())
                })
                .collect();
            let expected = brute_force(&objects);
            assert_eq!(got, expected, "step {step}");
            assert_eq!(world.len(), objects.len());
            answers.push(got);
        }
        // The simulation exercised collisions.
        assert!(answers.iter().filter(|a| !a.is_empty()).count() > 10);
        answers
    })
}

#[test]
fn world_equals_brute_force_and_is_deterministic() {
    let one = run_simulation(1);
    let two = run_simulation(2);
    assert_eq!(one, two);
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mesh = load_mesh::<f64>(shipped("bunny_lo.stl")).unwrap();
    let tree: Arc<Tree> = Arc::new(Bvh::build(mesh, &BuildOptions::default()).unwrap());
    assert!(CollisionWorld::<f64, Obb<f64>>::new(-1.0).is_err());
    assert!(CollisionWorld::<f64, Obb<f64>>::new(f64::NAN).is_err());
    let mut world = CollisionWorld::new(0.1).unwrap();
    let nan = Isometry3::translation(f64::NAN, 0.0, 0.0);
    assert_eq!(
        world.insert(tree.clone(), nan).unwrap_err(),
        WorldError::NonFinitePose
    );
    assert!(world.is_empty());
    let a = world.insert(tree.clone(), Isometry3::identity()).unwrap();
    assert_eq!(
        world.set_pose(a, nan).unwrap_err(),
        WorldError::NonFinitePose
    );
    assert_eq!(world.pose(a).unwrap(), &Isometry3::identity());
    let b = world
        .insert(tree.clone(), Isometry3::translation(0.1, 0.0, 0.0))
        .unwrap();
    assert_eq!(world.collide(&WorldQuery::default()).unwrap().len(), 1);
    world.remove(b).unwrap();
    assert!(world.remove(b).is_err());
    assert!(world.geometry(b).is_err());
    assert!(world.collide(&WorldQuery::default()).unwrap().is_empty());
}
