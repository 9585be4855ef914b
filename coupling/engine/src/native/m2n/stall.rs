//! A wait that gets no message from its partner for a long time says so: a warning naming the
//! partner after [`Settings::stall_warning`], repeated at doubling intervals, and, with
//! [`Settings::stall_timeout`], an error naming the partner that ends the run. A partner
//! stopped (SIGSTOP, a debugger) or hung is then never an endless silent wait.

use crate::native::settings::{Settings, STALL_TIMEOUT_ENV, STALL_WARNING_ENV};
use crate::{CouplingError, Result};
use std::time::{Duration, Instant};

/// The clock of one wait for one partner.
pub(super) struct StallWatch {
    started: Instant,
    next_warning: Option<Duration>,
    timeout: Option<Duration>,
}

impl StallWatch {
    /// A wait starting now, under `settings`.
    pub(super) fn start(settings: &StallSettings) -> StallWatch {
        StallWatch { started: Instant::now(), next_warning: settings.warning, timeout: settings.timeout }
    }

    /// Called when a slice of the wait found nothing: warns when due, fails after the time-out.
    pub(super) fn check(&mut self, me: &str, partner: &str) -> Result<()> {
        let waited = self.started.elapsed();
        if let Some(limit) = self.timeout.filter(|t| waited >= *t) {
            return Err(CouplingError::partner(format!(
                "participant \"{me}\" got no message from participant \"{partner}\" for {} s \
                 ({STALL_TIMEOUT_ENV}={}): \"{partner}\" is stopped or hung; the run is stopped",
                limit.as_secs_f64(),
                limit.as_secs_f64()
            )));
        }
        if let Some(due) = self.next_warning.filter(|d| waited >= *d) {
            let next = due * 2;
            log::warn!(
                "participant \"{me}\" has waited {:.0} s for participant \"{partner}\", which sent nothing: it may be \
                 stopped (SIGSTOP, a debugger), hung or just slow; next warning after {:.0} s ({STALL_WARNING_ENV} \
                 sets the first, {STALL_TIMEOUT_ENV} stops the run after a time-out)",
                waited.as_secs_f64(),
                next.as_secs_f64()
            );
            self.next_warning = Some(next);
        }
        Ok(())
    }
}

/// The stall settings a wait uses (from [`Settings`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct StallSettings {
    warning: Option<Duration>,
    timeout: Option<Duration>,
}

impl From<&Settings> for StallSettings {
    fn from(s: &Settings) -> Self {
        StallSettings { warning: s.stall_warning, timeout: s.stall_timeout }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_silent_partner_is_named_after_the_time_out() {
        let s = StallSettings { warning: Some(Duration::from_secs(3600)), timeout: Some(Duration::ZERO) };
        let e = StallWatch::start(&s).check("Fluid", "Solid").unwrap_err();
        assert_eq!(e.kind, crate::ErrorKind::Partner);
        assert!(e.message.contains("from participant \"Solid\"") && e.message.contains(STALL_TIMEOUT_ENV), "{e}");
    }

    #[test]
    fn warnings_back_off_and_no_time_out_waits_on() {
        let s = StallSettings { warning: Some(Duration::from_secs(1)), timeout: None };
        let mut w = StallWatch::start(&s);
        w.started -= Duration::from_millis(1500);
        w.check("Fluid", "Solid").unwrap();
        assert_eq!(w.next_warning, Some(Duration::from_secs(2)));
        w.check("Fluid", "Solid").unwrap();
        assert_eq!(w.next_warning, Some(Duration::from_secs(2)), "not due again before 2 s");
    }
}
