"""python-fcl's and coal's side of `robot_compare.py`: the scene's shapes as
each peer's geometry, and the timed loops over configurations (pairwise
loop and broad-phase manager, collide and distance).

Every loop takes one chunk of configurations whose peer transforms were
built beforehand (untimed), times itself with `perf_counter`, and appends one
answer per configuration to `out`:

- collide: `(k, calls, filters)`: `k` the index in `pairs` of the colliding
  pair found (-1 if none), `calls` the narrow-phase calls made, `filters`
  the candidate pairs looked up in the pair filter (managers only);
- distance: `(d, k, calls, filters)`: the least distance (negative answers,
  i.e. "intersecting", are taken as 0) and the index of its pair.

The same loop functions also time the *floor*: the identical Python loop run
on dummy objects (tiny spheres far apart, fixed transforms) and limited to
the same number of narrow-phase calls per configuration as the real run,
so that `raw - floor` is the peer's own work (see the README).
"""

import math
import os
import subprocess
from pathlib import Path
from time import perf_counter

import numpy as np

import coal
import fcl

from peer_models import coal_cpp_command, coal_obbrss, fcl_obbrss

INF = math.inf


# ------------------------------------------------------------ geometry

def fcl_geometry(obj):
    """python-fcl's geometry for one scene object. Box takes full side
    lengths; Cylinder(radius, lz) is the full height; Capsule(radius, lz) the
    length of the core segment without the caps (checked on the fixture)."""
    k = obj["kind"]
    if k == "mesh":
        return fcl_obbrss(obj["V"], obj["F"])
    if k == "box":
        return fcl.Box(*(2.0 * np.asarray(obj["half_extents"], dtype=np.float64)))
    if k == "sphere":
        return fcl.Sphere(float(obj["radius"]))
    if k == "cylinder":
        return fcl.Cylinder(float(obj["radius"]), float(obj["length"]))
    if k == "capsule":
        return fcl.Capsule(float(obj["radius"]), float(obj["length"]))
    raise ValueError(f"unknown kind {k!r}")


def coal_geometry(obj):
    """coal's geometry for one scene object (same conventions as python-fcl)."""
    k = obj["kind"]
    if k == "mesh":
        return coal_obbrss(obj["V"], obj["F"])
    if k == "box":
        return coal.Box(*(2.0 * np.asarray(obj["half_extents"], dtype=np.float64)))
    if k == "sphere":
        return coal.Sphere(float(obj["radius"]))
    if k == "cylinder":
        return coal.Cylinder(float(obj["radius"]), float(obj["length"]))
    if k == "capsule":
        return coal.Capsule(float(obj["radius"]), float(obj["length"]))
    raise ValueError(f"unknown kind {k!r}")


# ------------------------------------------------------------ peers

