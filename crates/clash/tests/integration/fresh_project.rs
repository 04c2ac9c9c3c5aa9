//! The library as a new program uses it, through `clash::prelude` only:
//! the error types to name in its own signatures, tree types that name the
//! scalar once, handles that print in words, one pose type for single
//! queries and batches, a batch's thread count, and distance between trees
//! of two volume types.

use clash::prelude::*;

fn shipped(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/meshes")
        .join(name)
}

fn bunny() -> TriMesh<f64> {
    load_mesh::<f64>(shipped("bunny_lo.stl")).unwrap()
}

/// Poses from apart to overlapping (the bunny is about 2 tall), with
/// rotations whose matrices are not exact.
fn poses(n: usize) -> Vec<Isometry3<f64>> {
    (0..n)
        .map(|i| {
            let s = i as f64;
            Isometry3::new(
                Vector3::new(0.1 * (s * 0.7).sin(), 2.4 - 0.1 * s, 0.1 * s.cos()),
                Vector3::new(0.3 * s, -0.2 * s, 0.1 * s),
            )
        })
        .collect()
}

/// A program's own loader, naming the prelude's error types.
fn build_tree(mesh: TriMesh<f64>, leaf: u32) -> Result<ObbTree<f64>, BuildError> {
    ObbTree::build(
        mesh,
        &BuildOptions {
            max_leaf_size: leaf,
            ..BuildOptions::default()
        },
    )
}

fn load_tree(path: &std::path::Path) -> Result<ObbTree<f64>, LoadError> {
    ObbTree::load(path)
}

#[test]
fn prelude_errors_name_what_went_wrong() {
    let e = build_tree(bunny(), 0).unwrap_err();
    assert_eq!(
        e,
        BuildError::InvalidOptions("max_leaf_size must be at least 1")
    );
    let missing = std::env::temp_dir().join("clash-fresh-project-no-such-tree.bin");
    assert!(matches!(load_tree(&missing), Err(LoadError::Io(_))));
    let empty: Result<TriMesh<f64>, MeshError> = TriMesh::new(vec![], vec![]);
    assert_eq!(empty.unwrap_err(), MeshError::Empty);
}

#[test]
fn aliases_are_the_trees_they_name() {
    let mesh = bunny();
    let a: AabbTree<f64> = AabbTree::build(mesh.clone(), &BuildOptions::default()).unwrap();
    let b: Bvh<f64, Aabb<f64>> = Bvh::build(mesh.clone(), &BuildOptions::default()).unwrap();
    assert!(
        a == b,
        "AabbTree<f64> builds the tree Bvh<f64, Aabb<f64>> does"
    );
    let _: ObbTree<f32> = Bvh::<f32, Obb<f32>>::build(
        TriMesh::new(
            vec![
                Point3::new(0.0, 0.0, 0.0),
                Point3::new(1.0, 0.0, 0.0),
                Point3::new(0.0, 1.0, 0.0),
            ],
            vec![[0, 1, 2]],
        )
        .unwrap(),
        &BuildOptions::default(),
    )
    .unwrap();
    let _: SphereTree<f64> =
        Bvh::<f64, Sphere<f64>>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    let _: CapsuleTree<f64> =
        Bvh::<f64, Capsule<f64>>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    let _: RssTree<f64> =
        Bvh::<f64, Rss<f64>>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    let _: Kdop14Tree<f64> =
        Bvh::<f64, Kdop14<f64>>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    let _: Kdop18Tree<f64> =
        Bvh::<f64, Kdop18<f64>>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    let _: Kdop26Tree<f64> =
        Bvh::<f64, Kdop26<f64>>::build(mesh, &BuildOptions::default()).unwrap();
}

#[test]
fn handles_print_in_words() {
    let tree = std::sync::Arc::new(build_tree(bunny(), 4).unwrap());
    let mut world = CollisionWorld::new(0.0).unwrap();
    let a = world.insert(tree.clone(), Isometry3::identity()).unwrap();
    let b = world.insert(tree, Isometry3::identity()).unwrap();
    assert_eq!(a.to_string(), "#0 (generation 0)");
    assert_eq!(b.to_string(), "#1 (generation 0)");
    world.remove(a).unwrap();
    let e = world.remove(a).unwrap_err().to_string();
    assert!(
        e.contains("stale handle #0 (generation 0)"),
        "the message names the handle: {e}"
    );
    assert!(!e.contains("ProxyHandle"), "no debug string: {e}");
}

