//! The TDPF participant: its participant and model files and the BEMIO file into a ready
//! [`TdpfAdapter`], behind the shared entry point ([`Tdpf`]).
//!
//! The coupling window (one fixed `time-window-size` for every scheme the participant is in) is the
//! radiation model's step; `method="first-participant"` is refused at start-up. Implicit schemes
//! repeat windows from the adapter's checkpoint (radiation memory, states read, loads).
//! Hydrostatics use the magnitude of the participant file's `simulation.gravity` (the hydrodynamic
//! file's g when it is absent; Chrono's TDPF has no gravity key and uses 9.8), so it matches the
//! solid's gravity; the excitation coefficients are the file's.

use crate::adapter::{CouplingBody, Interface, TdpfAdapter};
use crate::error::Error;
use crate::model_yaml;
use crate::radiation_cache::Cache;
use anyhow::Result;
use nalgebra::{Rotation3, Vector3};
use std::path::Path;
use tidelink_adapter_core::config::{PreciceConfig, TimeWindowSize};
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::driver::{Progress, RunSummary};
use tidelink_adapter_core::participant::{self, BuildError, Built, Fact, Participant, BODY_TO_BODY};
use tidelink_adapter_core::spec::ParticipantFile;
use tidelink_bemio as bemio;
use tidelink_tdpf_solver::hydro_model::{HydroModel, HydroOptions, RadiationChoice, RadiationMethod};

/// The TDPF participant (`tidelink-tdpf`): linear potential-flow loads from a BEMIO file.
pub struct Tdpf;

impl Participant for Tdpf {
    type Adapter = TdpfAdapter;
    const CAPABILITIES: tidelink_adapter_core::Capabilities = crate::capabilities::CAPABILITIES;
    const TYPES: &'static [&'static str] = &["TDPF"];

    fn build(file: &ParticipantFile, cfg: &PreciceConfig) -> Result<Built<TdpfAdapter>, BuildError> {
        build_adapter(file, cfg).map_err(Error::into_build_error)
    }
}

/// Runs the participant of `participant_file` to the end, reporting progress to `progress`
/// (tests pass `&mut ()`).
pub fn run_with_progress(file: &Path, xml: &Path, backend: Backend, progress: &mut dyn Progress) -> Result<RunSummary> {
    Ok(participant::run::<Tdpf>(file, xml, backend, progress)?.0)
}

/// Reads and cross-checks every file, returning the adapter ready to couple (and the
/// participant file); all errors name their file and line, warnings are logged.
pub fn build(participant_file: &Path, precice_config: &Path) -> Result<(TdpfAdapter, ParticipantFile)> {
    Ok(participant::build_logged::<Tdpf>(participant_file, precice_config)?)
}

