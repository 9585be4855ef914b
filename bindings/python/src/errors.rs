//! The Python side of the engine's errors: one exception type, a `RuntimeError` (what
//! pyprecice raises for libprecice's errors), whose `kind` attribute tells whose fault it is.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use tidelink_coupling::{CouplingError as EngineError, ErrorKind};

pyo3::create_exception!(
    tidelink_precice,
    CouplingError,
    PyRuntimeError,
    "An error of the coupling engine (a RuntimeError, as pyprecice raises libprecice's). Its `kind` is \
     \"config\", \"misuse\", \"partner\", \"protocol\", \"io\" or \"interrupted\"."
);

/// The name of `kind` in the exception's `kind` attribute.
pub(crate) fn kind_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Config => "config",
        ErrorKind::Misuse => "misuse",
        ErrorKind::Partner => "partner",
        ErrorKind::Protocol => "protocol",
        ErrorKind::Io => "io",
        ErrorKind::Interrupted => "interrupted",
    }
}

/// The exception for an engine error: its message unchanged, its kind as an attribute.
pub(crate) fn to_py(py: Python<'_>, e: EngineError) -> PyErr {
    let err = CouplingError::new_err(e.message);
    let _ = err.value(py).setattr("kind", kind_name(e.kind));
    err
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_distinct_name() {
        let kinds = [
            ErrorKind::Config,
            ErrorKind::Misuse,
            ErrorKind::Partner,
            ErrorKind::Protocol,
            ErrorKind::Io,
            ErrorKind::Interrupted,
        ];
        let mut names: Vec<_> = kinds.iter().map(|&k| kind_name(k)).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), kinds.len());
    }
}
