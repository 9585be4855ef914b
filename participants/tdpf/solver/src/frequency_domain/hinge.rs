//! The linear steady state of one body pitching about a horizontal hinge below its centre of
//! gravity (a bottom-hinged surge flap such as WEC-Sim's OSWEC) in a regular wave. A pitch θ about
//! the hinge moves the CG `arm·θ` in surge, so the body's motion is `u θ` with
//! `u = [arm, 0, 0, 0, 1, 0]` in the file's coordinates about the CG, and the one equation is
//! `[−ω²(I_h + A_h) + iω(B_h + c) + K_h] Θ = X_h a`, with `A_h = uᵀA u` (= A55 + 2·arm·A15 +
//! arm²·A11, B likewise), `X_h = uᵀX`, `I_h = I_yy + m·arm²`, `K_h = uᵀC u + arm·g(ρV − m)`
//! (the file's restoring plus the net buoyancy at the CG as it swings sideways) and `c` the
//! rotary damper at the hinge.
//!
//! The radiation terms come from the file's frequency-domain coefficients ([`Radiation::Bem`]), or
//! from its impulse response as the time-domain model applies it ([`Radiation::Irf`]):
//! `A(ω) = A∞ − (1/ω)∫₀^T K(t) sin ωt dt`, `B(ω) = ∫₀^T K(t) cos ωt dt` (Ogilvie's relations over
//! the IRF's span, trapezoidal rule). The two differ where the IRF is band-limited (BEMIO computes
//! it from the file's frequency band) and truncated; a run with convolution radiation over the
//! whole IRF converges to the second.

use super::{bracket, FrequencyDomainError};
use nalgebra::{Complex, DMatrix};
use tidelink_hydro_data::HydroData;

/// The body on its hinge.
#[derive(Debug, Clone, PartialEq)]
pub struct HingeSystem {
    /// The body's index in the file.
    pub body: usize,
    /// Its mass (kg).
    pub mass: f64,
    /// Its pitch moment of inertia about its CG (kg·m²).
    pub inertia: f64,
    /// Height of the CG above the hinge (m); the hinge axis is y, directly below the CG.
    pub arm: f64,
    /// The rotary damper at the hinge (N·m·s/rad).
    pub damping: f64,
}

/// Where the radiation added mass and damping at ω come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Radiation {
    /// The file's A(ω) and B(ω), interpolated linearly in ω.
    Bem,
    /// A∞ and the radiation impulse response K(t), as the time-domain convolution sees them.
    Irf,
}

/// The steady state at one frequency.
#[derive(Debug, Clone, PartialEq)]
pub struct SteadyPitch {
    /// Pitch about the hinge as a complex amplitude: `θ(t) = Re{Θ e^{iωt}}` (rad).
    pub pitch: Complex<f64>,
    /// Mean power absorbed by the damper, `½ c ω² |Θ|²` (W).
    pub damper_power: f64,
}

