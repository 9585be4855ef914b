//! Cost of one MBS step of RM3 (`configs/rm3_reg_waves/solid`: float and spar on their
//! prismatic joints, the PTO damper, A∞ from the BEMIO file in the mass matrix, HHT), built by
//! the participant from the shipped files, and of one coupling iteration of the participant
//! (checkpoint read, loads read, step, motion written) on a coupling stand-in that only copies
//! numbers. Both at steps of 20 and 40 ms (`STEPS_S`, passed to every step: the solver file's
//! own step is not read), the window then one step.
//!
//! Prints, per variant, the median time of one step or iteration (medians of `REPS` runs of
//! `STEPS` steps, each timed alone) with the lowest and highest run median, and the heap
//! allocations per step or iteration counted by this program's global allocator. The general HHT path
//! (`Hht::dense_in_place = false`) is measured in the same run as the baseline, and so is the
//! dense step that factors its Newton matrix once per step (`keep_factors_across_steps = false`,
//! the default before the factors were kept across steps). Loads: a restoring heave force and a wave-like force per body, evaluated at
//! the step's start (an explicit stand-in for the fluid), so the motion stays that of a WEC.
//!
//! `cargo bench -p tidelink-mbs --bench rm3_step [-- STEPS REPS [profile [MS]]]` (defaults 2000, 7;
//! `profile [MS]`: the shipped step alone at MS ms (20), for `perf record`; needs
//! ../shared/data/rm3/rm3.h5). Without the shared folder it says so and measures nothing.

use nalgebra::Vector3;
use std::alloc::{GlobalAlloc, Layout, System as SystemAlloc};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tidelink_adapter_core::coupling::{CouplingData, Result as CouplingResult, VertexId};
use tidelink_adapter_core::testing;
use tidelink_adapter_core::Adapter;
use tidelink_mbs::io::solver_yaml;
use tidelink_mbs_solver::dynamics::body_set::{BodyHandle, BodySet};
use tidelink_mbs_solver::solver::hht::Hht;
use tidelink_mbs_solver::system::MultibodySystem;

