"""``clash.World``: every query against a brute-force loop of the pairwise
bindings over the pairs the world checks, batches against the single
queries configuration by configuration, handles, filters, kinds and bad
input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import clash
from conftest import cube, icosahedron, poses_around

ALL = 0xFFFF_FFFF


def scene(rng, n, bv="obb"):
    """``n`` objects of mixed kinds (trees of ``bv``, and shapes)."""
    trees = [clash.Tree.build(icosahedron(0.4), bv=bv), clash.Tree.build(cube(0.5), bv=bv)]
    makers = [
        lambda: trees[0],
        lambda: trees[1],
        lambda: clash.Shape.ball(rng.uniform(0.1, 0.3)),
        lambda: clash.Shape.box(rng.uniform(0.05, 0.3, size=3)),
        lambda: clash.Shape.capsule(rng.uniform(0.05, 0.3), rng.uniform(0.05, 0.2)),
        lambda: clash.Shape.cylinder(0.2, 0.1),
        lambda: clash.Shape.convex_hull(rng.normal(size=(12, 3)) * 0.2),
    ]
    return [makers[i % len(makers)]() for i in range(n)]


def relative(pa, pb):
    """The pose of ``b`` in ``a``'s frame, for each configuration."""
    return np.linalg.inv(pa) @ pb


def brute(objects, poses, checked):
    """For each configuration of ``poses`` (C, N, 4, 4) and each checked
    pair: does it collide, and how far apart is it (pairwise bindings)."""
    hits, dist = {}, {}
    for i, j in checked:
        rel = relative(poses[:, i], poses[:, j])
        rel[:, 3] = [0, 0, 0, 1]
        hits[i, j] = clash.collide(objects[i], objects[j], rel)
        dist[i, j] = clash.distance(objects[i], objects[j], rel).distance
    return hits, dist


def build(objects, poses, **kwargs):
    world = clash.World(**kwargs)
    handles = [world.insert(o, p) for o, p in zip(objects, poses)]
    return world, handles


def test_queries_equal_a_brute_force_loop_over_pairs():
    rng = np.random.default_rng(11)
    n, c = 24, 12
    objects = scene(rng, n)
    poses = np.stack([poses_around(rng, n, 1.2) for _ in range(c)])
    # The last configurations spread out: nothing collides.
    poses[-3:, :, :3, 3] *= 20
    world, handles = build(objects, poses[0])
    assert world.handles == sorted(handles) == handles and len(world) == n
    # Never check a few pairs.
    allowed = {(0, 1), (2, 9), (5, 6)}
    for i, j in allowed:
        world.allow_pair(handles[j], handles[i])
    checked = [p for p in itertools.combinations(range(n), 2) if p not in allowed]
    hits, dist = brute(objects, poses, checked)
    colliding = [[p for p in checked if hits[p][k]] for k in range(c)]
    assert any(colliding) and not all(colliding), "the scene needs both answers"

    first = world.batch_first_collision(poses, threads=2)
    bd = world.batch_distance(poses, threads=2)
    for k in range(c):
        for h, p in zip(handles, poses[k]):
            world.set_pose(h, p)
        found = world.collide(max_contacts=3)
        assert [(x.a, x.b) for x in found] == [(handles[i], handles[j]) for i, j in colliding[k]]
        for x in found:
            assert 1 <= len(x.distance) <= 3 and (x.distance <= 1e-12).all()
            assert x.point_a.shape == x.point_b.shape == x.normal.shape == (len(x.distance), 3)
        want = colliding[k][0] if colliding[k] else None
        got = world.first_collision()
        assert got == (None if want is None else (handles[want[0]], handles[want[1]]))
        assert tuple(first[k]) == (got if got else (-1, -1))
        best = min(dist[p][k] for p in checked)
        d = world.distance()
        assert abs(d.distance - best) < 1e-9
        i, j = handles.index(d.a), handles.index(d.b)
        assert abs(dist[i, j][k] - best) < 1e-9
        if best > 0:
            assert abs(np.linalg.norm(d.point_a - d.point_b) - best) < 1e-9
        assert bd.distance[k] == d.distance and tuple(bd.pairs[k]) == (d.a, d.b)
        np.testing.assert_array_equal(bd.point_a[k], d.point_a)
        np.testing.assert_array_equal(bd.triangles[k], d.triangles)


