//! Irregular waves against WEC-Sim: the rm3_reg_waves case (`tidelink-mbs` + `tidelink-tdpf` in
//! threads, serial-implicit at the shipped 40 ms, body-to-body terms off, CIC 20 s) driven by
//!
//! * the 2020 regression sea rebuilt from its stored components (`waves: type: COMPONENTS`, 500
//!   ω, amplitudes and phases, cosine ramp 100 s, excitation X(ω_i) interpolated from rm3.h5),
//!   compared with WEC-Sim's 2020 `irregularCIC` series;
//! * the current regression case's stored elevation at the origin (`waves: type:
//!   ELEVATION_IMPORT`, WEC-Sim's `elevationImport`: η convolved with rm3.h5's excitation impulse
//!   response), compared with WEC-Sim's current `irregularCIC` series (whose phases are not
//!   stored, so the elevation is the only way to its sea).
//!
//! Over 100–200 s: float and spar heave as the RMS of (ours − WEC-Sim) over the standard
//! deviation of WEC-Sim's, and the mean absorbed PTO power. Each test also writes its series
//! and a chart to `$CARGO_TARGET_TMPDIR/rm3_irregular/` (docs/design/tdpf-loads.md §9.5).
//!
//! Needs `../shared/data/rm3/` (rm3.h5 and the WEC-Sim irregular CSV files); without the shared
//! folder every test is reported as ignored (docs/testing.md).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::testing;
use tidelink_mbs::io::output::{self, Row};
use tidelink_plot::{Chart, Panel, Series, BLUE, ORANGE};

mod support;
use support::in_threads;
use support::rm3_case::{self, IMPLICIT, SHIPPED_WINDOW, SOLID_MODEL};

const PTO_DAMPING: f64 = 1.2e6;
/// The comparison window (s): after WEC-Sim's 100 s ramp, to the end of its series.
const WINDOW: (f64, f64) = (100.0, 200.0);

/// The shared RM3 folder, checked for the files named.
fn rm3_data(files: &[&str]) -> PathBuf {
    let h5 = testing::shared_path("data/rm3/rm3.h5");
    for f in files {
        testing::shared_path(&format!("data/rm3/{f}"));
    }
    h5.parent().expect("a folder").to_path_buf()
}

/// The shipped RM3 case with the Fluid's `waves:` section replaced by `waves` (YAML, indented
/// under `waves:`), run for 200 s: the float's and the spar's rows, 5 per second (as shipped).
fn coupled(data: &Path, waves: &str) -> (Vec<Row>, Vec<Row>) {
    let (case, solid_file, fluid_file) =
        rm3_case::write(data, &IMPLICIT, SOLID_MODEL, false, 200.0, SHIPPED_WINDOW, "CSV");
    let model = format!(
        "model:\n  name: rm3\n  data_path:\n    type: ABSOLUTE\n    root: {}\n  h5_file: rm3.h5\n  \
         body_to_body: false\n  radiation:\n    method: CONVOLUTION\n    truncation_time: 20\n  waves:\n{waves}",
        data.display()
    );
    case.write("fluid/tdpf_model.yaml", &model);
    let outputs = in_threads::fluid_and_mbs(in_threads::tdpf, fluid_file, solid_file, &case);
    let read = |name: &str| {
        let path = outputs.iter().find(|p| p.ends_with(format!("{name}.csv"))).expect("a CSV per body");
        output::read(path).expect("read the Solid's CSV")
    };
    (read("float"), read("spar"))
}

/// Columns of a WEC-Sim reference CSV (`#` comments, then a header), by name.
fn reference(path: &Path, names: &[&str]) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(path).expect("read the reference CSV");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let idx: Vec<usize> =
        names.iter().map(|n| header.iter().position(|h| h == n).unwrap_or_else(|| panic!("no column {n}"))).collect();
    let mut cols = vec![Vec::new(); names.len()];
    for l in lines {
        let v: Vec<f64> = l.split(',').map(|x| x.trim().parse().expect("a number")).collect();
        for (c, &i) in cols.iter_mut().zip(&idx) {
            c.push(v[i]);
        }
    }
    cols
}

/// Ours and WEC-Sim's series on the times both have (ours every 0.2 s, WEC-Sim's every 0.1 s):
/// (t, float heave, spar heave, power).
struct Compared {
    time: Vec<f64>,
    ours: [Vec<f64>; 3],
    theirs: [Vec<f64>; 3],
}