class FclPeer:
    name = "python-fcl"

    def __init__(self):
        self.creq = fcl.CollisionRequest(num_max_contacts=1, enable_contact=False)
        self.dreq = fcl.DistanceRequest(enable_nearest_points=False,
                                        enable_signed_distance=False)

    def objects(self, geoms):
        return [fcl.CollisionObject(g, fcl.Transform()) for g in geoms]

    def transform(self, M):
        return fcl.Transform(M[:, :3], M[:, 3])

    def dummies(self, n):
        """Tiny spheres 10 apart with their fixed transforms."""
        objs = [fcl.CollisionObject(fcl.Sphere(1e-3), fcl.Transform()) for _ in range(n)]
        tfs = [fcl.Transform(np.eye(3), np.array([10.0 * i, 0.0, 0.0])) for i in range(n)]
        return objs, tfs

    def distance_result(self):
        # python-fcl's `distance` copies the nearest points and geometries into
        # the Python result whenever its min_distance shrinks; -inf never does,
        # so the binding does no conversions (the return value is the answer).
        r = fcl.DistanceResult()
        r.min_distance = -INF
        return r

    # ----- pairwise loops
    def pairwise_collide(self, objs, pair_objs, chunk, lims, out):
        collide, req, res = fcl.collide, self.creq, fcl.CollisionResult()
        t0 = perf_counter()
        for tfs, lim in zip(chunk, lims):
            for o, tf in zip(objs, tfs):
                o.setTransform(tf)
            hit = -1
            calls = 0
            for a, b in pair_objs[:lim]:
                calls += 1
                if collide(a, b, req, res):
                    hit = calls - 1
                    res = fcl.CollisionResult()
                    break
            out.append((hit, calls, 0))
        return perf_counter() - t0

    def pairwise_distance(self, objs, pair_objs, chunk, lims, out):
        distance, req, res = fcl.distance, self.dreq, self.distance_result()
        t0 = perf_counter()
        for tfs, lim in zip(chunk, lims):
            for o, tf in zip(objs, tfs):
                o.setTransform(tf)
            best, bk, calls = INF, -1, 0
            for a, b in pair_objs[:lim]:
                d = distance(a, b, req, res)
                if d <= 0.0:
                    best, bk = 0.0, calls
                    calls += 1
                    break
                if d < best:
                    best, bk = d, calls
                calls += 1
            out.append((best, bk, calls, 0))
        return perf_counter() - t0

    # ----- broad-phase manager
    def manager(self, objs):
        m = fcl.DynamicAABBTreeCollisionManager()
        m.registerObjects(objs)
        m.setup()
        return m

    def manager_collide(self, mgr, objs, chunk, keys, allowed, keyfn, out):
        """python-fcl's callback gets fresh wrappers of the C++ objects, with
        no way back to the Python object or its geometry; objects are told
        apart by their pose (`keyfn`, looked up in this configuration's
        `keys`), which the caller has checked to be unique."""
        collide, req = fcl.collide, self.creq
        st = _State()
        st.res = fcl.CollisionResult()

        def callback(o1, o2, st):
            keys = st.keys
            i, j = keys[keyfn(o1)], keys[keyfn(o2)]
            st.filters += 1
            k = allowed[i][j]
            if k < 0:
                return False
            st.calls += 1
            if collide(o1, o2, req, st.res):
                st.res = fcl.CollisionResult()
                st.hit = k
                return True
            return False

        t0 = perf_counter()
        for tfs, kd in zip(chunk, keys):
            for o, tf in zip(objs, tfs):
                o.setTransform(tf)
            mgr.update()
            st.keys, st.hit, st.calls, st.filters = kd, -1, 0, 0
            mgr.collide(st, callback)
            out.append((st.hit, st.calls, st.filters))
        return perf_counter() - t0

    def manager_distance(self, mgr, objs, chunk, keys, allowed, keyfn, out):
        distance, req, res = fcl.distance, self.dreq, self.distance_result()
        st = _State()

        def callback(o1, o2, st):
            keys = st.keys
            i, j = keys[keyfn(o1)], keys[keyfn(o2)]
            st.filters += 1
            k = allowed[i][j]
            if k < 0:
                return False, st.best
            st.calls += 1
            d = distance(o1, o2, req, res)
            if d <= 0.0:
                st.best, st.hit = 0.0, k
                return True, 0.0
            if d < st.best or (d == st.best and k < st.hit):
                st.best, st.hit = d, k
            return False, st.best

        t0 = perf_counter()
        for tfs, kd in zip(chunk, keys):
            for o, tf in zip(objs, tfs):
                o.setTransform(tf)
            mgr.update()
            st.keys, st.best, st.hit, st.calls, st.filters = kd, INF, -1, 0, 0
            mgr.distance(st, callback)
            out.append((st.best, st.hit, st.calls, st.filters))
        return perf_counter() - t0

    def call_cost(self, mode, reps):
        """Seconds of one narrow-phase call on far-apart tiny spheres beyond
        an empty loop."""
        a, b = _placed_dummies(self)
        if mode == "collide":
            fn, req, res = fcl.collide, self.creq, fcl.CollisionResult()
        else:
            fn, req, res = fcl.distance, self.dreq, self.distance_result()

        def timed():
            t0 = perf_counter()
            for _ in range(reps):
                fn(a, b, req, res)
            return perf_counter() - t0
        return _net_cost(timed, reps)

    def filter_cost(self, keyfn, reps):
        """Seconds per candidate pair of the manager's Python callback up to
        the pair filter (dispatch from C++, fresh wrappers, pose lookup): two
        overlapping spheres (one candidate) minus two far apart (none)."""
        def run(x):
            objs = [fcl.CollisionObject(fcl.Sphere(0.5), fcl.Transform()),
                    fcl.CollisionObject(fcl.Sphere(0.5), fcl.Transform(np.eye(3), np.array([x, 0.0, 0.0])))]
            m = self.manager(objs)
            st = _State()
            st.keys = {keyfn(o): i for i, o in enumerate(objs)}
            allowed = [[-1, -1], [-1, -1]]

            def callback(o1, o2, st):
                keys = st.keys
                i, j = keys[keyfn(o1)], keys[keyfn(o2)]
                st.filters += 1
                return allowed[i][j] >= 0
            st.filters = 0
            t0 = perf_counter()
            for _ in range(reps):
                m.collide(st, callback)
            return perf_counter() - t0, st.filters
        best = INF
        for _ in range(3):
            (t1, n1), (t0, n0) = run(0.5), run(10.0)
            assert n1 == reps and n0 == 0
            best = min(best, (t1 - t0) / reps)
        return max(best, 0.0)


