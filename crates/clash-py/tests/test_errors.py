"""Bad input raises ``ValueError`` (``OSError`` for files; ``TypeError``
for arguments of the wrong kind altogether) with the command line's words,
never a panic."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import clash
from conftest import MESHES, cube


@pytest.fixture(scope="module")
def tree():
    return clash.Tree.build(cube(1.0))


def poses(n=3):
    p = np.tile(np.eye(4), (n, 1, 1))
    p[:, 0, 3] = np.arange(n)
    return p


def raises(exc, match, f, *args, **kwargs):
    with pytest.raises(exc) as info:
        f(*args, **kwargs)
    assert str(info.value) == match if not match.endswith("...") else str(info.value).startswith(match[:-3])
    return info.value


def test_pose_arrays(tree):
    c = clash.collide
    raises(ValueError, "poses must have shape (N, 4, 4) or (N, 3, 4), not (4, 4)", c, tree, tree, np.eye(4))
    raises(ValueError, "poses must have shape (N, 4, 4) or (N, 3, 4), not (2, 4, 3)", c, tree, tree,
           np.zeros((2, 4, 3)))
    raises(ValueError, "poses must be an array of real numbers, not of dtype complex128", c, tree, tree,
           poses().astype(complex))
    raises(ValueError, "poses must be an array of real numbers, not of dtype bool", c, tree, tree,
           poses().astype(bool))
    raises(ValueError, "poses must be an array of real numbers, not of dtype <U3", c, tree, tree,
           np.full((1, 3, 4), "abc"))
    raises(ValueError, "poses cannot be read as an array: ...", c, tree, tree, [[1, 2], [3]])
    p = poses()
    p[2, 1, 3] = np.nan
    raises(ValueError, "poses[2]: non-finite number NaN", c, tree, tree, p)
    p = poses()
    p[1, 0, 3] = np.inf
    raises(ValueError, "poses[1]: non-finite number inf", clash.distance, tree, tree, p)
    p = poses()
    p[1, :3, :3] *= 2
    raises(ValueError, "poses[1]: the rotation is not orthonormal (largest entry of R^T R - I is 3.000e0)",
           c, tree, tree, p)
    p = poses()
    p[0, 2, 2] = -1
    raises(ValueError, "poses[0]: the rotation is a reflection (determinant < 0)", c, tree, tree, p)
    p = poses()
    p[2, 3, :] = [0, 0, 1, 1]
    raises(ValueError, "poses[2]: the last row of a 4x4 pose must be [0, 0, 0, 1], not [0.0, 0.0, 1.0, 1.0]",
           c, tree, tree, p)
    f32 = clash.Tree.build(cube(1.0), precision="f32")
    p = poses()
    p[1, 0, 3] = 1e300
    raises(ValueError, "poses[1]: 1e300 is out of range for f32 trees", c, f32, f32, p)
    raises(ValueError, "a is a tree of type obb/f64 but b is one of type obb/f32; build both with the "
           "same bv and precision", c, tree, f32, poses())
    raises(ValueError, "unknown mode \"all\" (expected one of any, count, pairs)", c, tree, tree, poses(), "all")
    raises(ValueError, "threads must be a positive int or None, not -1", c, tree, tree, poses(), threads=-1)
    raises(TypeError, "...", c, tree, "tree", poses())


def test_nearly_orthonormal_rotations_are_repaired_with_a_warning(tree):
    p = poses(4)[:, :3, :]
    c, s = np.cos(0.3), np.sin(0.3)
    # A rotation written with six decimals, as single-precision tools do.
    p[1:3, :3, :3] = np.round(np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]), 6)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = clash.collide(tree, tree, p)
    assert [str(x.message) for x in w] == [
        "poses: 2 rotation(s) orthonormal only to within 1e-5 (first at index 1) were replaced by the "
        "nearest rotation"
    ]
    assert w[0].category is UserWarning and w[0].filename == __file__
    # Pose 2 turns the cube by 0.3 rad at x = 2: it spans x from 1.70 to 2.96.
    assert got.tolist() == [True, True, False, False]


def test_points_and_rays(tree):
    raises(ValueError, "points must have shape (N, 3), not (3,)", clash.closest_points, tree, [1, 2, 3])
    raises(ValueError, "points[1]: non-finite number NaN", clash.signed_distance, tree,
           [[0, 0, 0], [0, np.nan, 0]])
    raises(ValueError, "directions[0]: the ray direction is zero", clash.raycast, tree, [[0, 0, 0]], [[0, 0, 0]])
    raises(ValueError, "origins and directions must have the same length, not 1 and 2", clash.raycast, tree,
           [[0, 0, 0]], [[0, 0, 1], [1, 0, 0]])
    raises(ValueError, "t_min and t_max must be numbers, not NaN", clash.raycast, tree, [[0, 0, 0]],
           [[0, 0, 1]], np.nan)
    open_mesh = clash.Tree.build((cube(1.0)[0], cube(1.0)[1][:-1]))
    raises(ValueError, "signed distance needs a closed mesh", clash.signed_distance, open_mesh, [[0, 0, 0]])


def test_meshes():
    v, f = cube(1.0)
    raises(ValueError, "vertices must have shape (N, 3), not (8, 2)", clash.Mesh, v[:, :2], f)
    raises(ValueError, "faces must have shape (M, 3), not (12, 4)", clash.Mesh, v, np.zeros((12, 4), int))
    raises(ValueError, "faces must be an array of integers, not of dtype float64", clash.Mesh, v, f.astype(float))
    bad = f.copy()
    bad[5, 1] = 8
    raises(ValueError, "invalid mesh: triangle 5 refers to vertex 8, but the mesh has 8 vertices", clash.Mesh, v, bad)
    bad[5, 1] = -1
    raises(ValueError, "invalid mesh: triangle 5 refers to vertex -1, but the mesh has 8 vertices",
           clash.Tree.build, (v, bad))
    nan = v.copy()
    nan[3, 2] = np.nan
    raises(ValueError, "invalid mesh: vertex 3 has a non-finite coordinate (NaN or infinity)", clash.Mesh, nan, f)
    raises(ValueError, "invalid mesh: the mesh has no triangles", clash.Mesh, v, np.zeros((0, 3), int))
    # Beyond f32 but within the range f64 queries answer in (2^128).
    big = v * 3.4028236e38
    raises(ValueError, "invalid mesh: vertex 1 has coordinate 3.4028236e38, out of range for f32 trees",
           clash.Tree.build, (big, f), precision="f32")
    raises(TypeError, "expected a clash.Mesh, a mesh file path, a (vertices, faces) pair or an object with "
           "vertices and faces (such as a trimesh.Trimesh), not int", clash.Tree.build, 7)


def test_build_options():
    m = cube(1.0)
    raises(ValueError, "unknown bounding volume \"box\" (expected one of aabb, obb, rss, sphere, capsule, "
           "kdop14, kdop18, kdop26)", clash.Tree.build, m, bv="box")
    raises(ValueError, "unknown precision \"f16\" (expected one of f32, f64)", clash.Tree.build, m, precision="f16")
    raises(ValueError, "unknown split \"binned\" (expected one of median, mean, sah)", clash.Tree.build, m,
           split="binned")
    raises(ValueError, "leaf_size must be between 1 and 255, not 0", clash.Tree.build, m, leaf_size=0)
    for both in [dict(tight=True, tight_above=128), dict(tight=True, basic_fit=True),
                 dict(tight_above=64, basic_fit=True)]:
        raises(ValueError, "tight, tight_above and basic_fit cannot be used together", clash.Tree.build, m,
               **both)


def test_files_and_bytes(tmp_path):
    e = raises(FileNotFoundError, "...", clash.Tree.load, tmp_path / "missing.clash")
    assert e.errno == 2 and str(tmp_path / "missing.clash") in str(e)
    raises(FileNotFoundError, "...", clash.Mesh.load, tmp_path / "missing.stl")
    raises(IsADirectoryError, "...", clash.Tree.build(cube(1.0)).save, tmp_path)
    raises(ValueError, f"{tmp_path / 'mesh.txt'}: unknown mesh format (expected a .obj, .stl or .ply file)",
           clash.Mesh.load, tmp_path / "mesh.txt")
    (tmp_path / "bad.obj").write_text("v 0 0 0\nv 1 0 zero\n")
    raises(ValueError, f"{tmp_path / 'bad.obj'}:2: malformed OBJ file: ...", clash.Tree.build, tmp_path / "bad.obj")
    not_tree = tmp_path / "not.clash"
    not_tree.write_bytes(b"solid cube\nendsolid\n" * 4)
    raises(ValueError, f"{not_tree}: not a clash tree file (bad magic number)", clash.Tree.load, not_tree)

    good = clash.Tree.build(MESHES / "bunny_lo.stl").to_bytes()
    raises(ValueError, "tree bytes: not a clash tree file (bad magic number)", clash.Tree.from_bytes, b"x" * 100)
    raises(ValueError, "tree bytes: truncated tree file: ...", clash.Tree.from_bytes, good[:20])
    raises(ValueError, "tree bytes: truncated tree file: ...", clash.Tree.from_bytes, good[:-7])
    corrupt = bytearray(good)
    corrupt[len(good) // 2] ^= 0x10
    raises(ValueError, "tree bytes: checksum mismatch: the tree file is corrupt", clash.Tree.from_bytes,
           bytes(corrupt))
    header = bytearray(good)
    header[12:15] = b"f16"
    raises(ValueError, "tree bytes: unknown scalar type \"f16\" in the tree header", clash.Tree.from_bytes,
           bytes(header))
    # Every single-byte corruption of the header and payload start is an
    # error, never a crash, except in the padding after a type name's
    # terminating zero, which no reader looks at: those load the same tree.
    original = clash.Tree.from_bytes(good)
    loaded = []
    for i in range(0, 200):
        flipped = bytearray(good)
        flipped[i] ^= 0xFF
        try:
            tree = clash.Tree.from_bytes(bytes(flipped))
        except ValueError:
            continue
        assert tree == original
        loaded.append(i)
    assert loaded == [*range(16, 20), *range(24, 36)]  # after "f64\0" and "obb\0"


LIMIT = "±3.402823669209385e38, the largest magnitude f64 queries answer without overflow (scale the scene down)"


def test_coordinates_beyond_the_range_are_refused_naming_the_entry(tree):
    """Issue 52: points, ray origins and directions beyond the queries'
    coordinate range (2^128 in f64, 2^26 in f32) were answered (a NaN, a
    distance "out of range" naming a later row, or a miss); now refused,
    naming the first bad row."""
    for q in (clash.closest_points, clash.signed_distance):
        raises(ValueError, f"points[1]: coordinate 1e300 is beyond {LIMIT}", q, tree,
               [[0, 0, 0], [1e300, 0, 0], [np.nan, 0, 0]])
    f32 = clash.Tree.build(cube(1.0), precision="f32")
    raises(ValueError, "points[0]: coordinate 1e8 is beyond ±6.7108864e7, the largest magnitude f32 queries "
           "answer without overflow (scale the scene down)", clash.closest_points, f32, [[1e8, 0, 0]])
    raises(ValueError, f"origins[0]: coordinate -1e200 is beyond {LIMIT}", clash.raycast, tree,
           [[0, -1e200, 0]], [[0, 1, 0]])
    raises(ValueError, "directions[1]: ray direction's largest component 1e-310 is not between "
           "2.938735877055719e-39 and 3.402823669209385e38 in magnitude for f64 queries (scale the direction)",
           clash.raycast, tree, [[0, 0, -1]] * 2, [[0, 0, 1], [0, 0, 1e-310]])
    raises(ValueError, "directions[0]: ray direction's largest component 1e300 is not between ...",
           clash.raycast, tree, [[0, 0, -1]], [[0, 0, 1e300]])


def test_shapes_beyond_the_range_are_refused_naming_the_size():
    """Issue 52: shapes larger than 2^128 were made, and their queries
    overflowed; a box's bad half-extent is named by its index."""
    raises(ValueError, "Shape.ball: radius 1e300 is beyond ±3.402823669209385e38, the largest size f64 queries "
           "answer without overflow (scale the scene down)", clash.Shape.ball, 1e300)
    raises(ValueError, "Shape.capsule: margin 1e39 is beyond ...", clash.Shape.capsule, 1.0, 1.0, 1e39)
    raises(ValueError, "Shape.cone: half-height 1e300 is beyond ...", clash.Shape.cone, 1e300, 1.0)
    raises(ValueError, "Shape.box: half_extents[2] 1e300 is beyond ...", clash.Shape.box, (1, 1, 1e300))
    raises(ValueError, "Shape.box: negative half-extent half_extents[1] (-2.0)", clash.Shape.box, (1, -2, 1))
    raises(ValueError, "Shape.box: non-finite half-extent half_extents[0] (NaN)", clash.Shape.box,
           (np.nan, 1, 1))
    raises(ValueError, f"Shape.convex_hull: points[1]: coordinate 1e300 is beyond {LIMIT}",
           clash.Shape.convex_hull, [[0, 0, 0], [1e300, 0, 0], [0, 1, 0], [np.nan, 0, 0]])
    raises(ValueError, "Shape.convex_hull: points[1]: non-finite coordinate (NaN or infinity)",
           clash.Shape.convex_hull, [[0, 0, 0], [np.nan, 0, 0], [1e300, 1, 0]])
    assert clash.Shape.ball(2.0 ** 128).params == (2.0 ** 128,)