/// Our rows matched to the reference's times (every other one of them); the power is the absorbed
/// c (ż_float − ż_spar)², WEC-Sim's the negated `pto_power_W`.
fn compare(float: &[Row], spar: &[Row], reference: &[Vec<f64>]) -> Compared {
    let key = |t: f64| (t * 10.0).round() as i64;
    let (z0f, z0s) = (float[0].position.z, spar[0].position.z);
    let ours: HashMap<i64, [f64; 3]> = float
        .iter()
        .zip(spar)
        .map(|(f, s)| {
            let power = PTO_DAMPING * (f.linvel.z - s.linvel.z).powi(2);
            (key(f.time), [f.position.z - z0f, s.position.z - z0s, power])
        })
        .collect();
    let mut c = Compared { time: vec![], ours: Default::default(), theirs: Default::default() };
    for (i, &t) in reference[0].iter().enumerate() {
        let Some(o) = ours.get(&key(t)) else { continue };
        c.time.push(t);
        for (series, &value) in c.ours.iter_mut().zip(o.iter()) {
            series.push(value);
        }
        c.theirs[0].push(reference[1][i]);
        c.theirs[1].push(reference[2][i]);
        c.theirs[2].push(-reference[3][i]);
    }
    assert!(c.time.len() > 950, "only {} rows matched WEC-Sim's times", c.time.len());
    c
}

/// Over `window`: RMS(ours − theirs) / std(theirs) for float and spar heave, and the means of
/// our and their power.
fn statistics(c: &Compared, window: (f64, f64)) -> ([f64; 2], [f64; 2]) {
    let inside: Vec<usize> =
        (0..c.time.len()).filter(|&i| c.time[i] >= window.0 - 1e-9 && c.time[i] <= window.1 + 1e-9).collect();
    let n = inside.len() as f64;
    let rel = |k: usize| {
        let mean = inside.iter().map(|&i| c.theirs[k][i]).sum::<f64>() / n;
        let std = (inside.iter().map(|&i| (c.theirs[k][i] - mean).powi(2)).sum::<f64>() / n).sqrt();
        let rms = (inside.iter().map(|&i| (c.ours[k][i] - c.theirs[k][i]).powi(2)).sum::<f64>() / n).sqrt();
        rms / std
    };
    let mean = |v: &[f64]| inside.iter().map(|&i| v[i]).sum::<f64>() / n;
    ([rel(0), rel(1)], [mean(&c.ours[2]), mean(&c.theirs[2])])
}

/// The series as CSV and a three-panel chart in `$CARGO_TARGET_TMPDIR/rm3_irregular/`.
fn plot(c: &Compared, name: &str, title: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rm3_irregular");
    std::fs::create_dir_all(&dir).expect("create the plot folder");
    let mut csv = String::from(
        "time_s,float_heave_m,wecsim_float_heave_m,spar_heave_m,wecsim_spar_heave_m,power_W,wecsim_power_W\n",
    );
    for i in 0..c.time.len() {
        csv += &format!(
            "{},{},{},{},{},{},{}\n",
            c.time[i], c.ours[0][i], c.theirs[0][i], c.ours[1][i], c.theirs[1][i], c.ours[2][i], c.theirs[2][i]
        );
    }
    std::fs::write(dir.join(format!("{name}.csv")), csv).expect("write the series");
    let pair = |k: usize, unit: &str, what: &str| {
        let pts = |v: &[f64]| c.time.iter().copied().zip(v.iter().copied()).collect::<Vec<_>>();
        Panel::new(
            format!("{what} ({unit})"),
            vec![
                Series::line("WEC-Sim (irregularCIC)", pts(&c.theirs[k]), ORANGE),
                Series::line("Tidelink (MBS + TDPF)", pts(&c.ours[k]), BLUE),
            ],
        )
    };
    let chart = Chart::new(title, "time (s)")
        .panel(pair(0, "m", "float heave"))
        .panel(pair(1, "m", "spar heave"))
        .panel(pair(2, "W", "absorbed PTO power"))
        .size(1400, 1000);
    chart.write_png(&dir.join(format!("{name}.png"))).expect("draw the chart");
    println!("wrote {}", dir.join(format!("{name}.png")).display());
}

/// Prints and checks the figures of one comparison.
fn check(c: &Compared, window: (f64, f64), heave_tolerance: f64, power_tolerance: f64) {
    let ([float, spar], [ours, theirs]) = statistics(c, window);
    println!(
        "{}-{} s: float heave RMS difference {:.2} % of WEC-Sim's std, spar {:.2} %; mean power {:.1} kW \
         (WEC-Sim {:.1} kW, {:+.2} %)",
        window.0,
        window.1,
        100.0 * float,
        100.0 * spar,
        ours / 1e3,
        theirs / 1e3,
        100.0 * (ours / theirs - 1.0)
    );
    assert!(float < heave_tolerance, "float heave: RMS difference {float} of the std");
    assert!(spar < heave_tolerance, "spar heave: RMS difference {spar} of the std");
    assert!((ours / theirs - 1.0).abs() < power_tolerance, "mean power {ours} W vs {theirs} W");
}

