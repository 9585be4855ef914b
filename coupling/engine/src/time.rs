//! Coupled time, summed without drift: the one compensated clock that the driver and the native
//! engine's time handler both use, so that 500 windows of 0.01 s end exactly at 5 s.

/// A Kahan-compensated running sum of time steps.
#[derive(Debug, Clone, Copy, Default)]
pub struct Kahan {
    sum: f64,
    c: f64,
}

impl Kahan {
    /// Adds one step.
    pub fn add(&mut self, x: f64) {
        let y = x - self.c;
        let t = self.sum + y;
        self.c = (t - self.sum) - y;
        self.sum = t;
    }
    /// The sum so far.
    pub fn value(&self) -> f64 {
        self.sum
    }
    /// Back to zero.
    pub fn reset(&mut self) {
        *self = Kahan::default();
    }
}
