"""Every public function under generated inputs (hypothesis): arrays of
every dtype, shape, memory order and extreme value. Each call answers
within the invariants that hold whatever the algorithm (points on their
surfaces, distances equal to the points' separation, collision exactly
when the distance is 0, batches equal to single calls), or raises
``ValueError`` (``TypeError`` for arguments of the wrong kind
altogether) naming the argument. Never a panic across the boundary
(pyo3's ``PanicException`` is not an ``Exception``, so it fails the test),
a hang, or a NaN in an answer.

The ``ci`` profile (the default) runs 40 derandomised examples per test;
``CLASH_HYPOTHESIS=long`` runs 2,000 random ones (docs/long_checks.md)."""

from __future__ import annotations

import os
import re

import numpy as np
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import clash
from conftest import REPO, cube, icosahedron

settings.register_profile(
    "ci", max_examples=40, derandomize=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "long", max_examples=2000, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("CLASH_HYPOTHESIS", "ci"))

EPS = np.finfo(np.float64).eps
EXTREMES = [
    0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, 1e-30, 1e-8, 0.5, 1.0, 2.0, 1e8,
    1e30, 3.4e38, 1e300, 1.7976931348623157e308, -1e300, -1.0, np.nan, np.inf, -np.inf,
]
DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int32, np.uint8, np.bool_, np.complex128, object]

# The bodies queries run on: trees in both precisions and shapes of each
# kind (the hull a tetrahedron-ish blob).
CUBE = clash.Tree.build(cube(1.0))
ICO = clash.Tree.build(icosahedron(0.7), bv="rss")
CUBE_F32 = clash.Tree.build(cube(1.0), precision="f32")
BALL = clash.Shape.ball(0.4)
BOX = clash.Shape.box([0.3, 0.2, 0.5])
CAPSULE = clash.Shape.capsule(0.5, 0.2, margin=0.05)
HULL = clash.Shape.convex_hull(icosahedron(0.5)[0])
BODIES = [CUBE, ICO, CUBE_F32, BALL, BOX, CAPSULE, HULL]

finite = st.floats(-3.0, 3.0, allow_nan=False)
extreme = st.sampled_from(EXTREMES)
anything = st.one_of(extreme, st.floats(), finite)


def rotation(q):
    q = np.asarray(q, dtype=np.float64)
    n = np.linalg.norm(q)
    w, x, y, z = q / n if n > 1e-3 else (1.0, 0.0, 0.0, 0.0)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


@st.composite
def pose_arrays(draw, max_n=4):
    """Mostly valid (N, 4, 4) or (N, 3, 4) poses at every scale of
    translation, sometimes with an entry, the dtype, the shape or the memory
    order spoiled."""
    n = draw(st.integers(0, max_n))
    poses = np.tile(np.eye(4), (n, 1, 1))
    for i in range(n):
        poses[i, :3, :3] = rotation(draw(st.lists(finite, min_size=4, max_size=4)))
        scale = draw(st.sampled_from([1e-300, 1e-8, 1.0, 1e8, 1e30, 1e300]))
        poses[i, :3, 3] = np.array(draw(st.lists(finite, min_size=3, max_size=3))) * scale
    if draw(st.booleans()):
        poses = poses[:, :3, :]
    return draw(spoiled(poses))


@st.composite
def spoiled(draw, array):
    """``array`` as given, or with one entry set to an extreme value, cast
    to another dtype, reshaped, or made non-contiguous (Fortran order, a
    strided view)."""
    how = draw(st.sampled_from(["as is", "as is", "entry", "dtype", "shape", "fortran", "strided", "list"]))
    a = np.array(array, dtype=np.float64)
    if how == "entry" and a.size:
        a.flat[draw(st.integers(0, a.size - 1))] = draw(extreme)
    elif how == "dtype":
        with np.errstate(all="ignore"):
            a = a.astype(draw(st.sampled_from(DTYPES)))
    elif how == "shape":
        a = a.reshape(-1)[: draw(st.integers(0, a.size))] if a.size else np.zeros((2, 2, 2))
    elif how == "fortran":
        a = np.asfortranarray(a)
    elif how == "strided":
        wide = np.repeat(a, 2, axis=-1) if a.ndim else a
        a = wide[..., ::2] if a.ndim else a
    elif how == "list":
        return a.tolist()
    return a


def named(message, *names):
    """``message`` names one of ``names`` (``half_height`` may read
    ``half-height``)."""
    words = message.replace("-", "_")
    return any(re.search(rf"\b{n}\b", words) for n in names)


