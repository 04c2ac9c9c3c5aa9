#!/usr/bin/env python3
"""A synthetic scene in `robot_compare.py`'s input format, with answers
computed independently of any collision library (numpy, float64).

    python benches/compare/robot_scene_fixture.py --out DIR [--configs 200] [--seed 1]
    python benches/compare/robot_compare.py --scene DIR \\
        --answers 'DIR/oracle_{mode}.jsonl' --answers-label oracle

Writes `DIR/scene.json`, `DIR/poses.f64` and the oracle's answers
`DIR/oracle_collide.jsonl`, `DIR/oracle_distance.jsonl`. Objects: three
spheres, three boxes, two capsules (on one link), two cylinders and a
trimesh icosphere. `pairs` holds every pair of objects on different links
that the oracle can solve (it leaves out cylinder/box, cylinder/cylinder,
cylinder/mesh and box/mesh, as if the allowed-collision matrix did):

- sphere/any: the exact distance from the centre to the other solid
  (box: clamp in its frame; capsule: to the core segment; cylinder: radial
  and axial excess; mesh: to the nearest triangle) minus the radius;
- capsule/capsule: segment/segment distance (`convex_oracle`);
- capsule/box, capsule/cylinder, capsule/mesh: the distance from a point
  of the core segment to the other solid (to each triangle, for the mesh)
  is convex along the segment, minimised by golden-section search;
- box/box: separating-axis overlap over the 15 axes, distance by
  `convex_oracle.polytope_distance` when apart.

The mesh is a triangle surface as the peers see it (no inside). The first
configurations are hand-built contacts with exactly representable numbers,
one pair touching and everything else far apart: sphere/sphere, sphere on
a box face, sphere on a capsule cap (tells the capsule's core length from
its total length), sphere on a cylinder's flat end and on its side,
capsule along a box face, capsule cap on a cylinder end, a 1e-3 gap, a
1e-4 gap off an icosphere vertex; the rest are random (uniform rotations,
positions in a cube). Touching counts as colliding; the distance answer is
the least over `pairs`, the first pair in order among ties.
"""

import argparse
import json
from pathlib import Path

import numpy as np

import convex_oracle as co

ICO_RADIUS = 0.2
OBJECTS = [  # name, link, kind, parameters
    ("s0", "l0", "sphere", {"radius": 0.125}),
    ("s1", "l1", "sphere", {"radius": 0.25}),
    ("s2", "l2", "sphere", {"radius": 0.0625}),
    ("b0", "l3", "box", {"half_extents": [0.25, 0.125, 0.0625]}),
    ("b1", "l4", "box", {"half_extents": [0.125, 0.125, 0.25]}),
    ("c0", "l5", "capsule", {"radius": 0.0625, "length": 0.5}),
    ("c1", "l5", "capsule", {"radius": 0.125, "length": 0.25}),
    ("y0", "l6", "cylinder", {"radius": 0.125, "length": 0.5}),
    ("y1", "l7", "cylinder", {"radius": 0.0625, "length": 0.25}),
    ("m0", "l8", "mesh", {}),
    ("b2", "l9", "box", {"half_extents": [0.0625, 0.25, 0.125]}),
]
UNSOLVED = {frozenset(p) for p in (("cylinder", "box"), ("cylinder",), ("cylinder", "mesh"),
                                   ("box", "mesh"))}
GOLDEN = 90  # golden-section steps: the bracket shrinks to 0.618^90 (1e-19) of the segment


def icosphere():
    import trimesh
    m = trimesh.creation.icosphere(subdivisions=1, radius=ICO_RADIUS)
    return np.asarray(m.vertices, dtype=np.float64), np.asarray(m.faces, dtype=np.int64)


def scene_objects():
    objs = []
    for name, link, kind, par in OBJECTS:
        o = {"name": name, "link": link, "kind": kind, **par}
        if kind == "mesh":
            V, F = icosphere()
            o["vertices"], o["faces"] = V.tolist(), F.tolist()
        objs.append(o)
    return objs


def scene_pairs(objs):
    return [[i, j] for i in range(len(objs)) for j in range(i + 1, len(objs))
            if objs[i]["link"] != objs[j]["link"]
            and frozenset((objs[i]["kind"], objs[j]["kind"])) not in UNSOLVED]


# ------------------------------------------------------------ oracle

def point_box(p, M, h):
    """Distances from points p (k x 3) to the solid box of half extents h at pose M."""
    q = (p - M[:, 3]) @ M[:, :3]
    return np.linalg.norm(np.maximum(np.abs(q) - h, 0.0), axis=-1)


