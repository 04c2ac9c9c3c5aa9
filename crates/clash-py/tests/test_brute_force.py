"""The bindings against oracles that share no code with clash: exact
rational triangle tests (``benches/compare/exact_check.py``) for collision
pairs and distances, and numpy brute force over every triangle for rays,
closest points and signed distance, on small meshes."""

from __future__ import annotations

import math

import numpy as np
import pytest

import clash
import exact_check as ex
from conftest import MESHES, cube, icosahedron, poses_around, touching_poses_of_unit_cubes


def exact_triangles(v, f, pose=None):
    """The mesh's triangles as exact rationals, placed by ``pose`` (a 4x4
    or 3x4 matrix, its exact doubles)."""
    tris = [ex.triangle(v, f, i) for i in range(len(f))]
    if pose is None:
        return tris
    r, t = ex.exact_pose(np.asarray(pose)[:3, :].ravel())
    return [tuple(ex.apply_pose(r, t, p) for p in tri) for tri in tris]


def boxes(tris):
    """Each exact triangle's bounding box, as floats widened by 1e-9 (a
    prefilter only: every candidate is decided exactly)."""
    out = []
    for tri in tris:
        lo = [float(min(p[k] for p in tri)) - 1e-9 for k in range(3)]
        hi = [float(max(p[k] for p in tri)) + 1e-9 for k in range(3)]
        out.append((lo, hi))
    return out


def exact_pairs(va, fa, vb, fb, pose):
    """Every intersecting triangle pair (closed triangles), exactly."""
    ta, tb = exact_triangles(va, fa), exact_triangles(vb, fb, pose)
    ba, bb = boxes(ta), boxes(tb)
    out = set()
    for i, (lo1, hi1) in enumerate(ba):
        for j, (lo2, hi2) in enumerate(bb):
            if all(lo1[k] <= hi2[k] and lo2[k] <= hi1[k] for k in range(3)):
                if ex.tri_tri_intersect(ta[i], tb[j]):
                    out.add((i, j))
    return out


CASES = [
    ("icosahedron and box", icosahedron(1.0), cube(0.8), poses_around(np.random.default_rng(5), 24, 1.4)),
    ("touching cubes", cube(1.0), cube(1.0), touching_poses_of_unit_cubes()),
]


