//! Our own state-space identification of the radiation impulse response, entry by entry: the
//! eigensystem realisation algorithm (ERA, Juang & Pappa 1985) on the sampled `K_rc(t)`, the
//! order chosen as the smallest that reaches the fit target, a stable realisation enforced, and
//! the result in continuous time so that [`super::StateSpaceModel`] discretises it for any step.
//!
//! Per nonzero entry `k(t) = K_rc(t)` on `[0, T]` (`T` the fit span):
//! 1. `k` sampled at `h = T/(P + Q)` (`P` Hankel rows, `Q` columns) and the Hankel matrices
//!    `H0[i][j] = k((i+j)h)`, `H1[i][j] = k((i+j+1)h)`;
//! 2. `H0 = U Σ Vᵀ`; for order `n`: `A_d = Σₙ^{-1/2} Uₙᵀ H1 Vₙ Σₙ^{-1/2}`, `B = Σₙ^{1/2} Vₙᵀ e₁`,
//!    `C = e₁ᵀ Uₙ Σₙ^{1/2}`, so that `C A_dˢ B ≈ k(s h)`;
//! 3. refused unless every eigenvalue of `A_d` lies strictly inside the unit circle (a stable
//!    realisation: `A = log(A_d)/h` then has its eigenvalues in the open left half plane) and off
//!    the negative real axis (where no real logarithm exists);
//! 4. `A = log(A_d)/h` ([`super::logm`]), `D = 0`: `K̂(t) = C e^{At} B`;
//! 5. the fit quality on a fine grid of `[0, T]` (the file's own sample spacing) against the IRF
//!    the convolution uses (linear interpolation of the file's samples):
//!    `q = 1 − Σ (k − K̂)² / max(Σ (k − k̄)², ε·√(S_rr S_cc))`, `S_dd` the diagonal entries' sums of
//!    squares, each at least `ε` times the largest (a DOF whose own IRF is 10⁻³ of the strongest in
//!    amplitude, e.g. the yaw of an axisymmetric body, is itself noise and is judged at that level).
//!    For an entry that matters this is R²; for an entry that is only BEM noise (a symmetry zero
//!    of an axisymmetric body, five orders below its diagonal) the error is measured against the
//!    scale at which it could enter the force (`ε = 10⁻⁶`, i.e. 10⁻³ of the diagonal entries'
//!    amplitude), so noise need not be reproduced to R² of itself.
//!
//! The smallest order with `q ≥ target` is taken (order 0, the entry left out, when that already
//! reaches it: noise far below the force's scale); an entry that no order up to the maximum brings
//! to the target is a [`RadiationError::FitTarget`], so the caller can fall back to the convolution.

use super::logm::logm;
use super::{Irf, RadiationError, StateSpaceSet};
use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;
use tidelink_hydro_data::StateSpaceEntry;

/// Version of what [`identify`] returns for given inputs (its algorithm and the constants below).
/// Stores of earlier results (the TDPF participant's realisation cache) key on it: bump it with any
/// change that can alter a single bit of an [`Identified`], so that no stale realisation is reused.
pub const IDENTIFY_VERSION: u32 = 1;

/// Rows of the Hankel matrix (the largest order it can hold is one less).
const HANKEL_ROWS: usize = 150;
/// Samples of the fit span fed to ERA (rows + columns).
const ERA_SAMPLES: usize = 450;
/// Entries whose peak is below this fraction of the geometric mean of their diagonal peaks are
/// left out ([`Irf::negligible`]).
const NEGLIGIBLE: f64 = 1e-3;
/// Relative weight of an entry's error against the scale of its row's and column's diagonal
/// entries (sums of squares; 10⁻⁶ is 10⁻³ in amplitude), see the module docs.
const NOISE_SCALE: f64 = 1e-6;

/// What the identification aims for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitOptions {
    /// Fit quality every entry must reach (R² of the IRF for the entries that matter).
    pub target: f64,
    /// Largest order tried per entry.
    pub max_order: usize,
    /// Fit span `T` (s); `None` is the IRF's span.
    pub span: Option<f64>,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions { target: 0.99999, max_order: 24, span: None }
    }
}

/// The outcome for one entry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EntryFit {
    /// Row of `K` (the DOF the force acts on).
    pub row: usize,
    /// Column of `K` (the DOF whose velocity drives it).
    pub col: usize,
    /// Order of the realisation (0: the entry is zero throughout).
    pub order: usize,
    /// Fit quality (see the module docs); NaN for an entry left out as negligible.
    pub quality: f64,
}

/// Realisations of every entry with their fit qualities.
#[derive(Debug, Clone)]
pub struct Identified {
    /// The realisations, ready for [`super::StateSpaceModel`].
    pub set: StateSpaceSet,
    /// One record per nonzero entry.
    pub fits: Vec<EntryFit>,
    /// The fit span used (s).
    pub span: f64,
}

