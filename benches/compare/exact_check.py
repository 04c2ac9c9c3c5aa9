#!/usr/bin/env python3
"""Exact (rational-arithmetic) triangle/triangle intersection test.

Used by compare.py to adjudicate triangle pairs on which the tools disagree.

Semantics: triangles are *closed* point sets (the convex hull of their three
corners).  Touching -- a shared vertex, a vertex on an edge or face, a shared
edge, coplanar overlap -- counts as intersecting.  Degenerate triangles
(collinear corners, repeated corners, a single point) are handled as the
segment or point they are.

Every coordinate is converted with ``fractions.Fraction(float)``, which is
exact for IEEE doubles, and B's triangle is moved into A's frame with the
pose's exact double values: ``x_A = R x_B + t`` evaluated in rationals.  No
rounding happens anywhere, so the verdict is the truth for the stated doubles.

Method: the intersection of two closed triangles is a compact convex set; each
of its extreme points lies on an edge of one of the triangles (a point in the
relative interior of both can't be extreme).  Hence the triangles intersect iff
some edge of one meets the other triangle.  Each of those 6 closed
segment/closed triangle tests is decided with exact orientation signs (and 2D
tests after projection for coplanar configurations).

Run ``python exact_check.py --self-test`` for hand-made cases plus a
randomised cross-check against an independent exact separating-axis test.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Sequence, Tuple

Vec = Tuple[Fraction, Fraction, Fraction]


# ---------------------------------------------------------------- helpers --

def Q(x) -> Fraction:
    """Exact rational of a float / int / Fraction / decimal string."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, str):
        return Fraction(float(x))  # parse the double first: its exact value
    return Fraction(x)  # float, int, numpy scalar via __float__ below


def sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def scale(a: Vec, s: Fraction) -> Vec:
    return (a[0] * s, a[1] * s, a[2] * s)


def dot(a: Vec, b: Vec) -> Fraction:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0])


def is_zero(v: Vec) -> bool:
    return v[0] == 0 and v[1] == 0 and v[2] == 0


def sign(x: Fraction) -> int:
    return (x > 0) - (x < 0)


def orient3d(a: Vec, b: Vec, c: Vec, d: Vec) -> int:
    """Sign of det[b-a, c-a, d-a] (exact)."""
    return sign(dot(cross(sub(b, a), sub(c, a)), sub(d, a)))


def drop_axis(n: Vec) -> int:
    """Axis to drop when projecting onto a plane with normal n (n != 0)."""
    m = [abs(n[0]), abs(n[1]), abs(n[2])]
    return m.index(max(m))


def proj(p: Vec, axis: int) -> Tuple[Fraction, Fraction]:
    if axis == 0:
        return (p[1], p[2])
    if axis == 1:
        return (p[0], p[2])
    return (p[0], p[1])


# ---------------------------------------------------------------- 2D tests --

def orient2d(a, b, c) -> int:
    return sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))


def on_segment_2d(p, a, b) -> bool:
    """p collinear with a,b assumed: is p within the closed box of [a,b]?"""
    return (min(a[0], b[0]) <= p[0] <= max(a[0], b[0])
            and min(a[1], b[1]) <= p[1] <= max(a[1], b[1]))


def seg_seg_2d(a, b, c, d) -> bool:
    """Closed segments [a,b] and [c,d] in 2D intersect (degenerate ok)."""
    if a == b and c == d:
        return a == c
    if a == b:
        return orient2d(c, d, a) == 0 and on_segment_2d(a, c, d)
    if c == d:
        return orient2d(a, b, c) == 0 and on_segment_2d(c, a, b)
    o1 = orient2d(a, b, c)
    o2 = orient2d(a, b, d)
    o3 = orient2d(c, d, a)
    o4 = orient2d(c, d, b)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True  # proper crossing
    # an endpoint of one segment on the other (covers collinear overlap)
    return ((o1 == 0 and on_segment_2d(c, a, b))
            or (o2 == 0 and on_segment_2d(d, a, b))
            or (o3 == 0 and on_segment_2d(a, c, d))
            or (o4 == 0 and on_segment_2d(b, c, d)))


