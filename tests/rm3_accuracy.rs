//! The accuracy table of the rm3_reg_waves case: the shipped coupling and radiation (the state
//! space identified from the IRF) against the frequency-domain solution of the same file, at wave
//! periods 6, 8, 10 and 12 s, with the body-to-body terms off and on. Per run: the steady float
//! and spar heave amplitudes and the mean absorbed PTO power over whole periods of 152–200 s
//! (after the 100 s ramp), each within 0.25 % of the frequency domain's, at the shipped 40 ms
//! window. The same table at 20 ms (the window shipped before) and with the convolution and both
//! convergence measures (the coupling shipped before that) are ignored tests for comparison
//! (docs/performance.md).
//!
//! Needs `../shared/data/rm3/rm3.h5`; reported as ignored without it (docs/testing.md).

use nalgebra::{DMatrix, DVector};
use std::f64::consts::PI;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::testing;
use tidelink_mbs::io::output::{self, Row};
use tidelink_tdpf_solver::frequency_domain::{steady_heave, HeaveSystem};

mod support;
use support::in_threads;
use support::rm3_case::{self, edit, Coupling, IMPLICIT, SHIPPED_WINDOW, SOLID_MODEL};

const WAVE_AMPLITUDE: f64 = 1.25;
const PTO_DAMPING: f64 = 1.2e6;
/// Masses of float and spar in `configs/rm3_reg_waves/solid/model.yaml` (kg).
const MASSES: [f64; 2] = [725833.0, 886687.0];
const END: f64 = 200.0;
/// The steady window starts no earlier than this (the 100 s ramp and the transient are over).
const STEADY_FROM: f64 = 152.0;
/// The accuracy asked of the time-domain solution: 0.25 % of the frequency-domain figure. What
/// separates the two is HHT's error at the 40 ms window (second order in the step: a quarter of
/// it at 20 ms), the radiation's quadrature or fit, and the IRF's finite frequency range; the
/// convolution at 20 ms reaches 0.02 % at T = 8 s.
const TOLERANCE: f64 = 0.0025;

/// The shared RM3 folder; panics naming the missing file when rm3.h5 is not there.
fn rm3_data() -> PathBuf {
    let h5 = testing::shared_path("data/rm3/rm3.h5");
    h5.parent().expect("a folder").to_path_buf()
}

/// Least-squares amplitude of `y ≈ a cos ωt + b sin ωt + c` over `[from, to)`.
fn amplitude(series: &[(f64, f64)], omega: f64, (from, to): (f64, f64)) -> f64 {
    let pts: Vec<&(f64, f64)> = series.iter().filter(|(t, _)| *t >= from - 1e-9 && *t < to - 1e-9).collect();
    let a = DMatrix::from_fn(pts.len(), 3, |i, j| match j {
        0 => (omega * pts[i].0).cos(),
        1 => (omega * pts[i].0).sin(),
        _ => 1.0,
    });
    let y = DVector::from_iterator(pts.len(), pts.iter().map(|p| p.1));
    let x = (a.transpose() * &a).lu().solve(&(a.transpose() * y)).expect("a well-posed fit");
    x[0].hypot(x[1])
}

/// One line of the table: relative errors of float heave, spar heave and mean power.
struct Errors {
    float: f64,
    spar: f64,
    power: f64,
}

