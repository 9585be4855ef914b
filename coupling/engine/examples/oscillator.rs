//! Two coupled oscillators, one mass per participant, on the coupling API (native engine by
//! default).
//!
//! Two masses on a line between two walls, joined by three springs: k1 (wall–m1), k12
//! (m1–m2) and k2 (m2–wall). The system is cut at the middle spring. `Mass-Left` integrates
//! m1 and writes its displacement `Displacement-Left`; `Mass-Right` integrates m2 and writes
//! `Displacement-Right`. Each mass feels the coupling spring as the force k12·(x_other − x_self):
//! the part −k12·x_self is in its own stiffness, the part k12·x_other(t) is read from the
//! partner's waveform inside the time integrator, at the times the integrator needs
//! (`read_data` with a relative read time inside the sub-step):
//!
//! - generalized-α (Chung & Hulbert 1993, second order; ρ∞ = 2/3 by default, i.e. αm = 0.2,
//!   αf = 0.4): the force at t + (1 − αf)·dt;
//! - classical Runge–Kutta 4 (fourth order): the force at t, t + dt/2 and t + dt.
//!
//! The solver sub-cycles (4 steps per window by default) and keeps its state (displacement,
//! velocity, acceleration) in a checkpoint that it restores when the implicit window is
//! repeated. The exact solution is the sum of the two normal modes
//! ([`Exact`]); at the end the program prints its largest deviation from it at the window ends.
//!
//! From `configs/oscillators/` (two terminals, or `&` for the first):
//!
//! ```sh
//! cargo run -p tidelink-coupling --example oscillator -- Mass-Left precice-config.xml
//! cargo run -p tidelink-coupling --example oscillator -- Mass-Right precice-config.xml
//! ```
//!
//! Options (after the two arguments): `--integrator generalized-alpha|runge-kutta-4`,
//! `--substeps N` (steps per window, default 4), `--output FILE` (a CSV of every accepted
//! window end: time, displacement, velocity, exact displacement), `--backend native|precice`.
//! Both participants must use the same integrator for the figures of docs/oscillators.md.
//!
//! `coupling/engine/tests/oscillators.rs` and `coupling/engine/benches/oscillators.rs` run this file's
//! [`simulate`] for both masses in threads.

#![allow(dead_code)] // the tests and the bench include this file and use parts of it

use std::f64::consts::PI;
use std::path::PathBuf;
use tidelink_coupling::{self as coupling, Backend, Coupling, CouplingError};

/// The participants, left first.
pub const PARTICIPANTS: [&str; 2] = ["Mass-Left", "Mass-Right"];
/// The datum each participant writes (same order).
pub const DATA: [&str; 2] = ["Displacement-Left", "Displacement-Right"];

/// The mesh a participant provides and reads and writes on.
pub fn mesh_of(participant: &str) -> String {
    format!("{participant}-Mesh")
}

/// Which mass `participant` is: 0 for `Mass-Left`, 1 for `Mass-Right`.
pub fn side(participant: &str) -> Result<usize, String> {
    PARTICIPANTS
        .iter()
        .position(|p| *p == participant)
        .ok_or_else(|| format!("unknown participant \"{participant}\"; use Mass-Left or Mass-Right"))
}

/// Masses, springs and initial state of the two-mass system (SI units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// m1, m2.
    pub m: [f64; 2],
    /// The wall springs k1 (left) and k2 (right).
    pub k_wall: [f64; 2],
    /// The coupling spring between the masses; must be positive.
    pub k12: f64,
    /// Initial displacements.
    pub x0: [f64; 2],
    /// Initial velocities.
    pub v0: [f64; 2],
}

impl Params {
    /// m1 = m2 = 1, k1 = k2 = 4π², k12 = 16π², x(0) = (1, 0), v(0) = 0: eigenfrequencies 1 Hz
    /// (in phase) and 3 Hz (opposite phase), as in preCICE's `oscillator` tutorial.
    pub fn tutorial() -> Params {
        let k = 4.0 * PI * PI;
        Params { m: [1.0, 1.0], k_wall: [k, k], k12: 4.0 * k, x0: [1.0, 0.0], v0: [0.0, 0.0] }
    }
}

