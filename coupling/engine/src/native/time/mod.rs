//! Time bookkeeping and time interpolation (preCICE's `time` and `cplscheme/impl/TimeHandler`);
//! public so code outside the engine compares and samples times exactly as the engine does.

mod bspline;
mod time_handler;
mod waveform;

pub use time_handler::TimeHandler;
pub use waveform::Waveform;

/// The one absolute tolerance preCICE uses for every time comparison; the engine keeps it for
/// relative times (steps, progress) and scales it for absolute ones ([`tolerance`]).
pub const EPS: f64 = 1e-14;

/// The tolerance for comparing absolute times near `t`: [`EPS`], or a few units in the last
/// place where that is below them. Past t = 128 s one ulp of an f64 is 2.8e-14 s, more than
/// [`EPS`], so a sample time and a window start summed in another order (both exact to the
/// last bit of their own sums) would otherwise compare unequal; e.g. RM3's window-start sample
/// was taken for a sub-step after t = 128 s.
pub fn tolerance(t: f64) -> f64 {
    EPS * t.abs().max(1.0)
}

/// `a == b` within [`EPS`].
pub fn equals(a: f64, b: f64) -> bool {
    (a - b).abs() <= EPS
}
