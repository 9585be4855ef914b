//! The stream participant's entry point: read the files, build the adapter, run the driver.

use super::adapter::StreamAdapter;
use super::model_yaml;
use anyhow::{anyhow, bail, Result};
use std::path::Path;
use tidelink_adapter_core::config::PreciceConfig;
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::driver::{Progress, RunSummary};
use tidelink_adapter_core::mesh;
use tidelink_adapter_core::participant::{self, BuildError, BuildFailure, Built, Participant};
use tidelink_adapter_core::spec::ParticipantFile;

/// The stand-in participant `tidelink-stream`: drag of a uniform stream on the points of a plate.
pub struct Stream;

impl Participant for Stream {
    type Adapter = StreamAdapter;
    const CAPABILITIES: tidelink_adapter_core::Capabilities = super::capabilities::CAPABILITIES;
    const TYPES: &'static [&'static str] = &["STREAM"];

    fn build(file: &ParticipantFile, _cfg: &PreciceConfig) -> Result<Built<StreamAdapter>, BuildError> {
        build_adapter(file).map_err(|e| BuildFailure::new(e.chain(), format!("{e:#}")).into())
    }
}

/// Runs the participant of `participant_file` to the end, reporting progress to `progress`
/// (tests pass `&mut ()`).
pub fn run_with_progress(file: &Path, xml: &Path, backend: Backend, progress: &mut dyn Progress) -> Result<RunSummary> {
    Ok(participant::run::<Stream>(file, xml, backend, progress)?.0)
}

/// Reads and cross-checks every file, returning the adapter ready to couple (and the
/// participant file); all errors name their file and line, warnings are logged.
pub fn build(participant_file: &Path, precice_config: &Path) -> Result<(StreamAdapter, ParticipantFile)> {
    Ok(participant::build_logged::<Stream>(participant_file, precice_config)?)
}

/// The adapter of `file`: its model file and bodies.
fn build_adapter(file: &ParticipantFile) -> Result<Built<StreamAdapter>> {
    let Some(model_name) = &file.model else {
        bail!(
            "{}: the stream participant needs a `model` file (with a `stream:` section: velocity, fluid_density, \
             drag_coefficient, area)",
            file.path.display()
        );
    };
    let plate = model_yaml::load(&file.dir().join(model_name))?;
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
    let adapter = StreamAdapter::new(file, plate, points)?;
    Ok(Built::new(adapter))
}
