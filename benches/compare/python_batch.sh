#!/usr/bin/env bash
# clash's Python batch call against python-fcl's and coal's Python loops.
#
#   bash benches/compare/python_batch.sh [python_batch.py options]   (from any directory)
#
# Uses the venv of run.sh (benches/compare/.venv, created with the same pins
# if missing), adds maturin to it, builds the clash wheel in release
# (crates/clash-py) and installs it there, builds the `clash` command in
# release (the Rust API's own timing, for the overhead), and runs
# python_batch.py. SKIP_BUILD=1 uses what is installed and built already.
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
  "maturin==1.16.0"
)

if [[ ! -x "$VENV/bin/python" ]]; then
  echo "==> creating virtualenv $VENV" >&2
  "$PYTHON" -m venv "$VENV"
fi
if ! "$VENV/bin/python" - "${PINS[@]}" <<'PY' 2>/dev/null; then
import sys
from importlib.metadata import version
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    if version(name) != want:
        sys.exit(1)
PY
  echo "==> installing ${PINS[*]}" >&2
  "$VENV/bin/python" -m pip install --quiet "${PINS[@]}"
fi

if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
  echo "==> maturin build --release (crates/clash-py), pip install" >&2
  DIST="$(mktemp -d)"
  "$VENV/bin/maturin" build --quiet --release --manifest-path "$REPO/crates/clash-py/Cargo.toml" \
    --interpreter "$VENV/bin/python" --out "$DIST"
  "$VENV/bin/python" -m pip install --quiet --force-reinstall --no-deps "$DIST"/clash_collision-*.whl
  rm -rf "$DIST"
  echo "==> cargo build --release -p clash-collision-cli" >&2
  (cd "$REPO" && cargo build --release -p clash-collision-cli)
fi

export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
exec "$VENV/bin/python" "$HERE/python_batch.py" "$@"
