//! The launcher's progress display, fed by the participants' `@progress <t>` lines:
//! a line redrawn at most 4 times a second on a terminal, otherwise a line per 10 %.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Coupled time reached, against the duration the XML declares.
pub struct ProgressView {
    total: Option<f64>,
    times: HashMap<usize, f64>,
    tty: bool,
    last_draw: Option<Instant>,
    drawn: bool,
    dirty: bool,
    last_decile: i64,
}

const REDRAW: Duration = Duration::from_millis(250);
/// Without a total, a non-terminal gets a line this often.
const PLAIN_INTERVAL: Duration = Duration::from_secs(10);

impl ProgressView {
    pub fn new(total: Option<f64>) -> Self {
        let tty = std::io::stderr().is_terminal();
        ProgressView { total, times: HashMap::new(), tty, last_draw: None, drawn: false, dirty: false, last_decile: 0 }
    }

    /// Participant `who` reached time `t`; the display shows the slowest participant.
    pub fn update(&mut self, who: usize, t: f64) {
        self.times.insert(who, t);
        self.dirty = true;
        if !self.tty {
            self.plain();
        }
    }

    fn time(&self) -> Option<f64> {
        self.times.values().copied().reduce(f64::min)
    }

    fn text(&self) -> Option<String> {
        let t = self.time()?;
        Some(match self.total.filter(|n| *n > 0.0) {
            Some(n) => format!("t = {t:.3} / {n:.3} s ({:.0}%)", (t / n * 100.0).clamp(0.0, 100.0)),
            None => format!("t = {t:.3} s"),
        })
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

    /// Terminal output: redraws the line when something changed and 250 ms have passed.
    pub fn tick(&mut self) {
        if !self.tty || !self.dirty || self.last_draw.is_some_and(|l| l.elapsed() < REDRAW) {
            return;
        }
        if let Some(text) = self.text() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K{text}");
            let _ = err.flush();
            self.drawn = true;
            self.dirty = false;
            self.last_draw = Some(Instant::now());
        }
    }

    /// Erases the progress line so a participant line can be printed in its place.
    pub fn clear(&mut self) {
        if self.tty && self.drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
            self.drawn = false;
            self.dirty = true;
        }
    }

    /// Leaves the last state on screen, ending its line.
    pub fn finish(&mut self) {
        if self.tty {
            self.dirty = true;
            self.last_draw = None;
            self.tick();
            if self.drawn {
                let _ = writeln!(std::io::stderr());
                self.drawn = false;
            }
        }
    }
}
