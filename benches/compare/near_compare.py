"""Mesh distance at controlled gaps: clash against python-fcl and coal.

    python benches/compare/near_compare.py --clash BIN [--clash BIN2 ...]
        [--pair A.stl:B.stl ...] [--gaps 1e-6,1e-4,1e-2,0.1,1] [-n 40]
        [--rounds 3] [--bv rss,obb] [--out DIR]

Poses. For each mesh pair and each relative gap g, `-n` poses of B are
written to `DIR/<pair>/gap_<g>.txt` (the 3x4 row-major format of
`compare.py`) such that the distance between A and B is `g * size`, where
`size` is the larger bounding-box diagonal of the two meshes. A pose is a
uniform rotation R, a random area-weighted point p of A's surface, and a
random unit direction u with a positive component along that triangle's
outward normal; B's bounding-box centre c_B goes to p + s u. At s = 0, A's
surface passes through B's centre, so the two usually intersect (poses where
coal measures more than the gap at s = 0 are drawn again); at s = gap + 2 (r_A
+ r_B) they are apart by more than the gap. s is bisected with coal's distance
(continuous in s) until it is within 1e-3 of the gap (relative), so every
pose sits at the gap asked for, not merely below a bound. A generated mesh
is written as `generated_torus.stl` (trimesh's torus, seeded) when the pair
names `torus`.

Timing. One thread everywhere. Every round runs, for each gap, python-fcl,
coal and each clash binary / volume type in turn (alternating, so load from
other processes falls on all alike); the median over rounds is reported per
query. clash's time is its own summary line (`distance: N poses in S s`),
which excludes reading the meshes and building the trees; FCL's and coal's
is `time.perf_counter` around each call (the Python call overhead, about
1 us, is included and printed).

Agreement. Every clash answer is compared with coal's and FCL's distance:
the largest |d_clash - d_peer| per gap is printed (relative to the size).

Output: a table per pair (median us per query per tool, and the ratios
FCL/clash and coal/clash: above 1 means clash is faster), and
`DIR/summary.json`.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compare import (SUMMARY_RE, bounding, load_mesh, random_rotations,  # noqa: E402
                     read_poses, write_poses)
from peer_models import coal_obbrss, fcl_obbrss  # noqa: E402

DEFAULT_PAIRS = ["data/meshes/bunny_lo.stl:data/meshes/dog_sacrum.stl",
                 "data/meshes/panda_link6.stl:data/meshes/panda_link6.stl",
                 "torus:torus"]


def generated_torus(out: Path) -> Path:
    """A torus (major radius 1, minor 0.3, 80 x 40 segments, 6,400
    triangles), vertices jittered by a seeded 1 % noise so no two triangles
    are exactly coplanar, written as a binary STL."""
    import trimesh
    path = out / "generated_torus.stl"
    if not path.exists():
        m = trimesh.creation.torus(1.0, 0.3, major_sections=80, minor_sections=40)
        rng = np.random.default_rng(5)
        m.vertices = m.vertices + rng.normal(scale=0.003, size=m.vertices.shape)
        m.export(str(path))
    return path


def make_gap_poses(rng, n, va, fa, vb, fb, gap, dist):
    """`n` poses at distance `gap` (within 1e-3 relative), see the module doc."""
    tri = va[fa]
    cross = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    area = np.linalg.norm(cross, axis=1)
    normal = cross / np.maximum(area, 1e-300)[:, None]
    cb, rb, _ = bounding(vb)
    _, ra, _ = bounding(va)
    out = []
    while len(out) < n:
        R = random_rotations(rng, 1)[0]
        i = rng.choice(len(fa), p=area / area.sum())
        a, b = rng.random(2)
        if a + b > 1:
            a, b = 1 - a, 1 - b
        p = tri[i, 0] + a * (tri[i, 1] - tri[i, 0]) + b * (tri[i, 2] - tri[i, 0])
        u = rng.normal(size=3)
        u /= np.linalg.norm(u)
        if u @ normal[i] < 0:
            u = -u

        def pose(s):
            t = p + s * u - R @ cb
            return np.concatenate([R, t[:, None]], axis=1)

        # Every point of A is within 2 r_A of p, every point of B within
        # r_B of c_B: beyond this, the meshes are more than `gap` apart.
        lo, hi = 0.0, gap + 2.0 * (ra + rb)
        if dist(pose(lo)) >= gap or dist(pose(hi)) <= gap:
            continue
        ok = False
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            d = dist(pose(mid))
            if abs(d - gap) <= 1e-3 * gap:
                ok = True
                break
            if d < gap:
                lo = mid
            else:
                hi = mid
        if ok:
            # Through the text format, so every tool reads the same doubles.
            out.append(np.array([float(repr(float(x))) for x in pose(mid).reshape(-1)]).reshape(3, 4))
    return np.array(out)


def clash_run(binary, a, b, pose_file, n, bv):
    cmd = [str(binary), "distance", str(a), str(b), "--poses", str(pose_file), "--threads", "1"]
    if bv != "default":
        cmd += ["--bv", bv]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"clash failed: {' '.join(cmd)}\n{p.stderr[-2000:]}")
    d = [None] * n
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            o = json.loads(line)
            d[int(o["pose"])] = float(o["distance"])
    m = None
    for m in SUMMARY_RE.finditer(p.stderr):
        pass
    if m is None or None in d:
        raise SystemExit(f"clash: bad output for {' '.join(cmd)}\n{p.stderr[-2000:]}")
    return np.array(d), float(m.group(3)) / n


def peer_run(kind, models, poses):
    pc = time.perf_counter
    out, total = [], 0.0
    if kind == "coal":
        import coal
        ga, gb = models
        I = coal.Transform3s()
        req = coal.DistanceRequest()
        tfs = [coal.Transform3s(P[:, :3].copy(), P[:, 3].copy()) for P in poses]
        for tf in tfs:
            res = coal.DistanceResult()
            t0 = pc()
            d = coal.distance(ga, I, gb, tf, req, res)
            total += pc() - t0
            out.append(d)
    else:
        import fcl
        oa, ob = models
        req = fcl.DistanceRequest(enable_nearest_points=True)
        tfs = [fcl.Transform(P[:, :3].copy(), P[:, 3].copy()) for P in poses]
        for tf in tfs:
            res = fcl.DistanceResult()
            t0 = pc()
            ob.setTransform(tf)
            d = fcl.distance(oa, ob, req, res)
            total += pc() - t0
            out.append(d)
    return np.array(out), total / len(poses)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clash", action="append", required=True,
                    help="clash binary (repeat to compare builds; named by NAME=PATH or its path)")
    ap.add_argument("--pair", action="append", help="A.stl:B.stl (or torus:torus); repeatable")
    ap.add_argument("--gaps", default="1e-6,1e-4,1e-2,0.1,1")
    ap.add_argument("-n", "--poses", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bv", default="default,obb", help="clash volume types ('default' = no --bv)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(HERE / "out" / "near"))
    args = ap.parse_args(argv)

    import coal
    import fcl

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    clashes = []
    for c in args.clash:
        name, _, path = c.rpartition("=")
        clashes.append((name or Path(path).name, Path(path)))
    gaps = [float(g) for g in args.gaps.split(",")]
    bvs = args.bv.split(",")
    summary = {}
    for pair in args.pair or DEFAULT_PAIRS:
        pa, pb = pair.split(":")
        pa = generated_torus(out) if pa == "torus" else Path(pa)
        pb = generated_torus(out) if pb == "torus" else Path(pb)
        va, fa = load_mesh(pa)
        vb, fb = load_mesh(pb)
        size = max(bounding(va)[2], bounding(vb)[2])
        cga, cgb = coal_obbrss(va, fa), coal_obbrss(vb, fb)
        fo = (fcl.CollisionObject(fcl_obbrss(va, fa), fcl.Transform()),
              fcl.CollisionObject(fcl_obbrss(vb, fb), fcl.Transform()))
        I = coal.Transform3s()

        def dist(P):
            res = coal.DistanceResult()
            return coal.distance(cga, I, cgb, coal.Transform3s(P[:, :3].copy(), P[:, 3].copy()),
                                 coal.DistanceRequest(), res)

        tag = f"{pa.stem}__{pb.stem}"
        pdir = out / tag
        pdir.mkdir(exist_ok=True)
        rng = np.random.default_rng(args.seed)
        files = {}
        for g in gaps:
            f = pdir / f"gap_{g:g}_n{args.poses}_s{args.seed}.txt"
            if not f.exists():
                t0 = time.perf_counter()
                write_poses(f, make_gap_poses(rng, args.poses, va, fa, vb, fb, g * size, dist))
                print(f"  {tag} gap {g:g}: {args.poses} poses in {time.perf_counter() - t0:.1f} s",
                      file=sys.stderr)
            files[g] = f
        tools = ["python-fcl", "coal"] + [f"{cn}/{bv}" for cn, _ in clashes for bv in bvs]
        times = {g: {t: [] for t in tools} for g in gaps}
        answers = {g: {} for g in gaps}
        for r in range(args.rounds):
            for g in gaps:
                poses = read_poses(files[g])
                n = len(poses)
                for t in tools:
                    if t == "python-fcl":
                        d, s = peer_run("fcl", fo, poses)
                    elif t == "coal":
                        d, s = peer_run("coal", (cga, cgb), poses)
                    else:
                        cn, bv = t.split("/")
                        binary = dict(clashes)[cn]
                        d, s = clash_run(binary, pa, pb, files[g], n, bv)
                    times[g][t].append(s)
                    answers[g][t] = d
        res = {"size": size, "a": str(pa), "b": str(pb), "gaps": {}}
        print(f"\n{tag}: {len(fa)} x {len(fb)} triangles, size {size:.4g}, {args.poses} poses per gap, "
              f"median of {args.rounds} rounds, us per query")
        hdr = f"{'gap':>7} " + " ".join(f"{t:>14}" for t in tools)
        print(hdr)
        for g in gaps:
            med = {t: statistics.median(times[g][t]) for t in tools}
            print(f"{g:>7g} " + " ".join(f"{med[t] * 1e6:>14.1f}" for t in tools))
            ref = answers[g]["coal"]
            err = {t: float(np.max(np.abs(answers[g][t] - ref))) / size for t in tools}
            res["gaps"][str(g)] = {"median_s": med, "max_rel_diff_to_coal": err,
                                   "all_s": times[g]}
        print("ratios (peer time / clash time; above 1: clash faster)")
        print(f"{'gap':>7} " + " ".join(f"{'fcl/' + t:>20} {'coal/' + t:>20}" for t in tools[2:]))
        for g in gaps:
            med = res["gaps"][str(g)]["median_s"]
            print(f"{g:>7g} " + " ".join(
                f"{med['python-fcl'] / med[t]:>20.2f} {med['coal'] / med[t]:>20.2f}" for t in tools[2:]))
        worst = {t: max(res["gaps"][str(g)]["max_rel_diff_to_coal"][t] for g in gaps) for t in tools}
        print("max |d - d_coal| / size: " + ", ".join(f"{t} {worst[t]:.2g}" for t in tools))
        summary[tag] = res
    (out / "summary.json").write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
