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
from ._clash import Mesh, Robot, Shape, Tree, __version__
from ._clash import RobotWorld as _RobotWorld
from ._clash import World as _World

__all__ = [
    "BatchDistances",
    "ClosestPoints",
    "Collision",
    "Contacts",
    "Distances",
    "Mesh",
    "PairDistance",
    "RayHits",
    "Robot",
    "RobotWorld",
    "Shape",
    "Tree",
    "World",
    "closest_points",
    "collide",
    "contact",
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


class Contacts(NamedTuple):
    """Answers of ``contact``, one row per pose."""

    distance: np.ndarray
    """``(N,)`` float64: signed distance, minus the penetration depth when overlapping."""
    normal: np.ndarray
    """``(N, 3)`` float64: unit normal from ``a`` to ``b``, in ``a``'s frame."""
    point_a: np.ndarray
    """``(N, 3)`` float64: the witness point on ``a``, in ``a``'s frame."""
    point_b: np.ndarray
    """``(N, 3)`` float64: the witness point on ``b``, in ``a``'s frame."""
    triangles: np.ndarray
    """``(N, 2)`` int64: the triangles of the points, ``[of a, of b]`` (-1 for a shape)."""


class Collision(NamedTuple):
    """A colliding pair of ``World.collide``, with one row per contact."""

    a: int
    """The handle of the first object (the smaller handle)."""
    b: int
    """The handle of the second object."""
    distance: np.ndarray
    """``(k,)`` float64: signed distance of each contact (minus the depth)."""
    normal: np.ndarray
    """``(k, 3)`` float64: unit normals from ``a`` to ``b`` (world frame)."""
    point_a: np.ndarray
    """``(k, 3)`` float64: witness points on ``a``."""
    point_b: np.ndarray
    """``(k, 3)`` float64: witness points on ``b``."""
    triangles: np.ndarray
    """``(k, 2)`` int64: triangles of the contacts (-1 for a shape)."""


class PairDistance(NamedTuple):
    """The closest pair of ``World.distance`` and ``RobotWorld.distance``."""

    a: int
    b: int
    distance: float
    point_a: np.ndarray
    """``(3,)`` float64: the closest point on ``a`` (world frame)."""
    point_b: np.ndarray
    """``(3,)`` float64: the closest point on ``b`` (world frame)."""
    triangles: np.ndarray
    """``(2,)`` int64: their triangles (-1 for a shape)."""


class BatchDistances(NamedTuple):
    """Answers of ``World.batch_distance`` and ``RobotWorld.batch_distance``,
    one row per configuration."""

    distance: np.ndarray
    """``(C,)`` float64: the minimum distance (``inf`` when no pair is within ``max_distance``)."""
    pairs: np.ndarray
    """``(C, 2)`` int64: the closest pair (handles, or body indices for a robot; -1 for none)."""
    point_a: np.ndarray
    """``(C, 3)`` float64: the closest point on the first object (zeros for none)."""
    point_b: np.ndarray
    """``(C, 3)`` float64: the closest point on the second object (zeros for none)."""
    triangles: np.ndarray
    """``(C, 2)`` int64: their triangles (-1 for a shape or none)."""


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


Body = Union[Tree, Shape]
"""What the pairwise queries take on either side."""


def collide(
    a: Body,
    b: Body,
    poses: ArrayLike,
    mode: str = "any",
    *,
    threads: Optional[int] = None,
) -> Union[np.ndarray, List[np.ndarray]]:
    return _clash.collide(a, b, poses, mode, threads)


def distance(a: Body, b: Body, poses: ArrayLike, *, threads: Optional[int] = None) -> Distances:
    return Distances(*_clash.distance(a, b, poses, threads))


def contact(a: Body, b: Body, poses: ArrayLike, *, threads: Optional[int] = None) -> Contacts:
    return Contacts(*_clash.contact(a, b, poses, threads))


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
for _f in (collide, distance, contact, raycast, closest_points, signed_distance):
    _f.__doc__ = getattr(_clash, _f.__name__).__doc__
del _f


class World(_World):
    __doc__ = _World.__doc__

    def collide(self, *, margin: float = 0.0, max_contacts: int = 1,
                selection: Any = None) -> List[Collision]:
        return [Collision(*c) for c in super().collide(
            margin=margin, max_contacts=max_contacts, selection=selection)]

    def distance(self, *, max_distance: float = float("inf"), stop_below: float = 0.0,
                 selection: Any = None) -> Optional[PairDistance]:
        d = super().distance(max_distance=max_distance, stop_below=stop_below,
                             selection=selection)
        if d is None:
            return None
        a, b, dist, pa, pb, tri = d
        return PairDistance(a, b, dist, np.array(pa), np.array(pb), np.array(tri, dtype=np.int64))

    def batch_distance(self, poses: ArrayLike, *, max_distance: float = float("inf"),
                       stop_below: float = 0.0, selection: Any = None,
                       threads: Optional[int] = None) -> BatchDistances:
        return BatchDistances(*super().batch_distance(
            poses, max_distance=max_distance, stop_below=stop_below, selection=selection,
            threads=threads))


class RobotWorld(_RobotWorld):
    __doc__ = _RobotWorld.__doc__

    def collisions(self, q: ArrayLike, *, margin: float = 0.0,
                   max_contacts: int = 1) -> List[Collision]:
        return [Collision(*c) for c in super().collisions(q, margin=margin, max_contacts=max_contacts)]

    def distance(self, q: ArrayLike, *, max_distance: float = float("inf"),
                 stop_below: float = 0.0) -> Optional[PairDistance]:
        d = super().distance(q, max_distance=max_distance, stop_below=stop_below)
        if d is None:
            return None
        a, b, dist, pa, pb, tri = d
        return PairDistance(a, b, dist, np.array(pa), np.array(pb), np.array(tri, dtype=np.int64))

    def batch_distance(self, q: ArrayLike, *, max_distance: float = float("inf"),
                       stop_below: float = 0.0, threads: Optional[int] = None) -> BatchDistances:
        return BatchDistances(*super().batch_distance(
            q, max_distance=max_distance, stop_below=stop_below, threads=threads))


for _cls, _names in ((World, ("collide", "distance", "batch_distance")),
                     (RobotWorld, ("collisions", "distance", "batch_distance"))):
    for _n in _names:
        getattr(_cls, _n).__doc__ = getattr(_cls.__mro__[1], _n).__doc__
del _cls, _names, _n
