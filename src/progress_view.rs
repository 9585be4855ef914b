//! The launcher's progress display, fed by the participants' `@progress <t>` lines: on a
//! terminal a progress bar (simulated time, rate in simulated seconds per wall second, time
//! left), otherwise a plain line per 10 % with the same figures.

use crate::progress_bar::{clock, rate_eta, Bar};
use std::collections::HashMap;
use std::io::Write;
use std::time::{Duration, Instant};

/// Coupled time reached, against the duration the XML declares.
pub struct ProgressView {
    total: Option<f64>,
    times: HashMap<usize, f64>,
    bar: Option<Bar>,
    start: Instant,
    last_draw: Option<Instant>,
    dirty: bool,
    last_decile: i64,
}

const REDRAW: Duration = Duration::from_millis(250);
/// Without a total, a non-terminal gets a line this often.
const PLAIN_INTERVAL: Duration = Duration::from_secs(10);

impl ProgressView {
    pub fn new(total: Option<f64>) -> Self {
        ProgressView {
            total,
            times: HashMap::new(),
            bar: Bar::on_terminal(),
            start: Instant::now(),
            last_draw: None,
            dirty: false,
            last_decile: 0,
        }
    }

    /// Participant `who` reached time `t`; the display shows the slowest participant.
    pub fn update(&mut self, who: usize, t: f64) {
        self.times.insert(who, t);
        self.dirty = true;
        if self.bar.is_none() {
            self.plain();
        }
    }

    fn time(&self) -> Option<f64> {
        self.times.values().copied().reduce(f64::min)
    }

    fn text(&self) -> Option<String> {
        text(self.time()?, self.total, self.start.elapsed().as_secs_f64()).into()
    }

    /// Non-terminal output: one line each time another 10 % is done.
    fn plain(&mut self) {
        let (Some(t), Some(text)) = (self.time(), self.text()) else { return };
        let due = match self.total.filter(|n| *n > 0.0) {
            Some(n) => {
                let decile = ((t / n) * 10.0 + 1e-9).floor() as i64;
                let due = decile > self.last_decile;
                if due {
                    self.last_decile = decile;
                }
                due
            }
            None => self.last_draw.is_none_or(|l| l.elapsed() >= PLAIN_INTERVAL),
        };
        if due {
            self.last_draw = Some(Instant::now());
            // A closed terminal (SIGHUP) must not end the launcher before it stops everyone.
            let _ = writeln!(std::io::stderr(), "{text}");
        }
    }

    /// Terminal output: updates the bar when something changed and 250 ms have passed.
    pub fn tick(&mut self) {
        let Some(bar) = &self.bar else { return };
        if !self.dirty || self.last_draw.is_some_and(|l| l.elapsed() < REDRAW) {
            return;
        }
        let (Some(t), Some(text)) = (self.time(), self.text()) else { return };
        let fraction = self.total.filter(|n| *n > 0.0).map_or(0.0, |n| t / n);
        bar.show(fraction, text);
        self.dirty = false;
        self.last_draw = Some(Instant::now());
    }

    /// Prints a participant's line with the bar off the screen (then draws it again).
    pub fn print(&mut self, print: impl FnOnce()) {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    /// Leaves the last state on screen, ending its line.
    pub fn finish(&mut self) {
        self.dirty = true;
        self.last_draw = None;
        self.tick();
        if let Some(bar) = &self.bar {
            bar.finish();
        }
    }
}

/// `t = 12.000 / 400.000 s (3%), 5.1 sim s per wall s, 1:16 left`: the time reached, the rate
/// and the wall time left (once there is a rate).
fn text(t: f64, total: Option<f64>, elapsed: f64) -> String {
    let Some(n) = total.filter(|n| *n > 0.0) else {
        return match rate_eta(t, t, elapsed) {
            Some((rate, _)) => format!("t = {t:.3} s, {rate:.3} sim s per wall s"),
            None => format!("t = {t:.3} s"),
        };
    };
    let mut s = format!("t = {t:.3} / {n:.3} s ({:.0}%)", (t / n * 100.0).clamp(0.0, 100.0));
    if let Some((rate, left)) = rate_eta(t, n, elapsed) {
        s.push_str(&format!(", {rate:.3} sim s per wall s, {} left", clock(left)));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::text;

    #[test]
    fn the_line_says_time_rate_and_time_left() {
        assert_eq!(text(0.0, Some(400.0), 1.0), "t = 0.000 / 400.000 s (0%)");
        assert_eq!(text(100.0, Some(400.0), 20.0), "t = 100.000 / 400.000 s (25%), 5.000 sim s per wall s, 1:00 left");
        assert_eq!(text(2.0, None, 4.0), "t = 2.000 s, 0.500 sim s per wall s");
    }
}
