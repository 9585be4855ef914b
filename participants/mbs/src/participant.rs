//! The MBS participant: its participant, model and solver files (and a BEMIO file for the added
//! mass) into a ready [`MbsAdapter`], behind the shared entry point ([`Mbs`]).

use crate::adapter::{MbsAdapter, OutputFormat, OutputSettings};
use crate::added_mass::source as added_mass_source;
use crate::added_mass::SetupError;
use crate::io::{model_yaml, solver_yaml};
use anyhow::{bail, Result};
use nalgebra::Vector3;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::config::PreciceConfig;
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::driver::{Progress, RunSummary};
use tidelink_adapter_core::participant::{self, BuildError, BuildFailure, Built, Fact, Participant, BODY_TO_BODY};
use tidelink_adapter_core::progress::LineReporter;
use tidelink_adapter_core::records::Provenance;
use tidelink_adapter_core::spec::ParticipantFile;

pub use tidelink_adapter_core::spec::DEFAULT_GRAVITY;

/// What a run did and where its output went.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    /// What the driver did.
    pub summary: RunSummary,
    /// One CSV file per coupling body, in the order of the participant file.
    pub outputs: Vec<PathBuf>,
}

/// The MBS participant (`tidelink-mbs`): bodies, joints and force elements from a Chrono model
/// file, the integrator from a solver file, added mass from a BEMIO file or inline blocks.
pub struct Mbs;

impl Participant for Mbs {
    type Adapter = MbsAdapter;
    const CAPABILITIES: tidelink_adapter_core::Capabilities = crate::capabilities::CAPABILITIES;
    const TYPES: &'static [&'static str] = &["MBS"];

    fn build(file: &ParticipantFile, cfg: &PreciceConfig) -> Result<Built<MbsAdapter>, BuildError> {
        // Every cause once: a typed error says its source in its message and keeps it as such.
        build_adapter(file, cfg).map_err(|e| BuildFailure::new(e.chain(), participant::chain(&*e)).into())
    }
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
    let (summary, adapter) = participant::run::<Mbs>(participant_file, precice_config, backend, progress)?;
    Ok(RunReport { summary, outputs: adapter.output_paths() })
}

/// Reads and cross-checks every file, returning the adapter ready to couple (and the
/// participant file); all errors name their file and line. Warnings are logged.
pub fn build(participant_file: &Path, precice_config: &Path) -> Result<(MbsAdapter, ParticipantFile)> {
    Ok(participant::build_logged::<Mbs>(participant_file, precice_config)?)
}

/// As [`build`], returning the warnings (of the model and solver files, and about the added
/// mass: an `added_mass` entry the XML does not enable, file bodies named differently from the
/// coupling bodies, ...) instead of logging them.
pub fn build_with_warnings(
    participant_file: &Path,
    precice_config: &Path,
) -> Result<(MbsAdapter, ParticipantFile, Diagnostics)> {
    let (built, file) = participant::build::<Mbs>(participant_file, precice_config)?;
    Ok((built.adapter, file, built.warnings))
}

/// The adapter of `file`, its warnings and facts: the model and solver files, the output
/// settings and the added mass.
fn build_adapter(file: &ParticipantFile, cfg: &PreciceConfig) -> Result<Built<MbsAdapter>> {
    let gravity = Vector3::from(file.simulation.gravity.unwrap_or(DEFAULT_GRAVITY));
    let (Some(model_name), Some(solver_name)) = (&file.model, &file.solver) else {
        bail!(
            "{}: the MBS participant needs a `model` file (the bodies) and a `solver` file (the integrator)",
            file.path.display()
        );
    };
    let masses = equilibrium_masses(file)?;
    let equilibrium = |name: &str| masses.iter().find(|(n, _)| n == name).map(|(_, m)| *m);
    let (model, mut warnings) = model_yaml::load_with(&file.dir().join(model_name), gravity, &equilibrium)?;
    let (solver, solver_warnings) = solver_yaml::load(&file.dir().join(solver_name))?;
    warnings.extend(solver_warnings);
    solver.check_model(&model.forces)?;
    let output = output_settings(file, cfg)?;
    if let Some(model_dir) = output.as_ref().and_then(|o| o.vtk.as_ref()) {
        crate::io::scene::check(&model.shapes, model_dir).map_err(|e| {
            anyhow::Error::new(e).context(format!("{}: output.vtk: cannot draw a body shape", file.path.display()))
        })?;
    }
    let mut adapter = MbsAdapter::new(file, model, &solver, output)?;
    let (setup, added_mass_warnings) =
        added_mass_source::configure(file, cfg, adapter.coupling_bodies(), adapter.bodies())?;
    warnings.extend(added_mass_warnings);
    if let Some(setup) = setup {
        adapter.set_added_mass(setup.baseline)?;
        for (mesh, data) in &setup.meshes {
            adapter.add_added_mass_mesh(mesh, data.as_deref())?;
        }
    }
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
    let mut facts = Vec::new();
    if let (Some(spec), true) = (&file.adapter.added_mass, adapter.system().added_mass.is_some()) {
        facts.push(Fact::new(BODY_TO_BODY, spec.body_to_body, &spec.loc));
    }
    Ok(Built { adapter, warnings, facts })
}

/// ρ V of each coupling body's hydrodynamic body (by index), when the added mass comes
/// from a file: what `mass: equilibrium` in the model stands for.
fn equilibrium_masses(file: &ParticipantFile) -> Result<Vec<(String, f64)>> {
    let Some(spec) = &file.adapter.added_mass else { return Ok(Vec::new()) };
    let tidelink_adapter_core::spec::AddedMassSource::H5 { filename, loc } = &spec.source else {
        return Ok(Vec::new());
    };
    let data = tidelink_bemio::read(&file.data_file(filename)).map_err(|source| SetupError::File {
        loc: loc.clone(),
        filename: filename.clone(),
        source,
    })?;
    Ok(file
        .adapter
        .bodies
        .iter()
        .zip(&data.bodies)
        .map(|(c, b)| (c.name.clone(), data.rho * b.displaced_volume))
        .collect())
}

/// CSV (default) or HDF5 output, none for `output.format: NONE`; the files name the case (the
/// XML's folder) and the participant.
fn output_settings(file: &ParticipantFile, cfg: &PreciceConfig) -> Result<Option<OutputSettings>> {
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
    let directory = tidelink_adapter_core::spec::output_folder(file)?;
    let provenance = Provenance::now(&cfg.path, &file.adapter.participant_name);
    let model_dir = file.model.as_ref().map(|m| file.dir().join(m)).and_then(|m| m.parent().map(Path::to_path_buf));
    let vtk = out.vtk.then(|| model_dir.unwrap_or_else(|| file.dir()));
    Ok(Some(OutputSettings { directory, fps: out.fps, format, provenance, vtk }))
}
