//! RM3 radiation memory from the BEMIO file: the convolution against the frequency domain, and the
//! file's state space against the convolution, for a harmonic heave velocity of the float.
//!
//! Needs `../shared/data/rm3/rm3.h5` next to the repository; reported as ignored without it
//! (docs/testing.md).

use nalgebra::{Complex, DMatrix};
use std::f64::consts::PI;
use tidelink_adapter_core::testing;
use tidelink_bemio::{self as bemio, HydroData};
use tidelink_tdpf_solver::radiation::{
    identify, DirectConvolution, Feedthrough, FitOptions, Irf, RadiationModel, StateSpaceModel, StateSpaceSet,
};

const DT: f64 = 0.01;
const OMEGA: f64 = 2.0 * PI / 8.0;
/// Float heave (body 1, DOF 3) and spar heave (body 2, DOF 3) in the 12-vector.
const FLOAT_HEAVE: usize = 2;
const SPAR_HEAVE: usize = 8;

fn load() -> HydroData {
    bemio::read(&testing::shared_path("data/rm3/rm3.h5")).expect("rm3.h5 reads")
}

/// Linear interpolation in ω of a per-frequency `6 × 12` coefficient, entry `(r, c)`.
fn at_omega(data: &HydroData, coeff: &[DMatrix<f64>], r: usize, c: usize) -> f64 {
    let w = &data.omega;
    let hi = w.partition_point(|&x| x < OMEGA);
    assert!(hi > 0 && hi < w.len(), "ω = {OMEGA} outside the BEM grid");
    let s = (OMEGA - w[hi - 1]) / (w[hi] - w[hi - 1]);
    (1.0 - s) * coeff[hi - 1][(r, c)] + s * coeff[hi][(r, c)]
}

/// Frequency-domain force on DOF `row` (of the 12) for `v_c = sin ωt` on `FLOAT_HEAVE` at time `t`:
/// `−[B v + (A(ω) − A∞) v̇]`.
fn frequency_domain(data: &HydroData, row: usize, t: f64) -> f64 {
    let body = &data.bodies[row / 6];
    let r = row % 6;
    let b = at_omega(data, &body.radiation_damping, r, FLOAT_HEAVE);
    let a = at_omega(data, &body.added_mass, r, FLOAT_HEAVE) - body.added_mass_inf[(r, FLOAT_HEAVE)];
    -(b * (OMEGA * t).sin() + a * OMEGA * (OMEGA * t).cos())
}

/// Force on DOF `row` for `v = sin ωt` on `FLOAT_HEAVE` from the realisation's own transfer function
/// `H = C (iω − A)⁻¹ B (+ D)`: `−Im(H e^{iωt})`.
fn realisation(set: &StateSpaceSet, row: usize, feedthrough: Feedthrough, t: f64) -> f64 {
    let e = set.entry(row, FLOAT_HEAVE).expect("entry");
    let o = e.a.nrows();
    let m = DMatrix::from_diagonal_element(o, o, Complex::new(0.0, OMEGA)) - e.a.map(|x| Complex::new(x, 0.0));
    let x = m.lu().solve(&e.b.map(|x| Complex::new(x, 0.0))).expect("iω − A invertible");
    let d = if feedthrough == Feedthrough::Included { e.d } else { 0.0 };
    let h = (e.c.map(|x| Complex::new(x, 0.0)) * x)[(0, 0)] + d;
    -(h * Complex::new((OMEGA * t).cos(), (OMEGA * t).sin())).im
}

/// Every how many steps the force is evaluated in the comparison window (the force is the costly
/// part and is not needed to advance either model; 0.08 s still gives 100 samples per period).
const EVERY: usize = 8;

/// Runs `model` for 100 s of `v = sin ωt` on the float heave; returns `(t, F)` every [`EVERY`] steps
/// over the last 16 s (two periods, after the 60 s memory has filled).
fn run(model: &mut dyn RadiationModel) -> Vec<(f64, [f64; 12])> {
    let mut out = Vec::new();
    let mut v = [0.0; 12];
    let mut f = [0.0; 12];
    for k in 0..10_000 {
        let t = k as f64 * DT;
        v[FLOAT_HEAVE] = (OMEGA * t).sin();
        model.push(&v).expect("push");
        if k >= 8400 && k % EVERY == 0 {
            model.force(&mut f).expect("force");
            out.push((t, f));
        }
    }
    out
}

