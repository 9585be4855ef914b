//! Output sinks: one CSV file per coupling body or one HDF5 file, a row per body at most `fps`
//! times per second of coupled time, the links' absorbed power beside them, the ParaView scene
//! of the bodies' shapes; created at the first output and flushed at every row, so that a
//! stopped or killed run leaves whole rows (docs/reading-results.md, "After a stop").

use crate::coupling_body::CouplingBody;
use crate::io::hdf5_output::Hdf5Output;
use crate::io::link_output::LinkCsv;
use crate::io::output::{CsvOutput, Row};
use crate::io::scene::{Scene, SceneError};
use nalgebra::{Isometry3, Translation3};
use std::io;
use std::path::PathBuf;
use thiserror::Error;
use tidelink_adapter_core::records::Provenance;
use tidelink_adapter_core::AdapterError;
use tidelink_mbs_solver::dynamics::body_set::BodyHandle;
use tidelink_mbs_solver::geometry::shape::BodyShape;
use tidelink_mbs_solver::system::MultibodySystem;

/// Where and how often the CSV series is written.
#[derive(Debug, Clone)]
pub struct OutputSettings {
    /// Where the files go (created if missing).
    pub directory: PathBuf,
    /// Rows per second of coupled time; `None` writes one row per window.
    pub fps: Option<f64>,
    /// CSV per body or one HDF5 file.
    pub format: OutputFormat,
    /// The case, participant and run time every file is stamped with.
    pub provenance: Provenance,
    /// With `Some(model folder)`, the bodies' shapes are also written as a ParaView scene
    /// (`bodies.pvd`, [`crate::io::scene`]); mesh files resolve against that folder.
    pub vtk: Option<PathBuf>,
}

/// The file format of the body states (`output.format`; NONE is no [`OutputSettings`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// One CSV file per coupling body.
    #[default]
    Csv,
    /// One `bodies.h5` file, one group per coupling body ([`crate::io::hdf5_output`]).
    Hdf5,
}

/// The output row of body `b` at `time`: its reference frame's pose and velocity, the
/// angular velocity and the coupling load applied now.
fn row(time: f64, b: &tidelink_mbs_solver::dynamics::body::RigidBody) -> Row {
    Row {
        time,
        position: b.reference_position(),
        rotation: b.reference_orientation().scaled_axis(),
        linvel: b.reference_velocity(),
        angvel: b.angvel(),
        force: b.force(),
        torque: b.torque(),
    }
}

