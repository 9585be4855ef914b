//! Per-scheme time: Kahan-compensated window start and progress (docs/design/coupling-semantics.md §3.1), so that
//! 500 windows of 0.01 end exactly at 5 and sub-step sums never drift across windows.

use super::EPS;
use crate::time::Kahan;

/// Window start, progress inside the window, window counter and the end conditions.
#[derive(Debug, Clone)]
pub struct TimeHandler {
    window_start: Kahan,
    progress: Kahan,
    /// Fixed window size; `None` while a first-participant window is not yet known.
    window_size: Option<f64>,
    max_time: Option<f64>,
    max_windows: Option<u64>,
    /// 1-based counter of the current window.
    window: u64,
}

impl TimeHandler {
    /// A handler at t = 0 in window 1; `None` limits mean unbounded (`window_size` `None`: a
    /// first-participant window not known yet).
    pub fn new(window_size: Option<f64>, max_time: Option<f64>, max_windows: Option<u64>) -> Self {
        TimeHandler {
            window_start: Kahan::default(),
            progress: Kahan::default(),
            window_size,
            max_time,
            max_windows,
            window: 1,
        }
    }
    /// The coupled time: window start plus progress (what `read_data`'s relative time is added to).
    pub fn time(&self) -> f64 {
        self.window_start.value() + self.progress.value()
    }
    /// Where the current window began; a repeated window starts here again.
    pub fn window_start(&self) -> f64 {
        self.window_start.value()
    }
    /// Time advanced inside the current window so far.
    pub fn progress(&self) -> f64 {
        self.progress.value()
    }
    /// 1-based number of the current window, checked against `max-time-windows`.
    pub fn window(&self) -> u64 {
        self.window
    }
    /// The window size, `None` while a first-participant window is not yet known.
    pub fn window_size(&self) -> Option<f64> {
        self.window_size
    }
    /// Used by the second participant of a first-participant scheme.
    pub fn set_window_size(&mut self, dt: f64) {
        self.window_size = Some(dt);
    }
    /// Forgets a first-participant window size once its window is complete.
    pub fn clear_window_size(&mut self) {
        self.window_size = None;
    }
    /// The scheme's `max-time`, if it has one.
    pub fn max_time(&self) -> Option<f64> {
        self.max_time
    }
    /// Remaining time to `max-time` (infinite without one).
    pub fn until_max_time(&self) -> f64 {
        self.max_time.map_or(f64::MAX, |m| m - self.time())
    }
    /// Remaining time in the current window, truncated by `max-time`.
    pub fn until_window_end(&self) -> f64 {
        let w = self.window_size.map_or(f64::MAX, |w| w - self.progress());
        w.min(self.until_max_time())
    }
    /// The absolute time at which the current window ends.
    pub fn window_end_time(&self) -> f64 {
        let start = self.window_start();
        let w = self.window_size.unwrap_or(0.0);
        match self.max_time {
            Some(m) => (start + w).min(m),
            None => start + w,
        }
    }
    /// False once `max-time-windows` windows are done or `max-time` is reached (within ε).
    pub fn is_ongoing(&self) -> bool {
        let windows_ok = self.max_windows.is_none_or(|n| self.window <= n);
        let time_ok = self.max_time.is_none_or(|m| m - self.time() > super::tolerance(m));
        windows_ok && time_ok
    }
    /// Adds a step; true when the window end has been reached (within ε).
    pub fn advance(&mut self, dt: f64) -> bool {
        self.progress.add(dt);
        self.until_window_end().abs() <= EPS
    }
    /// Moves to the next window: exact window-start update, progress reset, counter up.
    pub fn complete_window(&mut self) {
        match self.window_size {
            Some(w) if (self.progress() - w).abs() <= EPS => self.window_start.add(w),
            _ => self.window_start.add(self.progress()),
        }
        self.progress.reset();
        self.window += 1;
    }
    /// Takes time back to the window start (non-converged implicit iteration).
    pub fn reset_progress(&mut self) {
        self.progress.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_hundred_windows_of_a_hundredth_end_at_five() {
        let mut th = TimeHandler::new(Some(0.01), Some(5.0), None);
        let mut windows = 0;
        while th.is_ongoing() {
            let dt = th.until_window_end();
            assert!(th.advance(dt));
            th.complete_window();
            windows += 1;
        }
        assert_eq!(windows, 500);
    }

    #[test]
    fn non_fitting_last_window_is_truncated() {
        let mut th = TimeHandler::new(Some(0.75), Some(1.0), None);
        assert_eq!(th.until_window_end(), 0.75);
        assert!(th.advance(0.75));
        th.complete_window();
        assert!(th.is_ongoing());
        assert!((th.until_window_end() - 0.25).abs() <= EPS);
        assert!(th.advance(0.25));
        th.complete_window();
        assert!(!th.is_ongoing());
    }

    #[test]
    fn sub_steps_of_four_sevenths() {
        let mut th = TimeHandler::new(Some(2.0), None, Some(5));
        let expected = [2.0, 10.0 / 7.0, 6.0 / 7.0, 2.0 / 7.0];
        for e in expected {
            assert!((th.until_window_end() - e).abs() <= EPS);
            let dt = (4.0f64 / 7.0).min(th.until_window_end());
            th.advance(dt);
        }
        assert!(th.until_window_end().abs() <= EPS);
        th.complete_window();
        assert_eq!(th.window_start(), 2.0);
    }
}
