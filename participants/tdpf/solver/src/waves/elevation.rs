//! A common interface for "something that gives η(t) at the origin", so the excitation IRF
//! convolution can take a regular wave, an irregular wave or imported data alike.

/// Free-surface elevation at the global origin (m) as a function of absolute time `t` (s).
pub trait Elevation {
    /// η(0, t). Must be defined for any `t`, including negative times and times ahead of the
    /// simulation clock (the excitation IRF is non-causal).
    fn elevation(&self, t: f64) -> f64;
}

impl<F: Fn(f64) -> f64> Elevation for F {
    fn elevation(&self, t: f64) -> f64 {
        self(t)
    }
}