/// Why an output file could not be created or written; the message names the file or folder.
#[derive(Debug, Error)]
pub enum SinkError {
    /// The CSV files could not be created.
    #[error("creating the output files in {}: {source}", dir.display())]
    Create {
        /// The output folder.
        dir: PathBuf,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// `links.csv` could not be created.
    #[error("creating links.csv in {}: {source}", dir.display())]
    CreateLinks {
        /// The output folder.
        dir: PathBuf,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// A body's row could not be written.
    #[error("writing the output of body `{body}`: {source}")]
    Write {
        /// The coupling body.
        body: String,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// A row of `links.csv` could not be written.
    #[error("writing links.csv: {0}")]
    WriteLinks(#[source] io::Error),
    /// `links.csv` could not be flushed.
    #[error("flushing links.csv: {0}")]
    FlushLinks(#[source] io::Error),
    /// The CSV files could not be flushed.
    #[error("flushing the output files: {0}")]
    Flush(#[source] io::Error),
    /// The HDF5 file could not be written.
    #[error("writing {}: {source}", path.display())]
    Hdf5 {
        /// The file.
        path: PathBuf,
        /// The HDF5 library's error.
        #[source]
        source: hdf5_metno::Error,
    },
    /// The ParaView scene could not be set up (a shape, its folder).
    #[error("the ParaView scene (output.vtk): {0}")]
    SceneSetup(#[source] SceneError),
    /// A frame of the ParaView scene could not be written.
    #[error("writing the ParaView scene: {0}")]
    Scene(#[source] SceneError),
}

impl From<SinkError> for AdapterError {
    fn from(e: SinkError) -> Self {
        AdapterError::participant(e)
    }
}

/// The names of the links (TSDAs, RSDAs, with or without an external module) of `system` and
/// their absorbed power `−F·v` now (W).
pub(super) fn link_powers(system: &MultibodySystem) -> (Vec<String>, Vec<f64>) {
    let bodies = &system.bodies;
    system.forces.iter().filter_map(|e| e.link_power(bodies).map(|p| (e.name().to_string(), p))).unzip()
}

/// Every output of a run: what is asked for, and the writers once created.
pub(super) struct Sinks {
    settings: Option<OutputSettings>,
    csv: Option<CsvOutput>,
    links: Option<LinkCsv>,
    hdf5: Option<Hdf5Output>,
    scene: Option<Scene>,
    /// The model's shapes, drawn in the ParaView scene.
    shapes: Vec<BodyShape>,
    /// The model's bodies in its order (the scene's `body` numbers).
    bodies: Vec<BodyHandle>,
}

impl Sinks {
    /// No output yet; a scene would draw `shapes` on `bodies` (model order).
    pub(super) fn new(shapes: Vec<BodyShape>, bodies: Vec<BodyHandle>) -> Self {
        Sinks { settings: None, csv: None, links: None, hdf5: None, scene: None, shapes, bodies }
    }

    /// Where and how often output is written (`None`: none); the files are created at the first
    /// [`Self::write`].
    pub(super) fn set(&mut self, settings: Option<OutputSettings>) {
        self.settings = settings;
    }

    /// The body-state files written (CSV per body or the HDF5 file; empty before the first output).
    pub(super) fn paths(&self) -> Vec<PathBuf> {
        let mut paths = self.csv.as_ref().map(CsvOutput::paths).unwrap_or_default();
        paths.extend(self.hdf5.as_ref().map(|h| h.path().to_path_buf()));
        paths
    }

    /// The links' absorbed-power file, if written.
    pub(super) fn links_path(&self) -> Option<PathBuf> {
        self.links.as_ref().map(|l| l.path().to_path_buf())
    }

    /// Writes the coupling bodies' rows at coupled time `time` if a row is due (and the
    /// links' absorbed power with them), creating the files at the first call.
    pub(super) fn write(
        &mut self,
        time: f64,
        system: &MultibodySystem,
        coupled: &[CouplingBody],
    ) -> Result<(), SinkError> {
        self.write_scene(time, system)?;
        if let Some(settings) = self.settings.take_if(|s| s.format == OutputFormat::Hdf5) {
            let names: Vec<&str> = coupled.iter().map(|c| c.name.as_str()).collect();
            let mut h =
                Hdf5Output::new(&settings.directory.join("bodies.h5"), &names, settings.fps, &settings.provenance);
            h.set_links(&link_powers(system).0);
            self.hdf5 = Some(h);
        }
        let (_, powers) = link_powers(system);
        if let Some(h) = self.hdf5.as_mut() {
            if h.due(time) {
                for (i, c) in coupled.iter().enumerate() {
                    let Some(b) = system.bodies.get(c.handle) else { continue };
                    h.push(i, row(time, b));
                }
                h.push_links(time, &powers);
                // On disk at every row: a kill loses at most the window being written.
                h.flush().map_err(|source| SinkError::Hdf5 { path: h.path().to_path_buf(), source })?;
            }
            return Ok(());
        }
        if self.csv.is_none() {
            let Some(settings) = self.settings.take() else { return Ok(()) };
            self.create_csv(&settings, system, coupled)?;
        }
        let Some(out) = self.csv.as_mut() else { return Ok(()) };
        if !out.due(time) {
            return Ok(());
        }
        for (i, c) in coupled.iter().enumerate() {
            let Some(b) = system.bodies.get(c.handle) else { continue };
            out.write(i, &row(time, b)).map_err(|source| SinkError::Write { body: c.name.clone(), source })?;
        }
        if let Some(l) = self.links.as_mut() {
            l.write(time, &powers).map_err(SinkError::WriteLinks)?;
        }
        // Every row to the operating system at once, bodies then links: a kill leaves whole
        // rows, `links.csv` at most this one row behind the bodies' files.
        out.flush().map_err(SinkError::Flush)?;
        if let Some(l) = self.links.as_mut() {
            l.flush().map_err(SinkError::FlushLinks)?;
        }
        Ok(())
    }

    /// Creates a CSV file per coupling body and, if the model has links, `links.csv`.
    fn create_csv(
        &mut self,
        settings: &OutputSettings,
        system: &MultibodySystem,
        coupled: &[CouplingBody],
    ) -> Result<(), SinkError> {
        let dir = &settings.directory;
        let names: Vec<&str> = coupled.iter().map(|c| c.name.as_str()).collect();
        let out = CsvOutput::create(dir, &names, settings.fps, &settings.provenance)
            .map_err(|source| SinkError::Create { dir: dir.clone(), source })?;
        self.csv = Some(out);
        let links = link_powers(system).0;
        if !links.is_empty() {
            let l = LinkCsv::create(dir, &links, &settings.provenance)
                .map_err(|source| SinkError::CreateLinks { dir: dir.clone(), source })?;
            self.links = Some(l);
        }
        Ok(())
    }

    /// Writes a frame of the ParaView scene if one is asked for and due (the scene is set up
    /// at the first call).
    fn write_scene(&mut self, time: f64, system: &MultibodySystem) -> Result<(), SinkError> {
        if self.scene.is_none() {
            let Some(settings) = &self.settings else { return Ok(()) };
            let Some(model_dir) = &settings.vtk else { return Ok(()) };
            let scene = Scene::new(&settings.directory, &self.shapes, &self.bodies, model_dir, settings.fps)
                .map_err(SinkError::SceneSetup)?;
            log::info!("ParaView scene: {}", scene.pvd_path().display());
            self.scene = Some(scene);
        }
        let Some(scene) = self.scene.as_mut() else { return Ok(()) };
        if !scene.due(time) {
            return Ok(());
        }
        let bodies = &system.bodies;
        let pose = |h| {
            bodies.get(h).map(|b: &tidelink_mbs_solver::RigidBody| {
                Isometry3::from_parts(Translation3::from(b.reference_position()), b.reference_orientation())
            })
        };
        scene.write(time, pose).map_err(SinkError::Scene)
    }

    /// Flushes the output files and says where they are.
    pub(super) fn finish(&mut self) -> Result<(), SinkError> {
        if let Some(h) = self.hdf5.as_mut() {
            h.flush().map_err(|source| SinkError::Hdf5 { path: h.path().to_path_buf(), source })?;
            log::info!("output written to {}", h.path().display());
        }
        if let Some(l) = self.links.as_mut() {
            l.flush().map_err(SinkError::FlushLinks)?;
            log::info!("absorbed power of the links written to {}", l.path().display());
        }
        if let Some(out) = self.csv.as_mut() {
            out.flush().map_err(SinkError::Flush)?;
            for p in out.paths() {
                log::info!("output written to {}", p.display());
            }
        }
        Ok(())
    }
}
