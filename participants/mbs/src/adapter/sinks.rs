//! Output sinks: one CSV file per coupling body or one HDF5 file, a row per body at most `fps`
//! times per second of coupled time, flushed at the end.

use super::MbsAdapter;
use crate::io::hdf5_output::Hdf5Output;
use crate::io::link_output::LinkCsv;
use crate::io::output::{CsvOutput, Row};
use crate::io::scene::Scene;
use nalgebra::{Isometry3, Translation3};
use std::path::PathBuf;
use tidelink_adapter_core::records::Provenance;
use tidelink_adapter_core::{AdapterError, AdapterResult};

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

impl MbsAdapter {
    /// The CSV files written (empty when output is off or before the run started); `links.csv`
    /// is [`Self::links_path`].
    pub fn output_paths(&self) -> Vec<PathBuf> {
        let mut paths = self.output.as_ref().map(CsvOutput::paths).unwrap_or_default();
        paths.extend(self.hdf5.as_ref().map(|h| h.path().to_path_buf()));
        paths
    }

    /// The names of the links (TSDAs, RSDAs, with or without an external module) and their
    /// absorbed power `−F·v` now (W).
    pub fn link_powers(&self) -> (Vec<String>, Vec<f64>) {
        let bodies = &self.system.bodies;
        self.system.forces.iter().filter_map(|e| e.link_power(bodies).map(|p| (e.name().to_string(), p))).unzip()
    }

    /// The links' absorbed-power file, if written.
    pub fn links_path(&self) -> Option<PathBuf> {
        self.links.as_ref().map(|l| l.path().to_path_buf())
    }

    /// Writes the coupling bodies' rows at coupled time `time` if a row is due (and the
    /// links' absorbed power with them).
    pub(super) fn write_rows(&mut self, time: f64) -> AdapterResult<()> {
        self.write_scene(time)?;
        if let Some(settings) = self.output_settings.take_if(|s| s.format == OutputFormat::Hdf5) {
            let names: Vec<&str> = self.coupled.iter().map(|c| c.name.as_str()).collect();
            let mut h =
                Hdf5Output::new(&settings.directory.join("bodies.h5"), &names, settings.fps, &settings.provenance);
            h.set_links(&self.link_powers().0);
            self.hdf5 = Some(h);
        }
        let (_, powers) = self.link_powers();
        if let Some(h) = self.hdf5.as_mut() {
            if h.due(time) {
                for (i, c) in self.coupled.iter().enumerate() {
                    let Some(b) = self.system.bodies.get(c.handle) else { continue };
                    h.push(i, row(time, b));
                }
                h.push_links(time, &powers);
            }
            return Ok(());
        }
        if self.output.is_none() {
            let Some(settings) = self.output_settings.take() else { return Ok(()) };
            let names: Vec<&str> = self.coupled.iter().map(|c| c.name.as_str()).collect();
            let out =
                CsvOutput::create(&settings.directory, &names, settings.fps, &settings.provenance).map_err(|e| {
                    AdapterError::io(format!("creating the output files in {}", settings.directory.display()), e)
                })?;
            self.output = Some(out);
            let links = self.link_powers().0;
            if !links.is_empty() {
                self.links = Some(LinkCsv::create(&settings.directory, &links, &settings.provenance).map_err(|e| {
                    AdapterError::io(format!("creating links.csv in {}", settings.directory.display()), e)
                })?);
            }
        }
        let Some(out) = self.output.as_mut() else { return Ok(()) };
        if !out.due(time) {
            return Ok(());
        }
        for (i, c) in self.coupled.iter().enumerate() {
            let Some(b) = self.system.bodies.get(c.handle) else { continue };
            out.write(i, &row(time, b))
                .map_err(|e| AdapterError::io(format!("writing the output of body `{}`", c.name), e))?;
        }
        if let Some(l) = self.links.as_mut() {
            l.write(time, &powers).map_err(|e| AdapterError::io("writing links.csv", e))?;
        }
        Ok(())
    }

    /// Writes a frame of the ParaView scene if one is asked for and due (the scene is set up
    /// at the first call).
    fn write_scene(&mut self, time: f64) -> AdapterResult<()> {
        if self.scene.is_none() {
            let Some(settings) = &self.output_settings else { return Ok(()) };
            let Some(model_dir) = &settings.vtk else { return Ok(()) };
            let bodies: Vec<_> = self.names.iter().map(|(_, h)| *h).collect();
            let scene = Scene::new(&settings.directory, &self.shapes, &bodies, model_dir, settings.fps)
                .map_err(|e| AdapterError::solver(format!("the ParaView scene (output.vtk): {e}")))?;
            log::info!("ParaView scene: {}", scene.pvd_path().display());
            self.scene = Some(scene);
        }
        let Some(scene) = self.scene.as_mut() else { return Ok(()) };
        if !scene.due(time) {
            return Ok(());
        }
        let bodies = &self.system.bodies;
        let pose = |h| {
            bodies.get(h).map(|b: &tidelink_mbs_solver::RigidBody| {
                Isometry3::from_parts(Translation3::from(b.reference_position()), b.reference_orientation())
            })
        };
        scene.write(time, pose).map_err(|e| AdapterError::solver(format!("writing the ParaView scene: {e}")))
    }

    /// Flushes the output files and says where they are.
    pub(super) fn flush_outputs(&mut self) -> AdapterResult<()> {
        if let Some(h) = self.hdf5.as_mut() {
            h.flush().map_err(|e| {
                AdapterError::io(format!("writing {}", h.path().display()), std::io::Error::other(e.to_string()))
            })?;
            log::info!("output written to {}", h.path().display());
        }
        if let Some(l) = self.links.as_mut() {
            l.flush().map_err(|e| AdapterError::io("flushing links.csv", e))?;
            log::info!("absorbed power of the links written to {}", l.path().display());
        }
        if let Some(out) = self.output.as_mut() {
            out.flush().map_err(|e| AdapterError::io("flushing the output files", e))?;
            for p in out.paths() {
                log::info!("output written to {}", p.display());
            }
        }
        Ok(())
    }
}
