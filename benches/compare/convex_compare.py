#!/usr/bin/env python3
"""clash-convex's distance and contact against coal and python-fcl on the
same convex shapes and poses, in one run.

    python benches/compare/convex_compare.py [-n 40] [--repeat 15] [--seed 1]

Writes the cases (shapes and poses) to `OUT/convex_cases.txt`, runs coal
(plain and Nesterov GJK) and python-fcl on them, builds and runs
`cargo run --release -p clash-benches --example convex_cases` on the same
file, checks polytope answers against `convex_oracle.py`, and prints, per
shape category and separation, the time per query of each and the largest
disagreement between clash and coal. See benches/compare/README.md.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

try:
    import numpy as np

    import coal
    import fcl
except ImportError as e:
    sys.exit(f"{e}: run with an interpreter that has coal, python-fcl and numpy, e.g."
             " benches/compare/.venv/bin/python (bash benches/compare/run.sh creates it)")

import convex_oracle

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PANDA = REPO / "data" / "robots" / "panda" / "meshes" / "collision"
SEPARATIONS = (-1e-4, 1e-3, 1.0)
CATEGORIES = ("sphere_sphere", "sphere_box", "box_box", "capsule_capsule", "capsule_box",
              "cylinder_cylinder", "hull8", "hull64", "hull512", "panda")
POLYTOPES = ("box_box", "hull8", "hull64", "hull512", "panda")
POOL = 8  # shapes per kind to draw pairs from


# ----------------------------------------------------------------- shapes

class Shape:
    """One shape for all three libraries: clash's description (a line of the
    case file), coal's and FCL's geometry, the polytope (vertices, triangles)
    for the oracle, and the bounding radius about its origin."""

    def __init__(self, kind, params, radius, coal_geom, fcl_geom, poly=None):
        self.kind, self.params, self.radius = kind, params, radius
        self.coal, self.fcl, self.poly = coal_geom, fcl_geom, poly

    def line(self, ident):
        if self.kind == "hull":
            v = self.poly[0]
            nums = [len(v)] + [float(x) for x in v.reshape(-1)]
        else:
            nums = [float(x) for x in self.params]
        return f"shape {ident} {self.kind} " + " ".join(repr(x) for x in nums)


def sphere(r):
    return Shape("sphere", [r], r, coal.Sphere(r), fcl.Sphere(r))


def box(h):
    v, t = convex_oracle._box(h)
    return Shape("box", list(h), float(np.linalg.norm(h)), coal.Box(*(2 * np.asarray(h))),
                 fcl.Box(*(2 * np.asarray(h))), (v, t))


def capsule(hh, r):
    return Shape("capsule", [hh, r], hh + r, coal.Capsule(r, 2 * hh), fcl.Capsule(r, 2 * hh))


def cylinder(hh, r):
    return Shape("cylinder", [hh, r], float(np.hypot(hh, r)), coal.Cylinder(r, 2 * hh),
                 fcl.Cylinder(r, 2 * hh))


def hull(points):
    """The convex hull of `points`, centred on its bounding box: coal's
    qhull gives the vertices and triangles; clash gets the vertices and
    builds its own hull; FCL gets both."""
    p = np.asarray(points, dtype=np.float64)
    p = p - (p.min(axis=0) + p.max(axis=0)) / 2
    pts = coal.StdVec_Vec3s()
    pts.extend(list(p))
    geom = coal.Convex.convexHull(pts, True, None)
    v = np.array(geom.points())
    t = np.array([[geom.polygons(i)[k] for k in range(3)] for i in range(geom.num_polygons)])
    faces = np.concatenate([np.full((len(t), 1), 3), t], axis=1).reshape(-1)
    f = fcl.Convex(v, len(t), faces)
    return Shape("hull", None, float(np.linalg.norm(v, axis=1).max()), geom, f, (v, t))


def read_stl(path):
    """Corner points of a binary STL (float32, as written)."""
    raw = path.read_bytes()
    n = int(np.frombuffer(raw, dtype="<u4", count=1, offset=80)[0])
    rec = np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")])
    return np.frombuffer(raw, dtype=rec, count=n, offset=84)["v"].reshape(-1, 3)


def random_hull(n, rng):
    """`n` random points on an ellipsoid with random semi-axes in [0.5, 1]:
    every point is a vertex of their hull."""
    p = rng.normal(size=(n, 3))
    p /= np.linalg.norm(p, axis=1)[:, None]
    return hull(p * rng.uniform(0.5, 1.0, size=3))


def pools(rng):
    u = rng.uniform
    panda = sorted(PANDA.glob("*.stl"))
    if not panda:
        sys.exit(f"no Panda meshes in {PANDA}")
    return {
        "sphere": [sphere(u(0.2, 0.6)) for _ in range(POOL)],
        "box": [box(u(0.1, 0.5, size=3)) for _ in range(POOL)],
        "capsule": [capsule(u(0.1, 0.5), u(0.1, 0.3)) for _ in range(POOL)],
        "cylinder": [cylinder(u(0.1, 0.5), u(0.1, 0.4)) for _ in range(POOL)],
        "hull8": [random_hull(8, rng) for _ in range(POOL)],
        "hull64": [random_hull(64, rng) for _ in range(POOL)],
        "hull512": [random_hull(512, rng) for _ in range(POOL)],
        "panda": [hull(read_stl(p).astype(np.float64)) for p in panda],
    }


def kinds(category):
    if category.startswith(("hull", "panda")):
        return category, category
    a, b = category.split("_")
    return a, b


# ------------------------------------------------------------------ poses

def random_quaternion(rng):
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    return q if q[0] >= 0 else -q


def matrix(q):
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def coal_tf(q, t):
    return coal.Transform3s(matrix(q), np.asarray(t, dtype=np.float64))


def place(a, b, qa, qb, target, size, rng):
    """B's translation putting the pair at signed distance `target` (A at the
    origin): start apart along a random direction, then move B along coal's
    normal by the remaining error (coal at tight tolerances)."""
    req = coal.DistanceRequest()
    req.gjk_tolerance, req.epa_tolerance = 1e-13, 1e-13
    req.gjk_max_iterations, req.epa_max_iterations = 1000, 1000
    d = rng.normal(size=3)
    t = d / np.linalg.norm(d) * (a.radius + b.radius + target)
    fa = coal_tf(qa, np.zeros(3))
    for _ in range(40):
        res = coal.DistanceResult()
        dist = coal.distance(a.coal, fa, b.coal, coal_tf(qb, t), req, res)
        err = target - dist
        if abs(err) <= 1e-9 * size:
            break
        t = t + np.asarray(res.normal) * err
    return t


def record(case, key, ns, value):
    """Keep the least per-case median over rounds (and the last value)."""
    old = case.res.get(key)
    case.res[key] = (min(ns, old[0]) if old else ns, value)


class Case:
    def __init__(self, ident, category, sep, ia, ib, a, b, qa, qb, tb, size):
        self.id, self.category, self.sep = ident, category, sep
        self.ia, self.ib, self.a, self.b = ia, ib, a, b
        self.qa, self.qb, self.ta, self.tb = qa, qb, np.zeros(3), tb
        self.size = size
        self.res = {}

    def line(self):
        nums = list(self.qa) + list(self.ta) + list(self.qb) + list(self.tb)
        return f"case {self.id} {self.ia} {self.ib} " + " ".join(repr(float(x)) for x in nums)


def make_cases(n, rng):
    pool = pools(rng)
    shapes, index = [], {}
    for kind, items in pool.items():
        for k, s in enumerate(items):
            index[(kind, k)] = len(shapes)
            shapes.append(s)
    cases = []
    for category in CATEGORIES:
        ka, kb = kinds(category)
        for sep in SEPARATIONS:
            for _ in range(n):
                i = int(rng.integers(len(pool[ka])))
                j = int(rng.integers(len(pool[kb]) - 1))
                j += j >= i if ka == kb else 0  # distinct shapes when the kinds match
                a, b = pool[ka][i], pool[kb][j]
                size = 2 * max(a.radius, b.radius)
                qa, qb = random_quaternion(rng), random_quaternion(rng)
                tb = place(a, b, qa, qb, sep * size, size, rng)
                cases.append(Case(len(cases), category, sep, index[(ka, i)], index[(kb, j)],
                                  a, b, qa, qb, tb, size))
    return shapes, cases


# ------------------------------------------------------------ coal, FCL

VARIANTS = (("plain", coal.GJKVariant.DefaultGJK), ("nesterov", coal.GJKVariant.NesterovAcceleration))


def run_coal(cases, repeat):
    """coal's own timings (`enable_timings`: a clock pair inside the C++
    call, so no Python overhead) through its `ComputeDistance` and
    `ComputeCollision` functors (the free functions leave the timings
    empty); defaults otherwise. Median over `repeat` calls, in ns."""
    for c in cases:
        fa, fb = coal_tf(c.qa, c.ta), coal_tf(c.qb, c.tb)
        fd = coal.ComputeDistance(c.a.coal, c.b.coal)
        fc = coal.ComputeCollision(c.a.coal, c.b.coal)
        for name, variant in VARIANTS:
            dreq = coal.DistanceRequest()
            dreq.enable_timings, dreq.gjk_variant = True, variant
            times = []
            for _ in range(repeat):
                res = coal.DistanceResult()
                value = fd(fa, fb, dreq, res)
                times.append(res.timings.user * 1e3)
            record(c, f"coal_dist_{name}", float(np.median(times)), value)
            creq = coal.CollisionRequest(coal.CollisionRequestFlag.CONTACT, 1)
            creq.enable_timings, creq.gjk_variant = True, variant
            times = []
            for _ in range(repeat):
                res = coal.CollisionResult()
                fc(fa, fb, creq, res)
                times.append(res.timings.user * 1e3)
            value = (res.getContact(0).penetration_depth if res.isCollision()
                     else res.distance_lower_bound)
            record(c, f"coal_contact_{name}", float(np.median(times)), value)


def fcl_object(shape, q, t):
    return fcl.CollisionObject(shape.fcl, fcl.Transform(matrix(q), np.asarray(t, float)))


def _fcl_distance_times(o1, o2, req, repeat):
    res = fcl.DistanceResult()
    res.min_distance = -np.inf  # the wrapper then copies nothing back into Python
    times, value = [], None
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        value = fcl.distance(o1, o2, req, res)
        times.append(time.perf_counter_ns() - t0)
    return float(np.median(times)), value


def _fcl_collide_times(o1, o2, req, repeat):
    times, res = [], None
    for _ in range(repeat):
        res = fcl.CollisionResult()
        t0 = time.perf_counter_ns()
        fcl.collide(o1, o2, req, res)
        times.append(time.perf_counter_ns() - t0)
    value = -res.contacts[0].penetration_depth if res.is_collision else None
    return float(np.median(times)), value, res.is_collision


def fcl_requests():
    return (fcl.DistanceRequest(enable_nearest_points=True, enable_signed_distance=True),
            fcl.CollisionRequest(enable_contact=True, num_max_contacts=1))


def fcl_overheads(repeat):
    """python-fcl's cost of an almost empty call, timed as the real ones:
    two unit spheres far apart (distance, collide) and overlapping (collide
    with one contact object built)."""
    s = sphere(1.0)
    dreq, creq = fcl_requests()
    far = [fcl_object(s, np.array([1.0, 0, 0, 0]), t) for t in (np.zeros(3), [10.0, 0, 0])]
    near = [fcl_object(s, np.array([1.0, 0, 0, 0]), t) for t in (np.zeros(3), [1.0, 0, 0])]
    out = {}
    for _ in range(5):  # the least of five medians
        for key, ns in (("distance", _fcl_distance_times(*far, dreq, repeat * 20)[0]),
                        ("collide_miss", _fcl_collide_times(*far, creq, repeat * 20)[0]),
                        ("collide_hit", _fcl_collide_times(*near, creq, repeat * 20)[0])):
            out[key] = min(out.get(key, np.inf), ns)
    return out


def run_fcl(cases, repeat, overhead):
    """python-fcl timed around each call (perf_counter_ns), median over
    `repeat` calls, minus the empty-call overhead of `fcl_overheads`. Its
    collide answers only whether the shapes touch when they are apart."""
    dreq, creq = fcl_requests()
    for c in cases:
        o1, o2 = fcl_object(c.a, c.qa, c.ta), fcl_object(c.b, c.qb, c.tb)
        t, value = _fcl_distance_times(o1, o2, dreq, repeat)
        record(c, "fcl_dist", max(t - overhead["distance"], 0.0), value)
        t, value, hit = _fcl_collide_times(o1, o2, creq, repeat)
        record(c, "fcl_contact",
               max(t - overhead["collide_hit" if hit else "collide_miss"], 0.0), value)


def coal_floor(repeat):
    """coal's reported time for two far-apart unit spheres (its clock pair
    plus a closed form): the floor of its timings."""
    s = sphere(1.0)
    f = coal.ComputeDistance(s.coal, s.coal)
    req = coal.DistanceRequest()
    req.enable_timings = True
    a, b = coal_tf([1.0, 0, 0, 0], np.zeros(3)), coal_tf([1.0, 0, 0, 0], [10.0, 0, 0])
    times = []
    for _ in range(repeat * 20):
        res = coal.DistanceResult()
        f(a, b, req, res)
        times.append(res.timings.user * 1e3)
    return float(np.median(times))


# ------------------------------------------------------------------ clash

def build_clash():
    cmd = ["cargo", "build", "--release", "-p", "clash-benches", "--example", "convex_cases"]
    print("==> " + " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, cwd=REPO, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return target / "release" / "examples" / "convex_cases"


def run_clash(binary, path, cases, repeat, tolerance=None):
    extra = ["--tolerance", repr(tolerance)] if tolerance else []
    run = subprocess.run([str(binary), str(path), "--repeat", str(repeat)] + extra,
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{binary} failed ({run.returncode}):\n{run.stderr}")
    out = run.stdout
    statuses = {}
    floor = None
    for line in out.splitlines():
        f = line.split()
        if f[0] == "clock_floor_ns":
            floor = float(f[1])
        elif f[0] == "case":
            c = cases[int(f[1])]
            t, v = [float(x) for x in f[2:6]], [float(x) for x in f[6:10]]
            for k, key in enumerate(("clash_dist_plain", "clash_dist_nesterov",
                                     "clash_contact_plain", "clash_contact_nesterov")):
                record(c, key, t[k], v[k])
            for s in f[10:14]:
                statuses[s] = statuses.get(s, 0) + 1
    missing = [c.id for c in cases if "clash_dist_plain" not in c.res]
    if missing:
        sys.exit(f"{binary} answered no line for cases {missing[:10]}")
    return floor, statuses


# ----------------------------------------------------------------- oracle

def world(shape, q, t):
    v, tri = shape.poly
    return v @ matrix(q).T + t, tri


def run_oracle(cases, per_cell, max_vertices):
    """The signed distance of the first `per_cell` polytope cases of every
    category and separation by `convex_oracle` (depths only for hulls of at
    most `max_vertices` vertices: the edge-pair axes grow as their square)."""
    seen = {}
    for c in cases:
        if c.category not in POLYTOPES:
            continue
        key = (c.category, c.sep)
        if seen.get(key, 0) >= per_cell:
            continue
        if c.sep < 0 and max(len(c.a.poly[0]), len(c.b.poly[0])) > max_vertices:
            continue
        seen[key] = seen.get(key, 0) + 1
        va, ta = world(c.a, c.qa, c.ta)
        vb, tb = world(c.b, c.qb, c.tb)
        if c.sep < 0:
            depth = convex_oracle.polytope_depth(va, ta, vb, tb)
            # Only an overlapping pair has its depth among the candidates.
            c.oracle = -depth if depth > 0 else None
        else:
            c.oracle = convex_oracle.polytope_distance(va, ta, vb, tb)


# The answers compared with the oracle: apart, every distance and the
# signed distances; overlapping, the signed ones (clash's `distance` and
# FCL's collide answer only 0 / "touching" there, apart respectively).
SIGNED = ("clash_contact_plain", "clash_contact_nesterov", "coal_dist_plain",
          "coal_dist_nesterov", "coal_contact_plain", "coal_contact_nesterov", "fcl_dist")
ORACLE_KEYS = {
    "apart": ("clash_dist_plain", "clash_dist_nesterov") + SIGNED,
    "overlap": SIGNED + ("fcl_contact",),
}


def oracle_errors(cases):
    out = {}
    for c in cases:
        if getattr(c, "oracle", None) is None:
            continue
        side = "overlap" if c.sep < 0 else "apart"
        for key in ORACLE_KEYS[side]:
            value = c.res[key][1]
            if value is None:
                continue
            e = abs(value - c.oracle) / c.size
            slot = out.setdefault((key, side), [0, 0.0])
            slot[0] += 1
            slot[1] = max(slot[1], e)
    return out


# ----------------------------------------------------------------- report

def mean_time(group, key):
    return float(np.mean([c.res[key][0] for c in group]))


def cell(category, sep, group):
    """One table row's figures: mean over the cases of each per-case median."""
    r = {k: mean_time(group, k) for k in group[0].res}
    peers_d = min(r["coal_dist_plain"], r["coal_dist_nesterov"], r["fcl_dist"])
    # Apart, FCL's collide answers only "not touching": not a peer there.
    peers_c = min(r["coal_contact_plain"], r["coal_contact_nesterov"],
                  *([r["fcl_contact"]] if sep < 0 else []))
    dd = max(abs(c.res[f"clash_dist_{v}"][1] - max(c.res[f"coal_dist_{v}"][1], 0.0)) / c.size
             for c in group for v in ("plain", "nesterov"))
    dc = max(abs(c.res[f"clash_contact_{v}"][1] - c.res[f"coal_contact_{v}"][1]) / c.size
             for c in group for v in ("plain", "nesterov"))
    return {"category": category, "separation": sep, "cases": len(group), "ns": r,
            "distance_ratio": [peers_d / r["clash_dist_plain"], peers_d / r["clash_dist_nesterov"]],
            "contact_ratio": [peers_c / r["clash_contact_plain"],
                              peers_c / r["clash_contact_nesterov"]],
            "distance_disagreement": dd, "contact_disagreement": dc}


