"""Per-pose Python overhead of ``clash.collide``: the batch call on 100,000
far-apart poses (each query is one root volume test) against the ``clash
collide --any --threads 1`` command's own batch timer on the same poses.

    .venv/bin/python python_overhead.py MESH CLASH_BINARY

Uses the wheel and the release binary that ``python_batch.sh`` builds.
"""
import subprocess, time, os, sys
import numpy as np
import clash
mesh = sys.argv[1]
cli = sys.argv[2]
n = 100000
m = clash.Mesh.load(mesh)
tree = clash.Tree.build(m, bv="obb")
rng = np.random.default_rng(1)
far = np.tile(np.eye(4), (n, 1, 1))
far[:, :3, 3] = rng.normal(size=(n, 3)) * 1e3 + 1e4
def best(f, k=7):
    t = 1e9
    for _ in range(k):
        s = time.perf_counter(); f(); t = min(t, time.perf_counter() - s)
    return t
tp = best(lambda: clash.collide(tree, tree, far, threads=1))
path = "/tmp/far_poses.txt"
with open(path, "w") as f:
    for p in far:
        f.write(" ".join(repr(float(v)) for v in p[:3].ravel()) + "\n")
tc = None
for _ in range(7):
    r = subprocess.run([cli, "collide", mesh, mesh, "--poses", path, "--any", "--threads", "1"], capture_output=True, text=True, check=True)
    line = [x for x in r.stderr.splitlines() if x.startswith("collide:")][-1]
    s = float(line.split(" in ")[1].split(" s ")[0]); tc = s if tc is None else min(tc, s)
print(f"{os.path.basename(mesh)}: python call {tp/n*1e6:.4f} us/pose, rust batch {tc/n*1e6:.4f} us/pose, overhead {(tp-tc)/n*1e6:.4f} us/pose")