impl Identified {
    /// The fitted entry with the lowest quality.
    pub fn worst(&self) -> Option<&EntryFit> {
        self.fits.iter().filter(|f| f.order > 0).min_by(|a, b| a.quality.total_cmp(&b.quality))
    }

    /// Total state dimension `Σ order`.
    pub fn states(&self) -> usize {
        self.fits.iter().map(|f| f.order).sum()
    }
}

/// Identifies every nonzero entry of `irf`; fails on the first entry that misses the target.
pub fn identify(irf: &Irf, options: &FitOptions) -> Result<Identified, RadiationError> {
    let span = options.span.unwrap_or(irf.span());
    if !(span > 0.0 && span.is_finite()) {
        return Err(RadiationError::NonPositiveTruncation(span));
    }
    if span > irf.span() * (1.0 + 1e-9) {
        return Err(RadiationError::TruncationBeyondIrf { truncation: span, span: irf.span() });
    }
    let dofs = irf.dofs();
    // The quality grid: the file's mean spacing over the span (at least 200 points).
    let file_points = irf.times().iter().filter(|&&t| t <= span * (1.0 + 1e-12)).count();
    let nq = file_points.max(200);
    let hq = span / (nq - 1) as f64;
    let sampled: Vec<Vec<f64>> =
        (0..dofs * dofs).map(|e| (0..nq).map(|i| irf.entry_at(e / dofs, e % dofs, i as f64 * hq)).collect()).collect();
    let sum_sq = |e: usize| sampled[e].iter().map(|x| x * x).sum::<f64>();
    let strongest = (0..dofs).map(|d| sum_sq(d * dofs + d)).fold(0.0, f64::max);
    let empty =
        || StateSpaceEntry { a: DMatrix::zeros(0, 0), b: DMatrix::zeros(0, 1), c: DMatrix::zeros(1, 0), d: 0.0 };
    // What each entry needs, in row-major order: nothing (zero throughout), to be left out as
    // negligible, or a fit. Only the fits cost (an SVD and up to `max_order` candidates each).
    let need = |r: usize, c: usize| {
        if sampled[r * dofs + c].iter().all(|&x| x == 0.0) {
            Need::Zero
        } else if irf.negligible(r, c, NEGLIGIBLE) {
            // BEM noise in an entry symmetry makes zero: left out, as the convolution's
            // `entry_tolerance` would (on RM3 that changes the force by 6e-5 of its peak).
            Need::Negligible
        } else {
            Need::Fit
        }
    };
    let plan: Vec<(usize, usize, Need)> =
        (0..dofs * dofs).map(|e| (e / dofs, e % dofs, need(e / dofs, e % dofs))).collect();
    // The fits are independent and deterministic: on all cores, each entry's result is the one a
    // sequential loop gives, bit for bit, and the first error in row-major order is reported.
    let fit = |&(r, c, _): &(usize, usize, Need)| {
        let diag = |d: usize| sum_sq(d * dofs + d).max(NOISE_SCALE * strongest);
        let scale = NOISE_SCALE * (diag(r) * diag(c)).sqrt();
        fit_entry(irf, r, c, span, &sampled[r * dofs + c], hq, scale, options)
    };
    let jobs: Vec<&(usize, usize, Need)> = plan.iter().filter(|p| p.2 == Need::Fit).collect();
    let mut fitted = jobs.par_iter().map(|p| fit(p)).collect::<Vec<_>>().into_iter();
    let mut entries = vec![vec![]; dofs];
    let mut fits = Vec::new();
    for &(r, c, need) in &plan {
        match need {
            Need::Zero => entries[r].push(empty()),
            Need::Negligible => {
                fits.push(EntryFit { row: r, col: c, order: 0, quality: f64::NAN });
                entries[r].push(empty());
            }
            Need::Fit => {
                let (entry, order, quality) = fitted.next().expect("one result per fit")?;
                fits.push(EntryFit { row: r, col: c, order, quality });
                entries[r].push(entry);
            }
        }
    }
    Ok(Identified { set: StateSpaceSet::new(entries)?, fits, span })
}

/// What an entry of the IRF needs from the identification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    /// Zero throughout: order 0, no record.
    Zero,
    /// Below [`NEGLIGIBLE`] of its diagonal entries: order 0, recorded.
    Negligible,
    /// A realisation.
    Fit,
}

