"""The peers' OBBRSS mesh models, built the same way by every script here
(`fcl_build.py`, `large_mesh.py`) from trimesh's arrays: vertices `V`
(float64, n x 3) and triangles `F` (int32, m x 3)."""
import coal, fcl


def fcl_obbrss(V, F):
    """python-fcl's `BVHModel` (always OBBRSS)."""
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
