//! `tidelink-hydro-data`: the data model of a hydrodynamic (BEMIO) file, independent of how it is
//! read: what a time-domain potential-flow model needs, in SI units. Numerics only (no HDF5), so
//! solver libraries can depend on it; `tidelink-bemio` fills it from a file.

use nalgebra::{DMatrix, Matrix6, Vector3};
use std::path::PathBuf;

/// Water depth: BEMIO writes the string "infinite" for deep water.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WaterDepth {
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
    /// Water density (kg/m³) and gravity (m/s²) of the BEM run.
    pub rho: f64,
    pub g: f64,
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
    /// Centre of gravity and of buoyancy at equilibrium (global, m).
    pub cg: Vector3<f64>,
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
    pub excitation: Excitation,
}

/// `K(t)` sampled on `t` (from 0): `k[s]` is the 6 × 6N matrix at `t[s]` (× ρ, N·s⁻¹… i.e.
/// force per unit velocity per second).
#[derive(Debug, Clone)]
pub struct RadiationIrf {
    pub t: Vec<f64>,
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
    pub a: DMatrix<f64>,
    pub b: DMatrix<f64>,
    pub c: DMatrix<f64>,
    pub d: f64,
}

/// Excitation per unit wave amplitude (× ρg): `re[f]`, `im[f]` are 6 × Nh at `omega[f]`.
#[derive(Debug, Clone)]
pub struct Excitation {
    pub re: Vec<DMatrix<f64>>,
    pub im: Vec<DMatrix<f64>>,
    pub irf: Option<ExcitationIrf>,
}

/// Excitation impulse response (× ρg) on `t` (symmetric about 0): `f[s]` is 6 × Nh.
#[derive(Debug, Clone)]
pub struct ExcitationIrf {
    pub t: Vec<f64>,
    pub f: Vec<DMatrix<f64>>,
}
