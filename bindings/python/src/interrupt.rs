//! Ctrl-C during a wait. While `initialize` or `advance` waits for a partner, the interpreter
//! is released and its SIGINT handler only sets a flag; the engine asks this hook about every
//! 100 ms, the hook runs Python's signal handlers, and a `KeyboardInterrupt` they raise is kept
//! here until the call returns and raises it in the script.

use pyo3::prelude::*;
use std::sync::{Arc, Mutex};
use tidelink_coupling::native::settings::Interrupt;

/// The interrupt hook of one participant and the exception it caught.
#[derive(Clone, Default)]
pub(crate) struct SignalWatch {
    caught: Arc<Mutex<Option<PyErr>>>,
}

impl SignalWatch {
    /// The engine's hook: Python's pending signals handled; an exception stops the wait.
    pub fn hook(&self) -> Interrupt {
        let caught = Arc::clone(&self.caught);
        Interrupt(Arc::new(move || {
            Python::attach(|py| match py.check_signals() {
                Ok(()) => None,
                Err(e) => {
                    let what = e.get_type(py).name().map(|n| n.to_string()).unwrap_or_else(|_| "a signal".into());
                    *caught.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                    Some(format!("interrupted by {what} while waiting for its partners"))
                }
            })
        }))
    }

    /// The exception the hook caught during the last call, if any (taken).
    pub fn take(&self) -> Option<PyErr> {
        self.caught.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}