/// Largest gap on `row` between two series, relative to the largest |reference|.
fn relative_gap(row: usize, got: &[(f64, [f64; 12])], reference: impl Fn(usize, f64) -> f64) -> f64 {
    let peak = got.iter().map(|(t, _)| reference(row, *t).abs()).fold(0.0, f64::max);
    got.iter().map(|(t, f)| (f[row] - reference(row, *t)).abs()).fold(0.0, f64::max) / peak
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn rm3_float_heave_convolution_matches_frequency_domain_and_state_space() {
    let data = load();
    assert_eq!(data.bodies.len(), 2);
    let irf = Irf::from_bodies(&data.bodies).expect("IRF");
    let mut conv = DirectConvolution::new(&irf, DT, None).expect("convolution");
    println!("IRF span {} s, {} lags, {} of 144 entries nonzero", irf.span(), conv.lags(), conv.nonzero_entries());
    let conv_run = run(&mut conv);
    let fd = |row: usize, t: f64| frequency_domain(&data, row, t);
    for (row, name) in [(FLOAT_HEAVE, "float heave"), (SPAR_HEAVE, "spar heave (coupling)")] {
        let gap = relative_gap(row, &conv_run, fd);
        println!("convolution vs frequency domain, {name}: {:.3} %", 100.0 * gap);
        assert!(gap < 0.02, "{name}: {gap}");
    }

    // WEC-Sim's RM3 default truncation (CIC 20 s): how much the tail matters.
    let mut short = DirectConvolution::new(&irf, DT, Some(20.0)).expect("convolution 20 s");
    let short_run = run(&mut short);
    println!(
        "convolution truncated at 20 s vs frequency domain, float heave: {:.3} %",
        100.0 * relative_gap(FLOAT_HEAVE, &short_run, fd)
    );

    // Skipping the BEM-noise entries (symmetry zeros of the axisymmetric bodies).
    let mut sparse = DirectConvolution::with_tolerance(&irf, DT, None, 1e-3).expect("convolution, tolerance");
    let sparse_run = run(&mut sparse);
    let conv_at = |row: usize, t: f64| {
        let k = ((t - conv_run[0].0) / (DT * EVERY as f64)).round() as usize;
        conv_run[k].1[row]
    };
    let peak = conv_run.iter().map(|(_, f)| f[FLOAT_HEAVE].abs()).fold(0.0, f64::max);
    let worst = sparse_run
        .iter()
        .zip(&conv_run)
        .flat_map(|((_, a), (_, b))| a.iter().zip(b).map(|(x, y)| (x - y).abs()))
        .fold(0.0, f64::max);
    println!(
        "convolution with entry tolerance 1e-3: {} entries, largest change on any DOF {:.2e} of the heave peak",
        sparse.nonzero_entries(),
        worst / peak
    );
    assert!(worst / peak < 1e-3);

    let set = StateSpaceSet::from_bodies(&data.bodies).expect("state space");
    for feedthrough in [Feedthrough::Ignored, Feedthrough::Included] {
        let mut ss = StateSpaceModel::new(&set, DT, feedthrough).expect("state-space model");
        let ss_run = run(&mut ss);
        println!("state space ({feedthrough:?} D): {} active entries, {} states", ss.active_entries(), ss.states());
        for (row, name) in [(FLOAT_HEAVE, "float heave"), (SPAR_HEAVE, "spar heave (coupling)")] {
            // The discretisation against the realisation's own frequency response: tight.
            let own = relative_gap(row, &ss_run, |r, t| realisation(&set, r, feedthrough, t));
            // The file's fit (order 2, R² ≈ 0.97 for these entries) against the IRF: loose.
            let gap = relative_gap(row, &ss_run, conv_at);
            println!("  {name}: vs its transfer function {:.2e}, vs convolution {:.2} %", own, 100.0 * gap);
            assert!(own < 1e-4, "{name}: discretisation error {own}");
            assert!(gap < 0.20, "{name}: fit error {gap}");
        }
    }
}

/// Our identification of the whole 12 × 12 IRF (body-to-body terms included), entry by entry,
/// over the file's 60 s and over 20 s (the shipped span): every entry that is not BEM noise reaches
/// the default fit target R² ≥ 0.99999 (the module docs of `radiation::identify` define the
/// quality), every realisation is stable, and the radiation force of a harmonic float heave
/// follows the convolution of the same span within 0.5 % of its peak on the float and spar heave
/// rows (measured at 20 s: 0.27 % and 0.25 %; at the earlier target 0.999 it was 0.98 %, which
/// moved the coupled heave by up to 0.5 %: docs/performance.md).
#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn rm3_identified_state_space_meets_the_fit_target_entry_by_entry() {
    let data = load();
    let irf = Irf::from_bodies(&data.bodies).expect("IRF");
    for span in [None, Some(20.0)] {
        let options = FitOptions { span, ..FitOptions::default() };
        let id = identify(&irf, &options).expect("every entry reaches the target");
        println!("fit span {} s: {} entries, {} states", id.span, id.fits.len(), id.states());
        println!("| entry | order | quality |");
        for f in &id.fits {
            println!("| ({}, {}) | {} | {:.6} |", f.row, f.col, f.order, f.quality);
            assert!(f.order == 0 || f.quality >= 0.99999, "{f:?}");
            let a = &id.set.entry(f.row, f.col).expect("entry").a;
            assert!(
                f.order == 0 || a.complex_eigenvalues().iter().all(|l| l.re < 0.0),
                "unstable realisation of {f:?}"
            );
        }
        let mut ss = StateSpaceModel::new(&id.set, DT, Feedthrough::Ignored).expect("state-space model");
        let ss_run = run(&mut ss);
        let mut conv = DirectConvolution::new(&irf, DT, span).expect("convolution");
        let conv_run = run(&mut conv);
        for (row, name) in [(FLOAT_HEAVE, "float heave"), (SPAR_HEAVE, "spar heave (coupling)")] {
            let peak = conv_run.iter().map(|(_, f)| f[row].abs()).fold(0.0, f64::max);
            let gap = ss_run.iter().zip(&conv_run).map(|((_, a), (_, b))| (a[row] - b[row]).abs()).fold(0.0, f64::max);
            println!("  {name}: identified state space vs convolution {:.3} % of the peak", 100.0 * gap / peak);
            assert!(gap / peak < 0.005, "{name}: {gap} of {peak}");
        }
    }
}
