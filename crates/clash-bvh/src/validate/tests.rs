use super::{check_order, check_structure, check_volumes};
use crate::{BuildOptions, Bvh, TreeVolume, TriMesh, ValidationError};
use clash_bv::{Aabb, BoundingVolume, Capsule, Kdop14, Kdop18, Kdop26, Obb, Rss, Sphere};
use clash_math::{Point3, Scalar};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A wavy sheet of `2 n²` triangles (curved, so OBB and RSS children
/// poke out of their parents).
fn sheet(n: u32) -> TriMesh<f64> {
    let v = |i: u32, j: u32| {
        let (x, y) = (f64::from(i) / f64::from(n), f64::from(j) / f64::from(n));
        Point3::new(x, y, 0.3 * (3.0 * x).sin() * (2.0 * y).cos())
    };
    let mut vertices = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            vertices.push(v(i, j));
        }
    }
    let at = |i: u32, j: u32| j * (n + 1) + i;
    let mut indices = Vec::new();
    for j in 0..n {
        for i in 0..n {
            indices.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            indices.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    TriMesh::new(vertices, indices).unwrap()
}

/// Every node of a valid tree passes; a node that misses one corner of
/// one triangle below it (its volume moved away a little) is caught
/// and named, whether its children lie inside it or not, at every
/// depth.
fn check<B: TreeVolume<f64>>(moved: impl Fn(&B, f64) -> B) {
    let tree = Bvh::<f64, B>::build(sheet(12), &BuildOptions::default()).unwrap();
    tree.validate().unwrap();
    for i in (0..tree.nodes.len()).step_by(7) {
        let mut bad = tree.clone();
        // Move the volume by 1e-6 of the sheet along x, then along -x:
        // one of the two leaves a triangle corner out.
        let failures = [1e-6, -1e-6]
            .iter()
            .filter(|&&d| {
                bad.nodes[i].bv = moved(&tree.nodes[i].bv, d);
                bad.validate().is_err_and(|e| {
                    matches!(e, ValidationError::CornerOutside { node, .. } if node == i)
                        && e.to_string().starts_with(&format!("node {i} "))
                })
            })
            .count();
        assert!(failures >= 1, "{}: node {i} moved passes", B::NAME);
    }
}

#[test]
fn a_node_missing_a_corner_is_named() {
    let shift = |c: Point3<f64>, d: f64| c + clash_math::Vector3::new(d, 0.0, 0.0);
    check::<Obb<f64>>(|b, d| Obb {
        center: shift(b.center, d),
        ..*b
    });
    check::<Rss<f64>>(|b, d| Rss {
        center: shift(b.center, d),
        ..*b
    });
    check::<Aabb<f64>>(|b, d| Aabb::new(shift(b.min, d), shift(b.max, d)));
    check::<Kdop18<f64>>(|b, d| {
        let mut k = *b;
        // Slab 0 is the x axis.
        k.min[0] += d;
        k.max[0] += d;
        k
    });
}

/// A wavy sheet of `2 n²` triangles in any precision, its rows of
/// vertices listed in a scrambled order (so that first use in leaf
/// order and vertex order differ).
fn sheet_t<T: Scalar>(n: u32) -> TriMesh<T> {
    let s = sheet(n);
    let nv = s.vertices().len() as u32;
    let relabel = |v: u32| (v * 7919) % nv;
    // 7919 is prime: the relabelling is a bijection.
    assert!(!nv.is_multiple_of(7919));
    let mut vertices = vec![Point3::origin(); nv as usize];
    for (v, p) in s.vertices().iter().enumerate() {
        vertices[relabel(v as u32) as usize] = p.map(T::lit);
    }
    let indices = s.indices().iter().map(|t| t.map(relabel)).collect();
    TriMesh::new(vertices, indices).unwrap()
}

/// A soup of small triangles on shared vertices with degenerate ones
/// among them: repeated indices, collinear corners, a face listed
/// twice, a vertex no triangle uses.
fn degenerate_soup<T: Scalar>(rng: &mut ChaCha8Rng) -> TriMesh<T> {
    let vertices: Vec<Point3<T>> = (0..40)
        .map(|_| {
            Point3::new(
                T::lit(rng.random_range(-1.0..1.0)),
                T::lit(rng.random_range(-1.0..1.0)),
                T::lit(rng.random_range(-1.0..1.0)),
            )
        })
        .collect();
    let mut indices: Vec<[u32; 3]> = (0..60)
        .map(|_| [0, 1, 2].map(|_| rng.random_range(0..39u32)))
        .collect();
    indices.extend([[3, 3, 5], [7, 7, 7], [8, 9, 8], [10, 11, 12], [10, 11, 12]]);
    TriMesh::new(vertices, indices).unwrap()
}

/// Each node's stretch of the leaf order, by recursion from the root
/// (apart from the code under test).
fn stretches<T: Scalar, B: BoundingVolume<T>>(tree: &Bvh<T, B>) -> Vec<(usize, usize)> {
    fn walk<B>(nodes: &[crate::Node<B>], at: usize, out: &mut [(usize, usize)]) -> usize {
        let (start, end) = match nodes[at].children(at as u32) {
            None => {
                let first = nodes[at].child_or_first as usize;
                (first, first + nodes[at].count as usize)
            }
            Some((l, r)) => {
                walk(nodes, l as usize, out);
                let end = walk(nodes, r as usize, out);
                (out[l as usize].0, end)
            }
        };
        out[at] = (start, end);
        end
    }
    let mut out = vec![(0, 0); tree.nodes.len()];
    walk(&tree.nodes, 0, &mut out);
    out
}

/// The nodes that miss a corner of a triangle below them, by brute
/// force: every node against every corner of every triangle of its
/// stretch, taken from the mesh by the leaf order.
fn brute_failures<T: Scalar, B: BoundingVolume<T>>(tree: &Bvh<T, B>) -> Vec<usize> {
    let spans = stretches(tree);
    (0..tree.nodes.len())
        .filter(|&i| {
            let (s, e) = spans[i];
            !tree.order[s..e].iter().all(|&id| {
                let t = tree.mesh.triangle(id as usize);
                t.vertices()
                    .iter()
                    .all(|p| tree.nodes[i].bv.contains_point(p))
            })
        })
        .collect()
}

/// Builds `mesh` with `options`, then moves one coordinate of one
/// node's volume (its flat form) by a random relative amount, `trials`
/// times: the check must pass exactly when brute force finds no node
/// missing a corner, and name a node brute force finds. Returns how
/// many trials failed.
fn agree<T: Scalar, B: TreeVolume<T>>(
    mesh: TriMesh<T>,
    options: &BuildOptions,
    rng: &mut ChaCha8Rng,
    trials: usize,
) -> usize {
    let tree = Bvh::<T, B>::build(mesh, options).unwrap();
    tree.validate().unwrap();
    let mut failed = 0;
    let mut flat = Vec::new();
    for _ in 0..trials {
        let mut bad = tree.clone();
        // A quarter of the trials move the root or one of its children
        // (whose checks cross the forks of large trees).
        let top = match tree.nodes[0].children(0) {
            Some((l, r)) => [0, l as usize, r as usize],
            None => [0; 3],
        };
        let i = match rng.random_range(0..12) {
            k @ 0..3 => top[k],
            _ => rng.random_range(0..bad.nodes.len()),
        };
        flat.clear();
        bad.nodes[i].bv.write_flat(&mut flat);
        let k = rng.random_range(0..flat.len());
        let step = 10f64.powf(rng.random_range(-12.0..-1.0)) * (flat[k].abs().to_f64() + 1.0);
        let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        flat[k] += T::lit(sign * step);
        bad.nodes[i].bv = B::read_flat(&flat).unwrap();
        if !bad.nodes[i].bv.is_well_formed() {
            continue;
        }
        let brute = brute_failures(&bad);
        match check_volumes(&bad, None) {
            Ok(()) => assert!(
                brute.is_empty(),
                "{}: node {i} moved, missed {brute:?}",
                B::NAME
            ),
            Err(e) => {
                failed += 1;
                let ValidationError::CornerOutside { node: named, .. } = e else {
                    panic!("{}: {e}, not a missed corner", B::NAME)
                };
                assert!(
                    brute.contains(&named),
                    "{}: {e}, but brute force finds {brute:?}",
                    B::NAME
                );
            }
        }
    }
    failed
}

/// Moved volumes per mesh and options.
const TRIALS: usize = 400;

fn agree_on_meshes<T: Scalar, B: TreeVolume<T>>(seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let options = [
        BuildOptions::default(),
        BuildOptions::default().with_max_leaf_size(3),
        BuildOptions::default().with_max_depth(2),
        BuildOptions::sah(),
    ];
    let mut failed = 0;
    for o in &options {
        failed += agree::<T, B>(sheet_t(9), o, &mut rng, TRIALS);
        let soup = degenerate_soup(&mut rng);
        failed += agree::<T, B>(soup, o, &mut rng, TRIALS);
    }
    // Both answers occur, so the agreement says something.
    let all = 2 * TRIALS * options.len();
    assert!(
        (all / 20..all - all / 20).contains(&failed),
        "{}: {failed} of {all} failed",
        B::NAME
    );
}

/// A tree large enough that the check forks (`PARALLEL_FROM`): the
/// forked subtrees' paths must carry their ancestors.
#[test]
fn containment_check_agrees_with_brute_force_when_it_forks() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mesh = sheet_t::<f64>(75);
    let tree = Bvh::<f64, Obb<f64>>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    assert!(tree.nodes.len() > 2 * super::PARALLEL_FROM);
    let failed = agree::<f64, Obb<f64>>(mesh.clone(), &BuildOptions::default(), &mut rng, 60);
    assert!((5..55).contains(&failed), "{failed} of 60 failed");
    let failed = agree::<f64, Rss<f64>>(mesh.clone(), &BuildOptions::default(), &mut rng, 60);
    assert!((5..55).contains(&failed), "{failed} of 60 failed");
    sweep_top::<f64, Obb<f64>>(&mesh);
    sweep_top::<f64, Rss<f64>>(&mesh);
}

