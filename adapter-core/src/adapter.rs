//! The `Adapter` trait: what a solver supplies to take part in a coupled run. It
//! translates between coupling data and solver state; the driver owns the loop and an
//! adapter never calls `advance` on the coupling itself.

use crate::coupling::CouplingData;
use thiserror::Error;

/// Errors raised by adapters and the driver; the binaries report them with context.
#[derive(Debug, Error)]
pub enum AdapterError {
    /// A coupling call failed (misuse, configuration, a partner gone); its message is preCICE's.
    #[error(transparent)]
    Coupling(#[from] crate::coupling::CouplingError),
    /// The solver could not take its step or translate its state (diverged, bad input).
    #[error("{0}")]
    Solver(String),
    /// Valid in the files but not implemented by this participant (a mesh type, a data type,
    /// checkpoints under an implicit scheme); the message says what to use instead.
    #[error("{0}")]
    Unsupported(String),
    /// The participant file and the XML do not fit this participant (no interface, too many); the
    /// message names the file and line.
    #[error("{0}")]
    Config(String),
    /// A participant's own typed error (its solver's, its output's), kept whole: its message is
    /// the error's own and its sources stay in the chain the binary prints.
    #[error(transparent)]
    Participant(Box<dyn std::error::Error + Send + Sync + 'static>),
    /// Reading or writing a file failed (output, data).
    #[error("{context}: {source}")]
    Io {
        /// What was being done, naming the file or folder, e.g. `creating the output files in out`.
        context: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

impl AdapterError {
    /// A [`AdapterError::Solver`] from any message.
    pub fn solver(msg: impl Into<String>) -> Self {
        AdapterError::Solver(msg.into())
    }
    /// A [`AdapterError::Config`] from any message.
    pub fn config(msg: impl Into<String>) -> Self {
        AdapterError::Config(msg.into())
    }
    /// An [`AdapterError::Participant`] from a participant's typed error, sources kept.
    pub fn participant(e: impl std::error::Error + Send + Sync + 'static) -> Self {
        AdapterError::Participant(Box::new(e))
    }
    /// An [`AdapterError::Io`] naming what failed, keeping the OS error as its source.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        AdapterError::Io { context: context.into(), source }
    }
}

/// The result of every [`Adapter`] hook and of the driver.
pub type AdapterResult<T> = std::result::Result<T, AdapterError>;

/// The hooks of one participant (docs/design/participants.md §1.1): mesh registration, read/write
/// translation, the solver step, checkpoints and output.
///
/// Adapters keep no clock: the driver owns coupled time and passes it in (`time` below is the
/// coupled time at the start of the window or step), and restores it itself when a window is
/// repeated. Adapters see the coupling only through [`CouplingData`] (meshes, read, write), so
/// they cannot move time or end the coupling.
pub trait Adapter {
    /// The participant name, for messages.
    fn name(&self) -> &str;

    /// Builds the coupling meshes from solver objects and registers their vertices.
    fn initialize_participant(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()>;

    /// Reads coupling data into the solver (loads, prescribed motion), sampled at
    /// `relative_read_time` after `time`, the start of the window; replaces what was read before.
    fn read_data(&mut self, coupling: &mut dyn CouplingData, time: f64, relative_read_time: f64) -> AdapterResult<()>;

    /// Writes solver state to the coupling.
    fn write_data(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()>;

    /// Advances the solver from coupled time `time` by `dt`.
    fn advance(&mut self, time: f64, dt: f64) -> AdapterResult<()>;

    /// The solver's own step limit; the driver takes `min(own, remaining window)` by default.
    fn own_time_step(&self) -> f64 {
        f64::INFINITY
    }

    /// The step to take when `max_step` remains in the window.
    fn solver_time_step(&self, max_step: f64) -> f64 {
        self.own_time_step().min(max_step)
    }

    /// Whether [`Adapter::write_checkpoint`] and [`Adapter::read_checkpoint`] work: a participant
    /// that cannot checkpoint is refused at start-up (and by `--check`) when the XML puts it in
    /// an implicit scheme, rather than at its first window.
    fn can_checkpoint(&self) -> bool {
        false
    }

    /// Saves the solver state at a window start (implicit schemes); the driver keeps the time.
    fn write_checkpoint(&mut self) -> AdapterResult<()> {
        Err(AdapterError::Unsupported(format!(
            "checkpointing is not supported by participant \"{}\": use an explicit coupling scheme",
            self.name()
        )))
    }

    /// Restores the state saved by `write_checkpoint`.
    fn read_checkpoint(&mut self) -> AdapterResult<()> {
        Err(AdapterError::Unsupported(format!(
            "checkpointing is not supported by participant \"{}\": use an explicit coupling scheme",
            self.name()
        )))
    }

    /// Writes simulation output after a completed window at coupled time `time` (and once at
    /// the start, `time` = 0).
    fn write_output(&mut self, _time: f64) -> AdapterResult<()> {
        Ok(())
    }

    /// Called once after the coupling has ended (flush files, plots).
    fn finish(&mut self) -> AdapterResult<()> {
        Ok(())
    }
}
