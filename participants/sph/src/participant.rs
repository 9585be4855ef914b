//! The SPH participant: its participant file and fluid model file into a ready [`SphAdapter`],
//! behind the shared entry point ([`Sph`]).
//!
//! Bodies come from `precice_adapter_config.bodies` (name, `location` — the reference point the
//! solid sends as its position —, optional `orientation`, Chrono's Rz·Ry·Rx angles) and their
//! geometry from the model file's `bodies` entry of the same name. Gravity is the participant
//! file's `simulation.gravity`, the value `tidelink check` compares between participants.

use crate::adapter::{CouplingBody, SphAdapter};
use crate::error::Error;
use crate::interface;
use crate::model_yaml::{self, SphModel};
use crate::output::OutputSettings;
use anyhow::Result;
use nalgebra::{Isometry3, Rotation3, Translation3, UnitQuaternion, Vector3};
use std::path::Path;
use tidelink_adapter_core::config::PreciceConfig;
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::driver::{Progress, RunSummary};
use tidelink_adapter_core::participant::{self, BuildError, Built, Participant};
use tidelink_adapter_core::records::Provenance;
use tidelink_adapter_core::spec::{ParticipantFile, DEFAULT_GRAVITY};
use tidelink_sph_solver::{BodySpec, Dimension, Scene, Shape, SphError};
use tidelink_vtk::Encoding;

/// The SPH participant (`tidelink-sph`): a WCSPH fluid around the solid's bodies.
pub struct Sph;

impl Participant for Sph {
    type Adapter = SphAdapter;
    const CAPABILITIES: tidelink_adapter_core::Capabilities = crate::capabilities::CAPABILITIES;
    const TYPES: &'static [&'static str] = &["SPH"];

    fn build(file: &ParticipantFile, cfg: &PreciceConfig) -> Result<Built<SphAdapter>, BuildError> {
        build_adapter(file, cfg).map_err(Error::into_build_error)
    }
}

/// Runs the participant of `participant_file` to the end, reporting progress to `progress`
/// (tests pass `&mut ()`); the summary and the files written.
pub fn run_with_progress(
    file: &Path,
    xml: &Path,
    backend: Backend,
    progress: &mut dyn Progress,
) -> Result<(RunSummary, Vec<std::path::PathBuf>)> {
    let (summary, adapter) = participant::run::<Sph>(file, xml, backend, progress)?;
    Ok((summary, adapter.output_paths()))
}

/// The adapter of `file`: the model file, the bodies, the scene, the output settings.
fn build_adapter(file: &ParticipantFile, cfg: &PreciceConfig) -> Result<Built<SphAdapter>, Error> {
    let name = file.adapter.participant_name.clone();
    let iface = interface::from_file(file).map_err(Error::Interface)?;
    let gravity = Vector3::from(file.simulation.gravity.unwrap_or(DEFAULT_GRAVITY));
    let Some(model_name) = &file.model else {
        return Err(Error::NoModel(file.path.clone()));
    };
    let model = model_yaml::load(&file.dir().join(model_name), gravity)?;
    let output = output_settings(file, cfg)?;
    let (scene, bodies, particles) = scene(file, &model)?;
    let sim = scene.build().map_err(|e| scene_error(e, &model))?;
    let built_bodies: Vec<CouplingBody> = bodies
        .into_iter()
        .map(|(name, initial)| {
            let id = sim.body_id(&name).expect("every body was added to the scene");
            CouplingBody { name, id, initial }
        })
        .collect();
    log::info!(
        "SPH participant `{name}`: {}D, dp = {} m, {} fluid particles ({particles} before removing those inside \
         solids), {} markers, {} coupled bodies, c0 = {:.3} m/s",
        model.params.dimension.count(),
        model.params.spacing,
        sim.fluid_count(),
        sim.marker_count(),
        built_bodies.len(),
        model.params.sound_speed
    );
    let adapter = SphAdapter::new(&name, sim, iface, built_bodies, model.depth, model.time_step, output)
        .map_err(|source| Error::Start { file: file.path.clone(), source })?;
    Ok(Built { adapter, warnings: Diagnostics::default(), facts: Vec::new() })
}

/// The coupled bodies' names and initial poses, in the participant file's order.
type Poses = Vec<(String, Isometry3<f64>)>;