/// The exact motion: x(t) = Σᵢ φᵢ (Aᵢ cos ωᵢt + Bᵢ/ωᵢ sin ωᵢt) over the two normal modes.
#[derive(Debug, Clone, Copy)]
pub struct Exact {
    /// ω₁ < ω₂ (rad/s).
    pub omega: [f64; 2],
    /// The mode shapes φᵢ = (x1, x2).
    pub shape: [[f64; 2]; 2],
    amp_cos: [f64; 2],
    amp_sin: [f64; 2],
}

impl Exact {
    /// Solves det(K − ω²M) = 0 in closed form: with a = (k1 + k12)/m1, b = (k2 + k12)/m2 and
    /// c = k12²/(m1 m2), ω² = (a + b)/2 ∓ √(((a − b)/2)² + c); the shape of mode ω² is
    /// (k12, k1 + k12 − ω² m1). The amplitudes follow from x(0) and v(0).
    pub fn new(p: &Params) -> Exact {
        assert!(p.k12 > 0.0, "the masses must be coupled (k12 > 0)");
        let a = (p.k_wall[0] + p.k12) / p.m[0];
        let b = (p.k_wall[1] + p.k12) / p.m[1];
        let c = p.k12 * p.k12 / (p.m[0] * p.m[1]);
        let (mid, rad) = (0.5 * (a + b), (0.25 * (a - b).powi(2) + c).sqrt());
        let lambda = [mid - rad, mid + rad];
        let shape = lambda.map(|l| [p.k12, p.k_wall[0] + p.k12 - l * p.m[0]]);
        // Coordinates of r in the basis of the two shapes (Cramer's rule).
        let det = shape[0][0] * shape[1][1] - shape[1][0] * shape[0][1];
        let coords = |r: [f64; 2]| {
            [(r[0] * shape[1][1] - shape[1][0] * r[1]) / det, (shape[0][0] * r[1] - shape[0][1] * r[0]) / det]
        };
        Exact { omega: lambda.map(f64::sqrt), shape, amp_cos: coords(p.x0), amp_sin: coords(p.v0) }
    }

    /// Displacements (x1, x2) at time `t`.
    pub fn displacement(&self, t: f64) -> [f64; 2] {
        let mut x = [0.0; 2];
        for i in 0..2 {
            let w = self.omega[i];
            let q = self.amp_cos[i] * (w * t).cos() + self.amp_sin[i] / w * (w * t).sin();
            x[0] += q * self.shape[i][0];
            x[1] += q * self.shape[i][1];
        }
        x
    }
}

/// The time integrator of each mass.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Integrator {
    /// Generalized-α with spectral radius `rho_inf` at infinite frequency (0 ≤ ρ∞ ≤ 1).
    GeneralizedAlpha {
        /// ρ∞; 1 is the trapezoidal rule evaluated at the step's midpoint (no dissipation).
        rho_inf: f64,
    },
    /// The classical fourth-order Runge–Kutta method.
    RungeKutta4,
}

impl Integrator {
    /// Generalized-α with ρ∞ = 2/3 (αm = 0.2, αf = 0.4).
    pub const GENERALIZED_ALPHA: Integrator = Integrator::GeneralizedAlpha { rho_inf: 2.0 / 3.0 };

    /// Parses `generalized-alpha` or `runge-kutta-4`.
    pub fn parse(s: &str) -> Result<Integrator, String> {
        match s {
            "generalized-alpha" => Ok(Integrator::GENERALIZED_ALPHA),
            "runge-kutta-4" => Ok(Integrator::RungeKutta4),
            other => Err(format!("unknown integrator \"{other}\"; use generalized-alpha or runge-kutta-4")),
        }
    }

    /// Order of accuracy of the integrator on its own.
    pub fn order(&self) -> u32 {
        match self {
            Integrator::GeneralizedAlpha { .. } => 2,
            Integrator::RungeKutta4 => 4,
        }
    }
}

