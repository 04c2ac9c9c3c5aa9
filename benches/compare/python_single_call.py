"""One pose per call, as code ported from python-fcl or coal calls: clash's
``collide`` / ``distance`` / ``contact`` on a one-pose array against
coal's ``collide`` / ``distance`` on the same pair and pose, in one run.

    python python_single_call.py [CALLS=2000] [MESH ...]

Pairs per mesh: two convex hulls of its vertices (convex/convex), the mesh
against a box (mesh/convex) and the mesh against itself (mesh/mesh), plus a
generated pair (two random hulls). Poses are random rotations and
translations within the pair's size, so about half overlap. Each figure is
the best of 5 loops of CALLS calls, in microseconds per call; the ratio is
coal's time over clash's (above 1: clash is faster). ``batch`` is clash's
time per pose for the same poses in one call on one thread: the difference
is the cost of a call.
"""
from __future__ import annotations

import sys
from pathlib import Path

import coal
import numpy as np

import clash
from peer_models import best_per_call, coal_obbrss

REPO = Path(__file__).resolve().parents[2]
calls = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
meshes = [Path(p) for p in sys.argv[2:]] or [
    REPO / "data/meshes" / n for n in ("bunny_lo.stl", "dog_sacrum.stl", "panda_link6.stl")]
rng = np.random.default_rng(7)


def rotations(n):
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1)[:, None]
    w, x, y, z = q.T
    return np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
                     2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                     2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
                    1).reshape(n, 3, 3)


def poses(n, size):
    p = np.tile(np.eye(4), (n, 1, 1))
    p[:, :3, :3] = rotations(n)
    p[:, :3, 3] = rng.uniform(-size, size, size=(n, 3))
    return p


def best(f):
    return best_per_call(f, calls)


def coal_hull(v):
    pts = coal.StdVec_Vec3s()
    pts.extend(list(v))
    return coal.Convex.convexHull(pts, False, None)


def compare(name, ca, cb, ga, gb, size):
    P = poses(calls, size)
    single = [p[None] for p in P]
    tfs = [coal.Transform3s(p[:3, :3].copy(), p[:3, 3].copy()) for p in P]
    I = coal.Transform3s()
    creq = coal.CollisionRequest(coal.CollisionRequestFlag.NO_REQUEST, 1)
    dreq = coal.DistanceRequest()
    # The same answers first: collision flags equal, distances within 1e-6.
    hit = clash.collide(ca, cb, P)
    chit = np.array([coal.collide(ga, I, gb, t, creq, coal.CollisionResult()) for t in tfs])
    agree = int((hit == chit).sum())

    def clash_loop(f, **kw):
        return lambda: [f(ca, cb, s, **kw) for s in single]

    rows = [
        ("collide", clash_loop(clash.collide), clash_loop(clash.collide, threads=1),
         lambda: [coal.collide(ga, I, gb, t, creq, coal.CollisionResult()) for t in tfs],
         lambda: clash.collide(ca, cb, P, threads=1)),
        ("distance", clash_loop(clash.distance), clash_loop(clash.distance, threads=1),
         lambda: [coal.distance(ga, I, gb, t, dreq, coal.DistanceResult()) for t in tfs],
         lambda: clash.distance(ca, cb, P, threads=1)),
    ]
    print(f"{name}: collide agrees with coal on {agree}/{calls} poses")
    for op, ours, ours1, theirs, batch in rows:
        a, a1, c, b = best(ours), best(ours1), best(theirs), best(batch)
        print(f"  {op:9s} clash {a:7.2f} us  threads=1 {a1:7.2f} us  coal {c:7.2f} us  "
              f"coal/clash {c / a:5.2f}x  batch {b:6.2f} us/pose  call cost {a - b:5.2f} us")


print(f"clash {clash.__version__}, coal {coal.__version__}, {calls} calls per loop")
hull_a, hull_b = rng.normal(size=(40, 3)), rng.normal(size=(40, 3)) * 0.7
compare("generated: hull/hull", clash.Shape.convex_hull(hull_a), clash.Shape.convex_hull(hull_b),
        coal_hull(hull_a), coal_hull(hull_b), 2.0)
for path in meshes:
    m = clash.Mesh.load(path)
    v, f = m.vertices, m.faces
    size = float(np.ptp(v, axis=0).max())
    v = v - v.mean(axis=0)
    m = clash.Mesh(v, f)
    tree = clash.Tree.build(m)
    box = 0.2 * size
    compare(f"{path.name}: hull/hull", clash.Shape.convex_hull(v), clash.Shape.convex_hull(v),
            coal_hull(v), coal_hull(v), size)
    compare(f"{path.name}: mesh/box", tree, clash.Shape.box([box / 2] * 3), coal_obbrss(v, f),
            coal.Box(box, box, box), size)
    compare(f"{path.name}: mesh/mesh", tree, tree, coal_obbrss(v, f), coal_obbrss(v, f), size)
