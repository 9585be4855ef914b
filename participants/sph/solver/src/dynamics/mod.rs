//! The right-hand side of the fluid equations: momentum (pressure, viscosity, gravity) and
//! continuity (with δ-SPH diffusion). Fluid–fluid pairs are evaluated once and applied to both
//! particles ([`fluid_pass`]); fluid–marker pairs are gathered by the fluid particle.
//!
//! For particle i and neighbour j (r_ij = x_i − x_j, v_ij = v_i − v_j, ∇_i W_ij = F r_ij):
//!
//! - pressure: `a_i −= m (p_i + p_j)/(ρ_i ρ_j) ∇_i W_ij`;
//! - artificial viscosity, approaching pairs only: `a_i −= m Π_ij ∇_i W_ij`,
//!   `Π_ij = −α c0 μ_ij / ρ̄_ij`, `μ_ij = h v_ij·r_ij / (r² + η²)`, η² = 0.01 h²;
//! - laminar viscosity: `a_i += m 4ν (r_ij·∇_i W_ij) v_ij / ((ρ_i + ρ_j)(r² + η²))`;
//! - continuity: `Dρ_i += m (ρ_i/ρ_j) v_ij·∇_i W_ij`;
//! - δ-SPH: `Dρ_i += 2δ h c0 (ρ_j − ρ_i − Δρᴴ_ji) (r_ji·∇_i W_ij)/(r² + η²) m/ρ_j`, where the
//!   hydrostatic difference `Δρᴴ_ji = ρ0 g·(x_j − x_i)/c0²` is the linearised Tait law (its
//!   error is of order γ g 2h / c0², below 1e-4 in any practical setting).
//!
//! Markers (walls and bodies) enter as neighbours with the pressure and density the boundary
//! condition gave them. The pair terms are antisymmetric, so the force that the fluid exerts on
//! a marker, computed by [`marker_forces`] from the same formula, is exactly the opposite of
//! what the marker exerts on the fluid.
//!
//! Each pair term is evaluated in f32 in groups of [`LANES`](crate::particles::LANES) candidates, branch-free so that the
//! compiler vectorises the group; each row of candidates is then added into f64 sums on the
//! particle's own side, and the other side's terms into f32 accumulators.
//!
//! The pieces: [`lanes`] gathers a group and evaluates the terms every pair loop shares,
//! [`fluid`] is the fluid pass, [`slabs`] its concurrent slab schedule with the raw shared
//! outputs, [`reactions`] the fluid's load on the markers.

mod fluid;
pub(crate) mod lanes;
mod reactions;
mod slabs;

pub(crate) use fluid::fluid_pass;
pub(crate) use reactions::marker_forces;
pub(crate) use slabs::Scatter;

use crate::neighbours::{CellGrid, Occupancy};
use crate::particles::Packed;

/// Particles per parallel task.
pub(crate) const CHUNK: usize = 256;

/// The constants of the pair terms, in f32.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PairConsts {
    /// Particle mass.
    pub m: f32,
    pub h: f32,
    pub inv_h: f32,
    pub eta2: f32,
    /// α c0 (artificial viscosity) or 0.
    pub alpha_c0: f32,
    /// α c0 in fluid–marker pairs: `alpha_c0`, or 0 without artificial viscosity at walls.
    pub alpha_c0_markers: f32,
    /// 4ν (laminar viscosity) or 0.
    pub lam: f32,
    /// 2 δ h c0 or 0.
    pub diff: f32,
    /// ρ0 / c0² when the hydrostatic correction is on, else 0.
    pub k_h: f32,
    /// Gravity on the internal axes.
    pub g: [f32; 3],
    /// XSPH ε.
    pub shift: f32,
}

/// One particle's own values, as the pair loops read them.
#[derive(Clone, Copy)]
pub(crate) struct Me<const D: usize> {
    pub x: [f32; D],
    pub v: [f32; D],
    pub rho: f32,
    pub inv_rho: f32,
    pub por: f32,
}

impl<const D: usize> Me<D> {
    /// Entry `i` of a packed set; `viscous` picks the markers' viscous velocity.
    #[inline(always)]
    pub fn of(p: &Packed, i: usize, viscous: bool) -> Self {
        let v = if viscous { &p.vv } else { &p.v };
        Me {
            x: std::array::from_fn(|k| p.x[k][i]),
            v: std::array::from_fn(|k| v[k][i]),
            rho: p.rho[i],
            inv_rho: p.inv_rho[i],
            por: p.por[i],
        }
    }
}

/// What the fluid pass writes per particle: acceleration (internal axes) and Dρ/dt in
/// `[a0, a1, a2, dρ]`, and the XSPH shift velocity.
pub(crate) type Rhs = [f64; 4];

/// Reductions of a pass: the largest `|h v_ij·r_ij/(r² + η²)|` and `|a_i|²`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Extremes {
    pub visc: f64,
    pub acc2: f64,
}

impl Extremes {
    fn max(self, o: Self) -> Self {
        Extremes { visc: self.visc.max(o.visc), acc2: self.acc2.max(o.acc2) }
    }
}

/// Whether the pair loops may use 256-bit vectors (checked once; the result never changes).
pub(crate) fn wide_vectors() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static WIDE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *WIDE.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The inputs of a pass, bundled so the vector-width variants share one signature.
#[derive(Clone, Copy)]
pub(crate) struct Pass<'a, K> {
    pub c: &'a PairConsts,
    pub kernel: &'a K,
    pub grid: &'a CellGrid,
    pub radius: f32,
    pub fluid: &'a Packed,
    pub fstarts: &'a [u32],
    pub markers: &'a Packed,
    pub mstarts: &'a [u32],
    /// Where markers are (a fluid particle far from all of them skips their query).
    pub marker_occupancy: &'a Occupancy,
}
