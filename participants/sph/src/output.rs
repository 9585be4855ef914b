//! What the SPH participant writes: ParaView frames of the fluid particles and of the wall and
//! body markers (`.vtu`, indexed by one `.pvd` that opens as a time series), and the loads it
//! sent each body every window (CSV).
//!
//! Layout under the output folder: `sph.pvd`, `vtu/fluid_NNNNNN.vtu` (part 0: position,
//! velocity, pressure, density) and `vtu/markers_NNNNNN.vtu` (part 1: the same for markers, with
//! `body`, the index of the wall or body), `body_loads.csv` (time, then per body its position
//! and the force and torque written for the window ending then).

use crate::error::Error;
use nalgebra::{Point3, Vector3};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use tidelink_adapter_core::records::{number, Provenance};
use tidelink_adapter_core::{AdapterError, AdapterResult};
use tidelink_sph_solver::Simulation;
use tidelink_vtk::{Encoding, FloatType, PvdIndex, UnstructuredGrid, VtuOptions};

/// What to write and where.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputSettings {
    /// The output folder (created if missing).
    pub directory: PathBuf,
    /// ParaView frames per second of coupled time; none: no frames.
    pub fps: Option<f64>,
    /// Base64 binary (compact) or ASCII `.vtu` arrays.
    pub encoding: Encoding,
    /// The case, participant and run time, for the CSV's first line.
    pub provenance: Provenance,
}

/// The open output files of a run.
pub struct Output {
    settings: OutputSettings,
    csv: BufWriter<File>,
    csv_path: PathBuf,
    pvd: PvdIndex,
    frames: usize,
    next_frame: f64,
}

fn io(what: &str, path: &Path) -> impl FnOnce(std::io::Error) -> AdapterError {
    let context = format!("{what} {}", path.display());
    move |e| AdapterError::io(context, e)
}

fn vtk(e: tidelink_vtk::VtkError) -> AdapterError {
    Error::Frame(e).into()
}

impl Output {
    /// Creates the folder and the loads CSV (header for `bodies`).
    pub fn create(settings: OutputSettings, bodies: &[String]) -> AdapterResult<Self> {
        let dir = &settings.directory;
        std::fs::create_dir_all(dir).map_err(io("creating the output folder", dir))?;
        if settings.fps.is_some() {
            let vtu = dir.join("vtu");
            std::fs::create_dir_all(&vtu).map_err(io("creating the output folder", &vtu))?;
        }
        let csv_path = dir.join("body_loads.csv");
        let file = File::create(&csv_path).map_err(io("creating", &csv_path))?;
        let mut csv = BufWriter::new(file);
        writeln!(csv, "{}", settings.provenance.line()).map_err(io("writing", &csv_path))?;
        let mut header = String::from("time_s");
        for b in bodies {
            for c in ["x_m", "y_m", "z_m", "fx_N", "fy_N", "fz_N", "tx_Nm", "ty_Nm", "tz_Nm"] {
                header.push_str(&format!(",{b}.{c}"));
            }
        }
        writeln!(csv, "{header}").map_err(io("writing", &csv_path))?;
        let pvd = PvdIndex::new(dir.join("sph.pvd"));
        Ok(Output { settings, csv, csv_path, pvd, frames: 0, next_frame: 0.0 })
    }

    /// The files written so far (the CSV, and the `.pvd` once a frame exists).
    pub fn paths(&self) -> Vec<PathBuf> {
        let mut out = vec![self.csv_path.clone()];
        if self.frames > 0 {
            out.push(self.pvd.path().to_path_buf());
        }
        out
    }

    /// One CSV row: per body its position (m), force (N) and torque (N m).
    pub fn loads_row(&mut self, time: f64, rows: &[(Point3<f64>, Vector3<f64>, Vector3<f64>)]) -> AdapterResult<()> {
        let mut line = number(time);
        for (p, f, t) in rows {
            for v in p.iter().chain(f.iter()).chain(t.iter()) {
                line.push(',');
                line.push_str(&number(*v));
            }
        }
        // One write of the whole row, handed to the operating system at once: a stopped or
        // killed run leaves whole rows up to its last window (docs/reading-results.md).
        line.push('\n');
        self.csv.write_all(line.as_bytes()).map_err(io("writing", &self.csv_path))?;
        self.csv.flush().map_err(io("writing", &self.csv_path))
    }

    /// Writes a frame of `sim` if one is due at `time` (frames at 0, 1/fps, 2/fps, …, each at the
    /// first window end at or after its time).
    pub fn frame_if_due(&mut self, time: f64, sim: &mut Simulation) -> AdapterResult<()> {
        let Some(fps) = self.settings.fps else { return Ok(()) };
        let interval = 1.0 / fps;
        if time < self.next_frame - 1e-9 * interval {
            return Ok(());
        }
        while self.next_frame <= time + 1e-9 * interval {
            self.next_frame += interval;
        }
        self.frame(time, sim)
    }

    fn frame(&mut self, time: f64, sim: &mut Simulation) -> AdapterResult<()> {
        let options = VtuOptions { encoding: self.settings.encoding, float: FloatType::F32 };
        let name = |kind: &str| format!("vtu/{kind}_{:06}.vtu", self.frames);
        let (fluid_name, marker_name) = (name("fluid"), name("markers"));
        let mut fluid = UnstructuredGrid::new(sim.fluid_positions().iter().map(|p| [p.x, p.y, p.z]).collect());
        fluid.add_vertex_cells();
        let velocities: Vec<[f64; 3]> = sim.fluid_velocities().iter().map(|v| [v.x, v.y, v.z]).collect();
        fluid.add_point_vectors("velocity", &velocities).map_err(vtk)?;
        fluid.add_point_scalars("pressure", sim.fluid_pressures()).map_err(vtk)?;
        fluid.add_point_scalars("density", sim.fluid_densities().to_vec()).map_err(vtk)?;
        let path = self.settings.directory.join(&fluid_name);
        fluid.write(&path, &options).map_err(vtk)?;
        let m = sim.marker_snapshot().map_err(Error::Markers)?;
        let mut markers = UnstructuredGrid::new(m.positions.iter().map(|p| [p.x, p.y, p.z]).collect());
        markers.add_vertex_cells();
        let velocities: Vec<[f64; 3]> = m.velocities.iter().map(|v| [v.x, v.y, v.z]).collect();
        markers.add_point_vectors("velocity", &velocities).map_err(vtk)?;
        markers.add_point_scalars("pressure", m.pressures).map_err(vtk)?;
        markers.add_point_scalars("density", m.densities).map_err(vtk)?;
        markers.add_point_scalars("body", m.bodies.iter().map(|&b| b as f64).collect()).map_err(vtk)?;
        markers.write(&self.settings.directory.join(&marker_name), &options).map_err(vtk)?;
        self.pvd.push(time, 0, &fluid_name).map_err(vtk)?;
        self.pvd.push(time, 1, &marker_name).map_err(vtk)?;
        self.frames += 1;
        Ok(())
    }

    /// Flushes the CSV.
    pub fn flush(&mut self) -> AdapterResult<()> {
        self.csv.flush().map_err(io("writing", &self.csv_path))
    }
}
