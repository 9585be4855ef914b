//! Shared pieces of the participant tests: a preCICE XML generator for a TDPF ("Fluid") and a solid
//! ("Solid") participant, the TDPF participant and model files, and a scripted solid adapter that
//! holds its bodies fixed and records the loads it reads.
// Each test binary compiles this module and uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tidelink_adapter_core::spec::ReadDataTime;
use tidelink_adapter_core::testing::{self, TempCase};
use tidelink_adapter_core::{Adapter, AdapterResult, CouplingData, VertexId};

/// The shared RM3 file (never copied into the repository); panics naming it when missing, so
/// the tests calling it carry `cfg_attr(not(tidelink_shared), ignore = …)` (docs/testing.md).
pub fn rm3() -> PathBuf {
    testing::shared_path("data/rm3/rm3.h5")
}

/// Reference points of the RM3 float and plate (the file's cg).
pub const FLOAT: [f64; 3] = [0.0, 0.0, -0.72];
pub const PLATE: [f64; 3] = [0.0, 0.0, -21.29];

/// What a generated XML varies.
pub struct Xml {
    /// `serial-explicit`, `parallel-explicit`, `serial-implicit`.
    pub scheme: &'static str,
    pub fluid_first: bool,
    pub window: f64,
    pub windows: usize,
    /// Fluid→Solid forces initialised too.
    pub init_forces: bool,
    /// Declare the FluidAddedMass_TDPF / SolidAddedMass_TDPF pair with an `am_coeffs` exchange.
    pub added_mass: bool,
}

impl Default for Xml {
    fn default() -> Self {
        Xml {
            scheme: "serial-explicit",
            fluid_first: true,
            window: 0.1,
            windows: 20,
            init_forces: false,
            added_mass: false,
        }
    }
}