def print_table(rows, query):
    q = "dist" if query == "distance" else "contact"
    print(f"\n{query}: ns per query (mean over the cases of the median of the repeats);"
          f" x = best peer / clash (plain, Nesterov); diff = max |clash - coal| / size")
    head = (f"{'category':<18} {'sep':>6} {'clash':>8} {'clash N':>8} {'coal':>8} {'coal N':>8}"
            f" {'fcl':>7}  {'x plain':>7} {'x N':>6} {'diff':>8}")
    print(head)
    print("-" * len(head))
    for r in rows:
        ns = r["ns"]
        fcl_key = "fcl_dist" if query == "distance" else "fcl_contact"
        star = "*" if query == "contact" and r["separation"] > 0 else " "
        fcl_cell = f"{ns[fcl_key]:7.0f}{star}"
        ratio = r[f"{query}_ratio"]
        print(f"{r['category']:<18} {r['separation']:>6g} {ns[f'clash_{q}_plain']:8.0f}"
              f" {ns[f'clash_{q}_nesterov']:8.0f} {ns[f'coal_{q}_plain']:8.0f}"
              f" {ns[f'coal_{q}_nesterov']:8.0f} {fcl_cell} {ratio[0]:7.2f} {ratio[1]:6.2f}"
              f" {r[f'{query}_disagreement']:8.1e}")
    if query == "contact":
        print("* FCL's collide when apart answers only 'not touching' (no distance): not"
              " counted as a peer there")


