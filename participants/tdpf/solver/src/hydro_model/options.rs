//! How a [`super::HydroModel`] is configured, independently of any file format.

use crate::radiation::{Feedthrough, FitOptions};
use crate::waves::{ElevationSeries, FrequencyBand, Ramp, Spectrum};

/// Which radiation memory model steps the 6N velocity history.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RadiationMethod {
    /// Direct convolution of the file's IRF (Chrono's choice). `truncation`: memory length (s),
    /// default the IRF span; `entry_tolerance`: skip IRF entries below this relative peak (0 = none).
    Convolution {
        /// Memory length T (s); `None` is the file's IRF span.
        truncation: Option<f64>,
        /// Relative peak below which an IRF entry is skipped as BEM noise (0: only zero entries).
        entry_tolerance: f64,
    },
    /// The file's state-space realisations (WEC-Sim's `ssCalc`).
    StateSpace {
        /// Whether the realisations' `D` enters the force (WEC-Sim ignores it).
        feedthrough: Feedthrough,
    },
    /// Our own realisations, identified from the IRF at start-up ([`crate::radiation::identify`]);
    /// when an entry misses the fit target, the convolution over the same span is used instead
    /// (and [`super::HydroModel::radiation_choice`] says why). The default: the convolution's
    /// accuracy at a state space's cost.
    Identified {
        /// Fit span T (s), also the fallback convolution's memory; `None` is the IRF span.
        truncation: Option<f64>,
        /// Fit quality every entry must reach (R² of the IRF for the entries that matter).
        target: f64,
        /// Largest order tried per entry.
        max_order: usize,
    },
}

impl RadiationMethod {
    /// The identified state space with the default target (R² 0.99999) and orders (up to 24).
    pub fn identified(truncation: Option<f64>) -> Self {
        let d = FitOptions::default();
        RadiationMethod::Identified { truncation, target: d.target, max_order: d.max_order }
    }
}

impl Default for RadiationMethod {
    fn default() -> Self {
        RadiationMethod::identified(None)
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
    Regular {
        /// Wave height H (m), twice the amplitude.
        height: f64,
        /// Period T (s).
        period: f64,
        /// Phase at the origin at t = 0 (rad).
        phase: f64,
        /// Direction of travel (degrees, 0 = towards +x); must lie within the file's headings.
        heading_deg: f64,
        /// Fade-in of the excitation force.
        ramp: Ramp,
    },
    /// A spectrum on `band` (default: the file's frequency range, 500 components) with phases from `seed`.
    Irregular {
        /// The sea state (Hs, Tp, shape).
        spectrum: Spectrum,
        /// Component frequencies; `None` is the file's frequency range with 500 components.
        band: Option<FrequencyBand>,
        /// Seed of the random phases: the same seed gives the same sea bit for bit.
        seed: u64,
        /// Direction of travel (degrees, 0 = towards +x).
        heading_deg: f64,
        /// Fade-in, of the force (superposition) or of η (convolution).
        ramp: Ramp,
        /// Superposition of X(ω_i) or convolution with the excitation IRF.
        method: IrregularMethod,
    },
    /// An irregular wave given component by component (an imported sea state, e.g. WEC-Sim's
    /// stored ω, amplitude and phase), so that another code's exact sea can be rebuilt.
    Components {
        /// The components; wave numbers come from the file's g and depth.
        components: Vec<ComponentSpec>,
        /// Direction of travel (degrees, 0 = towards +x).
        heading_deg: f64,
        /// Fade-in, of the force (superposition) or of η (convolution).
        ramp: Ramp,
        /// Superposition of X(ω_i) (a component outside the file's frequencies is an error) or
        /// convolution with the excitation IRF.
        method: IrregularMethod,
    },
    /// A measured elevation record at the origin (WEC-Sim's `elevationImport`), turned into
    /// excitation by convolution with the file's excitation impulse response.
    Elevation {
        /// η(0, t), zero outside the record.
        series: ElevationSeries,
        /// Direction of travel (degrees), for the IRF's heading.
        heading_deg: f64,
        /// Fade-in of η (none when the record already starts from still water).
        ramp: Ramp,
    },
}

/// One component of [`WaveSpec::Components`]: η_i = amplitude · cos(ω t + phase) at the origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ComponentSpec {
    /// Angular frequency ω (rad/s).
    pub omega: f64,
    /// Amplitude (m).
    pub amplitude: f64,
    /// Phase at the origin at t = 0 (rad).
    pub phase: f64,
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
    /// Convolution or state space for the radiation memory.
    pub radiation: RadiationMethod,
    /// The incident wave, for the excitation.
    pub waves: WaveSpec,
    /// Gravity magnitude for hydrostatics (m/s²); `None` = the file's g.
    pub gravity: Option<f64>,
}