/// What a participant does besides the physics.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The time integrator.
    pub integrator: Integrator,
    /// Steps per window.
    pub substeps: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { integrator: Integrator::GENERALIZED_ALPHA, substeps: 4 }
    }
}

/// The state of one mass: displacement, velocity, acceleration (the last only for generalized-α).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct State {
    /// Displacement.
    pub u: f64,
    /// Velocity.
    pub v: f64,
    /// Acceleration.
    pub a: f64,
}

/// One mass: m ü + k u = k12·x_other(t), with k = k_wall + k12.
#[derive(Debug, Clone, Copy)]
pub struct Mass {
    m: f64,
    k: f64,
    k12: f64,
}

impl Mass {
    /// Mass `side` (0 left, 1 right) of `p`.
    pub fn new(p: &Params, side: usize) -> Mass {
        Mass { m: p.m[side], k: p.k_wall[side] + p.k12, k12: p.k12 }
    }

    /// ü for displacement `u` and the partner at `other`.
    pub fn acceleration(&self, u: f64, other: f64) -> f64 {
        (self.k12 * other - self.k * u) / self.m
    }

    /// One step of size `dt` from `s`; `other(rel)` is the partner's displacement at
    /// `rel` ∈ [0, dt] after the step's start.
    pub fn step<E>(
        &self,
        integrator: Integrator,
        s: State,
        dt: f64,
        mut other: impl FnMut(f64) -> Result<f64, E>,
    ) -> Result<State, E> {
        match integrator {
            Integrator::GeneralizedAlpha { rho_inf } => {
                let am = (2.0 * rho_inf - 1.0) / (rho_inf + 1.0);
                let af = rho_inf / (rho_inf + 1.0);
                let gamma = 0.5 - am + af;
                let beta = 0.25 * (1.0 - am + af).powi(2);
                // m·((1−αm) a₊ + αm a) + k·((1−αf) u₊ + αf u) = k12·x_other(t + (1−αf) dt),
                // u₊ = u_pred + β dt² a₊ (Newmark), solved for a₊.
                let force = self.k12 * other((1.0 - af) * dt)?;
                let u_pred = s.u + dt * s.v + dt * dt * (0.5 - beta) * s.a;
                let a = (force - self.m * am * s.a - self.k * af * s.u - self.k * (1.0 - af) * u_pred)
                    / (self.m * (1.0 - am) + self.k * (1.0 - af) * beta * dt * dt);
                Ok(State { u: u_pred + beta * dt * dt * a, v: s.v + dt * ((1.0 - gamma) * s.a + gamma * a), a })
            }
            Integrator::RungeKutta4 => {
                let (x0, xh, x1) = (other(0.0)?, other(0.5 * dt)?, other(dt)?);
                let f = |u: f64, v: f64, x: f64| (v, self.acceleration(u, x));
                let k1 = f(s.u, s.v, x0);
                let k2 = f(s.u + 0.5 * dt * k1.0, s.v + 0.5 * dt * k1.1, xh);
                let k3 = f(s.u + 0.5 * dt * k2.0, s.v + 0.5 * dt * k2.1, xh);
                let k4 = f(s.u + dt * k3.0, s.v + dt * k3.1, x1);
                let u = s.u + dt / 6.0 * (k1.0 + 2.0 * k2.0 + 2.0 * k3.0 + k4.0);
                let v = s.v + dt / 6.0 * (k1.1 + 2.0 * k2.1 + 2.0 * k3.1 + k4.1);
                Ok(State { u, v, a: self.acceleration(u, x1) })
            }
        }
    }
}

/// What one participant's run produced.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// (time, state) at t = 0 and at every accepted window end.
    pub trajectory: Vec<(f64, State)>,
    /// Iterations of every accepted window.
    pub iterations: Vec<u32>,
}

impl Outcome {
    /// The largest |x − x_exact| of this participant's mass over the window ends.
    pub fn max_error(&self, exact: &Exact, side: usize) -> f64 {
        self.trajectory.iter().map(|(t, s)| (s.u - exact.displacement(*t)[side]).abs()).fold(0.0, f64::max)
    }

