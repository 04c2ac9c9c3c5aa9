#!/usr/bin/env python3
"""python-fcl and coal answering robot collision queries on link poses
computed by clash, so the peers need no kinematics.

    benches/compare/.venv/bin/python benches/compare/robot_compare.py --scene DIR
        [--mode collide|distance|both] [--max-configs N] [--repeat 3]

Reads `DIR/scene.json` (objects, the pairs to check, the configuration
count) and `DIR/poses.f64` (every object's world pose [R | t] per
configuration, little-endian float64, shape (N, objects, 3, 4)); for each
peer and mode runs the pairwise loop over `pairs` and the peer's
`DynamicAABBTreeCollisionManager` with the same pair filter; prints per
variant the time per configuration (raw, and with the Python overhead
removed), and the agreement with clash's answers (`DIR/clash_answers.jsonl`
or `--answers`); writes `OUT/summary.json`. See benches/compare/README.md
("Robots: robot_compare.py") for the method.
"""

import argparse
import json
import math
import sys
from pathlib import Path

try:
    import numpy as np

    import robot_peers
except ImportError as e:
    sys.exit(f"{e}: run with an interpreter that has coal, python-fcl and numpy, e.g."
             " benches/compare/.venv/bin/python (bash benches/compare/run.sh creates it)")

HERE = Path(__file__).resolve().parent
KINDS = {"mesh", "box", "sphere", "cylinder", "capsule"}


class InputError(Exception):
    """Bad scene, poses or answers file: printed with the file's name, exit 2."""


# ------------------------------------------------------------ input

def _positive(x, what):
    if not (isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x > 0):
        raise InputError(f"{what} must be a positive finite number, got {x!r}")
    return float(x)


def load_scene(d):
    """(objects, pairs, configs, poses) of a scene directory; meshes get
    float64 vertices `V` and int32 triangles `F`; `poses` is a read-only
    memory map of shape (configs, objects, 3, 4)."""
    path = d / "scene.json"
    try:
        scene = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: {e}")
    try:
        objects, pairs, n = scene["objects"], scene["pairs"], scene["configs"]
    except (KeyError, TypeError) as e:
        raise InputError(f"{path}: missing key {e}")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise InputError(f"{path}: 'configs' must be a non-negative integer, got {n!r}")
    for i, o in enumerate(objects):
        where = f"{path}: objects[{i}] ({o.get('name', '?') if isinstance(o, dict) else '?'})"
        try:
            kind = o["kind"]
            if kind not in KINDS:
                raise InputError(f"{where}: unknown kind {kind!r} (expected one of {sorted(KINDS)})")
            if kind == "mesh":
                V = np.asarray(o["vertices"], dtype=np.float64)
                F = np.asarray(o["faces"], dtype=np.int64)
                if V.ndim != 2 or V.shape[1] != 3 or F.ndim != 2 or F.shape[1] != 3 or len(F) == 0:
                    raise InputError(f"{where}: vertices must be n x 3 and faces m x 3 (m > 0)")
                if not np.isfinite(V).all():
                    raise InputError(f"{where}: non-finite vertex")
                if F.min() < 0 or F.max() >= len(V):
                    raise InputError(f"{where}: face index out of range 0..{len(V) - 1}")
                o["V"], o["F"] = V, F.astype(np.int32)
            elif kind == "box":
                h = o["half_extents"]
                if not isinstance(h, list) or len(h) != 3:
                    raise InputError(f"{where}: half_extents must be 3 numbers")
                for x in h:
                    _positive(x, f"{where}: half extent")
            else:
                _positive(o["radius"], f"{where}: radius")
                if kind != "sphere":
                    _positive(o["length"], f"{where}: length")
        except KeyError as e:
            raise InputError(f"{where}: missing key {e}")
        except (TypeError, ValueError) as e:
            raise InputError(f"{where}: {e}")
    m = len(objects)
    out = []
    for k, p in enumerate(pairs):
        if not (isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) for x in p)
                and 0 <= p[0] < p[1] < m):
            raise InputError(f"{path}: pairs[{k}] = {p!r} is not [i, j] with 0 <= i < j < {m}")
        out.append((p[0], p[1]))
    if len(set(out)) != len(out):
        raise InputError(f"{path}: a pair is listed twice")
    ppath = d / "poses.f64"
    want = n * m * 12 * 8
    try:
        size = ppath.stat().st_size
    except OSError as e:
        raise InputError(f"{ppath}: {e}")
    if size != want:
        raise InputError(f"{ppath}: {size} bytes, expected {want} ({n} configs x {m} objects x 12 float64)")
    poses = np.memmap(ppath, dtype="<f8", mode="r", shape=(n, m, 3, 4)) if want else np.zeros((0, m, 3, 4))
    return objects, out, n, poses


