//! The stream participant's entry point: read the files, build the adapter, run the driver.

use super::adapter::StreamAdapter;
use super::model_yaml;
use crate::error::Error;
use crate::stand_in;
use anyhow::Result;
use std::path::Path;
use tidelink_adapter_core::config::PreciceConfig;
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::driver::{Progress, RunSummary};
use tidelink_adapter_core::mesh;
use tidelink_adapter_core::participant::{BuildError, Built, Participant};
use tidelink_adapter_core::spec::ParticipantFile;

/// The stand-in participant `tidelink-stream`: drag of a uniform stream on the points of a plate.
pub struct Stream;

impl Participant for Stream {
    type Adapter = StreamAdapter;
    const CAPABILITIES: tidelink_adapter_core::Capabilities = super::capabilities::CAPABILITIES;
    const TYPES: &'static [&'static str] = &["STREAM"];

    fn build(file: &ParticipantFile, _cfg: &PreciceConfig) -> Result<Built<StreamAdapter>, BuildError> {
        build_adapter(file).map_err(Error::into_build_error)
    }
}

/// Runs the participant of `participant_file` to the end, reporting progress to `progress`
/// (tests pass `&mut ()`).
pub fn run_with_progress(file: &Path, xml: &Path, backend: Backend, progress: &mut dyn Progress) -> Result<RunSummary> {
    stand_in::run::<Stream>(file, xml, backend, progress)
}

/// The adapter of `file`: its model file and bodies.
fn build_adapter(file: &ParticipantFile) -> Result<Built<StreamAdapter>, Error> {
    let model_file = stand_in::model_file(file, "stream", "velocity, fluid_density, drag_coefficient, area")?;
    let plate = model_yaml::load(&model_file)?;
    let [body] = file.adapter.bodies.as_slice() else {
        return Err(Error::OnePlate(file.adapter.loc.clone()));
    };
    let Some(points) = &body.points else {
        return Err(Error::NoPoints { loc: body.loc.clone(), body: body.name.clone() });
    };
    let points = mesh::load_points(points, |n| file.data_file(n)).map_err(|e| Error::Points {
        loc: body.loc.clone(),
        body: body.name.clone(),
        source: e.into(),
    })?;
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
