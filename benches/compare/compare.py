#!/usr/bin/env python3
"""Feed the same meshes and the same pose file to python-fcl, coal and the
clash CLI; print per-pose agreement and time per query.

See README.md in this folder.  Normally run through run.sh, which creates the
virtualenv and builds the clash binary.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import struct
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
import exact_check as ec  # noqa: E402

BIG = 10**6  # num_max_contacts: "all contacts"


# ------------------------------------------------------------------ meshes --

def read_stl_raw(path: Path):
    """Binary STL corners as float32 (n, 3, 3), straight from the file."""
    data = path.read_bytes()
    (n,) = struct.unpack_from("<I", data, 80)
    if len(data) != 84 + 50 * n:
        raise SystemExit(f"{path}: not a binary STL (size mismatch)")
    rec = np.frombuffer(data, dtype=np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)),
                                              ("a", "<u2")]), count=n, offset=84)
    return rec["v"]


def load_mesh(path: Path):
    import trimesh
    m = trimesh.load(str(path), process=False, force="mesh")
    v = np.ascontiguousarray(m.vertices, dtype=np.float64)
    f = np.ascontiguousarray(m.faces, dtype=np.int64)
    # trimesh with process=False keeps every facet, in file order: check it.
    raw = read_stl_raw(path)
    if len(f) != len(raw) or not np.array_equal(v[f], raw.astype(np.float64)):
        raise SystemExit(f"{path}: trimesh did not keep facets in file order")
    return v, f


def bounding(v):
    lo, hi = v.min(axis=0), v.max(axis=0)
    c = (lo + hi) / 2
    r = float(np.linalg.norm(v - c, axis=1).max())
    return c, r, float(np.linalg.norm(hi - lo))


# ------------------------------------------------------------------- poses --

def random_rotations(rng, n):
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1)[:, None]
    w, x, y, z = q.T
    R = np.empty((n, 3, 3))
    R[:, 0, 0] = 1 - 2 * (y * y + z * z)
    R[:, 0, 1] = 2 * (x * y - w * z)
    R[:, 0, 2] = 2 * (x * z + w * y)
    R[:, 1, 0] = 2 * (x * y + w * z)
    R[:, 1, 1] = 1 - 2 * (x * x + z * z)
    R[:, 1, 2] = 2 * (y * z - w * x)
    R[:, 2, 0] = 2 * (x * z - w * y)
    R[:, 2, 1] = 2 * (y * z + w * x)
    R[:, 2, 2] = 1 - 2 * (x * x + y * y)
    return R


def surface_points(rng, v, f, n):
    tri = v[f]
    area = np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1)
    idx = rng.choice(len(f), size=n, p=area / area.sum())
    a, b = rng.random(n), rng.random(n)
    flip = a + b > 1
    a[flip], b[flip] = 1 - a[flip], 1 - b[flip]
    t = tri[idx]
    return t[:, 0] + a[:, None] * (t[:, 1] - t[:, 0]) + b[:, None] * (t[:, 2] - t[:, 0])


def make_poses(seed, n, va, fa, vb, fb, box_scale, target, fcl_any):
    """Random poses of B in A's frame.

    Rotation: uniform (normalised Gaussian quaternion).  Translation: B's
    bounding-box centre is put on a random (area-weighted) point of A's
    surface, then moved by a uniform offset in a cube of half-width
    box_scale * r_B (B's bounding radius).  If box_scale is None it is
    calibrated (bisection, first <=200 poses, python-fcl any-contact) so that
    about `target` of the poses collide.
    """
    rng = np.random.default_rng(seed)
    R = random_rotations(rng, n)
    p = surface_points(rng, va, fa, n)
    u = rng.uniform(-1.0, 1.0, size=(n, 3))
    cb, rb, _ = bounding(vb)
    base = p - R @ cb

    def poses_for(s, m=n):
        t = base[:m] + (s * rb) * u[:m]
        return np.concatenate([R[:m], t[:, :, None]], axis=2)  # (m, 3, 4)

    if box_scale is None:
        m = min(n, 200)
        lo, hi = 0.0, 8.0
        for _ in range(14):
            mid = (lo + hi) / 2
            frac = np.mean([fcl_any(P) for P in poses_for(mid, m)])
            if frac > target:
                lo = mid
            else:
                hi = mid
        box_scale = (lo + hi) / 2
    return poses_for(box_scale), box_scale


def special_poses(va, vb):
    """Exactly touching configurations (every entry exact in binary64):
    identity, quarter/half turns, and translations that make an extreme
    vertex of B coincide with an extreme vertex of A (corner-to-corner
    contact), with and without quarter turns."""
    Rs = [np.eye(3),
          np.array([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]]),   # 90 deg about z
          np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]]),   # 180 deg about x
          np.array([[0.0, 0, 1], [1, 0, 0], [0, 1, 0]])]     # cyclic axis permutation
    out = [np.concatenate([R, np.zeros((3, 1))], axis=1) for R in Rs]
    for R in Rs:
        wb = vb @ R.T  # exact: R is a signed permutation
        for ax in range(3):
            for sgn in (1, -1):
                ia = np.argmax(sgn * va[:, ax])
                ib = np.argmin(sgn * wb[:, ax])
                t = va[ia] - wb[ib]  # float32 - float32: exact in binary64
                out.append(np.concatenate([R, t[:, None]], axis=1))
    # a shift by a tiny exact amount off the identity (coplanar-near cases)
    out.append(np.concatenate([np.eye(3), np.array([[0.0], [0.0], [2.0**-30]])], axis=1))
    return np.array(out)


def write_poses(path: Path, poses):
    with open(path, "w") as fh:
        for P in poses:
            fh.write(" ".join(repr(float(x)) for x in P.reshape(-1)) + "\n")


def read_poses(path: Path):
    rows = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        vals = [float(x) for x in line.split()]
        if len(vals) != 12:
            raise SystemExit(f"{path}: pose line with {len(vals)} numbers")
        rows.append(vals)
    return np.array(rows, dtype=np.float64).reshape(-1, 3, 4)


# ------------------------------------------------------------- python-fcl --

class FclRunner:
    name = "python-fcl"

    def __init__(self, va, fa, vb, fb):
        import fcl
        self.fcl = fcl
        self.version = _version("python-fcl")
        self.ga = self._model(va, fa)
        self.gb = self._model(vb, fb)
        self.oa = fcl.CollisionObject(self.ga, fcl.Transform())
        self.ob = fcl.CollisionObject(self.gb, fcl.Transform())

    def _model(self, v, f):
        m = self.fcl.BVHModel()  # python-fcl's BVHModel is OBBRSS
        m.beginModel(len(v), len(f))
        m.addSubModel(v, f)
        m.endModel()
        return m

    def transforms(self, poses):
        return [self.fcl.Transform(P[:, :3].copy(), P[:, 3].copy()) for P in poses]

    def any_contact(self, P):
        self.ob.setTransform(self.fcl.Transform(P[:, :3].copy(), P[:, 3].copy()))
        return self.fcl.collide(self.oa, self.ob, self.fcl.CollisionRequest(), self.fcl.CollisionResult()) > 0

    def collide_all(self, poses):
        fcl = self.fcl
        tfs = self.transforms(poses)
        req = fcl.CollisionRequest(num_max_contacts=BIG, enable_contact=False)
        out, total = [], 0
        pc = time.perf_counter
        for tf in tfs:
            res = fcl.CollisionResult()
            t0 = pc()
            self.ob.setTransform(tf)
            fcl.collide(self.oa, self.ob, req, res)
            total += pc() - t0
            pairs = [(c.b1, c.b2) for c in res.contacts]
            out.append({"collide": bool(res.is_collision), "pairs": len(pairs),
                        "pair_set": set(pairs), "dups": len(pairs) - len(set(pairs))})
        return out, total / max(len(tfs), 1)

    def collide_first(self, poses):
        fcl = self.fcl
        tfs = self.transforms(poses)
        req = fcl.CollisionRequest(num_max_contacts=1, enable_contact=False)
        total = 0
        pc = time.perf_counter
        for tf in tfs:
            res = fcl.CollisionResult()
            t0 = pc()
            self.ob.setTransform(tf)
            fcl.collide(self.oa, self.ob, req, res)
            total += pc() - t0
        return total / max(len(tfs), 1)

    def distance(self, poses):
        fcl = self.fcl
        tfs = self.transforms(poses)
        req = fcl.DistanceRequest(enable_nearest_points=True)
        out, total = [], 0
        pc = time.perf_counter
        for tf in tfs:
            res = fcl.DistanceResult()
            t0 = pc()
            self.ob.setTransform(tf)
            d = fcl.distance(self.oa, self.ob, req, res)
            dt = pc() - t0
            total += dt
            pa, pb = res.nearest_points
            out.append({"distance": float(d), "tri_a": int(res.b1), "tri_b": int(res.b2), "time": dt,
                        "point_a": None if pa is None else [float(x) for x in pa],
                        "point_b": None if pb is None else [float(x) for x in pb]})
        return out, total / max(len(tfs), 1)

    def overhead(self, reps=20000):
        """Time of collide/distance on two far-apart tiny boxes (Python call overhead)."""
        fcl = self.fcl
        a = fcl.CollisionObject(fcl.Box(1e-3, 1e-3, 1e-3), fcl.Transform())
        b = fcl.CollisionObject(fcl.Box(1e-3, 1e-3, 1e-3), fcl.Transform(np.array([10.0, 0, 0])))
        tf = fcl.Transform(np.eye(3), np.array([10.0, 0, 0]))
        creq = fcl.CollisionRequest(num_max_contacts=BIG)
        dreq = fcl.DistanceRequest(enable_nearest_points=True)
        pc = time.perf_counter
        t0 = pc()
        for _ in range(reps):
            b.setTransform(tf)
            fcl.collide(a, b, creq, fcl.CollisionResult())
        tc = (pc() - t0) / reps
        t0 = pc()
        for _ in range(reps):
            b.setTransform(tf)
            fcl.distance(a, b, dreq, fcl.DistanceResult())
        td = (pc() - t0) / reps
        return tc, td


# ------------------------------------------------------------------- coal --

class CoalRunner:
    name = "coal"

    def __init__(self, va, fa, vb, fb):
        import coal
        self.coal = coal
        self.version = _version("coal")
        self.ga = self._model(va, fa)
        self.gb = self._model(vb, fb)
        self.I = coal.Transform3s()

    def _model(self, v, f):
        m = self.coal.BVHModelOBBRSS()
        m.beginModel(len(f), len(v))
        m.addVertices(v)
        m.addTriangles(f)
        m.endModel()
        return m

    def transforms(self, poses):
        return [self.coal.Transform3s(P[:, :3].copy(), P[:, 3].copy()) for P in poses]

    def collide_all(self, poses):
        coal = self.coal
        tfs = self.transforms(poses)
        # NO_REQUEST: no contact points / penetration, but every colliding
        # triangle pair is still recorded (b1, b2) up to num_max_contacts.
        req = coal.CollisionRequest(coal.CollisionRequestFlag.NO_REQUEST, BIG)
        out, total = [], 0
        pc = time.perf_counter
        for tf in tfs:
            res = coal.CollisionResult()
            t0 = pc()
            coal.collide(self.ga, self.I, self.gb, tf, req, res)
            total += pc() - t0
            pairs = [(c.b1, c.b2) for c in res.getContacts()]
            out.append({"collide": bool(res.isCollision()), "pairs": len(pairs),
                        "pair_set": set(pairs), "dups": len(pairs) - len(set(pairs))})
        return out, total / max(len(tfs), 1)

    def collide_first(self, poses):
        coal = self.coal
        tfs = self.transforms(poses)
        req = coal.CollisionRequest(coal.CollisionRequestFlag.NO_REQUEST, 1)
        total = 0
        pc = time.perf_counter
        for tf in tfs:
            res = coal.CollisionResult()
            t0 = pc()
            coal.collide(self.ga, self.I, self.gb, tf, req, res)
            total += pc() - t0
        return total / max(len(tfs), 1)

    def distance(self, poses):
        coal = self.coal
        tfs = self.transforms(poses)
        req = coal.DistanceRequest()
        out, total = [], 0
        pc = time.perf_counter
        for tf in tfs:
            res = coal.DistanceResult()
            t0 = pc()
            d = coal.distance(self.ga, self.I, self.gb, tf, req, res)
            dt = pc() - t0
            total += dt
            out.append({"distance": float(d), "tri_a": int(res.b1), "tri_b": int(res.b2), "time": dt,
                        "point_a": [float(x) for x in res.getNearestPoint1()],
                        "point_b": [float(x) for x in res.getNearestPoint2()]})
        return out, total / max(len(tfs), 1)

    def overhead(self, reps=20000):
        coal = self.coal
        box = coal.Box(1e-3, 1e-3, 1e-3)
        I = coal.Transform3s()
        tf = coal.Transform3s(np.eye(3), np.array([10.0, 0, 0]))
        creq = coal.CollisionRequest(coal.CollisionRequestFlag.NO_REQUEST, BIG)
        dreq = coal.DistanceRequest()
        pc = time.perf_counter
        t0 = pc()
        for _ in range(reps):
            coal.collide(box, I, box, tf, creq, coal.CollisionResult())
        tc = (pc() - t0) / reps
        t0 = pc()
        for _ in range(reps):
            coal.distance(box, I, box, tf, dreq, coal.DistanceResult())
        td = (pc() - t0) / reps
        return tc, td


def _version(dist):
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:
        return "?"


# ------------------------------------------------------------------ clash --

SUMMARY_RE = re.compile(r"(\w+):\s+(\d+)\s+poses\s+in\s+([0-9.eE+-]+)\s*s\s+\(([0-9.eE+-]+)\s+poses/s,\s+(\d+)\s+threads?\)")


CLASH_REPEAT = 1


def run_clash(binary, args, n_expected, log_dir: Path, tag):
    """Run clash CLASH_REPEAT times; answers of the first run, fastest timing."""
    cmd = [str(binary)] + [str(a) for a in args]
    best = None
    for _ in range(CLASH_REPEAT):
        res = _run_clash_once(cmd, n_expected, log_dir, tag)
        if best is None:
            best = res
        elif res[1]["seconds"] < best[1]["seconds"]:
            best = (best[0], res[1])
    return best


def _run_clash_once(cmd, n_expected, log_dir: Path, tag):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    (log_dir / f"clash_{tag}.stdout.jsonl").write_text(p.stdout)
    (log_dir / f"clash_{tag}.stderr.txt").write_text(p.stderr)
    if p.returncode != 0:
        raise SystemExit(f"clash failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    rows = {}
    for line in p.stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        rows[int(obj["pose"])] = obj
    m = None
    for m in SUMMARY_RE.finditer(p.stderr):
        pass
    if m is None:
        raise SystemExit(f"clash {tag}: no summary line on stderr:\n{p.stderr[-2000:]}")
    n, secs, rate, threads = int(m.group(2)), float(m.group(3)), float(m.group(4)), int(m.group(5))
    if len(rows) != n_expected or n != n_expected:
        raise SystemExit(f"clash {tag}: {len(rows)} answers / summary {n}, expected {n_expected}")
    return [rows[i] for i in range(n_expected)], {"seconds": secs, "poses_per_s": rate,
                                                  "threads": threads, "wall": wall,
                                                  "summary": m.group(0), "cmd": " ".join(cmd)}


def clash_collide(binary, a, b, pose_file, n, log_dir):
    """--all-pairs: count and list every intersecting pair (collide's default
    answers only whether the meshes touch)."""
    rows, info = run_clash(binary, ["collide", a, b, "--poses", pose_file, "--all-pairs",
                                    "--threads", "1"], n, log_dir, "collide")
    out = []
    for r in rows:
        pl = r.get("pair_list")
        if pl is None:
            raise SystemExit("clash collide: no pair_list in output (was --all-pairs honoured?)")
        pairs = [(int(x[0]), int(x[1])) for x in pl]
        out.append({"collide": bool(r["collide"]), "pairs": int(r["pairs"]),
                    "pair_set": set(pairs), "dups": len(pairs) - len(set(pairs)),
                    "listed": len(pairs)})
    return out, info


def clash_default_distance_bv(binary):
    """The volume type `clash distance` uses for meshes when --bv is not given."""
    h = subprocess.run([str(binary), "distance", "--help"], capture_output=True, text=True).stdout
    m = re.search(r"\[default:\s*(\w+)(?: for `distance`)?", h[h.find("--bv"):])
    return m.group(1) if m else "?"


def clash_collide_any(binary, a, b, pose_file, n, log_dir):
    """--any (collide's default, spelled out): stop at the first contact
    (timing, and any-contact cross-check)."""
    rows, info = run_clash(binary, ["collide", a, b, "--poses", pose_file, "--any",
                                    "--threads", "1"], n, log_dir, "collide_any")
    return [bool(r["collide"]) for r in rows], info


def clash_distance(binary, a, b, pose_file, n, log_dir, extra=(), tag="distance"):
    rows, info = run_clash(binary, ["distance", a, b, "--poses", pose_file, "--threads", "1",
                                    *extra], n, log_dir, tag)
    out = []
    for r in rows:
        out.append({"distance": float(r["distance"]),
                    "tri_a": int(r.get("triangle_a", -1)) if r.get("triangle_a") is not None else -1,
                    "tri_b": int(r.get("triangle_b", -1)) if r.get("triangle_b") is not None else -1,
                    "point_a": r.get("point_a"), "point_b": r.get("point_b")})
    return out, info


# ---------------------------------------------------- exact adjudication --

class Exact:
    def __init__(self, va, fa, vb, fb, poses):
        self.va, self.fa, self.vb, self.fb, self.poses = va, fa, vb, fb, poses
        self.cache = {}
        self.n_checked = 0

    def pair(self, i, ia, ib):
        key = (i, ia, ib)
        if key not in self.cache:
            self.cache[key] = ec.check_pair(self.va, self.fa, self.vb, self.fb,
                                            self.poses[i].reshape(-1), ia, ib)
            self.n_checked += 1
        return self.cache[key]

    def tri_dist2(self, i, ia, ib):
        R, t = ec.exact_pose(self.poses[i].reshape(-1))
        ta = ec.triangle(self.va, self.fa, ia)
        tb = tuple(ec.apply_pose(R, t, p) for p in ec.triangle(self.vb, self.fb, ib))
        return ec.tri_tri_dist2(ta, tb)


def point_tri_dist(p, tri):
    """Float distance from point p to closed triangle tri (3x3); for sanity checks."""
    from fractions import Fraction
    P = tuple(Fraction(float(x)) for x in p)
    T = [tuple(Fraction(float(x)) for x in v) for v in tri]
    return float(ec.point_tri_dist2(P, *T)) ** 0.5


def distance_consistency(res, va, fa, vb, fb, poses, sep_idx, limit=200):
    """Max over separated poses of | |pa - pb| - d | and of the distance from
    the reported points to the reported triangles (first `limit` poses)."""
    gap = on_tri = 0.0
    for i in sep_idx[:limit]:
        r = res[i]
        if r["point_a"] is None or r["point_b"] is None:
            continue
        pa, pb = np.array(r["point_a"], float), np.array(r["point_b"], float)
        gap = max(gap, abs(np.linalg.norm(pa - pb) - r["distance"]))
        if 0 <= r["tri_a"] < len(fa) and 0 <= r["tri_b"] < len(fb):
            P = poses[i]
            tb = vb[fb[r["tri_b"]]] @ P[:, :3].T + P[:, 3]
            on_tri = max(on_tri, point_tri_dist(pa, va[fa[r["tri_a"]]]), point_tri_dist(pb, tb))
    return gap, on_tri


def brute_force_pairs(va, fa, vb, fb, P, exact: Exact, i, slack):
    """All intersecting pairs of pose i: float AABB prefilter (inflated by
    `slack`), exact test on every candidate.  Independent of every tool."""
    ta = va[fa]
    tb = vb[fb] @ P[:, :3].T + P[:, 3]
    alo, ahi = ta.min(axis=1) - slack, ta.max(axis=1) + slack
    blo, bhi = tb.min(axis=1) - slack, tb.max(axis=1) + slack
    # keep only triangles overlapping the other mesh's box
    ka = np.nonzero(np.all((alo <= bhi.max(axis=0)) & (ahi >= blo.min(axis=0)), axis=1))[0]
    kb = np.nonzero(np.all((blo <= ahi.max(axis=0)) & (bhi >= alo.min(axis=0)), axis=1))[0]
    found = set()
    for s in range(0, len(kb), 256):
        jb = kb[s:s + 256]
        ov = np.all((alo[ka][:, None, :] <= bhi[jb][None, :, :]) &
                    (ahi[ka][:, None, :] >= blo[jb][None, :, :]), axis=2)
        for x, y in zip(*np.nonzero(ov)):
            ia, ib = int(ka[x]), int(jb[y])
            if exact.pair(i, ia, ib):
                found.add((ia, ib))
    return found


# ------------------------------------------------------------------- main --

def fmt_us(x):
    return "-" if x is None else f"{x * 1e6:.1f}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mesh-a", default=str(REPO / "data/meshes/bunny_lo.stl"))
    ap.add_argument("--mesh-b", default=str(REPO / "data/meshes/dog_sacrum.stl"))
    ap.add_argument("-n", "--poses", type=int, default=1000, help="number of random poses")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pose-file", help="use this pose file instead of generating one")
    ap.add_argument("--box-scale", type=float, default=None,
                    help="translation offset half-width in units of B's bounding radius "
                         "(default: calibrated so ~--target of poses collide)")
    ap.add_argument("--target", type=float, default=0.5, help="fraction of colliding poses")
    ap.add_argument("--clash", default=None, help="clash binary (default: target/release/clash)")
    ap.add_argument("--no-clash", action="store_true", help="compare FCL and coal only")
    ap.add_argument("--out", default=str(HERE / "out"), help="output directory")
    ap.add_argument("--list", type=int, default=10, help="max disputed poses / pairs to list")
    ap.add_argument("--max-exact", type=int, default=20000,
                    help="max disputed pairs to check exactly")
    ap.add_argument("--sample", type=int, default=200,
                    help="agreed pairs (reported by all tools) to re-check exactly")
    ap.add_argument("--brute", type=int, default=10,
                    help="colliding poses to re-solve by exact brute force (finds pairs every tool missed)")
    ap.add_argument("--dist-tol", type=float, default=1e-6,
                    help="distance tolerance relative to the scene size (max bbox diagonal)")
    ap.add_argument("--special", action="store_true",
                    help="instead of random poses, use a fixed set of exactly touching poses "
                         "(identity, quarter turns, corner-to-corner contacts)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="timing repeats per tool and query; the fastest is reported")
    args = ap.parse_args(argv)
    global CLASH_REPEAT
    CLASH_REPEAT = max(1, args.repeat)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    mesh_a, mesh_b = Path(args.mesh_a).resolve(), Path(args.mesh_b).resolve()
    va, fa = load_mesh(mesh_a)
    vb, fb = load_mesh(mesh_b)
    _, ra, diag_a = bounding(va)
    _, rb, diag_b = bounding(vb)
    size = max(diag_a, diag_b)
    tol = args.dist_tol * size
    print(f"A = {mesh_a.name}: {len(fa)} triangles, radius {ra:.4g}")
    print(f"B = {mesh_b.name}: {len(fb)} triangles, radius {rb:.4g}")

    t_setup = time.perf_counter()
    fclr = FclRunner(va, fa, vb, fb)
    coalr = CoalRunner(va, fa, vb, fb)
    print(f"python-fcl {fclr.version}, coal {coalr.version}, "
          f"BVH build (both) {time.perf_counter() - t_setup:.2f} s")

    if args.pose_file:
        pose_file = Path(args.pose_file).resolve()
        box_scale = None
    elif args.special:
        pose_file = out / "poses_special.txt"
        write_poses(pose_file, special_poses(va, vb))
        box_scale = None
        print(f"exactly touching poses -> {pose_file}")
    else:
        poses, box_scale = make_poses(args.seed, args.poses, va, fa, vb, fb, args.box_scale,
                                      args.target, fclr.any_contact)
        pose_file = out / "poses.txt"
        write_poses(pose_file, poses)
        print(f"{args.poses} poses (seed {args.seed}, box scale {box_scale:.4g} r_B) -> {pose_file}")
    # every tool, including us, reads the file
    poses = read_poses(pose_file)
    n = len(poses)

    results = {}
    timing = {}

    R = max(1, args.repeat)
    for r in (fclr, coalr):
        t0 = time.perf_counter()
        col, t_col = r.collide_all(poses)
        dist, t_dist = r.distance(poses)
        t_first = r.collide_first(poses)
        oc, od = r.overhead()
        for _ in range(R - 1):  # timing repeats: keep the fastest run
            t_col = min(t_col, r.collide_all(poses)[1])
            d2, t2 = r.distance(poses)
            if t2 < t_dist:
                dist, t_dist = d2, t2  # same answers, faster per-pose times
            t_first = min(t_first, r.collide_first(poses))
            o1, o2 = r.overhead()
            oc, od = min(oc, o1), min(od, o2)
        results[r.name] = {"collide": col, "distance": dist}
        timing[r.name] = {"collide": t_col, "collide_first": t_first, "distance": t_dist,
                          "overhead_collide": oc, "overhead_distance": od,
                          "wall": time.perf_counter() - t0}
        print(f"{r.name}: done in {timing[r.name]['wall']:.1f} s")

    clash_info = {}
    if not args.no_clash:
        binary = Path(args.clash) if args.clash else Path(
            os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "release" / "clash"
        col, ci = clash_collide(binary, mesh_a, mesh_b, pose_file, n, out)
        anyc, cp = clash_collide_any(binary, mesh_a, mesh_b, pose_file, n, out)
        dist, di = clash_distance(binary, mesh_a, mesh_b, pose_file, n, out)
        default_bv = clash_default_distance_bv(binary)
        alt_bv = "obb" if default_bv == "rss" else "rss"
        dist_rss, dr = clash_distance(binary, mesh_a, mesh_b, pose_file, n, out,
                                      ("--bv", alt_bv), "distance_" + alt_bv)
        results["clash"] = {"collide": col, "distance": dist}
        timing["clash"] = {"collide": ci["seconds"] / n, "collide_first": cp["seconds"] / n,
                           "distance": di["seconds"] / n, "distance_alt": dr["seconds"] / n,
                           "distance_bv_default": default_bv, "distance_bv_alt": alt_bv,
                           "wall_collide": ci["wall"], "wall_distance": di["wall"],
                           "wall_collide_any": cp["wall"], "wall_distance_alt": dr["wall"]}
        clash_info = {"collide": ci, "collide_any": cp, "distance": di, "distance_alt": dr}
        print(f"clash: {ci['summary']} | {cp['summary']} (--any) | {di['summary']} | "
              f"{dr['summary']} (--bv {alt_bv})")
        for k, r in enumerate(col):
            if anyc[k] != r["collide"]:
                print(f"WARNING clash pose {k}: --any says {anyc[k]}, --all-pairs says {r['collide']}")
        # distance time split: separated vs intersecting poses (subset pose files)
        inter = [k for k in range(n) if col[k]["collide"]]
        sep = [k for k in range(n) if not col[k]["collide"]]
        for tag, idx in (("separated", sep), ("intersecting", inter)):
            if idx:
                f = out / f"poses_{tag}.txt"
                write_poses(f, poses[idx])
                _, si = clash_distance(binary, mesh_a, mesh_b, f, len(idx), out,
                                       tag=f"distance_{tag}")
                timing["clash"][f"distance_{tag}"] = si["seconds"] / len(idx)
        for k, (x, y) in enumerate(zip(dist, dist_rss)):
            if abs(x["distance"] - y["distance"]) > tol:
                print(f"WARNING clash pose {k}: distance default ({default_bv}) {x['distance']!r} "
                      f"vs --bv {alt_bv} {y['distance']!r}")
        for k, r in enumerate(col):
            if r["pairs"] != r["listed"]:
                print(f"WARNING clash pose {k}: pairs={r['pairs']} but pair_list has {r['listed']}")

    tools = list(results)
    ref = "clash" if "clash" in results else "python-fcl"
    inter_ref = [bool(r["collide"]) for r in results[ref]["collide"]]
    for t in ("python-fcl", "coal"):
        ts = [r["time"] for r in results[t]["distance"]]
        for tag, want in (("separated", False), ("intersecting", True)):
            sel = [x for x, c in zip(ts, inter_ref) if c == want]
            timing[t][f"distance_{tag}"] = sum(sel) / len(sel) if sel else None
    exact = Exact(va, fa, vb, fb, poses)

    # ---- disputed pairs: union over tools minus intersection
    disputed = []  # (pose, ia, ib, {tool: reported})
    for i in range(n):
        sets = {t: results[t]["collide"][i]["pair_set"] for t in tools}
        union = set().union(*sets.values())
        common = set.intersection(*sets.values())
        for pr in sorted(union - common):
            disputed.append((i, pr[0], pr[1], {t: pr in sets[t] for t in tools}))
    # under the cap, share the exact checks fairly between poses (round robin)
    by_pose_d = {}
    for d in disputed:
        by_pose_d.setdefault(d[0], []).append(d)
    checked, queues, k = [], list(by_pose_d.values()), 0
    while len(checked) < min(args.max_exact, len(disputed)):
        for q in queues:
            if k < len(q) and len(checked) < args.max_exact:
                checked.append(q[k])
        k += 1
    checked.sort(key=lambda d: (d[0], d[1], d[2]))
    verdicts = []
    for (i, ia, ib, rep) in checked:
        truth = exact.pair(i, ia, ib)
        gap = 0.0 if truth else float(exact.tri_dist2(i, ia, ib)) ** 0.5
        verdicts.append({"pose": i, "tri_a": ia, "tri_b": ib, "exact_intersects": truth,
                         "exact_gap": gap,
                         "reported_by": [t for t in tools if rep[t]],
                         "right": [t for t in tools if rep[t] == truth],
                         "wrong": [t for t in tools if rep[t] != truth]})

    # ---- sample of agreed pairs, re-checked exactly
    rng = np.random.default_rng(args.seed + 1000)
    agreed = [(i, pr) for i in range(n)
              for pr in set.intersection(*(results[t]["collide"][i]["pair_set"] for t in tools))]
    sample_bad = []
    if agreed and args.sample > 0:
        pick = rng.choice(len(agreed), size=min(args.sample, len(agreed)), replace=False)
        for k in pick:
            i, (ia, ib) = agreed[int(k)]
            if not exact.pair(i, ia, ib):
                sample_bad.append((i, ia, ib))
    n_sample = min(args.sample, len(agreed))

    # ---- brute force on a few colliding poses: pairs every tool missed?
    brute = []
    colliding = [i for i in range(n) if any(results[t]["collide"][i]["collide"] for t in tools)]
    slack = 1e-9 * size
    for i in colliding[:args.brute]:
        truth = brute_force_pairs(va, fa, vb, fb, poses[i], exact, i, slack)
        row = {"pose": i, "exact_pairs": len(truth)}
        for t in tools:
            s = results[t]["collide"][i]["pair_set"]
            row[t] = {"missed": sorted(truth - s), "extra": sorted(s - truth)}
        brute.append(row)

    # ---- per-pose agreement vs the reference tool
    agree = {}
    dist_rows = {}
    for t in tools:
        a_any = a_cnt = a_set = a_dist = 0
        bad_any, bad_cnt, bad_dist = [], [], []
        for i in range(n):
            c, cr = results[t]["collide"][i], results[ref]["collide"][i]
            if c["collide"] == cr["collide"]:
                a_any += 1
            else:
                bad_any.append(i)
            if c["pairs"] == cr["pairs"]:
                a_cnt += 1
            else:
                bad_cnt.append(i)
            a_set += c["pair_set"] == cr["pair_set"]
            d, dr = results[t]["distance"][i]["distance"], results[ref]["distance"][i]["distance"]
            if d <= 0 or dr <= 0:
                ok = (d <= 0) and (dr <= 0)
            else:
                ok = abs(d - dr) <= tol
            if ok:
                a_dist += 1
            else:
                bad_dist.append(i)
        agree[t] = {"any_contact": a_any, "pair_count": a_cnt, "pair_set": a_set,
                    "distance": a_dist, "poses_any_differs": bad_any,
                    "poses_count_differs": bad_cnt, "poses_distance_differs": bad_dist}

    # ---- distance answers: closeness to the reference, self-consistency
    sep_idx = [i for i in range(n) if not inter_ref[i]]
    dist_stats = {}
    for t in tools:
        diffs = [abs(results[t]["distance"][i]["distance"] - results[ref]["distance"][i]["distance"])
                 for i in sep_idx]
        g, o = distance_consistency(results[t]["distance"], va, fa, vb, fb, poses, sep_idx)
        dist_stats[t] = {"max_abs_diff_vs_ref": max(diffs) if diffs else None,
                         "max_points_vs_distance": g, "max_point_off_triangle": o}

    # ---- distance disputes: exact squared distance of each tool's reported pair
    dist_disputes = []
    for i in sorted({i for t in tools for i in agree[t]["poses_distance_differs"]}):
        row = {"pose": i, "tools": {}}
        for t in tools:
            dr = results[t]["distance"][i]
            e = None
            if dr["tri_a"] >= 0 and dr["tri_b"] >= 0 and dr["tri_a"] < len(fa) and dr["tri_b"] < len(fb):
                e = float(exact.tri_dist2(i, dr["tri_a"], dr["tri_b"])) ** 0.5
            row["tools"][t] = {"distance": dr["distance"], "tri_a": dr["tri_a"],
                               "tri_b": dr["tri_b"], "exact_distance_of_pair": e}
        exs = [v["exact_distance_of_pair"] for v in row["tools"].values()
               if v["exact_distance_of_pair"] is not None]
        best = min(exs) if exs else None
        row["best_exact_upper_bound"] = best
        # right: says "intersecting" (d <= 0) exactly when the closest pair
        # found by any tool touches or intersects in exact arithmetic, and
        # otherwise matches that pair's exact distance within tol.
        row["right"] = [t for t, v in row["tools"].items()
                        if best is not None and (
                            (v["distance"] <= 0) if best == 0
                            else (v["distance"] > 0 and abs(v["distance"] - best) <= tol))]
        dist_disputes.append(row)

    # ---------------------------------------------------------- printing --
    n_col = {t: sum(r["collide"] for r in results[t]["collide"]) for t in tools}
    print()
    print(f"{n} poses, A={mesh_a.name} ({len(fa)} tris), B={mesh_b.name} ({len(fb)} tris); "
          f"colliding per {ref}: {n_col[ref]}")
    print(f"agreement is against {ref}; distance tolerance {tol:.3g} "
          f"({args.dist_tol:g} x scene size {size:.4g}); intersecting poses compare only 'both intersect'")
    hdr = (f"{'tool':<11} {'collide us':>11} {'first us':>9} {'distance us':>12} "
           f"{'any-contact':>12} {'pair count':>11} {'pair set':>9} {'distance':>9}")
    print(hdr)
    print("-" * len(hdr))
    for t in tools:
        tm, ag = timing[t], agree[t]
        print(f"{t:<11} {fmt_us(tm['collide']):>11} {fmt_us(tm['collide_first']):>9} "
              f"{fmt_us(tm['distance']):>12} "
              f"{ag['any_contact']:>7}/{n:<4} {ag['pair_count']:>6}/{n:<4} {ag['pair_set']:>4}/{n:<4}"
              f" {ag['distance']:>4}/{n:<4}")
    print("distance us split by pose kind: " + "; ".join(
        f"{t} separated {fmt_us(timing[t].get('distance_separated'))}, "
        f"intersecting {fmt_us(timing[t].get('distance_intersecting'))}" for t in tools))
    print()
    print("collide us = all triangle pairs (num_max_contacts=1e6 / --all-pairs); "
          "first us = stop at first contact (clash --any)")
    for t in ("python-fcl", "coal"):
        tm = timing[t]
        print(f"{t}: Python call overhead included above; empty call (two far-apart 1 mm boxes): "
              f"collide {fmt_us(tm['overhead_collide'])} us, distance {fmt_us(tm['overhead_distance'])} us")
    if "clash" in timing:
        tm = timing["clash"]
        print(f"clash: time = S/N from its stderr summary (1 thread, excludes mesh load and tree build); "
              f"process wall time: collide --all-pairs {tm['wall_collide']:.2f} s, "
              f"--any {tm['wall_collide_any']:.2f} s, distance {tm['wall_distance']:.2f} s")
        print(f"clash distance uses --bv {tm['distance_bv_default']} by default (column above); with "
              f"--bv {tm['distance_bv_alt']}: {fmt_us(tm['distance_alt'])} us/query, "
              f"wall {tm['wall_distance_alt']:.2f} s")
    for t in tools:
        d = sum(r["dups"] for r in results[t]["collide"])
        if d:
            print(f"note: {t} reported {d} duplicate triangle pairs in total")

    print()
    n_wrong = {t: 0 for t in tools}
    for v in verdicts:
        for t in v["wrong"]:
            n_wrong[t] += 1
    print(f"triangle pairs not reported by every tool: {len(disputed)} "
          f"(exactly checked: {len(checked)})")
    if verdicts:
        print("  wrong answers per tool (exact arithmetic): " +
              ", ".join(f"{t} {n_wrong[t]}" for t in tools))
        missed = {t: sum(1 for v in verdicts if v["exact_intersects"] and t in v["wrong"]) for t in tools}
        extra = {t: sum(1 for v in verdicts if not v["exact_intersects"] and t in v["wrong"]) for t in tools}
        print("  of which missed intersecting pairs: " + ", ".join(f"{t} {missed[t]}" for t in tools))
        print("  of which reported non-intersecting pairs: " + ", ".join(f"{t} {extra[t]}" for t in tools))
        gaps = [v["exact_gap"] for v in verdicts if not v["exact_intersects"]]
        if gaps:
            print(f"  exact gap of the non-intersecting disputed pairs: max {max(gaps):.3g}, "
                  f"median {sorted(gaps)[len(gaps) // 2]:.3g}")
        by_pose = {}
        for v in verdicts:
            by_pose.setdefault(v["pose"], []).append(v)
        for k, (i, vs) in enumerate(sorted(by_pose.items())):
            if k >= args.list:
                print(f"  ... {len(by_pose) - args.list} more poses (see summary.json)")
                break
            anys = ", ".join(f"{t}={'Y' if results[t]['collide'][i]['collide'] else 'N'}"
                             f"/{results[t]['collide'][i]['pairs']}" for t in tools)
            print(f"  pose {i} (collide/pairs: {anys}):")
            for v in vs[:args.list]:
                print(f"    pair (A {v['tri_a']}, B {v['tri_b']}): reported by "
                      f"{', '.join(v['reported_by']) or 'none'}; exact: "
                      f"{'INTERSECT' if v['exact_intersects'] else 'disjoint, gap %.3g' % v['exact_gap']} -> right: "
                      f"{', '.join(v['right'])}; wrong: {', '.join(v['wrong'])}")
            if len(vs) > args.list:
                print(f"    ... {len(vs) - args.list} more pairs")
    for t in tools:
        miss = [v for v in verdicts if v["exact_intersects"] and t in v["wrong"]]
        if miss:
            poses_m = sorted({v["pose"] for v in miss})
            print(f"!!! {t} MISSED {len(miss)} exactly-intersecting pairs in {len(poses_m)} poses: "
                  f"{poses_m[:args.list]}{' ...' if len(poses_m) > args.list else ''}")
            for v in miss[:3]:
                line = " ".join(repr(float(x)) for x in poses[v["pose"]].reshape(-1))
                print(f"    e.g. pose {v['pose']} (A {v['tri_a']}, B {v['tri_b']}): {line}")
    print(f"agreed pairs re-checked exactly: {n_sample}, wrong: {len(sample_bad)}"
          + (f" {sample_bad[:args.list]}" if sample_bad else ""))
    if brute:
        tot = sum(b["exact_pairs"] for b in brute)
        print(f"exact brute force on {len(brute)} colliding poses ({tot} intersecting pairs): " +
              ", ".join(f"{t} missed {sum(len(b[t]['missed']) for b in brute)} "
                        f"extra {sum(len(b[t]['extra']) for b in brute)}" for t in tools))
    print("distance on separated poses: " + "; ".join(
        f"{t}: max |d - d_{ref}| {dist_stats[t]['max_abs_diff_vs_ref']:.3g}, "
        f"max ||pa-pb|-d| {dist_stats[t]['max_points_vs_distance']:.3g}, "
        f"max point-to-its-triangle {dist_stats[t]['max_point_off_triangle']:.3g}"
        for t in tools if dist_stats[t]["max_abs_diff_vs_ref"] is not None))
    self_incons = {}
    for t in tools:
        bad = [i for i in range(n) if results[t]["collide"][i]["collide"]
               != (results[t]["distance"][i]["distance"] <= 0)]
        self_incons[t] = bad
        if bad:
            print(f"!!! {t}: its own collide and distance answers disagree on {len(bad)} poses "
                  f"(collide=False with distance<=0, or the reverse): {bad[:args.list]} "
                  + " ".join(f"[pose {i}: collide={results[t]['collide'][i]['collide']}, "
                             f"distance={results[t]['distance'][i]['distance']!r}]"
                             for i in bad[:3]))
    if dist_disputes:
        print(f"distance disagreements: {len(dist_disputes)} poses")
        for row in dist_disputes[:args.list]:
            parts = []
            for t, v in row["tools"].items():
                e = v["exact_distance_of_pair"]
                parts.append(f"{t} {v['distance']:.17g} (A {v['tri_a']}, B {v['tri_b']}, exact "
                             f"{'-' if e is None else format(e, '.17g')})")
            print(f"  pose {row['pose']}: " + "; ".join(parts) + f" -> right: {', '.join(row['right'])}")
    else:
        print("distance disagreements: none")

    summary = {
        "mesh_a": str(mesh_a), "mesh_b": str(mesh_b), "tris_a": len(fa), "tris_b": len(fb),
        "poses": n, "pose_file": str(pose_file), "seed": args.seed, "box_scale": box_scale,
        "reference": ref, "distance_tolerance": tol,
        "versions": {"python-fcl": fclr.version, "coal": coalr.version,
                     "trimesh": _version("trimesh"), "numpy": _version("numpy")},
        "colliding": n_col,
        "timing_us": {t: {k: (v * 1e6 if isinstance(v, float) and not k.startswith("wall") else v) for k, v in timing[t].items()}
                      for t in tools},
        "clash": {k: {kk: vv for kk, vv in v.items()} for k, v in clash_info.items()},
        "agreement": agree,
        "disputed_pairs": len(disputed),
        "exact_verdicts": verdicts,
        "wrong_per_tool": n_wrong,
        "agreed_sample": {"checked": n_sample, "wrong": sample_bad},
        "brute_force": brute,
        "distance_disputes": dist_disputes,
        "distance_stats": dist_stats,
        "collide_vs_distance_inconsistent": self_incons,
    }
    # per-pose table: every tool's answer side by side
    with open(out / "per_pose.csv", "w") as fh:
        cols = ["pose"]
        for t in tools:
            cols += [f"{t}:collide", f"{t}:pairs", f"{t}:distance"]
        cols += ["all_agree_pairs", "all_agree_distance"]
        fh.write(",".join(cols) + "\n")
        for i in range(n):
            row = [str(i)]
            for t in tools:
                c, d = results[t]["collide"][i], results[t]["distance"][i]
                row += [str(int(c["collide"])), str(c["pairs"]), repr(d["distance"])]
            sets = [results[t]["collide"][i]["pair_set"] for t in tools]
            row.append(str(int(all(x == sets[0] for x in sets))))
            row.append(str(int(all(i not in agree[t]["poses_distance_differs"] for t in tools))))
            fh.write(",".join(row) + "\n")
    (out / "summary.json").write_text(json.dumps(summary, indent=1, default=_json_default))
    print(f"\nsummary -> {out / 'summary.json'}")
    return summary


def _json_default(o):
    if isinstance(o, (set, tuple)):
        return list(o)
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    raise TypeError(type(o))


if __name__ == "__main__":
    main()
