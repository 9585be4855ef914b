//! Direct convolution of the IRF with the velocity history at a fixed step (WEC-Sim's CIC manner).
//!
//! `K` is resampled onto `τ_s = s·dt`, `s = 0..=n`, `n = round(T/dt)`, by **linear interpolation**
//! of the file's samples (held at the last sample for the at most `dt/2` by which `n·dt` may pass
//! the span). The trapezoid rule then gives
//! `F(t_k) = −Σ_s w_s K(τ_s) v(t_k − τ_s)`, `w_0 = w_n = dt/2`, `w_s = dt` otherwise, `v = 0` before 0.
//! Entries of `K` that are zero at every file sample are skipped, and optionally those below a
//! relative tolerance ([`Irf::negligible`]; BEM noise in entries that symmetry makes zero).

use super::dot::dot_rows;
use super::{check_dt, Irf, PushClock, RadiationError, RadiationModel, RadiationState};

/// The convolution state: weighted kernel and velocity ring buffer, both contiguous and allocated
/// once, so a step costs one dot product of length `n + 1` per nonzero IRF entry and no allocation.
#[derive(Debug, Clone)]
pub struct DirectConvolution {
    /// DOF count, step and pushes.
    clock: PushClock,
    /// Number of slots `n + 1` of the history (lags 0..=n).
    len: usize,
    /// Nonzero entries `(row, col)` of `K`, column-major order (entries of one column share the
    /// history of that velocity).
    entries: Vec<(usize, usize)>,
    /// Per column with nonzero entries: `(col, first entry, one past the last entry)`.
    columns: Vec<(usize, usize, usize)>,
    /// Per entry `e`, `len` values `w_{n−m} K_e(τ_{n−m})` for `m = 0..len` (lag reversed, so the
    /// oldest velocity meets the first value).
    kernel: Vec<f64>,
    /// Velocity history `[dof][slot]`, `dofs × len`; `v(t_j)` sits in slot `j mod len`.
    history: Vec<f64>,
}

impl DirectConvolution {
    /// Resamples `irf` for step `dt`, truncated at `truncation` (default: the IRF span). The
    /// effective truncation is `round(T/dt)·dt`.
    pub fn new(irf: &Irf, dt: f64, truncation: Option<f64>) -> Result<Self, RadiationError> {
        Self::with_tolerance(irf, dt, truncation, 0.0)
    }

    /// As [`DirectConvolution::new`], also skipping the entries that [`Irf::negligible`] finds
    /// below `tol` (e.g. 1e-3: symmetry-zero entries of axisymmetric bodies; fewer dot products).
    pub fn with_tolerance(irf: &Irf, dt: f64, truncation: Option<f64>, tol: f64) -> Result<Self, RadiationError> {
        check_dt(dt)?;
        let span = irf.span();
        let t_end = truncation.unwrap_or(span);
        if !(t_end > 0.0 && t_end.is_finite()) {
            return Err(RadiationError::NonPositiveTruncation(t_end));
        }
        if t_end > span * (1.0 + 1e-9) {
            return Err(RadiationError::TruncationBeyondIrf { truncation: t_end, span });
        }
        let n = (t_end / dt).round();
        if n < 1.0 {
            return Err(RadiationError::TruncationBelowStep { truncation: t_end, dt });
        }
        // Kernel plus history must stay allocatable (2³¹ values = 16 GiB is far beyond any use).
        if n * (irf.dofs() * irf.dofs() + irf.dofs()) as f64 > 2f64.powi(31) {
            return Err(RadiationError::TooManyLags { lags: n });
        }
        let n = n as usize;
        let len = n + 1;
        let dofs = irf.dofs();
        let entries: Vec<(usize, usize)> = (0..dofs)
            .flat_map(|c| (0..dofs).map(move |r| (r, c)))
            .filter(|&(r, c)| !irf.negligible(r, c, tol.max(0.0)))
            .collect();
        let mut kernel = vec![0.0; entries.len() * len];
        for (e, &(r, c)) in entries.iter().enumerate() {
            let row = &mut kernel[e * len..(e + 1) * len];
            for (m, value) in row.iter_mut().enumerate() {
                let s = n - m;
                let w = if s == 0 || s == n { 0.5 * dt } else { dt };
                *value = w * irf.entry_at(r, c, s as f64 * dt);
            }
        }
        let mut columns: Vec<(usize, usize, usize)> = Vec::new();
        for (e, &(_, c)) in entries.iter().enumerate() {
            match columns.last_mut() {
                Some(last) if last.0 == c => last.2 = e + 1,
                _ => columns.push((c, e, e + 1)),
            }
        }
        let history = vec![0.0; dofs * len];
        Ok(Self { clock: PushClock::new(dofs, dt), len, entries, columns, kernel, history })
    }