def geomean(xs):
    return float(np.exp(np.mean(np.log(xs))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--cases", type=int, default=40,
                    help="cases per category and separation (default 40)")
    ap.add_argument("--repeat", type=int, default=15,
                    help="timed calls per query; the median is kept (default 15)")
    ap.add_argument("--rounds", type=int, default=2,
                    help="rounds of all three; each case keeps its least median (default 2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--oracle", type=int, default=None,
                    help="polytope cases per category and separation checked by the oracle"
                         " (default: all)")
    ap.add_argument("--oracle-max-vertices", type=int, default=200,
                    help="largest hull whose depth the oracle computes (default 200)")
    ap.add_argument("--out", type=Path, default=HERE / "out" / "convex")
    ap.add_argument("--clash-tolerance", type=float,
                    help="clash's relative tolerance (default: its own, 1e-10 for f64)")
    ap.add_argument("--clash", type=Path, help="a built convex_cases example (else cargo builds it)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    binary = args.clash or build_clash()
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    shapes, cases = make_cases(args.cases, rng)
    path = args.out / "convex_cases.txt"
    with open(path, "w") as f:
        f.write(f"# convex_compare.py -n {args.cases} --seed {args.seed}\n")
        f.writelines(s.line(i) + "\n" for i, s in enumerate(shapes))
        f.writelines(c.line() + "\n" for c in cases)
    print(f"{len(cases)} cases, {len(shapes)} shapes -> {path} ({time.time() - t0:.1f} s)",
          file=sys.stderr)

    overhead = fcl_overheads(args.repeat)
    floor = coal_floor(args.repeat)
    for r in range(args.rounds):
        print(f"round {r + 1} of {args.rounds}: coal, python-fcl, clash", file=sys.stderr)
        run_coal(cases, args.repeat)
        run_fcl(cases, args.repeat, overhead)
        clock_floor, statuses = run_clash(binary, path, cases, args.repeat,
                                          args.clash_tolerance)
    t1 = time.time()
    run_oracle(cases, args.cases if args.oracle is None else args.oracle,
               args.oracle_max_vertices)
    print(f"oracle: {time.time() - t1:.1f} s", file=sys.stderr)

    rows = []
    for category in CATEGORIES:
        for sep in SEPARATIONS:
            group = [c for c in cases if c.category == category and c.sep == sep]
            rows.append(cell(category, sep, group))
    print(f"convex_compare.py -n {args.cases} --repeat {args.repeat} --rounds {args.rounds}"
          f" --seed {args.seed}:"
          f" {len(cases)} cases; coal {coal.__version__} (its enable_timings), python-fcl"
          f" {fcl.version.__version__} (perf_counter minus the empty call), clash"
          f" (Instant around each call; tolerance {args.clash_tolerance or 'default'})")
    print(f"floors: clash's clock pair {clock_floor:.0f} ns; coal's timings on far-apart"
          f" spheres {floor:.0f} ns; python-fcl empty call subtracted: distance"
          f" {overhead['distance']:.0f} ns, collide {overhead['collide_miss']:.0f} ns"
          f" (with a contact {overhead['collide_hit']:.0f} ns)")
    print(f"clash statuses: {statuses}")
    for query in ("distance", "contact"):
        print_table(rows, query)
        for v, k in ((0, "plain"), (1, "Nesterov")):
            xs = [r[f"{query}_ratio"][v] for r in rows]
            print(f"  {query}, clash {k}: best peer / clash geometric mean {geomean(xs):.2f},"
                  f" range {min(xs):.2f}-{max(xs):.2f}")

    errors = oracle_errors(cases)
    print("\naccuracy against the polytope oracle (max |answer - oracle| / size; cases):")
    for side in ("apart", "overlap"):
        print(f"  {side}: " + ", ".join(f"{k} {e:.1e} ({n})"
                                        for (k, s), (n, e) in errors.items() if s == side))
    keys = sorted(cases[0].res)
    with open(args.out / "convex_per_case.csv", "w") as f:
        f.write(",".join(["id", "category", "separation", "size", "oracle"]
                         + [f"{k}_{w}" for k in keys for w in ("ns", "value")]) + "\n")
        for c in cases:
            row = [c.id, c.category, c.sep, c.size, getattr(c, "oracle", None)]
            row += [x for k in keys for x in c.res[k]]
            f.write(",".join("" if x is None else repr(x) if isinstance(x, float) else str(x)
                             for x in row) + "\n")
    summary = {"args": {k: str(v) for k, v in vars(args).items()}, "rows": rows,
               "fcl_overhead_ns": overhead, "coal_floor_ns": floor,
               "clash_clock_floor_ns": clock_floor, "clash_statuses": statuses,
               "oracle": {f"{k} {s}": {"cases": n, "max_error": e}
                          for (k, s), (n, e) in errors.items()}}
    (args.out / "convex_summary.json").write_text(json.dumps(summary, indent=1))
    print(f"\nsummary -> {args.out / 'convex_summary.json'} ({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
