//! The linear dispersion relation ω² = g k tanh(k h): wave number from frequency, needed to
//! place a wave at a point other than the origin.

use super::error::{non_negative, positive, WaveError};
use tidelink_hydro_data::WaterDepth;

/// Beyond this k·h, tanh(k h) is 1 to double precision and the deep-water k is exact.
const DEEP_KH: f64 = 20.0;
const MAX_NEWTON: usize = 60;

/// Wave number k (rad/m) of a wave of angular frequency `omega` (rad/s) in water of `depth`
/// under gravity `g` (m/s²): ω²/g in deep water, Newton's method on ω² = g k tanh(k h) otherwise.
pub fn wave_number(omega: f64, g: f64, depth: WaterDepth) -> Result<f64, WaveError> {
    let omega = non_negative("omega", omega)?;
    let g = positive("g", g)?;
    let k_deep = omega * omega / g;
    match depth {
        WaterDepth::Infinite => Ok(k_deep),
        WaterDepth::Finite(h) => finite_depth(omega, g, positive("depth", h)?, k_deep),
    }
}

/// Newton iteration from the explicit guess k₀ = k_deep / sqrt(tanh(k_deep h)), which is exact in
/// both the deep and the shallow limits, so a handful of steps reach machine precision.
fn finite_depth(omega: f64, g: f64, h: f64, k_deep: f64) -> Result<f64, WaveError> {
    if omega == 0.0 {
        return Ok(0.0);
    }
    if k_deep * h > DEEP_KH {
        return Ok(k_deep);
    }
    let w2 = omega * omega;
    let mut k = k_deep / (k_deep * h).tanh().sqrt();
    for _ in 0..MAX_NEWTON {
        let th = (k * h).tanh();
        let residual = g * k * th - w2;
        let slope = g * th + g * k * h * (1.0 - th * th);
        let step = residual / slope;
        k -= step;
        if !k.is_finite() || k <= 0.0 {
            break;
        }
        if step.abs() <= 1e-14 * k {
            return Ok(k);
        }
    }
    Err(WaveError::NoConvergence { omega, depth: h })
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: f64 = 9.81;

    /// Independent reference: bisection on the same relation, far from Newton's path.
    fn bisect(omega: f64, h: f64) -> f64 {
        let f = |k: f64| G * k * (k * h).tanh() - omega * omega;
        let (mut lo, mut hi) = (1e-12, 10.0 * omega * omega / G + 10.0 * omega / (G * h).sqrt());
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if f(mid) > 0.0 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        0.5 * (lo + hi)
    }

    #[test]
    fn deep_water_is_omega_squared_over_g() {
        for omega in [0.1, 0.785, 2.0, 5.2] {
            let k = wave_number(omega, G, WaterDepth::Infinite).unwrap();
            assert!((k - omega * omega / G).abs() <= 1e-15 * k);
        }
    }

    #[test]
    fn large_depth_tends_to_deep_water() {
        let omega = 0.785;
        let k = wave_number(omega, G, WaterDepth::Finite(5000.0)).unwrap();
        assert!((k - omega * omega / G).abs() <= 1e-12 * k);
    }

    #[test]
    fn shallow_limit_is_omega_over_sqrt_gh() {
        let h = 1.0;
        let omega = 0.01; // k h ≈ 3e-3
        let k = wave_number(omega, G, WaterDepth::Finite(h)).unwrap();
        let k_shallow = omega / (G * h).sqrt();
        assert!(k * h < 0.01);
        // Next term of the expansion is (kh)²/6 relative: ~2e-6 here.
        assert!((k - k_shallow).abs() / k_shallow < 1e-5, "k = {k}, shallow = {k_shallow}");
    }

    #[test]
    fn finite_depth_matches_bisection() {
        for (omega, h) in [(0.785, 70.0), (0.3, 10.0), (1.2, 5.0), (0.05, 200.0), (2.0, 3.0)] {
            let k = wave_number(omega, G, WaterDepth::Finite(h)).unwrap();
            let k_ref = bisect(omega, h);
            assert!((k - k_ref).abs() <= 1e-12 * k_ref, "omega {omega}, h {h}: {k} vs {k_ref}");
            let residual = G * k * (k * h).tanh() - omega * omega;
            assert!(residual.abs() < 1e-13);
        }
    }

    #[test]
    fn tabulated_value_t8_h70() {
        // T = 8 s in 70 m (HydroChrono's RM3 mooring case). Tabulated by a separate bisection
        // (Python, 200 halvings): k = 0.0628985918740412 rad/m, λ = 99.894 m (deep water: 99.924 m).
        let omega = 2.0 * std::f64::consts::PI / 8.0;
        let k = wave_number(omega, G, WaterDepth::Finite(70.0)).unwrap();
        assert!((k - 0.0628985918740412).abs() < 1e-13, "k = {k}");
        assert!((k - bisect(omega, 70.0)).abs() < 1e-13);
    }

    #[test]
    fn zero_frequency_and_bad_input() {
        assert_eq!(wave_number(0.0, G, WaterDepth::Finite(10.0)).unwrap(), 0.0);
        assert!(wave_number(-1.0, G, WaterDepth::Infinite).is_err());
        assert!(wave_number(1.0, 0.0, WaterDepth::Infinite).is_err());
        assert!(wave_number(1.0, G, WaterDepth::Finite(-3.0)).is_err());
        assert!(wave_number(f64::NAN, G, WaterDepth::Infinite).is_err());
    }
}
