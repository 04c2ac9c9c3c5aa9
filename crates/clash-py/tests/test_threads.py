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
    for threads in [2, 3, 8, None, 0]:
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