def load_answers(path, mode, n, npairs):
    """clash's (or another reference's) answers for `mode`, one per
    configuration: (collides, pair) or (distance, pair); None if the file
    does not hold this mode's answers."""
    key = "collides" if mode == "collide" else "distance"
    out = []
    try:
        lines = path.read_text().splitlines()
    except OSError as e:
        raise InputError(f"{path}: {e}")
    for ln, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            a = json.loads(line)
        except ValueError as e:
            raise InputError(f"{path}:{ln}: {e}")
        if not isinstance(a, dict):
            raise InputError(f"{path}:{ln}: not a JSON object")
        if key not in a:
            if ln == 1:
                return None
            raise InputError(f"{path}:{ln}: no {key!r}")
        v, p = a[key], a.get("pair")
        if p is not None and not (isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) for x in p)):
            raise InputError(f"{path}:{ln}: 'pair' must be [i, j] or null")
        if mode == "collide":
            if not isinstance(v, bool):
                raise InputError(f"{path}:{ln}: 'collides' must be true or false")
            if v != (p is not None):
                raise InputError(f"{path}:{ln}: 'pair' must be given exactly when 'collides' is true")
        else:
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                raise InputError(f"{path}:{ln}: 'distance' must be a finite number")
            if p is None and npairs:
                raise InputError(f"{path}:{ln}: 'pair' missing")
            v = max(float(v), 0.0)
        out.append((v, tuple(p) if p is not None else None))
    if len(out) < n:
        raise InputError(f"{path}: {len(out)} answers for {n} configurations")
    return out[:n]


def find_answers(args, mode):
    """Path of the reference answers for `mode`: --answers (`{mode}` is
    replaced), else DIR/clash_answers_<mode>.jsonl, else DIR/clash_answers.jsonl."""
    if args.answers:
        p = Path(args.answers.replace("{mode}", mode))
        return [p]
    return [args.scene / f"clash_answers_{mode}.jsonl", args.scene / "clash_answers.jsonl"]


# ------------------------------------------------------------ running

class Variant:
    """One peer x method x mode: its timed runs and answers."""

    def __init__(self, peer, method, mode):
        self.peer, self.method, self.mode = peer, method, mode
        self.raw = self.floor = self.extra = 0.0
        self.answers = []
        self.skipped = None

    @property
    def label(self):
        return f"{self.peer.name} {self.method}"


def shared_pose(poses, full):
    """Whether two objects share a translation (with `full`, a whole pose)
    in some configuration."""
    X = poses.reshape(poses.shape[0], poses.shape[1], 12) if full else poses[:, :, :, 3]
    m = poses.shape[1]
    return any(np.all(X[:, i] == X[:, j], axis=-1).any() for i in range(m) for j in range(i + 1, m))


def pose_keys(P, full):
    """Per configuration of P, each object's pose key -> object index: its
    translation, with `full` followed by its row-major rotation (as
    `fcl_keyfn` reads them back from python-fcl's objects)."""
    def key(M):
        k = tuple(M[:, 3].tolist())
        return k + tuple(M[:, :3].ravel().tolist()) if full else k
    return [{key(M): i for i, M in enumerate(Pc)} for Pc in P]


def fcl_keyfn(full):
    if full:
        return lambda o: tuple(o.getTranslation().tolist()) + tuple(o.getRotation().ravel().tolist())
    return lambda o: tuple(o.getTranslation().tolist())