/// WEC-Sim's 2020 irregular RM3 case rebuilt from its stored components.
#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3 (rm3.h5, WEC-Sim irregular CSV files)")]
fn the_2020_sea_rebuilt_from_its_components_follows_wecsim() {
    let data = rm3_data(&["wecsim_rm3_irregular_wave_components.csv", "wecsim_rm3_irregular_2020_reference.csv"]);
    let waves = "    type: COMPONENTS\n    file: wecsim_rm3_irregular_wave_components.csv\n    columns: \
                 {omega: omega_rad_per_s, amplitude: component_amplitude_m, phase: phase_2020_rad}\n    \
                 ramp_time: 100\n    ramp: COSINE\n";
    let (float, spar) = coupled(&data, waves);
    let names = ["time_s", "cic_float_heave_m", "cic_spar_heave_m", "cic_pto_power_W"];
    let reference = reference(&data.join("wecsim_rm3_irregular_2020_reference.csv"), &names);
    let c = compare(&float, &spar, &reference);
    plot(
        &c,
        "components_2020",
        "RM3, WEC-Sim's 2020 irregular sea rebuilt from its 500 components (PM Hs 2.5 m, Tp 8 s)",
    );
    // 2 % of the std and of the power: what is left (about 1 %) is WEC-Sim's RK4 at 0.1 s and its
    // re-sampled IRF (the regular case's difference to WEC-Sim, tests/rm3_reg_waves.rs). Our
    // window barely enters: at 20 ms this sea gave 1.05 %, 1.25 %, +1.19 %, at the shipped 40 ms
    // 1.07 %, 1.28 %, +1.22 % (HHT's error is second order in the step, and it is below 0.07 %
    // of the regular case's steady heave at 40 ms, tests/rm3_accuracy.rs).
    check(&c, WINDOW, 0.02, 0.02);
}

/// WEC-Sim's current irregular RM3 case driven by its stored elevation (`elevationImport`).
#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3 (rm3.h5, WEC-Sim irregular CSV files)")]
fn the_current_sea_from_its_stored_elevation_follows_wecsim() {
    let data = rm3_data(&["wecsim_rm3_irregular_reference.csv"]);
    // The stored elevation is already ramped (WEC-Sim's cosine ramp over 100 s): no second ramp.
    let waves = "    type: ELEVATION_IMPORT\n    file: wecsim_rm3_irregular_reference.csv\n    columns: \
                 {time: time_s, elevation: wave_elevation_m}\n";
    let (float, spar) = coupled(&data, waves);
    let names = ["time_s", "cic_float_heave_m", "cic_spar_heave_m", "cic_pto_power_W"];
    let reference = reference(&data.join("wecsim_rm3_irregular_reference.csv"), &names);
    let c = compare(&float, &spar, &reference);
    plot(&c, "elevation_import", "RM3, WEC-Sim's current irregular sea from its stored elevation (elevationImport)");
    // The excitation IRF is non-causal (±157 s in rm3.h5): near the record's end the force lacks
    // the future of η (zero beyond 200 s) and drifts from WEC-Sim's, which summed its
    // components (heave_excitation_matches_wecsims_stored_excitation: 0.26 % up to 180 s, 5.1 %
    // up to 200 s). Over 100-200 s the heave differs by 2.1 % (float) and 3.4 % (spar) of the
    // std for that reason alone; the comparison is checked where the record's next 20 s exist.
    // Up to 180 s the tolerances of the other sea hold for the same reasons (20 ms: 1.01 %, 1.02 %,
    // +1.02 %; the shipped 40 ms: 1.03 %, 1.05 %, +1.05 %).
    check(&c, WINDOW, 1.0, 1.0);
    check(&c, (WINDOW.0, WINDOW.1 - 20.0), 0.02, 0.02);
}

