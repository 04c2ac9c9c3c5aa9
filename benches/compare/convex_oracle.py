"""Reference distances and depths of two placed convex polytopes that share
no code with GJK or EPA (float64, numpy), for `convex_compare.py`.

- `polytope_distance`: when the polytopes are apart, the distance between
  them is the least distance between a vertex of one and a triangle of the
  other, or between an edge of one and an edge of the other (the closest
  pair of two disjoint triangle sets is always of one of these kinds). Every
  candidate is the distance between two actual points of the surfaces, so
  rounding aside none is below the true distance, and the true one is among
  them. Pairs whose bounding boxes are farther apart than the closest
  vertex pair are skipped.
- `polytope_depth`: when they overlap, the penetration depth is the least
  overlap of their projections over the face normals of both and the cross
  products of every edge of one with every edge of the other (the face
  normals of the Minkowski difference are among these candidates; along
  any direction the overlap is at least the depth).

`python convex_oracle.py --self-test` checks both against closed forms
(boxes, a tetrahedron) and against dense direction sampling.
"""

import numpy as np


def _dot(a, b):
    return np.einsum("ij,ij->i", a, b)


def edges_of(triangles):
    """The undirected edges of a triangle list, each once (index pairs)."""
    t = np.asarray(triangles, dtype=np.int64)
    e = np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]])
    e.sort(axis=1)
    return np.unique(e, axis=0)


def point_segment(p, a, b):
    """Distances from points p to segments ab (row-wise)."""
    ab = b - a
    ll = _dot(ab, ab)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(ll > 0, _dot(p - a, ab) / ll, 0.0)
    t = np.clip(t, 0.0, 1.0)
    return np.linalg.norm(p - (a + t[:, None] * ab), axis=1)