class PeerRun:
    """All variants of one peer: their objects, dummies and managers, and
    the timed runs, one chunk of configurations at a time (`step`), so that
    the peers take turns on every chunk and a burst of load from other jobs
    hits all of them."""

    def __init__(self, peer, objects, pairs, poses, modes):
        m = poses.shape[1]
        self.peer, self.npairs = peer, len(pairs)
        geoms = [(robot_peers.fcl_geometry if peer.name == "python-fcl" else robot_peers.coal_geometry)(o)
                 for o in objects]
        self.objs = peer.objects(geoms)
        self.pair_objs = [(self.objs[i], self.objs[j]) for i, j in pairs]
        self.dobjs, self.dtfs = peer.dummies(m)
        self.dpairs = [(self.dobjs[i], self.dobjs[j]) for i, j in pairs]
        self.allowed = [[-1] * m for _ in range(m)]
        for k, (i, j) in enumerate(pairs):
            self.allowed[i][j] = self.allowed[j][i] = k
        is_fcl = peer.name == "python-fcl"

        self.variants = []
        for mode in modes:
            for method in ("pairwise", "manager"):
                v = Variant(peer, method, mode)
                if not is_fcl and method == "manager" and mode == "distance":
                    v.skipped = ("coal 3.0.3's Python bindings take no custom broad-phase callback "
                                 "(CollisionCallBackBase has no_init) and DistanceCallBackDefault "
                                 "cannot skip pairs (see --coal-cpp)")
                self.variants.append(v)

        managed = any(v.method == "manager" and not v.skipped for v in self.variants)
        self.mgr = peer.manager(self.objs) if managed else None
        self.empty_mgr = peer.manager([])
        self.keyfn = self.full_keys = None
        if is_fcl and managed:
            for full in (False, True):
                if not shared_pose(poses, full):
                    self.keyfn, self.full_keys = fcl_keyfn(full), full
                    break
            if self.keyfn is None:
                for v in self.variants:
                    if v.method == "manager":
                        v.skipped = ("two objects share a pose in some configuration: python-fcl's "
                                     "callback cannot tell them apart")

    def step(self, P, repeat):
        """The configurations of poses P: each variant's real and floor loops
        alternate `repeat` times and the least time of each is kept."""
        peer = self.peer
        chunk = [[peer.transform(M) for M in Pc] for Pc in P]
        dchunk = [self.dtfs] * len(chunk)
        full = [self.npairs] * len(chunk)
        keys = pose_keys(P, self.full_keys) if self.keyfn else None
        for v in self.variants:
            if v.skipped:
                continue
            real, floor = _loops(peer, v, self.objs, self.pair_objs, self.dobjs, self.dpairs, self.mgr,
                                 self.empty_mgr, chunk, dchunk, full, self.allowed, self.keyfn, keys)
            best_r = best_f = math.inf
            ans = None
            for _ in range(repeat):
                out = []
                best_r = min(best_r, real(out))
                ans = out if ans is None else ans
                best_f = min(best_f, floor(ans))
            v.raw += best_r
            v.floor += best_f
            v.answers.extend(ans)


def _loops(peer, v, objs, pair_objs, dobjs, dpairs, mgr, empty_mgr, chunk, dchunk, full,
           allowed, keyfn, keys):
    """(real(out), floor(answers)) closures for one variant and chunk."""
    if v.method == "pairwise":
        loop = peer.pairwise_collide if v.mode == "collide" else peer.pairwise_distance
        calls = 1 if v.mode == "collide" else 2
        return (lambda out: loop(objs, pair_objs, chunk, full, out),
                lambda ans: loop(dobjs, dpairs, dchunk, [a[calls] for a in ans], []))
    if peer.name == "coal":
        return (lambda out: peer.manager_collide(mgr, objs, pair_objs, chunk, full, out),
                lambda ans: peer.manager_collide(empty_mgr, dobjs, dpairs, dchunk,
                                                 [-a[2] for a in ans], []))
    loop = peer.manager_collide if v.mode == "collide" else peer.manager_distance
    empty_keys = [{}] * len(chunk)
    return (lambda out: loop(mgr, objs, chunk, keys, allowed, keyfn, out),
            lambda ans: loop(empty_mgr, dobjs, dchunk, empty_keys, allowed, keyfn, []))


def add_overheads(peer, variants, keyfn, reps):
    """Charge each variant the Python cost its floor loop does not contain:
    narrow-phase calls made from Python callbacks or filter loops outside
    the floor (their binding cost: a call on far-apart tiny spheres), and
    python-fcl's callback dispatch per candidate pair."""
    costs = {}
    for v in variants:
        if v.skipped or v.method != "manager":
            continue
        ci = 2 if v.mode == "collide" else 3
        calls = sum(a[ci - 1] for a in v.answers)
        filters = sum(a[ci] for a in v.answers)
        if v.mode not in costs:
            costs[v.mode] = peer.call_cost(v.mode, reps)
        v.extra = calls * costs[v.mode]
        if peer.name == "python-fcl":
            if "filter" not in costs:
                costs["filter"] = peer.filter_cost(keyfn, reps)
            v.extra += filters * costs["filter"]
    return {(f"{k} call" if k != "filter" else "callback up to the filter"): c * 1e9
            for k, c in costs.items()}