/// Moves each coordinate of the root's and its children's volumes (their
/// flat forms) both ways by a little, and moves their centres (the
/// first three values of an OBB's or RSS's flat form) along each of
/// their axes both ways, which leaves out the corners of one face
/// only: every well-formed result must get brute force's answer.
fn sweep_top<T: Scalar, B: TreeVolume<T>>(mesh: &TriMesh<T>) {
    let tree = Bvh::<T, B>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    let (l, r) = tree.nodes[0].children(0).unwrap();
    let mut caught = 0;
    for i in [0, l as usize, r as usize] {
        let mut flat = Vec::new();
        tree.nodes[i].bv.write_flat(&mut flat);
        let axes = tree.nodes[i].bv.bounding_obb().axes;
        let mut moves = Vec::new();
        for k in 0..flat.len() {
            for step in [1e-9, -1e-9, 1e-4, -1e-4] {
                let mut moved = flat.clone();
                moved[k] += T::lit(step * (flat[k].abs().to_f64() + 1.0));
                moves.push(moved);
            }
        }
        for j in 0..3 {
            for step in [1e-6, -1e-6] {
                let mut moved = flat.clone();
                for c in 0..3 {
                    moved[c] += axes[(c, j)] * T::lit(step);
                }
                moves.push(moved);
            }
        }
        for moved in moves {
            let mut bad = tree.clone();
            bad.nodes[i].bv = B::read_flat(&moved).unwrap();
            if !bad.nodes[i].bv.is_well_formed() {
                continue;
            }
            let brute = brute_failures(&bad);
            let ours = check_volumes(&bad, None);
            assert_eq!(
                ours.is_ok(),
                brute.is_empty(),
                "{}: node {i} moved: {ours:?}",
                B::NAME
            );
            caught += usize::from(ours.is_err());
        }
    }
    assert!(caught > 10, "{}: {caught} caught", B::NAME);
}

