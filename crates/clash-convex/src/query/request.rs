//! [`QueryRequest`]: what every query is asked with.

use crate::gjk::GjkVariant;
use crate::query::WarmStart;
use clash_math::Scalar;
use serde::{Deserialize, Serialize};

/// Parameters of a query, with coal's and FCL's names where they have one.
///
/// ```
/// use clash_convex::{gjk::GjkVariant, query::QueryRequest};
/// let req = QueryRequest::<f64> {
///     security_margin: 0.01,
///     gjk_variant: GjkVariant::Nesterov,
///     ..QueryRequest::default()
/// };
/// assert_eq!(req.distance_upper_bound, f64::INFINITY);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct QueryRequest<T: Scalar> {
    /// Shapes closer than this count as intersecting
    /// ([`crate::query::intersects`]); 0 by default, negative to demand
    /// that much penetration.
    pub security_margin: T,
    /// [`crate::query::distance`] and [`crate::query::contact`] stop as soon
    /// as the distance is proven larger than this, and say so in their
    /// status (infinite by default).
    pub distance_upper_bound: T,
    /// Accuracy asked of distances and depths, relative to the shapes' size
    /// (the sum of their extents and margins): `1e-10` for `f64`, `1e-5` for
    /// `f32` by default. Polytopes usually converge exactly before it.
    pub tolerance: T,
    /// The most GJK iterations, and separately the most EPA iterations
    /// (128 by default).
    pub max_iterations: u32,
    /// Plain or Nesterov-accelerated GJK.
    pub gjk_variant: GjkVariant,
    /// Where to start: the warm start of an earlier result on the same pair.
    pub warm_start: Option<WarmStart<T>>,
}

impl<T: Scalar> Default for QueryRequest<T> {
    fn default() -> Self {
        Self {
            security_margin: T::ZERO,
            distance_upper_bound: T::INFINITY,
            tolerance: default_tolerance(),
            max_iterations: 128,
            gjk_variant: GjkVariant::Plain,
            warm_start: None,
        }
    }
}

/// The default relative tolerance of the scalar type.
pub(crate) fn default_tolerance<T: Scalar>() -> T {
    if T::BYTES == 8 {
        T::lit(1e-10)
    } else {
        T::lit(1e-5)
    }
}

impl<T: Scalar> QueryRequest<T> {
    /// The same request starting from `warm_start`.
    pub fn with_warm_start(self, warm_start: WarmStart<T>) -> Self {
        Self {
            warm_start: Some(warm_start),
            ..self
        }
    }
}
