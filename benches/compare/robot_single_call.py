"""One robot configuration per call: clash's ``RobotWorld.first_collision(q)``
against Pinocchio + coal's ``computeCollisions(..., stop_at_first_collision=True)``
(forward kinematics, placements and the pair loop) on the same joint
vectors, in one run: the primitive and mesh Panda and the UR5 of
``data/robots``, with their SRDFs.

    python robot_single_call.py [CALLS=2000]

Prints µs per call (best of 5 loops), pin + coal over clash, and how often
the two agree on whether the configuration collides (pin checks the pairs
the SRDF leaves; clash also never checks links joined by a joint).
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np
import pinocchio as pin

import clash
from peer_models import best_per_call

REPO = Path(__file__).resolve().parents[2]
ROBOTS = REPO / "data" / "robots"
calls = int(sys.argv[1]) if len(sys.argv) > 1 else 2000

# pin resolves package://NAME/... as a folder NAME in its package dirs:
# lay the repository's robots out that way.
pkgs = Path(tempfile.mkdtemp())
(pkgs / "example-robot-data/robots/ur_description/meshes/ur5").mkdir(parents=True)
(pkgs / "example-robot-data/robots/panda_description").symlink_to(ROBOTS / "panda")
(pkgs / "example-robot-data/robots/ur_description/meshes/ur5/collision").symlink_to(
    ROBOTS / "ur5/meshes/collision")
UR5_PACKAGES = {"example-robot-data/robots/ur_description/meshes/ur5": str(ROBOTS / "ur5/meshes")}


def best(f):
    return best_per_call(f, calls)


def compare(name, urdf, srdf, packages):
    robot = clash.Robot.load(urdf, packages)
    world = clash.RobotWorld(robot, srdf)
    model = pin.buildModelFromUrdf(str(urdf))
    geom = pin.buildGeomFromUrdf(model, str(urdf), pin.COLLISION, package_dirs=[str(pkgs)])
    geom.addAllCollisionPairs()
    pin.removeCollisionPairs(model, geom, str(srdf))
    data, gdata = model.createData(), pin.GeometryData(geom)
    rng = np.random.default_rng(5)
    lo, hi = robot.limits[:, 0], robot.limits[:, 1]
    qs = rng.uniform(np.maximum(lo, -np.pi), np.minimum(hi, np.pi), size=(calls, robot.dof))
    # pin's vector: every joint of the URDF in its order (a mimic finger
    # repeats its leader's value).
    names = list(robot.joint_names)
    pin_index = [names.index(model.names[j]) if model.names[j] in names else names.index(
        "panda_finger_joint1") for j in range(1, model.njoints)]
    pqs = [np.ascontiguousarray(q[pin_index]) for q in qs]
    ours = [world.first_collision(q) is not None for q in qs]
    theirs = [pin.computeCollisions(model, data, geom, gdata, q, True) for q in pqs]
    agree = sum(a == b for a, b in zip(ours, theirs))
    a = best(lambda: [world.first_collision(q) for q in qs])
    b = best(lambda: [world.batch_first_collision(q[None]) for q in qs])
    c = best(lambda: [pin.computeCollisions(model, data, geom, gdata, q, True) for q in pqs])
    print(f"{name}: clash first_collision {a:7.2f} us, one-row batch {b:7.2f} us, "
          f"pin + coal {c:7.2f} us, pin+coal / clash {c / a:5.2f}x; "
          f"collide in {sum(ours)} / {calls}, agree on {agree}")


print(f"clash {clash.__version__}, pin {pin.__version__}, {calls} calls per loop")
compare("panda primitives", ROBOTS / "panda/urdf/panda_collision.urdf", ROBOTS / "panda/srdf/panda.srdf", None)
compare("panda meshes", ROBOTS / "panda/urdf/panda.urdf", ROBOTS / "panda/srdf/panda.srdf",
        {"example-robot-data/robots/panda_description": str(ROBOTS / "panda")})
compare("ur5 meshes", ROBOTS / "ur5/urdf/ur5_robot.urdf", ROBOTS / "ur5/srdf/ur5.srdf", UR5_PACKAGES)
