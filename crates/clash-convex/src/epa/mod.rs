//! The expanding polytope algorithm (van den Bergen, "Proximity Queries and
//! Penetration Depth Computation on 3D Game Objects", GDC 2001; *Collision
//! Detection in Interactive 3D Environments* §4.3.8): the penetration depth
//! of two overlapping convex shapes as the distance from the origin to the
//! boundary of their Minkowski difference.
//!
//! Starting from GJK's final simplex, blown up to a polytope around the
//! origin when it is flat (`start`), the polytope inside `A - B` grows by
//! the support point beyond its face closest to the origin, replacing the
//! faces that point sees by a fan over their horizon (`polytope`), until
//! that support point lies within tolerance of the face. The closest face's
//! distance is a lower bound on the depth and the smallest support value
//! seen an upper bound, so the answer carries an error bound even when the
//! polytope's fixed capacity ([`MAX_VERTICES`]) or the iteration limit stops
//! it early. Touching shapes (origin on the boundary) give depth 0, and a
//! flat difference (two coplanar flat shapes) depth 0 along its normal.

mod expand;
mod polytope;
mod start;

pub(crate) use expand::penetration;

/// The most vertices EPA's polytope holds (its faces live in a fixed
/// buffer of twice as many); no query allocates.
pub const MAX_VERTICES: usize = 128;

/// The most faces: a closed triangulated polytope of `V` vertices has
/// `2V - 4`.
pub(crate) const MAX_FACES: usize = 2 * MAX_VERTICES;
