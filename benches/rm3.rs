//! Cost of the rm3_reg_waves case: 400 s of RM3 in regular waves at a 10 ms window (and at
//! the shipped case's 5 ms), Solid and Fluid in two threads of this process through the native engine,
//! once with the radiation by direct convolution (20 s of memory, the shipped setting) and
//! once by the file's state-space realisations. Prints the wall time, simulated seconds per
//! wall second, and the split into MBS (the Solid's adapter), TDPF (the Fluid's adapter)
//! and the rest (the coupling: data exchange and hand-over between the two).
//!
//! `cargo bench -p tidelink --bench rm3` (needs ../shared/data/rm3/rm3.h5). Without the shared
//! folder it measures nothing: it says so, naming the missing file, and exits 0, or exits non-zero
//! under TIDELINK_REQUIRE_SHARED=1 (docs/testing.md).

use std::path::{Path, PathBuf};
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::driver::RunSummary;
use tidelink_adapter_core::testing;

const XML: &str = include_str!("../configs/rm3_reg_waves/precice-config.xml");
const SOLID: &str = include_str!("../configs/rm3_reg_waves/solid/participant.yaml");
const SOLID_MODEL: &str = include_str!("../configs/rm3_reg_waves/solid/model.yaml");
const SOLID_SOLVER: &str = include_str!("../configs/rm3_reg_waves/solid/solver.yaml");
const FLUID: &str = include_str!("../configs/rm3_reg_waves/fluid/participant.yaml");
const FLUID_MODEL: &str = include_str!("../configs/rm3_reg_waves/fluid/tdpf_model.yaml");

const DURATION: f64 = 400.0;
/// The benchmark's 10 ms window (the shipped case uses 5 ms).
const WINDOW: f64 = 0.01;

fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the shipped file no longer contains `{from}`");
    text.replace(from, to)
}

/// One run at `window`: the Solid's and the Fluid's summaries.
fn run(data: &Path, radiation: &str, window: f64) -> (RunSummary, RunSummary) {
    let xml = edit(XML, r#"exchange-directory=".""#, r#"exchange-directory="{dir}""#);
    let xml = edit(&xml, r#"<max-time value="200" />"#, &format!(r#"<max-time value="{DURATION}" />"#));
    let xml = edit(&xml, r#"<time-window-size value="0.005" />"#, &format!(r#"<time-window-size value="{window}" />"#));
    let case = testing::temp_case(&xml);
    let absolute = |text: &str| {
        let t = edit(text, "type: RELATIVE", "type: ABSOLUTE");
        edit(&t, "root: ../../../../shared/data/rm3", &format!("root: {}", data.display()))
    };
    let solid = edit(SOLID, "format: CSV", "format: NONE");
    let solid_file = case.write("solid/participant.yaml", &absolute(&solid));
    case.write("solid/model.yaml", SOLID_MODEL);
    case.write("solid/solver.yaml", &edit(SOLID_SOLVER, "time_step: 0.005", &format!("time_step: {window}")));
    let fluid_file = case.write("fluid/participant.yaml", FLUID);
    let model = edit(FLUID_MODEL, "method: CONVOLUTION\n    truncation_time: 20", radiation);
    case.write("fluid/tdpf_model.yaml", &absolute(&model));
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

fn report(label: &str, (solid, fluid): &(RunSummary, RunSummary)) {
    assert!((solid.time - DURATION).abs() < 1e-6, "the run ended at {}", solid.time);
    let wall = solid.wall_seconds.max(fluid.wall_seconds);
    let (mbs, tdpf) = (solid.solver_seconds, fluid.solver_seconds);
    let coupling = (wall - mbs - tdpf).max(0.0);
    println!(
        "{label:<28} wall {wall:7.3} s  {:7.1}× real time  MBS {mbs:6.3} s ({:4.1} %)  TDPF {tdpf:6.3} s ({:4.1} %)  \
         coupling {coupling:6.3} s ({:4.1} %)  per window: MBS {:5.1} µs, TDPF {:5.1} µs, coupling {:5.1} µs",
        DURATION / wall,
        100.0 * mbs / wall,
        100.0 * tdpf / wall,
        100.0 * coupling / wall,
        1e6 * mbs / solid.windows as f64,
        1e6 * tdpf / fluid.windows as f64,
        1e6 * coupling / solid.windows as f64,
    );
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
    println!(
        "rm3_reg_waves, {DURATION} s at a {WINDOW} s window ({} windows), Solid and Fluid in two threads",
        (DURATION / WINDOW) as u64
    );
    let runs = [
        ("convolution, 20 s memory", "method: CONVOLUTION\n    truncation_time: 20"),
        ("convolution, 60 s memory", "method: CONVOLUTION\n    truncation_time: 60"),
        ("state space", "method: STATE_SPACE"),
    ];
    for (label, radiation) in runs {
        let r = run(&data, radiation, WINDOW);
        report(label, &r);
    }
    println!("the shipped case's 5 ms window:");
    for (label, radiation) in [runs[0], runs[2]] {
        let r = run(&data, radiation, WINDOW / 2.0);
        report(label, &r);
    }
}