# ------------------------------------------------------------ agreement

def as_reference(v, pairs):
    """A variant's answers in the reference format."""
    if v.mode == "collide":
        return [(a[0] >= 0, pairs[a[0]] if a[0] >= 0 else None) for a in v.answers]
    return [(a[0], pairs[a[1]] if a[1] >= 0 else None) for a in v.answers]


def pair_distance(peer, objs, P, i, j):
    """The peer's distance (negative taken as 0) of objects i, j at poses P."""
    a, b = objs[i], objs[j]
    a.setTransform(peer.transform(P[i]))
    b.setTransform(peer.transform(P[j]))
    if peer.name == "python-fcl":
        d = robot_peers.fcl.distance(a, b, peer.dreq, peer.distance_result())
    else:
        d = robot_peers.coal.distance(a, b, peer.dreq, robot_peers.coal.DistanceResult())
    return max(d, 0.0)


def agreement(v, ref, pairs, tol, tie_distance):
    """Configurations where the variant and the reference differ: the
    collide answer, the first pair (pairwise loop), the distance (beyond
    `tol`), and the closest pair (pairwise loop; a different pair whose
    distance is within `tol` of the least is counted as a tie instead)."""
    g = {"configs": len(v.answers), "collides": [], "pair": [], "distance": [], "ties": [],
         "max_abs_distance_diff": None}
    if v.mode == "collide":
        for c, (a, (rc, rp)) in enumerate(zip(v.answers, ref)):
            hit = a[0]
            if (hit >= 0) != rc:
                g["collides"].append(c)
            elif hit >= 0 and v.method == "pairwise" and pairs[hit] != rp:
                g["pair"].append(c)
        return g
    worst = 0.0
    for c, (a, (rd, rp)) in enumerate(zip(v.answers, ref)):
        d, k = a[0], a[1]
        diff = abs(d - rd)
        worst = max(worst, diff)
        if diff > tol:
            g["distance"].append(c)
        if ((rd == 0.0) != (d == 0.0)):
            g["collides"].append(c)
        if v.method == "pairwise" and k >= 0 and rp is not None and pairs[k] != rp:
            if abs(tie_distance(c, rp) - d) <= tol:
                g["ties"].append(c)
            else:
                g["pair"].append(c)
    g["max_abs_distance_diff"] = worst
    return g


# ------------------------------------------------------------ report

