"""``clash.Robot`` and ``clash.RobotWorld`` on the Panda (spheres and
cylinders) and the UR5 (meshes) of ``data/robots``: forward kinematics
against one computed here from the URDF in numpy, and the batches against a
brute-force loop of the pairwise bindings over every pair the SRDF and the
links' adjacency leave checked."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import clash
from conftest import REPO

ROBOTS = REPO / "data" / "robots"
PANDA = ROBOTS / "panda"
UR5 = ROBOTS / "ur5"
UR5_PACKAGES = {"example-robot-data/robots/ur_description/meshes/ur5": str(UR5 / "meshes")}


def numbers(text, default):
    return np.array([float(x) for x in text.split()]) if text else np.array(default, float)


def origin(el):
    """The 4x4 matrix of an ``<origin xyz rpy>`` (identity when absent)."""
    m = np.eye(4)
    if el is None:
        return m
    x, y, z = numbers(el.get("xyz"), [0, 0, 0])
    r, p, w = numbers(el.get("rpy"), [0, 0, 0])
    rx = np.array([[1, 0, 0], [0, np.cos(r), -np.sin(r)], [0, np.sin(r), np.cos(r)]])
    ry = np.array([[np.cos(p), 0, np.sin(p)], [0, 1, 0], [-np.sin(p), 0, np.cos(p)]])
    rz = np.array([[np.cos(w), -np.sin(w), 0], [np.sin(w), np.cos(w), 0], [0, 0, 1]])
    m[:3, :3] = rz @ ry @ rx
    m[:3, 3] = [x, y, z]
    return m


def axis_motion(kind, axis, v):
    m = np.eye(4)
    if kind in ("revolute", "continuous"):
        k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
        m[:3, :3] = np.eye(3) + np.sin(v) * k + (1 - np.cos(v)) * k @ k
    elif kind == "prismatic":
        m[:3, 3] = axis * v
    return m


class Urdf:
    """The parts of a URDF the tests need, read with ElementTree."""

    def __init__(self, path):
        root = ET.parse(path).getroot()
        self.links = [l.get("name") for l in root.findall("link")]
        self.joints = []
        for j in root.findall("joint"):
            axis = numbers(j.find("axis").get("xyz") if j.find("axis") is not None else None, [1, 0, 0])
            mimic = j.find("mimic")
            self.joints.append(dict(
                name=j.get("name"), kind=j.get("type"), parent=j.find("parent").get("link"),
                child=j.find("child").get("link"), origin=origin(j.find("origin")),
                axis=axis / np.linalg.norm(axis),
                mimic=None if mimic is None else (mimic.get("joint"),
                                                   float(mimic.get("multiplier", 1)),
                                                   float(mimic.get("offset", 0)))))
        self.dofs = [j["name"] for j in self.joints
                     if j["kind"] != "fixed" and j["mimic"] is None]
        self.elements = []  # (link index, geometry element, origin)
        for li, l in enumerate(root.findall("link")):
            for c in l.findall("collision"):
                self.elements.append((li, c.find("geometry")[0], origin(c.find("origin"))))
        self.adjacent = {frozenset((self.links.index(j["parent"]), self.links.index(j["child"])))
                         for j in self.joints}

    def fk(self, q):
        """Every link's pose for the joint vector ``q``."""
        value = dict(zip(self.dofs, q))
        for j in self.joints:
            if j["mimic"]:
                leader, mul, off = j["mimic"]
                value[j["name"]] = mul * value[leader] + off
        children = {j["child"] for j in self.joints}
        poses = {l: np.eye(4) for l in self.links if l not in children}
        todo = list(self.joints)
        while todo:
            for j in list(todo):
                if j["parent"] in poses:
                    motion = axis_motion(j["kind"], j["axis"], value.get(j["name"], 0.0))
                    poses[j["child"]] = poses[j["parent"]] @ j["origin"] @ motion
                    todo.remove(j)
        return np.array([poses[l] for l in self.links])


def shape_of(geometry, base):
    tag = geometry.tag
    if tag == "sphere":
        return clash.Shape.ball(float(geometry.get("radius")))
    if tag == "cylinder":
        return clash.Shape.cylinder(float(geometry.get("length")) / 2, float(geometry.get("radius")))
    if tag == "box":
        return clash.Shape.box(numbers(geometry.get("size"), None) / 2)
    if tag == "mesh":
        name = geometry.get("filename").split("/")[-1]
        return clash.Tree.build(str(base / name), bv="obb")
    raise AssertionError(tag)


