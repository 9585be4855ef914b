//! The MATLAB module helper (`pto/matlab/tidelink_pto.m`) run end to end under GNU Octave: RM3
//! in regular waves (`configs/rm3_reg_waves/external_pto`) with its power take-off served by
//! `pto/matlab/linear_damper_pto.m` through `pto/matlab/tidelink_octave.m`, against the same
//! case with the Python module `pto/examples/linear_damper_pto.py`.
//!
//! Needs `octave-cli` with its instrument-control package (Debian: `octave`,
//! `octave-instrument-control`) and `../shared/data/rm3`; without them the test is reported as
//! ignored (docs/testing.md, docs/external-modules.md).

use std::path::{Path, PathBuf};
use tidelink_adapter_core::testing;
use tidelink_mbs::io::output::{self, Row};

mod support;
use support::in_threads;
use support::rm3_case::{self, IMPLICIT, SHIPPED_WINDOW};

/// The shipped external-module model of RM3, with the Python module's command.
const MODULE_MODEL: &str = include_str!("../configs/rm3_reg_waves/external_pto/solid/model.yaml");
const PYTHON_COMMAND: &str = "command: [python3, ../../../../pto/examples/linear_damper_pto.py]";

/// Simulated time (s): 1000 windows of the shipped 40 ms, inside the 100 s wave ramp, so the
/// motion grows through the run and every window's module force matters.
const DURATION: f64 = 40.0;

/// The float's and spar's rows and the PTO's power column (t, W) of a run with `command`.
fn run(command: &str) -> (Vec<Row>, Vec<Row>, Vec<(f64, f64)>) {
    let data = testing::shared_path("data/rm3/rm3.h5").parent().expect("a folder").to_path_buf();
    let model = rm3_case::edit(MODULE_MODEL, PYTHON_COMMAND, command);
    let (case, solid, fluid) = rm3_case::write(&data, &IMPLICIT, &model, false, DURATION, SHIPPED_WINDOW, "CSV");
    let outputs = in_threads::fluid_and_mbs(in_threads::tdpf, fluid, solid, &case);
    let find = |name: &str| -> PathBuf {
        outputs.iter().find(|p| p.ends_with(name)).unwrap_or_else(|| panic!("no {name} among {outputs:?}")).clone()
    };
    let rows = |name: &str| output::read(&find(name)).expect("read the Solid's CSV");
    // links.csv is written beside the bodies' files (not among the outputs a run returns).
    let links = find("float.csv").with_file_name("links.csv");
    (rows("float.csv"), rows("spar.csv"), power(&links))
}

/// The rows of `links.csv` (`time_s,pto_power_W`).
fn power(path: &Path) -> Vec<(f64, f64)> {
    let text = std::fs::read_to_string(path).expect("read links.csv");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    assert_eq!(lines.next(), Some("time_s,pto_power_W"), "{}", path.display());
    lines
        .map(|l| {
            let (t, p) = l.split_once(',').expect("two columns");
            (t.parse().expect("a time"), p.parse().expect("a power"))
        })
        .collect()
}

/// Largest |a − b| of `f` over two runs' rows, and the largest |a| (the scale it is judged on).
fn worst<T>(a: &[T], b: &[T], f: impl Fn(&T) -> f64) -> (f64, f64) {
    assert_eq!(a.len(), b.len(), "both runs write the same rows");
    let diff = a.iter().zip(b).map(|(x, y)| (f(x) - f(y)).abs()).fold(0.0, f64::max);
    (diff, a.iter().map(|x| f(x).abs()).fold(0.0, f64::max))
}

/// The Octave module moves RM3 as the Python module does. Not bit for bit: Octave's
/// `jsondecode` reads about one 17-digit number in six one unit in the last place off (3184 of
/// 20 000 random doubles, measured with Octave 7.3), so the module sees velocities that differ
/// by 1e-16 relative, and the implicit coupling (velocity rel-limit 1e-5) may then stop a
/// window's iterations at another point within its limits. Measured over the whole 200 s case:
/// heave 4e-9 and PTO power 2.4e-8 of their peaks, mean power equal to 7 digits. Bound: 1e-6 of
/// the peak, far below the coupling's own tolerance and 40 times the largest measured.
#[test]
#[cfg_attr(
    not(all(tidelink_shared, tidelink_octave)),
    ignore = "needs octave-cli with its instrument-control package, and ../shared/data/rm3/rm3.h5"
)]
fn the_octave_linear_damper_moves_rm3_as_the_python_one() {
    let matlab = Path::new(env!("CARGO_MANIFEST_DIR")).join("pto/matlab");
    let octave = format!(
        "command: [octave-cli, --no-gui, --quiet, --no-history, {}, {}]",
        matlab.join("tidelink_octave.m").display(),
        matlab.join("linear_damper_pto.m").display()
    );
    let python = PYTHON_COMMAND.replace(
        "../../../../pto/examples",
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("pto/examples").display().to_string(),
    );
    let (float_py, spar_py, power_py) = run(&python);
    let (float_m, spar_m, power_m) = run(&octave);
    for (body, a, b) in [("float", &float_py, &float_m), ("spar", &spar_py, &spar_m)] {
        let (dz, peak) = worst(a, b, |r| r.position.z - a[0].position.z);
        let (dv, vpeak) = worst(a, b, |r| r.linvel.z);
        println!("{body}: heave differs by {dz:.2e} m (peak {peak:.3e} m), velocity by {dv:.2e} m/s");
        assert!(dz <= 1e-6 * peak && dv <= 1e-6 * vpeak, "{body}: Octave's run differs from Python's");
    }
    let (dp, ppeak) = worst(&power_py, &power_m, |r| r.1);
    let mean = |p: &[(f64, f64)]| p.iter().map(|r| r.1).sum::<f64>() / p.len() as f64;
    println!(
        "PTO power differs by {dp:.2e} W (peak {ppeak:.3e} W); mean {:.6e} W (Python) and {:.6e} W (Octave)",
        mean(&power_py),
        mean(&power_m)
    );
    assert!(ppeak > 0.0 && dp <= 1e-6 * ppeak, "the PTO's power differs: {dp:e} W of {ppeak:e} W");
    assert!((mean(&power_m) - mean(&power_py)).abs() <= 1e-6 * mean(&power_py).abs());
}
