//! Cost of the rm3_reg_waves case (400 s of RM3 in regular waves), in one run:
//!
//! * **process**: the shipped case as a user runs it, `tidelink run` with the release binaries
//!   (two participant processes, CSV output as shipped), wall time from launch to exit and the
//!   start-up part of it (launch to the participants' "coupling initialized" lines, split into the
//!   launcher's check of the case and the participants' own build);
//! * **threads**: the same coupling with Solid and Fluid in two threads of this process through
//!   the native engine, output off (the bench's earlier rows), split into MBS, TDPF and coupling;
//! * **floor**: the same model evaluated monolithically in one thread, no coupling engine
//!   (benches/rm3/floor.rs), with its float and spar heave compared with the process run's;
//! * ratios between them and against the figures of docs/performance.md before this bench.
//!
//! `cargo bench -p tidelink --bench rm3` runs the three rows (the process row needs
//! `cargo build --release -p tidelink-tdpf -p tidelink-mbs` first, and says so when they are
//! missing); naming rows picks them (`-- floor threads`), `-- studies` adds the earlier
//! comparisons (explicit 5 ms baseline, two measures, convolution, the file's state space) and
//! `-- windows` the shipped coupling and the floor at 20 ms (the window shipped before) and 50 ms.
//! Needs ../shared/data/rm3/rm3.h5: without the shared folder it measures nothing, says so,
//! naming the missing file, and exits 0, or exits non-zero under TIDELINK_REQUIRE_SHARED=1
//! (docs/testing.md).

#[path = "rm3/floor.rs"]
mod floor;
#[path = "rm3/process.rs"]
mod process;

use std::path::{Path, PathBuf};
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::driver::RunSummary;
use tidelink_adapter_core::testing;

#[path = "../tests/support/rm3_case.rs"]
mod rm3_case;
use rm3_case::{edit, Coupling, EXPLICIT, FLUID_MODEL, IMPLICIT, SHIPPED_RADIATION, SHIPPED_WINDOW, SOLID_MODEL};

const DURATION: f64 = 400.0;

/// One run at `window`: the Solid's and the Fluid's summaries.
fn run(data: &Path, c: &Coupling, radiation: &str, window: f64) -> (RunSummary, RunSummary) {
    let (case, solid_file, fluid_file) = rm3_case::write(data, c, SOLID_MODEL, false, DURATION, window, "NONE");
    let model = edit(FLUID_MODEL, SHIPPED_RADIATION, radiation);
    let model = rm3_case::absolute(&model, data);
    case.write("fluid/tdpf_model.yaml", &model);
    let (x1, x2) = (case.config.clone(), case.config.clone());
    // The participants write their iteration logs and rendezvous files (exchange-directory ".")
    // in the working directory: a temporary one, so a bench leaves nothing in the repository.
    let scratch = tempfile::tempdir().expect("a temporary folder");
    let back = std::env::current_dir().expect("the working directory");
    std::env::set_current_dir(scratch.path()).expect("entering the temporary folder");
    let fluid = std::thread::spawn(move || {
        tidelink_tdpf::participant::run_with_progress(&fluid_file, &x1, Backend::Native, &mut ())
            .map_err(|e| format!("Fluid: {e:#}"))
    });
    let solid = tidelink_mbs::run_with_progress(&solid_file, &x2, Backend::Native, &mut ())
        .map_err(|e| format!("Solid: {e:#}"))
        .unwrap_or_else(|e| panic!("{e}"));
    let fluid = fluid.join().expect("the Fluid thread").unwrap_or_else(|e| panic!("{e}"));
    std::env::set_current_dir(back).expect("back to the working directory");
    (solid.summary, fluid)
}

fn report(label: &str, (solid, fluid): &(RunSummary, RunSummary), baseline: f64) -> f64 {
    assert!((solid.time - DURATION).abs() < 1e-6, "the run ended at {}", solid.time);
    let wall = solid.wall_seconds.max(fluid.wall_seconds);
    let (mbs, tdpf) = (solid.solver_seconds, fluid.solver_seconds);
    let coupling = (wall - mbs - tdpf).max(0.0);
    let baseline = if baseline > 0.0 { baseline } else { wall };
    println!(
        "{label:<34} wall {wall:7.3} s ({:5.3} of the baseline)  {:7.1}× real time  {:4.2} steps per window  \
         MBS {mbs:6.3} s ({:4.1} %)  TDPF {tdpf:6.3} s ({:4.1} %)  coupling {coupling:6.3} s ({:4.1} %)  \
         per window: MBS {:5.1} µs, TDPF {:5.1} µs, coupling {:5.1} µs",
        wall / baseline,
        DURATION / wall,
        solid.steps as f64 / solid.windows as f64,
        100.0 * mbs / wall,
        100.0 * tdpf / wall,
        100.0 * coupling / wall,
        1e6 * mbs / solid.windows as f64,
        1e6 * tdpf / fluid.windows as f64,
        1e6 * coupling / solid.windows as f64,
    );
    wall
}