/// Counts every allocation (and reallocation) of this program.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on.
        unsafe { SystemAlloc.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { SystemAlloc.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { SystemAlloc.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { SystemAlloc.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// The step sizes measured (s): the shipped case's 20 ms window and the 40 ms one.
const STEPS_S: [f64; 2] = [0.02, 0.04];
/// Steps before timing (10 s at 20 ms: the start transient of the loads below has passed).
const WARM_UP: usize = 500;

/// The explicit stand-in for the fluid: per body `m g` (buoyancy at rest), a restoring
/// `−k (z − z₀)` with `k = m ω₀²` (a 5 s heave period), and `F sin(ω t)` (8 s waves, 5 % of
/// the weight), on the body's vertical; the float's also off the axis (a pitch moment).
struct Loads {
    bodies: Vec<(BodyHandle, f64, f64)>,
}

impl Loads {
    fn new(bodies: &BodySet, handles: &[BodyHandle]) -> Self {
        let list = handles.iter().map(|&h| (h, bodies.get(h).unwrap().mass(), bodies.get(h).unwrap().com_position().z));
        Loads { bodies: list.collect() }
    }
    /// The forces and torques at `t` for the state of `bodies`, in coupling order.
    fn at(&self, bodies: &BodySet, t: f64, out: &mut [[f64; 6]]) {
        let w0 = 2.0 * std::f64::consts::PI / 5.0;
        let w = 2.0 * std::f64::consts::PI / 8.0;
        for (i, &(h, m, z0)) in self.bodies.iter().enumerate() {
            let z = bodies.get(h).unwrap().com_position().z;
            let fz = m * 9.81 - m * w0 * w0 * (z - z0) + 0.05 * m * 9.81 * (w * t + i as f64).sin();
            let my = if i == 0 { 1e4 * (w * t).cos() } else { 0.0 };
            out[i] = [0.0, 0.0, fz, 0.0, my, 0.0];
        }
    }
    fn apply(&self, bodies: &mut BodySet, t: f64) {
        let mut f = [[0.0; 6]; 8];
        self.at(bodies, t, &mut f);
        for (i, &(h, _, _)) in self.bodies.iter().enumerate() {
            let b = bodies.get_mut(h).unwrap();
            b.clear_accumulators();
            b.add_force(Vector3::new(f[i][0], f[i][1], f[i][2]));
            b.add_torque(Vector3::new(f[i][3], f[i][4], f[i][5]));
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One run's figures: the median step in µs and the allocations per step.
#[derive(Clone)]
struct Run {
    median_us: f64,
    allocations: f64,
}

/// `steps` steps of the solver alone from a warmed-up copy of `system`.
fn run_solver(system: &MultibodySystem, loads: &Loads, make: &dyn Fn() -> Hht, steps: usize, dt: f64) -> Run {
    let mut sys = system.clone();
    let mut hht = make();
    let mut t = 0.0;
    for _ in 0..WARM_UP {
        loads.apply(&mut sys.bodies, t);
        sys.step_at(&mut hht, t, dt).expect("an RM3 step");
        t += dt;
    }
    let mut times = Vec::with_capacity(steps);
    let mut allocs = 0;
    for _ in 0..steps {
        loads.apply(&mut sys.bodies, t);
        let a0 = allocations();
        let t0 = Instant::now();
        sys.step_at(&mut hht, t, dt).expect("an RM3 step");
        times.push(t0.elapsed().as_secs_f64());
        allocs += allocations() - a0;
        t += dt;
    }
    Run { median_us: 1e6 * median(times), allocations: allocs as f64 / steps as f64 }
}

/// A coupling stand-in for one participant's data: loads served from arrays, motion written
/// into arrays; it allocates nothing after registration.
struct Numbers {
    loads: Vec<[f64; 6]>,
    written: Vec<f64>,
}

impl CouplingData for Numbers {
    fn participant_name(&self) -> &str {
        "Solid"
    }
    fn get_mesh_dimensions(&self, _: &str) -> CouplingResult<usize> {
        Ok(3)
    }
    fn get_data_dimensions(&self, _: &str, _: &str) -> CouplingResult<usize> {
        Ok(3)
    }
    fn set_mesh_vertices(&mut self, _: &str, _: &[f64], ids: &mut [VertexId]) -> CouplingResult<()> {
        for (i, id) in ids.iter_mut().enumerate() {
            *id = i as VertexId;
        }
        Ok(())
    }
    fn get_mesh_vertex_size(&self, _: &str) -> CouplingResult<usize> {
        Ok(self.loads.len())
    }
    fn requires_mesh_connectivity_for(&self, _: &str) -> CouplingResult<bool> {
        Ok(false)
    }
    fn set_mesh_edges(&mut self, _: &str, _: &[VertexId]) -> CouplingResult<()> {
        Ok(())
    }
    fn set_mesh_triangles(&mut self, _: &str, _: &[VertexId]) -> CouplingResult<()> {
        Ok(())
    }
    fn set_mesh_tetrahedra(&mut self, _: &str, _: &[VertexId]) -> CouplingResult<()> {
        Ok(())
    }
    fn requires_gradient_data_for(&self, _: &str, _: &str) -> CouplingResult<bool> {
        Ok(false)
    }
    fn write_gradient_data(&mut self, _: &str, _: &str, _: &[VertexId], _: &[f64]) -> CouplingResult<()> {
        Ok(())
    }
    fn read_data(&mut self, _: &str, data: &str, ids: &[VertexId], _: f64, values: &mut [f64]) -> CouplingResult<()> {
        let at = match data {
            "forces" => 0,
            "torques" => 3,
            _ => {
                values.fill(0.0);
                return Ok(());
            }
        };
        for (k, &id) in ids.iter().enumerate() {
            values[3 * k..3 * k + 3].copy_from_slice(&self.loads[id as usize][at..at + 3]);
        }
        Ok(())
    }
    fn write_data(&mut self, _: &str, _: &str, _: &[VertexId], values: &[f64]) -> CouplingResult<()> {
        self.written.clear();
        self.written.extend_from_slice(values);
        Ok(())
    }
}

/// `windows` windows of the participant as the driver runs an implicit window of two
/// iterations (checkpoint written; loads read, step, motion written; checkpoint read, loads
/// read, step, motion written), each iteration timed.
fn run_participant(participant: &Path, xml: &Path, windows: usize, variant: Variant, dt: f64) -> Run {
    let (mut adapter, _) = tidelink_mbs::participant::build(participant, xml).expect("the RM3 Solid");
    adapter.set_output(None);
    let handles: Vec<BodyHandle> = adapter.coupling_bodies().iter().map(|c| c.handle).collect();
    let loads = Loads::new(adapter.bodies(), &handles);
    let mut coupling = Numbers { loads: vec![[0.0; 6]; handles.len()], written: Vec::with_capacity(64) };
    adapter.initialize_participant(&mut coupling).expect("the meshes");
    if variant != Variant::Shipped {
        adapter.set_integrator(Box::new(variant.hht(participant)));
    }
    let mut times = Vec::with_capacity(2 * windows);
    let mut allocs = 0;
    let mut t = 0.0;
    for w in 0..WARM_UP / 2 + windows {
        let timed = w >= WARM_UP / 2;
        loads.at(adapter.bodies(), t, &mut coupling.loads);
        adapter.write_checkpoint().expect("a checkpoint");
        for iteration in 0..2 {
            let a0 = allocations();
            let t0 = Instant::now();
            if iteration > 0 {
                adapter.read_checkpoint().expect("the checkpoint");
            }
            adapter.read_data(&mut coupling, t, dt).expect("the loads");
            adapter.advance(t, dt).expect("an RM3 step");
            adapter.write_data(&mut coupling).expect("the motion");
            if timed {
                times.push(t0.elapsed().as_secs_f64());
                allocs += allocations() - a0;
            }
        }
        t += dt;
    }
    Run { median_us: 1e6 * median(times), allocations: allocs as f64 / (2 * windows) as f64 }
}

/// What is measured: the shipped HHT and the two baselines.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Variant {
    /// The general path (`dense_in_place = false`).
    General,
    /// The dense step factoring once per step (`keep_factors_across_steps = false`).
    PerStep,
    /// As the solver file builds it.
    Shipped,
}

impl Variant {
    fn hht(self, participant: &Path) -> Hht {
        let mut h = shipped_hht(participant);
        h.dense_in_place = self != Variant::General;
        h.keep_factors_across_steps = self == Variant::Shipped;
        h
    }
    fn label(self) -> &'static str {
        match self {
            Variant::General => "general path (baseline)",
            Variant::PerStep => "dense, factors made per step",
            Variant::Shipped => "dense, factors kept (shipped)",
        }
    }
}

/// HHT as the participant builds it from the shipped solver file (`make_integrator`).
fn shipped_hht(participant: &Path) -> Hht {
    let (s, _) = solver_yaml::load(&participant.with_file_name("solver.yaml")).expect("the solver file");
    let mut h = Hht::new(s.alpha).expect("α in range");
    h.max_iterations = s.max_iterations.max(1);
    h.abs_tolerance = s.abs_tolerance;
    h.jacobian = s.jacobian;
    h.linear_solver = s.linear_solver;
    h
}

fn summary(label: &str, unit: &str, runs: Vec<Run>, baseline: Option<f64>) -> f64 {
    let allocations = runs.iter().map(|r| r.allocations).fold(0.0, f64::max);
    let meds: Vec<f64> = runs.iter().map(|r| r.median_us).collect();
    let (lo, hi) = (meds.iter().copied().fold(f64::INFINITY, f64::min), meds.iter().copied().fold(0.0, f64::max));
    let m = median(meds);
    let ratio = baseline.map_or(String::new(), |b| format!("  ({:.2}× the baseline's time)", m / b));
    println!(
        "{label:<46} {m:7.2} µs per {unit} (runs {lo:.2}–{hi:.2})  {allocations:6.1} allocations per {unit}{ratio}"
    );
    m
}

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    // `profile`: the shipped step alone, for a profiler (`perf record`).
    let profile = all.iter().any(|a| a == "profile");
    let args: Vec<usize> = all.iter().filter_map(|a| a.parse().ok()).collect();
    let steps = args.first().copied().unwrap_or(2000);
    let reps = args.get(1).copied().unwrap_or(7).max(1);
    if let Err(why) = testing::find_shared("data/rm3/rm3.h5") {
        if cfg!(tidelink_shared) {
            panic!("{why}");
        }
        println!("rm3_step benchmark NOT RUN, nothing measured: {why}");
        return;
    }
    let case: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/rm3_reg_waves");
    let (participant, xml) = (case.join("solid/participant.yaml"), case.join("precice-config.xml"));
    let (adapter, _) = tidelink_mbs::participant::build(&participant, &xml).expect("the RM3 Solid");
    let system = adapter.system().clone();
    let handles: Vec<BodyHandle> = adapter.coupling_bodies().iter().map(|c| c.handle).collect();
    let loads = Loads::new(&system.bodies, &handles);
    println!("RM3 Solid (configs/rm3_reg_waves/solid), HHT: {steps} timed steps after {WARM_UP}, {reps} runs");
    if profile {
        let dt = args.get(2).map_or(STEPS_S[0], |&ms| ms as f64 / 1000.0);
        let shipped = || Variant::Shipped.hht(&participant);
        let run = run_solver(&system, &loads, &shipped, steps, dt);
        println!("step of {dt} s, dense in kept buffers: {:.2} µs median", run.median_us);
        let mut sys = system.clone();
        let mut hht = shipped();
        for k in 0..steps {
            loads.apply(&mut sys.bodies, k as f64 * dt);
            sys.step_at(&mut hht, k as f64 * dt, dt).expect("an RM3 step");
        }
        let (made, kept) = hht.newton_factorisations();
        println!("Newton matrix: {made} factorisations, {kept} kept, over {steps} steps");
        return;
    }
    let variants = [Variant::General, Variant::PerStep, Variant::Shipped];
    for dt in STEPS_S {
        let (mut solver, mut participant_runs) = (vec![vec![]; 3], vec![vec![]; 3]);
        for _ in 0..reps {
            for (k, v) in variants.iter().enumerate() {
                solver[k].push(run_solver(&system, &loads, &|| v.hht(&participant), steps, dt));
                participant_runs[k].push(run_participant(&participant, &xml, steps / 2, *v, dt));
            }
        }
        println!("-- steps of {dt} s");
        let mut base = None;
        for (v, runs) in variants.iter().zip(solver) {
            let m = summary(&format!("step, {}", v.label()), "step", runs, base);
            base = base.or(Some(m));
        }
        let mut base = None;
        for (v, runs) in variants.iter().zip(participant_runs) {
            let m = summary(&format!("participant, {}", v.label()), "iteration", runs, base);
            base = base.or(Some(m));
        }
    }
}
