#!/usr/bin/env python3
"""Any-contact collision and distance on one large mesh against itself:
the `clash` command (one thread) against python-fcl and coal (OBBRSS
models, from Python), on the same pose files, with the time per query of
each and the agreement.

    benches/compare/.venv/bin/python benches/compare/large_mesh.py \
        [--mesh ../shared/meshes/bunny.stl] [--clash target/release/clash]

Collision poses: a copy rotated at random about the mesh centre and shifted
by 1.2 half-diagonals in a random direction (about 40% collide). Distance
poses: rotated at random and shifted by 1.2 to 2 mesh sizes (separated).
Any-contact runs twice for clash: OBB trees with the default fit (the tight
fit on nodes of 128 triangles or more), and with the basic fit
(`--basic-fit`, the quickest build).
Timings are the fastest of `--repeat` runs; FCL's and coal's include the
Python call (about 1 µs, measured and printed)."""
import argparse, json, os, subprocess, sys, time
import numpy as np
import coal, fcl, trimesh
from peer_models import coal_obbrss, fcl_obbrss

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.abspath(os.path.join(here, "..", ".."))
ap = argparse.ArgumentParser()
ap.add_argument("--mesh", default=os.path.join(repo, "..", "shared", "meshes", "bunny.stl"))
ap.add_argument("--clash", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(repo, "target")), "release", "clash"))
ap.add_argument("-n", type=int, default=10000, help="collision poses (distance uses n/50)")
ap.add_argument("--repeat", type=int, default=3)
ap.add_argument("--split", default=None, help="clash's split rule (median, mean, sah); default: the CLI's")
ap.add_argument("--out", default=os.path.join(here, "out", "large"))
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)

mesh = trimesh.load(args.mesh, process=False)
V = np.asarray(mesh.vertices, dtype=np.float64)
F = np.asarray(mesh.faces, dtype=np.int64)
lo, hi = V.min(axis=0), V.max(axis=0)
center, half_diag = (lo + hi) / 2, np.linalg.norm(hi - lo) / 2
rng = np.random.default_rng(7)

def random_rotation():
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])

def unit():
    v = rng.normal(size=3)
    return v / np.linalg.norm(v)

def write(path, poses):
    with open(path, "w") as f:
        for R, t in poses:
            f.write(" ".join(repr(float(v)) for row in range(3) for v in (*R[row], t[row])) + "\n")

collide_poses, distance_poses = [], []
for _ in range(args.n):
    R = random_rotation()
    collide_poses.append((R, center + unit() * half_diag * 1.2 - R @ center))
