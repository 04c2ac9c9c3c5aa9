use super::*;
use crate::build::{SplitRule, build};
use clash_bv::Obb;

/// The default options with the basic fit (every node fitted along its
/// axes where the volume type can).
fn basic() -> BuildOptions {
    BuildOptions::default().with_fit(FitQuality::Basic)
}

/// Tree shapes of the median/mean builder, basic fits: one triangle per
/// leaf, leaves of up to three triangles, depth at most `max_depth`,
/// mean splits with leaves of up to two.
fn shapes(max_depth: u32) -> [BuildOptions; 4] {
    [
        basic(),
        basic().with_max_leaf_size(3),
        basic().with_max_depth(max_depth),
        basic().with_split(SplitRule::Mean).with_max_leaf_size(2),
    ]
}

/// Trees assembled from their slots: the full tree of one triangle per
/// leaf (every slot written) and trees with leaves of several
/// triangles or a depth limit (unused slots skipped) are in preorder
/// (left child next, right child after the left subtree) and cover
/// every triangle once, in leaf order.
#[test]
fn full_and_partial_trees_assemble_in_preorder() {
    let n = 37u32;
    let vertices: Vec<Point3<f64>> = (0..n + 2)
        .map(|i| {
            let t = f64::from(i) * 0.7;
            Point3::new(t.cos() * (1.0 + t), t.sin(), 0.1 * t * t)
        })
        .collect();
    let indices: Vec<[u32; 3]> = (0..n).map(|i| [i, i + 1, i + 2]).collect();
    let source = CornerSource {
        vertices: &vertices,
        indices: &indices,
    };
    for opts in shapes(3) {
        let built = build::<f64, Obb<f64>>(source, &opts).unwrap();
        let nodes = &built.nodes;
        // Walk: each internal node's left child follows it, and its
        // subtree ends where the right child starts.
        fn walk<B>(nodes: &[Node<B>], i: usize, next_leaf: &mut u32) -> usize {
            let node = &nodes[i];
            if node.is_leaf() {
                assert_eq!(node.child_or_first, *next_leaf);
                *next_leaf += node.count;
                return i + 1;
            }
            let end_left = walk(nodes, i + 1, next_leaf);
            assert_eq!(node.child_or_first as usize, end_left);
            walk(nodes, end_left, next_leaf)
        }
        let mut leaves = 0;
        assert_eq!(walk(nodes, 0, &mut leaves), nodes.len(), "{opts:?}");
        assert_eq!(leaves, n, "{opts:?}");
        if opts == basic() {
            assert_eq!(nodes.len(), 2 * n as usize - 1);
        } else {
            assert!(nodes.len() < 2 * n as usize - 1, "{opts:?}");
        }
        let mut ids = built.ids.clone();
        ids.sort_unstable();
        assert_eq!(ids, (0..n).collect::<Vec<_>>());
    }
}

/// The tree's triangles are the mesh's, in leaf order, however they
/// are collected: written by the leaves (default fits along axes, in
/// `f64` and `f32`, with leaves of several triangles, a depth limit,
/// mean splits, on one thread and on a pool of four), or carried
/// along with the elements (AABB and sphere trees, the tight fits).
/// The mesh has degenerate triangles and reused vertices, and is large
/// enough for the parallel top levels.
#[test]
fn leaf_triangles_are_the_mesh_triangles_in_leaf_order() {
    use clash_bv::{Aabb, Rss, Sphere};
    fn check<T: Scalar, B: FitVolume<T>>(vertices: &[Point3<T>], indices: &[[u32; 3]]) {
        let source = CornerSource { vertices, indices };
        let tight = [
            BuildOptions::default().with_fit(FitQuality::Tight),
            BuildOptions::default().with_fit(FitQuality::TightAbove { min_triangles: 64 }),
        ];
        for opts in shapes(4).into_iter().chain(tight) {
            for threads in [1, 4] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let built = pool.install(|| build::<T, B>(source, &opts).unwrap());
                assert_eq!(built.tris.len(), indices.len(), "{opts:?}");
                for (pos, (t, &id)) in built.tris.iter().zip(&built.ids).enumerate() {
                    assert_eq!(*t, source.triangle(id as usize), "{opts:?}: {pos}");
                }
            }
        }
    }
    let n = 3000u32;
    let vertices: Vec<Point3<f64>> = (0..n + 2)
        .map(|i| {
            let t = f64::from(i) * 0.37;
            Point3::new(t.cos() * (1.0 + 0.01 * t), t.sin(), 0.02 * t)
        })
        .collect();
    // Strips of the spiral, every seventh and every eleventh triangle
    // degenerate (a repeated corner).
    let indices: Vec<[u32; 3]> = (0..n)
        .map(|i| match (i % 7, i % 11) {
            (0, _) => [i, i, i + 2],
            (_, 0) => [i, i + 1, i + 1],
            _ => [i, i + 1, i + 2],
        })
        .collect();
    let v32: Vec<Point3<f32>> = vertices.iter().map(|p| p.cast()).collect();
    check::<f64, Obb<f64>>(&vertices, &indices);
    check::<f64, Rss<f64>>(&vertices, &indices);
    check::<f32, Rss<f32>>(&v32, &indices);
    check::<f64, Aabb<f64>>(&vertices, &indices);
    check::<f32, Sphere<f32>>(&v32, &indices);
}
