"""Write a large binary STL made from a scan, for the build ratio against
FCL at the size the issue quotes (1.3M triangles): every triangle split
1-to-4 at its edge midpoints, then each of the four halved across its
longest edge (x8: gr1_torso's 173,632 triangles become 1,389,056). A
triangle's eight children follow each other in the parent's place, so the
scan's own triangle order is kept at a finer grain. Both `fcl_build.py`
and `build_profile` then read the same file.

    benches/compare/.venv/bin/python benches/compare/subdivide.py \
        ../shared/meshes/gr1_torso.stl benches/compare/out/torso_x8.stl
"""
import sys
import numpy as np

src, dst = sys.argv[1], sys.argv[2]
raw = open(src, "rb").read()
n = int.from_bytes(raw[80:84], "little")
rec = np.dtype([("normal", "<f4", 3), ("v", "<f4", (3, 3)), ("attr", "<u2")])
tris = np.frombuffer(raw, dtype=rec, count=n, offset=84)["v"].astype(np.float64)
a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
ab, bc, ca = (a + b) / 2, (b + c) / 2, (c + a) / 2
# 1-to-4, the four children of a triangle adjacent.
four = np.stack([np.stack(t, 1) for t in ((a, ab, ca), (ab, b, bc), (ca, bc, c), (ab, bc, ca))], 1)
four = four.reshape(-1, 3, 3)
# Each halved across its longest edge: corners rotated so that edge is (p, q).
p, q, r = four[:, 0], four[:, 1], four[:, 2]
lens = np.stack([np.linalg.norm(q - p, axis=1), np.linalg.norm(r - q, axis=1), np.linalg.norm(p - r, axis=1)], 1)
k = lens.argmax(1)
rot = np.stack([four[np.arange(len(four)), (k + j) % 3] for j in range(3)], 1)
p, q, r = rot[:, 0], rot[:, 1], rot[:, 2]
m = (p + q) / 2
eight = np.stack([np.stack((p, m, r), 1), np.stack((m, q, r), 1)], 1).reshape(-1, 3, 3)
out = np.zeros(len(eight), dtype=rec)
out["v"] = eight.astype(np.float32)
with open(dst, "wb") as f:
    f.write(b"clash benches: subdivided x8".ljust(80, b" "))
    f.write(len(eight).to_bytes(4, "little"))
    f.write(out.tobytes())
print(f"{dst}: {len(eight)} triangles")
