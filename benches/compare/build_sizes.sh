#!/bin/bash
# The OBB/RSS build against FCL and coal by mesh size, one thread:
# python-fcl's and coal's OBBRSS builds and coal's own C++ OBB, RSS and
# OBBRSS builds (fcl_build.py --coal --coal-cpp, fastest of R), then clash's
# OBB and RSS builds (build_profile, fastest of N) on the same mesh: three
# shared meshes (34k to 174k triangles), the benches' 1M-triangle
# ellipsoid, and gr1_torso subdivided to 1.39M triangles (subdivide.py;
# the issue quotes FCL and coal at 1.3M).
#
#     bash benches/compare/build_sizes.sh      (after benches/compare/run.sh has made .venv)
set -e
cd "$(dirname "$0")/../.."
cargo build --release -p clash-benches --example build_profile
B=./target/release/examples/build_profile
PY=benches/compare/.venv/bin/python
X8=benches/compare/out/torso_x8.stl
[ -f "$X8" ] || $PY benches/compare/subdivide.py ../shared/meshes/gr1_torso.stl "$X8"
for m in ../shared/meshes/dog_skin.stl ../shared/meshes/bunny.stl ../shared/meshes/gr1_torso.stl ellipsoid "$X8"; do
  case "$m" in ellipsoid|"$X8") r=2; n=3 ;; *) r=5; n=15 ;; esac
  $PY benches/compare/fcl_build.py "$m" --repeat $r --coal --coal-cpp
  $B "$m" obb $n | grep fastest
  $B "$m" rss $n | grep fastest
done
