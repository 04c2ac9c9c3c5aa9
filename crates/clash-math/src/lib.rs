#![doc = include_str!("../README.md")]

pub mod covariance;
pub mod eigen;
mod error;
pub mod hull;
// Internal to the clash crates: the lanes the eigen solve, clash-bv's fits
// and its separating-axis test run in.
#[doc(hidden)]
pub mod lanes;
pub mod predicates;
// Internal to the clash crates: the cache hints of the tree traversals.
#[doc(hidden)]
pub mod prefetch;
pub mod primitives;
mod range;
mod scalar;
// Internal to the clash crates: RTCD §5.1.9's closest points of segments.
#[doc(hidden)]
pub mod segment_segment;
// Internal to the clash crates: the traversal stack of the tree descents.
#[doc(hidden)]
pub mod stack;

pub use covariance::{
    Covariance, MomentSum, MomentsAbout, TriangleMoments, covariance_of_convex_hull,
    covariance_of_hull, covariance_of_moments, covariance_of_points, covariance_of_triangles,
};
pub use eigen::{
    SymmetricEigen3, jacobi_eigen, symmetric_eigen_closed_form, symmetric_eigen_closed_form_x2,
};
pub use error::MathError;
// Internal to the clash crates (see `lanes`).
#[doc(hidden)]
pub use lanes::Pair;
pub use primitives::{Plane, Ray, Segment, Tetrahedron, Triangle};
pub use range::{RangeError, check_coordinate, check_direction, check_point, check_vector};
pub use scalar::{Scalar, isometry_is_finite, point_is_finite};

/// The nalgebra crate itself, for types this crate does not re-export by name.
pub use nalgebra;
pub use nalgebra::{
    Isometry3, Matrix3, Point3, Rotation3, Translation3, Unit, UnitQuaternion, UnitVector3, Vector3,
};
