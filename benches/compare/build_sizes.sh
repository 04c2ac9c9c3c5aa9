#!/bin/bash
# The OBB/RSS build against FCL by mesh size, one thread: python-fcl's
# OBBRSS build (fcl_build.py, fastest of R) then clash's OBB and RSS builds
# (build_profile, fastest of N) on the same mesh, for two shared meshes,
# the bunny and the benches' 1M-triangle ellipsoid.
#
#     bash benches/compare/build_sizes.sh      (after benches/compare/run.sh has made .venv)
set -e
cd "$(dirname "$0")/../.."
cargo build --release -p clash-bvh --example build_profile
B=./target/release/examples/build_profile
for m in ../shared/meshes/dog_skin.stl ../shared/meshes/bunny.stl ../shared/meshes/gr1_torso.stl ellipsoid; do
  if [ "$m" = ellipsoid ]; then r=2; n=5; else r=5; n=15; fi
  benches/compare/.venv/bin/python benches/compare/fcl_build.py "$m" --repeat $r
  $B "$m" obb $n | grep fastest
  $B "$m" rss $n | grep fastest
done