/// The smallest-order stable realisation of entry `(r, c)` reaching the target.
#[allow(clippy::too_many_arguments)]
fn fit_entry(
    irf: &Irf,
    r: usize,
    c: usize,
    span: f64,
    reference: &[f64],
    hq: f64,
    scale: f64,
    options: &FitOptions,
) -> Result<(StateSpaceEntry, usize, f64), RadiationError> {
    let p = HANKEL_ROWS;
    let q = ERA_SAMPLES - p;
    let h = span / (p + q) as f64;
    let k: Vec<f64> = (0..=p + q).map(|s| irf.entry_at(r, c, s as f64 * h)).collect();
    let h0 = DMatrix::from_fn(p, q, |i, j| k[i + j]);
    let h1 = DMatrix::from_fn(p, q, |i, j| k[i + j + 1]);
    let svd = h0.svd(true, true);
    let (u, vt) = match (svd.u, svd.v_t) {
        (Some(u), Some(vt)) => (u, vt),
        _ => {
            return Err(RadiationError::FitTarget {
                row: r,
                col: c,
                quality: f64::NAN,
                target: options.target,
                order: 0,
            })
        }
    };
    // The singular values in descending order (nalgebra does not promise an order).
    let mut idx: Vec<usize> = (0..svd.singular_values.len()).collect();
    idx.sort_by(|&a, &b| svd.singular_values[b].total_cmp(&svd.singular_values[a]));
    let smax = svd.singular_values[idx[0]];
    let max_order = options.max_order.min(p - 1).min(idx.len());
    let sigma: Vec<f64> = idx[..max_order].iter().map(|&i| svd.singular_values[i]).collect();
    let un = DMatrix::from_fn(p, max_order, |i, j| u[(i, idx[j])]);
    let vn = DMatrix::from_fn(q, max_order, |i, j| vt[(idx[j], i)]);
    let full = un.transpose() * &h1 * &vn;
    let mean = reference.iter().sum::<f64>() / reference.len() as f64;
    let sst = reference.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
    let denom = sst.max(scale);
    // An entry so small that leaving it out already meets the target (BEM noise far below the
    // scale of the force) gets order 0.
    let dropped = 1.0 - reference.iter().map(|x| x * x).sum::<f64>() / denom;
    if dropped >= options.target {
        let empty =
            StateSpaceEntry { a: DMatrix::zeros(0, 0), b: DMatrix::zeros(0, 1), c: DMatrix::zeros(1, 0), d: 0.0 };
        return Ok((empty, 0, dropped));
    }
    let mut best: Option<(StateSpaceEntry, usize, f64)> = None;
    for n in 1..=max_order {
        if sigma[n - 1] <= 1e-14 * smax {
            break;
        }
        let is = |i: usize| 1.0 / sigma[i].sqrt();
        let ad = DMatrix::from_fn(n, n, |i, j| full[(i, j)] * is(i) * is(j));
        let b = DMatrix::from_fn(n, 1, |i, _| sigma[i].sqrt() * vn[(0, i)]);
        let cr = DMatrix::from_fn(1, n, |_, j| un[(0, j)] * sigma[j].sqrt());
        let eig = ad.complex_eigenvalues();
        let stable = eig.iter().all(|l| l.norm() < 1.0 - 1e-12 && !(l.im.abs() < 1e-12 && l.re <= 0.0));
        if !stable {
            continue;
        }
        let Some(a) = logm(&ad).map(|l| l / h) else { continue };
        let entry = StateSpaceEntry { a, b, c: cr, d: 0.0 };
        let sse = impulse_error(&entry, reference, hq);
        let quality = 1.0 - sse / denom;
        if !quality.is_finite() {
            continue;
        }
        if quality >= options.target {
            return Ok((entry, n, quality));
        }
        if best.as_ref().is_none_or(|b| quality > b.2) {
            best = Some((entry, n, quality));
        }
    }
    let (quality, order) = best.map(|b| (b.2, b.1)).unwrap_or((f64::NAN, 0));
    Err(RadiationError::FitTarget { row: r, col: c, quality, target: options.target, order })
}

