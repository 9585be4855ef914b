//! Wave spectra S(ω) in m²·s/rad, so that irregular sea states can be synthesised from (Hs, Tp).
//!
//! Pierson–Moskowitz is taken in the Bretschneider (two-parameter, Hs–Tp) form that WEC-Sim uses
//! for `'PM'` and that HydroChrono's JONSWAP reduces to at γ = 1:
//! S_PM(ω) = (5/16) Hs² ω_p⁴ ω⁻⁵ exp(−(5/4)(ω_p/ω)⁴), ω_p = 2π/Tp. Its zeroth moment over (0, ∞) is
//! exactly Hs²/16. JONSWAP is S_J(ω) = α(γ) S_PM(ω) γ^r(ω), r = exp(−(ω/ω_p − 1)²/(2σ²)),
//! σ = 0.07 for ω ≤ ω_p and 0.09 above, with α(γ) computed numerically at construction so that
//! m0 = Hs²/16 exactly (rather than the approximate 1 − 0.287 ln γ).

use super::error::{positive, WaveError};
use std::f64::consts::PI;

/// Which spectral shape a [`Spectrum`] has.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SpectrumKind {
    /// Bretschneider's two-parameter form (WEC-Sim's `'PM'`): a fully developed sea.
    PiersonMoskowitz,
    /// Pierson–Moskowitz with a sharpened peak: a fetch-limited sea.
    Jonswap {
        /// Peak enhancement factor γ ≥ 1 (3.3, the JONSWAP mean, is usual; 1 is Pierson–Moskowitz).
        gamma: f64,
    },
}

/// A one-sided spectrum S(ω), normalised so that its zeroth moment is Hs²/16.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spectrum {
    kind: SpectrumKind,
    hs: f64,
    tp: f64,
    /// α: multiplies S_PM γ^r (1 for Pierson–Moskowitz).
    scale: f64,
}

impl Spectrum {
    /// Pierson–Moskowitz (Bretschneider form) from significant height `hs` (m) and peak period `tp` (s).
    pub fn pierson_moskowitz(hs: f64, tp: f64) -> Result<Self, WaveError> {
        Ok(Spectrum {
            kind: SpectrumKind::PiersonMoskowitz,
            hs: positive("Hs", hs)?,
            tp: positive("Tp", tp)?,
            scale: 1.0,
        })
    }

    /// JONSWAP with peak enhancement `gamma` ≥ 1 (3.3 is the classic North Sea value; 1 gives
    /// Pierson–Moskowitz), renormalised so m0 = Hs²/16.
    pub fn jonswap(hs: f64, tp: f64, gamma: f64) -> Result<Self, WaveError> {
        if !(gamma.is_finite() && gamma >= 1.0) {
            return Err(WaveError::Gamma(gamma));
        }
        let mut s = Spectrum {
            kind: SpectrumKind::Jonswap { gamma },
            hs: positive("Hs", hs)?,
            tp: positive("Tp", tp)?,
            scale: 1.0,
        };
        s.scale = 1.0 / (1.0 + s.relative_excess());
        Ok(s)
    }

    /// The spectral shape.
    pub fn kind(&self) -> SpectrumKind {
        self.kind
    }

    /// Significant wave height Hs (m).
    pub fn hs(&self) -> f64 {
        self.hs
    }

    /// Peak period Tp (s).
    pub fn tp(&self) -> f64 {
        self.tp
    }

    /// Peak angular frequency ω_p = 2π/Tp (rad/s).
    pub fn peak_omega(&self) -> f64 {
        2.0 * PI / self.tp
    }

    /// S(ω) in m²·s/rad; 0 for ω ≤ 0.
    pub fn density(&self, omega: f64) -> f64 {
        if !omega.is_finite() || omega <= 0.0 {
            return 0.0;
        }
        self.scale * self.pm(omega) * self.enhancement(omega)
    }

    /// Bretschneider / Pierson–Moskowitz S_PM(ω).
    fn pm(&self, omega: f64) -> f64 {
        let wp = self.peak_omega();
        let ratio4 = (wp / omega).powi(4);
        if 1.25 * ratio4 > 745.0 {
            return 0.0; // exp underflows to 0; avoids inf · 0 at tiny ω
        }
        5.0 / 16.0 * self.hs * self.hs * ratio4 / omega * (-1.25 * ratio4).exp()
    }