def refused_naming(f, names, *args, **kwargs):
    """``f``'s answer, or ``None`` when it raised ``ValueError`` naming one
    of ``names`` (the arguments that can be wrong) or ``TypeError`` (an
    argument of the wrong kind altogether, such as a list of strings)."""
    what = getattr(f, "__name__", "call")
    try:
        answer = f(*args, **kwargs)
    except ValueError as e:
        assert named(str(e), *names), str(e)
        event(f"{what}: ValueError")
        return None
    except TypeError as e:
        assert str(e), "TypeError without a message"
        event(f"{what}: TypeError")
        return None
    event(f"{what}: answered")
    return answer


def as_matrices(poses):
    """The float64 (N, 4, 4) matrices of poses the call accepted."""
    p = np.asarray(poses, dtype=np.float64)
    if p.shape[1] == 3:
        p = np.concatenate([p, np.tile([[[0.0, 0.0, 0.0, 1.0]]], (len(p), 1, 1))], axis=1)
    return p


def magnitude(poses):
    return np.max(np.abs(poses[:, :3, 3]), axis=1, initial=0.0) + 2.0


def on_tree(tree, points, tol):
    """Each point lies on the tree's mesh (its distance to it within tol)."""
    if len(points) == 0:
        return
    d, _, _ = clash.closest_points(tree, points)
    assert np.all(d <= tol), (d, tol)


def on_shape(shape, local, tol, apart):
    """Points (in the shape's frame) on its surface (when apart) or in it."""
    kind = shape.kind
    if kind == "ball":
        r = np.linalg.norm(local, axis=1) - shape.params[0]
    elif kind == "box":
        r = np.max(np.abs(local) - np.asarray(shape.params[0]), axis=1)
    else:
        return
    assert np.all(r <= tol), (kind, r, tol)
    assert np.all(np.abs(r[apart]) <= tol[apart]), (kind, r, tol)


def check_on_body(body, points, tol, apart):
    if isinstance(body, clash.Tree):
        for p, t in zip(points, tol):
            on_tree(body, p[None], t)
    else:
        on_shape(body, points, tol, apart)


bodies = st.sampled_from(BODIES)
threads = st.sampled_from([None, 1, 2])


@given(a=bodies, b=bodies, poses=pose_arrays(), threads=threads)
def test_distance_collide_and_contact_obey_the_invariants(a, b, poses, threads):
    names = ("poses", "a", "b", "threads")
    got = refused_naming(clash.distance, names, a, b, poses, threads=threads)
    if got is None:
        return
    d, pa, pb, tri = got
    p = as_matrices(poses)
    n = len(p)
    assert d.shape == (n,) and pa.shape == (n, 3) and pb.shape == (n, 3) and tri.shape == (n, 2)
    assert not np.isnan(d).any() and np.all(d >= 0) and np.isfinite(pa).all() and np.isfinite(pb).all()
    f32 = CUBE_F32 in (a, b)
    rel = 1e-5 if f32 else 1e-9
    tol = rel * magnitude(p) + 64 * (np.finfo(np.float32).eps if f32 else EPS) * magnitude(p)
    shapes = not (isinstance(a, clash.Tree) and isinstance(b, clash.Tree))
    if shapes:
        tol = tol + 1e-8 * magnitude(p)
    assert np.all(np.abs(np.linalg.norm(pb - pa, axis=1) - d) <= tol), (d, pa, pb)
    apart = d > tol
    check_on_body(a, pa, tol, apart)
    local_b = np.einsum("nji,nj->ni", p[:, :3, :3], pb - p[:, :3, 3])
    check_on_body(b, local_b, tol, apart)
    # Batches are the single calls in input order.
    for i in range(min(n, 2)):
        one = clash.distance(a, b, p[i:i + 1], threads=1)
        assert one[0][0] == d[i] and (one[1][0] == pa[i]).all() and (one[2][0] == pb[i]).all()
    hit = clash.collide(a, b, p, threads=threads)
    assert hit.shape == (n,)
    if not shapes:
        assert (hit == (d == 0)).all(), (hit, d)
    else:
        assert not (hit & apart).any() and (hit | (d > 0)).all(), (hit, d)
    if shapes and not f32:
        c, normal, ca, cb, _ = clash.contact(a, b, p, threads=threads)
        assert np.isfinite(c).all() and np.isfinite(ca).all() and np.isfinite(cb).all()
        assert np.all(np.abs(np.linalg.norm(normal, axis=1) - 1) <= 1e-6)
        assert np.all(c[apart] > 0) and np.all(np.abs(c[apart] - d[apart]) <= tol[apart])


@given(points=st.lists(st.lists(anything, min_size=3, max_size=3), max_size=5), spoil=st.data(),
       threads=threads)