def disabled(srdf, links):
    root = ET.parse(srdf).getroot()
    return {frozenset((links.index(d.get("link1")), links.index(d.get("link2"))))
            for d in root.findall("disable_collisions")}


def random_configurations(robot, rng, c):
    lim = robot.limits
    return rng.uniform(lim[:, 0], lim[:, 1], size=(c, robot.dof))


def brute_force(urdf, bodies, obstacles, acm, qs):
    """Per configuration: the first colliding checked pair (in element
    order, obstacles after the elements) as body indices, and the minimum
    distance over checked pairs."""
    n_links = len(urdf.links)
    link_poses = np.array([urdf.fk(q) for q in qs])  # (C, L, 4, 4)
    poses = [link_poses[:, li] @ o for li, _, o in urdf.elements]
    objects = list(bodies)
    owner = [li for li, _, _ in urdf.elements]
    for k, (body, pose) in enumerate(obstacles):
        objects.append(body)
        poses.append(np.tile(pose, (len(qs), 1, 1)))
        owner.append(n_links + k)
    first = np.full((len(qs), 2), -1)
    best = np.full(len(qs), np.inf)
    n_el = len(urdf.elements)
    for i, j in itertools.combinations(range(len(objects)), 2):
        if j < n_el:
            li, lj = owner[i], owner[j]
            if li == lj or frozenset((li, lj)) in acm or frozenset((li, lj)) in urdf.adjacent:
                continue
        elif i >= n_el:
            continue  # obstacles are checked against the robot only
        rel = np.linalg.inv(poses[i]) @ poses[j]
        rel[:, 3] = [0, 0, 0, 1]
        hit = clash.collide(objects[i], objects[j], rel)
        new = hit & (first[:, 0] < 0)
        first[new] = [owner[i], owner[j]]
        best = np.minimum(best, clash.distance(objects[i], objects[j], rel).distance)
    return first, best


def test_forward_kinematics_matches_the_urdf_in_numpy():
    robot = clash.Robot.load(PANDA / "urdf" / "panda_collision.urdf")
    urdf = Urdf(PANDA / "urdf" / "panda_collision.urdf")
    assert robot.name == "panda" and robot.dof == 8
    assert robot.link_names == urdf.links and robot.joint_names == urdf.dofs
    rng = np.random.default_rng(21)
    for q in random_configurations(robot, rng, 20):
        np.testing.assert_allclose(robot.forward_kinematics(q), urdf.fk(q), atol=1e-12)
    ready = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02]
    hand = robot.forward_kinematics(ready)[robot.link_names.index("panda_hand")]
    assert 0.4 < hand[2, 3] < 0.6


