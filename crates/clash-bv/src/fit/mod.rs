//! What the fits of several volumes share: input checks (`check.rs`),
//! principal axes (`axes.rs`, `moment_sum.rs`), the passes over points
//! written once over lanes (`lanes/`), points picked by index
//! (`indexed_points.rs`), the point sets a fit visits in place
//! (`point_set.rs`) and the memory a fit reuses (`scratch.rs`).

pub(crate) mod axes;
pub(crate) mod check;
pub(crate) mod indexed_points;
pub(crate) mod lanes;
pub(crate) mod moment_sum;
pub(crate) mod point_set;
pub(crate) mod scratch;
