"""Per-pose Python overhead of ``clash.collide``: the batch call on N
far-apart poses with random rotations (each query is one root volume test)
against the ``clash collide --any --threads 1`` command's own batch timer
on the same poses, best of 15 calls and 9 runs.

    .venv/bin/python python_overhead.py MESH CLASH_BINARY [N=10000]

Uses the wheel and the release binary that ``python_batch.sh`` builds.
"""
import subprocess, sys, time

import numpy as np

import clash

mesh, cli = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
m = clash.Mesh.load(mesh); tree = clash.Tree.build(m, bv="obb")
rng = np.random.default_rng(1)
q = rng.normal(size=(n, 4)); q /= np.linalg.norm(q, axis=1)[:, None]
w, x, y, z = q.T
R = np.stack([1-2*(y*y+z*z), 2*(x*y-z*w), 2*(x*z+y*w), 2*(x*y+z*w), 1-2*(x*x+z*z), 2*(y*z-x*w), 2*(x*z-y*w), 2*(y*z+x*w), 1-2*(x*x+y*y)], 1).reshape(n, 3, 3)
far = np.tile(np.eye(4), (n, 1, 1)); far[:, :3, :3] = R
far[:, :3, 3] = rng.normal(size=(n, 3)) * 1e3 + 1e4
def best(f, k=15):
    t = 1e9
    for _ in range(k):
        s = time.perf_counter(); f(); t = min(t, time.perf_counter() - s)
    return t
tp = best(lambda: clash.collide(tree, tree, far, threads=1))
path = "/tmp/clash_far_poses.txt"
with open(path, "w") as f:
    for p in far: f.write(" ".join(repr(float(v)) for v in p[:3].ravel()) + "\n")
tc = None
for _ in range(9):
    r = subprocess.run([cli, "collide", mesh, mesh, "--poses", path, "--any", "--threads", "1"], capture_output=True, text=True, check=True)
    line = [x for x in r.stderr.splitlines() if x.startswith("collide:")][-1]
    s = float(line.split(" in ")[1].split(" s ")[0]); tc = s if tc is None else min(tc, s)
print(f"{mesh.split('/')[-1]} n={n} rotated: python {tp/n*1e6:.4f} us/pose, rust {tc/n*1e6:.4f}, overhead {(tp-tc)/n*1e6:.4f}")