    /// Mean iterations per window.
    pub fn mean_iterations(&self) -> f64 {
        self.iterations.iter().map(|&i| f64::from(i)).sum::<f64>() / self.iterations.len().max(1) as f64
    }
}

/// Runs one mass through the whole coupling on `c` (opened, with its one vertex set, not yet
/// initialized): writes the initial displacement, initializes, sub-cycles every window with
/// checkpoints, finalizes.
pub fn simulate(c: &mut dyn Coupling, p: &Params, opt: &Options) -> Result<Outcome, CouplingError> {
    let name = c.participant_name().to_string();
    let me = side(&name).map_err(CouplingError::config)?;
    let (mesh, write, read) = (mesh_of(&name), DATA[me], DATA[1 - me]);
    let ids = [0];
    let mass = Mass::new(p, me);
    let mut s = State { u: p.x0[me], v: p.v0[me], a: 0.0 };
    if c.requires_initial_data()? {
        c.write_data(&mesh, write, &ids, &[s.u])?;
    }
    c.initialize()?;
    let other = |c: &mut dyn Coupling, rel: f64| -> Result<f64, CouplingError> {
        let mut x = [0.0];
        c.read_data(&mesh, read, &ids, rel, &mut x)?;
        Ok(x[0])
    };
    s.a = mass.acceleration(s.u, other(c, 0.0)?);
    let mut out = Outcome { trajectory: vec![(0.0, s)], iterations: Vec::new() };
    // The window start moves by the whole window, as the engine's clock does.
    let (mut start, mut window, mut step, mut iteration) = (0.0, 0.0, 0usize, 1u32);
    let mut saved = s;
    while c.is_coupling_ongoing()? {
        if c.requires_writing_checkpoint()? {
            saved = s;
        }
        let left = c.get_max_time_step_size()?;
        if step == 0 {
            window = left;
        }
        // The steps left in this window share what is left of it equally.
        let dt = left / opt.substeps.saturating_sub(step).max(1) as f64;
        s = mass.step(opt.integrator, s, dt, |rel| other(c, rel))?;
        c.write_data(&mesh, write, &ids, &[s.u])?;
        c.advance(dt)?;
        step += 1;
        if c.requires_reading_checkpoint()? {
            s = saved;
            step = 0;
            iteration += 1;
        } else if c.is_time_window_complete()? {
            start += window;
            out.trajectory.push((start, s));
            out.iterations.push(iteration);
            (step, iteration) = (0, 1);
        }
    }
    c.finalize()?;
    Ok(out)
}

/// configs/oscillators/precice-config.xml as shipped.
pub const SHIPPED_CONFIG: &str = include_str!("../../../configs/oscillators/precice-config.xml");