    /// γ^r(ω) (1 for Pierson–Moskowitz).
    fn enhancement(&self, omega: f64) -> f64 {
        match self.kind {
            SpectrumKind::PiersonMoskowitz => 1.0,
            SpectrumKind::Jonswap { gamma } => {
                let x = omega / self.peak_omega() - 1.0;
                let sigma = if x <= 0.0 { 0.07 } else { 0.09 };
                gamma.powf((-x * x / (2.0 * sigma * sigma)).exp())
            }
        }
    }

    /// ∫ S_PM (γ^r − 1) dω / (Hs²/16): the extra energy of the peak enhancement. The integrand is
    /// below 1e-10 of its peak outside [0.4, 2] ω_p, so composite Simpson there suffices.
    fn relative_excess(&self) -> f64 {
        let wp = self.peak_omega();
        let (a, b, n) = (0.4 * wp, 2.0 * wp, 4000);
        let h = (b - a) / n as f64;
        let f = |w: f64| self.pm(w) * (self.enhancement(w) - 1.0);
        let mut sum = f(a) + f(b);
        for i in 1..n {
            let weight = if i % 2 == 1 { 4.0 } else { 2.0 };
            sum += weight * f(a + i as f64 * h);
        }
        sum * h / 3.0 / (self.hs * self.hs / 16.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// m0 by trapezoid on a fine grid over (0, 20 ω_p].
    fn m0(s: &Spectrum) -> f64 {
        let wmax = 20.0 * s.peak_omega();
        let n = 200_000;
        let h = wmax / n as f64;
        let mut sum = 0.5 * s.density(wmax);
        for i in 1..n {
            sum += s.density(i as f64 * h);
        }
        sum * h
    }

    #[test]
    fn pierson_moskowitz_m0_is_hs2_over_16() {
        let s = Spectrum::pierson_moskowitz(2.5, 8.0).unwrap();
        let target = 2.5f64.powi(2) / 16.0;
        let m = m0(&s);
        // The neglected tail above 20 ω_p is (Hs²/16)(1 − exp(−1.25/20⁴)) ≈ 8e-6 relative.
        assert!((m / target - 1.0).abs() < 1e-3, "m0 = {m}, target = {target}");
    }

    #[test]
    fn jonswap_m0_is_hs2_over_16() {
        for gamma in [1.0, 2.0, 3.3, 7.0] {
            let s = Spectrum::jonswap(2.5, 8.0, gamma).unwrap();
            let target = 2.5f64.powi(2) / 16.0;
            let m = m0(&s);
            assert!((m / target - 1.0).abs() < 1e-3, "gamma {gamma}: m0 = {m}, target = {target}");
        }
    }

    #[test]
    fn jonswap_gamma_one_is_pierson_moskowitz() {
        let j = Spectrum::jonswap(3.0, 10.0, 1.0).unwrap();
        let p = Spectrum::pierson_moskowitz(3.0, 10.0).unwrap();
        for w in [0.3, 0.6, 0.628, 1.0, 2.0] {
            assert!((j.density(w) - p.density(w)).abs() <= 1e-14 * p.density(w));
        }
    }

    #[test]
    fn jonswap_33_normalisation_near_textbook_factor() {
        // The common approximation 1 − 0.287 ln γ = 0.657 for γ = 3.3; the exact one is close.
        let s = Spectrum::jonswap(2.5, 8.0, 3.3).unwrap();
        assert!((s.scale - 0.657).abs() < 0.02, "alpha = {}", s.scale);
    }

    #[test]
    fn peak_is_at_two_pi_over_tp() {
        for s in [Spectrum::pierson_moskowitz(2.5, 8.0).unwrap(), Spectrum::jonswap(2.5, 8.0, 3.3).unwrap()] {
            let wp = 2.0 * PI / 8.0;
            let mut best = (0.0, 0.0);
            for i in 1..=100_000 {
                let w = i as f64 * 2e-5;
                let d = s.density(w);
                if d > best.1 {
                    best = (w, d);
                }
            }
            assert!((best.0 - wp).abs() < 5e-5, "peak at {} rad/s, expected {wp}", best.0);
            assert_eq!(s.peak_omega(), wp);
        }
    }

    #[test]
    fn rejects_bad_input() {
        assert!(Spectrum::pierson_moskowitz(0.0, 8.0).is_err());
        assert!(Spectrum::pierson_moskowitz(2.0, -8.0).is_err());
        assert_eq!(Spectrum::jonswap(2.0, 8.0, 0.5), Err(WaveError::Gamma(0.5)));
        let s = Spectrum::pierson_moskowitz(2.0, 8.0).unwrap();
        assert_eq!(s.density(0.0), 0.0);
        assert_eq!(s.density(-1.0), 0.0);
    }
}
