#!/usr/bin/env python3
"""Any-contact collision from Python: clash's one batch call against
python-fcl's and coal's per-pose loops, on the same meshes and poses.

    bash benches/compare/python_batch.sh [-n 10000] [--repeat 5] [--mesh PATH ...]

Each mesh is collided with a copy of itself under ``-n`` poses (a random
rotation about the mesh centre and a shift of 1.2 half-diagonals in a random
direction, as ``large_mesh.py`` makes them: about 40% collide). Every time is
per pose and includes all Python overhead: clash's is one
``clash.collide(a, a, poses, threads=T)`` call on the ``(N, 4, 4)`` array
(T = 1 and 2); the peers' are Python loops over the poses. Two loops each:
``prebuilt`` (the transform objects made beforehand, only the collide call
in the loop: the peers' best case, as ``large_mesh.py`` times them) and
``loop`` (the transform made from the array in the loop, as a user writes
it). Agreement is counted on every pose.

Python overhead of the batch call, two ways: (1) ``clash collide --any
--threads 1`` (the Rust API on the same file, trees and poses; its own batch
timer) subtracted from the Python call's time; (2) the same call on poses
that move the copy far away (each query is one root volume test), an upper
bound on the overhead per pose.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import time

import numpy as np

import clash
import coal
import fcl
import trimesh
from peer_models import coal_obbrss, fcl_obbrss

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.abspath(os.path.join(here, "..", ".."))
shared = os.path.join(repo, "..", "shared", "meshes")
default_meshes = [
    p for p in [os.path.join(shared, "bunny.stl"), os.path.join(repo, "data", "meshes", "dog_sacrum.stl"),
                os.path.join(repo, "data", "meshes", "panda_link6.stl"),
                os.path.join(repo, "data", "meshes", "bunny_lo.stl")]
    if os.path.exists(p)
][:3]
ap = argparse.ArgumentParser()
ap.add_argument("--mesh", action="append", help="a binary STL (repeatable); default: the 56k bunny, "
                "dog_sacrum, panda_link6")
ap.add_argument("-n", type=int, default=10000)
ap.add_argument("--repeat", type=int, default=5, help="timings are the fastest of this many runs")
ap.add_argument("--clash-cli", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(repo, "target")),
                                                    "release", "clash"))
ap.add_argument("--out", default=os.path.join(here, "out", "python_batch"))
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)


def best(f, repeat=args.repeat):
    """The fastest of ``repeat`` runs of ``f()``: (seconds, last result)."""
    t, out = None, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        dt = time.perf_counter() - t0
        t = dt if t is None else min(t, dt)
    return t, out


def make_poses(V, n, seed=7):
    """(n, 4, 4) poses of a copy of the mesh: rotated about the centre of its
    box, shifted by 1.2 half-diagonals in a random direction."""
    rng = np.random.default_rng(seed)
    lo, hi = V.min(axis=0), V.max(axis=0)
    center, half_diag = (lo + hi) / 2, np.linalg.norm(hi - lo) / 2
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    R = np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], 1)
    u = rng.normal(size=(n, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    poses = np.tile(np.eye(4), (n, 1, 1))
    poses[:, :3, :3] = R
    poses[:, :3, 3] = center + u * half_diag * 1.2 - np.einsum("nij,j->ni", R, center)
    return poses


def cli_seconds(mesh_path, poses):
    """The ``clash`` command's own batch time (the Rust API) for the poses."""
    if not os.path.exists(args.clash_cli):
        return None
    path = os.path.join(args.out, "poses.txt")
    with open(path, "w") as f:
        for p in poses:
            f.write(" ".join(repr(float(v)) for v in p[:3].ravel()) + "\n")
    t = None
    for _ in range(args.repeat):
        r = subprocess.run([args.clash_cli, "collide", mesh_path, mesh_path, "--poses", path, "--any",
                            "--threads", "1"], capture_output=True, text=True, check=True)
        line = [x for x in r.stderr.splitlines() if x.startswith("collide:")][-1]
        s = float(line.split(" in ")[1].split(" s ")[0])
        t = s if t is None else min(t, s)
    return t


us = 1e6
print(f"{args.n} poses per mesh, fastest of {args.repeat} runs, times per pose in microseconds, "
      f"all Python overhead included")
