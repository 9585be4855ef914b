//! Cost of the rm3_reg_waves case at equal or better accuracy: 400 s of RM3 in regular
//! waves, Solid and Fluid in two threads of this process through the native engine, coupled
//! explicitly at 5 ms (`configs/rm3_reg_waves/explicit`, the baseline) and implicitly at
//! 20 ms and 10 ms (the shipped case; tests/rm3_reg_waves.rs shows both implicit runs within
//! 0.2 % of the frequency-domain amplitude, closer than the explicit one), with the radiation
//! by convolution, by the state space identified from the IRF (the shipped default) and by
//! the file's realisations. Prints the wall time, simulated
//! seconds per wall second, the split into MBS (the Solid's adapter), TDPF (the Fluid's
//! adapter) and the rest (the coupling), the solver evaluations per window, and each run's
//! wall time as a ratio to the baseline measured in the same run.
//!
//! `cargo bench -p tidelink --bench rm3` (needs ../shared/data/rm3/rm3.h5); `-- windows` adds
//! the shipped coupling at 40 and 50 ms windows. Without the shared
//! folder it measures nothing: it says so, naming the missing file, and exits 0, or exits non-zero
//! under TIDELINK_REQUIRE_SHARED=1 (docs/testing.md).

use std::path::{Path, PathBuf};
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::driver::RunSummary;
use tidelink_adapter_core::testing;

#[path = "../tests/support/rm3_case.rs"]
mod rm3_case;
use rm3_case::{edit, Coupling, EXPLICIT, FLUID_MODEL, IMPLICIT, SHIPPED_RADIATION, SOLID_MODEL};

const DURATION: f64 = 400.0;

/// One run at `window`: the Solid's and the Fluid's summaries.
fn run(data: &Path, c: &Coupling, radiation: &str, window: f64) -> (RunSummary, RunSummary) {
    let (case, solid_file, fluid_file) = rm3_case::write(data, c, SOLID_MODEL, false, DURATION, window, "NONE");
    let model = edit(FLUID_MODEL, SHIPPED_RADIATION, radiation);
    let model = rm3_case::absolute(&model, data);
    case.write("fluid/tdpf_model.yaml", &model);
    let (x1, x2) = (case.config.clone(), case.config.clone());
    let fluid = std::thread::spawn(move || {
        tidelink_tdpf::participant::run_with_progress(&fluid_file, &x1, Backend::Native, &mut ())
            .map_err(|e| format!("Fluid: {e:#}"))
    });
    let solid = tidelink_mbs::run_with_progress(&solid_file, &x2, Backend::Native, &mut ())
        .map_err(|e| format!("Solid: {e:#}"))
        .unwrap_or_else(|e| panic!("{e}"));
    let fluid = fluid.join().expect("the Fluid thread").unwrap_or_else(|e| panic!("{e}"));
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
    println!("rm3_reg_waves, {DURATION} s, Solid and Fluid in two threads; ratios against the first run");
    let conv = "method: CONVOLUTION\n    truncation_time: 20";
    // The coupling shipped before: the forces measure beside the velocities measure (3 iterations).
    let two_measures = rm3_case::two_measures();
    let baseline = report("explicit 5 ms, convolution", &run(&data, &EXPLICIT, conv, 0.005), 0.0);
    report("implicit 20 ms, 2 measures, convolution", &run(&data, &two_measures, conv, 0.02), baseline);
    report("implicit 20 ms, 2 measures, identified", &run(&data, &two_measures, SHIPPED_RADIATION, 0.02), baseline);
    report("implicit 20 ms, identified (shipped)", &run(&data, &IMPLICIT, SHIPPED_RADIATION, 0.02), baseline);
    report("implicit 20 ms, file's state space", &run(&data, &IMPLICIT, "method: STATE_SPACE", 0.02), baseline);
    report("explicit 5 ms, identified", &run(&data, &EXPLICIT, SHIPPED_RADIATION, 0.005), baseline);
    if std::env::args().any(|a| a == "windows") {
        // Larger windows with the shipped measure (docs/performance.md).
        for window in [0.04, 0.05] {
            let label = format!("implicit {} ms, identified", window * 1e3);
            report(&label, &run(&data, &IMPLICIT, SHIPPED_RADIATION, window), baseline);
        }
    }
}
