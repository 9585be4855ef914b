//! Real-time pacing (`simulation.enforce_realtime`): each window waits until the wall clock has
//! caught up with coupled time, so a run can drive a live view or hardware in the loop.

use std::time::{Duration, Instant};

/// Sleeps at window ends so that coupled time never runs ahead of the wall clock.
#[derive(Debug, Default)]
pub(super) struct Pacer {
    /// Pace at all.
    pub(super) realtime: bool,
    clock: Option<Instant>,
}

impl Pacer {
    /// Waits until `time` seconds have passed since the first call.
    pub(super) fn pace(&mut self, time: f64) {
        if !self.realtime {
            return;
        }
        let start = *self.clock.get_or_insert_with(Instant::now);
        let ahead = time - start.elapsed().as_secs_f64();
        if ahead > 0.0 {
            std::thread::sleep(Duration::from_secs_f64(ahead));
        }
    }
}