    /// Number of lags `n` beyond zero (the kernel has `n + 1` samples).
    pub fn lags(&self) -> usize {
        self.len - 1
    }

    /// Effective truncation time `n·dt` (s).
    pub fn truncation(&self) -> f64 {
        self.lags() as f64 * self.clock.dt
    }

    /// Number of IRF entries actually convolved (those neither zero throughout nor below the tolerance).
    pub fn nonzero_entries(&self) -> usize {
        self.entries.len()
    }
}

impl RadiationModel for DirectConvolution {
    fn clock(&self) -> &PushClock {
        &self.clock
    }

    fn push(&mut self, v: &[f64]) -> Result<(), RadiationError> {
        self.clock.check_velocity(v)?;
        let slot = self.clock.pushes % self.len;
        for (c, &x) in v.iter().enumerate() {
            self.history[c * self.len + slot] = x;
        }
        self.clock.pushes += 1;
        Ok(())
    }

    fn force(&self, out: &mut [f64]) -> Result<(), RadiationError> {
        self.clock.check_force(out)?;
        // Oldest kept time t_{k−n} sits in slot (k + 1) mod len = pushes mod len.
        let p = self.clock.pushes % self.len;
        let split = self.len - p;
        out.fill(0.0);
        for &(c, first, end) in &self.columns {
            let h = &self.history[c * self.len..(c + 1) * self.len];
            let (older, newer) = (&h[p..], &h[..p]);
            let mut e = first;
            while e < end {
                let take = (end - e).min(4);
                match take {
                    4 => self.rows::<4>(e, older, newer, split, out),
                    3 => self.rows::<3>(e, older, newer, split, out),
                    2 => self.rows::<2>(e, older, newer, split, out),
                    _ => self.rows::<1>(e, older, newer, split, out),
                }
                e += take;
            }
        }
        Ok(())
    }

    fn save_state(&self) -> RadiationState {
        RadiationState::new(self.clock.pushes, self.history.clone())
    }

    fn restore_state(&mut self, state: &RadiationState) -> Result<(), RadiationError> {
        let n = self.history.len();
        self.history.copy_from_slice(state.values(n)?);
        self.clock.pushes = state.pushes;
        Ok(())
    }

    fn reset(&mut self) {
        self.history.fill(0.0);
        self.clock.pushes = 0;
    }
}

