//! Start-up ramps: a wave switched on abruptly at t = 0 excites transients that never die out in
//! a lightly damped model, so loads are faded in over a duration.

use super::error::{non_negative, WaveError};

/// Fade-in factor r(t) applied by the excitation models (see [`crate::excitation`] for whether it
/// multiplies the force or the elevation). `t` is absolute simulation time; r = 0 for t ≤ 0.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Ramp {
    /// r(t) = 1 at all times (also for t < 0).
    #[default]
    None,
    /// r(t) = t / T_r for 0 < t < T_r.
    Linear {
        /// T_r (s).
        duration: f64,
    },
    /// WEC-Sim's cosine ramp r(t) = ½(1 + cos(π + π t/T_r)) for 0 < t < T_r: zero slope at both ends.
    Cosine {
        /// T_r (s).
        duration: f64,
    },
}

impl Ramp {
    /// A linear ramp over `duration` s (0 means no ramp).
    pub fn linear(duration: f64) -> Result<Self, WaveError> {
        Ok(Ramp::Linear { duration: non_negative("ramp duration", duration)? })
    }

    /// A cosine ramp over `duration` s (0 means no ramp).
    pub fn cosine(duration: f64) -> Result<Self, WaveError> {
        Ok(Ramp::Cosine { duration: non_negative("ramp duration", duration)? })
    }

    /// The ramp duration T_r (0 for [`Ramp::None`]).
    pub fn duration(&self) -> f64 {
        match *self {
            Ramp::None => 0.0,
            Ramp::Linear { duration } | Ramp::Cosine { duration } => duration,
        }
    }

    /// r(t) in [0, 1] at absolute time `t`: 0 for t ≤ 0, 1 for t ≥ T_r. A duration that is not
    /// positive (possible only by building the enum directly) behaves as no ramp.
    pub fn factor(&self, t: f64) -> f64 {
        let duration = self.duration();
        if duration.is_nan() || duration <= 0.0 {
            return 1.0;
        }
        if t <= 0.0 {
            return 0.0;
        }
        if t >= duration {
            return 1.0;
        }
        let s = t / duration;
        match self {
            Ramp::Cosine { .. } => 0.5 * (1.0 + (std::f64::consts::PI * (1.0 + s)).cos()),
            _ => s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_is_one_everywhere() {
        for t in [-5.0, 0.0, 3.0, 1e6] {
            assert_eq!(Ramp::None.factor(t), 1.0);
        }
        assert_eq!(Ramp::linear(0.0).unwrap().factor(0.0), 1.0);
    }

    #[test]
    fn ends_and_continuity() {
        for ramp in [Ramp::linear(100.0).unwrap(), Ramp::cosine(100.0).unwrap()] {
            assert_eq!(ramp.factor(-1.0), 0.0);
            assert_eq!(ramp.factor(0.0), 0.0);
            assert_eq!(ramp.factor(100.0), 1.0);
            assert_eq!(ramp.factor(250.0), 1.0);
            let eps = 1e-9;
            assert!(ramp.factor(eps) < 1e-9 && ramp.factor(100.0 - eps) > 1.0 - 1e-9);
            // Monotone and continuous on a fine grid (no jump larger than the slope allows).
            let mut prev = 0.0;
            for i in 1..=10_000 {
                let r = ramp.factor(i as f64 * 0.01);
                assert!(r >= prev && r - prev < 2e-4, "jump at {i}");
                prev = r;
            }
        }
        assert!((Ramp::linear(100.0).unwrap().factor(25.0) - 0.25).abs() < 1e-15);
        assert!((Ramp::cosine(100.0).unwrap().factor(50.0) - 0.5).abs() < 1e-15);
    }

    #[test]
    fn cosine_has_zero_slope_at_both_ends() {
        let ramp = Ramp::cosine(100.0).unwrap();
        let h = 1e-3;
        let slope_start = (ramp.factor(h) - ramp.factor(0.0)) / h;
        let slope_end = (ramp.factor(100.0) - ramp.factor(100.0 - h)) / h;
        // One-sided difference of ½(1 − cos(πs)): slope ≈ (π/T_r)² h / 4 ≈ 2.5e-7.
        assert!(slope_start.abs() < 1e-6 && slope_end.abs() < 1e-6, "{slope_start} {slope_end}");
        let mid = (ramp.factor(50.0 + h) - ramp.factor(50.0 - h)) / (2.0 * h);
        assert!((mid - std::f64::consts::PI / 200.0).abs() < 1e-8);
        let linear = Ramp::linear(100.0).unwrap();
        assert!(((linear.factor(h) - linear.factor(0.0)) / h - 0.01).abs() < 1e-12);
    }

    #[test]
    fn rejects_bad_durations() {
        assert!(Ramp::linear(-1.0).is_err());
        assert!(Ramp::cosine(f64::NAN).is_err());
    }
}
