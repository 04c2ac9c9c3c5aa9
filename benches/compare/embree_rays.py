#!/usr/bin/env python3
"""Closest-hit rays: clash against Embree 4 on the same rays, hit by hit.

The script writes the rays, runs Embree (embreex, one `rtcIntersect1` per ray
from its Cython loop) and the `clash raycast` command on them, and compares
the hit triangle of every ray. Rays start on a sphere of 1.5 bounding radii
about the mesh's centre and aim at a point drawn uniformly in the ball of half
a radius about it (most of them hit).

Each ray is written as the `f32` values both tools use: Embree takes `f32`
arrays, and `clash raycast` reads a binary STL mesh, and so its rays, in
`f32`. The numbers are written with 17 digits of the doubles equal to those
`f32` values, so nothing is rounded twice.

Timing: Embree's `run` over all rays (its scene built beforehand); clash's
own batch timer (`raycast: N rays in S s`, tree built beforehand), on
`--threads 1` and `--threads 2`. Each is repeated `--repeat` times,
alternating, and the fastest run is reported.

Rays on which the two disagree are decided in exact rational arithmetic:
each candidate triangle is intersected with the ray as a closed set, and the
smaller exact `t` wins; on equal `t` (the ray through a shared edge or
vertex) clash answers the smaller triangle index, which is listed as a tie.

    benches/compare/.venv/bin/python benches/compare/embree_rays.py \
        ../shared/meshes/gr1_torso.stl --rays 1000000 --clash target/release/clash
    benches/compare/.venv/bin/python benches/compare/embree_rays.py --self-test
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import read_stl_raw  # noqa: E402


def make_rays(tris, n, seed):
    """Origins on 1.5 radii, aimed into the half-radius ball, as `f32`."""
    v = tris.reshape(-1, 3).astype(np.float64)
    lo, hi = v.min(axis=0), v.max(axis=0)
    c = (lo + hi) / 2
    r = float(np.linalg.norm(v - c, axis=1).max())
    rng = np.random.default_rng(seed)
    u = rng.normal(size=(n, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    w = rng.normal(size=(n, 3))
    w /= np.linalg.norm(w, axis=1, keepdims=True)
    w *= 0.5 * r * rng.random((n, 1)) ** (1 / 3)
    origins = (c + 1.5 * r * u).astype(np.float32)
    dirs = (c + w - origins.astype(np.float64)).astype(np.float32)
    return origins, dirs


def write_rays(path: Path, origins, dirs):
    both = np.hstack([origins, dirs]).astype(np.float64)
    np.savetxt(path, both, fmt="%.17g")


def run_embree(tris, origins, dirs, repeat):
    from embreex import rtcore_scene
    from embreex.mesh_construction import TriangleMesh

    scene = rtcore_scene.EmbreeScene()
    TriangleMesh(scene, np.ascontiguousarray(tris, dtype=np.float32))
    best, best_id = float("inf"), float("inf")
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = scene.run(origins, dirs, output=1)
        best = min(best, time.perf_counter() - t0)
        t0 = time.perf_counter()
        scene.run(origins, dirs)
        best_id = min(best_id, time.perf_counter() - t0)
    return out["primID"].astype(np.int64), out["tfar"], best, best_id


SUMMARY = re.compile(r"raycast: (\d+) rays in ([0-9.eE+-]+) s")


def run_clash(binary, mesh, rays_path, threads, n):
    proc = subprocess.run(
        [binary, "raycast", str(mesh), "--rays", str(rays_path), "--threads", str(threads)],
        capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"clash raycast failed ({proc.returncode}):\n{proc.stderr}")
    m = SUMMARY.search(proc.stderr)
    if not m or int(m.group(1)) != n:
        raise SystemExit(f"no batch timer in clash's output:\n{proc.stderr}")
    tri = np.full(n, -1, dtype=np.int64)
    t = np.full(n, np.inf)
    order_ok = True
    for i, line in enumerate(proc.stdout.splitlines()):
        rec = json.loads(line)
        order_ok &= rec["ray"] == i
        if rec["hit"]:
            tri[i] = rec["triangle"]
            t[i] = rec["t"]
    return tri, t, float(m.group(2)), order_ok


def exact_hit(o, d, tri):
    """Exact `t` at which the ray meets the closed triangle, or None."""
    o = [Fraction(float(x)) for x in o]
    d = [Fraction(float(x)) for x in d]
    a, b, c = ([Fraction(float(x)) for x in p] for p in tri)

    def sub(p, q):
        return [p[0] - q[0], p[1] - q[1], p[2] - q[2]]

    def det(p, q, r):
        return (p[0] * (q[1] * r[2] - q[2] * r[1]) - p[1] * (q[0] * r[2] - q[2] * r[0])
                + p[2] * (q[0] * r[1] - q[1] * r[0]))

    e1, e2, s = sub(b, a), sub(c, a), sub(o, a)
    nd = [-x for x in d]
    den = det(e1, e2, nd)
    if den == 0:
        return None  # parallel to the plane (a grazing ray is left out)
    beta = det(s, e2, nd) / den
    gamma = det(e1, s, nd) / den
    t = det(e1, e2, s) / den
    if beta < 0 or gamma < 0 or beta + gamma > 1 or t < 0:
        return None
    return t


def judge(tris, origins, dirs, i, ours, theirs):
    """Which answer is right for ray i, and the exact gap between the two
    hits relative to `t` (0 for a miss or a tie).

    'tie': equal exact `t` (a shared edge or vertex, or triangles that
    overlap); 'clash' or 'embree': the one with the smaller exact `t` or the
    only exact hit; 'embree, within rounding': Embree's hit is nearer by less
    than `ROUNDING` of `t` (two surfaces crossing, closer than the `f32`
    arithmetic of either tool can order); 'edge, within rounding': clash's
    triangle shares a corner with Embree's and misses the ray exactly (the
    watertight test decides edges exactly in the ray's sheared frame, whose
    coordinates are rounded to `f32`).
    """
    o, d = origins[i], dirs[i]
    t_ours = exact_hit(o, d, tris[ours]) if ours >= 0 else None
    t_theirs = exact_hit(o, d, tris[theirs]) if theirs >= 0 else None
    if t_ours is None and t_theirs is None:
        return "neither hits", 0.0
    if t_theirs is None:
        return "clash", 0.0
    if t_ours is None:
        shared = any((p == q).all() for p in tris[ours] for q in tris[theirs])
        return ("edge, within rounding" if shared else "embree"), 0.0
    if t_ours == t_theirs:
        return "tie", 0.0
    gap = float(abs(t_ours - t_theirs) / t_theirs)
    if t_ours < t_theirs:
        return "clash", gap
    return ("embree, within rounding" if gap < ROUNDING else "embree"), gap


# Relative gap between two hits that `f32` ray arithmetic cannot order: the
# sheared corners are rounded to `f32` (relative error 2^-24 of the
# coordinates, a few times that of `t` for rays from 1.5 radii).
ROUNDING = 2.0**-18


def self_test():
    """The exact judge on hand-made rays: a hit, a miss, a shared edge, a
    vertex, a grazing ray, two crossing triangles."""
    sq = np.array([[[0, 0, 0], [1, 0, 0], [1, 1, 0]],
                   [[0, 0, 0], [1, 1, 0], [0, 1, 0]],
                   [[0, 0, 1], [1, 0, 1], [1, 1, 1]]], dtype=np.float32)
    down = np.array([0, 0, -1], dtype=np.float32)
    assert exact_hit([0.75, 0.25, 2], down, sq[0]) == 2
    assert exact_hit([0.25, 0.75, 2], down, sq[0]) is None
    # Through the shared diagonal: both triangles at the same exact t.
    o = np.array([[0.5, 0.5, 2]], dtype=np.float32)
    d = down[None, :]
    assert judge(sq, o, d, 0, 0, 1) == ("tie", 0.0)
    assert exact_hit([0, 0, 2], down, sq[1]) == 2  # a corner (closed set)
    assert exact_hit([-1, 0.5, 0], [1, 0, 0], sq[0]) is None  # in the plane
    # The top square is nearer: whoever answers it is right.
    assert judge(sq, o, d, 0, 2, 0) == ("clash", 0.5)
    assert judge(sq, o, d, 0, 0, 2)[0] == "embree"
    # Misses on both sides.
    assert judge(sq, np.array([[5, 5, 2]], np.float32), d, 0, 0, 1)[0] == "neither hits"
    print("embree_rays self-test: ok")


def main(argv=None):
    if argv is None and sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mesh", type=Path)
    ap.add_argument("--rays", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--clash", default="target/release/clash")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "out" / "rays")
    args = ap.parse_args(argv)

    tris = read_stl_raw(args.mesh)
    args.out.mkdir(parents=True, exist_ok=True)
    origins, dirs = make_rays(tris, args.rays, args.seed)
    rays_path = args.out / f"{args.mesh.stem}_{args.rays}.rays"
    write_rays(rays_path, origins, dirs)
    n = args.rays

    e_tri, e_t, e_time, e_time_id = run_embree(tris, origins, dirs, args.repeat)
    e_tri[e_tri < 0] = -1
    times = {1: float("inf"), 2: float("inf")}
    answers = {}
    for _ in range(args.repeat):
        for threads in (1, 2):
            tri, t, s, order_ok = run_clash(args.clash, args.mesh, rays_path, threads, n)
            if not order_ok:
                raise SystemExit(f"clash --threads {threads}: answers out of input order")
            times[threads] = min(times[threads], s)
            if threads in answers and not np.array_equal(answers[threads], tri):
                raise SystemExit(f"clash --threads {threads}: answers changed between runs")
            answers[threads] = tri
    if not np.array_equal(answers[1], answers[2]):
        raise SystemExit("clash: 1 and 2 threads gave different answers")
    c_tri = answers[1]

    differ = np.flatnonzero(c_tri != e_tri)
    verdicts = {}
    listed = []
    for i in differ:
        v, gap = judge(tris, origins, dirs, int(i), int(c_tri[i]), int(e_tri[i]))
        verdicts[v] = verdicts.get(v, 0) + 1
        listed.append((int(i), int(c_tri[i]), int(e_tri[i]), v, gap))

    print(f"{args.mesh.name}: {len(tris)} triangles, {n} rays, fastest of {args.repeat}")
    print(f"  hits: clash {int((c_tri >= 0).sum())}, embree {int((e_tri >= 0).sum())}")
    print(f"  embree 4 (embreex run, 1 thread): {n / e_time / 1e6:.3f} Mrays/s "
          f"(triangle only: {n / e_time_id / 1e6:.3f})")
    for threads in (1, 2):
        print(f"  clash raycast --threads {threads}: {n / times[threads] / 1e6:.3f} Mrays/s")
    print(f"  clash / embree, 1 thread: {e_time / times[1]:.3f}x; "
          f"clash 2 threads / 1 thread: {times[1] / times[2]:.3f}x")
    print(f"  rays whose triangle differs: {len(differ)} {verdicts}")
    for kind in sorted(verdicts):
        gaps = [g for *_, v, g in listed if v == kind]
        print(f"    {kind}: {len(gaps)}, largest relative gap {max(gaps):.3g}")
    for i, ours, theirs, v, gap in listed[:10]:
        print(f"    ray {i}: clash {ours}, embree {theirs}: {v} (gap {gap:.3g})")
    summary = {
        "mesh": str(args.mesh), "triangles": int(len(tris)), "rays": n,
        "embree_s": e_time, "embree_triangle_only_s": e_time_id,
        "clash_s": {str(k): v for k, v in times.items()},
        "differ": listed, "verdicts": verdicts,
    }
    (args.out / f"{args.mesh.stem}_summary.json").write_text(json.dumps(summary, indent=1))
    wrong = ("embree", "neither hits")
    if any(verdicts.get(k, 0) for k in wrong):
        raise SystemExit("clash's answer is not the exact one on some rays (listed above)")


if __name__ == "__main__":
    main()