#[test]
fn containment_check_agrees_with_brute_force() {
    agree_on_meshes::<f64, Obb<f64>>(1);
    agree_on_meshes::<f32, Obb<f32>>(2);
    agree_on_meshes::<f64, Rss<f64>>(3);
    agree_on_meshes::<f32, Aabb<f32>>(6);
    agree_on_meshes::<f64, Sphere<f64>>(7);
    agree_on_meshes::<f32, Capsule<f32>>(8);
    agree_on_meshes::<f64, Kdop14<f64>>(9);
    agree_on_meshes::<f32, Kdop18<f32>>(10);
    agree_on_meshes::<f64, Kdop26<f64>>(11);
}

/// A tree large enough that the check forks (`PARALLEL_FROM`) answers
/// the same, and names the same node, on one thread and on four.
#[test]
fn containment_check_is_the_same_on_any_number_of_threads() {
    let tree = Bvh::<f64, Obb<f64>>::build(sheet(75), &BuildOptions::default()).unwrap();
    assert!(tree.nodes.len() > 2 * super::PARALLEL_FROM);
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let (one, four) = (pool(1), pool(4));
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut bad = tree.clone();
    for _ in 0..20 {
        // Shrink several volumes at once, on both sides of the root.
        for _ in 0..3 {
            let i = rng.random_range(0..bad.nodes.len());
            bad.nodes[i].bv.half_extents *= 0.999;
        }
        let a = one.install(|| check_volumes(&bad, None));
        let b = four.install(|| check_volumes(&bad, None));
        assert_eq!(a, b);
        assert!(a.is_err());
        bad = tree.clone();
    }
    assert_eq!(four.install(|| check_volumes(&tree, None)), Ok(()));
}