@pytest.mark.parametrize("robot_name", ["panda", "ur5"])
def test_batches_equal_a_brute_force_loop_over_checked_pairs(robot_name):
    if robot_name == "panda":
        path, srdf, packages, meshes = PANDA / "urdf" / "panda_collision.urdf", PANDA / "srdf" / "panda.srdf", None, None
        count = 150
    else:
        path, srdf, packages, meshes = UR5 / "urdf" / "ur5_robot.urdf", UR5 / "srdf" / "ur5.srdf", UR5_PACKAGES, UR5 / "meshes" / "collision"
        count = 60
    robot = clash.Robot.load(path, packages)
    urdf = Urdf(path)
    world = clash.RobotWorld(robot, srdf)
    assert world.dof == robot.dof and world.link_names == urdf.links
    bodies = [shape_of(g, meshes) for _, g, _ in urdf.elements]
    near = np.eye(4)
    near[:3, 3] = [0.35, 0.1, 0.4]
    obstacles = [(clash.Shape.ball(0.12), near),
                 (clash.Tree.build(str(ROBOTS / "panda" / "meshes" / "collision" / "link3.stl"), bv="obb"),
                  np.eye(4)[:3] + np.array([[0, 0, 0, -0.3], [0, 0, 0, 0.3], [0, 0, 0, 0.3]]))]
    for k, (body, pose) in enumerate(obstacles):
        assert world.insert_obstacle(body, pose) == len(urdf.links) + k
    assert world.num_obstacles == 2
    rng = np.random.default_rng(22)
    qs = random_configurations(robot, rng, count)
    acm = disabled(srdf, urdf.links)
    first, best = brute_force(urdf, bodies, [(b, np.vstack([p[:3], [0, 0, 0, 1]])) for b, p in obstacles], acm, qs)
    assert (first[:, 0] >= 0).any() and (first[:, 0] < 0).any(), "need both answers"
    got = world.batch_first_collision(qs, threads=2)
    np.testing.assert_array_equal(got, first)
    d = world.batch_distance(qs, threads=2)
    np.testing.assert_allclose(d.distance, best, atol=1e-9)
    assert ((d.pairs >= 0) == np.isfinite(best)[:, None]).all()
    # In input order and whatever the thread count; one configuration at a time.
    np.testing.assert_array_equal(world.batch_first_collision(qs[::-1], threads=1)[::-1], got)
    for i in range(0, count, 25):
        np.testing.assert_array_equal(world.batch_first_collision(qs[i:i + 1])[0], got[i])
        assert world.batch_distance(qs[i:i + 1]).distance[0] == d.distance[i]
    # One configuration per call, on the calling thread: the brute force's
    # answers, the batch's pair, and every colliding pair with its contacts.
    for i, q in enumerate(qs):
        one = world.first_collision(q)
        assert one == (None if first[i, 0] < 0 else tuple(first[i]))
        pair = world.distance(q)
        assert pair.distance == d.distance[i] and (pair.a, pair.b) == tuple(d.pairs[i])
        np.testing.assert_array_equal(pair.point_a, d.point_a[i])
        hits = world.collisions(q, max_contacts=4)
        assert bool(hits) == (one is not None)
        if hits:
            assert (hits[0].a, hits[0].b) == one
            assert pair.distance <= 1e-12
            for h in hits:
                assert 1 <= len(h.distance) <= 4 and (h.distance <= 1e-12).all()


def test_convex_hull_meshes_and_no_srdf():
    robot = clash.Robot.load(UR5 / "urdf" / "ur5_robot.urdf", UR5_PACKAGES)
    hulls = clash.RobotWorld(robot, meshes_as_convex_hulls=True)
    meshes = clash.RobotWorld(robot)
    qs = random_configurations(robot, np.random.default_rng(23), 100)
    dh = hulls.batch_distance(qs).distance
    dm = meshes.batch_distance(qs).distance
    # A hull holds its mesh: never farther than the mesh; no SRDF: more pairs.
    assert (dh <= dm + 1e-9).all()


