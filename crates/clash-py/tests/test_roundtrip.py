"""Round trips through files, bytes and pickle give identical trees and
identical answers; meshes come from arrays, files or anything with
``vertices`` and ``faces``; answers are plain numpy."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import clash
from conftest import BVS, MESHES, PRECISIONS, cube, icosahedron, poses_around, write_obj


def all_answers(a, b, poses, points, origins, directions):
    """Every query's answer, as a flat list of arrays."""
    out = [clash.collide(a, b, poses), clash.collide(a, b, poses, mode="count")]
    out += clash.collide(a, b, poses, mode="pairs")
    out += list(clash.distance(a, b, poses))
    out += list(clash.raycast(a, origins, directions))
    out += list(clash.closest_points(a, points))
    out += list(clash.signed_distance(a, points))
    return out


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("bv", BVS)
def test_files_bytes_and_pickle_give_identical_answers(bv, precision, tmp_path):
    rng = np.random.default_rng(1)
    a = clash.Tree.build(MESHES / "bunny_lo.stl", bv=bv, precision=precision)
    b = clash.Tree.build(icosahedron(0.3), bv=bv, precision=precision)
    poses = poses_around(rng, 30, 0.8)
    points = rng.uniform(-1, 1, size=(40, 3))
    origins = rng.normal(size=(40, 3)) * 3
    directions = -origins + rng.uniform(-0.3, 0.3, size=(40, 3))
    want = all_answers(a, b, poses, points, origins, directions)

    a.save(tmp_path / "a.clash")
    b.save(str(tmp_path / "b.clash"))
    copies = [
        (clash.Tree.load(tmp_path / "a.clash"), clash.Tree.load(str(tmp_path / "b.clash"))),
        (clash.Tree.from_bytes(a.to_bytes()), clash.Tree.from_bytes(bytearray(b.to_bytes()))),
        (pickle.loads(pickle.dumps(a)), pickle.loads(pickle.dumps(b, protocol=5))),
        (copy.deepcopy(a), copy.copy(b)),
        (clash.Tree.from_bytes(memoryview(a.to_bytes())), b),
    ]
    assert (tmp_path / "a.clash").read_bytes() == a.to_bytes()
    for ca, cb in copies:
        assert ca == a and cb == b
        assert (ca.bv, ca.precision) == (bv, precision)
        got = all_answers(ca, cb, poses, points, origins, directions)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)


def test_tree_properties_and_mesh_sources(tmp_path):
    v, f = cube(2.0)
    for source in [
        (v, f),
        [v.tolist(), f.tolist()],
        clash.Mesh(v, f.astype(np.uint32)),
        clash.Mesh(v.astype(np.float32), f.astype(np.int16)),
        write_obj(tmp_path / "cube.obj", v, f),
        str(write_obj(tmp_path / "cube2.obj", v, f)),
    ]:
        t = clash.Tree.build(source, bv="aabb", precision="f32")
        assert (t.bv, t.precision, t.num_triangles, t.num_vertices) == ("aabb", "f32", 12, 8)
        np.testing.assert_array_equal(t.vertices, v)
        np.testing.assert_array_equal(t.faces, f)
        assert t.vertices.dtype == np.float64 and t.faces.dtype == np.int64
        assert t.is_closed
        s = t.stats()
        assert s["triangles"] == 12 and s["leaves"] == 12 and s["nodes"] == 23
        assert repr(t) == "clash.Tree(aabb/f32, 12 triangles)"
    assert clash.Tree.build((v, f)) != clash.Tree.build((v, f), bv="rss")
    assert clash.Tree.build((v, f)) != "a tree"


class FakeTrimesh:
    """Quacks like a ``trimesh.Trimesh``: ``vertices`` and ``faces``."""

    def __init__(self, v, f):
        self.vertices = v
        self.faces = f


def test_anything_with_vertices_and_faces_is_a_mesh():
    v, f = icosahedron(1.0)
    fake = FakeTrimesh(v, f)
    m = clash.Mesh.from_trimesh(fake)
    np.testing.assert_array_equal(m.vertices, v)
    np.testing.assert_array_equal(m.faces, f)
    assert (m.num_vertices, m.num_triangles, m.is_closed) == (12, 20, True)
    t1, t2 = clash.Tree.build(fake), clash.Tree.build(m)
    assert t1 == t2
    m2 = pickle.loads(pickle.dumps(m))
    np.testing.assert_array_equal(m2.vertices, v)
    assert repr(m2) == "clash.Mesh(12 vertices, 20 triangles)"


def test_mesh_files_and_trees_of_the_file_agree():
    m = clash.Mesh.load(MESHES / "bunny_lo.stl")
    assert m.num_triangles == 902 and m.is_closed
    assert clash.Tree.build(m) == clash.Tree.build(MESHES / "bunny_lo.stl")


def test_answers_are_plain_numpy_in_input_order():
    t = clash.Tree.build(cube(1.0))
    poses = np.tile(np.eye(4), (5, 1, 1))
    poses[:, 0, 3] = [0.5, 3.0, 0.25, 9.0, 1.0]
    hits = clash.collide(t, t, poses)
    assert type(hits) is np.ndarray and hits.shape == (5,)
    np.testing.assert_array_equal(hits, [True, False, True, False, True])
    d = clash.distance(t, t, poses)
    assert isinstance(d, tuple) and d._fields == ("distance", "point_a", "point_b", "triangles")
    np.testing.assert_array_equal(d.distance, [0.0, 2.0, 0.0, 8.0, 0.0])
    assert d.point_a.shape == (5, 3) and d.triangles.shape == (5, 2)
    empty = clash.collide(t, t, np.empty((0, 3, 4)))
    assert empty.shape == (0,) and empty.dtype == np.bool_
    assert clash.collide(t, t, np.empty((0, 4, 4)), mode="pairs") == []
    # Integer and float32 poses are read as float64.
    np.testing.assert_array_equal(clash.collide(t, t, poses.astype(np.float32)), hits)
    np.testing.assert_array_equal(clash.collide(t, t, poses.round().astype(np.int64)),
                                  clash.collide(t, t, poses.round()))
    # Non-contiguous views are read correctly.
    big = np.tile(np.eye(4), (10, 1, 1))
    big[::2, 0, 3] = poses[:, 0, 3]
    np.testing.assert_array_equal(clash.collide(t, t, big[::2]), hits)