/// A node as the structure check sees it: `(child_or_first, count)`.
type Link = (u32, u32);

/// Node lists `(child_or_first, count)` that break one structural
/// invariant each, with the variant and message naming it. The valid
/// base tree over three triangles: root 0 (right child 2), leaf 1
/// (position 0), internal 2 (right child 4), leaves 3 and 4 (positions 1
/// and 2).
#[test]
fn each_broken_structure_is_named() {
    let base = [(2, 0), (0, 1), (4, 0), (1, 1), (2, 1)];
    let with = |i: usize, node: (u32, u32)| {
        let mut v = base.to_vec();
        v[i] = node;
        v
    };
    let run = |nodes: &[(u32, u32)], order_len: usize, num_triangles: usize| {
        check_structure(nodes.len(), order_len, num_triangles, |i| nodes[i])
    };
    assert_eq!(run(&base, 3, 3), Ok(()));
    // A caterpillar: internal nodes 0, 2, ..., 128 down the right spine,
    // each with a leaf on its left; the leaf under node 128 is 65 deep.
    let mut deep = Vec::new();
    for k in 0..65u32 {
        deep.extend([(2 * k + 2, 0), (k, 1)]);
    }
    deep.push((65, 1));
    let cases: [(Vec<Link>, usize, ValidationError, &str); 8] = [
        (vec![], 3, ValidationError::NoNodes, "the tree has no nodes"),
        (
            base.to_vec(),
            2,
            ValidationError::OrderLength {
                order_len: 2,
                num_triangles: 3,
            },
            "leaf order has 2 entries for 3 triangles",
        ),
        (
            [base.as_slice(), &[(0, 1), (0, 1)]].concat(),
            3,
            ValidationError::TooManyNodes {
                nodes: 7,
                num_triangles: 3,
            },
            "7 nodes for 3 triangles",
        ),
        (
            with(0, (1, 0)),
            3,
            ValidationError::RightChildOutOfRange {
                node: 0,
                right: 1,
                end: 5,
            },
            "internal node 0 has right child 1 outside (1, 5)",
        ),
        (
            with(3, (2, 1)),
            3,
            ValidationError::LeafStart {
                node: 3,
                start: 2,
                expected: 1,
            },
            "leaf 3 starts at 2, expected 1",
        ),
        (
            with(4, (2, 2)),
            3,
            ValidationError::LeafPastEnd { node: 4 },
            "leaf 4 runs past the triangle list",
        ),
        (
            vec![(0, 3), (0, 0)],
            3,
            ValidationError::LeafNotLast { node: 0 },
            "leaf 0 does not end its subtree",
        ),
        (
            vec![(0, 2)],
            3,
            ValidationError::LeavesCover {
                covered: 2,
                order_len: 3,
            },
            "leaves cover 2 of 3 triangles",
        ),
    ];
    for (nodes, order_len, error, message) in cases {
        assert_eq!(run(&nodes, order_len, 3), Err(error.clone()), "{message}");
        assert_eq!(error.to_string(), message);
    }
    let e = run(&deep, 66, 66).unwrap_err();
    assert_eq!(
        e,
        ValidationError::TooDeep {
            node: 129,
            max_depth: 64
        }
    );
    assert_eq!(e.to_string(), "node 129 is deeper than 64");
    // One level fewer (the first internal node and its leaf cut off) passes.
    let mut shallower = deep[2..].to_vec();
    for node in &mut shallower {
        // Right children move up two slots, leaf positions up one.
        node.0 -= if node.1 == 0 { 2 } else { 1 };
    }
    assert_eq!(run(&shallower, 65, 65), Ok(()));
}

/// The leaf order must name each triangle once.
#[test]
fn a_bad_leaf_order_is_named() {
    assert_eq!(check_order(&[2, 0, 1], 3), Ok(()));
    let repeated = check_order(&[0, 1, 1], 3).unwrap_err();
    assert_eq!(repeated, ValidationError::OrderRepeats { triangle: 1 });
    assert_eq!(
        repeated.to_string(),
        "triangle 1 appears twice in the leaf order"
    );
    let outside = check_order(&[0, 1, 5], 3).unwrap_err();
    assert_eq!(outside, ValidationError::OrderOutOfRange { triangle: 5 });
    assert_eq!(
        outside.to_string(),
        "leaf order names triangle 5, out of range"
    );
}