impl Xml {
    pub fn text(&self) -> String {
        let (first, second) = if self.fluid_first { ("Fluid", "Solid") } else { ("Solid", "Fluid") };
        let init_f = if self.init_forces { r#" initialize="yes""# } else { "" };
        let am = self.added_mass;
        let am_data = if am { r#"<data:scalar name="am_coeffs" />"# } else { "" };
        let am_meshes = if am {
            r#"<mesh name="FluidAddedMass_TDPF" dimensions="3"><use-data name="am_coeffs" /></mesh>
  <mesh name="SolidAddedMass_TDPF" dimensions="3"><use-data name="am_coeffs" /></mesh>"#
        } else {
            ""
        };
        let am_solid = if am {
            r#"<provide-mesh name="SolidAddedMass_TDPF" />
    <receive-mesh name="FluidAddedMass_TDPF" from="Fluid" />
    <mapping:nearest-neighbor direction="read" from="FluidAddedMass_TDPF" to="SolidAddedMass_TDPF" constraint="consistent" />
    <read-data name="am_coeffs" mesh="SolidAddedMass_TDPF" />"#
        } else {
            ""
        };
        let am_fluid = if am {
            r#"<provide-mesh name="FluidAddedMass_TDPF" />
    <write-data name="am_coeffs" mesh="FluidAddedMass_TDPF" />"#
        } else {
            ""
        };
        let am_exchange =
            if am { r#"<exchange data="am_coeffs" mesh="FluidAddedMass_TDPF" from="Fluid" to="Solid" />"# } else { "" };
        let implicit = if self.scheme.contains("implicit") { r#"<max-iterations value="3" />"# } else { "" };
        format!(
            r#"<?xml version="1.0" encoding="UTF-8" ?>
<precice-configuration>
  <data:vector name="positions" />
  <data:vector name="rotations" />
  <data:vector name="velocities" />
  <data:vector name="angular_velocities" />
  <data:vector name="forces" />
  <data:vector name="torques" />
  {am_data}
  <mesh name="SolidMesh" dimensions="3">
    <use-data name="positions" /><use-data name="rotations" /><use-data name="velocities" />
    <use-data name="angular_velocities" /><use-data name="forces" /><use-data name="torques" />
  </mesh>
  <mesh name="FluidMesh" dimensions="3">
    <use-data name="positions" /><use-data name="rotations" /><use-data name="velocities" />
    <use-data name="angular_velocities" /><use-data name="forces" /><use-data name="torques" />
  </mesh>
  {am_meshes}
  <participant name="Solid">
    <provide-mesh name="SolidMesh" />
    <write-data name="positions" mesh="SolidMesh" />
    <write-data name="rotations" mesh="SolidMesh" />
    <write-data name="velocities" mesh="SolidMesh" />
    <write-data name="angular_velocities" mesh="SolidMesh" />
    <read-data name="forces" mesh="SolidMesh" />
    <read-data name="torques" mesh="SolidMesh" />
    {am_solid}
  </participant>
  <participant name="Fluid">
    <provide-mesh name="FluidMesh" />
    <receive-mesh name="SolidMesh" from="Solid" />
    <mapping:nearest-neighbor direction="read" from="SolidMesh" to="FluidMesh" constraint="consistent" />
    <mapping:nearest-neighbor direction="write" from="FluidMesh" to="SolidMesh" constraint="conservative" />
    <read-data name="positions" mesh="FluidMesh" />
    <read-data name="rotations" mesh="FluidMesh" />
    <read-data name="velocities" mesh="FluidMesh" />
    <read-data name="angular_velocities" mesh="FluidMesh" />
    <write-data name="forces" mesh="FluidMesh" />
    <write-data name="torques" mesh="FluidMesh" />
    {am_fluid}
  </participant>
  <m2n:sockets acceptor="Fluid" connector="Solid" exchange-directory="{{dir}}" />
  <coupling-scheme:{scheme}>
    <participants first="{first}" second="{second}" />
    <time-window-size value="{window}" />
    <max-time-windows value="{windows}" />
    {implicit}
    <exchange data="positions" mesh="SolidMesh" from="Solid" to="Fluid" initialize="yes" />
    <exchange data="rotations" mesh="SolidMesh" from="Solid" to="Fluid" initialize="yes" />
    <exchange data="velocities" mesh="SolidMesh" from="Solid" to="Fluid" initialize="yes" />
    <exchange data="angular_velocities" mesh="SolidMesh" from="Solid" to="Fluid" initialize="yes" />
    <exchange data="forces" mesh="SolidMesh" from="Fluid" to="Solid"{init_f} />
    <exchange data="torques" mesh="SolidMesh" from="Fluid" to="Solid"{init_f} />
    {am_exchange}
  </coupling-scheme:{scheme}>
</precice-configuration>
"#,
            scheme = self.scheme,
            window = self.window,
            windows = self.windows,
        )
    }
}

/// The TDPF participant file: `bodies` as `(name, location)`, read time, mesh type.
pub fn participant_yaml(bodies: &[(&str, [f64; 3])], read_time: &str, mesh_type: &str) -> String {
    let mut s = String::from(
        "type: TDPF\nmodel: tdpf_model.yaml\nsimulation:\n  end_time: -1\n  gravity: [0, 0, -9.81]\n\
         precice_adapter_config:\n  participant_name: Fluid\n",
    );
    s += &format!("  read_data_time: {read_time}\n  bodies:\n");
    for (name, l) in bodies {
        s += &format!("    - name: {name}\n      location: [{}, {}, {}]\n", l[0], l[1], l[2]);
    }
    s += &format!(
        "  interfaces:\n    - mesh_name: FluidMesh\n      mesh_type: {mesh_type}\n      write_data:\n        - name: forces\n          \
         type: FORCES\n        - name: torques\n          type: TORQUES\n      read_data:\n        - name: positions\n          \
         type: POSITIONS\n        - name: rotations\n          type: ROTATIONS\n        - name: velocities\n          \
         type: LINEAR_VELOCITIES\n        - name: angular_velocities\n          type: ANGULAR_VELOCITIES\n"
    );
    s
}

/// A TDPF model file for `h5` with a `waves:` block (YAML lines, indented by 4).
pub fn model_yaml(h5: &Path, waves: &str) -> String {
    format!("model:\n  name: test\n  h5_file: {}\n  waves:\n{waves}", h5.display())
}

/// Writes the participant and model files into `case`; returns the participant file.
pub fn write_case(case: &TempCase, participant: &str, model: &str) -> PathBuf {
    case.write("fluid/tdpf_model.yaml", model);
    case.write("fluid/participant.yaml", participant)
}

/// What the scripted solid read in one window: its start time, forces and torques (3 per body),
/// and the added-mass values (if any).
#[derive(Debug, Clone)]
pub struct Reading {
    pub t: f64,
    pub forces: Vec<f64>,
    pub torques: Vec<f64>,
    pub added_mass: Vec<f64>,
}

/// Prescribed reference-point positions and velocities of all bodies at time `t`.
pub type Motion = Arc<dyn Fn(f64) -> Vec<([f64; 3], [f64; 3])> + Send + Sync>;

/// A solid that holds its bodies at fixed poses with zero velocity (or moves them as `motion`
/// prescribes, without rotation) and records what it reads.
pub struct HeldSolid {
    pub points: Vec<[f64; 3]>,
    pub motion: Option<Motion>,
    pub added_mass: bool,
    pub t: f64,
    pub ids: Vec<VertexId>,
    pub am_ids: Vec<VertexId>,
    pub readings: Arc<Mutex<Vec<Reading>>>,
}

impl Adapter for HeldSolid {
    fn name(&self) -> &str {
        "Solid"
    }
    fn initialize_participant(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        let coords: Vec<f64> = self.points.iter().flatten().copied().collect();
        self.ids = vec![0; self.points.len()];
        coupling.set_mesh_vertices("SolidMesh", &coords, &mut self.ids)?;
        if self.added_mass {
            let n = 36 * self.points.len();
            let coords: Vec<f64> =
                (0..n).flat_map(|k| [(k / 36) as f64, ((k % 36) / 6) as f64, (k % 6) as f64]).collect();
            self.am_ids = vec![0; n];
            coupling.set_mesh_vertices("SolidAddedMass_TDPF", &coords, &mut self.am_ids)?;
        }
        Ok(())
    }
    fn read_data(&mut self, coupling: &mut dyn CouplingData, _time: f64, rel: f64) -> AdapterResult<()> {
        let n = 3 * self.ids.len();
        let (mut forces, mut torques) = (vec![0.0; n], vec![0.0; n]);
        coupling.read_data("SolidMesh", "forces", &self.ids, rel, &mut forces)?;
        coupling.read_data("SolidMesh", "torques", &self.ids, rel, &mut torques)?;
        let mut added_mass = vec![f64::NAN; self.am_ids.len()];
        if self.added_mass {
            coupling.read_data("SolidAddedMass_TDPF", "am_coeffs", &self.am_ids, rel, &mut added_mass)?;
        }
        self.readings.lock().expect("lock").push(Reading { t: self.t, forces, torques, added_mass });
        Ok(())
    }
    fn write_data(&mut self, coupling: &mut dyn CouplingData) -> AdapterResult<()> {
        let (p, v): (Vec<f64>, Vec<f64>) = match &self.motion {
            Some(m) => {
                let states = m(self.t);
                (states.iter().flat_map(|s| s.0).collect(), states.iter().flat_map(|s| s.1).collect())
            }
            None => {
                let p: Vec<f64> = self.points.iter().flatten().copied().collect();
                let v = vec![0.0; p.len()];
                (p, v)
            }
        };
        let zero = vec![0.0; p.len()];
        coupling.write_data("SolidMesh", "positions", &self.ids, &p)?;
        coupling.write_data("SolidMesh", "velocities", &self.ids, &v)?;
        for d in ["rotations", "angular_velocities"] {
            coupling.write_data("SolidMesh", d, &self.ids, &zero)?;
        }
        Ok(())
    }
    fn advance(&mut self, time: f64, dt: f64) -> AdapterResult<()> {
        // The driver's time: `write_data` (after the step) prescribes the motion at the step's end.
        self.t = time + dt;
        Ok(())
    }
    fn solver_time_step(&self, max_step: f64) -> f64 {
        max_step
    }
}

/// Runs the TDPF participant and the held solid in threads; the solid's readings.
pub fn run_coupled(
    case: &TempCase,
    fluid_file: PathBuf,
    points: Vec<[f64; 3]>,
    solid_read: ReadDataTime,
    added_mass: bool,
) -> Vec<Reading> {
    run_coupled_moving(case, fluid_file, points, None, solid_read, added_mass)
}

/// As [`run_coupled`], the solid moving its bodies as `motion` prescribes.
pub fn run_coupled_moving(
    case: &TempCase,
    fluid_file: PathBuf,
    points: Vec<[f64; 3]>,
    motion: Option<Motion>,
    solid_read: ReadDataTime,
    added_mass: bool,
) -> Vec<Reading> {
    use tidelink_adapter_core::coupling::{self, Backend};
    let readings = Arc::new(Mutex::new(Vec::new()));
    let (x1, x2) = (case.config.clone(), case.config.clone());
    let rec = readings.clone();
    let results = tidelink_adapter_core::testing::run_in_threads::<Result<(), String>>(vec![
        (
            "Fluid",
            Box::new(move || {
                tidelink_tdpf::run_with_progress(&fluid_file, &x1, Backend::Native, &mut ())
                    .map(|_| ())
                    .map_err(|e| format!("Fluid: {e:#}"))
            }),
        ),
        (
            "Solid",
            Box::new(move || {
                let mut solid = HeldSolid {
                    points,
                    motion,
                    added_mass,
                    t: 0.0,
                    ids: Vec::new(),
                    am_ids: Vec::new(),
                    readings: rec,
                };
                let mut c = coupling::open(Backend::Native, "Solid", &x2).map_err(|e| format!("Solid: {e}"))?;
                tidelink_adapter_core::driver::run(&mut solid, c.as_mut(), solid_read, &mut ())
                    .map(|_| ())
                    .map_err(|e| format!("Solid: {e}"))
            }),
        ),
    ]);
    for r in results {
        r.unwrap_or_else(|e| panic!("{e}"));
    }
    let out = readings.lock().expect("lock").clone();
    out
}
