//! Irregular waves as a finite sum of regular components with random phases, so that a sea state
//! (spectrum + band + seed) is reproducible bit for bit.

use super::dispersion::wave_number;
use super::elevation::Elevation;
use super::error::{finite, non_negative, WaveError};
use super::spectrum::Spectrum;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f64::consts::PI;
use tidelink_hydro_data::WaterDepth;

/// The frequency range [`omega_min`, `omega_max`] (rad/s) cut into `count` equal bins; one
/// component sits at the centre of each bin: ω_i = ω_min + (i + ½)Δω, Δω = (ω_max − ω_min)/count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrequencyBand {
    /// Lower edge of the first bin (rad/s, ≥ 0).
    pub omega_min: f64,
    /// Upper edge of the last bin (rad/s).
    pub omega_max: f64,
    /// Number of bins, hence of components.
    pub count: usize,
}

impl FrequencyBand {
    /// Bin width Δω (rad/s). The synthesised record repeats after 2π/Δω seconds.
    pub fn d_omega(&self) -> f64 {
        (self.omega_max - self.omega_min) / self.count as f64
    }

    fn validate(&self) -> Result<(), WaveError> {
        let ok = self.omega_min.is_finite()
            && self.omega_max.is_finite()
            && self.omega_min >= 0.0
            && self.omega_max > self.omega_min
            && self.count >= 1;
        if ok {
            Ok(())
        } else {
            Err(WaveError::Band { min: self.omega_min, max: self.omega_max, count: self.count })
        }
    }
}

/// One regular component: A cos(ωt − kx + φ).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaveComponent {
    /// Angular frequency ω (rad/s).
    pub omega: f64,
    /// Amplitude A (m), √(2 S(ω) Δω) when drawn from a spectrum.
    pub amplitude: f64,
    /// Phase φ (rad), in [0, 2π) when drawn from a seed.
    pub phase: f64,
    /// Wave number k (rad/m), from the dispersion relation.
    pub wave_number: f64,
}

/// A unidirectional irregular wave: η(x, t) = Σ A_i cos(ω_i t − k_i x + φ_i), x along the heading.
#[derive(Debug, Clone, PartialEq)]
pub struct IrregularWave {
    components: Vec<WaveComponent>,
    heading_deg: f64,
}

impl IrregularWave {
    /// Components from `spectrum` on `band`: A_i = sqrt(2 S(ω_i) Δω), phases φ_i ~ U[0, 2π) drawn in
    /// order of increasing ω from `ChaCha8Rng::seed_from_u64(seed)`, k_i from `g` and `depth`.
    pub fn from_spectrum(
        spectrum: &Spectrum,
        band: FrequencyBand,
        seed: u64,
        heading_deg: f64,
        g: f64,
        depth: WaterDepth,
    ) -> Result<Self, WaveError> {
        band.validate()?;
        let d_omega = band.d_omega();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut components = Vec::with_capacity(band.count);
        for i in 0..band.count {
            let omega = band.omega_min + (i as f64 + 0.5) * d_omega;
            let amplitude = (2.0 * spectrum.density(omega) * d_omega).sqrt();
            let phase = rng.gen_range(0.0..2.0 * PI);
            components.push(WaveComponent { omega, amplitude, phase, wave_number: wave_number(omega, g, depth)? });
        }
        Ok(IrregularWave { components, heading_deg: finite("wave heading", heading_deg)? })
    }

    /// From explicit components (e.g. an imported sea state or a test case).
    pub fn from_components(components: Vec<WaveComponent>, heading_deg: f64) -> Result<Self, WaveError> {
        for c in &components {
            non_negative("component omega", c.omega)?;
            non_negative("component amplitude", c.amplitude)?;
            finite("component phase", c.phase)?;
            non_negative("component wave number", c.wave_number)?;
        }
        Ok(IrregularWave { components, heading_deg: finite("wave heading", heading_deg)? })
    }

    /// The components, in increasing frequency when built from a spectrum.
    pub fn components(&self) -> &[WaveComponent] {
        &self.components
    }

    /// Direction of travel (degrees, 0 = towards +x).
    pub fn heading_deg(&self) -> f64 {
        self.heading_deg
    }

    /// Σ A_i²/2: the variance of η over a full record, ≈ m0 of the spectrum within the band.
    pub fn variance(&self) -> f64 {
        self.components.iter().map(|c| 0.5 * c.amplitude * c.amplitude).sum()
    }

