"""The peers' OBBRSS mesh models, built the same way by every script here
(`fcl_build.py`, `large_mesh.py`) from trimesh's arrays: vertices `V`
(float64, n x 3) and triangles `F` (int32, m x 3)."""
import os

import coal


def fcl_obbrss(V, F):
    """python-fcl's `BVHModel` (always OBBRSS)."""
    import fcl  # here, so that scripts timing coal alone need no python-fcl

    m = fcl.BVHModel()
    m.beginModel(len(V), len(F))
    m.addSubModel(V, F)
    m.endModel()
    return m


def coal_obbrss(V, F):
    """coal's `BVHModelOBBRSS`."""
    m = coal.BVHModelOBBRSS()
    m.beginModel(len(F), len(V))
    m.addVertices(V)
    m.addTriangles(F)
    m.endModel()
    return m


def coal_prefix():
    """The coal wheel's install prefix: the `cmeel.prefix` directory that
    holds the coal package, its headers (`include/`) and `lib/libcoal.so`."""
    prefix = os.path.realpath(coal.__file__)
    while os.path.basename(prefix) != "cmeel.prefix":
        parent = os.path.dirname(prefix)
        if parent == prefix:
            raise FileNotFoundError("coal's cmeel.prefix not found above " + coal.__file__)
        prefix = parent
    return prefix


def coal_cpp_command(src, exe):
    """The g++ command that builds a C++ program against the coal wheel
    (its headers and libcoal.so, with an rpath) and Debian's Eigen headers."""
    prefix = coal_prefix()
    return ["g++", "-O2", "-std=c++17", "-DNDEBUG", f"-I{prefix}/include", "-I/usr/include/eigen3",
            src, f"-L{prefix}/lib", "-lcoal", f"-Wl,-rpath,{prefix}/lib", "-o", exe]


def best_per_call(f, calls, k=5):
    """The best of `k` runs of `f` (a loop of `calls` calls), in
    microseconds per call."""
    import time

    t = float("inf")
    for _ in range(k):
        s = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - s)
    return t / calls * 1e6
