//! State-space radiation model: every nonzero IRF entry `K_rc` is the file's continuous SISO
//! realisation driven by `v_c`, discretised exactly for `dt` under a first-order hold
//! ([`discretise_foh`]); `F_r = −Σ_c (C x_rc + D v_c)`. The cost per step is `Σ order²` whatever the
//! IRF length, and the memory is not truncated (the realisation's own decay sets it).
//!
//! The file's `D` (BEMIO's Tustin conversion leaves one; a true IRF has no impulse at 0) is used
//! only with [`Feedthrough::Included`]; WEC-Sim zeroes it, which [`Feedthrough::Ignored`] repeats.

use super::{check_dt, discretise_foh, FohEntry, PushClock, RadiationError, RadiationModel, RadiationState};
use tidelink_hydro_data::{BodyHydro, StateSpace, StateSpaceEntry};

/// The realisations of all `6N × 6N` entries, `entries[r][c]` for `K_rc` (row block `6i..6i+6`
/// from body `i`), as the file holds them.
#[derive(Debug, Clone)]
pub struct StateSpaceSet {
    entries: Vec<Vec<StateSpaceEntry>>,
}

impl StateSpaceSet {
    /// Checks that `entries` is square (`dofs` rows of `dofs` entries, `dofs ≥ 1`).
    pub fn new(entries: Vec<Vec<StateSpaceEntry>>) -> Result<Self, RadiationError> {
        let dofs = entries.len();
        if dofs == 0 {
            return Err(RadiationError::StateSpaceRows { rows: 0, expected: 1 });
        }
        for (row, e) in entries.iter().enumerate() {
            if e.len() != dofs {
                return Err(RadiationError::StateSpaceCols { row, cols: e.len(), expected: dofs });
            }
        }
        Ok(Self { entries })
    }

    /// Stacks the bodies' `6 × 6N` realisations; every body must carry one.
    pub fn from_bodies(bodies: &[BodyHydro]) -> Result<Self, RadiationError> {
        let sets = bodies
            .iter()
            .enumerate()
            .map(|(i, b)| b.state_space.as_ref().ok_or(RadiationError::MissingStateSpace(i)))
            .collect::<Result<Vec<&StateSpace>, _>>()?;
        Self::from_state_spaces(&sets)
    }

    /// As [`StateSpaceSet::from_bodies`] from the realisations alone (body order = slice order).
    pub fn from_state_spaces(sets: &[&StateSpace]) -> Result<Self, RadiationError> {
        if sets.is_empty() {
            return Err(RadiationError::NoBodies);
        }
        let expected = 6 * sets.len();
        let mut entries = Vec::with_capacity(expected);
        for set in sets {
            if set.entries.len() != 6 {
                return Err(RadiationError::StateSpaceRows { rows: set.entries.len(), expected: 6 });
            }
            entries.extend(set.entries.iter().cloned());
        }
        Self::new(entries)
    }

    /// Number of DOFs `6N`.
    pub fn dofs(&self) -> usize {
        self.entries.len()
    }

    /// The realisation of `K_rc`.
    pub fn entry(&self, r: usize, c: usize) -> Option<&StateSpaceEntry> {
        self.entries.get(r).and_then(|row| row.get(c))
    }
}

/// Whether the file's direct term `D` enters the force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feedthrough {
    /// `D` taken as zero, as WEC-Sim does (`ssRadf.D = zeros`): the model realises the fitted IRF.
    Ignored,
    /// `y = C x + D u` as the file writes it.
    Included,
}

/// Discretised realisations of the nonzero entries and their states, allocated once.
#[derive(Debug, Clone)]
pub struct StateSpaceModel {
    /// DOF count, step and pushes.
    clock: PushClock,
    /// Per nonzero entry: `(row, col, discretised realisation, offset of its state in `x`)`.
    entries: Vec<(usize, usize, FohEntry, usize)>,
    /// All states, concatenated.
    x: Vec<f64>,
    /// Scratch of the largest order for `Φ x`.
    scratch: Vec<f64>,
    /// The last pushed velocity (zero before the first push).
    u_prev: Vec<f64>,
}

