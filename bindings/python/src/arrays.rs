//! numpy in and out without per-element Python work: a C-contiguous float64 array (what solvers
//! hold) is read in place, anything else array-like goes through one `numpy.ascontiguousarray`;
//! int32 vertex ids (what `set_mesh_vertices` returns) are read in place too; results are numpy
//! arrays the engine fills directly.
//!
//! Arrays are read through rust-numpy's unchecked slices rather than its borrow tracking (a
//! global registry that cost about a third of a microsecond per array): the slices live only
//! while the interpreter is held by the call, which runs no Python code and releases nothing
//! meanwhile, so no Python code can touch the array; rust-numpy's registry only guards against
//! other Rust extensions holding a borrow, which is not possible across a call into ours
//! while the interpreter is held.

use numpy::{PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyTuple};
use pyo3::{intern, PyTypeInfo};

/// pyprecice's check that `obj` is array-like (has `__len__` and `__getitem__`); numpy arrays,
/// lists and tuples have both and are let through without looking the names up.
pub(crate) fn check_array_like(obj: &Bound<'_, PyAny>, name: &str, function: &str) -> PyResult<()> {
    if PyUntypedArray::is_type_of(obj) || PyList::is_type_of(obj) || PyTuple::is_type_of(obj) {
        return Ok(());
    }
    let py = obj.py();
    if obj.hasattr(intern!(py, "__len__"))? && obj.hasattr(intern!(py, "__getitem__"))? {
        return Ok(());
    }
    Err(PyTypeError::new_err(format!(
        "{function} requires array_like input for {name}, but was provided the following input type: {}",
        obj.get_type().str()?
    )))
}

/// An array-like argument as a C-contiguous float64 numpy array: the caller's own, or numpy's
/// conversion of it.
pub(crate) struct Floats<'py>(Bound<'py, PyArrayDyn<f64>>);

impl Floats<'_> {
    /// numpy's `shape`.
    pub fn shape(&self) -> &[usize] {
        self.0.shape()
    }

    /// Python's `len()` of the array: its first dimension (a `TypeError` for a 0-d array).
    pub fn py_len(&self) -> PyResult<usize> {
        self.0.as_any().len()
    }

    /// The values in C order, read in place.
    pub fn as_slice(&self) -> PyResult<&[f64]> {
        c_contiguous(&self.0)?;
        // SAFETY: the array is C-contiguous and, as the module's comment says, nothing else
        // writes to it while the caller holds the interpreter and uses the slice; an
        // unaligned array is refused by `as_slice`.
        Ok(unsafe { self.0.as_slice() }?)
    }
}

/// An error unless `a` is still C-contiguous when it is read (its flags were checked when it
/// was taken, but Python code since, converting another argument, may have changed them).
fn c_contiguous<T>(a: &Bound<'_, PyArrayDyn<T>>) -> PyResult<()> {
    if a.is_c_contiguous() {
        return Ok(());
    }
    Err(PyTypeError::new_err("the array was changed to a non-contiguous one during the call"))
}

/// `obj` as a C-contiguous float64 array, read in place when it is one already.
pub(crate) fn floats<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Floats<'py>> {
    if let Ok(a) = obj.cast::<PyArrayDyn<f64>>() {
        if a.is_c_contiguous() {
            return Ok(Floats(a.clone()));
        }
    }
    let py = obj.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", "float64")?;
    let a = py.import("numpy")?.call_method("ascontiguousarray", (obj,), Some(&kwargs))?;
    Ok(Floats(a.cast_into::<PyArrayDyn<f64>>()?))
}

/// Vertex ids as the engine takes them: the caller's int32 array read in place, or a copy.
pub(crate) enum Ids<'py> {
    /// A C-contiguous int32 array (what `set_mesh_vertices` returns).
    Array(Bound<'py, PyArrayDyn<i32>>),
    /// Any other integer array-like, converted and checked.
    Owned(Vec<i32>),
}

