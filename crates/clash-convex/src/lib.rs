//! # clash-convex
//!
//! Convex shapes and the queries between them: do two shapes intersect,
//! how far apart are they (with the closest points), how deep do they
//! overlap (with the normal and a witness point on each), where do boxes
//! and hulls touch (a contact manifold), and when do two moving shapes
//! first touch (time of impact). Generic over `f32` and `f64`.
//!
//! - [`SupportMap`]: a convex shape seen through its support mapping, plus a
//!   margin. Implement it for your own shapes.
//! - [`shape`]: [`Ball`], [`Cuboid`], [`CapsuleShape`], [`Cylinder`],
//!   [`Cone`], [`SegmentShape`], [`TriangleShape`], [`ConvexHull`] (with
//!   hill climbing on large hulls), the [`Shape`] enum over them, and their
//!   bounding volumes ([`shape::bounding`]).
//! - [`gjk`] (RTCD §9.5) and [`epa`] (van den Bergen's expanding polytope):
//!   the general algorithms; closed forms give exact answers for pairs of
//!   balls, capsules, segments and boxes.
//! - [`query`]: [`query::intersects`], [`query::distance`],
//!   [`query::contact`] for any pair under two poses.
//! - [`manifold`]: up to four contact points for box/box, box/hull and
//!   hull/hull; one deepest point for other pairs.
//! - [`toi`]: the time of impact of two moving shapes by conservative
//!   advancement.
//!
//! ```
//! use clash_convex::{ConvexHull, Cuboid, CapsuleShape, query::{contact, distance, QueryRequest}};
//! use clash_convex::manifold::contact_manifold;
//! use clash_math::{Isometry3, Point3, Vector3};
//!
//! let req = QueryRequest::default();
//! let cube = Cuboid::new(Vector3::new(1.0_f64, 1.0, 1.0))?;
//! let rod = CapsuleShape::new(1.0, 0.25)?; // along its local z axis
//! let d = distance(&cube, &Isometry3::identity(), &rod, &Isometry3::translation(3.0, 0.0, 0.0), &req);
//! assert!((d.distance - 1.75).abs() < 1e-12);
//! // A hull from points (Quickhull with exact predicates), 0.1 deep in the cube.
//! let tet = ConvexHull::new(&[Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0),
//!                             Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0)])?;
//! let c = contact(&cube, &Isometry3::identity(), &tet, &Isometry3::translation(0.0, 0.0, 0.9), &req);
//! assert!((c.penetration_depth() - 0.1).abs() < 1e-12 && (c.normal - Vector3::z()).norm() < 1e-12);
//! // A box resting on the cube touches it at four points.
//! let lid = Isometry3::new(Vector3::new(0.0, 0.0, 1.499), Vector3::z() * 0.3);
//! let small = Cuboid::new(Vector3::new(0.5, 0.5, 0.5))?;
//! assert_eq!(contact_manifold(&cube, &Isometry3::identity(), &small, &lid, &req).points().len(), 4);
//! # Ok::<(), clash_convex::ShapeError>(())
//! ```
//!
//! A ball against a box, through the closed form:
//!
//! ```
//! use clash_convex::{Ball, Cuboid, query::{contact, distance, intersects, QueryRequest}};
//! use clash_math::{Isometry3, Vector3};
//!
//! let ball = Ball::new(0.5_f64)?;
//! let cube = Cuboid::new(Vector3::new(1.0, 1.0, 1.0))?;
//! let req = QueryRequest::default();
//! let near = Isometry3::translation(2.0, 0.0, 0.0);
//! let d = distance(&ball, &near, &cube, &Isometry3::identity(), &req);
//! assert!((d.distance - 0.5).abs() < 1e-12);
//! let deep = Isometry3::translation(1.25, 0.0, 0.0);
//! assert!(intersects(&ball, &deep, &cube, &Isometry3::identity(), &req));
//! let c = contact(&ball, &deep, &cube, &Isometry3::identity(), &req);
//! assert!((c.penetration_depth() - 0.25).abs() < 1e-12);
//! assert!((c.normal - Vector3::new(-1.0, 0.0, 0.0)).norm() < 1e-12);
//! # Ok::<(), clash_convex::ShapeError>(())
//! ```
#![forbid(unsafe_code)]

mod closed_form;
pub mod epa;
mod error;
pub mod gjk;
pub mod manifold;
pub mod query;
pub mod shape;
mod support;
pub mod toi;

pub use error::ShapeError;
pub use shape::{
    Ball, CapsuleShape, Cone, ConvexHull, Cuboid, Cylinder, SegmentShape, Shape, ShapeRef,
    TriangleShape,
};
pub use support::SupportMap;