/// A coupled run of the shipped case at wave period `period` with the Fluid's radiation section
/// `radiation` (None: as shipped), compared with the frequency domain.
fn errors(data: &Path, c: &Coupling, window: f64, period: f64, body_to_body: bool, radiation: Option<&str>) -> Errors {
    let (case, solid_file, fluid_file) = rm3_case::write(data, c, SOLID_MODEL, body_to_body, END, window, "CSV");
    let mut model = edit(rm3_case::FLUID_MODEL, "period: 8", &format!("period: {period}"));
    model = edit(&model, "body_to_body: false", &format!("body_to_body: {body_to_body}"));
    if let Some(r) = radiation {
        model = edit(&model, rm3_case::SHIPPED_RADIATION, r);
    }
    case.write("fluid/tdpf_model.yaml", &rm3_case::absolute(&model, data));
    let outputs = in_threads::fluid_and_mbs(in_threads::tdpf, fluid_file, solid_file, &case);
    let read = |name: &str| {
        let path = outputs.iter().find(|p| p.ends_with(format!("{name}.csv"))).expect("a CSV per body");
        output::read(path).expect("read the Solid's CSV")
    };
    let (float, spar) = (read("float"), read("spar"));
    let omega = 2.0 * PI / period;
    // Whole periods ending at END, starting no earlier than STEADY_FROM.
    let window = (END - ((END - STEADY_FROM) / period).floor() * period, END);
    let heave = |rows: &[Row]| rows.iter().map(|r| (r.time, r.position.z - rows[0].position.z)).collect::<Vec<_>>();
    let p: Vec<f64> = float
        .iter()
        .zip(&spar)
        .filter(|(f, _)| f.time >= window.0 - 1e-9 && f.time < window.1 - 1e-9)
        .map(|(f, s)| PTO_DAMPING * (f.linvel.z - s.linvel.z).powi(2))
        .collect();
    let power = p.iter().sum::<f64>() / p.len() as f64;
    let hydro = tidelink_bemio::read(&data.join("rm3.h5")).expect("read rm3.h5");
    let system = HeaveSystem { masses: MASSES.to_vec(), dampers: vec![(0, 1, PTO_DAMPING)], body_to_body };
    let fd = steady_heave(&hydro, &system, omega, WAVE_AMPLITUDE).expect("the frequency-domain steady state");
    Errors {
        float: amplitude(&heave(&float), omega, window) / fd.heave[0].norm() - 1.0,
        spar: amplitude(&heave(&spar), omega, window) / fd.heave[1].norm() - 1.0,
        power: power / fd.damper_power[0] - 1.0,
    }
}

/// Runs the table of coupling `c` at `window`, prints it, and returns the largest error.
fn table(c: &Coupling, window: f64, radiation: Option<&str>) -> f64 {
    let data = rm3_data();
    let mut worst: f64 = 0.0;
    println!("| T (s) | body-to-body | float | spar | power |");
    println!("|---|---|---|---|---|");
    for body_to_body in [false, true] {
        for period in [6.0, 8.0, 10.0, 12.0] {
            let e = errors(&data, c, window, period, body_to_body, radiation);
            println!(
                "| {period} | {} | {:+.3} % | {:+.3} % | {:+.3} % |",
                if body_to_body { "on" } else { "off" },
                100.0 * e.float,
                100.0 * e.spar,
                100.0 * e.power
            );
            worst = worst.max(e.float.abs()).max(e.spar.abs()).max(e.power.abs());
        }
    }
    worst
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn shipped_case_is_within_a_quarter_percent_of_the_frequency_domain_at_t_6_to_12_s() {
    let worst = table(&IMPLICIT, SHIPPED_WINDOW, None);
    assert!(worst < TOLERANCE, "largest error {:.3} %", 100.0 * worst);
}

#[test]
#[ignore = "a comparison of docs/performance.md: the shipped coupling at the 20 ms window shipped before (run with --ignored)"]
fn at_20_ms_windows_the_same_table() {
    let worst = table(&IMPLICIT, 0.02, None);
    assert!(worst < TOLERANCE, "largest error {:.3} %", 100.0 * worst);
}

#[test]
#[ignore = "the comparison table of docs/performance.md: the case as shipped before (convolution, forces and velocities measures, 20 ms; run with --ignored)"]
fn with_the_convolution_and_two_measures_the_same_table() {
    let worst = table(&rm3_case::two_measures(), 0.02, Some("method: CONVOLUTION\n    truncation_time: 20"));
    assert!(worst < TOLERANCE, "largest error {:.3} %", 100.0 * worst);
}