impl Ids<'_> {
    /// The ids in C order.
    pub fn as_slice(&self) -> PyResult<&[i32]> {
        match self {
            Ids::Array(a) => {
                c_contiguous(a)?;
                // SAFETY: as for `Floats::as_slice`.
                Ok(unsafe { a.as_slice() }?)
            }
            Ids::Owned(v) => Ok(v),
        }
    }

    /// The number of ids.
    pub fn len(&self) -> usize {
        match self {
            Ids::Array(a) => a.len(),
            Ids::Owned(v) => v.len(),
        }
    }
}

/// `obj` as vertex ids (C `int`, as libprecice takes them): integer arrays or sequences of
/// any integer type; a non-integer or an id beyond 32 bits is refused, never truncated.
pub(crate) fn vertex_ids<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Ids<'py>> {
    if let Ok(a) = obj.cast::<PyArrayDyn<i32>>() {
        if a.is_c_contiguous() {
            return Ok(Ids::Array(a.clone()));
        }
    }
    if let Some(ids) = small_ints(obj) {
        return narrow(ids.into_iter()).map(Ids::Owned);
    }
    let py = obj.py();
    let np = py.import("numpy")?;
    let a = np.call_method1("asarray", (obj,))?;
    let size: usize = a.getattr("size")?.extract()?;
    if size == 0 {
        return Ok(Ids::Owned(Vec::new()));
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
    narrow(wide.as_slice()?.iter().copied()).map(Ids::Owned)
}

/// The ids of a list or tuple of Python `int`s that fit 64 bits, without numpy: what
/// `numpy.asarray` would make of it, an int64 array. `None` for anything else (another item
/// type, a nested sequence, a larger int), which takes numpy's way and its errors.
fn small_ints(obj: &Bound<'_, PyAny>) -> Option<Vec<i64>> {
    fn int(item: Bound<'_, PyAny>) -> Option<i64> {
        if item.is_exact_instance_of::<PyInt>() {
            item.extract().ok()
        } else {
            None
        }
    }
    if let Ok(list) = obj.cast_exact::<PyList>() {
        return list.iter().map(int).collect();
    }
    if let Ok(tuple) = obj.cast_exact::<PyTuple>() {
        return tuple.iter().map(int).collect();
    }
    None
}

/// 64-bit ids as C `int`s; the first that does not fit is refused.
fn narrow(ids: impl Iterator<Item = i64>) -> PyResult<Vec<i32>> {
    ids.map(|id| {
        i32::try_from(id).map_err(|_| PyOverflowError::new_err(format!("vertex id {id} does not fit a C int")))
    })
    .collect()
}

/// The array `read_data` returns, made before the engine fills it: zeroed float64 values of
/// `n` rows of `d`, shaped (n,) when `d` is 1 or `n` is 0 and (n, d) otherwise (pyprecice's
/// shapes). One numpy array, filled in place.
pub(crate) struct Values<'py>(Bound<'py, PyArrayDyn<f64>>);

impl<'py> Values<'py> {
    /// The zeroed array.
    pub fn zeros(py: Python<'py>, n: usize, d: usize) -> PyResult<Self> {
        let array = if n == 0 || d == 1 {
            PyArray1::<f64>::zeros(py, n * d, false).into_any()
        } else {
            PyArray2::<f64>::zeros(py, [n, d], false).into_any()
        };
        Ok(Values(array.cast_into::<PyArrayDyn<f64>>()?))
    }

    /// Its values, to fill.
    pub fn as_mut_slice(&mut self) -> PyResult<&mut [f64]> {
        // SAFETY: the array was made by `zeros` (C-contiguous, aligned) and is not handed out
        // before `into_any`, so nothing else reads or writes it meanwhile.
        Ok(unsafe { self.0.as_slice_mut() }?)
    }

    /// The array, for Python.
    pub fn into_any(self) -> Bound<'py, PyAny> {
        self.0.into_any()
    }
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
