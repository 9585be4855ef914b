//! The participant entry point shared by the binary and the tests: read the files, build
//! the adapter, open the coupling and run the driver loop.

use crate::adapter::BuoyancyAdapter;
use crate::model_yaml;
use anyhow::{anyhow, bail, Result};
use nalgebra::Vector3;
use std::path::Path;
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::driver::{self, Progress, RunSummary};
use tidelink_adapter_core::progress::LineReporter;
use tidelink_adapter_core::spec;
use tidelink_adapter_core::spec::ParticipantFile;

pub use tidelink_adapter_core::spec::DEFAULT_GRAVITY;

/// Runs the participant described by `participant_file`, printing progress lines for the
/// launcher.
pub fn run(participant_file: &Path, precice_config: &Path, backend: Backend) -> Result<RunSummary> {
    run_with_progress(participant_file, precice_config, backend, &mut LineReporter::default())
}

/// As [`run`], reporting progress to `progress` (tests pass `&mut ()`).
pub fn run_with_progress(
    participant_file: &Path,
    precice_config: &Path,
    backend: Backend,
    progress: &mut dyn Progress,
) -> Result<RunSummary> {
    let (mut adapter, file) = build(participant_file, precice_config)?;
    let (name, read_time) = (&file.adapter.participant_name, file.adapter.read_data_time);
    Ok(driver::couple(&mut adapter, name, precice_config, backend, read_time, progress)?)
}

/// Reads and cross-checks every file, returning the adapter ready to couple (and the
/// participant file); all errors name their file and line.
pub fn build(participant_file: &Path, precice_config: &Path) -> Result<(BuoyancyAdapter, ParticipantFile)> {
    let (file, _cfg) = spec::load_for_run(participant_file, precice_config).map_err(|d| anyhow!("{d}"))?;
    let gravity = Vector3::from(file.simulation.gravity.unwrap_or(DEFAULT_GRAVITY));
    let Some(model_name) = &file.model else {
        bail!(
            "{}: the buoyancy participant needs a `model` file (with a `buoyancy:` section: radius, water_level, \
             fluid_density, drag_coefficient)",
            file.path.display()
        );
    };
    let model = model_yaml::load(&file.dir().join(model_name), gravity).map_err(|d| anyhow!("{d}"))?;
    let location = match (file.adapter.bodies.first().and_then(|b| b.location), model.location) {
        (Some(l), _) => Vector3::from(l),
        (None, Some(l)) => l,
        (None, None) => {
            log::warn!(
                "{}: no initial location for the sphere (bodies[0].location here, or buoyancy.location in the model \
                 file): its vertex is placed at the origin",
                file.path.display()
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
    let adapter = BuoyancyAdapter::new(&file, model.sphere, location)?;
    Ok((adapter, file))
}
