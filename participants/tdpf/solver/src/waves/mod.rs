//! Wave kinematics at the level a linear potential-flow model needs: regular and irregular
//! waves, imported elevation records, spectra, start-up ramps and the dispersion relation.
//!
//! Conventions used throughout (they match the excitation model in [`crate::excitation`]):
//! a regular wave has elevation η(0, t) = A cos(ωt + phase) at the global origin, `t` being the
//! absolute simulation time in seconds; it travels along `heading_deg` (0° = towards +x), so at a
//! distance `x` along that direction η(x, t) = A cos(ωt − kx + phase) with k from [`wave_number`].

mod dispersion;
mod elevation;
mod error;
mod irregular;
mod ramp;
mod regular;
mod series;
mod spectrum;

pub use dispersion::wave_number;
pub use elevation::Elevation;
pub use error::WaveError;
pub use irregular::{FrequencyBand, IrregularWave, WaveComponent};
pub use ramp::Ramp;
pub use regular::RegularWave;
pub use series::ElevationSeries;
pub use spectrum::{Spectrum, SpectrumKind};
