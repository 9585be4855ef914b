//! The participant entry point shared by the binary and the tests: read the files, build
//! the adapter, open the coupling and run the driver loop.

use crate::adapter::BuoyancyAdapter;
use crate::error::Error;
use crate::{model_yaml, stand_in};
use anyhow::Result;
use nalgebra::Vector3;
use std::path::Path;
use tidelink_adapter_core::config::PreciceConfig;
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::driver::{Progress, RunSummary};
use tidelink_adapter_core::participant::{BuildError, Built, Participant};
use tidelink_adapter_core::spec::ParticipantFile;

pub use tidelink_adapter_core::spec::DEFAULT_GRAVITY;

/// The stand-in participant `tidelink-buoyancy`: buoyancy and quadratic drag of a sphere in still water.
pub struct Buoyancy;

impl Participant for Buoyancy {
    type Adapter = BuoyancyAdapter;
    const CAPABILITIES: tidelink_adapter_core::Capabilities = crate::capabilities::CAPABILITIES;
    const TYPES: &'static [&'static str] = &["BUOYANCY"];

    fn build(file: &ParticipantFile, _cfg: &PreciceConfig) -> Result<Built<BuoyancyAdapter>, BuildError> {
        build_adapter(file).map_err(Error::into_build_error)
    }
}

/// Runs the participant of `participant_file` to the end, reporting progress to `progress`
/// (tests pass `&mut ()`).
pub fn run_with_progress(file: &Path, xml: &Path, backend: Backend, progress: &mut dyn Progress) -> Result<RunSummary> {
    stand_in::run::<Buoyancy>(file, xml, backend, progress)
}

/// Reads and cross-checks every file, returning the adapter ready to couple (and the
/// participant file); all errors name their file and line, warnings are logged.
pub fn build(participant_file: &Path, precice_config: &Path) -> Result<(BuoyancyAdapter, ParticipantFile)> {
    stand_in::build::<Buoyancy>(participant_file, precice_config)
}

/// The adapter of `file`: its model file and bodies.
fn build_adapter(file: &ParticipantFile) -> Result<Built<BuoyancyAdapter>, Error> {
    let gravity = Vector3::from(file.simulation.gravity.unwrap_or(DEFAULT_GRAVITY));
    let model_file = stand_in::model_file(file, "buoyancy", "radius, water_level, fluid_density, drag_coefficient")?;
    let model = model_yaml::load(&model_file, gravity)?;
    let mut warnings = Diagnostics::default();
    let location = match (file.adapter.bodies.first().and_then(|b| b.location), model.location) {
        (Some(l), _) => Vector3::from(l),
        (None, Some(l)) => l,
        (None, None) => {
            warnings.warning(
                file.adapter.loc.clone(),
                "no initial location for the sphere (bodies[0].location here, or buoyancy.location in the model \
                 file): its vertex is placed at the origin",
            );
            Vector3::zeros()
        }
    };
    log::info!(
        "buoyancy participant `{}`: sphere of radius {} m, gravity [{}, {}, {}]",
        file.adapter.participant_name,
        model.sphere.radius(),
        gravity.x,
        gravity.y,
        gravity.z
    );
    let adapter = BuoyancyAdapter::new(file, model.sphere, location)?;
    Ok(Built { adapter, warnings, facts: Vec::new() })
}