def point_cylinder(p, M, r, length):
    q = (p - M[:, 3]) @ M[:, :3]
    radial = np.maximum(np.hypot(q[..., 0], q[..., 1]) - r, 0.0)
    axial = np.maximum(np.abs(q[..., 2]) - length / 2, 0.0)
    return np.hypot(radial, axial)


def point_mesh(p, M, V, F):
    """Distance from one point p to the nearest triangle of the placed mesh."""
    W = V @ M[:, :3].T + M[:, 3]
    a, b, c = W[F[:, 0]], W[F[:, 1]], W[F[:, 2]]
    return co.point_triangle(np.broadcast_to(p, a.shape), a, b, c).min()


def segment(o, M):
    """End points of a capsule's core segment (along its local z)."""
    h = o["length"] / 2
    return M[:, 3] - h * M[:, 2], M[:, 3] + h * M[:, 2]


def golden_min(f, n):
    """Least of n convex functions of s in [0, 1] (f maps s (n,) to values (n,))."""
    lo, hi = np.zeros(n), np.ones(n)
    g = (np.sqrt(5.0) - 1) / 2
    x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
    f1, f2 = f(x1), f(x2)
    best = np.minimum(np.minimum(f(lo), f(hi)), np.minimum(f1, f2))
    for _ in range(GOLDEN):
        left = f1 <= f2
        hi = np.where(left, x2, hi)
        lo = np.where(left, lo, x1)
        x2n = np.where(left, x1, lo + g * (hi - lo))
        x1n = np.where(left, hi - g * (hi - lo), x2)
        new = np.where(left, x1n, x2n)
        fn = f(new)
        f1, f2 = np.where(left, fn, f2), np.where(left, f1, fn)
        x1, x2 = x1n, x2n
        best = np.minimum(best, fn)
    return best


def box_corners(o, M):
    v, t = co._box(np.asarray(o["half_extents"], dtype=np.float64))
    return v @ M[:, :3].T + M[:, 3], t


def boxes_overlap(o1, M1, o2, M2):
    """Separating-axis test of two boxes (touching counts as overlap)."""
    axes = [M1[:, k] for k in range(3)] + [M2[:, k] for k in range(3)]
    axes += [np.cross(M1[:, a], M2[:, b]) for a in range(3) for b in range(3)]
    h1, h2 = np.asarray(o1["half_extents"]), np.asarray(o2["half_extents"])
    d = M2[:, 3] - M1[:, 3]
    for u in axes:
        if np.dot(u, u) < 1e-24:
            continue
        r1 = np.sum(h1 * np.abs(M1[:, :3].T @ u))
        r2 = np.sum(h2 * np.abs(M2[:, :3].T @ u))
        if abs(np.dot(d, u)) > r1 + r2:
            return False
    return True


def pair_distance(o1, M1, o2, M2, mesh):
    """Exact (or golden-section) distance between two placed objects, 0 if
    they touch or overlap."""
    k1, k2 = o1["kind"], o2["kind"]
    order = ["sphere", "capsule", "box", "cylinder", "mesh"]
    if order.index(k1) > order.index(k2):
        o1, M1, o2, M2, k1, k2 = o2, M2, o1, M1, k2, k1
    if k1 == "sphere":
        c, r = M1[:, 3], o1["radius"]
        if k2 == "sphere":
            d = np.linalg.norm(c - M2[:, 3]) - o2["radius"]
        elif k2 == "capsule":
            a, b = segment(o2, M2)
            d = co.point_segment(c[None], a[None], b[None])[0] - o2["radius"]
        elif k2 == "box":
            d = point_box(c[None], M2, np.asarray(o2["half_extents"]))[0]
        elif k2 == "cylinder":
            d = point_cylinder(c[None], M2, o2["radius"], o2["length"])[0]
        else:
            d = point_mesh(c, M2, *mesh)
        return max(d - r, 0.0)
    if k1 == "capsule":
        a, b = segment(o1, M1)
        r = o1["radius"]
        if k2 == "capsule":
            a2, b2 = segment(o2, M2)
            d = co.segment_segment(a[None], b[None], a2[None], b2[None])[0] - o2["radius"]
        elif k2 == "box":
            h = np.asarray(o2["half_extents"])
            d = golden_min(lambda s: point_box(a + s[:, None] * (b - a), M2, h), 1)[0]
        elif k2 == "cylinder":
            d = golden_min(lambda s: point_cylinder(a + s[:, None] * (b - a), M2,
                                                    o2["radius"], o2["length"]), 1)[0]
        else:
            V, F = mesh
            W = V @ M2[:, :3].T + M2[:, 3]
            A, B, C = W[F[:, 0]], W[F[:, 1]], W[F[:, 2]]
            d = golden_min(lambda s: co.point_triangle(a + s[:, None] * (b - a), A, B, C), len(F)).min()
        return max(d - r, 0.0)
    if k1 == "box" and k2 == "box":
        if boxes_overlap(o1, M1, o2, M2):
            return 0.0
        v1, t1 = box_corners(o1, M1)
        v2, t2 = box_corners(o2, M2)
        return co.polytope_distance(v1, t1, v2, t2)
    raise ValueError(f"no oracle for {k1}/{k2}")