impl StateSpaceModel {
    /// Discretises every entry of `set` with a nonzero order (or used `D`) for step `dt`.
    pub fn new(set: &StateSpaceSet, dt: f64, feedthrough: Feedthrough) -> Result<Self, RadiationError> {
        check_dt(dt)?;
        let dofs = set.dofs();
        let mut entries = Vec::new();
        let mut offset = 0;
        for (r, row) in set.entries.iter().enumerate() {
            for (c, e) in row.iter().enumerate() {
                let d = if feedthrough == Feedthrough::Included { e.d } else { 0.0 };
                let zero_out = e.c.iter().all(|&x| x == 0.0) || e.b.iter().all(|&x| x == 0.0);
                if (e.a.nrows() == 0 || zero_out) && d == 0.0 {
                    continue;
                }
                let mut foh = discretise_foh(e, dt, r, c)?;
                foh.d = d;
                let order = foh.order();
                entries.push((r, c, foh, offset));
                offset += order;
            }
        }
        let max_order = entries.iter().map(|e| e.2.order()).max().unwrap_or(0);
        Ok(Self {
            clock: PushClock::new(dofs, dt),
            entries,
            x: vec![0.0; offset],
            scratch: vec![0.0; max_order],
            u_prev: vec![0.0; dofs],
        })
    }

    /// Number of realisations actually stepped.
    pub fn active_entries(&self) -> usize {
        self.entries.len()
    }

    /// Total state dimension `Σ order`.
    pub fn states(&self) -> usize {
        self.x.len()
    }
}

impl RadiationModel for StateSpaceModel {
    fn clock(&self) -> &PushClock {
        &self.clock
    }

    fn push(&mut self, v: &[f64]) -> Result<(), RadiationError> {
        self.clock.check_velocity(v)?;
        for (_, c, e, off) in &self.entries {
            let o = e.order();
            let x = &mut self.x[*off..*off + o];
            let (u0, u1) = (self.u_prev[*c], v[*c]);
            for i in 0..o {
                let phi = &e.phi[i * o..(i + 1) * o];
                self.scratch[i] =
                    phi.iter().zip(x.iter()).map(|(a, b)| a * b).sum::<f64>() + e.g_prev[i] * u0 + e.g_new[i] * u1;
            }
            x.copy_from_slice(&self.scratch[..o]);
        }
        self.u_prev.copy_from_slice(v);
        self.clock.pushes += 1;
        Ok(())
    }

    fn force(&self, out: &mut [f64]) -> Result<(), RadiationError> {
        self.clock.check_force(out)?;
        out.fill(0.0);
        for (r, c, e, off) in &self.entries {
            let x = &self.x[*off..*off + e.order()];
            let y: f64 = e.c.iter().zip(x).map(|(a, b)| a * b).sum::<f64>() + e.d * self.u_prev[*c];
            out[*r] -= y;
        }
        Ok(())
    }

    fn save_state(&self) -> RadiationState {
        RadiationState::new(self.clock.pushes, [self.x.as_slice(), self.u_prev.as_slice()].concat())
    }

    fn restore_state(&mut self, state: &RadiationState) -> Result<(), RadiationError> {
        let (nx, nu) = (self.x.len(), self.u_prev.len());
        let values = state.values(nx + nu)?;
        self.x.copy_from_slice(&values[..nx]);
        self.u_prev.copy_from_slice(&values[nx..]);
        self.clock.pushes = state.pushes;
        Ok(())
    }

