//! Per-body wave excitation built once from a [`WaveSpec`] and the file: none, regular, irregular
//! (from a spectrum or explicit components) by frequency superposition or by excitation-IRF
//! convolution, or an imported elevation record by excitation-IRF convolution.

use super::error::HydroError;
use super::options::{IrregularMethod, WaveSpec};
use crate::excitation::ExcitationError;
use crate::excitation::{ExcitationTable, IrfExcitation, OutsideGrid, RegularExcitation, SuperpositionExcitation};
use crate::waves::{wave_number, ElevationSeries, FrequencyBand, IrregularWave, Ramp, RegularWave, WaveComponent};
use nalgebra::Vector6;
use tidelink_hydro_data::HydroData;

/// Components of an irregular wave when the band is not given.
const DEFAULT_COMPONENTS: usize = 500;

/// The excitation of all bodies; `force(b, t)` at absolute time `t`.
#[derive(Debug, Clone)]
pub(crate) enum ExcitationSet {
    None,
    Regular(Vec<RegularExcitation>),
    Superposition(Vec<SuperpositionExcitation>),
    Convolution { wave: IrregularWave, bodies: Vec<IrfExcitation> },
    Imported { series: ElevationSeries, bodies: Vec<IrfExcitation> },
}

impl ExcitationSet {
    pub fn new(data: &HydroData, bodies: usize, spec: &WaveSpec) -> Result<Self, HydroError> {
        match spec {
            WaveSpec::None => Ok(ExcitationSet::None),
            WaveSpec::Regular { height, period, phase, heading_deg, ramp } => {
                let wave = RegularWave::from_height(*height, *period, *phase, *heading_deg)?;
                Ok(ExcitationSet::Regular(per_body(data, bodies, |t| RegularExcitation::new(t, &wave, *ramp))?))
            }
            WaveSpec::Irregular { spectrum, band, seed, heading_deg, ramp, method } => {
                let band = match band {
                    Some(b) => *b,
                    None => FrequencyBand {
                        omega_min: data.omega.first().copied().unwrap_or(0.0),
                        omega_max: data.omega.last().copied().unwrap_or(0.0),
                        count: DEFAULT_COMPONENTS,
                    },
                };
                let wave = IrregularWave::from_spectrum(spectrum, band, *seed, *heading_deg, data.g, data.depth)?;
                irregular(data, bodies, wave, *ramp, *method, OutsideGrid::Zero)
            }
            WaveSpec::Components { components, heading_deg, ramp, method } => {
                let components = components
                    .iter()
                    .map(|c| {
                        let k = wave_number(c.omega, data.g, data.depth)?;
                        Ok(WaveComponent { omega: c.omega, amplitude: c.amplitude, phase: c.phase, wave_number: k })
                    })
                    .collect::<Result<Vec<_>, crate::waves::WaveError>>()?;
                let wave = IrregularWave::from_components(components, *heading_deg)?;
                irregular(data, bodies, wave, *ramp, *method, OutsideGrid::Error)
            }
            WaveSpec::Elevation { series, heading_deg, ramp } => {
                let bodies = per_body(data, bodies, |t| IrfExcitation::new(t, *heading_deg, *ramp))?;
                Ok(ExcitationSet::Imported { series: series.clone(), bodies })
            }
        }
    }

    /// Excitation force and moment on body `b` at absolute time `t`.
    pub fn force(&self, b: usize, t: f64) -> Vector6<f64> {
        match self {
            ExcitationSet::None => Vector6::zeros(),
            ExcitationSet::Regular(v) => v[b].force(t),
            ExcitationSet::Superposition(v) => v[b].force(t),
            ExcitationSet::Convolution { wave, bodies } => bodies[b].force(wave, t),
            ExcitationSet::Imported { series, bodies } => bodies[b].force(series, t),
        }
    }
}

/// An irregular wave's excitation by superposition (components outside the file's frequencies
/// handled as `outside` says) or by IRF convolution.
fn irregular(
    data: &HydroData,
    bodies: usize,
    wave: IrregularWave,
    ramp: Ramp,
    method: IrregularMethod,
    outside: OutsideGrid,
) -> Result<ExcitationSet, HydroError> {
    match method {
        IrregularMethod::Superposition => Ok(ExcitationSet::Superposition(per_body(data, bodies, |t| {
            SuperpositionExcitation::new(t, &wave, ramp, outside)
        })?)),
        IrregularMethod::Convolution => {
            let bodies = per_body(data, bodies, |t| IrfExcitation::new(t, wave.heading_deg(), ramp))?;
            Ok(ExcitationSet::Convolution { wave, bodies })
        }
    }
}

/// `f` applied to the excitation table of each of the first `bodies` bodies.
fn per_body<T>(
    data: &HydroData,
    bodies: usize,
    f: impl Fn(&ExcitationTable) -> Result<T, ExcitationError>,
) -> Result<Vec<T>, HydroError> {
    (0..bodies)
        .map(|b| {
            ExcitationTable::from_hydro(data, b)
                .and_then(|t| f(&t))
                .map_err(|source| HydroError::Excitation { body: b, source })
        })
        .collect()
}