#[test]
fn batches_take_isometries_and_relative_poses_alike() {
    let tree = build_tree(bunny(), 4).unwrap();
    let isos = poses(24);
    // The exact-matrix pose the command line reads, and the isometry's.
    let rel: Vec<RelativePose<f64>> = isos.iter().map(RelativePose::new).collect();
    let exact: Vec<RelativePose<f64>> = isos
        .iter()
        .map(|p| {
            RelativePose::from_matrix(
                p.rotation.to_rotation_matrix().into_inner(),
                p.translation.vector,
            )
        })
        .collect();
    let any = tree.intersects_poses(&tree, &isos);
    assert!(any.iter().any(|&x| x) && any.iter().any(|&x| !x));
    assert_eq!(tree.intersects_poses(&tree, &rel), any);
    let all = CollisionRequest::all();
    let by_iso = tree.collide_poses(&tree, &isos, &all);
    assert_eq!(tree.collide_poses(&tree, &rel, &all), by_iso);
    let by_iso_d = tree.distance_poses(&tree, &isos);
    assert_eq!(tree.distance_poses(&tree, &rel), by_iso_d);
    for (i, p) in exact.iter().enumerate() {
        // Each batch answer is the single query's on the same pose.
        assert_eq!(
            tree.collide_poses(&tree, &exact, &all)[i],
            tree.collide(&tree, p, &all)
        );
        assert_eq!(
            tree.distance_poses(&tree, &exact)[i],
            tree.distance(&tree, *p)
        );
    }
    let pairs: Vec<(&ObbTree<f64>, &ObbTree<f64>, RelativePose<f64>)> =
        rel.iter().map(|p| (&tree, &tree, *p)).collect();
    assert_eq!(clash::bvh::collide_pairs(&pairs, &all), by_iso);
}

#[test]
fn batch_answers_do_not_depend_on_the_thread_count() {
    let tree = build_tree(bunny(), 4).unwrap();
    let isos = poses(40);
    let all = CollisionRequest::all();
    let ambient = (
        tree.collide_poses(&tree, &isos, &all),
        tree.distance_poses(&tree, &isos),
    );
    for threads in [1, 2, 3, 7] {
        let options = BatchOptions::threads(threads);
        let (n, answers) = options
            .run(|| {
                (
                    clash::rayon::current_num_threads(),
                    (
                        tree.collide_poses(&tree, &isos, &all),
                        tree.distance_poses(&tree, &isos),
                    ),
                )
            })
            .unwrap();
        assert_eq!(n, threads, "the batch ran on a pool of {threads}");
        assert_eq!(answers, ambient, "{threads} threads");
    }
    let here = clash::rayon::current_num_threads();
    assert_eq!(
        BatchOptions::default()
            .run(clash::rayon::current_num_threads)
            .unwrap(),
        here
    );
}

#[test]
fn distance_between_trees_of_two_volume_types() {
    let mesh = bunny();
    let obb = build_tree(mesh.clone(), 4).unwrap();
    let aabb: AabbTree<f64> = AabbTree::build(mesh.clone(), &BuildOptions::default()).unwrap();
    let rss: RssTree<f64> = RssTree::build(mesh, &BuildOptions::default()).unwrap();
    for pose in poses(12) {
        let same = obb.distance(&obb, pose);
        let mixed = obb.distance(&aabb, pose);
        let other = rss.distance(&obb, pose);
        assert_eq!(mixed.distance, same.distance, "{pose}");
        assert_eq!(other.distance, same.distance, "{pose}");
        assert_eq!(mixed.distance == 0.0, obb.intersects(&aabb, pose));
    }
    assert_eq!(
        obb.distance_poses(&aabb, &poses(12)),
        poses(12)
            .iter()
            .map(|p| obb.distance(&aabb, p))
            .collect::<Vec<_>>()
    );
}