/// The figures of docs/performance.md before this bench (2026-12-06, 2-core VM under a load of
/// 18–20): 400 s of the shipped case took 8.8 s in two threads, and about 8–9 s through
/// `tidelink run` (issue 28's measurement on a fresh clone); the goal is 0.8 s.
const EARLIER_THREADS: f64 = 8.8;
const EARLIER_PROCESS: f64 = 8.8;
const GOAL: f64 = 0.8;

/// (t, float z, spar z) of a run.
type Heave = (f64, f64, f64);

/// The shipped tidelink.yaml, for the process row's case.
const LAUNCH: &str = include_str!("../configs/rm3_reg_waves/tidelink.yaml");

/// The shipped coupling through `tidelink run`: wall time, its stepping part (after the start-up),
/// and the process run's float and spar heave (from the Solid's CSV output) for the floor's check.
fn process_row(data: &Path) -> Option<(f64, Option<f64>, Vec<Heave>)> {
    let tidelink = match process::binaries() {
        Ok(t) => t,
        Err(why) => {
            println!("process row NOT RUN: {why}");
            return None;
        }
    };
    let w = SHIPPED_WINDOW;
    let (case, _, _) = rm3_case::write(data, &IMPLICIT, SOLID_MODEL, false, DURATION, w, "CSV");
    case.write("tidelink.yaml", LAUNCH);
    let run = process::run(&tidelink, case.path()).unwrap_or_else(|e| panic!("{e}"));
    let startup = match (run.checked, run.initialized) {
        (Some(c), Some(i)) => format!(
            "start-up {i:6.3} s (the launcher's check {c:5.3} s, the participants' build and connection {:5.3} s, \
             of which the TDPF's model {:5.3} s), stepping {:6.3} s ({:5.1} µs per window)",
            i - c,
            run.tdpf_model.unwrap_or(f64::NAN),
            run.wall - i,
            1e6 * (run.wall - i) / (DURATION / w)
        ),
        _ => "start-up not seen in the participants' lines".into(),
    };
    println!(
        "{:<34} wall {:7.3} s  {:7.1}× real time  {startup}",
        "process: tidelink run (shipped)",
        run.wall,
        DURATION / run.wall
    );
    if std::env::var_os("TIDELINK_BENCH_LINES").is_some() {
        for (t, l) in &run.lines {
            println!("    {t:8.3} s  {l}");
        }
    }
    let stepping = run.initialized.map(|i| run.wall - i);
    Some((run.wall, stepping, solid_heave(case.path())))
}

/// (t, float z, spar z) from the Solid's CSV files under `dir`.
fn solid_heave(dir: &Path) -> Vec<Heave> {
    let find = |name: &str| -> PathBuf {
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).expect("read the case folder").flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.file_name().is_some_and(|f| f == format!("{name}.csv").as_str()) {
                    return p;
                }
            }
        }
        panic!("no {name}.csv under {}", dir.display());
    };
    let read = |name: &str| tidelink_mbs::io::output::read(&find(name)).expect("the Solid's CSV");
    let (f, s) = (read("float"), read("spar"));
    f.iter().zip(&s).map(|(f, s)| (f.time, f.position.z, s.position.z)).collect()
}

/// The floor against the coupled heave `coupled`: the largest difference over the run, and the
/// steady amplitudes (half the range over the last 48 s, six wave periods), of float and spar.
fn compare(floor: &floor::Floor, coupled: &[Heave], window: f64) {
    let at = |t: f64| -> Option<(f64, f64)> {
        let k = (t / window).round() as usize;
        (k >= 1 && (k as f64 * window - t).abs() < 1e-6).then(|| (floor.heave[k - 1].1, floor.heave[k - 1].2))
    };
    let (mut diff, mut lo, mut hi) = ([0.0f64; 2], [[f64::MAX; 2]; 2], [[f64::MIN; 2]; 2]);
    for &(t, f, s) in coupled.iter().filter(|r| r.0 > 0.0) {
        let Some(m) = at(t) else { continue };
        diff[0] = diff[0].max((f - m.0).abs());
        diff[1] = diff[1].max((s - m.1).abs());
        if t > DURATION - 48.0 - 1e-9 {
            for (i, z) in [[f, s], [m.0, m.1]].iter().enumerate() {
                for b in 0..2 {
                    lo[i][b] = lo[i][b].min(z[b]);
                    hi[i][b] = hi[i][b].max(z[b]);
                }
            }
        }
    }
    for (b, name) in ["float", "spar"].iter().enumerate() {
        let (coupled, mono) = ((hi[0][b] - lo[0][b]) / 2.0, (hi[1][b] - lo[1][b]) / 2.0);
        println!(
            "  floor vs process, {name} heave: steady amplitude {mono:.6} m vs {coupled:.6} m ({:+.4} %), largest \
             difference over the run {:.2e} m ({:.4} % of the amplitude)",
            100.0 * (mono / coupled - 1.0),
            diff[b],
            100.0 * diff[b] / coupled
        );
    }
}

