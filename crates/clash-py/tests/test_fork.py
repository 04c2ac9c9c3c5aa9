"""Queries in worker processes, for each of multiprocessing's start
methods: a child made by ``fork`` inherits the parent's thread pools but
not their threads, and used to wait forever on its first parallel batch
after the parent had run one (issue 47)."""

from __future__ import annotations

import multiprocessing

import numpy as np
import pytest

import clash
from conftest import MESHES, poses_around

# A batch large enough for the pool (small ones run on the calling thread).
POSES = poses_around(np.random.default_rng(21), 64, 0.3)
ORIGINS = np.random.default_rng(22).normal(size=(64, 3))


def answers(tree, threads):
    return (clash.collide(tree, tree, POSES, mode="count", threads=threads),
            clash.distance(tree, clash.Shape.ball(0.02), POSES, threads=threads)[0],
            clash.collide(tree, tree, POSES[:3], threads=threads),
            clash.raycast(tree, ORIGINS, -ORIGINS, threads=threads)[1],
            clash.raycast(tree, ORIGINS[:3], -ORIGINS[:3], threads=threads)[1],
            clash.closest_points(tree, ORIGINS, threads=threads)[0])


def work(args):
    tree, threads = args
    # A pool started in the child, then again on the one it kept.
    return answers(tree, threads), answers(tree, threads)


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_worker_processes_answer_after_the_parent_ran_queries(method):
    tree = clash.Tree.build(MESHES / "bunny_lo.stl")
    # The parent starts its pools (every core, and two threads) first.
    want = answers(tree, None)
    for g, w in zip(answers(tree, 2), want):
        np.testing.assert_array_equal(g, w)
    jobs = [(tree, None), (tree, 2), (tree, 1), (tree, None)]
    with multiprocessing.get_context(method).Pool(2) as workers:
        # A hang fails the test instead of stalling the run.
        got = workers.map_async(work, jobs).get(timeout=120)
    for both in got:
        for one in both:
            for g, w in zip(one, want):
                np.testing.assert_array_equal(g, w)
