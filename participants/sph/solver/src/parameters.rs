//! The numerical parameters of a run, with the defaults and why they were chosen.

use crate::eos::Tait;
use crate::error::{Result, SphError};
use crate::kernel::{Kernel, KernelKind};
use nalgebra::{Point3, Vector3};

/// Two-dimensional runs live in the vertical x–z plane (y = 0); three-dimensional runs in space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    /// The x–z plane; masses, forces and torques are per metre of depth along y.
    Two,
    /// Space.
    Three,
}

impl Dimension {
    /// 2 or 3.
    pub fn count(self) -> usize {
        match self {
            Dimension::Two => 2,
            Dimension::Three => 3,
        }
    }

    /// The world axes (0 = x, 1 = y, 2 = z) that the solver's internal axes stand for.
    pub(crate) fn axes(self) -> &'static [usize] {
        match self {
            Dimension::Two => &[0, 2],
            Dimension::Three => &[0, 1, 2],
        }
    }
}

/// The viscous term of the momentum equation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Viscosity {
    /// Monaghan's artificial viscosity, acting on approaching pairs only, with coefficient α.
    Artificial {
        /// α (dimensionless).
        alpha: f64,
    },
    /// Laminar viscosity in the Lo–Shao form.
    Laminar {
        /// Kinematic viscosity ν (m²/s).
        kinematic: f64,
    },
}

/// δ-SPH density diffusion in the continuity equation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DensityDiffusion {
    /// δ (dimensionless).
    pub delta: f64,
    /// Remove the hydrostatic part of the density difference between two particles before
    /// diffusing it; without it, diffusion slowly flattens the hydrostatic density profile.
    pub hydrostatic_correction: bool,
}

/// How the markers of walls and bodies take their state from the fluid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundaryOptions {
    /// Viscous terms see the mirrored velocity `2 v_wall − ⟨v_fluid⟩` (no slip) instead of the
    /// wall velocity.
    pub no_slip: bool,
    /// Artificial viscosity also acts between fluid and markers, as in DualSPHysics (its
    /// `ViscoBoundFactor` = 1): it damps fluid running into a wall, and fluid sliding along a
    /// wall feels a numerical friction of order α h c0. Off, a wall without `no_slip` is
    /// frictionless (TrixiParticles.jl's default walls); laminar viscosity always acts.
    pub artificial_viscosity: bool,
    /// Clamp the extrapolated marker pressure at zero, so walls and bodies never pull fluid.
    pub clamp_negative_pressure: bool,
}

/// Everything numerical about a run. [`Parameters::new`] fills in the defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct Parameters {
    /// 2D (x–z plane) or 3D.
    pub dimension: Dimension,
    /// Initial particle spacing dp (m); particle and marker mass is ρ0 dp^dim.
    pub spacing: f64,
    /// h / dp.
    pub smoothing_ratio: f64,
    /// Kernel function.
    pub kernel: KernelKind,
    /// Rest density ρ0 (kg/m³).
    pub rest_density: f64,
    /// Numerical sound speed c0 (m/s).
    pub sound_speed: f64,
    /// Tait exponent γ.
    pub gamma: f64,
    /// Gravity (m/s²), world frame; in 2D its y component is ignored.
    pub gravity: Vector3<f64>,
    /// Viscous term.
    pub viscosity: Viscosity,
    /// δ-SPH, or none.
    pub density_diffusion: Option<DensityDiffusion>,
    /// CFL number of the time-step limit.
    pub cfl: f64,
    /// XSPH shifting coefficient ε, or none: particles move with `v + ε Σ m (v_j − v_i) W / ρ̄`.
    pub shifting: Option<f64>,
    /// Marker boundary condition options.
    pub boundary: BoundaryOptions,
    /// Neighbour-grid cells per support radius across rows (y, z in 3D; z in 2D), 1 or 2; a
    /// speed setting only.
    pub cells_per_support: usize,
    /// Neighbour-grid cells per support radius along rows (x), 1 to 8; a speed setting only.
    pub row_cells: usize,
    /// Fluid particles leaving this box (world frame) are removed; none: the grid follows all
    /// particles, and a particle flying far away stops the run with [`SphError::DomainTooLarge`].
    pub domain: Option<(Point3<f64>, Point3<f64>)>,
}

impl Parameters {
    /// The defaults for `dimension`, spacing `dp` and sound speed `c0` (see
    /// [`Parameters::sound_speed_for_depth`]):
    ///
    /// - Wendland C2 with h = 1.5 dp in 3D (about 100 neighbours) and h = 1.41 dp in 2D
    ///   (about 25): Wendland needs no tensile correction, and these are the smallest ratios
    ///   at which its gradient estimate stays within a few per cent on a lattice;
    /// - ρ0 = 1000 kg/m³, γ = 7, g = (0, 0, −9.81) m/s²;
    /// - artificial viscosity α = 0.02, enough to damp acoustic noise without visibly slowing
    ///   a free-surface flow;
    /// - δ-SPH with δ = 0.1 and the hydrostatic correction, which keeps still water still;
    /// - CFL 0.2; no shifting; free-slip walls with non-negative marker pressure.
    pub fn new(dimension: Dimension, dp: f64, c0: f64) -> Self {
        let three = dimension == Dimension::Three;
        Parameters {
            dimension,
            spacing: dp,
            smoothing_ratio: if three { 1.5 } else { 1.41 },
            kernel: KernelKind::WendlandC2,
            rest_density: 1000.0,
            sound_speed: c0,
            gamma: 7.0,
            gravity: Vector3::new(0.0, 0.0, -9.81),
            viscosity: Viscosity::Artificial { alpha: 0.02 },
            density_diffusion: Some(DensityDiffusion { delta: 0.1, hydrostatic_correction: true }),
            cfl: 0.2,
            shifting: None,
            boundary: BoundaryOptions { no_slip: false, artificial_viscosity: true, clamp_negative_pressure: true },
            cells_per_support: if three { 2 } else { 1 },
            row_cells: 4,
            domain: None,
        }
    }

