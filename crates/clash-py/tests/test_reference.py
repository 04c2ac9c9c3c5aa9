"""Every binding agrees with the Rust API on the same inputs, bit for bit:
the reference program (``examples/reference.rs``) answers one query at a
time through the Rust API, on trees it builds from the same mesh files and
on the same numbers; the bindings answer in one batch. All sixteen tree
types (eight volumes, two precisions)."""

from __future__ import annotations

import numpy as np
import pytest

import clash
from conftest import (
    BVS, MESHES, PRECISIONS, cube, icosahedron, poses_around, touching_poses_of_unit_cubes, write_obj,
)

KINDS = [(bv, p) for p in PRECISIONS for bv in BVS]


@pytest.fixture(scope="module")
def mesh_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("meshes")
    return {
        "ico": write_obj(d / "ico.obj", *icosahedron(1.0)),
        "cube": write_obj(d / "cube.obj", *cube(1.0)),
        "box": write_obj(d / "box.obj", *cube(0.8)),
    }


def pose_rows(poses):
    """(N, 4, 4) poses as the 12 numbers of each row-major 3x4 matrix."""
    return np.asarray(poses)[:, :3, :].reshape(len(poses), 12)


def cases(rng):
    """(mesh A, mesh B, poses): random poses of a box around an icosahedron
    (about half collide) and exactly touching unit cubes."""
    return [
        ("ico", "box", poses_around(rng, 40, 1.4)),
        ("cube", "cube", touching_poses_of_unit_cubes()),
    ]


@pytest.mark.parametrize("bv,precision", KINDS)
def test_collide_and_distance_equal_the_rust_api(bv, precision, mesh_files, reference, rng_seed):
    rng = np.random.default_rng(rng_seed)
    for name_a, name_b, poses in cases(rng):
        fa, fb = mesh_files[name_a], mesh_files[name_b]
        # The bindings build from the arrays, the reference from the files.
        va, ia = (icosahedron(1.0) if name_a == "ico" else cube(1.0))
        vb, ib = (cube(0.8) if name_b == "box" else cube(1.0))
        a = clash.Tree.build((va, ia), bv=bv, precision=precision)
        b = clash.Tree.build(clash.Mesh(vb, ib), bv=bv, precision=precision)
        rows = pose_rows(poses)

        want_any = [line == "true" for line in reference("collide-any", bv, precision, fa, fb, rows)]
        got_any = clash.collide(a, b, poses, threads=2)
        assert got_any.dtype == np.bool_
        np.testing.assert_array_equal(got_any, want_any)

        want_count = [int(x) for x in reference("collide-count", bv, precision, fa, fb, rows)]
        got_count = clash.collide(a, b, poses, mode="count", threads=2)
        assert got_count.dtype == np.int64
        np.testing.assert_array_equal(got_count, want_count)
        np.testing.assert_array_equal(got_count > 0, got_any)

        want_pairs = reference("collide-pairs", bv, precision, fa, fb, rows)
        got_pairs = clash.collide(a, b, poses[:, :3, :], mode="pairs", threads=2)
        assert len(got_pairs) == len(poses)
        for want, got in zip(want_pairs, got_pairs):
            assert got.dtype == np.int64 and got.shape[1:] == (2,)
            # Same pairs in the same (descent) order.
            np.testing.assert_array_equal(got.ravel(), [int(x) for x in want.split()])

        want = np.array([[float(x) for x in line.split()] for line in
                         reference("distance", bv, precision, fa, fb, rows)])
        got = clash.distance(a, b, poses, threads=2)
        np.testing.assert_array_equal(got.distance, want[:, 0])
        np.testing.assert_array_equal(got.point_a, want[:, 1:4])
        np.testing.assert_array_equal(got.point_b, want[:, 4:7])
        np.testing.assert_array_equal(got.triangles, want[:, 7:9].astype(np.int64))
        assert got.triangles.dtype == np.int64


@pytest.mark.parametrize("bv,precision", KINDS)
def test_rays_and_points_equal_the_rust_api(bv, precision, reference, rng_seed):
    rng = np.random.default_rng(rng_seed + 1)
    path = MESHES / "bunny_lo.stl"
    tree = clash.Tree.build(path, bv=bv, precision=precision, split="sah")
    lo, hi = tree.vertices.min(axis=0), tree.vertices.max(axis=0)
    center, size = (lo + hi) / 2, float(np.linalg.norm(hi - lo))

    n = 120
    origins = center + rng.normal(size=(n, 3)) * size
    targets = center + rng.uniform(-0.3, 0.3, size=(n, 3)) * size
    directions = targets - origins
    for t_min, t_max, front in [(0.0, np.inf, 0), (0.2, 0.9, 1)]:
        lines = reference("raycast", bv, precision, path, None, np.hstack([origins, directions]),
                          t_min, t_max, front, split="sah")
        got = clash.raycast(tree, origins, directions, t_min, t_max,
                            front_faces_only=bool(front), threads=2)
        for i, line in enumerate(lines):
            if line == "miss":
                assert not got.hit[i]
                assert got.t[i] == np.inf and got.triangle[i] == -1
                assert not got.point[i].any() and not got.normal[i].any()
            else:
                v = [float(x) for x in line.split()]
                assert got.hit[i]
                assert got.t[i] == v[0] and got.triangle[i] == int(v[1])
                np.testing.assert_array_equal(got.point[i], v[2:5])
                np.testing.assert_array_equal(got.normal[i], v[5:8])
        assert got.hit.sum() > 10

    points = center + rng.uniform(-0.25, 0.25, size=(150, 3)) * size
    for query, call in [("closest", clash.closest_points), ("signed", clash.signed_distance)]:
        want = np.array([[float(x) for x in line.split()] for line in
                         reference(query, bv, precision, path, None, points, split="sah")])
        got = call(tree, points, threads=2)
        np.testing.assert_array_equal(got.distance, want[:, 0])
        np.testing.assert_array_equal(got.point, want[:, 1:4])
        np.testing.assert_array_equal(got.triangle, want[:, 4].astype(np.int64))
    signed = clash.signed_distance(tree, points).distance
    assert (signed < 0).any() and (signed > 0).any()


def test_real_meshes_with_leaves_and_splits(reference, rng_seed):
    """Larger real meshes, other split rules and leaf sizes, file inputs."""
    rng = np.random.default_rng(rng_seed + 2)
    a_path, b_path = MESHES / "bunny_lo.stl", MESHES / "dog_sacrum.stl"
    for bv, split, leaf in [("obb", "mean", 4), ("rss", "sah", 2), ("kdop18", "median", 8)]:
        a = clash.Tree.build(a_path, bv=bv, split=split, leaf_size=leaf)
        b = clash.Tree.build(b_path, bv=bv, split=split, leaf_size=leaf)
        poses = poses_around(rng, 60, 0.6)
        rows = pose_rows(poses)
        want = [int(x) for x in reference("collide-count", bv, "f64", a_path, b_path, rows,
                                          split=split, leaf_size=leaf)]
        np.testing.assert_array_equal(clash.collide(a, b, poses, mode="count"), want)
        assert 0 < sum(w > 0 for w in want) < len(want)
        want = np.array([[float(x) for x in line.split()] for line in
                         reference("distance", bv, "f64", a_path, b_path, rows,
                                   split=split, leaf_size=leaf)])
        np.testing.assert_array_equal(clash.distance(a, b, poses).distance, want[:, 0])