def test_point_queries_obey_the_invariants(points, spoil, threads):
    pts = spoil.draw(spoiled(np.array(points, dtype=np.float64).reshape(-1, 3)))
    for tree in (CUBE, ICO, CUBE_F32):
        got = refused_naming(clash.closest_points, ("points", "threads"), tree, pts, threads=threads)
        if got is None:
            continue
        d, at, tri = got
        q = np.asarray(pts, dtype=np.float64).reshape(-1, 3)
        assert not np.isnan(d).any() and np.all(d >= 0) and np.isfinite(at).all()
        f32 = tree is CUBE_F32
        tol = (1e-5 if f32 else 1e-12) * (np.max(np.abs(q), axis=1, initial=0.0) + 2.0)
        assert np.all(np.abs(np.linalg.norm(q - at, axis=1) - d) <= tol)
        if not f32:
            on_tree(tree, at, tol.max(initial=0.0))
            sd, sat, _ = clash.signed_distance(tree, q)
            assert np.all(np.abs(np.abs(sd) - d) <= tol) and (sat == at).all()
            if tree is CUBE:
                # The sign, away from the surface (within rounding of it, 0
                # may read either way).
                inside = np.all((q > 0) & (q < 1), axis=1)
                clear = d > tol
                assert (sd[inside & clear] < 0).all() and (sd[~inside] >= 0).all(), (q, sd)


@given(origins=st.lists(st.lists(finite, min_size=3, max_size=3), min_size=1, max_size=4),
       directions=st.lists(st.lists(finite, min_size=3, max_size=3), min_size=1, max_size=4),
       scale=st.sampled_from([1e-300, 1e-8, 1.0, 1e8, 1e30, 1e300]),
       t_min=st.one_of(st.just(0.0), st.just(-np.inf), anything),
       t_max=st.one_of(st.just(np.inf), anything), spoil=st.data(), threads=threads)
def test_rays_obey_the_invariants(origins, directions, scale, t_min, t_max, spoil, threads):
    o = spoil.draw(spoiled(np.array(origins) * scale))
    n = min(len(origins), len(directions))
    dirs = spoil.draw(spoiled(np.array(directions[:n] if spoil.draw(st.booleans()) else directions)))
    got = refused_naming(clash.raycast, ("origins", "directions", "t_min", "t_max", "threads"),
                         CUBE, o, dirs, t_min, t_max, threads=threads)
    if got is None:
        return
    hit, t, tri, point, normal = got
    oo = np.asarray(o, dtype=np.float64)
    assert hit.shape == (len(oo),) and not np.isnan(t[hit]).any() and np.isfinite(point[hit]).all()
    assert np.all((t[hit] >= t_min) & (t[hit] <= t_max))
    assert np.all(tri[~hit] == -1) and np.all(tri[hit] >= 0)
    assert np.all(np.isinf(t[~hit])) and np.all(normal[~hit] == 0)
    assert np.all(np.abs(np.linalg.norm(normal[hit], axis=1) - 1) <= 1e-12)
    if hit.any():
        dd = np.asarray(dirs, dtype=np.float64)
        reach = np.abs(t[hit]) * np.max(np.abs(dd[hit]), axis=1)
        scale = np.max(np.abs(oo[hit]), axis=1) + reach + 2.0
        for at, s in zip(point[hit], scale):
            on_tree(CUBE, at[None], 1e-9 * s)


@given(vertices=st.data(), faces=st.data())
def test_meshes_and_trees_build_or_refuse(vertices, faces):
    v, f = icosahedron(1.0)
    v = vertices.draw(spoiled(v * vertices.draw(st.sampled_from([1e-300, 1e-20, 1.0, 1e20, 1e40]))))
    fi = faces.draw(st.one_of(st.just(f), st.builds(lambda a: a, spoiled(f))))
    if isinstance(fi, np.ndarray) and fi.dtype == np.float64:
        fi = fi.astype(np.int64) if np.isfinite(fi).all() and np.abs(fi).max(initial=0) < 1e9 else fi
    mesh = refused_naming(clash.Mesh, ("vertices", "faces", "mesh"), v, fi)
    if mesh is not None:
        assert mesh.num_triangles <= len(f) and np.isfinite(mesh.vertices).all()
        tree = refused_naming(clash.Tree.build, ("vertices", "mesh"), mesh)
        if tree is not None:
            assert tree.num_triangles == mesh.num_triangles
            assert clash.Tree.from_bytes(tree.to_bytes()) == tree


sizes = st.one_of(extreme, finite)


