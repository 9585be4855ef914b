//! `NativeParticipant`: the preCICE v3 participant API over the native engine — the
//! state machine (Constructed → Initialized → Finalized), the API-misuse checks of
//! docs/design/coupling-semantics.md §2.12, and the orchestration of m2n, data and schemes.
//!
//! The type and its life cycle live here; the construction from the configuration is in
//! `build`, the mesh and data calls with their misuse checks in `access`, the calls that move
//! time (initialize, advance, finalize) and the exchanges in `lifecycle`.

mod access;
mod build;
mod extended;
mod lifecycle;
mod version;

pub use build::check;
pub use extended::Element;
pub use version::version_information;

use super::cplscheme::{CouplingScheme, Role};
use super::data::{DataKey, DataState, DataStore, MappingRun, MeshState};
use super::export::Exports;
use super::m2n::wire::Frame;
use super::m2n::M2n;
use super::settings::Settings;
use super::time::{Waveform, EPS};
use super::unsupported;
use super::watch::WatchPoint;
use super::watch_integral::WatchIntegral;
use crate::{Coupling, CouplingData, CouplingError, Result, VertexId};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tidelink_precice_config::diagnostics::{nearest, Diagnostic, Diagnostics, Location};
use tidelink_precice_config::{self as config, MappingDirection, PreciceConfig};

/// Direction of a data access, for the shared checks.
#[derive(Debug, Clone, Copy)]
enum Access {
    Read,
    Write,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Constructed,
    Initialized,
    Finalized,
}

/// One participant of a coupled run, talking to its partners over TCP.
pub struct NativeParticipant {
    name: String,
    cfg: PreciceConfig,
    state: State,
    store: DataStore,
    read_keys: Vec<DataKey>,
    write_keys: Vec<DataKey>,
    schemes: Vec<CouplingScheme>,
    /// Index of the one implicit scheme, if any.
    implicit: Option<usize>,
    m2n: Option<M2n>,
    /// Where the iteration and convergence logs go (the working directory, as in preCICE).
    log_dir: PathBuf,
    initial_data_queried: bool,
    window_complete: bool,
    /// The run identity and the waits, from the program that opened it.
    settings: Settings,
    /// The user's open profiling sections (`start_profiling_section`), innermost last.
    profiling: Vec<String>,
    /// The participant's `<watch-point>`s, placed at `initialize`.
    watch_points: Vec<WatchPoint>,
    /// Its `<watch-integral>`s and `<export:*>`s, opened at `initialize`.
    watch_integrals: Vec<WatchIntegral>,
    exports: Exports,
}

/// An API-misuse error (the participant's calls in the wrong state or with wrong arguments).
fn misuse<T>(msg: impl Into<String>) -> Result<T> {
    Err(CouplingError::misuse(msg))
}

/// A configuration error (what this participant's configuration cannot run).
fn refuse<T>(msg: impl Into<String>) -> Result<T> {
    Err(CouplingError::config(msg))
}

impl NativeParticipant {
    /// Parses and validates the configuration and prepares participant `name`, with the default
    /// [`Settings`] (no run identity: a participant started by hand).
    pub fn new(name: &str, config_path: &Path) -> Result<NativeParticipant> {
        Self::with_settings(name, config_path, Settings::default())
    }

    /// As [`NativeParticipant::new`], with the run identity and waits of `settings`.
    pub fn with_settings(name: &str, config_path: &Path, settings: Settings) -> Result<NativeParticipant> {
        if name.is_empty() {
            return refuse("This participant's name is an empty string. Give the participant the name of a <participant> in the preCICE configuration.");
        }
        if !config_path.exists() {
            return refuse(format!("unable to open configuration file \"{}\"", config_path.display()));
        }
        let (cfg, warnings) = config::load(config_path).map_err(|d| CouplingError::config(d.to_string()))?;
        if settings.log_config_warnings {
            warnings.log_warnings();
        }
        #[allow(unused_mut)]
        let mut p = Self::from_config_with(name, cfg, settings)?;
        #[cfg(feature = "testing")]
        if let Some(dir) = crate::testing::thread_log_directory() {
            p.log_dir = dir;
        }
        Ok(p)
    }

