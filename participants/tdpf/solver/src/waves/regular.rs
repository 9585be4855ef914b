//! A regular (monochromatic) wave, defined the way WEC-Sim and Chrono's YAML define it: by height
//! or amplitude, period, phase and heading.

use super::elevation::Elevation;
use super::error::{finite, positive, WaveError};
use std::f64::consts::PI;

/// η(0, t) = A cos(ωt + phase) with ω = 2π/T, travelling towards `heading_deg` (0° = +x).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RegularWave {
    amplitude: f64,
    period: f64,
    phase: f64,
    heading_deg: f64,
}

impl RegularWave {
    /// From the wave height H (crest to trough, m): A = H/2, as WEC-Sim's `waves.height` and
    /// Chrono's TDPF YAML `height` are read. Period in s, phase in rad, heading in degrees.
    pub fn from_height(height: f64, period: f64, phase: f64, heading_deg: f64) -> Result<Self, WaveError> {
        Self::from_amplitude(positive("wave height", height)? / 2.0, period, phase, heading_deg)
    }

    /// From the amplitude A (m) directly.
    pub fn from_amplitude(amplitude: f64, period: f64, phase: f64, heading_deg: f64) -> Result<Self, WaveError> {
        Ok(RegularWave {
            amplitude: positive("wave amplitude", amplitude)?,
            period: positive("wave period", period)?,
            phase: finite("wave phase", phase)?,
            heading_deg: finite("wave heading", heading_deg)?,
        })
    }

    /// Amplitude A = H/2 (m).
    pub fn amplitude(&self) -> f64 {
        self.amplitude
    }

    /// Height H = 2A (m).
    pub fn height(&self) -> f64 {
        2.0 * self.amplitude
    }

    /// Period T (s).
    pub fn period(&self) -> f64 {
        self.period
    }

    /// Angular frequency ω = 2π/T (rad/s).
    pub fn omega(&self) -> f64 {
        2.0 * PI / self.period
    }

    /// Phase at the origin at t = 0 (rad).
    pub fn phase(&self) -> f64 {
        self.phase
    }

    /// Direction of travel (degrees, 0 = towards +x, 90 = towards +y).
    pub fn heading_deg(&self) -> f64 {
        self.heading_deg
    }

    /// η at distance `x` (m) along the heading from the origin, absolute time `t` (s), for the
    /// wave number `k` (rad/m) from [`super::wave_number`]: A cos(ωt − kx + phase).
    pub fn elevation_at(&self, x: f64, t: f64, k: f64) -> f64 {
        self.amplitude * (self.omega() * t - k * x + self.phase).cos()
    }
}

impl Elevation for RegularWave {
    fn elevation(&self, t: f64) -> f64 {
        self.amplitude * (self.omega() * t + self.phase).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn height_is_twice_amplitude() {
        let w = RegularWave::from_height(2.5, 8.0, 0.0, 0.0).unwrap();
        assert_eq!(w.amplitude(), 1.25);
        assert_eq!(w.height(), 2.5);
        assert!((w.omega() - std::f64::consts::FRAC_PI_4).abs() < 1e-15);
        assert_eq!(w.elevation(0.0), 1.25);
        assert!((w.elevation(2.0)).abs() < 1e-12); // quarter period
        assert!((w.elevation(4.0) + 1.25).abs() < 1e-12);
    }

    #[test]
    fn phase_and_position_shift() {
        let w = RegularWave::from_amplitude(1.0, 8.0, 0.3, 0.0).unwrap();
        let k = 0.0629;
        assert!((w.elevation(1.7) - (w.omega() * 1.7 + 0.3).cos()).abs() < 1e-15);
        // A crest moves at the phase speed ω/k.
        let c = w.omega() / k;
        assert!((w.elevation_at(c * 3.0, 3.0, k) - w.elevation(0.0)).abs() < 1e-12);
    }

    #[test]
    fn rejects_bad_input() {
        assert!(RegularWave::from_height(-1.0, 8.0, 0.0, 0.0).is_err());
        assert!(RegularWave::from_height(1.0, 0.0, 0.0, 0.0).is_err());
        assert!(RegularWave::from_amplitude(1.0, 8.0, f64::NAN, 0.0).is_err());
        assert!(RegularWave::from_amplitude(1.0, 8.0, 0.0, f64::INFINITY).is_err());
    }
}
