//! How a [`super::HydroModel`] is configured, independently of any file format.

use crate::radiation::Feedthrough;
use crate::waves::{FrequencyBand, Ramp, Spectrum};

/// Which radiation memory model steps the 6N velocity history.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RadiationMethod {
    /// Direct convolution of the file's IRF (Chrono's choice). `truncation`: memory length (s),
    /// default the IRF span; `entry_tolerance`: skip IRF entries below this relative peak (0 = none).
    Convolution { truncation: Option<f64>, entry_tolerance: f64 },
    /// The file's state-space realisations (WEC-Sim's `ssCalc`).
    StateSpace { feedthrough: Feedthrough },
}

impl Default for RadiationMethod {
    fn default() -> Self {
        RadiationMethod::Convolution { truncation: None, entry_tolerance: 0.0 }
    }
}

/// How an irregular wave's excitation is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IrregularMethod {
    /// Σ over the components of X(ω_i) (WEC-Sim); components outside the BEM range get no force.
    #[default]
    Superposition,
    /// The file's excitation IRF convolved with η (HydroChrono); the ramp acts on η.
    Convolution,
}

/// The incident wave, in terms the file's g and depth turn into a wave.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum WaveSpec {
    /// Still water: no excitation.
    #[default]
    None,
    /// η(0, t) = H/2 cos(2πt/T + phase), `heading_deg` 0 = towards +x; `ramp` multiplies the force.
    Regular { height: f64, period: f64, phase: f64, heading_deg: f64, ramp: Ramp },
    /// A spectrum on `band` (default: the file's frequency range, 500 components) with phases from `seed`.
    Irregular {
        spectrum: Spectrum,
        band: Option<FrequencyBand>,
        seed: u64,
        heading_deg: f64,
        ramp: Ramp,
        method: IrregularMethod,
    },
}

/// Everything a [`super::HydroModel`] needs besides the file.
#[derive(Debug, Clone, PartialEq)]
pub struct HydroOptions {
    /// Number of bodies N (the first N of the file).
    pub bodies: usize,
    /// Fixed step of the radiation history (s): the coupling window.
    pub dt: f64,
    /// Full 6N radiation coupling (true, Chrono) or own blocks only (false, WEC-Sim's default).
    pub body_to_body: bool,
    pub radiation: RadiationMethod,
    pub waves: WaveSpec,
    /// Gravity magnitude for hydrostatics (m/s²); `None` = the file's g.
    pub gravity: Option<f64>,
}