/// The scene of `model` with the participant file's bodies at their initial poses, the bodies,
/// and the fluid particles asked for (before those inside solids are removed).
fn scene(file: &ParticipantFile, model: &SphModel) -> Result<(Scene, Poses, usize), Error> {
    let specs = &file.adapter.bodies;
    if specs.is_empty() {
        return Err(Error::NoBodies(file.adapter.loc.clone()));
    }
    let mut d = Diagnostics::default();
    for g in &model.bodies {
        if !specs.iter().any(|b| b.name == g.name) {
            d.error(
                g.loc.clone(),
                format!(
                    "body `{}` is not in precice_adapter_config.bodies of {}; add it there or remove it here",
                    g.name,
                    file.path.display()
                ),
            );
        }
    }
    let degrees = file.adapter.angle_degrees.unwrap_or(true);
    let mut scene = Scene::new(model.params.clone());
    let two_d = model.params.dimension == Dimension::Two;
    let particles: usize = model.blocks.iter().map(|(lo, hi)| scene.add_fluid_box(*lo, *hi)).sum();
    scene.set_hydrostatic_surface(model.water_level);
    if let Some(t) = &model.tank {
        let centre = nalgebra::center(&t.min, &t.max);
        let mut half = (t.max - t.min) / 2.0;
        if two_d {
            half.y = 1.0; // not used in 2D; any positive extent
        }
        let tank = Shape::Container { half_extents: half, open_top: t.open_top };
        let pose = Isometry3::translation(centre.x, if two_d { 0.0 } else { centre.y }, centre.z);
        scene.add_body(BodySpec::new("tank", tank, pose).without_loads());
    }
    let mut bodies = Vec::new();
    for b in specs {
        let Some(g) = model.bodies.iter().find(|g| g.name == b.name) else {
            d.error(
                b.loc.clone(),
                format!(
                    "body `{}` has no geometry in the model file: add `bodies: - name: {}` with a `shape`",
                    b.name, b.name
                ),
            );
            continue;
        };
        let Some(location) = b.location else {
            d.error(b.loc.clone(), format!("body `{}` needs a `location` (its initial reference point)", b.name));
            continue;
        };
        if let Some(why) = model.tank.as_ref().and_then(|t| outside_tank(location, t, two_d)) {
            d.error(
                b.loc.clone(),
                format!(
                    "body `{}` starts {why}: it would never meet the water; move its `location` into the tank or \
                     enlarge `tank` in the model file",
                    b.name
                ),
            );
        }
        let rotation = b.orientation.map(|o| orientation(o, degrees)).unwrap_or_else(UnitQuaternion::identity);
        let pose = Isometry3::from_parts(Translation3::from(Vector3::from(location)), rotation);
        let mut spec =
            BodySpec { name: b.name.clone(), markers: g.markers.clone(), pose, loads: true, layers: g.layers };
        if spec.name == "tank" && model.tank.is_some() {
            spec.name = "body tank".into();
            d.error(b.loc.clone(), "`tank` is the name of the model's tank walls; rename this body");
        }
        scene.add_body(spec);
        bodies.push((b.name.clone(), pose));
    }
    if d.has_errors() {
        return Err(d.into());
    }
    Ok((scene, bodies, particles))
}

/// Where a body's reference point `p` lies outside the tank `t`, if it does: beside or below
/// the walls, or above an open top by more than the tank's height (where the domain ends; a
/// body dropped into the water from above is fine).
fn outside_tank(p: [f64; 3], t: &model_yaml::Tank, two_d: bool) -> Option<String> {
    let height = t.max.z - t.min.z;
    let top = if t.open_top { t.max.z + height } else { t.max.z };
    let axes: &[usize] = if two_d { &[0] } else { &[0, 1] };
    let side = axes.iter().any(|&k| p[k] < t.min[k] || p[k] > t.max[k]);
    (side || p[2] < t.min.z || p[2] > top).then(|| {
        format!(
            "at [{}, {}, {}], outside the tank [{}, {}, {}]–[{}, {}, {}]",
            p[0], p[1], p[2], t.min.x, t.min.y, t.min.z, t.max.x, t.max.y, top
        )
    })
}

/// A scene that cannot be built, at the model line it comes from.
fn scene_error(e: SphError, model: &SphModel) -> Error {
    let mut d = Diagnostics::default();
    match &e {
        SphError::Geometry { body, .. } => {
            let loc = model.bodies.iter().find(|g| &g.name == body).map(|g| g.loc.clone());
            d.error(loc.unwrap_or_else(|| model.dimension_loc.clone()), e.to_string());
        }
        SphError::NoFluid => d.error(
            model.dimension_loc.clone(),
            "no fluid particle is left: the fluid boxes are empty at this spacing or lie inside the tank walls or bodies",
        ),
        _ => d.error(model.dimension_loc.clone(), e.to_string()),
    }
    d.into()
}

/// `output`: the folder (default `output` next to the participant file), the frame rate
/// (`fps`; no frames without it) and the format: CSV (default) writes binary `.vtu`, ASCII
/// text `.vtu`, NONE nothing.
fn output_settings(file: &ParticipantFile, cfg: &PreciceConfig) -> Result<Option<OutputSettings>, Error> {
    let encoding = match file.output.format.as_deref().map(str::to_ascii_uppercase).as_deref() {
        None | Some("CSV") => Encoding::Base64,
        Some("ASCII") => Encoding::Ascii,
        Some("NONE") => return Ok(None),
        Some(other) => return Err(Error::OutputFormat { file: file.path.clone(), format: other.to_string() }),
    };
    if let Some(fps) = file.output.fps.filter(|f| !(f.is_finite() && *f > 0.0)) {
        return Err(Error::Fps { file: file.path.clone(), fps });
    }
    let directory = tidelink_adapter_core::spec::output_folder(file)?;
    let provenance = Provenance::now(&cfg.path, &file.adapter.participant_name);
    Ok(Some(OutputSettings { directory, fps: file.output.fps, encoding, provenance }))
}

/// Chrono's 3-angle orientation `[a0, a1, a2]` = Rz(a0)·Ry(a1)·Rx(a2).
fn orientation(o: [f64; 3], degrees: bool) -> UnitQuaternion<f64> {
    let a = if degrees { o.map(f64::to_radians) } else { o };
    let r = Rotation3::from_axis_angle(&Vector3::z_axis(), a[0])
        * Rotation3::from_axis_angle(&Vector3::y_axis(), a[1])
        * Rotation3::from_axis_angle(&Vector3::x_axis(), a[2]);
    UnitQuaternion::from_rotation_matrix(&r)
}
