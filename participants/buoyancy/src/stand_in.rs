//! What the two stand-ins share: loads that are a function of the motion last read, so there is
//! nothing to integrate and a checkpoint is that motion ([`StandIn`]), and the participant entry
//! points around [`participant::build_logged`] and [`participant::run`].

use crate::error::Error;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::driver::{Progress, RunSummary};
use tidelink_adapter_core::participant::{self, Participant};
use tidelink_adapter_core::spec::ParticipantFile;
use tidelink_adapter_core::{Adapter, AdapterResult, CouplingData};

/// A stand-in fluid's side of the coupling: what it registers, reads and writes, and the state
/// its loads are computed from.
pub trait Exchange {
    /// What the loads depend on: the motion read (and what is estimated from it).
    type State: Clone;
    /// Registers the vertices (after checking the mesh and data dimensions).
    fn initialize(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()>;
    /// Reads the motion at `relative_read_time` after the window start `time`.
    fn read(&mut self, coupling: &mut dyn CouplingData, time: f64, relative_read_time: f64) -> AdapterResult<()>;
    /// Writes the loads of the state read last.
    fn write(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()>;
    /// The state, for a checkpoint.
    fn save(&self) -> Self::State;
    /// Goes back to a saved state.
    fn restore(&mut self, state: Self::State);
}

/// A stand-in behind the `Adapter` trait: `advance` has nothing to integrate, a checkpoint saves
/// the state read (implicit schemes).
pub struct StandIn<E: Exchange> {
    name: String,
    pub(crate) exchange: E,
    checkpoint: Option<E::State>,
}

impl<E: Exchange> StandIn<E> {
    /// Participant `name` exchanging through `exchange`.
    pub fn with_exchange(name: &str, exchange: E) -> Self {
        StandIn { name: name.to_string(), exchange, checkpoint: None }
    }
}

impl<E: Exchange> Adapter for StandIn<E> {
    fn name(&self) -> &str {
        &self.name
    }

    fn initialize_participant(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        self.exchange.initialize(coupling)
    }

    fn read_data(&mut self, coupling: &mut dyn CouplingData, time: f64, relative_read_time: f64) -> AdapterResult<()> {
        self.exchange.read(coupling, time, relative_read_time)
    }

    fn write_data(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        self.exchange.write(coupling)
    }

    /// Nothing to integrate: the loads are a function of the motion read.
    fn advance(&mut self, _time: f64, _dt: f64) -> AdapterResult<()> {
        Ok(())
    }

    fn can_checkpoint(&self) -> bool {
        true
    }

    /// The loads are a function of the motion read: the checkpoint is that motion.
    fn write_checkpoint(&mut self) -> AdapterResult<()> {
        self.checkpoint = Some(self.exchange.save());
        Ok(())
    }

    fn read_checkpoint(&mut self) -> AdapterResult<()> {
        let state = self.checkpoint.clone().ok_or(Error::NoCheckpoint)?;
        self.exchange.restore(state);
        Ok(())
    }
}

/// The model file of `file`, resolved next to it; `who` (`buoyancy`, `stream`) names the
/// participant and the model file's section, `keys` the section's keys for the message.
pub(crate) fn model_file(file: &ParticipantFile, who: &'static str, keys: &'static str) -> Result<PathBuf, Error> {
    match &file.model {
        Some(name) => Ok(file.dir().join(name)),
        None => Err(Error::NoModel { file: file.path.clone(), who, keys }),
    }
}

/// Runs participant `P` of `file` to the end, reporting progress to `progress`.
pub(crate) fn run<P: Participant>(
    file: &Path,
    xml: &Path,
    backend: Backend,
    progress: &mut dyn Progress,
) -> anyhow::Result<RunSummary> {
    Ok(participant::run::<P>(file, xml, backend, progress)?.0)
}

/// Reads and cross-checks every file of participant `P`, returning its adapter ready to couple
/// (and the participant file); all errors name their file and line, warnings are logged.
pub(crate) fn build<P: Participant>(file: &Path, xml: &Path) -> anyhow::Result<(P::Adapter, ParticipantFile)> {
    Ok(participant::build_logged::<P>(file, xml)?)
}