def test_margins_bounds_and_selections():
    rng = np.random.default_rng(12)
    n = 16
    objects = scene(rng, n)
    poses = poses_around(rng, n, 1.0)
    world, handles = build(objects, poses)
    checked = list(itertools.combinations(range(n), 2))
    _, dist = brute(objects, poses[None], checked)
    d = {p: dist[p][0] for p in checked}
    # A margin: every pair closer than it.
    found = [(handles.index(x.a), handles.index(x.b)) for x in world.collide(margin=0.2)]
    sure = [p for p in checked if abs(d[p] - 0.2) > 1e-9]
    assert [p for p in found if p in sure] == [p for p in sure if d[p] <= 0.2]
    # One object against the rest.
    h = handles[3]
    mine = [p for p in checked if 3 in p]
    got = world.distance(selection=("object", h))
    assert abs(got.distance - min(d[p] for p in mine)) < 1e-9 and h in (got.a, got.b)
    assert world.distance(max_distance=min(d.values()) * 0.5 if min(d.values()) > 0 else 0) is None \
        or min(d.values()) == 0
    with pytest.raises(ValueError, match="unknown handle"):
        world.distance(selection=("object", 12345))
    with pytest.raises(ValueError, match="selection must be"):
        world.collide(selection=("everything", 1))
    with pytest.raises(ValueError, match="margin must be finite and at least 0"):
        world.collide(margin=-1.0)
    with pytest.raises(ValueError, match="max_contacts_per_pair must be at least 1"):
        world.collide(max_contacts=0)
    with pytest.raises(ValueError, match="max_distance must be at least 0"):
        world.distance(max_distance=float("nan"))


def test_groups_masks_and_group_selections():
    # Three balls on one spot: robot parts (group 1) and an obstacle
    # (group 2) that only meets group 1.
    ball = clash.Shape.ball(1.0)
    world = clash.World()
    r1 = world.insert(ball, groups=1, mask=ALL)
    r2 = world.insert(ball, groups=1, mask=ALL)
    ob = world.insert(ball, groups=2, mask=1, tag=77)
    other = world.insert(ball, groups=4, mask=4)
    assert world.tag(ob) == 77 and world.tag(r1) == 0
    assert [(x.a, x.b) for x in world.collide()] == [(r1, r2), (r1, ob), (r2, ob)]
    assert [(x.a, x.b) for x in world.collide(selection=("within_group", 1))] == [(r1, r2)]
    assert [(x.a, x.b) for x in world.collide(selection=("group_vs_rest", 2))] == [(r1, ob), (r2, ob)]
    assert world.first_collision(selection=("object", ob)) == (r1, ob)
    world.remove(other)
    with pytest.raises(ValueError, match="groups must be a 32-bit group set"):
        world.insert(ball, groups=-1)
    with pytest.raises(ValueError, match="mask must be a 32-bit group set"):
        world.insert(ball, mask=2 ** 32)


def test_handles_are_generational():
    world = clash.World()
    ball = clash.Shape.ball(0.5)
    a = world.insert(ball)
    b = world.insert(ball, np.eye(4)[:3])
    world.remove(a)
    for call in (lambda: world.remove(a), lambda: world.set_pose(a, np.eye(4)),
                 lambda: world.pose(a), lambda: world.allow_pair(a, b), lambda: world.tag(a)):
        with pytest.raises(ValueError, match="stale handle #0 \\(generation 0\\)"):
            call()
    c = world.insert(ball)
    assert c != a and c & 0xFFFF_FFFF == a & 0xFFFF_FFFF and c >> 32 == 1
    assert world.handles == [c, b]
    with pytest.raises(ValueError, match="unknown handle"):
        world.remove(99)
    with pytest.raises(ValueError, match="an object is never paired with itself"):
        world.allow_pair(b, b)
    p = np.eye(4)
    p[:3, 3] = [1, 2, 3]
    world.set_pose(b, p)
    np.testing.assert_array_equal(world.pose(b), p)


def test_one_volume_type_per_world():
    rss = clash.Tree.build(icosahedron(), bv="rss")
    obb = clash.Tree.build(icosahedron(), bv="obb")
    w = clash.World()
    assert w.bv is None
    w.insert(rss)
    assert w.bv == "rss"
    with pytest.raises(ValueError, match="the world holds rss/f64 trees, but this tree is of type obb/f64"):
        w.insert(obb)
    w2 = clash.World()
    w2.insert(clash.Shape.ball(1.0))
    assert w2.bv == "obb"
    w2.insert(obb)
    w3 = clash.World(bv="aabb")
    with pytest.raises(ValueError, match="aabb/f64 trees"):
        w3.insert(obb)
    with pytest.raises(ValueError, match="of type aabb, obb or rss, not kdop26/f64 trees"):
        clash.World(bv="kdop26")
    with pytest.raises(ValueError, match="of type aabb, obb or rss, not kdop26/f64 trees"):
        clash.World().insert(clash.Tree.build(icosahedron(), bv="kdop26"))
    with pytest.raises(ValueError, match="f64 trees only"):
        clash.World().insert(clash.Tree.build(icosahedron(), precision="f32"))
    with pytest.raises(ValueError, match="unknown bounding volume"):
        clash.World(bv="box")
    with pytest.raises(TypeError, match="geometry must be a clash.Tree or a clash.Shape"):
        w2.insert("ball")