def point_in_tri_2d(p, a, b, c) -> bool:
    """p in closed non-degenerate 2D triangle abc (either winding)."""
    s1 = orient2d(a, b, p)
    s2 = orient2d(b, c, p)
    s3 = orient2d(c, a, p)
    has_neg = s1 < 0 or s2 < 0 or s3 < 0
    has_pos = s1 > 0 or s2 > 0 or s3 > 0
    return not (has_neg and has_pos)


# ---------------------------------------------------------------- 3D tests --

def seg_seg_3d(a: Vec, b: Vec, c: Vec, d: Vec) -> bool:
    """Closed segments [a,b], [c,d] in 3D intersect (degenerate ok)."""
    if orient3d(a, b, c, d) != 0:
        return False  # not coplanar
    # find a normal of a plane containing all four points
    n = None
    for u, v in ((sub(b, a), sub(c, a)), (sub(b, a), sub(d, a)),
                 (sub(d, c), sub(a, c)), (sub(d, c), sub(b, c))):
        w = cross(u, v)
        if not is_zero(w):
            n = w
            break
    if n is None:
        # all four points collinear (or coincident): 1D test along the line
        dirs = [sub(b, a), sub(d, c), sub(c, a), sub(d, a)]
        dv = next((x for x in dirs if not is_zero(x)), None)
        if dv is None:
            return True  # all four points coincide
        ta = Fraction(0)
        tb = dot(sub(b, a), dv)
        tc = dot(sub(c, a), dv)
        td = dot(sub(d, a), dv)
        return max(min(ta, tb), min(tc, td)) <= min(max(ta, tb), max(tc, td))
    ax = drop_axis(n)
    return seg_seg_2d(proj(a, ax), proj(b, ax), proj(c, ax), proj(d, ax))


def tri_is_degenerate(p: Vec, q: Vec, r: Vec) -> bool:
    return is_zero(cross(sub(q, p), sub(r, p)))


def seg_tri(a: Vec, b: Vec, p: Vec, q: Vec, r: Vec) -> bool:
    """Closed segment [a,b] vs closed triangle pqr (either may be degenerate)."""
    n = cross(sub(q, p), sub(r, p))
    if is_zero(n):
        # degenerate triangle == union of its edges
        return (seg_seg_3d(a, b, p, q) or seg_seg_3d(a, b, q, r)
                or seg_seg_3d(a, b, r, p))
    da = dot(n, sub(a, p))
    db = dot(n, sub(b, p))
    if (da > 0 and db > 0) or (da < 0 and db < 0):
        return False
    ax = drop_axis(n)
    P, Qp, R = proj(p, ax), proj(q, ax), proj(r, ax)
    if da == 0 and db == 0:
        # coplanar: endpoint inside, or crossing an edge
        A, B = proj(a, ax), proj(b, ax)
        if point_in_tri_2d(A, P, Qp, R) or point_in_tri_2d(B, P, Qp, R):
            return True
        return (seg_seg_2d(A, B, P, Qp) or seg_seg_2d(A, B, Qp, R)
                or seg_seg_2d(A, B, R, P))
    # exactly one crossing point with the plane
    s = da / (da - db)
    x = add(a, scale(sub(b, a), s))
    return point_in_tri_2d(proj(x, ax), P, Qp, R)


def tri_tri_intersect(t1: Sequence[Vec], t2: Sequence[Vec]) -> bool:
    """Exact closed triangle/triangle intersection."""
    p0, p1, p2 = t1
    q0, q1, q2 = t2
    for a, b in ((p0, p1), (p1, p2), (p2, p0)):
        if seg_tri(a, b, q0, q1, q2):
            return True
    for a, b in ((q0, q1), (q1, q2), (q2, q0)):
        if seg_tri(a, b, p0, p1, p2):
            return True
    return False


def sq_dist_point(a: Vec, b: Vec) -> Fraction:
    d = sub(a, b)
    return dot(d, d)