impl DirectConvolution {
    /// Subtracts from `out` the sums of the `R` entries from `first` (one column): the lag-reversed
    /// kernel's head meets the older history segment (slots `p..`), its tail the newer (`..p`).
    #[inline]
    fn rows<const R: usize>(&self, first: usize, older: &[f64], newer: &[f64], split: usize, out: &mut [f64]) {
        let ks: [&[f64]; R] = std::array::from_fn(|j| &self.kernel[(first + j) * self.len..(first + j + 1) * self.len]);
        let mut acc = [0.0; R];
        dot_rows(ks.map(|k| &k[..split]), older, &mut acc);
        dot_rows(ks.map(|k| &k[split..]), newer, &mut acc);
        for (j, a) in acc.iter().enumerate() {
            out[self.entries[first + j].0] -= a;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    /// Scalar IRF `a e^{−bt}` on `0..=span` with `samples` points.
    pub(crate) fn exp_irf(a: f64, b: f64, span: f64, samples: usize) -> Irf {
        let t: Vec<f64> = (0..samples).map(|i| span * i as f64 / (samples - 1) as f64).collect();
        let k = t.iter().map(|&x| DMatrix::from_element(1, 1, a * (-b * x).exp())).collect();
        Irf::new(t, k).expect("valid IRF")
    }

    #[test]
    fn step_response_matches_analytic_within_trapezoid_bound() {
        // F(t) = −(a/b)(1 − e^{−bt}) for v = 1 (t ≥ 0). The discrete sum differs by the trapezoid
        // error (≤ a·b·dt²/12 · e^{b dt}) plus half a sample a·e^{−bt}·dt/2: v is taken as a ramp
        // from 0 at −dt to 1 at 0, so the newest sample carries a full weight dt, not dt/2.
        let (a, b, dt) = (3.0, 0.7, 0.01);
        let irf = exp_irf(a, b, 40.0, 40_001);
        let mut conv = DirectConvolution::new(&irf, dt, None).expect("model");
        let mut f = [0.0];
        let mut worst: f64 = 0.0;
        for k in 0..3000 {
            conv.push(&[1.0]).expect("push");
            conv.force(&mut f).expect("force");
            let t = k as f64 * dt;
            let exact = -(a / b) * (1.0 - (-b * t).exp());
            let bound = a * b * dt * dt / 12.0 * (b * dt).exp() + a * (-b * t).exp() * dt / 2.0 + 1e-12;
            let err = (f[0] - exact).abs();
            assert!(err <= bound, "t = {t}: err {err:e} > bound {bound:e}");
            // With the half-sample taken out only the O(dt²) trapezoid error remains.
            let corrected = (f[0] + a * (-b * t).exp() * dt / 2.0 - exact).abs();
            assert!(corrected <= a * b * dt * dt / 12.0 * (b * dt).exp() + 1e-12, "t = {t}: {corrected:e}");
            worst = worst.max(corrected);
        }
        println!(
            "step: worst |F + a e^(-bt) dt/2 - exact| = {worst:.2e}, bound {:.2e}",
            a * b * dt * dt / 12.0 * (b * dt).exp()
        );
        assert!(worst > 0.0);
    }

    #[test]
    fn sine_response_matches_frequency_domain() {
        // v = sin ωt, steady state: −∫_0^∞ a e^{−bτ} sin ω(t−τ) dτ = −a/(b²+ω²)·(b sin ωt − ω cos ωt)
        // (the truncation tail is below a·e^{−bT}/b).
        let (a, b, w, dt) = (2.0, 1.0, 0.8, 0.01);
        let irf = exp_irf(a, b, 40.0, 4001);
        let mut conv = DirectConvolution::new(&irf, dt, None).expect("model");
        let mut f = [0.0];
        let amp = a / (b * b + w * w).sqrt();
        let mut worst: f64 = 0.0;
        for k in 0..8000 {
            let t = k as f64 * dt;
            conv.push(&[(w * t).sin()]).expect("push");
            conv.force(&mut f).expect("force");
            if t > 45.0 {
                let exact = -a / (b * b + w * w) * (b * (w * t).sin() - w * (w * t).cos());
                worst = worst.max((f[0] - exact).abs() / amp);
            }
        }
        // Trapezoid error ≈ (b² + ω²)·dt²/12 = 1.37e-5 relative (the 0.01 s grid needs no resampling).
        println!("convolution, sine: worst relative error {worst:.2e}");
        assert!(worst < 3e-5, "relative error {worst:e}");
    }

    #[test]
    fn truncation_ignores_the_tail() {
        // K = 1 on [0, 2] then 5 on the tail; with T = 1 the step response saturates at −1.
        let t = vec![0.0, 2.0, 2.0 + 1e-6, 4.0];
        let k = [1.0, 1.0, 5.0, 5.0].iter().map(|&x| DMatrix::from_element(1, 1, x)).collect();
        let irf = Irf::new(t, k).expect("valid");
        let mut conv = DirectConvolution::new(&irf, 0.1, Some(1.0)).expect("model");
        assert_eq!(conv.lags(), 10);
        let mut f = [0.0];
        for _ in 0..100 {
            conv.push(&[1.0]).expect("push");
        }
        conv.force(&mut f).expect("force");
        assert!((f[0] + 1.0).abs() < 1e-12, "{}", f[0]);
        let mut full = DirectConvolution::new(&irf, 0.1, None).expect("model");
        for _ in 0..100 {
            full.push(&[1.0]).expect("push");
        }
        full.force(&mut f).expect("force");
        assert!(f[0] < -9.0, "the full IRF sees the tail: {}", f[0]);
    }

    #[test]
    fn reports_bad_inputs() {
        let irf = exp_irf(1.0, 1.0, 10.0, 11);
        assert_eq!(DirectConvolution::new(&irf, 0.0, None).unwrap_err(), RadiationError::NonPositiveStep(0.0));
        assert_eq!(
            DirectConvolution::new(&irf, 0.1, Some(-1.0)).unwrap_err(),
            RadiationError::NonPositiveTruncation(-1.0)
        );
        assert!(matches!(
            DirectConvolution::new(&irf, 0.1, Some(11.0)),
            Err(RadiationError::TruncationBeyondIrf { .. })
        ));
        assert!(matches!(
            DirectConvolution::new(&irf, 1.0, Some(0.4)),
            Err(RadiationError::TruncationBelowStep { .. })
        ));
        assert!(matches!(DirectConvolution::new(&irf, 1e-12, None), Err(RadiationError::TooManyLags { .. })));
        let mut conv = DirectConvolution::new(&irf, 0.1, None).expect("model");
        let mut f = [0.0; 2];
        assert_eq!(conv.force(&mut f[..1]).unwrap_err(), RadiationError::NoVelocity);
        assert_eq!(conv.push(&[1.0, 2.0]).unwrap_err(), RadiationError::VelocityLength { got: 2, expected: 1 });
        conv.push(&[1.0]).expect("push");
        assert_eq!(conv.force(&mut f).unwrap_err(), RadiationError::ForceLength { got: 2, expected: 1 });
        assert_eq!(conv.time(), Some(0.0));
        conv.reset();
        assert_eq!(conv.time(), None);
    }
}
