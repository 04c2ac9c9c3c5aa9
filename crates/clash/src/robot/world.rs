//! [`RobotWorld`]: a robot's collision elements as objects of a
//! [`CollisionWorld`], next to the obstacles around it, posed by forward
//! kinematics; self-collision, robot-against-obstacles and distance
//! queries for one joint vector or a batch of them.

use super::{
    AllowedCollisionMatrix, CollisionGeometry, Configurations, JointError, Robot, RobotPoses,
};
use crate::world::{
    CollisionFilter, CollisionWorld, Geometry, ObjectHandle, ObjectSettings, PairCollision,
    PairDistance, Selection, WorldError, WorldQuery, WorldVolume,
};
use clash_bv::{FitVolume, Obb};
use clash_bvh::{BuildOptions, Bvh, TriMesh};
use clash_convex::{Ball, CapsuleShape, ConvexHull, Cuboid, Cylinder, Shape};
use clash_math::Isometry3;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;
use thiserror::Error;

/// Configurations per rayon job at least: a configuration is little work,
/// so smaller jobs would spend more on splitting and on the per-job
/// buffers than on the work.
const MIN_CONFIGS_PER_JOB: usize = 32;

/// The collision group of the robot's elements.
pub const ROBOT_GROUP: u32 = 1;
/// The collision group of obstacles (checked against the robot only).
pub const OBSTACLE_GROUP: u32 = 2;

/// How a [`RobotWorld`] turns the robot's collision elements into objects.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotWorldOptions {
    /// Use each mesh's convex hull instead of the mesh, as robotics users
    /// mark meshes convex (faster; larger than the mesh where it is concave).
    pub meshes_as_convex_hulls: bool,
    /// Never check pairs of links joined by a joint (what MoveIt's setup
    /// assistant writes into SRDFs as `Adjacent`; not every SRDF lists them
    /// all).
    pub allow_adjacent_links: bool,
    /// How mesh trees are built.
    pub build: BuildOptions,
}

impl Default for RobotWorldOptions {
    /// Meshes as meshes, adjacent links never checked, default tree build.
    fn default() -> Self {
        Self {
            meshes_as_convex_hulls: false,
            allow_adjacent_links: true,
            build: BuildOptions::default(),
        }
    }
}