# ------------------------------------------------------ exact distances --
# Squared distances are rational for rational inputs, so they are exact too.

def point_seg_dist2(p: Vec, a: Vec, b: Vec) -> Fraction:
    d = sub(b, a)
    dd = dot(d, d)
    if dd == 0:
        return sq_dist_point(p, a)
    t = dot(sub(p, a), d) / dd
    t = min(max(t, Fraction(0)), Fraction(1))
    return sq_dist_point(add(a, scale(d, t)), p)


def seg_seg_dist2(a: Vec, b: Vec, c: Vec, d: Vec) -> Fraction:
    best = min(point_seg_dist2(a, c, d), point_seg_dist2(b, c, d),
               point_seg_dist2(c, a, b), point_seg_dist2(d, a, b))
    u, v, w = sub(b, a), sub(d, c), sub(a, c)
    A, B, C, D, E = dot(u, u), dot(u, v), dot(v, v), dot(u, w), dot(v, w)
    den = A * C - B * B
    if den != 0:  # interior stationary point of a convex quadratic
        s = (B * E - C * D) / den
        t = (A * E - B * D) / den
        if 0 <= s <= 1 and 0 <= t <= 1:
            x = add(w, sub(scale(u, s), scale(v, t)))
            best = min(best, dot(x, x))
    return best


def point_tri_dist2(p: Vec, a: Vec, b: Vec, c: Vec) -> Fraction:
    n = cross(sub(b, a), sub(c, a))
    edges = min(point_seg_dist2(p, a, b), point_seg_dist2(p, b, c), point_seg_dist2(p, c, a))
    if is_zero(n):
        return edges
    h = dot(n, sub(p, a))
    nn = dot(n, n)
    q = sub(p, scale(n, h / nn))  # projection onto the plane
    s1 = sign(dot(cross(sub(b, a), sub(q, a)), n))
    s2 = sign(dot(cross(sub(c, b), sub(q, b)), n))
    s3 = sign(dot(cross(sub(a, c), sub(q, c)), n))
    if s1 >= 0 and s2 >= 0 and s3 >= 0:
        return h * h / nn
    return edges


def tri_tri_dist2(t1: Sequence[Vec], t2: Sequence[Vec]) -> Fraction:
    """Exact squared distance between two closed triangles."""
    if tri_tri_intersect(t1, t2):
        return Fraction(0)
    best = min(min(point_tri_dist2(p, *t2) for p in t1),
               min(point_tri_dist2(q, *t1) for q in t2))
    e1 = ((t1[0], t1[1]), (t1[1], t1[2]), (t1[2], t1[0]))
    e2 = ((t2[0], t2[1]), (t2[1], t2[2]), (t2[2], t2[0]))
    for a, b in e1:
        for c, d in e2:
            best = min(best, seg_seg_dist2(a, b, c, d))
    return best


# ------------------------------------------------------ pose / mesh glue --

def exact_pose(pose12: Sequence[float]):
    """(R, t) as Fractions from the 12 doubles r00 r01 r02 tx r10 ..."""
    v = [Q(float(x)) for x in pose12]
    R = ((v[0], v[1], v[2]), (v[4], v[5], v[6]), (v[8], v[9], v[10]))
    t = (v[3], v[7], v[11])
    return R, t


def apply_pose(R, t, p: Vec) -> Vec:
    return tuple(R[i][0] * p[0] + R[i][1] * p[1] + R[i][2] * p[2] + t[i]
                 for i in range(3))  # type: ignore


def triangle(vertices, faces, i) -> Tuple[Vec, Vec, Vec]:
    f = faces[i]
    return tuple(tuple(Fraction(float(c)) for c in vertices[int(k)]) for k in f)  # type: ignore


def check_pair(va, fa, vb, fb, pose12, ia: int, ib: int) -> bool:
    """Exact: does triangle ia of A intersect triangle ib of B placed by pose?"""
    R, t = exact_pose(pose12)
    ta = triangle(va, fa, ia)
    tb = tuple(apply_pose(R, t, p) for p in triangle(vb, fb, ib))
    return tri_tri_intersect(ta, tb)