for _ in range(max(args.n // 50, 1)):
    R = random_rotation()
    distance_poses.append((R, center + unit() * 2 * half_diag * rng.uniform(1.2, 2.0) - R @ center))
cpath, dpath = os.path.join(args.out, "collide_poses.txt"), os.path.join(args.out, "distance_poses.txt")
write(cpath, collide_poses)
write(dpath, distance_poses)

def clash(cmd, poses_path, extra):
    best, lines = None, None
    for _ in range(args.repeat):
        p = subprocess.run([args.clash, cmd, args.mesh, args.mesh, "--poses", poses_path, "--threads", "1", *extra,
                            *(["--split", args.split] if args.split else [])],
                           capture_output=True, text=True, check=True)
        summary = [l for l in p.stderr.splitlines() if l.startswith(cmd + ":")][-1]
        secs = float(summary.split(" in ")[1].split(" s ")[0])
        best = secs if best is None else min(best, secs)
        lines = [json.loads(l) for l in p.stdout.splitlines()]
    return best, lines

t0 = time.perf_counter()
fa = fcl_obbrss(V, F)
fcl_build = time.perf_counter() - t0
fb = fcl_obbrss(V, F)
oa = fcl.CollisionObject(fa, fcl.Transform())

def fcl_objects(poses):
    return [fcl.CollisionObject(fb, fcl.Transform(R, t)) for R, t in poses]

def timed(f, objs):
    best, out = None, None
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        out = [f(o) for o in objs]
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best, out

creq = fcl.CollisionRequest(num_max_contacts=1, enable_contact=False)
dreq = fcl.DistanceRequest(enable_nearest_points=True)
fcl_c, fcl_hits = timed(lambda o: fcl.collide(oa, o, creq, fcl.CollisionResult()) > 0, fcl_objects(collide_poses))
fcl_d, fcl_dist = timed(lambda o: fcl.distance(oa, o, dreq, fcl.DistanceResult()), fcl_objects(distance_poses))
b1 = fcl.CollisionObject(fcl.Box(1e-3, 1e-3, 1e-3), fcl.Transform())
b2 = fcl.CollisionObject(fcl.Box(1e-3, 1e-3, 1e-3), fcl.Transform(np.array([1.0, 0.0, 0.0])))
overhead, _ = timed(lambda o: fcl.collide(b1, o, creq, fcl.CollisionResult()), [b2] * 10000)

# coal, the same models (OBBRSS) and poses.
ga, gb, I = coal_obbrss(V, F), coal_obbrss(V, F), coal.Transform3s()
coal_tfs = lambda poses: [coal.Transform3s(R.copy(), np.asarray(t, dtype=np.float64).copy()) for R, t in poses]
ccreq = coal.CollisionRequest(coal.CollisionRequestFlag.NO_REQUEST, 1)
cdreq = coal.DistanceRequest()

def coal_collide(tf):
    res = coal.CollisionResult()
    coal.collide(ga, I, gb, tf, ccreq, res)
    return bool(res.isCollision())

coal_c, coal_hits = timed(coal_collide, coal_tfs(collide_poses))
coal_d, coal_dist = timed(lambda tf: float(coal.distance(ga, I, gb, tf, cdreq, coal.DistanceResult())),
                          coal_tfs(distance_poses))
cb = coal.Box(1e-3, 1e-3, 1e-3)
cb2 = coal.Transform3s(np.eye(3), np.array([1.0, 0.0, 0.0]))
coal_overhead, _ = timed(lambda tf: coal.collide(cb, I, cb, tf, ccreq, coal.CollisionResult()), [cb2] * 10000)

cl_c, cl_hits = clash("collide", cpath, ["--any"])
cl_t, cl_t_hits = clash("collide", cpath, ["--any", "--basic-fit"])
cl_d, cl_dist = clash("distance", dpath, ["--bv", "rss"])
agree_c = sum(1 for a, b in zip(fcl_hits, cl_hits) if a == b["collide"])
scale = 2 * half_diag
worst_d = max(abs(a - b["distance"]) for a, b in zip(fcl_dist, cl_dist)) / scale

nc, nd = len(collide_poses), len(distance_poses)
print(f"mesh {os.path.basename(args.mesh)}: {len(F)} triangles; FCL OBBRSS build {fcl_build * 1e3:.0f} ms")
# FCL's time per pose includes the Python call (measured on two tiny boxes,
# which also pays a small box/box test): the ratio "net of the call" takes
# it out, which favours FCL slightly.
fcl_net = fcl_c - overhead / 10000 * nc
print(f"any-contact, {nc} poses ({sum(fcl_hits)} collide): clash OBB f64 {cl_c / nc * 1e6:.2f} us, "
      f"FCL {fcl_c / nc * 1e6:.2f} us per pose -> clash {fcl_c / cl_c:.2f}x "
      f"({fcl_net / cl_c:.2f}x net of the Python call); agree on {agree_c}/{nc}")
agree_t = sum(1 for a, b in zip(fcl_hits, cl_t_hits) if a == b["collide"])
print(f"any-contact, same poses, clash OBB f64 with --basic-fit: {cl_t / nc * 1e6:.2f} us per pose "
      f"-> clash {fcl_c / cl_t:.2f}x ({fcl_net / cl_t:.2f}x net); agree on {agree_t}/{nc}")
print(f"distance, {nd} separated poses: clash RSS f64 {cl_d / nd * 1e3:.3f} ms, FCL {fcl_d / nd * 1e3:.3f} ms "
      f"per query -> clash {fcl_d / cl_d:.2f}x; largest difference {worst_d:.1e} of the mesh size")
print(f"python call overhead (FCL, two tiny boxes): {overhead / 10000 * 1e6:.2f} us")
coal_net = coal_c - coal_overhead / 10000 * nc
agree_coal = sum(1 for a, b in zip(coal_hits, cl_hits) if a == b["collide"])
worst_coal = max(abs(a - b["distance"]) for a, b in zip(coal_dist, cl_dist)) / scale
print(f"coal, same poses: any-contact {coal_c / nc * 1e6:.2f} us per pose -> clash {coal_c / cl_c:.2f}x "
      f"({coal_net / cl_c:.2f}x net of the Python call, {coal_overhead / 10000 * 1e6:.2f} us); agree on {agree_coal}/{nc}; "
      f"distance {coal_d / nd * 1e3:.3f} ms per query -> clash {coal_d / cl_d:.2f}x; "
      f"largest difference {worst_coal:.1e} of the mesh size")
