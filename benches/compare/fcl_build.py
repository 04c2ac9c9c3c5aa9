"""Time python-fcl's OBBRSS BVHModel build of a mesh (loaded with trimesh,
which merges duplicate vertices), the fastest of --repeat builds, for the
build ratio against `clash build ... --threads 1`.

    benches/compare/.venv/bin/python benches/compare/fcl_build.py ../shared/meshes/bunny.stl
"""
import argparse, time
import fcl, numpy as np, trimesh

ap = argparse.ArgumentParser()
ap.add_argument("mesh")
ap.add_argument("--repeat", type=int, default=3)
args = ap.parse_args()
m = trimesh.load(args.mesh)
V = np.asarray(m.vertices, dtype=np.float64)
F = np.asarray(m.faces, dtype=np.int32)
best = None
for _ in range(args.repeat):
    t0 = time.perf_counter()
    b = fcl.BVHModel()
    b.beginModel(len(V), len(F))
    b.addSubModel(V, F)
    b.endModel()
    dt = time.perf_counter() - t0
    best = dt if best is None else min(best, dt)
print(f"FCL OBBRSS build of {len(F)} triangles ({len(V)} vertices): {best * 1e3:.0f} ms (fastest of {args.repeat})")
