"""clash: collision detection for triangle meshes, from numpy.

Build a tree over a mesh once, then ask about many poses, points or rays in
one call; every batch call releases the GIL, runs on all cores (``threads=``
to choose) and returns plain numpy arrays in input order::

    import numpy as np
    import clash

    bunny = clash.Tree.build("bunny.stl", bv="obb")        # or (vertices, faces), a trimesh
    poses = np.tile(np.eye(4), (1000, 1, 1))              # (N, 4, 4) or (N, 3, 4)
    poses[:, 0, 3] = np.linspace(-0.2, 0.2, 1000)         # pose of B in A's frame
    hits = clash.collide(bunny, bunny, poses)             # (N,) bool
    pairs = clash.collide(bunny, bunny, poses[:3], mode="pairs")  # [(k, 2) int64, ...]

    rss = clash.Tree.build("bunny.stl", bv="rss", split="sah")
    d = clash.distance(rss, rss, poses)                   # d.distance, d.point_a, ...

    data = pickle.dumps(bunny)                            # or bunny.to_bytes(), bunny.save(path)

Trees are built in ``f64`` (default) or ``f32`` over eight volume types
(``aabb``, ``obb``, ``rss``, ``sphere``, ``capsule``, ``kdop14``,
``kdop18``, ``kdop26``). Bad input raises ``ValueError`` (``OSError`` for
files) with the messages of the ``clash`` command line. Batches too big for
one machine run on Ray with the same calls in ``clash.ray``.
"""

from __future__ import annotations

from typing import Any, List, NamedTuple, Optional, Union

import numpy as np

from . import _clash
from ._clash import Mesh, Tree, __version__

__all__ = [
    "ClosestPoints",
    "Distances",
    "Mesh",
    "RayHits",
    "Tree",
    "closest_points",
    "collide",
    "distance",
    "raycast",
    "signed_distance",
]


class Distances(NamedTuple):
    """Answers of ``distance``, one row per pose."""

    distance: np.ndarray
    """``(N,)`` float64: the distance, 0 where the meshes touch or intersect."""
    point_a: np.ndarray
    """``(N, 3)`` float64: the closest point on mesh ``a``, in ``a``'s frame."""
    point_b: np.ndarray
    """``(N, 3)`` float64: the closest point on mesh ``b``, in ``a``'s frame."""
    triangles: np.ndarray
    """``(N, 2)`` int64: the triangles of the two points, ``[in a, in b]``."""


class RayHits(NamedTuple):
    """Answers of ``raycast``, one row per ray."""

    hit: np.ndarray
    """``(N,)`` bool: whether the ray hits the mesh."""
    t: np.ndarray
    """``(N,)`` float64: the ray parameter of the hit (``inf`` for a miss)."""
    triangle: np.ndarray
    """``(N,)`` int64: the triangle hit (-1 for a miss)."""
    point: np.ndarray
    """``(N, 3)`` float64: the hit point (zeros for a miss)."""
    normal: np.ndarray
    """``(N, 3)`` float64: the unit normal of the triangle hit (zeros for a miss)."""


class ClosestPoints(NamedTuple):
    """Answers of ``closest_points`` and ``signed_distance``, one row per point."""

    distance: np.ndarray
    """``(N,)`` float64: the distance (signed, negative inside, for ``signed_distance``)."""
    point: np.ndarray
    """``(N, 3)`` float64: the closest point of the mesh."""
    triangle: np.ndarray
    """``(N,)`` int64: the triangle the closest point lies on."""


ArrayLike = Any
"""Anything ``numpy.asarray`` reads as an array of the right shape."""


def collide(
    a: Tree,
    b: Tree,
    poses: ArrayLike,
    mode: str = "any",
    *,
    threads: Optional[int] = None,
) -> Union[np.ndarray, List[np.ndarray]]:
    return _clash.collide(a, b, poses, mode, threads)


def distance(a: Tree, b: Tree, poses: ArrayLike, *, threads: Optional[int] = None) -> Distances:
    return Distances(*_clash.distance(a, b, poses, threads))


def raycast(
    tree: Tree,
    origins: ArrayLike,
    directions: ArrayLike,
    t_min: float = 0.0,
    t_max: float = float("inf"),
    *,
    front_faces_only: bool = False,
    threads: Optional[int] = None,
) -> RayHits:
    return RayHits(*_clash.raycast(tree, origins, directions, t_min, t_max, front_faces_only, threads))


def closest_points(tree: Tree, points: ArrayLike, *, threads: Optional[int] = None) -> ClosestPoints:
    return ClosestPoints(*_clash.closest_points(tree, points, threads))


def signed_distance(tree: Tree, points: ArrayLike, *, threads: Optional[int] = None) -> ClosestPoints:
    return ClosestPoints(*_clash.signed_distance(tree, points, threads))


# One text per query: the native function's docstring (the Rust doc comment),
# with the fields of the named tuple it now returns.
for _f in (collide, distance, raycast, closest_points, signed_distance):
    _f.__doc__ = getattr(_clash, _f.__name__).__doc__
del _f