def answers(objs, pairs, poses, mesh):
    col, dist = [], []
    for P in poses:
        ds = [pair_distance(objs[i], P[i], objs[j], P[j], mesh) for i, j in pairs]
        first = next((k for k, d in enumerate(ds) if d <= 0.0), None)
        col.append({"collides": first is not None, "pair": pairs[first] if first is not None else None})
        k = int(np.argmin(ds))  # first among ties
        dist.append({"distance": float(ds[k]), "pair": pairs[k]})
    return col, dist


# ------------------------------------------------------------ poses

def random_rotation(rng):
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def apart(m):
    """Every object at the identity rotation, 4 apart along y."""
    P = np.zeros((m, 3, 4))
    P[:, :, :3] = np.eye(3)
    P[:, 1, 3] = 4.0 * np.arange(m) + 10.0
    return P


def contact_configs(objs, V):
    """Hand-built contacts: (object a, translation of a, object b, translation of b)."""
    idx = {o["name"]: i for i, o in enumerate(objs)}
    vdir = V[0] / np.linalg.norm(V[0])
    cases = [
        ("s0", (0, 0, 0), "s1", (0.375, 0, 0)),              # sphere/sphere
        ("b0", (0, 0, 0), "s1", (0.5, 0, 0)),                # sphere on a box face (x half extent 0.25)
        ("c0", (0, 0, 0), "s2", (0, 0, 0.375)),              # sphere on the capsule cap: 0.25 + 0.0625 + 0.0625
        ("y0", (0, 0, 0), "s0", (0, 0, 0.375)),              # sphere on the cylinder's flat end: 0.25 + 0.125
        ("y0", (0, 0, 0), "s0", (0.25, 0, 0)),               # sphere on its side: 0.125 + 0.125
        ("b1", (0, 0, 0), "c1", (0.25, 0, 0)),               # capsule along a box face
        ("y1", (0, 0, 0), "c0", (0, 0, 0.4375)),             # capsule cap on a cylinder end: 0.125 + 0.0625 + 0.25
        ("s0", (0, 0, 0), "s1", (0.376, 0, 0)),              # 1e-3 gap
        ("m0", (0, 0, 0), "s2", tuple(vdir * (ICO_RADIUS + 0.0625 + 1e-4))),  # 1e-4 off a vertex
    ]
    out = []
    for a, ta, b, tb in cases:
        P = apart(len(objs))
        P[idx[a], :, 3] = ta
        P[idx[b], :, 3] = tb
        out.append(P)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--configs", type=int, default=200, help="total configurations (contacts first)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--half-width", type=float, default=1.0, help="random positions in this cube")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    objs = scene_objects()
    pairs = scene_pairs(objs)
    V, F = icosphere()
    poses = contact_configs(objs, V)[:args.configs]
    while len(poses) < args.configs:
        P = np.zeros((len(objs), 3, 4))
        for i in range(len(objs)):
            P[i, :, :3] = random_rotation(rng)
            P[i, :, 3] = rng.uniform(-args.half_width, args.half_width, 3)
        poses.append(P)
    poses = np.array(poses, dtype="<f8").reshape(len(poses), len(objs), 3, 4)
    col, dist = answers(objs, [tuple(p) for p in pairs], poses, (V, F))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "scene.json").write_text(json.dumps({"objects": objs, "pairs": pairs, "configs": len(poses)}))
    poses.tofile(args.out / "poses.f64")
    for name, rows in (("collide", col), ("distance", dist)):
        with open(args.out / f"oracle_{name}.jsonl", "w") as f:
            for r in rows:
                f.write(json.dumps({k: (list(v) if isinstance(v, tuple) else v) for k, v in r.items()}) + "\n")
    ncol = sum(r["collides"] for r in col)
    print(f"{len(poses)} configurations ({ncol} colliding), {len(objs)} objects, {len(pairs)} pairs -> {args.out}")


if __name__ == "__main__":
    main()