/// The adapter of `file` with its facts: the model file, the hydrodynamic file, the bodies.
fn build_adapter(file: &ParticipantFile, cfg: &PreciceConfig) -> Result<Built<TdpfAdapter>, Error> {
    let name = file.adapter.participant_name.clone();
    let window = window_size(cfg, &name)?;
    let iface = Interface::from_file(file, cfg).map_err(Error::Interface)?;
    let Some(model_name) = &file.model else {
        return Err(Error::NoModel(file.path.clone()));
    };
    let model = model_yaml::load(&file.dir().join(model_name))?;
    // The file's own errors (truncated, a dataset missing or mis-shaped) at the key naming it.
    let data = bemio::read(&model.h5_file).map_err(|e| {
        let mut d = tidelink_adapter_core::diagnostics::Diagnostics::default();
        d.error(model.h5_file_loc.clone(), e.to_string());
        d
    })?;
    let specs = &file.adapter.bodies;
    if specs.is_empty() {
        return Err(Error::NoBodies(file.adapter.loc.clone()));
    }
    let names: Vec<&str> = specs.iter().map(|b| b.name.as_str()).collect();
    let name_warnings = bemio::check_body_names(&data, &names, model.strict_body_names)
        .map_err(|source| Error::BodyNames { loc: file.adapter.loc.clone(), source: Box::new(source) })?;
    let gravity = file.simulation.gravity.map(|g| Vector3::from(g).norm());
    let options = HydroOptions {
        bodies: specs.len(),
        dt: window,
        body_to_body: model.body_to_body,
        radiation: model.radiation,
        waves: model.waves.clone(),
        gravity,
    };
    // The radiation identification is most of a TDPF's start-up: its time goes to the log, and
    // its result to the per-user cache, so that later checks and runs of the same IRF reuse it.
    let cache = match model.radiation {
        RadiationMethod::Identified { .. } => Cache::from_env(),
        _ => Cache::off(),
    };
    let who = format!("TDPF participant `{name}`");
    let built = std::time::Instant::now();
    let hydro = HydroModel::with_identifier(&data, &options, &mut cache.identifier(&who))
        .map_err(|source| Error::Model { loc: model.h5_file_loc.clone(), file: data.source.clone(), source })?;
    let seconds = built.elapsed().as_secs_f64();
    match hydro.radiation_choice() {
        RadiationChoice::Fallback { .. } => {
            log::warn!(
                "TDPF participant `{name}`: radiation by {} (model built in {seconds:.3} s)",
                hydro.radiation_choice()
            )
        }
        choice => log::info!("TDPF participant `{name}`: radiation by {choice} (model built in {seconds:.3} s)"),
    }
    let degrees = file.adapter.angle_degrees.unwrap_or(true);
    let mut bodies = Vec::with_capacity(specs.len());
    for (i, b) in specs.iter().enumerate() {
        let Some(location) = b.location else {
            return Err(Error::NoLocation { loc: b.loc.clone(), body: b.name.clone() });
        };
        let location = Vector3::from(location);
        let rotation = b.orientation.map(|o| orientation(o, degrees)).unwrap_or_else(Vector3::zeros);
        let cg = data.bodies[i].cg;
        let offset = cg - location;
        if offset.norm() > 1e-9 {
            log::info!(
                "{}: body `{}`: location [{}, {}, {}] is not the file's cg [{}, {}, {}]: loads are evaluated at the cg \
                 and the moment is shifted to the reference point",
                b.loc, b.name, location.x, location.y, location.z, cg.x, cg.y, cg.z
            );
        }
        bodies.push(CouplingBody { name: b.name.clone(), location, rotation, offset });
    }
    log::info!(
        "TDPF participant `{name}`: {} bodies from {}, window {window} s, body_to_body {}, read_data_time {:?}",
        bodies.len(),
        data.source.display(),
        model.body_to_body,
        file.adapter.read_data_time
    );
    let adapter = TdpfAdapter::new(&name, hydro, bodies, iface, window)?;
    let mut built = Built::new(adapter);
    // The file's coefficients were computed at its g; hydrostatics use the participant's.
    if let Some(g) = gravity.filter(|g| (g - data.g).abs() > 1e-3 * data.g) {
        let loc = file.simulation.gravity_loc.clone().unwrap_or_else(|| file.adapter.loc.clone());
        built.warnings.warning(
            loc,
            format!(
                "gravity {g} m/s² differs from the g = {} m/s² of {} by more than 0.1 %: the hydrostatics use this file's \
                 value while the radiation and excitation coefficients were computed with the file's; set the file's g \
                 (in every participant, they must agree) unless the difference is meant",
                data.g,
                data.source.display()
            ),
        );
    }
    for w in name_warnings {
        built.warnings.warning(file.adapter.loc.clone(), format!("{}: {w}", data.source.display()));
    }
    built.facts.push(Fact::new(BODY_TO_BODY, model.body_to_body, &model.body_to_body_loc));
    Ok(built)
}

/// The fixed window of every scheme the participant is in.
fn window_size(cfg: &PreciceConfig, name: &str) -> Result<f64, Error> {
    let mut window: Option<f64> = None;
    for s in cfg.schemes_of(name) {
        let TimeWindowSize::Fixed(w) = s.time_window_size else {
            return Err(Error::WindowNotFixed { loc: s.loc.clone(), tag: s.kind.tag().to_string() });
        };
        match window {
            Some(v) if (v - w).abs() > 1e-12 * v => {
                return Err(Error::Windows { loc: s.loc.clone(), window: w, other: v });
            }
            _ => window = Some(w),
        }
    }
    window.ok_or_else(|| Error::NoScheme { config: cfg.path.clone(), name: name.to_string() })
}

/// Chrono's 3-angle orientation `[a0, a1, a2]` = Rz(a0)·Ry(a1)·Rx(a2), as a rotation vector.
fn orientation(o: [f64; 3], degrees: bool) -> Vector3<f64> {
    let a = if degrees { o.map(f64::to_radians) } else { o };
    let r = Rotation3::from_axis_angle(&Vector3::z_axis(), a[0])
        * Rotation3::from_axis_angle(&Vector3::y_axis(), a[1])
        * Rotation3::from_axis_angle(&Vector3::x_axis(), a[2]);
    r.scaled_axis()
}