/// The steady pitch of `system` about its hinge in a regular wave of amplitude `amplitude` (m)
/// and frequency `omega` (rad/s), from the file's first heading, with the radiation of `radiation`
/// (an IRF that the file lacks is [`FrequencyDomainError::NoIrf`]).
pub fn steady_hinge_pitch(
    data: &HydroData,
    system: &HingeSystem,
    omega: f64,
    amplitude: f64,
    radiation: Radiation,
) -> Result<SteadyPitch, FrequencyDomainError> {
    let i = system.body;
    let b = data.bodies.get(i).ok_or(FrequencyDomainError::Body { index: i, count: data.bodies.len() })?;
    let (k, s) = bracket(&data.omega, omega)?;
    let x = &b.excitation;
    if x.re.len() <= k + 1 || x.im.len() <= k + 1 || x.re[k].ncols() == 0 {
        return Err(FrequencyDomainError::NoExcitation(i));
    }
    let u = [system.arm, 0.0, 0.0, 0.0, 1.0, 0.0];
    // uᵀ M u over the body's own 6 × 6 block (columns 6i…6i+5), interpolated at ω.
    let quad = |m: &dyn Fn(usize, usize) -> f64| -> f64 {
        (0..6).flat_map(|r| (0..6).map(move |c| (r, c))).map(|(r, c)| u[r] * m(r, c) * u[c]).sum()
    };
    let at = |m: &[DMatrix<f64>], r: usize, c: usize| m[k][(r, c)] * (1.0 - s) + m[k + 1][(r, c)] * s;
    let (a_h, b_h) = match radiation {
        Radiation::Bem => {
            (quad(&|r, c| at(&b.added_mass, r, 6 * i + c)), quad(&|r, c| at(&b.radiation_damping, r, 6 * i + c)))
        }
        Radiation::Irf => {
            let irf = b.radiation_irf.as_ref().ok_or(FrequencyDomainError::NoIrf(i))?;
            // uᵀK(t)u at each sample, then the trapezoidal rule of K sin ωt and K cos ωt.
            let k: Vec<f64> = irf.k.iter().map(|m| quad(&|r, c| m[(r, 6 * i + c)])).collect();
            let (mut sin, mut cos) = (0.0, 0.0);
            for n in 1..irf.t.len() {
                let (t0, t1) = (irf.t[n - 1], irf.t[n]);
                let h = 0.5 * (t1 - t0);
                sin += h * (k[n - 1] * (omega * t0).sin() + k[n] * (omega * t1).sin());
                cos += h * (k[n - 1] * (omega * t0).cos() + k[n] * (omega * t1).cos());
            }
            (quad(&|r, c| b.added_mass_inf[(r, 6 * i + c)]) - sin / omega, cos)
        }
    };
    let c_h = quad(&|r, c| b.hydrostatic_stiffness[(r, c)]);
    let x_h: Complex<f64> = (0..6).map(|r| Complex::new(at(&x.re, r, 0), at(&x.im, r, 0)) * u[r]).sum();
    let net_buoyancy = data.g * (data.rho * b.displaced_volume - system.mass);
    let k_h = c_h + system.arm * net_buoyancy;
    let i_h = system.inertia + system.mass * system.arm * system.arm;
    let d = Complex::new(k_h - omega * omega * (i_h + a_h), omega * (b_h + system.damping));
    if d.norm() == 0.0 {
        return Err(FrequencyDomainError::Singular(omega));
    }
    let pitch = x_h * amplitude / d;
    Ok(SteadyPitch { pitch, damper_power: 0.5 * system.damping * omega * omega * pitch.norm_sqr() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix6, Vector3};
    use std::path::PathBuf;
    use tidelink_hydro_data::{BodyHydro, Excitation, WaterDepth};

    /// One body with surge, pitch and surge–pitch coefficients linear in ω on 0.5, 1.0, 1.5 rad/s:
    /// A11 = 1e5 + 1e4 ω, A55 = 4e6, A15 = A51 = −2e5; B11 = 3e4 ω, B55 = 5e5 ω, B15 = B51 = 1e4 ω;
    /// C55 = 7e6; X1 = 3e5 + 1e5 i, X5 = −1e6 + 2e5 i per metre; V = 300 m³.
    fn data() -> HydroData {
        let omega = vec![0.5, 1.0, 1.5];
        let m6 = |f: &dyn Fn(f64, usize, usize) -> f64| -> Vec<DMatrix<f64>> {
            omega.iter().map(|&w| DMatrix::from_fn(6, 6, |r, c| f(w, r, c))).collect()
        };
        let a = |w: f64, r: usize, c: usize| match (r, c) {
            (0, 0) => 1e5 + 1e4 * w,
            (4, 4) => 4e6,
            (0, 4) | (4, 0) => -2e5,
            _ => 0.0,
        };
        let b = |w: f64, r: usize, c: usize| match (r, c) {
            (0, 0) => 3e4 * w,
            (4, 4) => 5e5 * w,
            (0, 4) | (4, 0) => 1e4 * w,
            _ => 0.0,
        };
        let x = |v: [f64; 2]| DMatrix::from_fn(6, 1, |r, _| [v[0], 0.0, 0.0, 0.0, v[1], 0.0][r]);
        let mut c = Matrix6::zeros();
        c[(4, 4)] = 7e6;
        HydroData {
            source: PathBuf::from("synthetic.h5"),
            code: None,
            rho: 1000.0,
            g: 9.81,
            depth: WaterDepth::Infinite,
            headings_deg: vec![0.0],
            bodies: vec![BodyHydro {
                name: "flap".into(),
                cg: Vector3::zeros(),
                cb: Vector3::zeros(),
                displaced_volume: 300.0,
                hydrostatic_stiffness: c,
                added_mass_inf: DMatrix::zeros(6, 6),
                added_mass: m6(&a),
                radiation_damping: m6(&b),
                radiation_irf: None,
                state_space: None,
                excitation: Excitation {
                    re: omega.iter().map(|_| x([3e5, -1e6])).collect(),
                    im: omega.iter().map(|_| x([1e5, 2e5])).collect(),
                    irf: None,
                },
            }],
            omega,
        }
    }

    #[test]
    fn a_flap_on_its_hinge_is_the_hand_written_response() {
        let (w, amp) = (0.8, 1.25);
        let sys = HingeSystem { body: 0, mass: 1.2e5, inertia: 1.8e6, arm: 5.0, damping: 1.2e4 };
        let got = steady_hinge_pitch(&data(), &sys, w, amp, Radiation::Bem).unwrap();
        // By hand at ω = 0.8 (coefficients linear in ω, so interpolation is exact):
        // A_h = 4e6 + 2·5·(−2e5) + 25·(1e5 + 8e3) = 4.7e6; B_h = 0.8·(5e5 + 10·1e4 + 25·3e4) = 1.08e6;
        // K_h = 7e6 + 5·9.81·(3e5 − 1.2e5) = 1.58290e7; I_h = 1.8e6 + 1.2e5·25 = 4.8e6;
        // X_h = (−1e6 + 2e5 i) + 5 (3e5 + 1e5 i) = 5e5 + 7e5 i.
        let d = Complex::new(1.5829e7 - 0.64 * (4.8e6 + 4.7e6), 0.8 * (1.08e6 + 1.2e4));
        let z = Complex::new(5e5, 7e5) * amp / d;
        assert!((got.pitch - z).norm() < 1e-12 * z.norm(), "{} vs {z}", got.pitch);
        let p = 0.5 * 1.2e4 * 0.64 * z.norm_sqr();
        assert!((got.damper_power - p).abs() < 1e-12 * p);
    }

    #[test]
    fn bad_requests_are_named() {
        let sys = HingeSystem { body: 1, mass: 1.0, inertia: 1.0, arm: 5.0, damping: 0.0 };
        assert_eq!(
            steady_hinge_pitch(&data(), &sys, 1.0, 1.0, Radiation::Bem).unwrap_err(),
            FrequencyDomainError::Body { index: 1, count: 1 }
        );
        let sys = HingeSystem { body: 0, ..sys };
        assert_eq!(
            steady_hinge_pitch(&data(), &sys, 0.1, 1.0, Radiation::Bem).unwrap_err(),
            FrequencyDomainError::Frequency { omega: 0.1, lo: 0.5, hi: 1.5 }
        );
        let mut none = data();
        none.bodies[0].excitation = Excitation { re: Vec::new(), im: Vec::new(), irf: None };
        assert_eq!(
            steady_hinge_pitch(&none, &sys, 1.0, 1.0, Radiation::Bem).unwrap_err(),
            FrequencyDomainError::NoExcitation(0)
        );
        assert_eq!(
            steady_hinge_pitch(&data(), &sys, 1.0, 1.0, Radiation::Irf).unwrap_err(),
            FrequencyDomainError::NoIrf(0)
        );
    }

    /// With the IRF: K55(t) = κ e^{−βt} over 0…20 s and A∞55 = a∞ (the rest zero), whose
    /// integrals with sin and cos are closed forms, so A_h = a∞ − S/ω and B_h = C by hand.
    #[test]
    fn the_irf_coefficients_are_ogilvies_integrals() {
        let (kappa, beta, t_end, n) = (3e6, 0.7, 20.0, 20001);
        let mut d = data();
        let t: Vec<f64> = (0..n).map(|k| t_end * k as f64 / (n - 1) as f64).collect();
        let k = t
            .iter()
            .map(|&s| DMatrix::from_fn(6, 6, |r, c| if (r, c) == (4, 4) { kappa * (-beta * s).exp() } else { 0.0 }))
            .collect();
        d.bodies[0].radiation_irf = Some(tidelink_hydro_data::RadiationIrf { t, k });
        d.bodies[0].added_mass_inf = DMatrix::from_fn(6, 6, |r, c| if (r, c) == (4, 4) { 3.5e6 } else { 0.0 });
        let (w, amp) = (0.8, 1.25);
        let sys = HingeSystem { body: 0, mass: 1.2e5, inertia: 1.8e6, arm: 5.0, damping: 1.2e4 };
        let got = steady_hinge_pitch(&d, &sys, w, amp, Radiation::Irf).unwrap();
        let (e, den) = ((-beta * t_end).exp(), beta * beta + w * w);
        let cos = kappa * (beta - e * (beta * (w * t_end).cos() - w * (w * t_end).sin())) / den;
        let sin = kappa * (w - e * (beta * (w * t_end).sin() + w * (w * t_end).cos())) / den;
        let (a_h, b_h) = (3.5e6 - sin / w, cos);
        let dd = Complex::new(1.5829e7 - w * w * (4.8e6 + a_h), w * (b_h + 1.2e4));
        let z = Complex::new(5e5, 7e5) * amp / dd;
        // The trapezoidal rule at 1 ms steps: relative error of order (ω² + β²) h² / 12 ≈ 1e-7.
        assert!((got.pitch - z).norm() < 1e-6 * z.norm(), "{} vs {z}", got.pitch);
    }
}
