//! The floor of the rm3_reg_waves case: the same model evaluated monolithically in one thread,
//! with no coupling engine. The Solid's multibody system (built from the case's files by the MBS
//! participant's reader, A∞ in its mass matrix) is stepped by its HHT integrator, and the TDPF's
//! `HydroModel` (identified radiation, waves, hydrostatics) gives the loads, in one loop.
//!
//! Physics-identical to the converged coupled window: each window is iterated until the loads
//! are those of the window-end state, with the shipped case's convergence measure (the velocities
//! of the two bodies, absolute 1e-6 m/s or relative 1e-5). The iterations are plain fixed-point
//! ones (step with the loads of the last iterate, evaluate the loads of its end state), their first
//! guess the loads extrapolated linearly from the last two windows; the coupled case accelerates
//! the same iterations with IQN-ILS instead.

use nalgebra::Vector3;
use std::path::Path;
use std::time::Instant;
use tidelink_mbs_solver::solver::integrator::Integrator;
use tidelink_mbs_solver::system::MultibodySystem;
use tidelink_mbs_solver::BodyHandle;
use tidelink_tdpf_solver::hydro_model::{BodyLoad, BodyState, HydroModel, HydroOptions};

/// The shipped convergence measure on the velocities (precice-config.xml).
const ABS_LIMIT: f64 = 1e-6;
const REL_LIMIT: f64 = 1e-5;
/// As the case's `max-iterations`.
const MAX_ITERATIONS: usize = 30;

/// What the floor's run did.
pub struct Floor {
    /// Building both models from the files (the TDPF's radiation identification included), s.
    pub startup: f64,
    /// The stepping loop, s.
    pub wall: f64,
    /// The CPU time of the stepping loop (this thread's, from /proc; None where unreadable), s:
    /// on a loaded machine, what the loop costs without the waits for a core.
    pub cpu: Option<f64>,
    /// Time in the MBS steps (with their save and restore), s.
    pub mbs: f64,
    /// Time in the TDPF evaluations (with their save and restore), s.
    pub tdpf: f64,
    /// Windows stepped.
    pub windows: usize,
    /// MBS steps (= TDPF evaluations after t = 0) taken.
    pub iterations: usize,
    /// Heave (z of the reference points) of the float and the spar at every window end: (t, float, spar).
    pub heave: Vec<(f64, f64, f64)>,
}

/// This thread's CPU time (user and system) from Linux's /proc, s.
fn thread_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // Fields 14 and 15 of stat(5) (utime, stime), counted after the command's closing parenthesis.
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // The kernel's USER_HZ, 100 on Linux (sysconf(_SC_CLK_TCK)).
    Some(ticks / 100.0)
}

/// The CG states of the coupling bodies now (their reference points are their CGs in this case).
fn states(system: &MultibodySystem, bodies: &[BodyHandle]) -> Vec<BodyState> {
    bodies
        .iter()
        .map(|&h| {
            let b = system.bodies.get(h).expect("a coupling body");
            let p = b.reference_position();
            BodyState {
                position: p,
                rotation: b.reference_orientation().scaled_axis(),
                velocity: b.point_velocity(&p),
                angular_velocity: b.angvel(),
            }
        })
        .collect()
}

/// Puts `loads` on the coupling bodies as the Solid's adapter does (its accumulators emptied first).
fn apply(system: &mut MultibodySystem, bodies: &[BodyHandle], loads: &[(Vector3<f64>, Vector3<f64>)]) {
    for (&h, (f, m)) in bodies.iter().zip(loads) {
        let b = system.bodies.get_mut(h).expect("a coupling body");
        let at = b.reference_position();
        b.clear_accumulators();
        b.add_force_at_point(*f, &at);
        b.add_torque(*m);
    }
}

fn forces(loads: &[BodyLoad]) -> Vec<(Vector3<f64>, Vector3<f64>)> {
    loads.iter().map(|l| (l.force(), l.torque())).collect()
}

/// preCICE's absolute-or-relative measure on the stacked velocities of two iterates.
fn converged(new: &[BodyState], old: &[BodyState]) -> bool {
    let (mut diff, mut norm) = (0.0, 0.0);
    for (n, o) in new.iter().zip(old) {
        diff += (n.velocity - o.velocity).norm_squared();
        norm += n.velocity.norm_squared();
    }
    let (diff, norm) = (diff.sqrt(), norm.sqrt());
    diff <= ABS_LIMIT || diff <= REL_LIMIT * norm
}

