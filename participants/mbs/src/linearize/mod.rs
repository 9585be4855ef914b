//! `tidelink-mbs linearize`: the continuous-time state-space model `(A, B, C, D)` of a
//! participant's model around its initial state (the model file's poses and velocities), with
//! the loads on its coupling bodies as inputs and their motions as outputs; `--hydro FILE` adds
//! a BEMIO file's hydrostatic stiffness (and `A∞` if the participant has none), which closes
//! the loop a floating body needs (docs/derivatives.md).

pub mod hydro;
pub mod write;

use anyhow::{Context, Result};
use clap::Parser;
use nalgebra::{Complex, Point3};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tidelink_mbs_solver::derivatives::{linearize, Input, LinearModel, Output};
use tidelink_mbs_solver::solver::jacobian::JacobianPolicy;
use tidelink_mbs_solver::BodyHandle;

use write::Names;

/// `tidelink-mbs linearize <participant.yaml> --precice-config <xml> [-o DIR] [--hydro FILE]`.
#[derive(Debug, Parser)]
#[command(
    name = "tidelink-mbs linearize",
    about = "Writes the continuous-time state-space model (A, B, C, D) of the participant's model around its initial \
             state: inputs the forces and torques on the coupling bodies, outputs their positions, rotations and \
             velocities (CSV files and linear_model.json)."
)]
pub struct LinearizeArgs {
    /// The participant file (as for a run).
    pub participant: PathBuf,
    /// The preCICE configuration the participant file goes with (the added mass is read as for a run).
    #[arg(long, value_name = "XML")]
    pub precice_config: PathBuf,
    /// Folder for A.csv, B.csv, C.csv, D.csv and linear_model.json.
    #[arg(short, long, value_name = "DIR", default_value = "linear_model")]
    pub output: PathBuf,
    /// A BEMIO file whose hydrostatic stiffness (and A∞, if the participant has no added mass) acts on the
    /// coupling bodies, in their order; their weight is taken as balanced by buoyancy.
    #[arg(long, value_name = "FILE")]
    pub hydro: Option<PathBuf>,
}

/// What `linearize` computed, for callers and tests.
#[derive(Debug)]
pub struct Linearized {
    /// The model.
    pub model: LinearModel,
    /// Its names.
    pub names: Names,
    /// The index file written.
    pub index: PathBuf,
    /// Notes (what the hydrostatics came from, cg mismatches).
    pub notes: Vec<String>,
}

const AXES: [&str; 3] = ["x", "y", "z"];

/// The names of `channel`'s three components: `float.fx`.
fn triple(body: &str, prefix: &str) -> Vec<String> {
    AXES.iter().map(|a| format!("{body}.{prefix}{a}")).collect()
}

/// Builds the participant, linearises it and writes the files.
pub fn run(args: &LinearizeArgs) -> Result<Linearized> {
    let (adapter, _file) = crate::participant::build(&args.participant, &args.precice_config)?;
    let mut system = adapter.system().clone();
    let coupled = adapter.coupling_bodies().to_vec();
    let (extra, notes) = match &args.hydro {
        Some(path) => hydro::apply(path, &coupled, &mut system)?,
        None => (Vec::new(), Vec::new()),
    };
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    let mut names = Names::default();
    let origin = Point3::origin();
    for c in &coupled {
        let body = c.handle;
        inputs.extend([Input::Force { body, point: origin }, Input::Torque { body }]);
        names.inputs.extend(triple(&c.name, "f").into_iter().chain(triple(&c.name, "t")));
        outputs.extend([
            Output::Position { body, point: origin },
            Output::Rotation { body },
            Output::Velocity { body, point: origin },
            Output::AngularVelocity { body },
        ]);
        for p in ["", "r", "v", "w"] {
            names.outputs.extend(triple(&c.name, p));
        }
    }
    let model = linearize(&system, JacobianPolicy::Auto, &inputs, &outputs, &extra)
        .with_context(|| format!("{}: cannot linearise the model", args.participant.display()))?;
    let body_name = |h: BodyHandle| {
        coupled.iter().find(|c| c.handle == h).map(|c| c.name.clone()).unwrap_or_else(|| format!("body{}", h.index()))
    };
    let free: Vec<BodyHandle> = system.bodies.iter().filter(|(_, b)| !b.is_fixed()).map(|(h, _)| h).collect();
    let coordinate = |j: usize, velocity: bool| {
        let comp = ["x", "y", "z", "rx", "ry", "rz"][j % 6];
        let name = body_name(free[j / 6]);
        match (velocity, j % 6 < 3) {
            (false, _) => format!("{name}.{comp}"),
            (true, true) => format!("{name}.v{comp}"),
            (true, false) => format!("{name}.w{}", &comp[1..]),
        }
    };
    let ind = &model.partition.independent;
    names.states = ind.iter().map(|&j| coordinate(j, false)).chain(ind.iter().map(|&j| coordinate(j, true))).collect();
    let eig = model.eigenvalues();
    let extra_json = json!({
        "state_definition": "the independent coordinates of the bodies' centres of mass (translations in m, world \
            rotation increments in rad) that the joints leave free, then their rates; outputs at the coupling bodies' \
            reference points",
        "model": args.participant.display().to_string(),
        "hydro": args.hydro.as_ref().map(|p| p.display().to_string()),
        "unbalanced_force": model.unbalanced,
        "notes": notes,
    });
    let index = write::write_all(&args.output, [&model.a, &model.b, &model.c, &model.d], &names, &eig, extra_json)?;
    Ok(Linearized { model, names, index, notes })
}

/// Prints the eigenvalues, as natural frequencies and damping ratios, to stdout.
fn print_summary(l: &Linearized, dir: &Path) {
    println!(
        "linear model: {} states, {} inputs, {} outputs -> {}",
        l.names.states.len(),
        l.names.inputs.len(),
        l.names.outputs.len(),
        dir.display()
    );
    println!("states: {}", l.names.states.join(", "));
    let mut eig: Vec<Complex<f64>> = l.model.eigenvalues();
    eig.sort_by(|a, b| a.norm().total_cmp(&b.norm()).then(a.im.total_cmp(&b.im)));
    for e in eig {
        let wn = e.norm();
        let zeta = if wn > 0.0 { -e.re / wn } else { 0.0 };
        println!("  eigenvalue {:+.6e} {:+.6e}i  (ω = {:.6} rad/s, ζ = {:.4})", e.re, e.im, wn, zeta);
    }
    if l.model.unbalanced > 0.0 {
        println!("unbalanced generalized force at the state: {:.3e} (0 at an equilibrium)", l.model.unbalanced);
    }
    for n in &l.notes {
        println!("note: {n}");
    }
}

/// The subcommand's entry point: `args` after `linearize`.
pub fn main(args: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    let args = match LinearizeArgs::try_parse_from(std::iter::once("tidelink-mbs linearize".into()).chain(args)) {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    match run(&args) {
        Ok(l) => {
            print_summary(&l, &args.output);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tidelink-mbs linearize: {e:#}");
            ExitCode::FAILURE
        }
    }
}