for path in args.mesh or default_meshes:
    m = trimesh.load(path, process=False)
    V, F = np.asarray(m.vertices, dtype=np.float64), np.asarray(m.faces, dtype=np.int64)
    n = args.n
    poses = make_poses(V, n)
    name = os.path.basename(path)

    tree = clash.Tree.build(path)                      # OBB, median split: the CLI's collide default
    tight = clash.Tree.build(path, tight_above=128)
    t1, hits = best(lambda: clash.collide(tree, tree, poses, threads=1))
    t2, hits2 = best(lambda: clash.collide(tree, tree, poses, threads=2))
    tt1, hits_t = best(lambda: clash.collide(tight, tight, poses, threads=1))
    tt2, _ = best(lambda: clash.collide(tight, tight, poses, threads=2))
    assert (hits == hits2).all() and (hits == hits_t).all()

    fa, fb = fcl_obbrss(V, F), fcl_obbrss(V, F)
    oa = fcl.CollisionObject(fa, fcl.Transform())
    req = fcl.CollisionRequest(num_max_contacts=1, enable_contact=False)
    objs = [fcl.CollisionObject(fb, fcl.Transform(p[:3, :3], p[:3, 3])) for p in poses]
    f_pre, fcl_hits = best(lambda: [fcl.collide(oa, o, req, fcl.CollisionResult()) > 0 for o in objs])
    ob = fcl.CollisionObject(fb, fcl.Transform())

    def fcl_loop():
        out = []
        for p in poses:
            ob.setTransform(fcl.Transform(p[:3, :3], p[:3, 3]))
            out.append(fcl.collide(oa, ob, req, fcl.CollisionResult()) > 0)
        return out

    f_loop, fcl_hits2 = best(fcl_loop)

    ga, gb, I = coal_obbrss(V, F), coal_obbrss(V, F), coal.Transform3s()
    creq = coal.CollisionRequest(coal.CollisionRequestFlag.NO_REQUEST, 1)
    tfs = [coal.Transform3s(p[:3, :3].copy(), p[:3, 3].copy()) for p in poses]

    def coal_collide(tf):
        res = coal.CollisionResult()
        coal.collide(ga, I, gb, tf, creq, res)
        return res.isCollision()

    c_pre, coal_hits = best(lambda: [coal_collide(tf) for tf in tfs])
    c_loop, coal_hits2 = best(lambda: [coal_collide(coal.Transform3s(p[:3, :3], p[:3, 3])) for p in poses])

    far = poses.copy()
    far[:, :3, 3] += 1e3 * (V.max(axis=0) - V.min(axis=0)).max()
    t_far, far_hits = best(lambda: clash.collide(tree, tree, far, threads=1))
    assert not far_hits.any()
    t_one, _ = best(lambda: clash.collide(tree, tree, poses[:1], threads=1), repeat=200)
    t_rust = cli_seconds(path, poses)

    agree_f = int((hits == np.array(fcl_hits)).sum()), int((hits == np.array(fcl_hits2)).sum())
    agree_c = int((hits == np.array(coal_hits)).sum()), int((hits == np.array(coal_hits2)).sum())
    print(f"\n{name}: {len(F)} triangles, {int(hits.sum())} of {n} poses collide")
    print(f"  clash batch, OBB:          1 thread {t1 / n * us:6.2f}   2 threads {t2 / n * us:6.2f}")
    print(f"  clash batch, tight_above=128: 1 thread {tt1 / n * us:6.2f}   2 threads {tt2 / n * us:6.2f}")
    print(f"  python-fcl loop: prebuilt {f_pre / n * us:6.2f}   transform in loop {f_loop / n * us:6.2f}")
    print(f"  coal loop:       prebuilt {c_pre / n * us:6.2f}   transform in loop {c_loop / n * us:6.2f}")
    print(f"  ratios to python-fcl prebuilt (its best case): clash 1 thread {f_pre / t1:.2f}x, "
          f"2 threads {f_pre / t2:.2f}x; tight_above 1 thread {f_pre / tt1:.2f}x, 2 threads {f_pre / tt2:.2f}x")
    print(f"  ratios to coal prebuilt: clash 1 thread {c_pre / t1:.2f}x, 2 threads {c_pre / t2:.2f}x")
    print(f"  agreement with clash: python-fcl {agree_f[0]}/{n} and {agree_f[1]}/{n}, "
          f"coal {agree_c[0]}/{n} and {agree_c[1]}/{n}")
    print(f"  overhead: one-pose call {t_one * us:.1f} us in all; far-apart poses {t_far / n * us:.3f} us per pose "
          f"(overhead + one root test)", end="")
    if t_rust is not None:
        print(f"; Rust API (clash collide --threads 1) {t_rust / n * us:.2f} us per pose, "
              f"batch call minus it {(t1 - t_rust) / n * us:+.3f} us per pose")
    else:
        print()