def test_joint_vectors_are_refused_naming_the_vector():
    """Issue 52: a robot world's batches named the joint but not which
    vector held the bad value, and a prismatic joint moved beyond the
    coordinate range was answered (or panicked once the kinematics
    overflowed)."""
    robot = clash.Robot.load(MESHES.parent / "robots" / "panda" / "urdf" / "panda_collision.urdf")
    world = clash.RobotWorld(robot)
    q = np.zeros((3, robot.dof))
    q[2, 0] = np.nan
    for f in (world.batch_distance, world.batch_first_collision):
        raises(ValueError, 'q[2]: joint "panda_joint1": value NaN is not finite', f, q)
    finger = robot.joint_names.index("panda_finger_joint1")
    for far, message in (
        (1e300, 'q[1]: link "panda_leftfinger" is placed beyond the coordinate range: coordinate '
                f"7.071067811865476e299 is beyond {LIMIT}"),
        (1.7e308, 'q[1]: the pose of link "panda_leftfinger" is not finite (a non-finite base pose, or joint '
                  "values too large)"),
    ):
        q = np.zeros((2, robot.dof))
        q[1, finger] = far
        for f in (world.batch_distance, world.batch_first_collision):
            raises(ValueError, message, f, q)


def test_thread_counts_of_every_kind_name_the_argument(tree):
    """Issue 52: an int beyond 64 bits raised pyo3's ``OverflowError`` and
    another type a ``TypeError``, neither naming ``threads``; issue 47: zero,
    bools, floats and strings are ``ValueError`` as negative counts are."""
    p = poses()
    for f, args in ((clash.collide, (tree, tree, p)), (clash.distance, (tree, tree, p)),
                    (clash.closest_points, (tree, [[0, 0, 0]])),
                    (clash.raycast, (tree, [[0, 0, -1]], [[0, 0, 1]]))):
        raises(ValueError, "threads must be a positive int or None, not -1", f, *args, threads=-1)
        raises(ValueError, "threads must be a positive int or None, not 0", f, *args, threads=0)
        raises(ValueError, "threads must be a positive int or None, not -1180591620717411303424", f,
               *args, threads=-2 ** 70)
        raises(ValueError, "threads must be a positive int or None, not True (bool)", f, *args,
               threads=True)
        raises(ValueError, "threads must be a positive int or None, not 1.5 (float)", f, *args,
               threads=1.5)
        raises(ValueError, "threads must be a positive int or None, not '2' (str)", f, *args,
               threads="2")
    raises(ValueError, "threads must be a positive int or None, not -7", clash.Tree.build, cube(1.0),
           threads=-7)
    world = clash.World()
    world.insert(tree)
    raises(ValueError, "threads must be a positive int or None, not 2.0 (float)", world.batch_distance,
           np.eye(4)[None, None], threads=2.0)
