//! What a model file may describe yet could never run: more particles than memory holds, a
//! sound speed too low for the water's depth, fluid outside the tank. Checked when the model is
//! read, so `tidelink check` and a run's start refuse alike, before anything is allocated.

use nalgebra::Point3;
use tidelink_adapter_core::config::files::human_bytes;
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_sph_solver::{Dimension, Parameters};

/// Memory one particle or marker takes in the solver, roughly: its f64 state (position,
/// velocity, density) twice for the predictor–corrector, the right-hand sides, the f32 copies of
/// the pair loops, its cell and sort indices, and the lattice it is built from (about 300 bytes;
/// only the order of magnitude matters for a refusal).
pub const BYTES_PER_PARTICLE: f64 = 300.0;

/// The solver numbers particles with 32-bit indices.
pub const MAX_PARTICLES: f64 = u32::MAX as f64;

/// Fluid particles of the box `[lo, hi]` at spacing `dp`, as the lattice fills it (counted in
/// floating point, so that a hostile spacing cannot overflow the count).
pub fn lattice_count(lo: &Point3<f64>, hi: &Point3<f64>, dp: f64, dimension: Dimension) -> f64 {
    let n = |k: usize| ((hi[k] - lo[k]) / dp).round().max(0.0);
    match dimension {
        Dimension::Two => n(0) * n(2),
        Dimension::Three => n(0) * n(1) * n(2),
    }
}

/// Wall markers of a tank `[lo, hi]` with `layers` layers (the closed box's shell: a slight
/// overestimate for an open top).
pub fn tank_markers(lo: &Point3<f64>, hi: &Point3<f64>, dp: f64, layers: usize, dimension: Dimension) -> f64 {
    let n = |k: usize| ((hi[k] - lo[k]) / dp).round().max(1.0);
    let l = 2.0 * layers as f64;
    match dimension {
        Dimension::Two => (n(0) + l) * (n(2) + l) - n(0) * n(2),
        Dimension::Three => (n(0) + l) * (n(1) + l) * (n(2) + l) - n(0) * n(1) * n(2),
    }
}

/// The machine's physical memory (bytes), from `/proc/meminfo`; `None` where it cannot be read.
pub fn physical_memory() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024.0)
}

/// An error at `at` (the `sph.spacing` key) when `fluid` particles and `markers` would not fit
/// in `memory` bytes (when known) or in the solver's 32-bit indices; Ok otherwise.
pub fn particle_budget(
    d: &mut Diagnostics,
    at: Location,
    params: &Parameters,
    fluid: f64,
    markers: f64,
    memory: Option<f64>,
) {
    let total = fluid + markers;
    let bytes = total * BYTES_PER_PARTICLE;
    let limit = match memory {
        Some(m) if bytes > m => format!("more than this machine's {} of memory", human_bytes(m)),
        _ if total > MAX_PARTICLES => format!("more than the solver's limit of {MAX_PARTICLES:.3e} particles"),
        _ => return,
    };
    let power = match params.dimension {
        Dimension::Two => "²",
        Dimension::Three => "³",
    };
    d.error(
        at,
        format!(
            "spacing {} m fills the fluid boxes with about {fluid:.2e} particles (and {markers:.2e} wall markers), \
             which would take about {} of memory, {limit}: raise `sph.spacing` (the count grows as 1/spacing{power}) \
             or make the fluid boxes smaller",
            params.spacing,
            human_bytes(bytes)
        ),
    );
}

/// The weakly-compressible rule: the sound speed must be at least ten times the speed of the
/// water, taken as the shallow-water wave speed √(g d) of the water depth `depth`, so that the
/// density varies by about 1 % ((√(g d)/c)²). Far below it the hydrostatic column alone
/// compresses the bottom water past what the solver accepts (2 ρ0) at t = 0.
pub fn sound_speed(d: &mut Diagnostics, at: Location, c: f64, depth: f64, gravity: f64) {
    if !(c.is_finite() && c > 0.0 && depth > 0.0 && gravity > 0.0) {
        return;
    }
    let least = 10.0 * (gravity * depth).sqrt();
    if c < least {
        d.error(
            at,
            format!(
                "sound speed {c} m/s is too low for water {depth} m deep: a weakly compressible fluid needs at least \
                 10 √(g d) = {least:.3} m/s (density within about 1 % of rest); raise `sph.sound_speed` or leave it \
                 out for the default 20 √(g d) = {:.3} m/s",
                2.0 * least
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_follow_the_lattice_without_overflow() {
        let (lo, hi) = (Point3::new(0.0, 0.0, 0.0), Point3::new(0.8, 0.8, 0.3));
        assert_eq!(lattice_count(&lo, &hi, 0.1, Dimension::Three), 8.0 * 8.0 * 3.0);
        assert_eq!(lattice_count(&lo, &hi, 0.1, Dimension::Two), 8.0 * 3.0);
        // 1e-5 m over 0.8 × 0.8 × 0.3 m: 80 000 × 80 000 × 30 000 = 1.92e14, far past usize products.
        assert_eq!(lattice_count(&lo, &hi, 1e-5, Dimension::Three), 8e4 * 8e4 * 3e4);
        assert_eq!(tank_markers(&lo, &hi, 0.1, 1, Dimension::Two), 10.0 * 5.0 - 8.0 * 3.0);
    }

    #[test]
    fn a_budget_past_memory_or_the_indices_is_one_error_with_the_memory_and_the_key() {
        let params = Parameters::new(Dimension::Three, 1e-5, 40.0);
        let at = Location::new("m.yaml", 3);
        let mut d = Diagnostics::default();
        particle_budget(&mut d, at.clone(), &params, 1.6e9, 2e7, Some(128e9));
        let e = d.errors().next().unwrap().to_string();
        assert!(e.starts_with("m.yaml:3: error: spacing 0.00001 m fills"), "{e}");
        assert!(e.contains("1.60e9 particles") && e.contains("about 486.0 GB") && e.contains("128.0 GB"), "{e}");
        assert!(e.contains("raise `sph.spacing`") && e.contains("1/spacing³"), "{e}");
        let mut d = Diagnostics::default();
        particle_budget(&mut d, at.clone(), &params, 5e9, 0.0, None);
        assert!(d.errors().next().unwrap().to_string().contains("solver's limit"));
        let mut d = Diagnostics::default();
        particle_budget(&mut d, at, &params, 1e6, 1e5, Some(8e9));
        assert!(!d.has_errors());
    }

    #[test]
    fn a_sound_speed_below_ten_wave_speeds_is_refused() {
        let at = Location::new("m.yaml", 5);
        let mut d = Diagnostics::default();
        sound_speed(&mut d, at.clone(), 0.05, 0.3, 9.81);
        let e = d.errors().next().unwrap().to_string();
        // 10 √(9.81 · 0.3) = 17.155 m/s.
        assert!(e.contains("sound speed 0.05 m/s is too low for water 0.3 m deep") && e.contains("17.155"), "{e}");
        let mut d = Diagnostics::default();
        sound_speed(&mut d, at, 17.2, 0.3, 9.81);
        assert!(!d.has_errors());
    }
}
