"""Time python-fcl's OBBRSS BVHModel build of a mesh (loaded with trimesh,
which merges duplicate vertices), the fastest of --repeat builds, for the
build ratio against `clash build ... --threads 1`; with `--coal`, coal's
OBBRSS build of the same arrays too, and with `--coal-cpp` coal's C++
builds of OBB, RSS and OBBRSS trees (`coal_build.cpp`, like for like with
clash's OBB and RSS trees; python-fcl offers only OBBRSS models).

    benches/compare/.venv/bin/python benches/compare/fcl_build.py ../shared/meshes/bunny.stl
    benches/compare/.venv/bin/python benches/compare/fcl_build.py ellipsoid

`ellipsoid` is the benches' generated ellipsoid (`build_profile ellipsoid`):
500 rings of 1,000 segments, 1,000,000 triangles, the same formula in f32
(the poles' repeated vertices merged).
"""
import argparse, time
import coal, numpy as np, trimesh
from peer_models import coal_cpp_command, coal_obbrss, fcl_obbrss

ap = argparse.ArgumentParser()
ap.add_argument("mesh")
ap.add_argument("--repeat", type=int, default=3)
ap.add_argument("--coal", action="store_true", help="also time coal's OBBRSS build (coal.BVHModelOBBRSS)")
ap.add_argument("--coal-cpp", action="store_true",
                help="also time coal's own C++ OBB, RSS and OBBRSS builds (coal_build.cpp, compiled on first use)")
args = ap.parse_args()
if args.mesh == "ellipsoid":
    rings, segments = 500, 1000
    # nalgebra's Rotation3::from_euler_angles(0.3, 0.5, 0.7): Rz(0.7) Ry(0.5) Rx(0.3).
    def rot(axis, a):
        c, s = np.cos(a), np.sin(a)
        return np.array({0: [[1, 0, 0], [0, c, -s], [0, s, c]],
                         1: [[c, 0, s], [0, 1, 0], [-s, 0, c]],
                         2: [[c, -s, 0], [s, c, 0], [0, 0, 1]]}[axis], dtype=np.float32)
    R = rot(2, 0.7) @ rot(1, 0.5) @ rot(0, 0.3)
    th = (np.pi * np.arange(rings + 1) / rings).astype(np.float32)[:, None]
    ph = (2 * np.pi * np.arange(segments) / segments).astype(np.float32)[None, :]
    P = np.stack([2 * np.sin(th) * np.cos(ph), np.sin(th) * np.sin(ph),
                  0.5 * np.cos(th) * np.ones_like(ph)], axis=-1).reshape(-1, 3) @ R.T
    idx = lambda i, j: i * segments + j % segments
    i, j = np.meshgrid(np.arange(rings), np.arange(segments), indexing="ij")
    a, b, c, d = idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1)
    # Per cell, the triangles (a, b, c) then (a, c, d), cells in ring order.
    F = np.stack([np.stack([a, b, c], -1), np.stack([a, c, d], -1)], axis=2)
    m = trimesh.Trimesh(P.astype(np.float64), F.reshape(-1, 3), process=True)
else:
    m = trimesh.load(args.mesh)
V = np.asarray(m.vertices, dtype=np.float64)
F = np.asarray(m.faces, dtype=np.int32)


for name, build in [("FCL", fcl_obbrss), ("coal", coal_obbrss)][: 2 if args.coal else 1]:
    best = None
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        b = build(V, F)
        dt = time.perf_counter() - t0
        # The build alone: the model is freed after the clock stops (as
        # build_profile drops its trees), not inside the next build's timing.
        del b
        best = dt if best is None else min(best, dt)
    print(f"{name} OBBRSS build of {len(F)} triangles ({len(V)} vertices): {best * 1e3:.0f} ms (fastest of {args.repeat})", flush=True)

if args.coal_cpp:
    import os, subprocess, sys
    here = os.path.dirname(os.path.abspath(__file__))
    exe = os.path.join(here, "out", "coal_build")
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    src = os.path.join(here, "coal_build.cpp")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        subprocess.run(coal_cpp_command(src, exe), check=True)
    dump = os.path.join(here, "out", "mesh.bin")
    with open(dump, "wb") as f:
        f.write(np.array([len(V), len(F)], dtype=np.uint64).tobytes())
        f.write(np.ascontiguousarray(V, dtype=np.float64).tobytes())
        f.write(np.ascontiguousarray(F, dtype=np.int32).tobytes())
    subprocess.run([exe, dump, str(args.repeat)], check=True)