class CoalPeer:
    name = "coal"

    def __init__(self):
        self.creq = coal.CollisionRequest()
        self.dreq = coal.DistanceRequest()

    def objects(self, geoms):
        return [coal.CollisionObject(g) for g in geoms]

    def transform(self, M):
        return coal.Transform3s(np.ascontiguousarray(M[:, :3]), np.ascontiguousarray(M[:, 3]))

    def dummies(self, n):
        objs = [coal.CollisionObject(coal.Sphere(1e-3)) for _ in range(n)]
        tfs = [coal.Transform3s(np.eye(3), np.array([10.0 * i, 0.0, 0.0])) for i in range(n)]
        return objs, tfs

    # ----- pairwise loops (narrow phase reads the transforms, not the AABBs)
    def pairwise_collide(self, objs, pair_objs, chunk, lims, out):
        collide, req, res = coal.collide, self.creq, coal.CollisionResult()
        clear = res.clear  # coal's collide adds to the result: clear before each call
        t0 = perf_counter()
        for tfs, lim in zip(chunk, lims):
            for o, tf in zip(objs, tfs):
                o.setTransform(tf)
            hit = -1
            calls = 0
            for a, b in pair_objs[:lim]:
                calls += 1
                clear()
                if collide(a, b, req, res):
                    hit = calls - 1
                    break
            out.append((hit, calls, 0))
        return perf_counter() - t0

    def pairwise_distance(self, objs, pair_objs, chunk, lims, out):
        distance, req, res = coal.distance, self.dreq, coal.DistanceResult()
        clear = res.clear  # coal's distance returns at once if the result holds a distance <= 0
        t0 = perf_counter()
        for tfs, lim in zip(chunk, lims):
            for o, tf in zip(objs, tfs):
                o.setTransform(tf)
            best, bk, calls = INF, -1, 0
            for a, b in pair_objs[:lim]:
                clear()
                d = distance(a, b, req, res)
                if d <= 0.0:
                    best, bk = 0.0, calls
                    calls += 1
                    break
                if d < best:
                    best, bk = d, calls
                calls += 1
            out.append((best, bk, calls, 0))
        return perf_counter() - t0

    # ----- broad-phase manager
    def manager(self, objs):
        m = coal.DynamicAABBTreeCollisionManager()
        for o in objs:
            o.computeAABB()
            m.registerObject(o)
        m.setup()
        return m

    def manager_collide(self, mgr, objs, pair_objs, chunk, lims, out):
        """coal 3.0.3's Python callbacks cannot be subclassed
        (`CollisionCallBackBase` is exposed with `no_init`), so the manager
        collects its overlapping AABB pairs in C++ (`CollisionCallBackCollect`)
        and Python filters them in pair order (`exist`, both orders), running
        the narrow phase until the first collision. `lims` caps the pairs
        looked at (the floor's control)."""
        collide, req, res = coal.collide, self.creq, coal.CollisionResult()
        clear = res.clear
        cb = coal.CollisionCallBackCollect(max(1, len(objs) * len(objs)))
        exist, ncand = cb.exist, cb.numCollisionPairs
        t0 = perf_counter()
        for tfs, lim in zip(chunk, lims):
            for o, tf in zip(objs, tfs):
                o.setTransform(tf)
                o.computeAABB()
            mgr.update()
            mgr.collide(cb)
            hit, calls, filters = -1, 0, 0
            if ncand() or lim < 0:
                for a, b in pair_objs[:abs(lim)]:
                    filters += 1
                    if exist(a, b) or exist(b, a):
                        calls += 1
                        clear()
                        if collide(a, b, req, res):
                            hit = filters - 1
                            break
            out.append((hit, calls, filters))
        return perf_counter() - t0

    def call_cost(self, mode, reps):
        """Seconds of one narrow-phase call on far-apart tiny spheres (as the
        loops make it: `clear()` then `collide` or `distance`) beyond an empty
        loop."""
        a, b = _placed_dummies(self)
        res = coal.CollisionResult() if mode == "collide" else coal.DistanceResult()
        clear = res.clear
        fn, req = (coal.collide, self.creq) if mode == "collide" else (coal.distance, self.dreq)

        def timed():
            t0 = perf_counter()
            for _ in range(reps):
                clear()
                fn(a, b, req, res)
            return perf_counter() - t0
        return _net_cost(timed, reps)


