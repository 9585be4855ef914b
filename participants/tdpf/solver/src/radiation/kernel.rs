//! The full 6N × 6N radiation impulse response `K(t)` of all bodies, validated once.

use super::RadiationError;
use nalgebra::DMatrix;
use tidelink_hydro_data::{BodyHydro, RadiationIrf};

/// `K(t)` of all `dofs` DOFs on the file's grid `t` (from 0, strictly increasing), SI units.
/// Row block `6i..6i+6` is body `i`'s IRF; columns span every body (full coupling).
#[derive(Debug, Clone)]
pub struct Irf {
    t: Vec<f64>,
    k: Vec<DMatrix<f64>>,
    dofs: usize,
}

impl Irf {
    /// Checks a square IRF: `t[0] = 0` (to 1e-9 of the span), strictly increasing, one `dofs × dofs`
    /// finite matrix per sample.
    pub fn new(t: Vec<f64>, k: Vec<DMatrix<f64>>) -> Result<Self, RadiationError> {
        check_grid(&t)?;
        if k.len() != t.len() {
            return Err(RadiationError::IrfSampleCount { times: t.len(), matrices: k.len() });
        }
        let dofs = k[0].nrows();
        for (s, m) in k.iter().enumerate() {
            if m.nrows() != dofs || m.ncols() != dofs || dofs == 0 {
                return Err(RadiationError::Shape {
                    what: format!("IRF sample {s}"),
                    rows: m.nrows(),
                    cols: m.ncols(),
                    expected_rows: dofs.max(1),
                    expected_cols: dofs.max(1),
                });
            }
            if m.iter().any(|x| !x.is_finite()) {
                return Err(RadiationError::NonFinite(format!("IRF sample {s}")));
            }
        }
        Ok(Self { t, k, dofs })
    }

    /// Stacks the per-body `6 × 6N` IRFs (body `i` gives rows `6i..6i+6`); every body must have
    /// an IRF on the same time grid, as BEMIO writes them.
    pub fn from_bodies(bodies: &[BodyHydro]) -> Result<Self, RadiationError> {
        let irfs = bodies
            .iter()
            .enumerate()
            .map(|(i, b)| b.radiation_irf.as_ref().ok_or(RadiationError::MissingIrf(i)))
            .collect::<Result<Vec<&RadiationIrf>, _>>()?;
        Self::from_irfs(&irfs)
    }

    /// As [`Irf::from_bodies`] from the IRFs alone (body order = slice order).
    pub fn from_irfs(irfs: &[&RadiationIrf]) -> Result<Self, RadiationError> {
        let first = irfs.first().ok_or(RadiationError::NoBodies)?;
        let dofs = 6 * irfs.len();
        let t = first.t.clone();
        for (i, irf) in irfs.iter().enumerate().skip(1) {
            if irf.t.len() != t.len() || irf.t.iter().zip(&t).any(|(a, b)| (a - b).abs() > 1e-9 * (1.0 + b.abs())) {
                return Err(RadiationError::IrfGridMismatch { body: i });
            }
        }
        let mut k = Vec::with_capacity(t.len());
        for s in 0..t.len() {
            let mut m = DMatrix::zeros(dofs, dofs);
            for (i, irf) in irfs.iter().enumerate() {
                let block =
                    irf.k.get(s).ok_or(RadiationError::IrfSampleCount { times: t.len(), matrices: irf.k.len() })?;
                if block.nrows() != 6 || block.ncols() != dofs {
                    return Err(RadiationError::Shape {
                        what: format!("body {i} IRF sample {s}"),
                        rows: block.nrows(),
                        cols: block.ncols(),
                        expected_rows: 6,
                        expected_cols: dofs,
                    });
                }
                m.view_mut((6 * i, 0), (6, dofs)).copy_from(block);
            }
            k.push(m);
        }
        Self::new(t, k)
    }

    /// Number of DOFs `6N` (rows and columns of `K`).
    pub fn dofs(&self) -> usize {
        self.dofs
    }

    /// Last time of the grid: the default truncation time.
    pub fn span(&self) -> f64 {
        self.t[self.t.len() - 1]
    }

    /// The file's time grid.
    pub fn times(&self) -> &[f64] {
        &self.t
    }

    /// The file's samples (`dofs × dofs` each).
    pub fn samples(&self) -> &[DMatrix<f64>] {
        &self.k
    }

