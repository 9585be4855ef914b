//! `tidelink-pto`: the host of external force modules, a user's power take-off or controller in
//! its own process (Python, MATLAB, anything that speaks the protocol) driving a TSDA, an RSDA or
//! a body force of an MBS model. The MBS participant uses it; it knows nothing of coupling.
//!
//! [`frame`] is the wire format (4-byte big-endian length + UTF-8 JSON), [`protocol`] the
//! messages of protocol v2 and the checks on the replies, [`process`] the child's lifecycle
//! (spawn with `--tidelink-port N` and a token, accept only the child's connection, terminate and
//! reap; tied to the host by `ties`, so that nothing it started outlives the host), [`client`] the module as the
//! solver's [`tidelink_mbs_solver::ExternalLaw`], [`replay`] a trace driven through a module
//! without a simulation (`tidelink-pto replay`). docs/external-modules.md is the user guide.

#![warn(missing_docs)]

pub mod client;
pub mod frame;
pub mod process;
pub mod protocol;
pub mod replay;
mod ties;

pub use client::{ModuleClient, ModuleSpec};

/// The flag that passes the listening port to the child (`--tidelink-port N`).
pub const PORT_FLAG: &str = "--tidelink-port";

/// The environment variable that carries the same port (`TIDELINK_PORT`).
pub const PORT_ENV: &str = "TIDELINK_PORT";
/// The environment variable in which the host hands its own child a fresh token (hex) that
/// the child's first frame must carry (`hello`): another process that connects to the port
/// first has no way to know it (a process's environment is private to its user, its command
/// line is not), so it is refused.
pub const TOKEN_ENV: &str = "TIDELINK_PTO_TOKEN";
/// Microseconds the host (and the Python helper, which inherits it) polls for a reply or a
/// request before sleeping; unset: 100 for the host, 1000 for the Python helper; 0 turns polling off.
pub const SPIN_ENV: &str = "TIDELINK_PTO_SPIN_US";

/// The reply poll time [`SPIN_ENV`] sets (or the default), or the error a module's start would
/// stop on: `tidelink check` and the model's reading ask it before any module is started.
pub fn reply_spin_setting() -> Result<std::time::Duration, process::SpinError> {
    process::reply_spin()
}