class CoalCpp:
    """coal's own C++ (`robot_coal.cpp`, built into OUT/robot_coal when its
    source is newer): the pairwise loop and the manager with a C++ pair
    filter, no Python in the timed loops."""
    name = "coal C++"
    KINDS = {"sphere": 0, "box": 1, "cylinder": 2, "capsule": 3, "mesh": 4}

    def __init__(self, out_dir):
        src = Path(__file__).resolve().parent / "robot_coal.cpp"
        self.exe = Path(out_dir) / "robot_coal"
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        if not self.exe.exists() or self.exe.stat().st_mtime < src.stat().st_mtime:
            subprocess.run(coal_cpp_command(str(src), str(self.exe)), check=True)

    def write_scene(self, objects, pairs):
        path = self.out_dir / "robot_coal_scene.bin"
        u64 = lambda *x: np.array(x, dtype="<u8").tobytes()
        with open(path, "wb") as f:
            f.write(u64(len(objects), len(pairs)))
            for o in objects:
                k = o["kind"]
                p = (o["half_extents"] if k == "box" else
                     [o["radius"], o.get("length", 0.0), 0.0] if k != "mesh" else [0.0, 0.0, 0.0])
                f.write(u64(self.KINDS[k]) + np.array(p, dtype="<f8").tobytes())
                if k == "mesh":
                    f.write(u64(len(o["V"]), len(o["F"])))
                    f.write(np.ascontiguousarray(o["V"], dtype="<f8").tobytes())
                    f.write(np.ascontiguousarray(o["F"], dtype="<i4").tobytes())
            for i, j in pairs:
                f.write(u64(i, j))
        return path

    def run(self, scene_bin, poses_path, n, repeat, mode):
        """{"pairwise": (seconds, answers), "manager": (seconds, answers)} in
        the loops' answer format."""
        answers = self.out_dir / f"robot_coal_{mode}.txt"
        env = dict(os.environ, OMP_NUM_THREADS="1")
        r = subprocess.run([str(self.exe), str(scene_bin), str(poses_path), str(n), str(repeat), mode,
                            str(answers)], check=True, capture_output=True, text=True, env=env)
        secs = dict((a, float(b)) for a, b in (line.split() for line in r.stdout.split("\n") if line.strip()))
        rows = [line.split() for line in answers.read_text().splitlines()]
        out = {}
        for m, off in (("pairwise", 0), ("manager", 4)):
            if mode == "collide":
                ans = [(int(x[off + 1]), int(x[off + 2]), int(x[off + 3])) for x in rows]
            else:
                ans = [(float(x[off]), int(x[off + 1]), int(x[off + 2]), int(x[off + 3])) for x in rows]
            out[m] = (secs[m], ans)
        return out


class _State:
    """Mutable per-configuration state shared with a python-fcl callback."""
    __slots__ = ("keys", "hit", "best", "calls", "filters", "res")


def _placed_dummies(peer):
    (a, b), tfs = peer.dummies(2)
    a.setTransform(tfs[0])
    b.setTransform(tfs[1])
    return a, b


def _net_cost(timed, reps):
    """Least over three rounds of (timed() - an empty loop of reps) / reps."""
    best = INF
    for _ in range(3):
        t = timed()
        t0 = perf_counter()
        for _ in range(reps):
            pass
        empty = perf_counter() - t0
        best = min(best, (t - empty) / reps)
    return max(best, 0.0)
