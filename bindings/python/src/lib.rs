//! `tidelink_precice._native`: pyprecice 3.x's `Participant` on Tidelink's native engine, so
//! that unchanged pyprecice scripts (`import precice`) couple with each other and with the
//! `tidelink-*` participants without libprecice. The Python package around it
//! (`python/tidelink_precice`) adds the `precice` name; docs/python.md says how to pick between
//! this module and a real pyprecice.
//!
//! Argument checks follow pyprecice (its assertions and `TypeError`s, in its order); everything
//! the engine refuses is a [`CouplingError`](errors) — a `RuntimeError`, as libprecice's errors
//! are in pyprecice — carrying the engine's message and its kind.

#![warn(missing_docs)]

mod arrays;
mod errors;
#[cfg(feature = "bench-floor")]
mod floor;
mod interrupt;
mod participant;
mod process;

use pyo3::prelude::*;

/// The engine's version line as bytes, as pyprecice's `get_version_information()` returns it.
#[pyfunction]
fn get_version_information() -> Vec<u8> {
    tidelink_coupling::native::version_information().into_bytes()
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Warnings of the engine (the XML's, a partner of another run) on stderr, as the binaries
    // print them; RUST_LOG=info shows the connection steps.
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).try_init();
    m.add_class::<participant::Participant>()?;
    #[cfg(feature = "bench-floor")]
    m.add_class::<floor::Floor>()?;
    m.add_function(wrap_pyfunction!(get_version_information, m)?)?;
    m.add("CouplingError", m.py().get_type::<errors::CouplingError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