    fn reset(&mut self) {
        self.x.fill(0.0);
        self.u_prev.fill(0.0);
        self.clock.pushes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    pub(crate) fn first_order(a: f64, b: f64) -> StateSpaceEntry {
        StateSpaceEntry {
            a: DMatrix::from_element(1, 1, -b),
            b: DMatrix::from_element(1, 1, 1.0),
            c: DMatrix::from_element(1, 1, a),
            d: 0.0,
        }
    }

    #[test]
    fn sine_response_matches_analytic_to_1e6() {
        // K = a e^{−bt} realised exactly by (−b, 1, a, 0); the FOH is exact for piecewise-linear v,
        // so the only error is linear interpolation of sin: relative ≈ ω²dt²/12.
        let (a, b, w, dt) = (2.0, 1.0, 0.8, 0.005);
        let set = StateSpaceSet::new(vec![vec![first_order(a, b)]]).expect("set");
        let mut ss = StateSpaceModel::new(&set, dt, Feedthrough::Ignored).expect("model");
        let amp = a / (b * b + w * w).sqrt();
        let mut f = [0.0];
        let mut worst: f64 = 0.0;
        for k in 0..12_000 {
            let t = k as f64 * dt;
            ss.push(&[(w * t).sin()]).expect("push");
            ss.force(&mut f).expect("force");
            if t > 40.0 {
                let exact = -a / (b * b + w * w) * (b * (w * t).sin() - w * (w * t).cos());
                worst = worst.max((f[0] - exact).abs() / amp);
            }
        }
        println!("state space, sine: worst relative error {worst:.2e} (ω²dt²/12 = {:.2e})", w * w * dt * dt / 12.0);
        assert!(worst < 2e-6, "relative error {worst:e}");
    }

    #[test]
    fn step_response_is_exact_for_the_ramp() {
        // v: 0 at −dt, ramp to 1 at 0, then 1. Exact y(t) = ∫ a e^{−bτ} v(t − τ) dτ.
        let (a, b, dt) = (3.0, 0.7, 0.1);
        let set = StateSpaceSet::new(vec![vec![first_order(a, b)]]).expect("set");
        let mut ss = StateSpaceModel::new(&set, dt, Feedthrough::Ignored).expect("model");
        let mut f = [0.0];
        for k in 0..50 {
            ss.push(&[1.0]).expect("push");
            ss.force(&mut f).expect("force");
            let t = k as f64 * dt;
            // ∫_0^t a e^{−bτ} dτ + ∫_t^{t+dt} a e^{−bτ} (t + dt − τ)/dt dτ
            let full = a / b * (1.0 - (-b * t).exp());
            let ramp = a * (-b * t).exp() * (1.0 / b - (1.0 - (-b * dt).exp()) / (b * b * dt));
            assert!((f[0] + full + ramp).abs() < 1e-12, "k = {k}: {} vs {}", f[0], -(full + ramp));
        }
    }

    #[test]
    fn feedthrough_adds_d_times_the_newest_velocity() {
        let mut entry = first_order(3.0, 0.7);
        entry.d = 2.5;
        let set = StateSpaceSet::new(vec![vec![entry]]).expect("set");
        let mut f = [[0.0]; 2];
        for (i, mode) in [Feedthrough::Ignored, Feedthrough::Included].into_iter().enumerate() {
            let mut ss = StateSpaceModel::new(&set, 0.1, mode).expect("model");
            ss.push(&[0.4]).expect("push");
            ss.push(&[1.0]).expect("push");
            ss.force(&mut f[i]).expect("force");
        }
        assert!((f[1][0] - f[0][0] + 2.5).abs() < 1e-14, "{f:?}");
    }

    #[test]
    fn rejects_bad_inputs() {
        assert!(matches!(
            StateSpaceSet::new(vec![vec![first_order(1.0, 1.0)], vec![]]),
            Err(RadiationError::StateSpaceCols { row: 0, cols: 1, expected: 2 })
        ));
        let set = StateSpaceSet::new(vec![vec![first_order(1.0, 1.0)]]).expect("set");
        assert_eq!(
            StateSpaceModel::new(&set, -1.0, Feedthrough::Ignored).unwrap_err(),
            RadiationError::NonPositiveStep(-1.0)
        );
        let mut ss = StateSpaceModel::new(&set, 0.1, Feedthrough::Ignored).expect("model");
        assert_eq!(ss.force(&mut [0.0]).unwrap_err(), RadiationError::NoVelocity);
        assert_eq!(ss.push(&[]).unwrap_err(), RadiationError::VelocityLength { got: 0, expected: 1 });
    }
}