    /// The usual sound speed for free-surface water of depth `depth`: 20 √(g d), ten times the
    /// fastest shallow-water front `2 √(g d)`, so density varies by about 1 %.
    pub fn sound_speed_for_depth(depth: f64, gravity: f64) -> f64 {
        20.0 * (gravity.abs() * depth).sqrt()
    }

    /// Smoothing length h (m).
    pub fn h(&self) -> f64 {
        self.smoothing_ratio * self.spacing
    }

    /// The kernel these parameters describe.
    pub fn kernel(&self) -> Kernel {
        Kernel { kind: self.kernel, h: self.h(), dim: self.dimension.count() }
    }

    /// The equation of state.
    pub fn eos(&self) -> Tait {
        Tait { rest_density: self.rest_density, sound_speed: self.sound_speed, gamma: self.gamma }
    }

    /// Mass of one particle or marker: ρ0 dp^dim (per metre of depth in 2D).
    pub fn particle_mass(&self) -> f64 {
        self.rest_density * self.spacing.powi(self.dimension.count() as i32)
    }

    /// Marker layers needed so that walls are at least one support radius (2h) thick.
    pub fn marker_layers(&self) -> usize {
        (2.0 * self.smoothing_ratio - 1e-9).ceil() as usize
    }

    /// Checks ranges; every error names the field.
    pub fn validate(&self) -> Result<()> {
        let bad = |name, reason: String| Err(SphError::InvalidParameter { name, reason });
        let positive = [
            ("spacing", self.spacing),
            ("rest_density", self.rest_density),
            ("sound_speed", self.sound_speed),
            ("gamma", self.gamma),
            ("cfl", self.cfl),
        ];
        for (name, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return bad(name, format!("must be finite and positive, got {v}"));
            }
        }
        if !(1.0..=3.0).contains(&self.smoothing_ratio) {
            return bad("smoothing_ratio", format!("h/dp must be in [1, 3], got {}", self.smoothing_ratio));
        }
        if self.cfl > 0.5 {
            return bad("cfl", format!("must be at most 0.5, got {}", self.cfl));
        }
        if !(1..=3).contains(&self.cells_per_support) {
            return bad("cells_per_support", format!("must be 1 to 3, got {}", self.cells_per_support));
        }
        if !(1..=8).contains(&self.row_cells) {
            return bad("row_cells", format!("must be 1 to 8, got {}", self.row_cells));
        }
        if !self.gravity.iter().all(|g| g.is_finite()) {
            return bad("gravity", "must be finite".into());
        }
        match self.viscosity {
            Viscosity::Artificial { alpha } if !(alpha.is_finite() && alpha >= 0.0) => {
                return bad("viscosity", format!("α must be finite and ≥ 0, got {alpha}"));
            }
            Viscosity::Laminar { kinematic } if !(kinematic.is_finite() && kinematic >= 0.0) => {
                return bad("viscosity", format!("ν must be finite and ≥ 0, got {kinematic}"));
            }
            _ => {}
        }
        if let Some(d) = self.density_diffusion {
            if !(d.delta.is_finite() && d.delta >= 0.0) {
                return bad("density_diffusion", format!("δ must be finite and ≥ 0, got {}", d.delta));
            }
        }
        if let Some(e) = self.shifting {
            if !(e.is_finite() && (0.0..=1.0).contains(&e)) {
                return bad("shifting", format!("ε must be in [0, 1], got {e}"));
            }
        }
        if let Some((lo, hi)) = self.domain {
            if (0..3).any(|k| lo[k].partial_cmp(&hi[k]) != Some(std::cmp::Ordering::Less)) {
                return bad("domain", format!("min {lo:?} must be below max {hi:?} on every axis"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_errors_name_the_field() {
        let p = Parameters::new(Dimension::Two, 0.02, 40.0);
        p.validate().unwrap();
        assert_eq!(p.marker_layers(), 3);
        assert!((p.particle_mass() - 0.4).abs() < 1e-12);
        let p3 = Parameters::new(Dimension::Three, 0.02, 40.0);
        assert_eq!(p3.marker_layers(), 3);
        let mut q = p.clone();
        q.smoothing_ratio = 4.0;
        let e = q.validate().unwrap_err().to_string();
        assert!(e.contains("smoothing_ratio"), "{e}");
        let mut q = p;
        q.sound_speed = f64::NAN;
        assert!(q.validate().unwrap_err().to_string().contains("sound_speed"));
        assert!((Parameters::sound_speed_for_depth(1.0, -9.81) - 62.64).abs() < 0.01);
    }
}