def test_bad_poses_and_batches():
    world = clash.World()
    ball = clash.Shape.ball(0.5)
    with pytest.raises(ValueError, match=r"pose must have shape \(4, 4\) or \(3, 4\), not \(4,\)"):
        world.insert(ball, np.zeros(4))
    bad = np.eye(4)
    bad[0, 3] = np.nan
    with pytest.raises(ValueError, match="pose: non-finite number NaN"):
        world.insert(ball, bad)
    with pytest.raises(ValueError, match="the world is empty"):
        world.batch_first_collision(np.zeros((1, 0, 4, 4)))
    a = world.insert(ball)
    world.insert(ball)
    assert len(world) == 2
    with pytest.raises(ValueError, match=r"poses must have shape \(C, 2, 4, 4\) or \(C, 2, 3, 4\)"):
        world.batch_first_collision(np.tile(np.eye(4), (3, 3, 1, 1)))
    poses = np.tile(np.eye(4), (3, 2, 1, 1))
    poses[2, 1, 1, 1] = -1
    with pytest.raises(ValueError, match=r"poses\[2, 1\]: the rotation is a reflection"):
        world.batch_distance(poses)
    with pytest.raises(ValueError, match="threads must be a positive int or None, not -1"):
        world.batch_distance(np.tile(np.eye(4), (3, 2, 1, 1)), threads=-1)
    with pytest.raises(ValueError, match="unknown handle"):
        world.first_collision(selection=("object", a + 5))


def test_batches_keep_order_and_do_not_depend_on_threads():
    rng = np.random.default_rng(13)
    n, c = 10, 300
    objects = scene(rng, n, bv="rss")
    poses = np.stack([poses_around(rng, n, 1.5) for _ in range(c)])
    world, _ = build(objects, poses[0], bv="rss")
    one = world.batch_first_collision(poses, threads=1)
    two = world.batch_first_collision(poses, threads=2)
    np.testing.assert_array_equal(one, two)
    rev = world.batch_first_collision(poses[::-1], threads=2)
    np.testing.assert_array_equal(rev[::-1], one)
    d1, d2 = world.batch_distance(poses, threads=1), world.batch_distance(poses[:, :, :3], threads=2)
    for x, y in zip(d1, d2):
        np.testing.assert_array_equal(x, y)
    far = world.batch_distance(poses, max_distance=1e-3)
    none = far.distance == np.inf
    assert (far.pairs[none] == -1).all() and (far.point_a[none] == 0).all()
    assert (d1.distance[~none] < 1e-3).all()


def test_the_gil_is_released_and_threads_share_a_world():
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(14)
    n = 12
    objects = scene(rng, n)
    poses = np.stack([poses_around(rng, n, 1.0) for _ in range(200)])
    world, handles = build(objects, poses[0])
    start = time.perf_counter()
    world.batch_distance(poses, threads=1)
    per = time.perf_counter() - start
    poses = np.concatenate([poses] * max(1, int(0.3 / max(per, 1e-6))))
    ticks, stop = [], threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.perf_counter())

    counter = threading.Thread(target=count)
    counter.start()
    try:
        time.sleep(0.02)
        start = time.perf_counter()
        expected = world.batch_distance(poses, threads=1)
        end = time.perf_counter()
    finally:
        stop.set()
        counter.join()
    assert len([t for t in ticks if start < t < end]) > 1000
    # Python threads querying and moving objects of one world at once.
    with ThreadPoolExecutor(4) as ex:
        runs = [ex.submit(world.batch_distance, poses[:50]) for _ in range(4)]
        moves = [ex.submit(world.set_pose, handles[-1], poses[0, -1]) for _ in range(20)]
        for m in moves:
            m.result()
        for r in runs:
            np.testing.assert_array_equal(r.result().distance, expected.distance[:50])
