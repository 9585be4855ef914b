//! Time bookkeeping and time interpolation (preCICE's `time` and `cplscheme/impl/TimeHandler`);
//! public so code outside the engine compares and samples times exactly as the engine does.

mod time_handler;
mod waveform;

pub use time_handler::TimeHandler;
pub use waveform::Waveform;

/// The one absolute tolerance preCICE uses for every time comparison (spec conventions).
pub const EPS: f64 = 1e-14;

/// `a == b` within [`EPS`].
pub fn equals(a: f64, b: f64) -> bool {
    (a - b).abs() <= EPS
}
