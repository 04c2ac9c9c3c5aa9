"""Batches release the GIL (another Python thread runs during a long
call), give the same answers whatever the thread count, and trees are
shared between Python threads."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import clash
from conftest import MESHES, poses_around


def test_a_second_python_thread_runs_during_a_batch():
    tree = clash.Tree.build(MESHES / "bunny_lo.stl")
    poses = poses_around(np.random.default_rng(2), 300, 0.3)
    # Size the batch to last about half a second on one thread.
    start = time.perf_counter()
    clash.collide(tree, tree, poses, mode="pairs", threads=1)
    per_batch = time.perf_counter() - start
    poses = np.concatenate([poses] * max(1, int(0.5 / max(per_batch, 1e-6))))

    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.perf_counter())

    counter = threading.Thread(target=count)
    counter.start()
    try:
        time.sleep(0.05)
        start = time.perf_counter()
        clash.collide(tree, tree, poses, mode="count", threads=1)
        end = time.perf_counter()
    finally:
        stop.set()
        counter.join()
    during = [t for t in ticks if start < t < end]
    # Holding the GIL would leave the counter no step at all during the
    # call; released, it counts about once a microsecond.
    assert end - start > 0.1
    assert len(during) > 1000, (len(during), end - start)
    # ... and throughout the call, not only at its ends.
    assert max(np.diff([start, *during, end])) < (end - start) / 4


def test_the_thread_count_does_not_change_the_answers():
    rng = np.random.default_rng(4)
    a = clash.Tree.build(MESHES / "bunny_lo.stl", bv="rss", split="sah", threads=1)
    b = clash.Tree.build(MESHES / "dog_sacrum.stl", bv="rss", split="sah", threads=2)
    assert a == clash.Tree.build(MESHES / "bunny_lo.stl", bv="rss", split="sah", threads=3)
    poses = poses_around(rng, 500, 0.7)
    points = rng.uniform(-1, 1, size=(500, 3))
    origins = rng.normal(size=(500, 3)) * 2
    directions = -origins

    def answers(threads):
        out = [clash.collide(a, b, poses, threads=threads),
               clash.collide(a, b, poses, mode="count", threads=threads)]
        out += clash.collide(a, b, poses, mode="pairs", threads=threads)
        out += list(clash.distance(a, b, poses, threads=threads))
        out += list(clash.raycast(a, origins, directions, threads=threads))
        out += list(clash.closest_points(a, points, threads=threads))
        return out

    want = answers(1)
    for threads in [2, 3, 8, None]:
        for g, w in zip(answers(threads), want):
            np.testing.assert_array_equal(g, w)


def test_python_threads_share_trees():
    tree = clash.Tree.build(MESHES / "bunny_lo.stl")
    rng = np.random.default_rng(8)
    batches = [poses_around(rng, 200, 0.5) for _ in range(8)]
    want = [clash.collide(tree, tree, p, mode="count", threads=1) for p in batches]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda p: clash.collide(tree, tree, p, mode="count", threads=2), batches))
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_small_batches_run_inline_and_answer_as_large_ones():
    """Batches of up to 16 items run on the calling thread (no pool), larger
    ones on the pool: every item's answer is the same either way, for each
    kind of call and each thread count."""
    rng = np.random.default_rng(12)
    mesh = clash.Tree.build(MESHES / "bunny_lo.stl")
    ball = clash.Shape.ball(0.05)
    hull = clash.Shape.convex_hull(rng.normal(size=(30, 3)) * 0.1)
    poses = poses_around(rng, 200, 0.2)
    points = rng.uniform(-0.2, 0.2, size=(200, 3))
    origins = rng.normal(size=(200, 3))
    calls = [
        lambda p, pts, t: [clash.collide(mesh, mesh, p, threads=t)],
        lambda p, pts, t: [clash.collide(mesh, ball, p, mode="count", threads=t)],
        lambda p, pts, t: list(clash.distance(mesh, hull, p, threads=t)),
        lambda p, pts, t: list(clash.distance(hull, ball, p, threads=t)),
        lambda p, pts, t: list(clash.contact(hull, ball, p, threads=t)),
        lambda p, pts, t: list(clash.raycast(mesh, pts, -pts, threads=t)),
        lambda p, pts, t: list(clash.closest_points(mesh, pts, threads=t)),
    ]
    for call in calls:
        whole = call(poses, origins if call is calls[5] else points, None)
        for n in (1, 2, 16, 17):
            for threads in (None, 1, 2):
                part = call(poses[:n], (origins if call is calls[5] else points)[:n], threads)
                for g, w in zip(part, whole):
                    np.testing.assert_array_equal(g, w[:n])


def test_thread_counts_beyond_four_per_core_are_lowered_with_a_warning():
    """``threads=10**6`` started a million OS threads; it now runs on four
    per core, as the command line's ``--threads`` does, and says so."""
    import os
    import warnings

    tree = clash.Tree.build(MESHES / "bunny_lo.stl")
    poses = poses_around(np.random.default_rng(3), 40, 0.3)
    limit = 4 * len(os.sched_getaffinity(0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = clash.collide(tree, tree, poses, threads=10 ** 6)
        clash.collide(tree, tree, poses, threads=limit)
    assert [str(w.message) for w in caught] == [
        f"threads=1000000 is more than 4 per core; using {limit} ({limit // 4} cores here: extra "
        "threads would only time-share them)"
    ]
    assert caught[0].category is UserWarning
    np.testing.assert_array_equal(got, clash.collide(tree, tree, poses, threads=1))