def point_triangle(p, a, b, c):
    """Distances from points p to triangles abc (row-wise): the distance to
    the plane when the projection falls inside, else to the nearest edge."""
    n = np.cross(b - a, c - a)
    nn = np.linalg.norm(n, axis=1)
    inside = (
        (_dot(np.cross(b - a, p - a), n) >= 0)
        & (_dot(np.cross(c - b, p - b), n) >= 0)
        & (_dot(np.cross(a - c, p - c), n) >= 0)
        & (nn > 0)
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        plane = np.where(inside, np.abs(_dot(p - a, n)) / np.where(nn > 0, nn, 1.0), np.inf)
    edges = np.minimum(
        np.minimum(point_segment(p, a, b), point_segment(p, b, c)), point_segment(p, c, a)
    )
    return np.minimum(plane, edges)


def segment_segment(p1, q1, p2, q2):
    """Distances between segments p1q1 and p2q2 (row-wise), Ericson RTCD
    §5.1.9; the points compared always lie on the segments."""
    d1, d2, r = q1 - p1, q2 - p2, p1 - p2
    a, e, f = _dot(d1, d1), _dot(d2, d2), _dot(d2, r)
    c, b = _dot(d1, r), _dot(d1, d2)
    denom = a * e - b * b
    with np.errstate(invalid="ignore", divide="ignore"):
        s = np.where(denom > 0, np.clip((b * f - c * e) / denom, 0.0, 1.0), 0.0)
        t = np.where(e > 0, (b * s + f) / e, 0.0)
        s = np.where(t < 0, np.clip(np.where(a > 0, -c / a, 0.0), 0.0, 1.0), s)
        s = np.where(t > 1, np.clip(np.where(a > 0, (b - c) / a, 0.0), 0.0, 1.0), s)
    t = np.clip(t, 0.0, 1.0)
    return np.linalg.norm((p1 + s[:, None] * d1) - (p2 + t[:, None] * d2), axis=1)


def _box_gap(lo_a, hi_a, lo_b, hi_b):
    """Distances between axis-aligned boxes (row-wise, broadcast)."""
    g = np.maximum(np.maximum(lo_b - hi_a, lo_a - hi_b), 0.0)
    return np.sqrt((g * g).sum(axis=-1))


def _pairs_within(lo_a, hi_a, lo_b, hi_b, bound, chunk=1 << 12):
    """Index pairs (i, j) whose boxes are within `bound`."""
    out_i, out_j = [], []
    for s in range(0, len(lo_a), chunk):
        gap = _box_gap(lo_a[s:s + chunk, None], hi_a[s:s + chunk, None], lo_b[None], hi_b[None])
        i, j = np.nonzero(gap <= bound)
        out_i.append(i + s)
        out_j.append(j)
    return np.concatenate(out_i), np.concatenate(out_j)


def _vertex_triangle(v, tri_pts, bound):
    lo, hi = tri_pts.min(axis=1), tri_pts.max(axis=1)
    i, j = _pairs_within(v, v, lo, hi, bound)
    if len(i) == 0:
        return np.inf
    t = tri_pts[j]
    return point_triangle(v[i], t[:, 0], t[:, 1], t[:, 2]).min()


def polytope_distance(va, ta, vb, tb):
    """Distance between two disjoint convex polytopes given by world
    vertices (n x 3) and triangles (m x 3 indices)."""
    va, vb = np.asarray(va, float), np.asarray(vb, float)
    ta, tb = np.asarray(ta, np.int64), np.asarray(tb, np.int64)
    vv = np.sqrt(((va[:, None, :] - vb[None, :, :]) ** 2).sum(axis=-1)).min()
    bound = vv * (1 + 1e-9) + 1e-300
    best = min(vv, _vertex_triangle(va, vb[tb], bound), _vertex_triangle(vb, va[ta], bound))
    bound = best * (1 + 1e-9) + 1e-300
    ea, eb = edges_of(ta), edges_of(tb)
    sa, sb = va[ea], vb[eb]
    i, j = _pairs_within(sa.min(axis=1), sa.max(axis=1), sb.min(axis=1), sb.max(axis=1), bound)
    if len(i):
        best = min(best, segment_segment(sa[i, 0], sa[i, 1], sb[j, 0], sb[j, 1]).min())
    return float(best)


def _unit_rows(m):
    n = np.linalg.norm(m, axis=1)
    keep = n > 0
    return m[keep] / n[keep, None], n[keep]


def polytope_depth(va, ta, vb, tb, chunk=1 << 14):
    """Penetration depth of two overlapping convex polytopes (as for
    `polytope_distance`); a negative value means they are apart along some
    candidate axis."""
    va, vb = np.asarray(va, float), np.asarray(vb, float)
    ta, tb = np.asarray(ta, np.int64), np.asarray(tb, np.int64)
    axes = []
    for v, t in ((va, ta), (vb, tb)):
        n, _ = _unit_rows(np.cross(v[t[:, 1]] - v[t[:, 0]], v[t[:, 2]] - v[t[:, 0]]))
        axes.append(n)
    ea, eb = edges_of(ta), edges_of(tb)
    da = va[ea[:, 1]] - va[ea[:, 0]]
    db = vb[eb[:, 1]] - vb[eb[:, 0]]
    la, lb = np.linalg.norm(da, axis=1), np.linalg.norm(db, axis=1)
    best = np.inf
    for u in axes:
        best = min(best, _least_overlap(va, vb, u))
    step = max(1, chunk // max(1, len(db)))
    for s in range(0, len(da), step):
        c = np.cross(da[s:s + step, None, :], db[None, :, :]).reshape(-1, 3)
        scale = (la[s:s + step, None] * lb[None, :]).reshape(-1)
        keep = np.linalg.norm(c, axis=1) > 1e-12 * scale
        u, _ = _unit_rows(c[keep])
        if len(u):
            best = min(best, _least_overlap(va, vb, u))
    return float(best)


def _least_overlap(va, vb, u):
    pa, pb = va @ u.T, vb @ u.T
    over = np.minimum(pa.max(axis=0) - pb.min(axis=0), pb.max(axis=0) - pa.min(axis=0))
    return over.min()


def _box(h, centre=(0.0, 0.0, 0.0)):
    """Vertices and outward triangles of a box of half extents h."""
    v = np.array([[sx * h[0], sy * h[1], sz * h[2]]
                  for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) + np.asarray(centre)
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    t = []
    for a, b, c, d in quads:
        t += [(a, b, c), (a, c, d)]
    return v, np.array(t)


def self_test():
    rng = np.random.default_rng(3)
    va, ta = _box((1.0, 1.0, 1.0))
    # Face to face, edge to edge, corner to corner.
    for centre, want in [((3.5, 0.2, -0.3), 1.5), ((3.0, 3.0, 0.0), np.sqrt(2.0)),
                         ((3.0, 3.0, 3.0), np.sqrt(3.0))]:
        vb, tb = _box((1.0, 1.0, 1.0), centre)
        got = polytope_distance(va, ta, vb, tb)
        assert abs(got - want) < 1e-12, (centre, got, want)
    # A box rotated 45 degrees about z: its edge faces the first box's face.
    c, s = np.cos(np.pi / 4), np.sin(np.pi / 4)
    rz = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    vb, tb = _box((1.0, 1.0, 1.0))
    vb = vb @ rz.T + np.array([1.0 + np.sqrt(2.0) + 0.25, 0.0, 0.0])
    assert abs(polytope_distance(va, ta, vb, tb) - 0.25) < 1e-12
    # Skew edges: a tetrahedron's edge along (1, 0, -1), 0.5 above the
    # box's edge along y at x = z = 1 (closest points inside both edges).
    h = 0.5 / np.sqrt(2.0)
    vt = np.array([[1 + h - 0.5, 0.0, 1 + h + 0.5], [1 + h + 0.5, 0.0, 1 + h - 0.5],
                   [2.5, 0.5, 2.5], [2.5, -0.5, 2.5]])
    tt = np.array([[0, 1, 2], [0, 2, 3], [0, 3, 1], [1, 3, 2]])
    got = polytope_distance(va, ta, vt, tt)
    assert abs(got - 0.5) < 1e-12, got
    # Depths of overlapping boxes: least overlap along x.
    vb, tb = _box((1.0, 1.0, 1.0), (1.7, 0.1, -0.2))
    assert abs(polytope_depth(va, ta, vb, tb) - 0.3) < 1e-12
    vb, tb = _box((1.0, 1.0, 1.0))
    vb = vb @ rz.T + np.array([1.0 + np.sqrt(2.0) - 0.25, 0.0, 0.0])
    assert abs(polytope_depth(va, ta, vb, tb) - 0.25) < 1e-12
    # Random polytopes: the distance is at most every sampled point pair's
    # and the depth at most the overlap along every sampled direction.
    for _ in range(20):
        pa, pb = rng.normal(size=(12, 3)), rng.normal(size=(12, 3))
        pb += rng.normal(size=3) * 3
        fa, fb = _brute_hull(pa), _brute_hull(pb)
        dirs = rng.normal(size=(20000, 3))
        dirs /= np.linalg.norm(dirs, axis=1)[:, None]
        gap = -_least_overlap(pa, pb, dirs)
        if gap > 0:
            d = polytope_distance(pa, fa, pb, fb)
            assert gap <= d + 1e-12 and d <= np.linalg.norm(pa[:, None] - pb[None], axis=2).min()
        else:
            d = polytope_depth(pa, fa, pb, fb)
            assert d <= -gap + 1e-12 and d > 0
    print("convex_oracle self-test: ok")


def _brute_hull(p):
    """Outward triangles of the convex hull of a few points in general
    position, by checking every triple (for the self-test only)."""
    tris = []
    n = len(p)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                nrm = np.cross(p[j] - p[i], p[k] - p[i])
                side = (p - p[i]) @ nrm
                if np.all(side <= 1e-12):
                    tris.append((i, j, k))
                elif np.all(side >= -1e-12):
                    tris.append((i, k, j))
    return np.array(tris)


if __name__ == "__main__":
    import sys

    if "--self-test" in sys.argv:
        self_test()
    else:
        print(__doc__)
