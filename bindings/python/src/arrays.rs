//! numpy in and out without per-element Python work: a C-contiguous float64 array (what solvers
//! hold) is read in place, anything else array-like goes through one `numpy.ascontiguousarray`;
//! results are handed to numpy as the vectors the engine filled, without a copy.

use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// pyprecice's check that `obj` is array-like (has `__len__` and `__getitem__`).
pub(crate) fn check_array_like(obj: &Bound<'_, PyAny>, name: &str, function: &str) -> PyResult<()> {
    if obj.hasattr("__len__")? && obj.hasattr("__getitem__")? {
        return Ok(());
    }
    Err(PyTypeError::new_err(format!(
        "{function} requires array_like input for {name}, but was provided the following input type: {}",
        obj.get_type().str()?
    )))
}

/// `obj` as a C-contiguous float64 array, read in place when it is one already.
pub(crate) fn floats<'py>(obj: &Bound<'py, PyAny>) -> PyResult<PyReadonlyArrayDyn<'py, f64>> {
    if let Ok(a) = obj.cast::<PyArrayDyn<f64>>() {
        if a.is_c_contiguous() {
            return Ok(a.readonly());
        }
    }
    let py = obj.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", "float64")?;
    let a = py.import("numpy")?.call_method("ascontiguousarray", (obj,), Some(&kwargs))?;
    Ok(a.cast_into::<PyArrayDyn<f64>>()?.readonly())
}

/// `obj` as vertex ids (C `int`, as libprecice takes them): integer arrays or sequences of
/// any integer type; a non-integer or an id beyond 32 bits is refused, never truncated.
pub(crate) fn vertex_ids(obj: &Bound<'_, PyAny>) -> PyResult<Vec<i32>> {
    if let Ok(a) = obj.cast::<PyArrayDyn<i32>>() {
        if let Ok(s) = a.readonly().as_slice() {
            return Ok(s.to_vec());
        }
    }
    let py = obj.py();
    let np = py.import("numpy")?;
    let a = np.call_method1("asarray", (obj,))?;
    let size: usize = a.getattr("size")?.extract()?;
    if size == 0 {
        return Ok(Vec::new());
    }
    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "vertex ids must be integers, but the array has dtype {}",
            a.getattr("dtype")?.str()?
        )));
    }
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", "int64")?;
    let wide = np.call_method("ascontiguousarray", (a.call_method1("ravel", ())?,), Some(&kwargs))?;
    let wide = wide.cast_into::<PyArrayDyn<i64>>()?.readonly();
    wide.as_slice()?
        .iter()
        .map(|&id| {
            i32::try_from(id).map_err(|_| PyOverflowError::new_err(format!("vertex id {id} does not fit a C int")))
        })
        .collect()
}

/// The shape of `a` (numpy's `shape`).
pub(crate) fn shape(a: &PyReadonlyArrayDyn<'_, f64>) -> Vec<usize> {
    a.shape().to_vec()
}

/// `values` as a numpy array of `shape`, without a copy.
pub(crate) fn array<'py, T: numpy::Element>(
    py: Python<'py>,
    values: Vec<T>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let flat = PyArray1::from_vec(py, values);
    if shape.len() == 1 {
        return Ok(flat.into_any());
    }
    Ok(flat.reshape(shape.to_vec())?.into_any())
}