def describe(v, ref, pairs, c):
    a = v.answers[c]
    if v.mode == "collide":
        mine = f"collides={a[0] >= 0} pair={list(pairs[a[0]]) if a[0] >= 0 else None}"
        theirs = f"collides={ref[c][0]} pair={list(ref[c][1]) if ref[c][1] else None}"
    else:
        mine = f"distance={a[0]!r} pair={list(pairs[a[1]]) if a[1] >= 0 else None}"
        theirs = f"distance={ref[c][0]!r} pair={list(ref[c][1]) if ref[c][1] else None}"
    return f"config {c}: {v.label}: {mine}; reference: {theirs}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scene", type=Path, required=True, help="directory with scene.json and poses.f64")
    ap.add_argument("--mode", choices=("collide", "distance", "both"), default="both")
    ap.add_argument("--max-configs", type=int, help="use only the first N configurations")
    ap.add_argument("--peers", default="python-fcl,coal", help="comma-separated subset of python-fcl,coal")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per chunk; the least is kept")
    ap.add_argument("--chunk", type=int, default=500,
                    help="configurations whose peer transforms are built (untimed) at once")
    ap.add_argument("--answers", help="reference answers (JSON lines; '{mode}' is replaced by the mode); "
                    "default DIR/clash_answers_<mode>.jsonl, else DIR/clash_answers.jsonl")
    ap.add_argument("--answers-label", default="clash", help="name of the reference in the report")
    ap.add_argument("--clash-us", action="append", default=[], metavar="MODE=US",
                    help="clash's time per configuration in microseconds, for the ratio column")
    ap.add_argument("--tol", type=float, default=1e-6, help="distance tolerance (absolute)")
    ap.add_argument("--list", type=int, default=5, help="disagreeing configurations listed per variant")
    ap.add_argument("--cost-reps", type=int, default=20000, help="calls per overhead micro-benchmark")
    ap.add_argument("--coal-cpp", action="store_true",
                    help="also run coal's own C++ (robot_coal.cpp, built with g++ against the coal wheel)")
    ap.add_argument("--out", type=Path, default=HERE / "out" / "robot")
    args = ap.parse_args(argv)
    if args.repeat < 1 or args.chunk < 1 or (args.max_configs is not None and args.max_configs < 0):
        ap.error("--repeat and --chunk must be at least 1, --max-configs non-negative")
    clash_us = {}
    for item in args.clash_us:
        mode, _, us = item.partition("=")
        try:
            clash_us[mode] = float(us)
        except ValueError:
            ap.error(f"--clash-us {item!r}: expected MODE=MICROSECONDS")

    try:
        objects, pairs, n_all, poses = load_scene(args.scene)
        n = n_all if args.max_configs is None else min(n_all, args.max_configs)
        poses = np.array(poses[:n])
        if not np.isfinite(poses).all():
            c = int(np.argwhere(~np.isfinite(poses))[0][0])
            raise InputError(f"{args.scene / 'poses.f64'}: non-finite pose in configuration {c}")
        modes = ["collide", "distance"] if args.mode == "both" else [args.mode]
        refs = {}
        for mode in modes:
            for p in find_answers(args, mode):
                if p.exists():
                    r = load_answers(p, mode, n, len(pairs))
                    if r is not None:
                        refs[mode] = (args.answers_label, p, r)
                        break
            else:
                if args.answers:
                    raise InputError(f"{p}: no {mode} answers")
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    names = [x.strip() for x in args.peers.split(",") if x.strip()]
    peers = [p for p in (robot_peers.FclPeer(), robot_peers.CoalPeer()) if p.name in names]
    kinds = {}
    for o in objects:
        kinds[o["kind"]] = kinds.get(o["kind"], 0) + 1
    print(f"scene {args.scene}: {len(objects)} objects {kinds}, {len(pairs)} pairs, "
          f"{n} of {n_all} configurations", file=sys.stderr)

    t0 = robot_peers.perf_counter()
    runs = [PeerRun(peer, objects, pairs, poses, modes) for peer in peers]
    for start in range(0, n, args.chunk):
        P = poses[start:start + args.chunk]
        for run in runs:
            run.step(P, args.repeat)
    variants, costs, objs_of = [], {}, {}
    for run in runs:
        costs[run.peer.name] = add_overheads(run.peer, run.variants, run.keyfn, args.cost_reps)
        objs_of[run.peer.name] = run.objs
        variants += run.variants
    print(f"{', '.join(p.name for p in peers)}: done in {robot_peers.perf_counter() - t0:.1f} s",
          file=sys.stderr)

    if args.coal_cpp:
        cpp = robot_peers.CoalCpp(args.out)
        scene_bin = cpp.write_scene(objects, pairs)
        for mode in modes:
            for method, (secs, ans) in cpp.run(scene_bin, args.scene / "poses.f64", n, args.repeat,
                                                mode).items():
                v = Variant(cpp, method, mode)
                v.raw, v.answers = secs, ans
                variants.append(v)
        print(f"coal C++: done", file=sys.stderr)

    for mode in modes:
        if mode not in refs:
            base = next((v for v in variants if v.mode == mode and v.method == "pairwise"), None)
            if base is not None:
                refs[mode] = (base.label, None, as_reference(base, pairs))

    report, rows = [], []
    for v in variants:
        row = {"peer": v.peer.name, "method": v.method, "mode": v.mode}
        if v.skipped:
            row["skipped"] = v.skipped
            rows.append(row)
            continue
        us = 1e6 / max(n, 1)
        row.update(raw_us=v.raw * us, floor_us=v.floor * us, extra_us=v.extra * us,
                   net_us=(v.raw - v.floor - v.extra) * us,
                   calls_per_config=sum(a[-2] for a in v.answers) / max(n, 1),
                   candidates_per_config=sum(a[-1] for a in v.answers) / max(n, 1))
        if v.mode in clash_us and clash_us[v.mode] > 0:
            row["net_over_clash"] = row["net_us"] / clash_us[v.mode]
        if v.mode in refs:
            label, _, ref = refs[v.mode]
            peer = robot_peers.CoalPeer() if isinstance(v.peer, robot_peers.CoalCpp) else v.peer
            if peer.name not in objs_of:
                objs_of[peer.name] = peer.objects([robot_peers.coal_geometry(o) for o in objects])
            objs = objs_of[peer.name]

            def tie(c, rp, peer=peer, objs=objs):
                return pair_distance(peer, objs, poses[c], rp[0], rp[1])
            g = agreement(v, ref, pairs, args.tol, tie)
            row["agreement"] = {k: (x if not isinstance(x, list) else {"count": len(x), "first": x[:50]})
                                for k, x in g.items()}
            bad = sorted(set(g["collides"] + g["pair"] + g["distance"]))
            report += [describe(v, ref, pairs, c) for c in bad[:args.list]]
        rows.append(row)

    print_table(rows, n, refs, costs, clash_us, args.tol)
    if report:
        print("disagreements (first few per variant):")
        for line in report:
            print("  " + line)
    args.out.mkdir(parents=True, exist_ok=True)
    summary = {
        "scene": str(args.scene), "objects": len(objects), "kinds": kinds, "pairs": len(pairs),
        "configs": n, "configs_in_scene": n_all, "repeat": args.repeat, "tolerance": args.tol,
        "peers": {"python-fcl": "0.7.0.11 (pinned)", "coal": robot_peers.coal.__version__},
        "reference": {m: {"label": r[0], "file": str(r[1]) if r[1] else None} for m, r in refs.items()},
        "overheads_ns": costs, "clash_us": clash_us, "variants": rows, "disagreements": report,
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"summary -> {args.out / 'summary.json'}")
    return 0


