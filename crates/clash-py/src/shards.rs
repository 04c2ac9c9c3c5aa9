//! Input checks for callers that split a batch into shards (`clash.ray`):
//! the whole batch is checked once, by the same code and with the same
//! messages (and the same warning) as a single call, so that an error names
//! the bad entry's index in the whole batch, not in its shard. Each returns
//! the array it checked, as float64, for the caller to split.

use crate::arrays::read_f64;
use crate::error::{Error, Result};
use crate::input::{self, Array};
use crate::kind::TreeKind;
use clash::math::Scalar;
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArrayDyn};
use pyo3::prelude::*;

/// The precision a name stands for, `"f32"` or `"f64"` (checked by
/// `TreeKind::parse` with any volume type).
fn is_f32(precision: &str) -> Result<bool> {
    Ok(TreeKind::parse("obb", precision)?.precision == f32::NAME)
}

/// A float64 numpy array of any shape.
type F64Array<'py> = Bound<'py, PyArrayDyn<f64>>;

/// `a` back as a numpy array of its shape.
fn to_numpy<'py>(py: Python<'py>, a: Array) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let arr = ArrayD::from_shape_vec(IxDyn(&a.shape), a.data)
        .map_err(|e| Error::Internal(e.to_string()))?;
    Ok(arr.into_pyarray(py))
}

/// Checks `poses` as `collide` and `distance` do for trees of `precision`
/// (warning about repaired rotations) and returns them as float64.
#[pyfunction]
pub fn _check_poses<'py>(
    py: Python<'py>,
    poses: &Bound<'py, PyAny>,
    precision: &str,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let f32 = is_f32(precision)?;
    let a = read_f64(poses, "poses")?;
    let note = py.detach(|| {
        crate::pool::on_pool(|| {
            Ok(if f32 {
                input::poses::<f32>(&a)?.note
            } else {
                input::poses::<f64>(&a)?.note
            })
        })
    })?;
    crate::queries::warn(py, note)?;
    to_numpy(py, a)
}

/// Checks `points` as `closest_points` and `signed_distance` do for trees
/// of `precision` and returns them as float64.
#[pyfunction]
pub fn _check_points<'py>(
    py: Python<'py>,
    points: &Bound<'py, PyAny>,
    precision: &str,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let f32 = is_f32(precision)?;
    let a = read_f64(points, "points")?;
    if f32 {
        input::points::<f32>(&a, "points")?;
    } else {
        input::points::<f64>(&a, "points")?;
    }
    to_numpy(py, a)
}

/// Checks rays as `raycast` does for trees of `precision` and returns the
/// origins and directions as float64.
#[pyfunction]
pub fn _check_rays<'py>(
    py: Python<'py>,
    origins: &Bound<'py, PyAny>,
    directions: &Bound<'py, PyAny>,
    precision: &str,
) -> PyResult<(F64Array<'py>, F64Array<'py>)> {
    let f32 = is_f32(precision)?;
    let o = read_f64(origins, "origins")?;
    let d = read_f64(directions, "directions")?;
    if f32 {
        input::rays::<f32>(&o, &d)?;
    } else {
        input::rays::<f64>(&o, &d)?;
    }
    Ok((to_numpy(py, o)?, to_numpy(py, d)?))
}
