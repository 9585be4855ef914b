//! The sphere_drop case with the Solid built in code instead of from its YAML files:
//! a ball as a `BodySet`, coupled through `MbsAdapter::from_system` + `add_coupling_body` +
//! `add_interface`, with a before-step callback that, from t = 0.5 s, adds linear damping
//! to the ball (a force −c v) so it settles faster. The Fluid (buoyancy and drag) runs in
//! a thread from `configs/sphere_drop/fluid`.
//!
//! `cargo run --release --example coded_ball [output folder]`

use anyhow::{anyhow, Context, Result};
use nalgebra::{Isometry3, Vector3};
use std::path::{Path, PathBuf};
use tidelink_adapter_core::coupling::{self, Backend};
use tidelink_adapter_core::driver;
use tidelink_adapter_core::records::Provenance;
use tidelink_adapter_core::spec::{DataType, MeshType, ReadDataTime};
use tidelink_mbs::adapter::{MbsAdapter, OutputFormat, OutputSettings};
use tidelink_mbs_solver::{RigidBodyBuilder, SemiImplicitEuler};

/// A fixed ground: the model the code adds its bodies to.
const GROUND: &str = "model:\n  bodies:\n    - name: ground\n      location: [0, 0, 0]\n      fixed: true\n";

/// Damping coefficient switched on by the callback (N s/m).
const DAMPING: f64 = 20.0;
const DAMPING_FROM: f64 = 0.5;

fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    let case = root.join("configs/sphere_drop");
    let out_dir: PathBuf =
        std::env::args().nth(1).map(PathBuf::from).unwrap_or_else(|| case.join("solid/output_coded"));

    let gravity = Vector3::new(0.0, 0.0, -9.81);
    let ball = RigidBodyBuilder::dynamic(3.62, Vector3::repeat(0.4 * 3.62 * 0.12 * 0.12))
        .reference_pose(Isometry3::translation(0.0, 0.0, 0.18))
        .build()
        .map_err(|e| anyhow!("building the ball: {e}"))?;
    let mut model = tidelink_mbs::io::model_yaml::parse_str(GROUND, std::path::Path::new("coded model"), gravity)
        .map_err(|d| anyhow::anyhow!("{d}"))?
        .0;
    let handle = model.bodies.insert(ball);
    model.names.push(("ball".to_string(), handle));

    let mut solid = MbsAdapter::from_system("Solid", model, Box::new(SemiImplicitEuler), 1e-3);
    solid.add_coupling_body("ball", None)?;
    solid.add_interface(
        "SolidMesh",
        MeshType::RigidBodyRefs,
        &[("positions", DataType::Positions), ("velocities", DataType::LinearVelocities)],
        &[("forces", DataType::Forces), ("torques", DataType::Torques)],
    )?;
    let provenance = Provenance::now(&case.join("precice-config.xml"), "Solid");
    solid.set_output(Some(OutputSettings {
        directory: out_dir.clone(),
        fps: Some(100.0),
        format: OutputFormat::Csv,
        provenance,
        vtk: None,
    }));
    solid.on_before_step(Box::new(|sys, t| {
        if t >= DAMPING_FROM {
            for (_, b) in sys.bodies.iter_mut() {
                let v = b.linvel();
                b.add_force(-DAMPING * v);
            }
        }
    }));

    let config = case.join("precice-config.xml");
    let fluid_file = case.join("fluid/participant.yaml");
    let fluid_config = config.clone();
    let fluid = std::thread::spawn(move || {
        tidelink_buoyancy::run_with_progress(&fluid_file, &fluid_config, Backend::Native, &mut ())
            .map(|_| ())
            .map_err(|e| format!("{e:#}"))
    });
    let mut c = coupling::open(Backend::Native, "Solid", &config).context("opening the Solid")?;
    let summary = driver::run(&mut solid, c.as_mut(), ReadDataTime::WindowEnd, &mut ()).context("the Solid stopped")?;
    fluid.join().map_err(|_| anyhow!("the Fluid thread panicked"))?.map_err(|e| anyhow!("Fluid: {e}"))?;
    let b = solid.bodies().get(handle).ok_or_else(|| anyhow!("no ball"))?;
    println!(
        "coded ball: {} windows, t = {:.3} s, z = {:.4} m, vz = {:.4} m/s (damping {DAMPING} N s/m from t = {DAMPING_FROM} s)",
        summary.windows,
        summary.time,
        b.reference_position().z,
        b.linvel().z
    );
    for p in solid.output_paths() {
        println!("output: {}", p.display());
    }
    Ok(())
}
