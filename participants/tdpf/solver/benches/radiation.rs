//! Cost per step (push + force) of the direct convolution against the state space for 12 DOFs
//! (two bodies, RM3-sized), dt = 0.01 s, IRF truncated at 60 s and 20 s. Synthetic IRFs, so no data
//! file is needed: every entry is a sum of three exponentially decaying cosines, realised exactly by
//! a 6th-order state space (RM3's file averages 5.4 states per entry). Two patterns: all 144 entries
//! (what the RM3 file holds, BEM noise included) and the 40 of two axisymmetric bodies (per 6 × 6 block the diagonal and surge–pitch, sway–roll).
//!
//! Run: `cargo bench -p tidelink-tdpf-solver --bench radiation`.

use nalgebra::DMatrix;
use std::hint::black_box;
use std::time::Instant;
use tidelink_hydro_data::StateSpaceEntry;
use tidelink_tdpf_solver::radiation::{
    DirectConvolution, Feedthrough, Irf, RadiationError, RadiationModel, StateSpaceModel, StateSpaceSet,
};

const DOFS: usize = 12;
const DT: f64 = 0.01;
/// File-like IRF grid: 0..=60 s every 0.05 s.
const SPAN: f64 = 60.0;
const SAMPLES: usize = 1201;

/// Three `(a, b, ω)` terms `a e^{−bt} cos ωt` of entry `(r, c)`; decays over ~20–40 s.
fn terms(r: usize, c: usize) -> [(f64, f64, f64); 3] {
    let s = 1.0 + 0.1 * ((r * 7 + c * 3) % 11) as f64;
    [(1.0e5 * s, 0.15 * s, 0.6), (-4.0e4 * s, 0.3, 1.4 * s), (2.0e4, 0.5 * s, 2.5)]
}

/// Nonzero pattern of two axisymmetric bodies per 6 × 6 block: heave, yaw and the surge–pitch,
/// sway–roll pairs; `dense` keeps every entry.
fn active(r: usize, c: usize, dense: bool) -> bool {
    let (i, j) = (r % 6, c % 6);
    dense || i == j || matches!((i, j), (0, 4) | (4, 0) | (1, 3) | (3, 1))
}

fn irf(dense: bool) -> Result<Irf, RadiationError> {
    let t: Vec<f64> = (0..SAMPLES).map(|s| SPAN * s as f64 / (SAMPLES - 1) as f64).collect();
    let k = t
        .iter()
        .map(|&x| {
            DMatrix::from_fn(DOFS, DOFS, |r, c| {
                if !active(r, c, dense) {
                    return 0.0;
                }
                terms(r, c).iter().map(|(a, b, w)| a * (-b * x).exp() * (w * x).cos()).sum()
            })
        })
        .collect();
    Irf::new(t, k)
}

/// Block-diagonal realisation of the three terms: `[[−b, −ω], [ω, −b]]`, `B = [1, 0]`, `C = [a, 0]`.
fn realisation(r: usize, c: usize, dense: bool) -> StateSpaceEntry {
    if !active(r, c, dense) {
        return StateSpaceEntry { a: DMatrix::zeros(0, 0), b: DMatrix::zeros(0, 1), c: DMatrix::zeros(1, 0), d: 0.0 };
    }
    let mut a = DMatrix::zeros(6, 6);
    let mut b = DMatrix::zeros(6, 1);
    let mut cm = DMatrix::zeros(1, 6);
    for (q, (amp, decay, w)) in terms(r, c).into_iter().enumerate() {
        let i = 2 * q;
        a[(i, i)] = -decay;
        a[(i + 1, i + 1)] = -decay;
        a[(i, i + 1)] = -w;
        a[(i + 1, i)] = w;
        b[(i, 0)] = 1.0;
        cm[(0, i)] = amp;
    }
    StateSpaceEntry { a, b, c: cm, d: 0.0 }
}

fn state_space(dense: bool) -> Result<StateSpaceSet, RadiationError> {
    StateSpaceSet::new((0..DOFS).map(|r| (0..DOFS).map(|c| realisation(r, c, dense)).collect()).collect())
}

/// Repetitions of each measurement; the best is reported (the machine may be shared).
const REPEATS: usize = 5;

/// Nanoseconds per push + force, after a warm-up that wraps the history at least once; the best of
/// [`REPEATS`] runs of `steps` steps.
fn ns_per_step(model: &mut dyn RadiationModel, warm: usize, steps: usize) -> Result<f64, RadiationError> {
    let mut v = [0.0; DOFS];
    let mut f = [0.0; DOFS];
    let mut k = 0usize;
    let mut step = |model: &mut dyn RadiationModel| -> Result<(), RadiationError> {
        let t = k as f64 * DT;
        for (i, x) in v.iter_mut().enumerate() {
            *x = (0.8 * t + i as f64).sin();
        }
        model.push(black_box(&v))?;
        model.force(&mut f)?;
        black_box(&f);
        k += 1;
        Ok(())
    };
    for _ in 0..warm {
        step(model)?;
    }
    let mut best = f64::INFINITY;
    for _ in 0..REPEATS {
        let start = Instant::now();
        for _ in 0..steps {
            step(model)?;
        }
        best = best.min(start.elapsed().as_nanos() as f64 / steps as f64);
    }
    Ok(best)
}

fn main() -> Result<(), RadiationError> {
    println!("radiation memory, {DOFS} DOFs, dt = {DT} s: ns per step (push + force)");
    for dense in [true, false] {
        let irf = irf(dense)?;
        let set = state_space(dense)?;
        let mut ss = StateSpaceModel::new(&set, DT, Feedthrough::Ignored)?;
        let ss_ns = ns_per_step(&mut ss, 1000, 10_000)?;
        let pattern = if dense { "all 144 entries" } else { "40 entries (axisymmetric pattern)" };
        println!("{pattern}:");
        println!("  state space, {} entries, {} states: {ss_ns:10.0} ns  (1.00×)", ss.active_entries(), ss.states());
        for truncation in [60.0, 20.0] {
            let mut conv = DirectConvolution::new(&irf, DT, Some(truncation))?;
            let warm = conv.lags() + 500;
            let steps = (1.5e8 / (conv.lags() * conv.nonzero_entries()) as f64).clamp(100.0, 20_000.0) as usize;
            let ns = ns_per_step(&mut conv, warm, steps)?;
            println!(
                "  convolution T = {truncation:2} s, {} lags, {} entries: {ns:10.0} ns  ({:.1}× the state space)",
                conv.lags(),
                conv.nonzero_entries(),
                ns / ss_ns
            );
        }
    }
    Ok(())
}