@pytest.mark.parametrize("name,mesh_a,mesh_b,poses", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("bv", ["obb", "aabb", "rss"])
def test_collision_pairs_are_the_exact_ones(name, mesh_a, mesh_b, poses, bv):
    a = clash.Tree.build(mesh_a, bv=bv)
    b = clash.Tree.build(mesh_b, bv=bv)
    got = clash.collide(a, b, poses, mode="pairs")
    hits = clash.collide(a, b, poses)
    counts = clash.collide(a, b, poses, mode="count")
    for k, pose in enumerate(poses):
        want = exact_pairs(*mesh_a, *mesh_b, pose)
        assert {tuple(p) for p in got[k].tolist()} == want, f"pose {k}"
        assert len(got[k]) == len(want) == counts[k]
        assert hits[k] == bool(want)
    assert 0 < hits.sum() < len(poses)


def test_touching_cubes_touch_and_a_hair_apart_do_not():
    a = clash.Tree.build(cube(1.0))
    got = clash.collide(a, a, touching_poses_of_unit_cubes())
    np.testing.assert_array_equal(got, [True, True, True, True, False, False, True])
    d = clash.distance(a, a, touching_poses_of_unit_cubes())
    np.testing.assert_array_equal(d.distance[[0, 1, 2, 3, 6]], 0.0)
    np.testing.assert_allclose(d.distance[[4, 5]], 2.0 ** -30, rtol=0, atol=1e-15)


def exact_min_dist2(ta, tb):
    """The exact squared distance between two triangle sets; pairs whose
    boxes are farther apart than the closest pair of corners (an upper
    bound) are skipped, as they cannot be the closest."""
    ba, bb = boxes(ta), boxes(tb)
    upper = min(float(ex.sq_dist_point(p, q)) for x in ta for y in tb for p in x for q in y) * (1 + 1e-9)

    def box_gap2(b1, b2):
        return sum(max(0.0, b1[0][k] - b2[1][k], b2[0][k] - b1[1][k]) ** 2 for k in range(3))

    return min(
        ex.tri_tri_dist2(ta[i], tb[j])
        for i in range(len(ta)) for j in range(len(tb))
        if box_gap2(ba[i], bb[j]) <= upper
    )


@pytest.mark.parametrize("bv", ["rss", "obb"])
def test_distances_are_the_exact_minimum(bv):
    va, fa = icosahedron(1.0)
    vb, fb = cube(0.5)
    rng = np.random.default_rng(11)
    poses = poses_around(rng, 8, 0.4)
    direction = rng.normal(size=(8, 3))
    poses[:, :3, 3] = direction / np.linalg.norm(direction, axis=1, keepdims=True) * 2.2
    a = clash.Tree.build((va, fa), bv=bv)
    b = clash.Tree.build((vb, fb), bv=bv)
    got = clash.distance(a, b, poses)
    ta = exact_triangles(va, fa)
    for k, pose in enumerate(poses):
        tb = exact_triangles(vb, fb, pose)
        want = math.sqrt(exact_min_dist2(ta, tb))
        assert want > 0
        assert abs(got.distance[k] - want) <= 1e-14 * 4, (k, got.distance[k], want)
        # The points lie on the triangles named, and are that far apart.
        assert abs(np.linalg.norm(got.point_a[k] - got.point_b[k]) - got.distance[k]) <= 1e-14 * 4
        ia, ib = got.triangles[k]
        pa = tuple(ex.Q(float(c)) for c in got.point_a[k])
        pb = tuple(ex.Q(float(c)) for c in got.point_b[k])
        assert float(ex.point_tri_dist2(pa, *ta[ia])) <= 1e-28
        assert float(ex.point_tri_dist2(pb, *tb[ib])) <= 1e-28


def brute_rays(v, f, origins, directions):
    """Closest hit of each ray over every triangle (Möller-Trumbore in
    float64): t (inf for a miss) and the triangle."""
    a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
    e1, e2 = b - a, c - a
    t_out = np.full(len(origins), np.inf)
    tri_out = np.full(len(origins), -1)
    for i, (o, d) in enumerate(zip(origins, directions)):
        p = np.cross(d, e2)
        det = np.einsum("ij,ij->i", e1, p)
        with np.errstate(divide="ignore", invalid="ignore"):
            inv = 1.0 / det
            s = o - a
            u = np.einsum("ij,ij->i", s, p) * inv
            q = np.cross(s, e1)
            w = (q @ d) * inv
            t = np.einsum("ij,ij->i", e2, q) * inv
        ok = (det != 0) & (u >= 0) & (w >= 0) & (u + w <= 1) & (t >= 0)
        if ok.any():
            k = np.flatnonzero(ok)[np.argmin(t[ok])]
            t_out[i], tri_out[i] = t[k], k
    return t_out, tri_out


def test_rays_hit_what_brute_force_hits():
    mesh = clash.Mesh.load(MESHES / "bunny_lo.stl")
    v, f = mesh.vertices, mesh.faces
    rng = np.random.default_rng(3)
    center = v.mean(axis=0)
    out = rng.normal(size=(300, 3))
    origins = center + 3 * out / np.linalg.norm(out, axis=1, keepdims=True)
    directions = center + rng.uniform(-1.2, 1.2, size=(300, 3)) - origins
    want_t, want_tri = brute_rays(v, f, origins, directions)
    for bv in ["obb", "aabb"]:
        got = clash.raycast(clash.Tree.build(mesh, bv=bv), origins, directions)
        np.testing.assert_array_equal(got.hit, np.isfinite(want_t))
        hit = got.hit
        np.testing.assert_allclose(got.t[hit], want_t[hit], rtol=1e-12)
        np.testing.assert_array_equal(got.triangle[hit], want_tri[hit])
        np.testing.assert_allclose(got.point[hit], origins[hit] + want_t[hit, None] * directions[hit],
                                   atol=1e-12)
        assert hit.sum() > 50 and (~hit).sum() > 50


def test_closest_and_signed_distance_by_brute_force():
    v, f = icosahedron(1.0)
    tree = clash.Tree.build((v, f), bv="rss")
    rng = np.random.default_rng(9)
    points = rng.uniform(-1.6, 1.6, size=(60, 3))
    got = clash.closest_points(tree, points)
    signed = clash.signed_distance(tree, points)
    tris = exact_triangles(v, f)
    normals = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    for k, p in enumerate(points):
        q = tuple(ex.Q(float(c)) for c in p)
        d2 = [ex.point_tri_dist2(q, *t) for t in tris]
        want = math.sqrt(min(d2))
        assert abs(got.distance[k] - want) <= 1e-15 * 4
        assert d2[got.triangle[k]] == min(d2)
        # The convex icosahedron: inside iff below every face plane.
        inside = all(np.dot(normals[i], p - v[f[i, 0]]) < 0 for i in range(len(f)))
        assert signed.distance[k] == (-got.distance[k] if inside else got.distance[k])
        np.testing.assert_array_equal(signed.point[k], got.point[k])
    assert (signed.distance < 0).sum() > 3


def test_rays_over_the_whole_line_and_signed_distance_far_away():
    """``t_min=-inf`` casts the whole line (in f32 too, where ``-1e300``
    rounds to ``-inf``), against numpy brute force; and points up to 1e16
    times the size away are outside, at the distance of the nearest corner
    to within the mesh's size."""
    v, f = cube()
    rng = np.random.default_rng(12)
    origins = rng.uniform(-2.0, 3.0, size=(200, 3))
    targets = rng.uniform(-0.2, 1.2, size=(200, 3))
    directions = (targets - origins) * rng.choice([-1.0, 1.0], size=(200, 1))
    # Hits behind the origin count: the brute force from far back on the
    # same line.
    back = 1000.0
    want = brute_rays(v, f, origins - back * directions, directions)[0] - back
    for precision, t_min in [("f64", -math.inf), ("f32", -1e300)]:
        tree = clash.Tree.build((v, f), precision=precision)
        got = clash.raycast(tree, origins, directions, t_min=t_min)
        np.testing.assert_array_equal(got.hit, np.isfinite(want))
        np.testing.assert_allclose(got.t[got.hit], want[got.hit], rtol=1e-5, atol=1e-5)
        assert got.hit.sum() > 100
    tree = clash.Tree.build(icosahedron(1.0))
    scale = 10.0 ** rng.uniform(1, 16, size=300)
    u = rng.normal(size=(300, 3))
    far = u / np.linalg.norm(u, axis=1, keepdims=True) * scale[:, None]
    signed = clash.signed_distance(tree, far)
    corners = icosahedron(1.0)[0]
    nearest = np.linalg.norm(far[:, None, :] - corners[None, :, :], axis=2).min(axis=1)
    assert (signed.distance > 0).all()
    assert (signed.distance <= nearest * (1 + 1e-15)).all()
    assert (signed.distance >= nearest - 2.0).all()
