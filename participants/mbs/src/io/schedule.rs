//! When an output writes: at most `fps` rows (or frames) per second of coupled time, the body
//! states, the links and the scene all on the same times.

/// The output times of one writer: every call with `fps: None`, else the first call at or after
/// each multiple of `1/fps`.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    fps: Option<f64>,
    next_frame: f64,
}

impl Schedule {
    /// Rows at `fps` per second of coupled time (`None`: at every call of [`Self::due`]).
    pub fn new(fps: Option<f64>) -> Self {
        Schedule { fps, next_frame: 0.0 }
    }

    /// Whether a row is due at coupled time `time` (and, if so, books the next one).
    pub fn due(&mut self, time: f64) -> bool {
        let Some(fps) = self.fps else { return true };
        // A relative slack absorbs the round-off of summed window sizes.
        let frame = time * fps;
        let slack = 1e-9 * frame.abs().max(1.0);
        if frame + slack < self.next_frame {
            return false;
        }
        self.next_frame = (frame + slack).floor() + 1.0;
        true
    }
}