/// Runs the case of `solid_file`, `fluid_file` and `config` (the files the coupled runs read) for
/// `duration` s at windows of `window` s.
pub fn run(solid_file: &Path, fluid_file: &Path, config: &Path, duration: f64, window: f64) -> Result<Floor, String> {
    let start = Instant::now();
    // The Solid as its participant builds it: model, equilibrium masses, A∞ from the BEMIO file.
    let (adapter, solid) = tidelink_mbs::participant::build(solid_file, config).map_err(|e| format!("Solid: {e:#}"))?;
    let mut system = adapter.system().clone();
    let bodies: Vec<BodyHandle> = adapter.coupling_bodies().iter().map(|c| c.handle).collect();
    let solver_file = solid.dir().join(solid.solver.as_ref().ok_or("the Solid has no solver file")?);
    let (settings, _) = tidelink_mbs::io::solver_yaml::load(&solver_file).map_err(|e| format!("{e}"))?;
    let mut integrator: Box<dyn Integrator> = settings.make_integrator();
    // The Fluid's model as its participant builds it (the CGs are the bodies' locations here).
    let (fluid, _) = tidelink_adapter_core::spec::load(fluid_file).map_err(|e| format!("{e}"))?;
    let model_file = fluid.dir().join(fluid.model.as_ref().ok_or("the Fluid has no model file")?);
    let model = tidelink_tdpf::model_yaml::load(&model_file).map_err(|e| format!("{e}"))?;
    let data = tidelink_bemio::read(&model.h5_file).map_err(|e| format!("{e}"))?;
    let options = HydroOptions {
        bodies: bodies.len(),
        dt: window,
        body_to_body: model.body_to_body,
        radiation: model.radiation,
        waves: model.waves.clone(),
        gravity: fluid.simulation.gravity.map(|g| Vector3::from(g).norm()),
    };
    let mut hydro = HydroModel::new(&data, &options).map_err(|e| format!("{e}"))?;
    let startup = start.elapsed().as_secs_f64();

    let start = Instant::now();
    let cpu_start = thread_cpu();
    let (mut mbs, mut tdpf) = (0.0, 0.0);
    let windows = (duration / window).round() as usize;
    let mut heave = Vec::with_capacity(windows);
    let mut iterations = 0;
    // The history's sample at t = 0, and the first guess of the first window.
    let s0 = states(&system, &bodies);
    let mut last = forces(&hydro.evaluate(0.0, &s0).map_err(|e| format!("{e}"))?);
    let mut before = last.clone();
    for k in 0..windows {
        let t = k as f64 * window;
        let clock = Instant::now();
        let (saved_bodies, saved_history) = (system.bodies.save_state(), integrator.save_history());
        mbs += clock.elapsed().as_secs_f64();
        let clock = Instant::now();
        let memory = hydro.save_state();
        tdpf += clock.elapsed().as_secs_f64();
        // The loads extrapolated from the last two windows: the first guess.
        let mut guess: Vec<_> = last.iter().zip(&before).map(|(l, b)| (2.0 * l.0 - b.0, 2.0 * l.1 - b.1)).collect();
        let mut previous = states(&system, &bodies);
        for i in 1..=MAX_ITERATIONS {
            iterations += 1;
            let clock = Instant::now();
            if i > 1 {
                system.bodies.restore_state(&saved_bodies).map_err(|e| format!("{e}"))?;
                integrator.restore_history(&saved_history);
            }
            apply(&mut system, &bodies, &guess);
            system.step_at(integrator.as_mut(), t, window).map_err(|e| format!("MBS step at {t} s: {e}"))?;
            let s = states(&system, &bodies);
            mbs += clock.elapsed().as_secs_f64();
            let clock = Instant::now();
            if i > 1 {
                hydro.restore_state(&memory).map_err(|e| format!("{e}"))?;
            }
            let loads = forces(&hydro.evaluate(t + window, &s).map_err(|e| format!("{e}"))?);
            tdpf += clock.elapsed().as_secs_f64();
            if converged(&s, &previous) || i == MAX_ITERATIONS {
                before = std::mem::replace(&mut last, loads);
                break;
            }
            guess = loads;
            previous = s;
        }
        let z = |b: usize| system.bodies.get(bodies[b]).expect("a coupling body").reference_position().z;
        heave.push((t + window, z(0), z(1)));
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = thread_cpu().zip(cpu_start).map(|(b, a)| b - a);
    Ok(Floor { startup, wall, cpu, mbs, tdpf, windows, iterations, heave })
}