/// `Σ (k(t_i) − C e^{A t_i} B)²` on the grid `t_i = i·hq`.
fn impulse_error(e: &StateSpaceEntry, reference: &[f64], hq: f64) -> f64 {
    let phi = (&e.a * hq).exp();
    let mut x = DVector::from_column_slice(e.b.as_slice());
    let c = DVector::from_column_slice(e.c.as_slice());
    let mut sse = 0.0;
    for &k in reference {
        sse += (k - c.dot(&x)).powi(2);
        x = &phi * x;
    }
    sse
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scalar IRF on `0..=span` with `samples` points.
    fn scalar_irf(span: f64, samples: usize, k: impl Fn(f64) -> f64) -> Irf {
        let t: Vec<f64> = (0..samples).map(|i| span * i as f64 / (samples - 1) as f64).collect();
        let m = t.iter().map(|&x| DMatrix::from_element(1, 1, k(x))).collect();
        Irf::new(t, m).expect("valid IRF")
    }

    #[test]
    fn a_damped_oscillation_is_found_at_order_two_with_its_poles() {
        // k = e^{−0.3 t} cos 2t is exactly order 2, poles −0.3 ± 2i. The file grid (1/60 s) holds
        // every ERA sample (h = 30/450 = 1/15 s), so no interpolation error enters.
        let irf = scalar_irf(30.0, 1801, |t| (-0.3 * t).exp() * (2.0 * t).cos());
        let id = identify(&irf, &FitOptions::default()).expect("identified");
        let fit = id.fits[0];
        assert_eq!(fit.order, 2, "{fit:?}");
        assert!(fit.quality > 1.0 - 1e-9, "{fit:?}");
        let a = &id.set.entry(0, 0).expect("entry").a;
        let eig = a.complex_eigenvalues();
        for l in eig.iter() {
            assert!((l.re + 0.3).abs() < 1e-6 && (l.im.abs() - 2.0).abs() < 1e-6, "pole {l}");
        }
    }

    #[test]
    fn a_sum_of_modes_reaches_the_target_with_a_stable_realisation() {
        // Not a finite-order system near t = 0 (a t·e^{−t} hump plus two modes): the order rises
        // until R² ≥ 0.9999, and every pole is in the left half plane.
        let k = |t: f64| {
            3.0 * t * (-1.5 * t).exp() + (-0.2 * t).exp() * (0.8 * t).sin() - 0.5 * (-0.05 * t).exp() * (3.0 * t).cos()
        };
        let irf = scalar_irf(40.0, 2001, k);
        let options = FitOptions { target: 0.9999, ..FitOptions::default() };
        let id = identify(&irf, &options).expect("identified");
        let fit = id.fits[0];
        assert!(fit.quality >= 0.9999 && fit.order >= 4, "{fit:?}");
        let a = &id.set.entry(0, 0).expect("entry").a;
        assert!(a.complex_eigenvalues().iter().all(|l| l.re < 0.0));
    }

    #[test]
    fn an_unreachable_target_is_an_error_naming_the_entry() {
        // White-noise-like samples cannot be fitted to R² 0.999 by order 4.
        let irf = scalar_irf(10.0, 1001, |t| ((t * 1234.5).sin() * 1e4).fract());
        let options = FitOptions { target: 0.999, max_order: 4, span: None };
        match identify(&irf, &options) {
            Err(RadiationError::FitTarget { row: 0, col: 0, quality, .. }) => assert!(quality < 0.999),
            other => panic!("expected FitTarget, got {other:?}"),
        }
    }

    #[test]
    fn the_entries_fitted_on_all_cores_are_those_of_one_thread_bit_for_bit() {
        // Four entries that each need a fit (and one left out), identified in a one-thread pool
        // and in a four-thread pool: every realisation and quality must be the same bits.
        let irf = crate::testing::three_dof_irf();
        let options = FitOptions { target: 0.9999, ..FitOptions::default() };
        let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().expect("a thread pool");
        let one = pool(1).install(|| identify(&irf, &options)).expect("identified");
        let four = pool(4).install(|| identify(&irf, &options)).expect("identified");
        assert_eq!(one.fits.len(), 5);
        assert!(one.fits.iter().filter(|f| f.order > 0).count() >= 4, "{:?}", one.fits);
        for (a, b) in one.fits.iter().zip(&four.fits) {
            assert_eq!((a.row, a.col, a.order), (b.row, b.col, b.order));
            assert_eq!(a.quality.to_bits(), b.quality.to_bits());
        }
        for r in 0..3 {
            for c in 0..3 {
                let (a, b) = (one.set.entry(r, c).expect("entry"), four.set.entry(r, c).expect("entry"));
                let bits = |m: &DMatrix<f64>| m.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!((bits(&a.a), bits(&a.b), bits(&a.c)), (bits(&b.a), bits(&b.b), bits(&b.c)), "({r}, {c})");
            }
        }
    }

    #[test]
    fn zero_entries_get_order_zero_and_no_record() {
        let t: Vec<f64> = (0..=200).map(|i| i as f64 * 0.05).collect();
        let k =
            t.iter().map(|&x: &f64| DMatrix::from_row_slice(2, 2, &[(-x).exp(), 0.0, 0.0, (-2.0 * x).exp()])).collect();
        let irf = Irf::new(t, k).expect("valid");
        let id = identify(&irf, &FitOptions { target: 0.99, ..FitOptions::default() }).expect("identified");
        assert_eq!(id.fits.len(), 2);
        assert_eq!(id.set.entry(0, 1).expect("entry").a.nrows(), 0);
    }
}