/// RMS(ours − theirs) / std(theirs) over `window` of two series on the same times.
fn relative_rms(time: &[f64], ours: &[f64], theirs: &[f64], window: (f64, f64)) -> f64 {
    let inside: Vec<usize> =
        (0..time.len()).filter(|&i| time[i] >= window.0 - 1e-9 && time[i] <= window.1 + 1e-9).collect();
    let n = inside.len() as f64;
    let mean = inside.iter().map(|&i| theirs[i]).sum::<f64>() / n;
    let std = (inside.iter().map(|&i| (theirs[i] - mean).powi(2)).sum::<f64>() / n).sqrt();
    (inside.iter().map(|&i| (ours[i] - theirs[i]).powi(2)).sum::<f64>() / n).sqrt() / std
}

/// The heave excitation alone, without the coupled run: from the 2020 components by
/// superposition (X linear in ω between the file's frequencies; WEC-Sim's is a spline), and from
/// the current case's stored elevation by the excitation-IRF convolution, each against the
/// excitation WEC-Sim stored. Tells a difference of the sea apart from one of the motion.
#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3 (rm3.h5, WEC-Sim irregular CSV files)")]
fn heave_excitation_matches_wecsims_stored_excitation() {
    use tidelink_tdpf_solver::excitation::{ExcitationTable, IrfExcitation, OutsideGrid, SuperpositionExcitation};
    use tidelink_tdpf_solver::waves::{Elevation, ElevationSeries, IrregularWave, Ramp, WaveComponent};
    let data = rm3_data(&[
        "wecsim_rm3_irregular_wave_components.csv",
        "wecsim_rm3_irregular_2020_reference.csv",
        "wecsim_rm3_irregular_reference.csv",
    ]);
    let hydro = tidelink_bemio::read(&data.join("rm3.h5")).expect("read rm3.h5");
    let comps = reference(
        &data.join("wecsim_rm3_irregular_wave_components.csv"),
        &["omega_rad_per_s", "component_amplitude_m", "phase_2020_rad"],
    );
    let wave = IrregularWave::from_components(
        (0..comps[0].len())
            .map(|i| WaveComponent {
                omega: comps[0][i],
                amplitude: comps[1][i],
                phase: comps[2][i],
                wave_number: comps[0][i].powi(2) / 9.81,
            })
            .collect(),
        0.0,
    )
    .unwrap();
    let names = ["time_s", "wave_elevation_m", "cic_float_Fexc_z_N", "cic_spar_Fexc_z_N"];
    let old = reference(&data.join("wecsim_rm3_irregular_2020_reference.csv"), &names);
    let new = reference(&data.join("wecsim_rm3_irregular_reference.csv"), &names);
    let ramp = Ramp::cosine(100.0).unwrap();
    // The rebuilt elevation is WEC-Sim's to rounding: the components are the stored ones.
    let eta: Vec<f64> = old[0].iter().map(|&t| ramp.factor(t) * wave.elevation(t)).collect();
    let eta_error = eta.iter().zip(&old[1]).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    println!("2020 elevation rebuilt from the components: largest difference {eta_error:.2e} m");
    assert!(eta_error < 1e-6, "elevation differs by {eta_error} m");
    let series = ElevationSeries::new(new[0].clone(), new[1].clone()).unwrap();
    for (b, name) in ["float", "spar"].iter().enumerate() {
        let table = ExcitationTable::from_hydro(&hydro, b).unwrap();
        let sup = SuperpositionExcitation::new(&table, &wave, ramp, OutsideGrid::Error).unwrap();
        let ours: Vec<f64> = old[0].iter().map(|&t| sup.force(t)[2]).collect();
        let components = relative_rms(&old[0], &ours, &old[2 + b], WINDOW);
        let irf = IrfExcitation::new(&table, 0.0, Ramp::None).unwrap();
        let ours: Vec<f64> = new[0].iter().map(|&t| irf.force(&series, t)[2]).collect();
        let imported = relative_rms(&new[0], &ours, &new[2 + b], WINDOW);
        let (lo, hi) = irf.span();
        let inner = relative_rms(&new[0], &ours, &new[2 + b], (WINDOW.0, WINDOW.1 + lo.clamp(-20.0, 0.0)));
        println!(
            "{name} heave excitation, 100-200 s, RMS difference / WEC-Sim's std: components {:.3} %, \
             stored elevation {:.3} % (IRF span {lo:.1}..{hi:.1} s; {:.3} % up to 20 s before the record ends)",
            100.0 * components,
            100.0 * imported,
            100.0 * inner
        );
        // Measured first; see docs/design/tdpf-loads.md §9.5 for the figures and what sets them.
        assert!(components < 0.01, "{name}: components excitation {components}");
        // Within 20 s of the record's end the IRF lacks the future of η (5 % over 100-200 s).
        assert!(inner < 0.01, "{name}: imported-elevation excitation {inner} up to 180 s");
    }
}
