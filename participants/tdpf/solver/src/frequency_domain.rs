//! The linear steady state of bodies in heave in a regular wave, solved in the frequency domain
//! from the same coefficients the time-domain model steps: for wave `η = A cos ωt` the heave
//! amplitudes `Z` solve `[−ω²(M + A(ω)) + iω(B(ω) + C) + K] Z = X(ω) A`, with `C` the linear
//! dampers between bodies (a power take-off) and the coefficients interpolated linearly in ω.
//! A run's steady heave (after its ramp) must approach `Re{Z e^{iωt}}`; the demo and the tests
//! compare with it. [`hinge`] is the same for one body pitching about a hinge (a surge flap).

pub mod hinge;

use nalgebra::{Complex, DMatrix, DVector};
use thiserror::Error;
use tidelink_hydro_data::HydroData;

/// Why the steady state could not be computed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum FrequencyDomainError {
    /// ω lies outside the file's frequency grid (no extrapolation).
    #[error("ω = {omega} rad/s is outside the hydrodynamic file's frequencies {lo}–{hi} rad/s")]
    Frequency {
        /// The frequency asked for (rad/s).
        omega: f64,
        /// The grid's lowest frequency.
        lo: f64,
        /// The grid's highest frequency.
        hi: f64,
    },
    /// More bodies (or a damper on a body) than the file has.
    #[error("body {index} is asked for but the hydrodynamic file has {count} bodies")]
    Body {
        /// The body index (from 0).
        index: usize,
        /// Bodies in the file.
        count: usize,
    },
    /// The file has no excitation at the frequency grid (or no heading).
    #[error("body {0}: the hydrodynamic file has no excitation coefficients")]
    NoExcitation(usize),
    /// The body has no radiation impulse response, which the IRF-based coefficients need.
    #[error("body {0}: the hydrodynamic file has no radiation impulse response")]
    NoIrf(usize),
    /// The system matrix is singular (e.g. a free body with no stiffness at ω = 0).
    #[error("the frequency-domain system is singular at ω = {0} rad/s")]
    Singular(f64),
}

/// The bodies and the dampers between them, heave only.
#[derive(Debug, Clone, PartialEq)]
pub struct HeaveSystem {
    /// Each body's mass (kg), in the file's body order.
    pub masses: Vec<f64>,
    /// Linear dampers `(body i, body j, c)` acting on the relative heave velocity (N·s/m).
    pub dampers: Vec<(usize, usize, f64)>,
    /// Whether the radiation terms between bodies are kept (off: each body's own block only).
    pub body_to_body: bool,
}

/// The steady state at one frequency.
#[derive(Debug, Clone, PartialEq)]
pub struct SteadyHeave {
    /// Heave of each body as a complex amplitude: `z(t) = Re{Z e^{iωt}}` (m).
    pub heave: Vec<Complex<f64>>,
    /// Mean power absorbed by each damper, `½ c ω² |Z_i − Z_j|²` (W), in the order given.
    pub damper_power: Vec<f64>,
}

impl SteadyHeave {
    /// Amplitude (m) and phase (degrees, of `|Z| cos(ωt + φ)`) of body `i`.
    pub fn amplitude_phase(&self, i: usize) -> Option<(f64, f64)> {
        self.heave.get(i).map(|z| (z.norm(), z.arg().to_degrees()))
    }
}

/// Linear interpolation weights of `omega` on `grid`: `(k, s)` with the value
/// `v[k] (1 − s) + v[k + 1] s`.
pub(crate) fn bracket(grid: &[f64], omega: f64) -> Result<(usize, f64), FrequencyDomainError> {
    let err = || FrequencyDomainError::Frequency {
        omega,
        lo: grid.first().copied().unwrap_or(f64::NAN),
        hi: grid.last().copied().unwrap_or(f64::NAN),
    };
    if grid.len() < 2 || !(omega >= grid[0] && omega <= grid[grid.len() - 1]) {
        return Err(err());
    }
    let k = grid.windows(2).position(|w| omega <= w[1]).ok_or_else(err)?;
    let s = (omega - grid[k]) / (grid[k + 1] - grid[k]);
    Ok((k, s))
}

