//! numpy arrays in and out: any array-like of real numbers is read as
//! `f64` (indices as integers), copied into Rust memory before the GIL is
//! released (so another Python thread writing to the array cannot race a
//! query), and answers go back as plain numpy arrays that own Rust's
//! vectors (no copy).

use crate::error::Error;
use crate::input::{Array, shape_text};
use numpy::ndarray::Array2;
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods,
    PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::prelude::*;

/// `obj` as a numpy array (`numpy.asarray`), or a `ValueError` naming the
/// argument when numpy cannot make one (ragged lists, ...).
fn as_numpy<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyUntypedArray>> {
    let np = obj.py().import("numpy")?;
    let arr = np
        .call_method1("asarray", (obj,))
        .map_err(|e| Error::Value(format!("{name} cannot be read as an array: {e}")))?;
    Ok(arr.cast_into::<PyUntypedArray>()?)
}

/// The dtype's name, for messages (numpy computes it in Python: only on
/// the error path).
fn dtype_name(arr: &Bound<'_, PyUntypedArray>) -> String {
    arr.dtype()
        .str()
        .map(|s| s.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// `arr` converted to a C-contiguous array of `dtype` (`numpy.ascontiguousarray`;
/// no copy when it is one already).
fn contiguous<'py>(arr: &Bound<'py, PyUntypedArray>, dtype: &str) -> PyResult<Bound<'py, PyAny>> {
    let np = arr.py().import("numpy")?;
    np.getattr("ascontiguousarray")?.call((arr, dtype), None)
}

/// An array-like of real numbers (floats or integers) as `f64`.
///
/// # Errors
/// `ValueError` naming `name` for anything numpy cannot read as an array or
/// whose dtype is not real (complex, bool, strings, objects).
pub fn read_f64(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Array> {
    // The usual case, a C-contiguous float64 array, without numpy's
    // conversions (each a Python call: they cost more than one query).
    if let Ok(a) = obj.cast::<PyArrayDyn<f64>>()
        && let Ok(r) = a.try_readonly()
        && let Ok(data) = r.as_slice()
    {
        return Ok(Array {
            data: data.to_vec(),
            shape: a.shape().to_vec(),
        });
    }
    let arr = as_numpy(obj, name)?;
    if !matches!(arr.dtype().kind(), b'f' | b'i' | b'u') {
        return Err(Error::Value(format!(
            "{name} must be an array of real numbers, not of dtype {}",
            dtype_name(&arr)
        ))
        .into());
    }
    let shape = arr.shape().to_vec();
    let c = contiguous(&arr, "float64")?;
    let c = c.cast::<PyArrayDyn<f64>>()?;
    let data = c.readonly().as_slice().map_err(to_value_error)?.to_vec();
    Ok(Array { data, shape })
}

/// An `(M, 3)` array-like of integers as triangles of `u32` vertex indices
/// below `num_vertices`.
///
/// # Errors
/// `ValueError` for a non-integer dtype, the wrong shape, or an index
/// outside `0..num_vertices` (the message of `MeshError::IndexOutOfRange`).
pub fn read_faces(obj: &Bound<'_, PyAny>, num_vertices: usize) -> PyResult<Vec<[u32; 3]>> {
    let arr = as_numpy(obj, "faces")?;
    let kind = arr.dtype().kind();
    let shape = arr.shape().to_vec();
    if !matches!(kind, b'i' | b'u') {
        return Err(Error::Value(format!(
            "faces must be an array of integers, not of dtype {}",
            dtype_name(&arr)
        ))
        .into());
    }
    if !matches!(shape.as_slice(), [_, 3]) {
        return Err(Error::Value(format!(
            "faces must have shape (M, 3), not {}",
            shape_text(&shape)
        ))
        .into());
    }
    // Signed values as i64, unsigned as u64: every index keeps its value.
    let values: Vec<i128> = if kind == b'u' {
        let c = contiguous(&arr, "uint64")?;
        let c = c.cast::<PyArrayDyn<u64>>()?;
        let r = c.readonly();
        r.as_slice()
            .map_err(to_value_error)?
            .iter()
            .map(|&v| i128::from(v))
            .collect()
    } else {
        let c = contiguous(&arr, "int64")?;
        let c = c.cast::<PyArrayDyn<i64>>()?;
        let r = c.readonly();
        r.as_slice()
            .map_err(to_value_error)?
            .iter()
            .map(|&v| i128::from(v))
            .collect()
    };
    crate::mesh::faces_from_indices(&values, num_vertices).map_err(Into::into)
}

fn to_value_error(e: impl std::fmt::Display) -> PyErr {
    Error::Value(e.to_string()).into()
}

/// A 1-D array owning `v`.
pub fn vector<'py, T: numpy::Element>(py: Python<'py>, v: Vec<T>) -> Bound<'py, PyArray1<T>> {
    PyArray1::from_vec(py, v)
}

/// An `(N, K)` array owning `v` (`N * K` elements, row-major).
pub fn rows<'py, T: numpy::Element, const K: usize>(
    py: Python<'py>,
    v: Vec<[T; K]>,
) -> Bound<'py, PyArray2<T>> {
    let n = v.len();
    match Array2::from_shape_vec((n, K), v.into_flattened()) {
        Ok(a) => a.into_pyarray(py),
        Err(_) => unreachable!("n rows of K elements"),
    }
}
