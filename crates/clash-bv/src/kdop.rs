use clash_math::Scalar;
use serde::{Deserialize, Serialize};

/// Discrete-orientation polytope with `N` fixed direction pairs, RTCD §4.6:
/// the slab intersection `min[i] <= d_i · x <= max[i]`. `Kdop<T, 7>` is the
/// 14-DOP, `Kdop<T, 9>` the 18-DOP, `Kdop<T, 13>` the 26-DOP.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Kdop<T: Scalar, const N: usize> {
    /// Lower slab bounds, one per direction.
    #[serde(with = "serde_arrays")]
    pub min: [T; N],
    /// Upper slab bounds, one per direction.
    #[serde(with = "serde_arrays")]
    pub max: [T; N],
}

/// 14-DOP: the 3 axes and the 4 cube diagonals.
pub type Kdop14<T> = Kdop<T, 7>;
/// 18-DOP: the 3 axes and the 6 edge diagonals.
pub type Kdop18<T> = Kdop<T, 9>;
/// 26-DOP: axes, edge diagonals and cube diagonals.
pub type Kdop26<T> = Kdop<T, 13>;
