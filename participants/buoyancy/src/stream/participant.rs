//! The stream participant's entry point: read the files, build the adapter, run the driver.

use super::adapter::StreamAdapter;
use super::model_yaml;
use anyhow::{anyhow, bail, Result};
use std::path::Path;
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::driver::{self, Progress, RunSummary};
use tidelink_adapter_core::mesh;
use tidelink_adapter_core::progress::LineReporter;
use tidelink_adapter_core::spec::{self, ParticipantFile};

/// Runs the stream participant of `participant_file`, printing progress lines.
pub fn run(participant_file: &Path, precice_config: &Path, backend: Backend) -> Result<RunSummary> {
    run_with_progress(participant_file, precice_config, backend, &mut LineReporter::default())
}

/// As [`run`], reporting progress to `progress`.
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

/// Reads and cross-checks every file; all errors name their file and line.
pub fn build(participant_file: &Path, precice_config: &Path) -> Result<(StreamAdapter, ParticipantFile)> {
    let (file, _cfg) = spec::load_for_run(participant_file, precice_config).map_err(|d| anyhow!("{d}"))?;
    let Some(model_name) = &file.model else {
        bail!(
            "{}: the stream participant needs a `model` file (with a `stream:` section: velocity, fluid_density, \
             drag_coefficient, area)",
            file.path.display()
        );
    };
    let plate = model_yaml::load(&file.dir().join(model_name)).map_err(|d| anyhow!("{d}"))?;
    let [body] = file.adapter.bodies.as_slice() else {
        bail!("{}: the stream participant loads one plate: list exactly one body, with its `points`", file.adapter.loc);
    };
    let Some(points) = &body.points else {
        bail!("{}: body `{}` needs `points` (a list or a file of the plate's points)", body.loc, body.name);
    };
    let points = mesh::load_points(points, |n| file.data_file(n))
        .map_err(|e| anyhow!("{}: the points of body `{}`: {e}", body.loc, body.name))?;
    log::info!(
        "stream participant `{}`: {} points of `{}` in a stream of {:?} m/s",
        file.adapter.participant_name,
        points.len(),
        body.name,
        plate.velocity().as_slice()
    );
    let adapter = StreamAdapter::new(&file, plate, points)?;
    Ok((adapter, file))
}