def exact_tri_gap_sign(va, fa, vb, fb, pose12, ia, ib):
    """Helper for reports: True/False intersect plus the transformed triangles."""
    R, t = exact_pose(pose12)
    ta = triangle(va, fa, ia)
    tb = tuple(apply_pose(R, t, p) for p in triangle(vb, fb, ib))
    return tri_tri_intersect(ta, tb), ta, tb


# ------------------------------------------- independent SAT (self-test) --

def sat_intersect(t1, t2) -> bool:
    """Exact separating-axis test, valid for NON-degenerate triangles.

    Candidate axes: both normals, all edge x edge cross products and the
    in-plane edge normals n_i x e (needed for coplanar / parallel edges).
    Extra axes never hurt (a strictly separating axis proves disjointness).
    """
    e1 = [sub(t1[1], t1[0]), sub(t1[2], t1[1]), sub(t1[0], t1[2])]
    e2 = [sub(t2[1], t2[0]), sub(t2[2], t2[1]), sub(t2[0], t2[2])]
    n1 = cross(e1[0], e1[1])
    n2 = cross(e2[0], e2[1])
    axes = [n1, n2]
    axes += [cross(a, b) for a in e1 for b in e2]
    axes += [cross(n, e) for n in (n1, n2) for e in e1 + e2]
    for ax in axes:
        if is_zero(ax):
            continue
        s1 = [dot(ax, p) for p in t1]
        s2 = [dot(ax, p) for p in t2]
        if max(s1) < min(s2) or max(s2) < min(s1):
            return False
    return True


def _v(*c) -> Vec:
    return tuple(Fraction(x) for x in c)  # type: ignore