@given(r=sizes, h=sizes, m=st.one_of(st.just(0.0), sizes), points=st.data())
def test_shapes_build_or_refuse_naming_the_size(r, h, m, points):
    made = [
        refused_naming(clash.Shape.ball, ("radius", "margin"), r, margin=m),
        refused_naming(clash.Shape.capsule, ("half_height", "radius", "margin"), h, r, margin=m),
        refused_naming(clash.Shape.cylinder, ("half_height", "radius", "margin"), h, r, margin=m),
        refused_naming(clash.Shape.cone, ("half_height", "radius", "margin"), h, r, margin=m),
        refused_naming(clash.Shape.box, ("half_extents", "margin"), points.draw(spoiled([r, h, 1.0])), margin=m),
        refused_naming(clash.Shape.convex_hull, ("points", "margin"),
                       points.draw(spoiled(icosahedron(abs(r) if np.isfinite(r) and r != 0 else 1.0)[0])),
                       margin=m),
    ]
    at_3 = np.array([[[1, 0, 0, 3], [0, 1, 0, 0], [0, 0, 1, 0]]], float)
    for s in made:
        if s is None:
            continue
        # Every shape answers a query against the cube [0, 1]^3 from x = 3:
        # those whose extent along x is `r` (plus the margin), and whose y
        # and z spans meet the cube's, are 2 - r - margin from it.
        d, pa, pb, _ = clash.distance(CUBE, s, at_3)
        assert np.isfinite(d).all() and (d >= 0).all() and np.isfinite(pa).all() and np.isfinite(pb).all()
        along_x = {"ball": lambda p: p[0], "capsule": lambda p: p[1], "cylinder": lambda p: p[1],
                   "box": lambda p: p[0][0]}
        if s.kind in along_x:
            reach = along_x[s.kind](s.params) + s.margin
            expected = max(0.0, 2.0 - reach)
            assert abs(d[0] - expected) <= 1e-12 * (2.0 + reach), (s.kind, s.params, d, expected)


ROBOT = clash.Robot.load(REPO / "data" / "robots" / "panda" / "urdf" / "panda_collision.urdf")
ROBOT_WORLD = clash.RobotWorld(ROBOT, REPO / "data" / "robots" / "panda" / "srdf" / "panda.srdf")


@st.composite
def joint_arrays(draw):
    lo, hi = ROBOT.limits[:, 0], ROBOT.limits[:, 1]
    n = draw(st.integers(0, 3))
    q = np.array([[draw(st.floats(float(a), float(b))) for a, b in zip(lo, hi)] for _ in range(n)])
    q = q.reshape(n, len(lo))
    return draw(spoiled(q))


@given(q=joint_arrays(), threads=threads)
def test_robots_answer_or_refuse_naming_the_vector(q, threads):
    fk = refused_naming(ROBOT.forward_kinematics, ("q",), q[0] if isinstance(q, np.ndarray) and q.ndim == 2 and len(q)
                        else q)
    if fk is not None:
        assert np.isfinite(fk).all()
    first = refused_naming(ROBOT_WORLD.batch_first_collision, ("q", "threads"), q, threads=threads)
    dist = refused_naming(ROBOT_WORLD.batch_distance, ("q", "threads"), q, threads=threads)
    assert (first is None) == (dist is None)
    if first is not None:
        d = dist[0]
        assert not np.isnan(d).any() and (d >= 0).all()
        # A collision exactly when the closest pair touches (to rounding).
        colliding = first[:, 0] >= 0
        assert not (colliding & (d > 1e-9)).any() and not (~colliding & (d == 0)).any(), (first, d)


@st.composite
def world_poses(draw):
    """``(C, 2, 4, 4)`` poses of the cube (fixed) and the ball (anywhere),
    spoiled as ``spoiled`` does."""
    ball = as_matrices(draw(pose_arrays(max_n=3).filter(valid_poses)))
    w = np.tile(np.eye(4), (len(ball), 2, 1, 1))
    w[:, 1] = ball
    return draw(spoiled(w))


def valid_poses(p):
    return (isinstance(p, np.ndarray) and p.dtype == np.float64 and p.ndim == 3
            and p.shape[1:] in ((4, 4), (3, 4)) and np.isfinite(p).all())


@given(poses=world_poses(), threads=threads)
def test_worlds_answer_or_refuse_naming_the_poses(poses, threads):
    world = clash.World()
    world.insert(CUBE)
    world.insert(BALL)
    names = ("poses", "threads")
    got = refused_naming(world.batch_distance, names, poses, threads=threads)
    first = refused_naming(world.batch_first_collision, names, poses, threads=threads)
    assert (got is None) == (first is None)
    if got is None:
        return
    d, pairs, pa, pb, _ = got
    assert not np.isnan(d).any() and (d >= 0).all() and np.isfinite(pa).all() and np.isfinite(pb).all()
    p = np.asarray(poses, dtype=np.float64)
    tol = 1e-9 * (np.max(np.abs(p[:, 1, :3, 3]), axis=1) + 2.0)
    assert np.all(np.abs(np.linalg.norm(pb - pa, axis=1) - d) <= tol)
    colliding = first[:, 0] >= 0
    assert not (colliding & (d > tol)).any() and not (~colliding & (d == 0)).any(), (first, d)