    /// Prepares participant `name` from an already loaded configuration; refuses, with every
    /// reason at its tag, what the native engine does not run (see [`check`]), and logs what
    /// it accepts without carrying out.
    pub fn from_config(name: &str, cfg: PreciceConfig) -> Result<NativeParticipant> {
        Self::from_config_with(name, cfg, Settings::default())
    }

    /// As [`NativeParticipant::from_config`], with `settings`.
    pub fn from_config_with(name: &str, cfg: PreciceConfig, settings: Settings) -> Result<NativeParticipant> {
        let findings = unsupported::findings(&cfg, name);
        if settings.log_config_warnings {
            findings.log_warnings();
        }
        let mut refused: Vec<String> = findings.errors().map(|d| format!("{}: {}", d.location, d.message)).collect();
        match Self::build(name, cfg, settings) {
            Ok(p) if refused.is_empty() => Ok(p),
            Ok(_) => refuse(refused.join("\n")),
            Err(e) => {
                refused.push(e.message);
                refuse(refused.join("\n"))
            }
        }
    }

    /// How long `initialize` waits for partners (default: [`Settings::handshake_timeout`]).
    pub fn set_handshake_timeout(&mut self, timeout: Duration) {
        self.settings.handshake_timeout = timeout;
    }

    /// Shared memory with partners on this machine or TCP always (default:
    /// [`Settings::transport`]); call before `initialize`.
    pub fn set_transport(&mut self, transport: super::settings::Transport) {
        self.settings.transport = transport;
    }

    /// After how long without a message from a partner a wait fails naming it (default:
    /// [`Settings::stall_timeout`]); call before `initialize`.
    pub fn set_stall_timeout(&mut self, timeout: Option<Duration>) {
        self.settings.stall_timeout = timeout;
    }

    /// The run this participant belongs to (default: [`Settings::run_id`]; `tidelink run` gives
    /// every participant it starts one; none when started by hand). It pairs only with partners of the same run; call
    /// before `initialize`.
    pub fn set_run_id(&mut self, run: Option<&str>) {
        self.settings.run_id = run.map(str::to_string);
    }

    /// Where `precice-<name>-iterations.log` and `-convergence.log` are written (default:
    /// the working directory, as preCICE does); call before `initialize`.
    pub fn set_log_directory(&mut self, dir: &Path) {
        self.log_dir = dir.to_path_buf();
    }

    /// Tells the partners this participant failed, with `reason`, before it goes away.
    pub fn abort(&mut self, reason: &str) {
        for imp in self.schemes.iter_mut().filter_map(|s| s.implicit.as_mut()) {
            imp.flush_logs();
        }
        if let Some(m) = &mut self.m2n {
            m.abort(reason);
        }
        self.m2n = None;
        self.state = State::Finalized;
    }

    /// The participant's time: the implicit scheme's (it may jump back), else the first ongoing scheme's.
    pub(super) fn time(&self) -> f64 {
        if let Some(i) = self.implicit {
            return self.schemes[i].time.time();
        }
        self.schemes.iter().find(|s| s.is_ongoing()).unwrap_or(&self.schemes[0]).time.time()
    }

    /// The implicit scheme decides when coupling ends; without one, any ongoing scheme keeps it going.
    pub(super) fn ongoing(&self) -> bool {
        match self.implicit {
            Some(i) => self.schemes[i].is_ongoing(),
            None => self.schemes.iter().any(CouplingScheme::is_ongoing),
        }
    }
}

impl Drop for NativeParticipant {
    fn drop(&mut self) {
        if self.state != State::Finalized {
            log::debug!("{}: implicitly finalizing in destructor", self.name);
            if let Some(m) = &mut self.m2n {
                m.abort(&format!("participant \"{}\" stopped before the end of the coupling", self.name));
            }
        }
    }
}