def self_test(n_random: int = 6000, seed: int = 12345) -> bool:
    cases = [
        # (name, t1, t2, expected)
        ("separated",
         (_v(0, 0, 0), _v(1, 0, 0), _v(0, 1, 0)),
         (_v(0, 0, 1), _v(1, 0, 1), _v(0, 1, 1)), False),
        ("separated, skew, close",
         (_v(0, 0, 0), _v(1, 0, 0), _v(0, 1, 0)),
         (_v(Fraction(1, 2) + Fraction(1, 10**20), Fraction(1, 2), -1),
          _v(Fraction(1, 2) + Fraction(1, 10**20), Fraction(1, 2), 1),
          _v(2, 2, 0)), False),
        ("crossing (piercing)",
         (_v(0, 0, 0), _v(2, 0, 0), _v(0, 2, 0)),
         (_v(Fraction(1, 2), Fraction(1, 2), -1), _v(Fraction(1, 2), Fraction(1, 2), 1),
          _v(3, 3, 0)), True),
        ("crossing (interlocked)",
         (_v(0, 0, 0), _v(4, 0, 0), _v(0, 4, 0)),
         (_v(1, 1, -1), _v(1, 1, 1), _v(-3, 1, 0)), True),
        ("touching at a vertex",
         (_v(0, 0, 0), _v(1, 0, 0), _v(0, 1, 0)),
         (_v(1, 0, 0), _v(2, 0, 1), _v(2, 1, 1)), True),
        ("vertex touching face interior",
         (_v(0, 0, 0), _v(2, 0, 0), _v(0, 2, 0)),
         (_v(Fraction(1, 2), Fraction(1, 2), 0), _v(1, 1, 1), _v(0, 1, 1)), True),
        ("vertex just above face",
         (_v(0, 0, 0), _v(2, 0, 0), _v(0, 2, 0)),
         (_v(Fraction(1, 2), Fraction(1, 2), Fraction(1, 2**60)), _v(1, 1, 1), _v(0, 1, 1)), False),
        ("shared edge (non-coplanar)",
         (_v(0, 0, 0), _v(1, 0, 0), _v(0, 1, 0)),
         (_v(0, 0, 0), _v(1, 0, 0), _v(0, 0, 1)), True),
        ("shared edge (coplanar, opposite sides)",
         (_v(0, 0, 0), _v(1, 0, 0), _v(0, 1, 0)),
         (_v(0, 0, 0), _v(1, 0, 0), _v(0, -1, 0)), True),
        ("edge-edge touching (skew)",
         (_v(-1, 0, 0), _v(1, 0, 0), _v(0, -1, -1)),
         (_v(0, -1, 0), _v(0, 1, 0), _v(1, 0, 1)), True),
        ("coplanar overlapping",
         (_v(0, 0, 0), _v(2, 0, 0), _v(0, 2, 0)),
         (_v(1, 1, 0), _v(-1, 1, 0), _v(1, -1, 0)), True),
        ("coplanar, one inside the other",
         (_v(0, 0, 0), _v(10, 0, 0), _v(0, 10, 0)),
         (_v(1, 1, 0), _v(2, 1, 0), _v(1, 2, 0)), True),
        ("coplanar disjoint",
         (_v(0, 0, 0), _v(1, 0, 0), _v(0, 1, 0)),
         (_v(1, 1, 0), _v(2, 1, 0), _v(1, 2, 0)), False),
        ("coplanar disjoint, tiny gap",
         (_v(0, 0, 0), _v(1, 0, 0), _v(0, 1, 0)),
         (_v(Fraction(1, 2) + Fraction(1, 2**70), Fraction(1, 2), 0), _v(2, 1, 0), _v(1, 2, 0)), False),
        ("coplanar touching at a point on the hypotenuse",
         (_v(0, 0, 0), _v(1, 0, 0), _v(0, 1, 0)),
         (_v(Fraction(1, 2), Fraction(1, 2), 0), _v(2, 1, 0), _v(1, 2, 0)), True),
        ("degenerate (collinear) crossing a triangle",
         (_v(0, 0, 0), _v(2, 0, 0), _v(0, 2, 0)),
         (_v(Fraction(1, 2), Fraction(1, 2), -1), _v(Fraction(1, 2), Fraction(1, 2), 1),
          _v(Fraction(1, 2), Fraction(1, 2), 0)), True),
        ("degenerate (collinear) missing a triangle",
         (_v(0, 0, 0), _v(2, 0, 0), _v(0, 2, 0)),
         (_v(3, 3, -1), _v(3, 3, 1), _v(3, 3, 0)), False),
        ("degenerate (collinear, middle vertex is an extreme) hitting",
         (_v(0, 0, 0), _v(2, 0, 0), _v(0, 2, 0)),
         # hull = segment from z=-1 to z=2 via the *third* corner
         (_v(Fraction(1, 2), Fraction(1, 2), 1), _v(Fraction(1, 2), Fraction(1, 2), 2),
          _v(Fraction(1, 2), Fraction(1, 2), -1)), True),
        ("degenerate collinear, coplanar, lying in the triangle",
         (_v(0, 0, 0), _v(4, 0, 0), _v(0, 4, 0)),
         (_v(1, 1, 0), _v(2, 1, 0), _v(3, 1, 0)), True),
        ("degenerate vs degenerate, collinear overlapping",
         (_v(0, 0, 0), _v(2, 2, 2), _v(1, 1, 1)),
         (_v(3, 3, 3), _v(Fraction(3, 2), Fraction(3, 2), Fraction(3, 2)), _v(4, 4, 4)), True),
        ("degenerate vs degenerate, collinear disjoint",
         (_v(0, 0, 0), _v(2, 2, 2), _v(1, 1, 1)),
         (_v(3, 3, 3), _v(Fraction(5, 2), Fraction(5, 2), Fraction(5, 2)), _v(4, 4, 4)), False),
        ("point triangle on a face",
         (_v(0, 0, 0), _v(2, 0, 0), _v(0, 2, 0)),
         (_v(1, Fraction(1, 2), 0),) * 3, True),
        ("point triangle off a face",
         (_v(0, 0, 0), _v(2, 0, 0), _v(0, 2, 0)),
         (_v(2, 2, 0),) * 3, False),
    ]
    ok = True
    for name, t1, t2, want in cases:
        case_ok = True
        for a, b in ((t1, t2), (t2, t1)):
            for rot in range(3):  # vertex order / argument order must not matter
                for b_r in (b[rot:] + b[:rot], (b[rot:] + b[:rot])[::-1]):
                    got = tri_tri_intersect(a, b_r)
                    if got != want:
                        case_ok = False
        ok = ok and case_ok
        print(f"{'ok  ' if case_ok else 'FAIL'} {name}: expected {'intersecting' if want else 'disjoint'}")

    dcases = [
        ("distance: parallel planes 1 apart",
         (_v(0, 0, 0), _v(1, 0, 0), _v(0, 1, 0)), (_v(0, 0, 1), _v(1, 0, 1), _v(0, 1, 1)), 1),
        ("distance: vertex above face interior",
         (_v(0, 0, 0), _v(4, 0, 0), _v(0, 4, 0)), (_v(1, 1, 3), _v(5, 5, 9), _v(1, 7, 9)), 9),
        ("distance: skew edges",
         (_v(-1, 0, 0), _v(1, 0, 0), _v(0, -1, -1)), (_v(0, -1, 2), _v(0, 1, 2), _v(1, 0, 3)), 4),
        ("distance: coplanar, gap 1 along x",
         (_v(0, 0, 0), _v(1, 0, 0), _v(0, 1, 0)), (_v(2, 0, 0), _v(3, 0, 0), _v(2, 1, 0)), 1),
        ("distance: intersecting",
         (_v(0, 0, 0), _v(2, 0, 0), _v(0, 2, 0)),
         (_v(Fraction(1, 2), Fraction(1, 2), -1), _v(Fraction(1, 2), Fraction(1, 2), 1), _v(3, 3, 0)), 0),
    ]
    for name, t1, t2, want in dcases:
        got = (tri_tri_dist2(t1, t2), tri_tri_dist2(t2, t1))
        case_ok = got == (want, want)
        ok = ok and case_ok
        print(f"{'ok  ' if case_ok else 'FAIL'} {name}: squared distance {want} (got {got[0]})")

    # randomised cross-check against the SAT on small integer grids (lots of
    # touching / coplanar configurations), non-degenerate triangles only
    import random
    rng = random.Random(seed)
    n_hit = n_done = 0
    for _ in range(n_random):
        k = rng.choice((1, 2, 3))
        t1 = tuple(_v(rng.randint(0, k), rng.randint(0, k), rng.randint(0, k)) for _ in range(3))
        t2 = tuple(_v(rng.randint(0, k), rng.randint(0, k), rng.randint(0, k)) for _ in range(3))
        if tri_is_degenerate(*t1) or tri_is_degenerate(*t2):
            continue
        a = tri_tri_intersect(t1, t2)
        b = sat_intersect(t1, t2)
        n_done += 1
        n_hit += a
        if a != b:
            ok = False
            print(f"FAIL random: edge test {a} vs SAT {b}: {t1} {t2}")
            break
    # and generic float triangles (random doubles, converted exactly)
    for _ in range(n_random // 3):
        t1 = tuple(tuple(Fraction(rng.uniform(-1, 1)) for _ in range(3)) for _ in range(3))
        t2 = tuple(tuple(Fraction(rng.uniform(-1, 1)) for _ in range(3)) for _ in range(3))
        a = tri_tri_intersect(t1, t2)
        b = sat_intersect(t1, t2)
        n_done += 1
        n_hit += a
        if a != b:
            ok = False
            print(f"FAIL random float: edge test {a} vs SAT {b}: {t1} {t2}")
            break
    print(f"random cross-check vs SAT: {n_done} non-degenerate pairs, {n_hit} intersecting, "
          f"{'agree' if ok else 'DISAGREE'}")
    print(f"self-test: {'PASS' if ok else 'FAIL'}")
    return ok


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        sys.exit(0 if self_test() else 1)
    print(__doc__)