    /// `K_rc(τ)` by linear interpolation between grid samples; held at the last sample for
    /// `τ ≥ span` (used only within half a step of the span) and 0 for `τ < 0`.
    pub fn entry_at(&self, r: usize, c: usize, tau: f64) -> f64 {
        if tau < 0.0 {
            return 0.0;
        }
        let last = self.t.len() - 1;
        if tau >= self.t[last] {
            return self.k[last][(r, c)];
        }
        // First index with t > tau (≥ 1 since t[0] = 0 ≤ tau).
        let hi = self.t.partition_point(|&x| x <= tau).max(1);
        let lo = hi - 1;
        let w = (tau - self.t[lo]) / (self.t[hi] - self.t[lo]);
        (1.0 - w) * self.k[lo][(r, c)] + w * self.k[hi][(r, c)]
    }

    /// Largest `|K_rc(t)|` over the file's samples.
    pub fn entry_peak(&self, r: usize, c: usize) -> f64 {
        self.k.iter().map(|m| m[(r, c)].abs()).fold(0.0, f64::max)
    }

    /// Whether entry `(r, c)` may be skipped: its peak is at most `tol·√(peak_rr·peak_cc)` (a
    /// unit-free test, like a correlation). `tol = 0` skips only entries that are zero throughout.
    pub fn negligible(&self, r: usize, c: usize, tol: f64) -> bool {
        let peak = self.entry_peak(r, c);
        peak == 0.0 || peak <= tol * (self.entry_peak(r, r) * self.entry_peak(c, c)).sqrt()
    }
}

fn check_grid(t: &[f64]) -> Result<(), RadiationError> {
    if t.len() < 2 {
        return Err(RadiationError::IrfTooShort(t.len()));
    }
    for (s, w) in t.windows(2).enumerate() {
        if w[1].partial_cmp(&w[0]) != Some(std::cmp::Ordering::Greater) || !w[1].is_finite() {
            return Err(RadiationError::IrfGrid(s + 1));
        }
    }
    let span = t[t.len() - 1] - t[0];
    if !t[0].is_finite() || t[0].abs() > 1e-9 * span {
        return Err(RadiationError::IrfStart(t[0]));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(t: &[f64], k: &[f64]) -> Result<Irf, RadiationError> {
        Irf::new(t.to_vec(), k.iter().map(|&x| DMatrix::from_element(1, 1, x)).collect())
    }

    #[test]
    fn interpolates_linearly_and_holds_at_the_end() {
        let irf = scalar(&[0.0, 1.0, 3.0], &[2.0, 4.0, 0.0]).expect("valid");
        assert_eq!(irf.entry_at(0, 0, 0.0), 2.0);
        assert!((irf.entry_at(0, 0, 0.25) - 2.5).abs() < 1e-15);
        assert!((irf.entry_at(0, 0, 2.0) - 2.0).abs() < 1e-15);
        assert_eq!(irf.entry_at(0, 0, 3.5), 0.0);
        assert_eq!(irf.entry_at(0, 0, -0.1), 0.0);
    }

    #[test]
    fn rejects_bad_grids() {
        assert_eq!(scalar(&[0.1, 1.0], &[1.0, 1.0]).unwrap_err(), RadiationError::IrfStart(0.1));
        assert_eq!(scalar(&[0.0, 1.0, 1.0], &[1.0; 3]).unwrap_err(), RadiationError::IrfGrid(2));
        assert_eq!(scalar(&[0.0], &[1.0]).unwrap_err(), RadiationError::IrfTooShort(1));
        assert!(matches!(scalar(&[0.0, 1.0], &[1.0]), Err(RadiationError::IrfSampleCount { .. })));
        assert!(matches!(scalar(&[0.0, 1.0], &[1.0, f64::NAN]), Err(RadiationError::NonFinite(_))));
    }

    #[test]
    fn stacks_body_blocks() {
        let t = vec![0.0, 1.0];
        let block = |v: f64| DMatrix::from_fn(6, 12, |r, c| v + (r * 12 + c) as f64);
        let a = RadiationIrf { t: t.clone(), k: vec![block(0.0), block(1000.0)] };
        let b = RadiationIrf { t: t.clone(), k: vec![block(500.0), block(2000.0)] };
        let irf = Irf::from_irfs(&[&a, &b]).expect("valid");
        assert_eq!(irf.dofs(), 12);
        assert_eq!(irf.samples()[1][(7, 3)], 2000.0 + 15.0);
        assert_eq!(irf.samples()[0][(2, 11)], 35.0);
        assert!(!irf.negligible(7, 3, 0.0) && irf.negligible(7, 3, 1e3));
        let short = RadiationIrf { t: vec![0.0, 2.0], k: a.k.clone() };
        assert_eq!(Irf::from_irfs(&[&a, &short]).unwrap_err(), RadiationError::IrfGridMismatch { body: 1 });
    }
}