def print_table(rows, n, refs, costs, clash_us, tol):
    print(f"{n} configurations; times in us per configuration, one thread; "
          "raw = measured, net = raw - floor - extra (Python overhead removed)")
    head = (f"{'peer / method':24} {'mode':8} {'raw':>9} {'floor':>8} {'extra':>8} {'net':>9} "
            f"{'calls':>6} {'cands':>6} {'collides':>9} {'pair':>9} {'max|dd|':>9} {'>tol':>5}")
    if clash_us:
        head += f" {'net/clash':>9}"
    print(head)
    print("-" * len(head))
    for mode in ("collide", "distance"):
        if mode in clash_us:
            print(f"{'clash (given)':24} {mode:8} {'':>9} {'':>8} {'':>8} {clash_us[mode]:9.2f}")
        for r in rows:
            if r["mode"] != mode:
                continue
            name = f"{r['peer']} {r['method']}"
            if "skipped" in r:
                print(f"{name:24} {mode:8} skipped: {r['skipped']}")
                continue
            line = (f"{name:24} {mode:8} {r['raw_us']:9.2f} {r['floor_us']:8.2f} {r['extra_us']:8.2f} "
                    f"{r['net_us']:9.2f} {r['calls_per_config']:6.2f} {r['candidates_per_config']:6.2f}")
            g = r.get("agreement")
            if g:
                nc = g["configs"]
                coll = f"{nc - g['collides']['count']}/{nc}"
                pair = (f"{nc - g['pair']['count']}/{nc}" if r["method"] == "pairwise" else "-")
                if mode == "distance":
                    line += (f" {coll:>9} {pair:>9} {g['max_abs_distance_diff']:9.2e} "
                             f"{g['distance']['count']:5d}")
                else:
                    line += f" {coll:>9} {pair:>9} {'-':>9} {'-':>5}"
            if "net_over_clash" in r:
                line += f" {r['net_over_clash']:9.2f}"
            print(line)
    for mode, (label, path, _) in refs.items():
        print(f"{mode} answers compared with: {label}" + (f" ({path})" if path else " (no reference file)"))
    print(f"distance tolerance {tol:g}; 'pair' = same first colliding / closest pair (pairwise loop only; "
          "a different closest pair within the tolerance of the least distance counts as a tie)")
    for r in rows:
        g = r.get("agreement")
        if g and g["ties"]["count"]:
            print(f"{r['peer']} {r['method']} {r['mode']}: {g['ties']['count']} closest pairs differ "
                  "within the tolerance (ties, not counted as disagreements)")
        if r.get("net_us", 0.0) < 0:
            print(f"warning: {r['peer']} {r['method']} {r['mode']}: negative net time "
                  "(overhead estimate above the measurement; machine load?)")
    for peer, c in costs.items():
        if c:
            print(f"{peer} per-call overheads charged to 'extra' (ns): "
                  + ", ".join(f"{k} {x:.0f}" for k, x in c.items()))


if __name__ == "__main__":
    sys.exit(main())
