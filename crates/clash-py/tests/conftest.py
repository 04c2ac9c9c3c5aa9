"""Shared fixtures of the Python tests: meshes (generated, and the repo's
small real ones), poses with exact touching cases, and the Rust reference
program (``examples/reference.rs``), built once per session with cargo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
MESHES = REPO / "data" / "meshes"
BVS = ["aabb", "obb", "rss", "sphere", "capsule", "kdop14", "kdop18", "kdop26"]
PRECISIONS = ["f64", "f32"]

# The exact rational triangle tests of the comparison benches: an oracle
# that shares no code with clash.
sys.path.insert(0, str(REPO / "benches" / "compare"))


def cube(size: float = 1.0):
    """A closed axis-aligned cube ``[0, size]^3``: 8 vertices, 12 triangles
    wound outwards."""
    v = np.array([[(i & 1), (i >> 1) & 1, (i >> 2) & 1] for i in range(8)], dtype=np.float64) * size
    f = np.array(
        [[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4],
         [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]],
        dtype=np.int64,
    )
    return v, f


def icosahedron(radius: float = 1.0):
    """A closed icosahedron: 12 vertices, 20 triangles wound outwards."""
    p = (1 + 5 ** 0.5) / 2
    v = np.array(
        [[-1, p, 0], [1, p, 0], [-1, -p, 0], [1, -p, 0], [0, -1, p], [0, 1, p],
         [0, -1, -p], [0, 1, -p], [p, 0, -1], [p, 0, 1], [-p, 0, -1], [-p, 0, 1]],
        dtype=np.float64,
    )
    v *= radius / np.linalg.norm(v[0])
    f = np.array(
        [[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4],
         [11, 10, 2], [10, 7, 6], [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8],
         [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1]],
        dtype=np.int64,
    )
    return v, f


def random_rotations(rng, n):
    """``n`` uniform rotations as float64 matrices (normalised Gaussian
    quaternions)."""
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
            np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
            np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1),
        ],
        1,
    )


def poses_around(rng, n, spread, center=(0.0, 0.0, 0.0)):
    """``n`` (N, 4, 4) poses: random rotations, translations uniform in a
    cube of half-width ``spread`` about ``center``."""
    p = np.tile(np.eye(4), (n, 1, 1))
    p[:, :3, :3] = random_rotations(rng, n)
    p[:, :3, 3] = np.asarray(center) + rng.uniform(-spread, spread, size=(n, 3))
    return p


def touching_poses_of_unit_cubes():
    """Exactly touching placements of one unit cube against another: face,
    edge and corner contact, a quarter turn, and the same a hair apart
    (2^-30)."""
    out = []
    quarter = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    for r, t in [
        (np.eye(3), (1.0, 0.0, 0.0)),           # face to face
        (np.eye(3), (1.0, 1.0, 0.0)),           # edge to edge
        (np.eye(3), (1.0, 1.0, 1.0)),           # corner to corner
        (quarter, (2.0, 0.0, 0.0)),             # a quarter turn, face to face
        (np.eye(3), (1.0 + 2.0 ** -30, 0.0, 0.0)),  # a hair apart
        (np.eye(3), (1.0, 1.0, 1.0 + 2.0 ** -30)),
        (np.eye(3), (0.5, 0.25, 0.0)),          # overlapping
    ]:
        p = np.eye(4)
        p[:3, :3] = r
        p[:3, 3] = t
        out.append(p)
    return np.array(out)


def write_obj(path: Path, v: np.ndarray, f: np.ndarray) -> Path:
    """An OBJ file of the mesh, coordinates in shortest round-trip form."""
    with open(path, "w") as out:
        for p in v:
            out.write("v " + " ".join(repr(float(c)) for c in p) + "\n")
        for t in f:
            out.write("f " + " ".join(str(int(i) + 1) for i in t) + "\n")
    return path


def write_rows(path: Path, rows: np.ndarray) -> Path:
    """One row of numbers per line, in shortest round-trip form."""
    with open(path, "w") as out:
        for r in rows:
            out.write(" ".join(repr(float(c)) for c in np.ravel(r)) + "\n")
    return path


def extension_build_env() -> dict:
    """The environment maturin builds the extension in (a Python extension
    build: no libpython linked), so that cargo reuses that build's
    artifacts for the reference program rather than building pyo3 and this
    crate again. A difference only costs a rebuild."""
    env = dict(os.environ, PYO3_BUILD_EXTENSION_MODULE="1", PYO3_PYTHON=sys.executable,
               PYTHON_SYS_EXECUTABLE=sys.executable,
               PYO3_ENVIRONMENT_SIGNATURE=f"cpython-{sys.version_info[0]}.{sys.version_info[1]}-64bit")
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    configs = sorted((target / "maturin").glob(
        f"pyo3-config-*-{sys.version_info[0]}.{sys.version_info[1]}-abi3.txt"))
    if configs:
        env["PYO3_CONFIG_FILE"] = str(configs[0])
    return env


@pytest.fixture(scope="session")
def reference_binary() -> Path:
    """The Rust reference program: ``$CLASH_REFERENCE`` if set, else built
    with cargo at the profile CI builds the package with."""
    given = os.environ.get("CLASH_REFERENCE")
    if given:
        return Path(given)
    out = subprocess.run(
        ["cargo", "build", "--profile", "python-ci", "-p", "clash-py", "--example", "reference",
         "--message-format=json"],
        cwd=REPO, env=extension_build_env(), check=True, capture_output=True, text=True,
    ).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "reference":
            return Path(msg["executable"])
    raise RuntimeError("cargo built no reference executable")


@pytest.fixture
def reference(reference_binary, tmp_path):
    """``reference(query, bv, precision, mesh_a, mesh_b, rows, *extra,
    split=..., leaf_size=...)``: the reference program's answer lines."""

    def run(query, bv, precision, mesh_a, mesh_b, rows, *extra, split="median", leaf_size=1):
        rows_file = write_rows(tmp_path / "input.txt", rows)
        args = [str(reference_binary), query, bv, precision, split, str(leaf_size),
                str(mesh_a), str(mesh_b) if mesh_b else "-", str(rows_file), *map(str, extra)]
        p = subprocess.run(args, check=True, capture_output=True, text=True)
        return p.stdout.splitlines()

    return run


@pytest.fixture(scope="session")
def rng_seed():
    return 20261127
