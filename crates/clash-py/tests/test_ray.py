"""``clash.ray`` on a local Ray cluster of two CPUs: every call equals the
single-process call, shards of any size, errors and warnings included."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import clash
from conftest import MESHES, poses_around

@pytest.fixture(scope="module")
def cluster():
    import ray as ray_module
    import clash.ray

    ray_module.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield clash.ray
    finally:
        ray_module.shutdown()


@pytest.fixture(scope="module")
def trees():
    a = clash.Tree.build(MESHES / "bunny_lo.stl", bv="rss", split="sah")
    b = clash.Tree.build(MESHES / "dog_sacrum.stl", bv="rss", split="sah")
    return a, b


def assert_same(got, want):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    elif isinstance(want, tuple):
        assert type(got) is type(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    else:
        assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_ray_equals_one_process(cluster, trees):
    a, b = trees
    rng = np.random.default_rng(12)
    poses = poses_around(rng, 301, 0.7)
    points = rng.uniform(-1, 1, size=(257, 3))
    origins = rng.normal(size=(257, 3)) * 2
    directions = -origins
    for shards in [None, 1, 3, 7]:
        for mode in ["any", "count", "pairs"]:
            assert_same(cluster.collide(a, b, poses, mode, shards=shards), clash.collide(a, b, poses, mode))
        assert_same(cluster.distance(a, b, poses[:, :3], shards=shards), clash.distance(a, b, poses))
        assert_same(cluster.raycast(a, origins, directions, 0.1, 5.0, shards=shards),
                    clash.raycast(a, origins, directions, 0.1, 5.0))
        assert_same(cluster.closest_points(a, points, shards=shards), clash.closest_points(a, points))
        assert_same(cluster.signed_distance(a, points, shards=shards), clash.signed_distance(a, points))
    assert_same(cluster.collide(a, b, poses, "count", shards=2, threads_per_task=2),
                clash.collide(a, b, poses, "count"))
    assert_same(cluster.collide(a, b, poses[:0]), clash.collide(a, b, poses[:0]))
    assert_same(cluster.collide(a, b, poses[:1], shards=5), clash.collide(a, b, poses[:1]))


def test_ray_errors_and_warnings_are_those_of_one_process(cluster, trees):
    a, b = trees
    poses = poses_around(np.random.default_rng(3), 50, 0.5)
    poses[37, 1, 3] = np.nan
    for f in (clash.collide, cluster.collide, clash.distance, cluster.distance):
        with pytest.raises(ValueError, match=r"^poses\[37\]: non-finite number NaN$"):
            f(a, b, poses)
    obb = clash.Tree.build(MESHES / "bunny_lo.stl")
    for f in (clash.collide, cluster.collide):
        with pytest.raises(ValueError, match="^a is a tree of type rss/f64 but b is one of type obb/f64"):
            f(a, obb, poses[:3])
        with pytest.raises(ValueError, match="^unknown mode"):
            f(a, b, poses[:3], "all")
    with pytest.raises(ValueError, match="^shards must be a positive integer"):
        cluster.collide(a, b, poses[:3], shards=0)
    rough = poses[:5, :3].copy()
    rough[3, :3, :3] = np.round(rough[3, :3, :3], 7)
    for f in (clash.collide, cluster.collide):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f(a, b, rough)
        assert [str(x.message) for x in w] == [
            "poses: 1 rotation(s) orthonormal only to within 1e-5 (first at index 3) were replaced by "
            "the nearest rotation"
        ]
    points = np.zeros((9, 3))
    points[8, 0] = np.inf
    for f in (clash.closest_points, cluster.closest_points):
        with pytest.raises(ValueError, match=r"^points\[8\]: non-finite number inf$"):
            f(a, points)


def test_a_clear_error_without_ray(monkeypatch, trees):
    import sys

    import clash.ray

    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    a, b = trees
    with pytest.raises(ImportError, match=r"^clash.ray needs Ray: pip install"):
        clash.ray.collide(a, b, np.tile(np.eye(4), (2, 1, 1)))
