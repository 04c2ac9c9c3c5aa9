#!/bin/bash
# A/B of two build_profile binaries (e.g. copies of
# target/release/examples/build_profile before and after a change):
# ROUNDS alternating rounds of the fastest of REPEATS builds each, then
# the medians and the median ratio B/A.
#
#     bash benches/compare/ab_build.sh ROUNDS REPEATS MESH obb|rss|sah BIN_A BIN_B
R=$1; N=$2; M=$3; K=$4; A=$5; B=$6
for i in $(seq "$R"); do
  a=$("$A" "$M" "$K" "$N" 2>/dev/null | grep fastest | sed -E 's/.*fastest ([0-9.]+) ms.*/\1/')
  b=$("$B" "$M" "$K" "$N" 2>/dev/null | grep fastest | sed -E 's/.*fastest ([0-9.]+) ms.*/\1/')
  echo "$a $b"
done | python3 -c '
import sys, statistics as st
rows = [tuple(map(float, l.split())) for l in sys.stdin if l.strip()]
a = [r[0] for r in rows]; b = [r[1] for r in rows]; q = [r[1] / r[0] for r in rows]
print("A", a); print("B", b)
print("median A %.2f B %.2f | min A %.2f B %.2f | median ratio B/A %.3f"
      % (st.median(a), st.median(b), min(a), min(b), st.median(q)))'
