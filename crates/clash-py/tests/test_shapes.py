"""Convex shapes: constructors, pickling, and the pairwise batch queries
with a shape on one side or both (``collide``, ``distance``, ``contact``)
against closed forms computed here in numpy, against per-triangle loops,
and against the same queries pose by pose."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import clash
from conftest import cube, icosahedron, poses_around, random_rotations

EXACT = 1e-12


def every_shape():
    """One shape of each kind, with and without a margin."""
    rng = np.random.default_rng(5)
    return [
        clash.Shape.ball(0.5),
        clash.Shape.ball(0.25, margin=0.1),
        clash.Shape.box((0.5, 0.25, 0.75)),
        clash.Shape.box([0.1, 0.2, 0.3], margin=0.05),
        clash.Shape.capsule(0.5, 0.2),
        clash.Shape.cylinder(0.4, 0.3),
        clash.Shape.cone(0.5, 0.4),
        clash.Shape.convex_hull(rng.normal(size=(40, 3))),
        clash.Shape.convex_hull(cube()[0], margin=0.02),
    ]


def test_constructors_report_their_parameters():
    b = clash.Shape.box((0.5, 0.25, 0.75), margin=0.125)
    assert (b.kind, b.params, b.margin) == ("box", ((0.5, 0.25, 0.75),), 0.125)
    assert clash.Shape.capsule(1.0, 0.5).params == (1.0, 0.5)
    assert clash.Shape.cone(1.0, 0.5).kind == "cone"
    assert clash.Shape.ball(2.0).vertices is None
    hull = clash.Shape.convex_hull(np.vstack([cube()[0], [[0.5, 0.5, 0.5]]]))
    assert hull.kind == "convex_hull"
    # The inner point is not a vertex; the 8 corners are.
    assert sorted(map(tuple, hull.vertices)) == sorted(map(tuple, cube()[0]))
    assert "clash.Shape.box((0.5, 0.25, 0.75), margin=0.125)" == repr(b)


def test_shapes_pickle_and_answer_the_same_after():
    shapes = every_shape()
    rng = np.random.default_rng(1)
    poses = poses_around(rng, 50, 1.0)
    probe = clash.Shape.box((0.3, 0.2, 0.1))
    for s in shapes:
        back = pickle.loads(pickle.dumps(s))
        assert back == s and back.kind == s.kind and back.margin == s.margin
        d0 = clash.distance(s, probe, poses)
        d1 = clash.distance(back, probe, poses)
        np.testing.assert_array_equal(d0.distance, d1.distance)
    assert clash.Shape.ball(1.0) != clash.Shape.ball(1.0, margin=0.5)
    assert clash.Shape.ball(1.0) != "ball"


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: clash.Shape.ball(-1.0), "Shape.ball: negative radius"),
        (lambda: clash.Shape.ball(float("nan")), "Shape.ball: non-finite radius"),
        (lambda: clash.Shape.ball(1.0, margin=-0.5), "Shape.ball: negative margin"),
        (lambda: clash.Shape.box((1.0, 2.0)), r"half_extents must have shape \(3,\), not \(2,\)"),
        (lambda: clash.Shape.box((1.0, -2.0, 1.0)), "Shape.box: negative"),
        (lambda: clash.Shape.capsule(float("inf"), 1.0), "Shape.capsule: non-finite half-height"),
        (lambda: clash.Shape.cylinder(1.0, -1.0), "Shape.cylinder: negative radius"),
        (lambda: clash.Shape.cone(-1.0, 1.0), "Shape.cone: negative half-height"),
        (lambda: clash.Shape.convex_hull(np.zeros((0, 3))), "Shape.convex_hull: empty input"),
        (lambda: clash.Shape.convex_hull(np.zeros((4, 2))), r"points must have shape \(N, 3\)"),
        (lambda: clash.Shape.convex_hull([[0, 0, 0], [1, float("nan"), 0]]),
         r"points\[1\]: non-finite coordinate"),
        (lambda: clash.Shape.box("abc"), "half_extents must be an array of real numbers"),
    ],
)
def test_bad_shapes_raise_value_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_bad_query_inputs():
    ball = clash.Shape.ball(1.0)
    tree32 = clash.Tree.build(icosahedron(), precision="f32")
    tree = clash.Tree.build(icosahedron())
    eye = np.eye(4)[None]
    with pytest.raises(ValueError, match="need f64 trees"):
        clash.collide(tree32, ball, eye)
    with pytest.raises(ValueError, match="need f64 trees"):
        clash.distance(ball, tree32, eye)
    with pytest.raises(ValueError, match="contact needs a clash.Shape"):
        clash.contact(tree, tree, eye)
    with pytest.raises(TypeError, match="b must be a clash.Tree or a clash.Shape, not int"):
        clash.collide(ball, 3, eye)
    with pytest.raises(ValueError, match=r"poses\[0\]: non-finite number NaN"):
        clash.contact(ball, ball, np.full((1, 3, 4), np.nan))
    with pytest.raises(ValueError, match="unknown mode"):
        clash.collide(ball, ball, eye, mode="all")


def translations(poses):
    return poses[:, :3, 3]


def test_balls_against_balls_and_boxes_match_closed_forms():
    rng = np.random.default_rng(2)
    poses = poses_around(rng, 400, 2.0)
    a, b = clash.Shape.ball(0.5), clash.Shape.ball(0.75)
    t = translations(poses)
    gap = np.linalg.norm(t, axis=1) - 1.25
    d = clash.distance(a, b, poses)
    np.testing.assert_allclose(d.distance, np.maximum(gap, 0.0), atol=EXACT)
    apart = gap > 0
    unit = t / np.linalg.norm(t, axis=1, keepdims=True)
    np.testing.assert_allclose(d.point_a[apart], 0.5 * unit[apart], atol=EXACT)
    np.testing.assert_allclose(d.point_b[apart], t[apart] - 0.75 * unit[apart], atol=EXACT)
    assert (d.triangles == -1).all()
    c = clash.contact(a, b, poses)
    np.testing.assert_allclose(c.distance, gap, atol=EXACT)
    np.testing.assert_allclose(c.normal, unit, atol=1e-9)
    sure = np.abs(gap) > 1e-9
    np.testing.assert_array_equal(clash.collide(a, b, poses)[sure], (gap <= 0)[sure])

    # A ball placed around a box of half-extents h: the closest point of the
    # box to the ball's centre is the clamped centre.
    h = np.array([0.5, 0.25, 0.75])
    box = clash.Shape.box(h)
    d = clash.distance(box, a, poses)
    near = np.clip(t, -h, h)
    gap = np.linalg.norm(t - near, axis=1) - 0.5
    np.testing.assert_allclose(d.distance, np.maximum(gap, 0), atol=EXACT)
    apart = gap > 0
    np.testing.assert_allclose(d.point_a[apart], near[apart], atol=EXACT)
    # The same box as a convex hull answers the same.
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * h
    hull = clash.Shape.convex_hull(corners)
    np.testing.assert_allclose(clash.distance(hull, a, poses).distance, d.distance, atol=1e-9)


def segment_distance(p, half):
    """Distance from points ``p`` to the segment from ``(0,0,-half)`` to ``(0,0,half)``."""
    q = p.copy()
    q[:, 2] = np.clip(p[:, 2], -half, half)
    q[:, :2] = 0
    return np.linalg.norm(p - q, axis=1)


def test_capsules_and_cylinders_against_balls_match_closed_forms():
    rng = np.random.default_rng(3)
    poses = poses_around(rng, 400, 1.5)
    ball = clash.Shape.ball(0.2)
    # The ball's centre in the other shape's frame is the translation
    # (the shape sits at the origin, the ball at the pose).
    t = translations(poses)
    cap = clash.Shape.capsule(0.6, 0.3)
    gap = segment_distance(t, 0.6) - 0.3 - 0.2
    np.testing.assert_allclose(clash.distance(cap, ball, poses).distance, np.maximum(gap, 0),
                               atol=EXACT)
    np.testing.assert_allclose(clash.contact(cap, ball, poses).distance, gap, atol=1e-9)
    cyl = clash.Shape.cylinder(0.6, 0.3)
    radial = np.maximum(np.hypot(t[:, 0], t[:, 1]) - 0.3, 0)
    axial = np.maximum(np.abs(t[:, 2]) - 0.6, 0)
    gap = np.hypot(radial, axial) - 0.2
    np.testing.assert_allclose(clash.distance(cyl, ball, poses).distance, np.maximum(gap, 0),
                               atol=1e-9)


def test_cones_match_a_dense_hull():
    # A cone and the hull of 4000 points of its rim and its apex: the hull
    # lies inside the cone, at most r (1 - cos(pi / 4000)) from its surface.
    rng = np.random.default_rng(4)
    poses = poses_around(rng, 200, 1.5)
    cone = clash.Shape.cone(0.5, 0.4)
    k = 4000
    ang = np.arange(k) * 2 * np.pi / k
    rim = np.stack([0.4 * np.cos(ang), 0.4 * np.sin(ang), np.full(k, -0.5)], 1)
    hull = clash.Shape.convex_hull(np.vstack([rim, [[0, 0, 0.5]]]))
    probe = clash.Shape.box((0.1, 0.2, 0.15))
    slack = 0.4 * (1 - np.cos(np.pi / k)) + 1e-9
    np.testing.assert_allclose(clash.distance(cone, probe, poses).distance,
                               clash.distance(hull, probe, poses).distance, atol=slack)


def boxes_overlap_axis_aligned(ha, hb, t):
    return np.all(np.abs(t) <= ha + hb, axis=1)


def test_axis_aligned_boxes_collide_exactly_touching_included():
    ha, hb = np.array([0.5, 0.5, 0.5]), np.array([0.25, 0.5, 1.0])
    a, b = clash.Shape.box(ha), clash.Shape.box(hb)
    rng = np.random.default_rng(6)
    poses = np.tile(np.eye(4), (300, 1, 1))
    # Translations on a grid of quarters: many exactly touching placements.
    poses[:, :3, 3] = rng.integers(-8, 9, size=(300, 3)) / 4
    expected = boxes_overlap_axis_aligned(ha, hb, poses[:, :3, 3])
    np.testing.assert_array_equal(clash.collide(a, b, poses), expected)
    np.testing.assert_array_equal(clash.collide(a, b, poses, mode="count"), expected.astype(int))
    pairs = clash.collide(a, b, poses, mode="pairs")
    assert [len(p) for p in pairs] == list(expected.astype(int))
    assert all((p == -1).all() and p.shape[1] == 2 for p in pairs)


def one_triangle_trees(v, f):
    return [clash.Tree.build((v, f[i:i + 1])) for i in range(len(f))]


@pytest.mark.parametrize("bv", ["obb", "rss", "aabb", "kdop18"])
def test_a_ball_against_a_mesh_matches_per_triangle_closest_points(bv):
    v, f = icosahedron(1.0)
    tree = clash.Tree.build((v, f), bv=bv)
    r = 0.3
    ball = clash.Shape.ball(r)
    rng = np.random.default_rng(7)
    poses = poses_around(rng, 300, 1.6)
    centres = translations(poses)
    # Per-triangle distances from each ball centre, by one-triangle trees.
    per = np.stack([clash.closest_points(t, centres).distance for t in one_triangle_trees(v, f)], 1)
    nearest = per.min(axis=1)
    sure = np.abs(per - r).min(axis=1) > 1e-9
    hits = clash.collide(tree, ball, poses)
    np.testing.assert_array_equal(hits[sure], (nearest <= r)[sure])
    pairs = clash.collide(tree, ball, poses, mode="pairs")
    for i in np.flatnonzero(sure):
        assert pairs[i][:, 0].tolist() == np.flatnonzero(per[i] <= r).tolist()
        assert (pairs[i][:, 1] == -1).all()
    np.testing.assert_array_equal(clash.collide(tree, ball, poses, mode="count"),
                                  [len(p) for p in pairs])
    d = clash.distance(tree, ball, poses)
    np.testing.assert_allclose(d.distance, np.maximum(nearest - r, 0), atol=1e-9)
    apart = nearest > r + 1e-9
    # The triangle named is one of the nearest (a vertex or an edge is
    # nearest to many balls: several triangles tie up to rounding).
    named = per[np.arange(len(per)), d.triangles[:, 0]]
    np.testing.assert_allclose(named[apart], nearest[apart], atol=1e-9)
    # The contact: the deepest triangle, or the distance when apart.
    c = clash.contact(tree, ball, poses)
    np.testing.assert_allclose(c.distance, nearest - r, atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(c.normal, axis=1), 1.0, atol=1e-9)
    np.testing.assert_allclose(c.point_b - c.point_a, c.distance[:, None] * c.normal, atol=1e-9)


def test_shape_first_equals_tree_first_seen_from_the_other_side():
    tree = clash.Tree.build(cube(1.0))
    shape = clash.Shape.capsule(0.4, 0.2)
    rng = np.random.default_rng(8)
    poses = poses_around(rng, 200, 1.2, center=(0.5, 0.5, 0.5))
    inverse = np.linalg.inv(poses)
    inverse[:, 3] = [0, 0, 0, 1]
    np.testing.assert_array_equal(clash.collide(shape, tree, inverse), clash.collide(tree, shape, poses))
    fwd = clash.distance(tree, shape, poses)
    back = clash.distance(shape, tree, inverse)
    np.testing.assert_allclose(back.distance, fwd.distance, atol=1e-12)
    assert (back.triangles[:, 0] == -1).all() and (fwd.triangles[:, 1] == -1).all()
    # Each side names a triangle at the minimum distance (ties, as at a
    # shared edge, may name different ones).
    v, f = cube(1.0)
    tris = one_triangle_trees(v, f)
    for side in (back.triangles[:, 1], fwd.triangles[:, 0]):
        named = np.array([clash.distance(tris[t], shape, poses[i:i + 1]).distance[0]
                          for i, t in enumerate(side)])
        np.testing.assert_allclose(named, fwd.distance, atol=1e-9)
    # Points come back in the first argument's frame: map them to the tree's.
    to_tree = lambda p: np.einsum("nij,nj->ni", poses[:, :3, :3], p) + poses[:, :3, 3]
    # Apart, the closest points are one pair (touching or overlapping, any
    # common point will do).
    apart = fwd.distance > 1e-6
    np.testing.assert_allclose(to_tree(back.point_b)[apart], fwd.point_a[apart], atol=1e-9)
    np.testing.assert_allclose(to_tree(back.point_a)[apart], fwd.point_b[apart], atol=1e-9)
    for d in (fwd, back):
        np.testing.assert_allclose(np.linalg.norm(d.point_a - d.point_b, axis=1), d.distance, atol=1e-9)
    cf, cb = clash.contact(tree, shape, poses), clash.contact(shape, tree, inverse)
    np.testing.assert_allclose(cb.distance, cf.distance, atol=1e-9)
    normal_in_tree = np.einsum("nij,nj->ni", poses[:, :3, :3], cb.normal)
    np.testing.assert_allclose(normal_in_tree, -cf.normal, atol=1e-9)


def test_batches_equal_single_calls_in_order_on_any_thread_count():
    rng = np.random.default_rng(9)
    poses = poses_around(rng, 60, 1.5)
    tree = clash.Tree.build(icosahedron())
    hull = clash.Shape.convex_hull(rng.normal(size=(30, 3)) * 0.4)
    for a, b in [(hull, clash.Shape.cone(0.3, 0.2)), (tree, hull), (hull, tree)]:
        for query in (clash.distance, clash.contact):
            whole = query(a, b, poses, threads=1)
            other = query(a, b, poses, threads=2)
            for x, y in zip(whole, other):
                np.testing.assert_array_equal(x, y)
            for i in range(0, len(poses), 7):
                one = query(a, b, poses[i:i + 1])
                for x, y in zip(whole, one):
                    np.testing.assert_array_equal(x[i], y[0])
        hits = clash.collide(a, b, poses)
        assert [bool(clash.collide(a, b, poses[i:i + 1])[0]) for i in range(len(poses))] == hits.tolist()
        np.testing.assert_array_equal(clash.collide(a, b, poses[:, :3]), hits)


def test_rotated_boxes_against_a_random_rotation_oracle():
    # A box against a ball: rotating both by the same rotation changes nothing.
    rng = np.random.default_rng(10)
    poses = poses_around(rng, 100, 1.5)
    r = random_rotations(rng, 1)[0]
    rot = np.eye(4)
    rot[:3, :3] = r
    box, ball = clash.Shape.box((0.4, 0.3, 0.2)), clash.Shape.ball(0.25)
    d0 = clash.distance(box, ball, poses).distance
    # Conjugating the relative pose by a rotation of b's frame leaves the
    # ball where it was (a ball is round).
    turned = poses @ rot
    np.testing.assert_allclose(clash.distance(box, ball, turned).distance, d0, atol=1e-12)
