//! The participant entry point shared by the binary and the tests: read the participant,
//! model and solver files, build the adapter, open the coupling and run the driver loop.

use crate::adapter::{MbsAdapter, OutputFormat, OutputSettings};
use crate::{added_mass_source, model_yaml, solver_yaml};
use anyhow::{anyhow, bail, Result};
use nalgebra::Vector3;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::driver::{self, Progress, RunSummary};
use tidelink_adapter_core::progress::LineReporter;
use tidelink_adapter_core::spec;
use tidelink_adapter_core::spec::ParticipantFile;

pub use tidelink_adapter_core::spec::DEFAULT_GRAVITY;

/// What a run did and where its output went.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    pub summary: RunSummary,
    /// One CSV file per coupling body, in the order of the participant file.
    pub outputs: Vec<PathBuf>,
}

/// Runs the participant described by `participant_file`, printing progress lines for the
/// launcher.
pub fn run(participant_file: &Path, precice_config: &Path, backend: Backend) -> Result<RunReport> {
    run_with_progress(participant_file, precice_config, backend, &mut LineReporter::default())
}

/// As [`run`], reporting progress to `progress` (tests pass `&mut ()`).
pub fn run_with_progress(
    participant_file: &Path,
    precice_config: &Path,
    backend: Backend,
    progress: &mut dyn Progress,
) -> Result<RunReport> {
    let (mut adapter, file) = build(participant_file, precice_config)?;
    let (name, read_time) = (&file.adapter.participant_name, file.adapter.read_data_time);
    let summary = driver::couple(&mut adapter, name, precice_config, backend, read_time, progress)?;
    Ok(RunReport { summary, outputs: adapter.output_paths() })
}

/// Reads and cross-checks every file, returning the adapter ready to couple (and the
/// participant file); all errors name their file and line.
pub fn build(participant_file: &Path, precice_config: &Path) -> Result<(MbsAdapter, ParticipantFile)> {
    let (adapter, file, warnings) = build_with_warnings(participant_file, precice_config)?;
    warnings.log_warnings();
    Ok((adapter, file))
}

/// As [`build`], returning the warnings about the added mass (an `added_mass` entry the XML
/// does not enable, file bodies named differently from the coupling bodies, ...) instead of
/// logging them.
pub fn build_with_warnings(
    participant_file: &Path,
    precice_config: &Path,
) -> Result<(MbsAdapter, ParticipantFile, Diagnostics)> {
    let (file, cfg) = spec::load_for_run(participant_file, precice_config).map_err(|d| anyhow!("{d}"))?;
    let gravity = Vector3::from(file.simulation.gravity.unwrap_or(DEFAULT_GRAVITY));
    let (Some(model_name), Some(solver_name)) = (&file.model, &file.solver) else {
        bail!(
            "{}: the MBS participant needs a `model` file (the bodies) and a `solver` file (the integrator)",
            file.path.display()
        );
    };
    let masses = equilibrium_masses(&file)?;
    let equilibrium = |name: &str| masses.iter().find(|(n, _)| n == name).map(|(_, m)| *m);
    let (model, model_warnings) =
        model_yaml::load_with(&file.dir().join(model_name), gravity, &equilibrium).map_err(|d| anyhow!("{d}"))?;
    model_warnings.log_warnings();
    let (solver, solver_warnings) = solver_yaml::load(&file.dir().join(solver_name)).map_err(|d| anyhow!("{d}"))?;
    solver_warnings.log_warnings();
    let output = output_settings(&file)?;
    let mut adapter = MbsAdapter::new(&file, model, &solver, output)?;
    let warnings = added_mass_source::configure(&mut adapter, &file, &cfg)?;
    log::info!(
        "MBS participant `{}`: {} bodies, {} coupled, gravity [{}, {}, {}], read_data_time {:?}",
        file.adapter.participant_name,
        adapter.bodies().len(),
        adapter.coupling_bodies().len(),
        gravity.x,
        gravity.y,
        gravity.z,
        file.adapter.read_data_time
    );
    if let Some(am) = &adapter.system().added_mass {
        log::info!("added mass on {} coupling bodies, {:?} axes", am.len(), am.frame());
    }
    Ok((adapter, file, warnings))
}

/// ρ V of each coupling body's hydrodynamic body (by index), when the added mass comes
/// from a file: what `mass: equilibrium` in the model stands for.
fn equilibrium_masses(file: &ParticipantFile) -> Result<Vec<(String, f64)>> {
    let Some(spec) = &file.adapter.added_mass else { return Ok(Vec::new()) };
    let tidelink_adapter_core::spec::AddedMassSource::H5 { filename, loc } = &spec.source else {
        return Ok(Vec::new());
    };
    let data = tidelink_tdpf::bemio::read(&file.data_file(filename))
        .map_err(|e| anyhow!("{loc}: added_mass.h5_filename `{filename}`: {e}"))?;
    Ok(file
        .adapter
        .bodies
        .iter()
        .zip(&data.bodies)
        .map(|(c, b)| (c.name.clone(), data.rho * b.displaced_volume))
        .collect())
}

/// CSV (default) or HDF5 output, none for `output.format: NONE`.
fn output_settings(file: &ParticipantFile) -> Result<Option<OutputSettings>> {
    let out = &file.output;
    let format = match out.format.as_deref().map(str::to_ascii_uppercase).as_deref() {
        Some("NONE") => return Ok(None),
        Some("HDF5") => OutputFormat::Hdf5,
        Some("CSV") | Some("ASCII") | None => OutputFormat::Csv,
        Some(_) => bail!(
            "{}: output.format `{}` is not one we write; use CSV, HDF5 or NONE",
            file.path.display(),
            out.format.as_deref().unwrap_or_default()
        ),
    };
    let directory = file.dir().join(out.directory.as_deref().unwrap_or("output"));
    Ok(Some(OutputSettings { directory, fps: out.fps, format }))
}