def test_bad_robot_input(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere.urdf"):
        clash.Robot.load(tmp_path / "nowhere.urdf")
    bad = tmp_path / "bad.urdf"
    bad.write_text('<robot name="r"><link name="a"/><link name="b"/>\n'
                   '<joint name="j" type="floating"><parent link="a"/><child link="b"/></joint></robot>')
    with pytest.raises(ValueError, match=r"bad.urdf:2: joint \"j\": unsupported joint type \"floating\""):
        clash.Robot.load(bad)
    with pytest.raises(ValueError) as info:
        clash.Robot.load(UR5 / "urdf" / "ur5_robot.urdf")  # the package map is missing
    message = str(info.value)
    assert 'package "example-robot-data" was not found' in message, message
    assert message.endswith('; give its folder in packages={"example-robot-data": DIR}'), message
    robot = clash.Robot.load(PANDA / "urdf" / "panda_collision.urdf")
    srdf = tmp_path / "bad.srdf"
    srdf.write_text('<robot name="panda">\n<disable_collisions link1="panda_link0" link2="nope"/></robot>')
    with pytest.raises(ValueError, match="bad.srdf:2"):
        clash.RobotWorld(robot, srdf)
    with pytest.raises(FileNotFoundError):
        clash.RobotWorld(robot, tmp_path / "none.srdf")
    world = clash.RobotWorld(robot)
    with pytest.raises(ValueError, match=r"q must have shape \(C, 8\)"):
        world.batch_first_collision(np.zeros((3, 7)))
    q = np.zeros((2, 8))
    q[1, 4] = np.nan
    with pytest.raises(ValueError, match="not finite"):
        world.batch_distance(q)
    with pytest.raises(ValueError, match="margin must be finite"):
        world.batch_first_collision(np.zeros((1, 8)), margin=-1)
    with pytest.raises(ValueError, match="obb/f64 trees"):
        world.insert_obstacle(clash.Tree.build(str(PANDA / "meshes" / "collision" / "link3.stl"), bv="rss"))
    for f in (world.first_collision, world.distance, world.collisions):
        with pytest.raises(ValueError, match=r"q must have shape \(8,\), not \(1, 8\)"):
            f(np.zeros((1, 8)))
        with pytest.raises(ValueError, match=r"q: joint \"panda_joint5\": value NaN is not finite"):
            f([0, 0, 0, -1, np.nan, 1, 0, 0])
    with pytest.raises(ValueError, match=r"q must have shape \(8,\) or \(C, 8\), not \(1, 3\)"):
        robot.forward_kinematics(np.zeros((1, 3)))
    with pytest.raises(ValueError, match=r"q must have shape \(8,\) or \(C, 8\), not \(1, 1, 8\)"):
        robot.forward_kinematics(np.zeros((1, 1, 8)))
    with pytest.raises(ValueError, match="q: expected 8"):
        robot.forward_kinematics(np.zeros(3))
    q = np.zeros((40, 8))
    q[33, 2] = np.inf
    with pytest.raises(ValueError, match=r"q\[33\]: .*not finite"):
        robot.forward_kinematics(q)


def test_packages_are_found_above_the_urdf_and_on_ros_package_path(tmp_path, monkeypatch):
    """A URDF inside its package (a folder named for it, or holding a
    ``package.xml`` naming it) needs no ``packages=``; nor does one whose
    package is on ``ROS_PACKAGE_PATH``. The answers are those of the map."""
    import shutil

    expected = clash.Robot.load(UR5 / "urdf" / "ur5_robot.urdf", UR5_PACKAGES)
    q = np.full((1, expected.dof), 0.4)
    package = tmp_path / "checkout"
    meshes = package / "robots" / "ur_description" / "meshes" / "ur5"
    shutil.copytree(UR5 / "meshes" / "collision", meshes / "collision")
    (package / "package.xml").write_text(
        "<package format='2'><name>example-robot-data</name></package>")
    urdf = package / "robots" / "ur_description" / "urdf" / "ur5_robot.urdf"
    urdf.parent.mkdir(parents=True)
    shutil.copy(UR5 / "urdf" / "ur5_robot.urdf", urdf)

    def poses(robot):
        return robot.forward_kinematics(q[0])

    for a, b in zip(poses(clash.Robot.load(urdf)), poses(expected)):
        np.testing.assert_array_equal(a, b)
    elsewhere = tmp_path / "elsewhere.urdf"
    shutil.copy(urdf, elsewhere)
    with pytest.raises(ValueError, match="packages="):
        clash.Robot.load(elsewhere)
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(tmp_path / "missing") + ":" + str(tmp_path))
    for a, b in zip(poses(clash.Robot.load(elsewhere)), poses(expected)):
        np.testing.assert_array_equal(a, b)


def test_forward_kinematics_of_many_vectors_is_each_vectors():
    """``(C, dof)`` in, ``(C, L, 4, 4)`` out: row ``c`` is the one-vector
    answer for ``q[c]``, on the calling thread (16 rows or fewer) or the
    pool, whatever the thread count."""
    for path, packages in ((PANDA / "urdf" / "panda_collision.urdf", None),
                           (UR5 / "urdf" / "ur5_robot.urdf", UR5_PACKAGES)):
        robot = clash.Robot.load(path, packages)
        lo, hi = robot.limits[:, 0], robot.limits[:, 1]
        lo, hi = np.maximum(lo, -np.pi), np.minimum(hi, np.pi)
        q = np.random.default_rng(4).uniform(lo, hi, size=(50, robot.dof))
        one = np.stack([robot.forward_kinematics(v) for v in q])
        assert one.shape == (50, len(robot.link_names), 4, 4)
        for n in (0, 1, 16, 17, 50):
            for threads in (None, 1, 2):
                np.testing.assert_array_equal(robot.forward_kinematics(q[:n], threads=threads), one[:n])
