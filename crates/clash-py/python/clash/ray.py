"""Batches past one machine: the batch calls of ``clash`` on a Ray cluster.

::

    import ray
    import clash, clash.ray

    ray.init()                                   # or ray.init(address="auto")
    hits = clash.ray.collide(a, b, poses)        # == clash.collide(a, b, poses)
    d = clash.ray.distance(a, b, poses, shards=64, threads_per_task=4)

Each call

1. checks the whole batch on the driver, with the code, messages and
   warnings of the single-process call (an error names the bad entry's index
   in the whole batch);
2. puts each tree's bytes (``Tree.to_bytes``) into Ray's object store once
   (``ray.put``): each node fetches them once, and each worker process
   unpacks a tree once and keeps it for the call's other shards;
3. splits the array into ``shards`` contiguous pieces and runs the
   single-process call on each as a Ray task (``num_cpus=threads_per_task``,
   on that many threads);
4. joins the answers in input order.

The answers are those of the single-process call, element for element:
each query's answer depends only on its own input, never on the shard or
the thread count. Ray does the scheduling (plain tasks; nothing here decides
where they run). Ray is an optional dependency: this module imports without
it, and a call raises ``ImportError`` saying how to install it.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np

from . import ClosestPoints, Distances, RayHits, _clash
from ._clash import Tree

__all__ = ["closest_points", "collide", "distance", "raycast", "signed_distance"]

ArrayLike = Any

# In each worker process: trees unpacked from the object store, by object
# id, the most recent few (a call's shards reuse them).
_UNPACKED: "OrderedDict[str, Tree]" = OrderedDict()
_KEEP = 4

_remote_task = None


def _ray():
    try:
        import ray
    except ImportError as e:
        raise ImportError(
            "clash.ray needs Ray: pip install 'ray[default]' (or: pip install 'clash[ray]')"
        ) from e
    return ray


def _unpack(box: List[Any]) -> Tree:
    """The tree whose bytes ``box[0]`` (an ObjectRef, boxed so that Ray
    passes the reference rather than the value) refers to."""
    ref = box[0]
    key = ref.hex()
    tree = _UNPACKED.get(key)
    if tree is None:
        tree = Tree.from_bytes(_ray().get(ref))
        _UNPACKED[key] = tree
        while len(_UNPACKED) > _KEEP:
            _UNPACKED.popitem(last=False)
    else:
        _UNPACKED.move_to_end(key)
    return tree


def _run_shard(name: str, trees: Sequence[List[Any]], arrays: Sequence[np.ndarray], options: Dict[str, Any]):
    """One shard: the single-process call ``name`` on this worker."""
    import warnings

    unpacked = [_unpack(t) for t in trees]
    with warnings.catch_warnings():
        # The driver checked the whole batch and warned once already.
        warnings.simplefilter("ignore")
        return getattr(_clash, name)(*unpacked, *arrays, **options)


def _sharded(
    name: str,
    trees: Sequence[Tree],
    arrays: Sequence[np.ndarray],
    options: Dict[str, Any],
    shards: Optional[int],
    threads_per_task: int,
    join: Callable[[List[Any]], Any],
):
    """Runs ``_clash.<name>(*trees, *arrays, **options)`` over contiguous
    shards of ``arrays`` (split along their first axis) as Ray tasks, and
    joins the shards' answers in order."""
    global _remote_task
    ray = _ray()
    if not isinstance(threads_per_task, int) or threads_per_task < 1:
        raise ValueError(f"threads_per_task must be a positive integer, not {threads_per_task!r}")
    if shards is not None and (not isinstance(shards, int) or shards < 1):
        raise ValueError(f"shards must be a positive integer or None, not {shards!r}")
    n = len(arrays[0])
    if shards is None:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        shards = max(1, cpus // threads_per_task)
    shards = max(1, min(shards, n))
    if _remote_task is None:
        _remote_task = ray.remote(_run_shard)
    refs: Dict[int, List[Any]] = {}
    for t in trees:
        if id(t) not in refs:
            refs[id(t)] = [ray.put(t.to_bytes())]
    boxes = [refs[id(t)] for t in trees]
    bounds = np.linspace(0, n, shards + 1).round().astype(np.int64)
    task = _remote_task.options(num_cpus=threads_per_task)
    options = dict(options, threads=threads_per_task)
    futures = [
        task.remote(name, boxes, [a[lo:hi] for a in arrays], options)
        for lo, hi in zip(bounds[:-1], bounds[1:])
    ]
    return join(ray.get(futures))


def _concatenate(parts: List[Any]):
    return np.concatenate(parts)


def _concatenate_fields(parts: List[Any]):
    return tuple(np.concatenate(field) for field in zip(*parts))


def _chain(parts: List[List[np.ndarray]]):
    return [pairs for part in parts for pairs in part]


_EMPTY_POSES = np.empty((0, 4, 4))


def collide(
    a: Tree,
    b: Tree,
    poses: ArrayLike,
    mode: str = "any",
    *,
    shards: Optional[int] = None,
    threads_per_task: int = 1,
) -> Union[np.ndarray, List[np.ndarray]]:
    """``clash.collide(a, b, poses, mode)`` on Ray: the same answer.

    ``shards`` is the number of tasks (default: the cluster's CPUs divided
    by ``threads_per_task``, at most one per pose); each task asks Ray for
    ``threads_per_task`` CPUs and runs on that many threads.
    """
    _clash.collide(a, b, _EMPTY_POSES, mode)  # mode and tree types
    poses = _clash._check_poses(poses, a.precision)
    join = _chain if mode == "pairs" else _concatenate
    return _sharded("collide", [a, b], [poses], {"mode": mode}, shards, threads_per_task, join)


def distance(
    a: Tree,
    b: Tree,
    poses: ArrayLike,
    *,
    shards: Optional[int] = None,
    threads_per_task: int = 1,
) -> Distances:
    """``clash.distance(a, b, poses)`` on Ray: the same answer (see ``collide``
    for ``shards`` and ``threads_per_task``)."""
    _clash.distance(a, b, _EMPTY_POSES)  # tree types
    poses = _clash._check_poses(poses, a.precision)
    fields = _sharded("distance", [a, b], [poses], {}, shards, threads_per_task, _concatenate_fields)
    return Distances(*fields)


def raycast(
    tree: Tree,
    origins: ArrayLike,
    directions: ArrayLike,
    t_min: float = 0.0,
    t_max: float = float("inf"),
    *,
    front_faces_only: bool = False,
    shards: Optional[int] = None,
    threads_per_task: int = 1,
) -> RayHits:
    """``clash.raycast(...)`` on Ray: the same answer (see ``collide`` for
    ``shards`` and ``threads_per_task``)."""
    empty = np.empty((0, 3))
    _clash.raycast(tree, empty, empty, t_min, t_max, front_faces_only)  # t_min, t_max
    origins, directions = _clash._check_rays(origins, directions, tree.precision)
    options = {"t_min": t_min, "t_max": t_max, "front_faces_only": front_faces_only}
    fields = _sharded(
        "raycast", [tree], [origins, directions], options, shards, threads_per_task, _concatenate_fields
    )
    return RayHits(*fields)


def closest_points(
    tree: Tree,
    points: ArrayLike,
    *,
    shards: Optional[int] = None,
    threads_per_task: int = 1,
) -> ClosestPoints:
    """``clash.closest_points(tree, points)`` on Ray: the same answer (see
    ``collide`` for ``shards`` and ``threads_per_task``)."""
    points = _clash._check_points(points, tree.precision)
    fields = _sharded("closest_points", [tree], [points], {}, shards, threads_per_task, _concatenate_fields)
    return ClosestPoints(*fields)


def signed_distance(
    tree: Tree,
    points: ArrayLike,
    *,
    shards: Optional[int] = None,
    threads_per_task: int = 1,
) -> ClosestPoints:
    """``clash.signed_distance(tree, points)`` on Ray: the same answer (see
    ``collide`` for ``shards`` and ``threads_per_task``)."""
    _clash.signed_distance(tree, np.empty((0, 3)))  # a closed mesh
    points = _clash._check_points(points, tree.precision)
    fields = _sharded("signed_distance", [tree], [points], {}, shards, threads_per_task, _concatenate_fields)
    return ClosestPoints(*fields)