/// The shipped configuration with window `window`, waveform degree `degree` on both data, end
/// time `max_time`, exchange directory `exchange_dir`, and `acceleration` (a whole
/// `<acceleration:…>` tag, or "") added to the coupling scheme.
pub fn config_variant(window: f64, degree: u32, max_time: f64, exchange_dir: &str, acceleration: &str) -> String {
    let edits = [
        (r#"<time-window-size value="0.01"/>"#, format!(r#"<time-window-size value="{window}"/>"#)),
        (r#"<max-time value="1"/>"#, format!(r#"<max-time value="{max_time}"/>"#)),
        (r#"exchange-directory=".""#, format!(r#"exchange-directory="{exchange_dir}""#)),
        (r#"waveform-degree="3""#, format!(r#"waveform-degree="{degree}""#)),
        ("</coupling-scheme:serial-implicit>", format!("{acceleration}</coupling-scheme:serial-implicit>")),
    ];
    let mut xml = SHIPPED_CONFIG.to_string();
    for (from, to) in edits {
        assert!(xml.contains(from), "configs/oscillators/precice-config.xml no longer contains {from}");
        xml = xml.replace(from, &to);
    }
    xml
}

/// The accelerations docs/oscillators.md and docs/performance.md compare, as (name, the tag
/// [`config_variant`] inserts): none, constant 0.5, and Aitken, IQN-ILS and IQN-ILS on the full
/// time grid, all on the right mass's displacement as the left mass reads it.
pub fn acceleration_variants() -> Vec<(&'static str, String)> {
    let data = format!(r#"<data name="{}" mesh="{}"/>"#, DATA[1], mesh_of(PARTICIPANTS[0]));
    vec![
        ("none", String::new()),
        ("constant 0.5", r#"<acceleration:constant><relaxation value="0.5"/></acceleration:constant>"#.to_string()),
        ("Aitken", format!("<acceleration:aitken>{data}</acceleration:aitken>")),
        ("IQN-ILS", format!("<acceleration:IQN-ILS>{data}</acceleration:IQN-ILS>")),
        (
            "IQN-ILS, full time grid",
            format!(r#"<acceleration:IQN-ILS reduced-time-grid="false">{data}</acceleration:IQN-ILS>"#),
        ),
    ]
}

/// Opens `participant` of `config` on `backend` with its one vertex at the origin of its mesh
/// (the native engine's settings from the environment, as a participant program's).
pub fn open(backend: Backend, participant: &str, config: &std::path::Path) -> Result<Box<dyn Coupling>, CouplingError> {
    let settings = coupling::native::Settings::from_env()?;
    let mut c = coupling::open_with(backend, participant, config, settings)?;
    let mesh = mesh_of(participant);
    let dim = c.get_mesh_dimensions(&mesh)?;
    c.set_mesh_vertices(&mesh, &vec![0.0; dim], &mut [0])?;
    Ok(c)
}

struct Args {
    participant: String,
    config: PathBuf,
    backend: Backend,
    options: Options,
    output: Option<PathBuf>,
}

const USAGE: &str = "usage: oscillator <Mass-Left|Mass-Right> <precice-config.xml> \
                     [--integrator generalized-alpha|runge-kutta-4] [--substeps N] [--output FILE] \
                     [--backend native|precice]";

fn parse_args(args: &[String]) -> Result<Args, String> {
    let [participant, config, rest @ ..] = args else {
        return Err(USAGE.into());
    };
    side(participant)?;
    let mut a = Args {
        participant: participant.clone(),
        config: PathBuf::from(config),
        backend: Backend::Native,
        options: Options::default(),
        output: None,
    };
    let mut it = rest.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        match flag.as_str() {
            "--integrator" => a.options.integrator = Integrator::parse(value)?,
            "--substeps" => {
                a.options.substeps =
                    value.parse().ok().filter(|&n| n > 0).ok_or("--substeps takes a positive integer")?
            }
            "--output" => a.output = Some(PathBuf::from(value)),
            "--backend" => a.backend = value.parse().map_err(|e: CouplingError| e.message)?,
            other => return Err(format!("unknown option {other}\n{USAGE}")),
        }
    }
    Ok(a)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a = parse_args(&args).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let params = Params::tutorial();
    let exact = Exact::new(&params);
    let me = side(&a.participant).expect("checked");
    let run = || -> Result<Outcome, CouplingError> {
        let mut c = open(a.backend, &a.participant, &a.config)?;
        simulate(c.as_mut(), &params, &a.options)
    };
    let out = run().unwrap_or_else(|e| {
        eprintln!("{}: {e}", a.participant);
        std::process::exit(1)
    });
    if let Some(path) = &a.output {
        let mut csv = String::from("time,displacement,velocity,exact\n");
        for (t, s) in &out.trajectory {
            csv += &format!("{t},{},{},{}\n", s.u, s.v, exact.displacement(*t)[me]);
        }
        std::fs::write(path, csv).unwrap_or_else(|e| {
            eprintln!("{}: {e}", path.display());
            std::process::exit(1)
        });
    }
    let (t_end, last) = out.trajectory.last().copied().unwrap_or_default();
    println!(
        "{}: {} windows, {:.2} iterations per window, x({t_end:.6}) = {:.6} (exact {:.6}), largest error at window \
         ends {:.3e}",
        a.participant,
        out.iterations.len(),
        out.mean_iterations(),
        last.u,
        exact.displacement(t_end)[me],
        out.max_error(&exact, me)
    );
}
