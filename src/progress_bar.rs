//! Progress on a terminal: an `indicatif` bar with what is done, the rate and the time left,
//! shared by `tidelink run` (simulated time) and `tidelink hydro` (frequencies). Off a terminal
//! the callers print plain lines with the same figures ([`rate_eta`], [`clock`]).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Ticks of the bar for a whole run: the bar's resolution.
const TICKS: u64 = 1000;

/// The rate (done per wall second) and the wall seconds left, from `done` of `total` after
/// `elapsed` wall seconds; `None` until something is done.
pub fn rate_eta(done: f64, total: f64, elapsed: f64) -> Option<(f64, f64)> {
    if done <= 0.0 || elapsed <= 0.0 || !done.is_finite() {
        return None;
    }
    let rate = done / elapsed;
    Some((rate, ((total - done).max(0.0)) / rate))
}

/// `secs` as `m:ss`, or `h:mm:ss` from an hour on.
pub fn clock(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// A bar on stderr, drawn only when stderr is a terminal.
pub struct Bar {
    bar: ProgressBar,
}

impl Bar {
    /// A bar on stderr if it is a terminal (`None` otherwise: callers print plain lines).
    pub fn on_terminal() -> Option<Self> {
        let target = ProgressDrawTarget::stderr();
        if target.is_hidden() {
            return None;
        }
        let bar = ProgressBar::with_draw_target(Some(TICKS), target);
        let style =
            ProgressStyle::with_template("{bar:32.cyan/blue} {msg}").unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style.progress_chars("=> "));
        Some(Bar { bar })
    }

    /// Shows `fraction` done (0–1) and `message`.
    pub fn show(&self, fraction: f64, message: String) {
        self.bar.set_position((fraction.clamp(0.0, 1.0) * TICKS as f64).round() as u64);
        self.bar.set_message(message);
    }

    /// Runs `print` with the bar taken off the screen, then draws it again.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        self.bar.suspend(print)
    }

    /// Leaves the last state on screen and ends its line.
    pub fn finish(&self) {
        self.bar.abandon();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_and_time_left() {
        assert_eq!(rate_eta(0.0, 400.0, 3.0), None);
        let (rate, eta) = rate_eta(100.0, 400.0, 20.0).unwrap();
        assert_eq!((rate, eta), (5.0, 60.0));
        assert_eq!(rate_eta(500.0, 400.0, 10.0).unwrap().1, 0.0);
    }

    #[test]
    fn clock_reads_as_minutes_or_hours() {
        assert_eq!(clock(0.4), "0:00");
        assert_eq!(clock(62.0), "1:02");
        assert_eq!(clock(3725.0), "1:02:05");
    }
}