/// Why a [`RobotWorld`] could not be built or queried.
#[derive(Debug, Error)]
pub enum RobotWorldError {
    /// A collision element's shape could not be made (a degenerate hull, a
    /// mesh whose tree failed to build).
    #[error("collision element {element} of link `{link}`: {reason}")]
    Geometry {
        /// The element's index in [`Robot::collision_elements`].
        element: usize,
        /// Its link's name.
        link: String,
        /// What went wrong.
        reason: String,
    },
    /// The allowed-collision matrix is for another robot.
    #[error("the allowed-collision matrix covers {matrix} links, the robot has {robot}")]
    MatrixSize {
        /// Links in the matrix.
        matrix: usize,
        /// Links in the robot.
        robot: usize,
    },
    /// A joint vector was refused.
    #[error(transparent)]
    Joint(#[from] JointError),
    /// The world refused an operation or query.
    #[error(transparent)]
    World(#[from] WorldError),
}

/// A robot and its obstacles in one [`CollisionWorld`]: each collision
/// element is an object in [`ROBOT_GROUP`] whose tag is its element index,
/// pairs inside a link, pairs of links the matrix allows and (by default)
/// pairs of adjacent links are never checked, and obstacles
/// ([`OBSTACLE_GROUP`]) are checked against the robot only.
///
/// ```
/// use clash::robot::{ConfigurationSampler, PackageMap, Robot, RobotWorld, RobotWorldOptions, Srdf};
/// use clash::WorldQuery;
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
/// let panda = Robot::from_urdf_file(data.join("urdf/panda_collision.urdf"), &PackageMap::new())?;
/// let acm = Srdf::from_file(data.join("srdf/panda.srdf"), &panda)?.allowed_collisions();
/// let mut world: RobotWorld = RobotWorld::new(&panda, Some(&acm), &RobotWorldOptions::default())?;
/// let ready = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02];
/// world.set_configuration(&ready)?;
/// assert!(world.self_collision()?.is_none());
/// // A batch of random joint vectors, answered in input order on every core.
/// let configs = ConfigurationSampler::new(&panda, 7).sample_many(1000);
/// let answers = world.batch_first_collision(&configs, &WorldQuery::default())?;
/// let (a, b) = answers.iter().flatten().next().expect("some random poses self-collide");
/// println!("{} touches {}", world.link_name(*a).unwrap(), world.link_name(*b).unwrap());
/// # Ok(()) }
/// ```
pub struct RobotWorld<B: WorldVolume<f64> = Obb<f64>> {
    robot: Robot,
    world: CollisionWorld<f64, B>,
    /// The handle of each collision element.
    elements: Vec<ObjectHandle>,
    poses: RobotPoses,
}

impl<B: WorldVolume<f64> + FitVolume<f64>> RobotWorld<B> {
    /// The robot's collision elements as objects (at the identity pose
    /// until [`set_configuration`](Self::set_configuration)), with the
    /// pairs `allowed` allows never checked.
    ///
    /// # Errors
    /// [`RobotWorldError::Geometry`], [`RobotWorldError::MatrixSize`].
    pub fn new(
        robot: &Robot,
        allowed: Option<&AllowedCollisionMatrix>,
        options: &RobotWorldOptions,
    ) -> Result<Self, RobotWorldError> {
        if let Some(m) = allowed
            && m.num_links() != robot.links().len()
        {
            return Err(RobotWorldError::MatrixSize {
                matrix: m.num_links(),
                robot: robot.links().len(),
            });
        }
        let mut world = CollisionWorld::new(0.0)?;
        let mut trees: HashMap<*const TriMesh<f64>, Arc<Bvh<f64, B>>> = HashMap::new();
        let mut hulls: HashMap<*const TriMesh<f64>, Arc<ConvexHull<f64>>> = HashMap::new();
        let mut elements = Vec::with_capacity(robot.collision_elements().len());
        for (index, element) in robot.collision_elements().iter().enumerate() {
            let fail = |reason: String| RobotWorldError::Geometry {
                element: index,
                link: robot.links()[element.link].name.clone(),
                reason,
            };
            let shape_err = |e: clash_convex::ShapeError| fail(e.to_string());
            let geometry: Geometry<f64, B> = match &element.geometry {
                CollisionGeometry::Box { half_extents } => {
                    Shape::Cuboid(Cuboid::new(*half_extents).map_err(shape_err)?).into()
                }
                CollisionGeometry::Sphere { radius } => {
                    Shape::Ball(Ball::new(*radius).map_err(shape_err)?).into()
                }
                CollisionGeometry::Cylinder { radius, length } => {
                    Shape::Cylinder(Cylinder::new(length / 2.0, *radius).map_err(shape_err)?).into()
                }
                CollisionGeometry::Capsule { radius, length } => {
                    Shape::Capsule(CapsuleShape::new(length / 2.0, *radius).map_err(shape_err)?)
                        .into()
                }
                CollisionGeometry::Mesh { mesh, .. } if options.meshes_as_convex_hulls => {
                    let hull = match hulls.get(&Arc::as_ptr(mesh)) {
                        Some(h) => h.clone(),
                        None => {
                            let h = Arc::new(ConvexHull::new(mesh.vertices()).map_err(shape_err)?);
                            hulls.insert(Arc::as_ptr(mesh), h.clone());
                            h
                        }
                    };
                    Shape::ConvexHull(hull).into()
                }
                CollisionGeometry::Mesh { mesh, .. } => {
                    let tree = match trees.get(&Arc::as_ptr(mesh)) {
                        Some(t) => t.clone(),
                        None => {
                            let t = Bvh::build((**mesh).clone(), &options.build)
                                .map_err(|e| fail(e.to_string()))?;
                            let t = Arc::new(t);
                            trees.insert(Arc::as_ptr(mesh), t.clone());
                            t
                        }
                    };
                    Geometry::Mesh(tree)
                }
            };
            let settings = ObjectSettings {
                filter: CollisionFilter::new(ROBOT_GROUP, u32::MAX),
                tag: index as u64,
            };
            elements.push(world.insert_with(geometry, Isometry3::identity(), settings)?);
        }
        let collisions = robot.collision_elements();
        for (i, &hi) in elements.iter().enumerate() {
            for (j, &hj) in elements.iter().enumerate().skip(i + 1) {
                let (li, lj) = (collisions[i].link, collisions[j].link);
                if li == lj
                    || allowed.is_some_and(|m| m.is_allowed(li, lj))
                    || (options.allow_adjacent_links && robot.are_adjacent(li, lj))
                {
                    world.allow_pair(hi, hj, true)?;
                }
            }
        }
        Ok(Self {
            robot: robot.clone(),
            world,
            elements,
            poses: RobotPoses::new(robot),
        })
    }

    /// The robot.
    pub fn robot(&self) -> &Robot {
        &self.robot
    }

    /// The world of robot elements and obstacles, to read (queries with
    /// any [`WorldQuery`] go through [`collide`](Self::collide),
    /// [`first_collision`](Self::first_collision) and
    /// [`distance`](Self::distance), which keep the robot's objects in place).
    pub fn world(&self) -> &CollisionWorld<f64, B> {
        &self.world
    }

    /// Every colliding pair `query` selects, with contacts, on the current
    /// configuration (see [`CollisionWorld::collide`]).
    ///
    /// # Errors
    /// [`WorldError::InvalidQuery`], or an unknown handle in the selection.
    pub fn collide(
        &mut self,
        query: &WorldQuery<f64>,
    ) -> Result<Vec<PairCollision<f64>>, WorldError> {
        self.world.collide(query)
    }

    /// The first colliding pair `query` selects, in handle order, on the
    /// current configuration.
    ///
    /// # Errors
    /// As [`collide`](Self::collide).
    pub fn first_collision(
        &mut self,
        query: &WorldQuery<f64>,
    ) -> Result<Option<(ObjectHandle, ObjectHandle)>, WorldError> {
        self.world.first_collision(query)
    }

    /// The closest pair `query` selects on the current configuration.
    ///
    /// # Errors
    /// As [`collide`](Self::collide).
    pub fn distance(
        &self,
        query: &WorldQuery<f64>,
    ) -> Result<Option<PairDistance<f64>>, WorldError> {
        self.world.distance(query)
    }

    /// The handle of each collision element, indexed as
    /// [`Robot::collision_elements`].
    pub fn element_handles(&self) -> &[ObjectHandle] {
        &self.elements
    }

    /// The link an object belongs to; `None` for obstacles.
    pub fn link_of(&self, handle: ObjectHandle) -> Option<usize> {
        let element = self.elements.iter().position(|&h| h == handle)?;
        Some(self.robot.collision_elements()[element].link)
    }

    /// The name of the link an object belongs to; `None` for obstacles.
    pub fn link_name(&self, handle: ObjectHandle) -> Option<&str> {
        self.link_of(handle)
            .map(|l| self.robot.links()[l].name.as_str())
    }

    /// Adds an obstacle, checked against the robot only.
    ///
    /// # Errors
    /// [`WorldError::NonFinitePose`].
    pub fn insert_obstacle(
        &mut self,
        geometry: impl Into<Geometry<f64, B>>,
        pose: Isometry3<f64>,
    ) -> Result<ObjectHandle, WorldError> {
        let settings = ObjectSettings {
            filter: CollisionFilter::new(OBSTACLE_GROUP, ROBOT_GROUP),
            tag: u64::MAX,
        };
        self.world.insert_with(geometry, pose, settings)
    }

    /// Moves an obstacle.
    ///
    /// # Errors
    /// [`WorldError::InvalidQuery`] for a robot element's handle; unknown or
    /// stale handle; non-finite pose.
    pub fn set_obstacle_pose(
        &mut self,
        handle: ObjectHandle,
        pose: Isometry3<f64>,
    ) -> Result<(), WorldError> {
        self.check_obstacle(handle)?;
        self.world.set_pose(handle, pose)
    }

    /// Removes an obstacle and gives back its geometry.
    ///
    /// # Errors
    /// [`WorldError::InvalidQuery`] for a robot element's handle; unknown or
    /// stale handle.
    pub fn remove_obstacle(
        &mut self,
        handle: ObjectHandle,
    ) -> Result<Geometry<f64, B>, WorldError> {
        self.check_obstacle(handle)?;
        self.world.remove(handle)
    }

    fn check_obstacle(&self, handle: ObjectHandle) -> Result<(), WorldError> {
        if self.elements.contains(&handle) {
            return Err(WorldError::InvalidQuery(
                "the handle is a robot element's: the robot's kinematics place it",
            ));
        }
        Ok(())
    }

    /// Places the robot's elements for the joint vector `q` (limits are not
    /// checked: see [`Robot::check_limits`]).
    ///
    /// # Errors
    /// [`JointError`] for a vector of the wrong length or with a non-finite value.
    pub fn set_configuration(&mut self, q: &[f64]) -> Result<(), RobotWorldError> {
        self.robot.check_values(q)?;
        self.robot.forward_kinematics(q, &mut self.poses)?;
        for (&h, pose) in self.elements.iter().zip(self.poses.collisions()) {
            self.world.set_pose(h, *pose)?;
        }
        Ok(())
    }

    /// The first colliding pair of robot elements not allowed to collide,
    /// in handle order, on the current configuration.
    ///
    /// # Errors
    /// Never for a world built by [`new`](Self::new); typed for safety.
    pub fn self_collision(&mut self) -> Result<Option<(ObjectHandle, ObjectHandle)>, WorldError> {
        let query = WorldQuery::default().with_selection(Selection::WithinGroup(ROBOT_GROUP));
        self.world.first_collision(&query)
    }

    /// The pose of every object in [`CollisionWorld::handles`] order, the
    /// obstacles where they are (the robot's elements to be filled in), and
    /// the index in it of each robot element.
    fn layout(&self) -> (Vec<Isometry3<f64>>, Vec<usize>) {
        let handles = self.world.handles();
        let base: Vec<Isometry3<f64>> = handles
            .iter()
            .map(|&h| *self.world.pose(h).expect("live handle"))
            .collect();
        let slot: Vec<usize> = self
            .elements
            .iter()
            .map(|h| handles.binary_search(h).expect("live handle"))
            .collect();
        (base, slot)
    }

    /// The poses of every object of the world for each joint vector of
    /// `configs`, in [`CollisionWorld::handles`] order, obstacles where they
    /// are: the input of the world's batches.
    fn batch<R: Send>(
        &self,
        configs: &Configurations,
        run: impl Fn(&[Isometry3<f64>]) -> R + Sync,
    ) -> Result<Vec<R>, RobotWorldError> {
        if configs.dof() != self.robot.dof() {
            return Err(JointError::WrongLength {
                expected: self.robot.dof(),
                found: configs.dof(),
            }
            .into());
        }
        for q in configs.iter() {
            self.robot.check_values(q)?;
        }
        let (base, slot) = self.layout();
        let init = || (RobotPoses::new(&self.robot), base.clone());
        let answers: Vec<Result<R, JointError>> = configs
            .iter()
            .collect::<Vec<_>>()
            .par_iter()
            .with_min_len(MIN_CONFIGS_PER_JOB)
            .map_init(init, |(fk, poses), q| {
                // Values are finite (checked above), but huge ones can
                // overflow a pose.
                self.robot.forward_kinematics(q, fk)?;
                for (&s, pose) in slot.iter().zip(fk.collisions()) {
                    poses[s] = *pose;
                }
                Ok(run(poses))
            })
            .collect();
        // The first failing configuration in input order, whatever the
        // thread count.
        Ok(answers.into_iter().collect::<Result<Vec<R>, _>>()?)
    }

    /// The poses of every object for the joint vector `q`, as [`Self::batch`]
    /// gives them, on the calling thread.
    fn poses_at(&self, q: &[f64]) -> Result<Vec<Isometry3<f64>>, RobotWorldError> {
        self.robot.check_values(q)?;
        let (mut poses, slot) = self.layout();
        let fk = self.robot.poses(q)?;
        for (&s, pose) in slot.iter().zip(fk.collisions()) {
            poses[s] = *pose;
        }
        Ok(poses)
    }

    /// The first colliding pair `query` selects (stop at the first), in
    /// handle order, with the robot placed by the joint vector `q`: what
    /// [`set_configuration`](Self::set_configuration) then
    /// [`first_collision`](Self::first_collision) answer, without moving
    /// the world, on the calling thread (the batch's answer for one
    /// vector).
    ///
    /// ```
    /// use clash::WorldQuery;
    /// use clash::convex::{Ball, Shape};
    /// use clash::math::Isometry3;
    /// use clash::robot::{PackageMap, Robot, RobotWorld, RobotWorldOptions, Srdf};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
    /// let panda = Robot::from_urdf_file(data.join("urdf/panda_collision.urdf"), &PackageMap::new())?;
    /// let acm = Srdf::from_file(data.join("srdf/panda.srdf"), &panda)?.allowed_collisions();
    /// let mut world: RobotWorld = RobotWorld::new(&panda, Some(&acm), &RobotWorldOptions::default())?;
    /// let ready = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02];
    /// assert_eq!(world.first_collision_at(&ready, &WorldQuery::default())?, None);
    /// // A ball around the robot's base.
    /// let ball = world.insert_obstacle(Shape::Ball(Ball::new(0.2)?), Isometry3::translation(0.0, 0.0, 0.1))?;
    /// let (_, b) = world.first_collision_at(&ready, &WorldQuery::default())?.expect("the base meets it");
    /// assert_eq!(b, ball);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`batch_first_collision`](Self::batch_first_collision), for the
    /// one vector.
    pub fn first_collision_at(
        &self,
        q: &[f64],
        query: &WorldQuery<f64>,
    ) -> Result<Option<(ObjectHandle, ObjectHandle)>, RobotWorldError> {
        let plan = self.world.batch_plan(query)?;
        let poses = self.poses_at(q)?;
        Ok(plan
            .first_collision(&poses)
            .map(|(i, j)| (plan.handle(i), plan.handle(j))))
    }

    /// Every colliding pair `query` selects, with its contacts (up to the
    /// query's `max_contacts_per_pair`), sorted by handles, with the robot
    /// placed by `q` as [`first_collision_at`](Self::first_collision_at)
    /// places it: what [`set_configuration`](Self::set_configuration) then
    /// [`collide`](Self::collide) answer.
    ///
    /// # Errors
    /// As [`first_collision_at`](Self::first_collision_at).
    pub fn collisions_at(
        &self,
        q: &[f64],
        query: &WorldQuery<f64>,
    ) -> Result<Vec<PairCollision<f64>>, RobotWorldError> {
        let plan = self.world.batch_plan(query)?;
        let poses = self.poses_at(q)?;
        Ok(plan.collide(&poses))
    }

    /// The closest pair `query` selects with the robot placed by `q`, as
    /// [`first_collision_at`](Self::first_collision_at) places it.
    ///
    /// # Errors
    /// As [`first_collision_at`](Self::first_collision_at).
    pub fn distance_at(
        &self,
        q: &[f64],
        query: &WorldQuery<f64>,
    ) -> Result<Option<PairDistance<f64>>, RobotWorldError> {
        let plan = self.world.batch_plan(query)?;
        let poses = self.poses_at(q)?;
        Ok(plan.distance(&poses))
    }

    /// For each joint vector, the first colliding pair `query` selects
    /// (stop at the first), in input order, on the current rayon pool.
    ///
    /// # Errors
    /// [`RobotWorldError::Joint`] for a vector of the wrong length, with a
    /// non-finite value, or with values so large that a pose overflows
    /// (the first such vector in input order); [`RobotWorldError::World`]
    /// for a bad query.
    pub fn batch_first_collision(
        &self,
        configs: &Configurations,
        query: &WorldQuery<f64>,
    ) -> Result<Vec<Option<(ObjectHandle, ObjectHandle)>>, RobotWorldError> {
        let plan = self.world.batch_plan(query)?;
        self.batch(configs, |poses| {
            plan.first_collision(poses)
                .map(|(i, j)| (plan.handle(i), plan.handle(j)))
        })
    }

    /// For each joint vector, the closest pair `query` selects, in input
    /// order, on the current rayon pool.
    ///
    /// # Errors
    /// As [`batch_first_collision`](Self::batch_first_collision).
    pub fn batch_distance(
        &self,
        configs: &Configurations,
        query: &WorldQuery<f64>,
    ) -> Result<Vec<Option<PairDistance<f64>>>, RobotWorldError> {
        let plan = self.world.batch_plan(query)?;
        self.batch(configs, |poses| plan.distance(poses))
    }
}