fn floor_row(data: &Path, label: &str, w: f64) -> floor::Floor {
    let (case, solid_file, fluid_file) = rm3_case::write(data, &IMPLICIT, SOLID_MODEL, false, DURATION, w, "NONE");
    let f = floor::run(&solid_file, &fluid_file, &case.config, DURATION, w).unwrap_or_else(|e| panic!("floor: {e}"));
    println!(
        "{:<34} wall {:7.3} s  {:7.1}× real time  {:4.2} steps per window  per window: MBS {:5.1} µs, TDPF {:5.1} µs, \
         loop {:5.1} µs  (CPU {} s; start-up, both models built: {:.3} s)",
        label,
        f.wall,
        DURATION / f.wall,
        f.iterations as f64 / f.windows as f64,
        1e6 * f.mbs / f.windows as f64,
        1e6 * f.tdpf / f.windows as f64,
        1e6 * (f.wall - f.mbs - f.tdpf).max(0.0) / f.windows as f64,
        f.cpu.map_or("?".into(), |c| format!("{c:.2}")),
        f.startup
    );
    f
}

fn main() {
    // cfg(tidelink_shared): the folder was there when this was built, or TIDELINK_REQUIRE_SHARED=1.
    let h5 = match testing::find_shared("data/rm3/rm3.h5") {
        Ok(h5) => h5,
        Err(why) if !cfg!(tidelink_shared) => {
            println!("rm3 benchmark NOT RUN, nothing measured: {why}");
            return;
        }
        Err(why) => panic!("{why}"),
    };
    let data: PathBuf = h5.parent().expect("a folder").to_path_buf();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let named = |row: &str| args.iter().any(|a| a == row);
    let picked = ["process", "threads", "floor"].iter().any(|r| named(r));
    let wants = |row: &str| !picked || named(row);
    println!(
        "rm3_reg_waves, {DURATION} s, the shipped coupling (serial-implicit, {} ms, IQN-ILS, identified radiation)",
        SHIPPED_WINDOW * 1e3
    );

    let process = if wants("process") { process_row(&data) } else { None };
    let threads = wants("threads").then(|| {
        report("threads: two threads (shipped)", &run(&data, &IMPLICIT, SHIPPED_RADIATION, SHIPPED_WINDOW), 0.0)
    });
    let floor = wants("floor").then(|| floor_row(&data, "floor: one thread, no coupling", SHIPPED_WINDOW));
    if let (Some(f), Some((_, _, heave))) = (&floor, &process) {
        compare(f, heave, SHIPPED_WINDOW);
    }

    println!("ratios:");
    let ratio = |what: &str, a: f64, b: f64| println!("  {what:<52} {a:7.3} s / {b:7.3} s = {:7.3}", a / b);
    if let Some((p, stepping, _)) = process {
        ratio("process / earlier process (issue 28: 8–9 s)", p, EARLIER_PROCESS);
        ratio("process / goal", p, GOAL);
        if let Some(t) = threads {
            ratio("process / threads", p, t);
            if let Some(s) = stepping {
                ratio("process after its start-up / threads", s, t);
            }
        }
        if let Some(f) = &floor {
            ratio("process / floor", p, f.wall);
        }
    }
    if let Some(t) = threads {
        ratio("threads / earlier threads (docs, load 18–20)", t, EARLIER_THREADS);
        ratio("threads / goal", t, GOAL);
        if let Some(f) = &floor {
            ratio("threads / floor", t, f.wall);
        }
    }
    if let Some(f) = &floor {
        ratio("floor / goal", f.wall, GOAL);
    }

    if named("studies") {
        println!("studies: ratios against the first run");
        let conv = "method: CONVOLUTION\n    truncation_time: 20";
        // The coupling shipped before: the forces measure beside the velocities measure (3 iterations).
        let two_measures = rm3_case::two_measures();
        let baseline = report("explicit 5 ms, convolution", &run(&data, &EXPLICIT, conv, 0.005), 0.0);
        report("implicit 20 ms, 2 measures, convolution", &run(&data, &two_measures, conv, 0.02), baseline);
        report("implicit 20 ms, 2 measures, identified", &run(&data, &two_measures, SHIPPED_RADIATION, 0.02), baseline);
        report("implicit 20 ms, identified", &run(&data, &IMPLICIT, SHIPPED_RADIATION, 0.02), baseline);
        report(
            "implicit 40 ms, identified (shipped)",
            &run(&data, &IMPLICIT, SHIPPED_RADIATION, SHIPPED_WINDOW),
            baseline,
        );
        report("implicit 20 ms, file's state space", &run(&data, &IMPLICIT, "method: STATE_SPACE", 0.02), baseline);
        report("explicit 5 ms, identified", &run(&data, &EXPLICIT, SHIPPED_RADIATION, 0.005), baseline);
    }
    if named("windows") {
        // The window shipped before and a larger one, with the shipped measure (docs/performance.md),
        // against the shipped row.
        let base = threads.unwrap_or(0.0);
        for window in [0.02, 0.05] {
            let label = format!("implicit {} ms, identified", window * 1e3);
            report(&label, &run(&data, &IMPLICIT, SHIPPED_RADIATION, window), base);
            floor_row(&data, &format!("floor at {} ms", window * 1e3), window);
        }
    }
}