/// The heave steady state of `system` in a regular wave of amplitude `amplitude` (m) and
/// frequency `omega` (rad/s), the wave from the file's first heading.
pub fn steady_heave(
    data: &HydroData,
    system: &HeaveSystem,
    omega: f64,
    amplitude: f64,
) -> Result<SteadyHeave, FrequencyDomainError> {
    let n = system.masses.len();
    let count = data.bodies.len();
    let used = system.dampers.iter().flat_map(|d| [d.0, d.1]).chain(0..n);
    if let Some(index) = used.filter(|&i| i >= count || i >= n).max() {
        return Err(FrequencyDomainError::Body { index, count });
    }
    let (k, s) = bracket(&data.omega, omega)?;
    let at = |m: &[DMatrix<f64>], r: usize, c: usize| m[k][(r, c)] * (1.0 - s) + m[k + 1][(r, c)] * s;
    let mut sys = DMatrix::<Complex<f64>>::zeros(n, n);
    let mut rhs = DVector::<Complex<f64>>::zeros(n);
    for i in 0..n {
        let b = &data.bodies[i];
        let x = &b.excitation;
        if x.re.len() <= k + 1 || x.im.len() <= k + 1 || x.re[k].ncols() == 0 {
            return Err(FrequencyDomainError::NoExcitation(i));
        }
        for j in 0..n {
            if i != j && !system.body_to_body {
                continue;
            }
            let (a, bb) = (at(&b.added_mass, 2, 6 * j + 2), at(&b.radiation_damping, 2, 6 * j + 2));
            sys[(i, j)] += Complex::new(-omega * omega * a, omega * bb);
        }
        sys[(i, i)] += Complex::new(b.hydrostatic_stiffness[(2, 2)] - omega * omega * system.masses[i], 0.0);
        rhs[i] = Complex::new(at(&x.re, 2, 0), at(&x.im, 2, 0)) * amplitude;
    }
    for &(i, j, c) in &system.dampers {
        let d = Complex::new(0.0, omega * c);
        sys[(i, i)] += d;
        sys[(j, j)] += d;
        sys[(i, j)] -= d;
        sys[(j, i)] -= d;
    }
    let z = sys.lu().solve(&rhs).ok_or(FrequencyDomainError::Singular(omega))?;
    let heave: Vec<Complex<f64>> = z.iter().copied().collect();
    let damper_power =
        system.dampers.iter().map(|&(i, j, c)| 0.5 * c * omega * omega * (heave[i] - heave[j]).norm_sqr()).collect();
    Ok(SteadyHeave { heave, damper_power })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix6, Vector3};
    use std::path::PathBuf;
    use tidelink_hydro_data::{BodyHydro, Excitation, WaterDepth};

    /// A body whose heave coefficients are `a(ω) = 1e5 + 1e4 ω`, `b(ω) = 2e4 ω`, `K = 3e5`, `X = 2e5 + 1e5 i`
    /// per metre, on the grid 0.5, 1.0, 1.5 rad/s; two bodies are coupled by `a12 = 5e3`, `b12 = 1e3`.
    fn data(bodies: usize) -> HydroData {
        let omega = vec![0.5, 1.0, 1.5];
        let body = |i: usize| {
            let m6 = |f: &dyn Fn(f64, usize) -> f64| -> Vec<DMatrix<f64>> {
                omega
                    .iter()
                    .map(|&w| {
                        DMatrix::from_fn(6, 6 * bodies, |r, c| if r == 2 && c % 6 == 2 { f(w, c / 6) } else { 0.0 })
                    })
                    .collect()
            };
            let mut k = Matrix6::zeros();
            k[(2, 2)] = 3e5;
            BodyHydro {
                name: format!("b{i}"),
                cg: Vector3::zeros(),
                cb: Vector3::zeros(),
                displaced_volume: 10.0,
                hydrostatic_stiffness: k,
                added_mass_inf: DMatrix::zeros(6, 6 * bodies),
                added_mass: m6(&|w, j| if j == i { 1e5 + 1e4 * w } else { 5e3 }),
                radiation_damping: m6(&|w, j| if j == i { 2e4 * w } else { 1e3 }),
                radiation_irf: None,
                state_space: None,
                excitation: Excitation {
                    re: omega.iter().map(|_| DMatrix::from_fn(6, 1, |r, _| if r == 2 { 2e5 } else { 0.0 })).collect(),
                    im: omega.iter().map(|_| DMatrix::from_fn(6, 1, |r, _| if r == 2 { 1e5 } else { 0.0 })).collect(),
                    irf: None,
                },
            }
        };
        HydroData {
            source: PathBuf::from("synthetic.h5"),
            code: None,
            rho: 1000.0,
            g: 9.81,
            depth: WaterDepth::Infinite,
            headings_deg: vec![0.0],
            bodies: (0..bodies).map(body).collect(),
            omega,
        }
    }

    #[test]
    fn one_body_is_the_textbook_response() {
        let (w, m, amp) = (0.8, 2e5, 1.25);
        let sys = HeaveSystem { masses: vec![m], dampers: Vec::new(), body_to_body: false };
        let got = steady_heave(&data(1), &sys, w, amp).unwrap();
        // Written out by hand: a = 1e5 + 1e4·0.8 = 108000, b = 2e4·0.8 = 16000 (linear in ω, so
        // interpolation is exact).
        let z = Complex::new(2e5, 1e5) * amp / Complex::new(3e5 - w * w * (m + 108000.0), w * 16000.0);
        assert!((got.heave[0] - z).norm() < 1e-12 * z.norm(), "{} vs {z}", got.heave[0]);
        let (a, p) = got.amplitude_phase(0).unwrap();
        assert!((a - z.norm()).abs() < 1e-12 && (p - z.arg().to_degrees()).abs() < 1e-9);
    }

    #[test]
    fn a_damper_between_two_bodies_absorbs_half_c_omega_squared_relative_amplitude_squared() {
        let w = 1.2;
        let sys = HeaveSystem { masses: vec![2e5, 3e5], dampers: vec![(0, 1, 4e5)], body_to_body: true };
        let got = steady_heave(&data(2), &sys, w, 1.0).unwrap();
        // The 2 × 2 system by Cramer's rule.
        let (a, b) = (1e5 + 1e4 * w, 2e4 * w);
        let c = Complex::new(0.0, w * 4e5);
        let coupling = Complex::new(-w * w * 5e3, w * 1e3) - c;
        let diag = |m: f64| Complex::new(3e5 - w * w * (m + a), w * b) + c;
        let (d0, d1) = (diag(2e5), diag(3e5));
        let x = Complex::new(2e5, 1e5);
        let det = d0 * d1 - coupling * coupling;
        let z0 = (x * d1 - coupling * x) / det;
        let z1 = (d0 * x - coupling * x) / det;
        assert!((got.heave[0] - z0).norm() < 1e-12 * z0.norm());
        assert!((got.heave[1] - z1).norm() < 1e-12 * z1.norm());
        let p = 0.5 * 4e5 * w * w * (z0 - z1).norm_sqr();
        assert!((got.damper_power[0] - p).abs() < 1e-9 * p, "{} vs {p}", got.damper_power[0]);
        // Without the body-to-body terms the answer changes.
        let off = steady_heave(&data(2), &HeaveSystem { body_to_body: false, ..sys }, w, 1.0).unwrap();
        assert!((off.heave[0] - z0).norm() > 1e-6 * z0.norm());
    }

    #[test]
    fn bad_requests_are_named() {
        let sys = HeaveSystem { masses: vec![1.0], dampers: Vec::new(), body_to_body: false };
        let e = steady_heave(&data(1), &sys, 2.0, 1.0).unwrap_err();
        assert_eq!(e, FrequencyDomainError::Frequency { omega: 2.0, lo: 0.5, hi: 1.5 });
        let two = HeaveSystem { masses: vec![1.0, 1.0], dampers: Vec::new(), body_to_body: false };
        assert_eq!(
            steady_heave(&data(1), &two, 1.0, 1.0).unwrap_err(),
            FrequencyDomainError::Body { index: 1, count: 1 }
        );
        let damper = HeaveSystem { masses: vec![1.0], dampers: vec![(0, 3, 1.0)], body_to_body: false };
        assert_eq!(
            steady_heave(&data(1), &damper, 1.0, 1.0).unwrap_err(),
            FrequencyDomainError::Body { index: 3, count: 1 }
        );
    }
}
