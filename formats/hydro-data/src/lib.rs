//! `tidelink-hydro-data`: the data model of a hydrodynamic (BEMIO) file, independent of how it is
//! read: what a time-domain potential-flow model needs, in SI units. Numerics only (no HDF5), so
//! solver libraries can depend on it; `tidelink-bemio` fills it from a file.

#![warn(missing_docs)]

use nalgebra::{DMatrix, Matrix6, Vector3};
use std::path::PathBuf;

/// Water depth: BEMIO writes the string "infinite" for deep water.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WaterDepth {
    /// Deep water: the dispersion relation is ω² = g k (tdpf-loads.md §5).
    Infinite,
    /// Finite depth in metres (positive).
    Finite(f64),
}

/// Everything a time-domain model needs from one file, in SI units (normalisation undone).
#[derive(Debug, Clone)]
pub struct HydroData {
    /// The file it was read from (for messages).
    pub source: PathBuf,
    /// `/bem_data/code` (WAMIT, CAPYTAINE, …), if present.
    pub code: Option<String>,
    /// Water density (kg/m³) of the BEM run; the normalisation is undone with it.
    pub rho: f64,
    /// Gravity (m/s²) of the BEM run; the hydrostatics are rescaled from it to the case's gravity.
    pub g: f64,
    /// Water depth of the BEM run, for the wave dispersion relation.
    pub depth: WaterDepth,
    /// BEM frequencies (rad/s), ascending; not necessarily uniform.
    pub omega: Vec<f64>,
    /// Wave headings (degrees).
    pub headings_deg: Vec<f64>,
    /// One entry per `/body{i}` group, in index order.
    pub bodies: Vec<BodyHydro>,
}

/// One body's coefficients. Matrices with `6 × 6N` shape are this body's 6 rows against
/// the 6 DOFs of every body of the file (body-to-body coupling).
#[derive(Debug, Clone)]
pub struct BodyHydro {
    /// `properties/name`.
    pub name: String,
    /// Centre of gravity at equilibrium (global, m): the hydrostatic reference position.
    pub cg: Vector3<f64>,
    /// Centre of buoyancy at equilibrium (global, m): where the buoyancy force acts.
    pub cb: Vector3<f64>,
    /// Displaced volume at equilibrium (m³).
    pub displaced_volume: f64,
    /// Linear hydrostatic stiffness (× ρg): N/m, N, N·m/rad.
    pub hydrostatic_stiffness: Matrix6<f64>,
    /// Infinite-frequency added mass (× ρ), 6 × 6N.
    pub added_mass_inf: DMatrix<f64>,
    /// Added mass at each BEM frequency (× ρ), 6 × 6N each.
    pub added_mass: Vec<DMatrix<f64>>,
    /// Radiation damping at each BEM frequency (× ρω), 6 × 6N each.
    pub radiation_damping: Vec<DMatrix<f64>>,
    /// Radiation impulse response function (× ρ).
    pub radiation_irf: Option<RadiationIrf>,
    /// State-space realisation of the radiation IRF, per DOF pair.
    pub state_space: Option<StateSpace>,
    /// Wave excitation coefficients on this body's 6 DOFs.
    pub excitation: Excitation,
}

/// `K(t)` sampled on `t` (from 0): `k[s]` is the 6 × 6N matrix at `t[s]` (× ρ, N·s⁻¹… i.e.
/// force per unit velocity per second).
#[derive(Debug, Clone)]
pub struct RadiationIrf {
    /// Sample times (s), ascending from 0; every body of a file must have the same (tdpf-loads.md §2.4).
    pub t: Vec<f64>,
    /// `K(t[s])`, 6 × 6N each, one per entry of `t`.
    pub k: Vec<DMatrix<f64>>,
}

/// Continuous-time state-space fits `ẋ = A x + B u`, `y = C x + D u` of each IRF entry
/// (row r of this body, column c of the 6N), as BEMIO's `radiationIRFSS` writes them.
#[derive(Debug, Clone)]
pub struct StateSpace {
    /// `entries[r][c]`: the realisation of `K_rc` (order 0 when the entry is zero).
    pub entries: Vec<Vec<StateSpaceEntry>>,
}

/// One SISO realisation, already trimmed to its order and scaled by ρ (in `c` and `d`).
#[derive(Debug, Clone)]
pub struct StateSpaceEntry {
    /// State matrix, order × order (1/s).
    pub a: DMatrix<f64>,
    /// Input matrix, order × 1: the input is the velocity of the entry's column DOF.
    pub b: DMatrix<f64>,
    /// Output matrix, 1 × order (× ρ): the output is the radiation force on the entry's row DOF.
    pub c: DMatrix<f64>,
    /// Feedthrough (× ρ); a true IRF has none, and the solver ignores it by default (tdpf-loads.md §4.2).
    pub d: f64,
}

/// Excitation per unit wave amplitude (× ρg): `re[f]`, `im[f]` are 6 × Nh at `omega[f]`.
#[derive(Debug, Clone)]
pub struct Excitation {
    /// Real parts (N/m, N·m/m), one 6 × Nh matrix per BEM frequency, in BEMIO's e^{+iωt} convention.
    pub re: Vec<DMatrix<f64>>,
    /// Imaginary parts, as `re`.
    pub im: Vec<DMatrix<f64>>,
    /// The excitation IRF, for excitation by convolution with the wave elevation.
    pub irf: Option<ExcitationIrf>,
}

/// Excitation impulse response (× ρg) on `t` (symmetric about 0): `f[s]` is 6 × Nh.
#[derive(Debug, Clone)]
pub struct ExcitationIrf {
    /// Sample times (s), ascending and symmetric about 0 (the excitation IRF is non-causal).
    pub t: Vec<f64>,
    /// The IRF at `t[s]` (N/(m·s)), 6 × Nh each.
    pub f: Vec<DMatrix<f64>>,
}
