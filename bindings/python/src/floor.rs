//! `_Floor` (cargo feature `bench-floor` only, never in the wheels users get): methods that do
//! nothing, called through the same pyo3 machinery as `Participant`'s (an `unsendable` class,
//! `&mut self`, the same argument kinds), so that benches/call_overhead.py can tell the binding's
//! own cost per call from what any pyo3 method costs.

use pyo3::prelude::*;

/// The no-op twin of `Participant` for the call-overhead benchmark.
#[pyclass(module = "tidelink_precice._native", name = "_Floor", unsendable)]
pub(crate) struct Floor;

#[pymethods]
impl Floor {
    #[new]
    fn new() -> Self {
        Floor
    }

    /// Does nothing, as a scalar query would return: a bool.
    fn nothing(&mut self) -> bool {
        false
    }

    /// Does nothing with read_data's arguments (two names, the ids, a float).
    fn nothing4(
        &mut self,
        _mesh_name: &Bound<'_, PyAny>,
        _data_name: &Bound<'_, PyAny>,
        _vertex_ids: &Bound<'_, PyAny>,
        _relative_read_time: f64,
    ) {
    }
}