    /// η at distance `x` (m) along the heading, absolute time `t` (s).
    pub fn elevation_at(&self, x: f64, t: f64) -> f64 {
        self.components.iter().map(|c| c.amplitude * (c.omega * t - c.wave_number * x + c.phase).cos()).sum()
    }
}

impl Elevation for IrregularWave {
    fn elevation(&self, t: f64) -> f64 {
        self.components.iter().map(|c| c.amplitude * (c.omega * t + c.phase).cos()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: f64 = 9.81;

    fn band() -> FrequencyBand {
        FrequencyBand { omega_min: 0.2, omega_max: 3.0, count: 280 }
    }

    fn sea(seed: u64) -> IrregularWave {
        let s = Spectrum::pierson_moskowitz(2.5, 8.0).unwrap();
        IrregularWave::from_spectrum(&s, band(), seed, 0.0, G, WaterDepth::Infinite).unwrap()
    }

    #[test]
    fn same_seed_is_bitwise_identical() {
        let (a, b) = (sea(1), sea(1));
        assert_eq!(a, b);
        for i in 0..500 {
            let t = i as f64 * 0.37;
            assert_eq!(a.elevation(t).to_bits(), b.elevation(t).to_bits());
        }
    }

    #[test]
    fn different_seed_differs() {
        let (a, b) = (sea(1), sea(2));
        let diff: f64 = (0..500).map(|i| (a.elevation(i as f64 * 0.37) - b.elevation(i as f64 * 0.37)).abs()).sum();
        assert!(diff > 1.0);
        assert!(a.components().iter().zip(b.components()).all(|(x, y)| x.amplitude == y.amplitude));
    }

    #[test]
    fn phases_uniform_and_frequencies_centred() {
        let w = sea(7);
        let d = band().d_omega();
        for (i, c) in w.components().iter().enumerate() {
            assert!((0.0..2.0 * PI).contains(&c.phase));
            assert!((c.omega - (0.2 + (i as f64 + 0.5) * d)).abs() < 1e-12);
        }
        let mean: f64 = w.components().iter().map(|c| c.phase).sum::<f64>() / 280.0;
        assert!((mean - PI).abs() < 0.4, "mean phase {mean}");
    }

    #[test]
    fn variance_over_long_record_is_hs2_over_16() {
        let w = sea(3);
        let target = 2.5f64.powi(2) / 16.0;
        // One full repeat period 2π/Δω, sampled finely enough for the highest component.
        let record = 2.0 * PI / band().d_omega();
        let dt = 0.1;
        let n = (record / dt).round() as usize;
        let eta: Vec<f64> = (0..n).map(|i| w.elevation(i as f64 * dt)).collect();
        let mean = eta.iter().sum::<f64>() / n as f64;
        let var = eta.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / n as f64;
        assert!((var / target - 1.0).abs() < 0.03, "variance {var}, target {target}");
        assert!((w.variance() / target - 1.0).abs() < 0.03, "sum A²/2 = {}", w.variance());
    }

    #[test]
    fn elevation_at_origin_and_shifted() {
        let w = sea(5);
        assert_eq!(w.elevation_at(0.0, 12.3), w.elevation(12.3));
        // Deep water: a single component shifted by one wavelength is unchanged.
        let c = WaveComponent { omega: 0.8, amplitude: 1.0, phase: 0.4, wave_number: 0.8 * 0.8 / G };
        let one = IrregularWave::from_components(vec![c], 0.0).unwrap();
        let lambda = 2.0 * PI / c.wave_number;
        assert!((one.elevation_at(lambda, 3.0) - one.elevation(3.0)).abs() < 1e-12);
    }

    #[test]
    fn rejects_bad_band() {
        let s = Spectrum::pierson_moskowitz(2.5, 8.0).unwrap();
        for b in [
            FrequencyBand { omega_min: 1.0, omega_max: 0.5, count: 10 },
            FrequencyBand { omega_min: 0.1, omega_max: 1.0, count: 0 },
            FrequencyBand { omega_min: -0.1, omega_max: 1.0, count: 10 },
        ] {
            assert!(IrregularWave::from_spectrum(&s, b, 1, 0.0, G, WaterDepth::Infinite).is_err());
        }
    }
}
