#!/usr/bin/env bash
# Compare python-fcl, coal and the clash CLI on the same meshes and poses.
#
#   bash benches/compare/run.sh [compare.py options]     (from any directory)
#
# Creates benches/compare/.venv (once), installs pinned python-fcl, coal,
# trimesh, numpy and embreex into it, builds `clash` (cargo build --release -p
# clash-cli; honours CARGO_TARGET_DIR) and runs compare.py.  Output goes to
# benches/compare/out/ (poses.txt, clash logs, summary.json).
#
# Environment: PYTHON (default python3, needs >= 3.10), SKIP_BUILD=1 to use an
# existing binary, CLASH=/path/to/clash to use a specific binary.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
VENV="$HERE/.venv"
PYTHON="${PYTHON:-python3}"

PINS=(
  "python-fcl==0.7.0.11"
  "coal==3.0.3"
  "trimesh==4.12.2"
  "numpy==2.4.6"
  "embreex==4.4.0.post1"
)

if [[ ! -x "$VENV/bin/python" ]]; then
  echo "==> creating virtualenv $VENV" >&2
  "$PYTHON" -m venv "$VENV"
fi
# install only when a pin is missing (fast on re-runs)
if ! "$VENV/bin/python" - "${PINS[@]}" <<'PY' 2>/dev/null; then
import sys
from importlib.metadata import version
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    if version(name) != want:
        sys.exit(1)
PY
  echo "==> installing ${PINS[*]}" >&2
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  "$VENV/bin/python" -m pip install --quiet "${PINS[@]}"
fi

TARGET="${CARGO_TARGET_DIR:-$REPO/target}"
BIN="${CLASH:-$TARGET/release/clash}"
if [[ -z "${CLASH:-}" && "${SKIP_BUILD:-0}" != "1" ]]; then
  echo "==> cargo build --release -p clash-collision-cli (target dir $TARGET)" >&2
  (cd "$REPO" && cargo build --release -p clash-collision-cli)
fi
if [[ ! -x "$BIN" ]]; then
  echo "clash binary not found at $BIN" >&2
  exit 1
fi

# one thread everywhere: the peers are single-threaded, clash gets --threads 1
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 RAYON_NUM_THREADS=1

echo "==> compare.py $*" >&2
exec "$VENV/bin/python" "$HERE/compare.py" --clash "$BIN" "$@"
