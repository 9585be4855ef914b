//! Progress lines from participant processes to the `tidelink run` launcher.
//!
//! A participant prints `@progress <time>` on stdout (at most four times a second);
//! the launcher turns these into one progress display and does not echo them.

use crate::driver::Progress;
use std::io::Write;
use std::time::{Duration, Instant};

/// The prefix of a progress line.
pub const PREFIX: &str = "@progress ";

/// Prints progress lines, rate-limited to one per `interval`.
pub struct LineReporter {
    last: Option<Instant>,
    interval: Duration,
}

impl Default for LineReporter {
    fn default() -> Self {
        LineReporter { last: None, interval: Duration::from_millis(250) }
    }
}

impl Progress for LineReporter {
    fn window_completed(&mut self, time: f64, _windows: u64) {
        let now = Instant::now();
        if self.last.is_none_or(|l| now.duration_since(l) >= self.interval) {
            self.last = Some(now);
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{PREFIX}{time}");
            let _ = out.flush();
        }
    }
}

/// Parses a progress line, if `line` is one.
pub fn parse(line: &str) -> Option<f64> {
    line.strip_prefix(PREFIX)?.trim().parse().ok()
}
