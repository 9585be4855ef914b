//! Watching the running participants: echo their output with a `[Name] ` prefix, turn
//! `@progress` lines into the progress display, and stop everyone as soon as one fails
//! or the launcher gets SIGINT (Ctrl-C), SIGTERM or SIGHUP.

use crate::launch::Running;
use crate::output::{Event, Stream, Tail};
use crate::progress_view::ProgressView;
use crate::stop;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tidelink_adapter_core::launcher::PARTNER_EXIT;
use tidelink_adapter_core::progress;

/// Lines kept per participant for the failure report.
pub const TAIL_LINES: usize = 10;
const POLL: Duration = Duration::from_millis(50);
/// How long output may still arrive after the processes are gone (grandchildren, buffers).
const DRAIN: Duration = Duration::from_millis(500);
/// How long the others may take to exit by themselves after one stopped because of a partner
/// (the failing one may still be writing its message or closing its files).
const SETTLE: Duration = Duration::from_secs(5);

/// How the run ended.
pub enum Outcome {
    /// Every participant exited 0.
    Success,
    /// Participant `who` failed first (the culprit); `partners` stopped because of a partner's
    /// failure (their own exit status said so), `stopped` were stopped by the launcher.
    Failed { who: usize, status: ExitStatus, tail: Vec<String>, partners: Vec<String>, stopped: Vec<String> },
    /// SIGINT, SIGTERM or SIGHUP; the listed participants were stopped.
    Interrupted { stopped: Vec<String> },
}

/// One participant as the supervisor tracks it.
struct Slot {
    run: Running,
    status: Option<ExitStatus>,
    /// When it exited, in the order the launcher saw the exits.
    exited: Option<usize>,
    open_pipes: usize,
    tail: Tail,
}

/// Runs until all participants exit, one fails, or `interrupts` becomes non-zero.
pub fn supervise(runs: Vec<Running>, rx: Receiver<Event>, total: Option<f64>, interrupts: Arc<AtomicUsize>) -> Outcome {
    let mut slots: Vec<Slot> = runs
        .into_iter()
        .map(|run| Slot { run, status: None, exited: None, open_pipes: 2, tail: Tail::new(TAIL_LINES) })
        .collect();
    let mut view = ProgressView::new(total);
    let failed = loop {
        pump(&rx, &mut slots, &mut view, POLL);
        if interrupts.load(Ordering::SeqCst) > 0 {
            break None;
        }
        if let Some(who) = reap(&mut slots) {
            // A participant that stopped because of a partner is seldom the culprit: give the
            // others a moment to exit by themselves, then blame the first to fail on its own.
            if stopped_by_partner(&slots[who]) {
                settle(&rx, &mut slots, &mut view, &interrupts);
            }
            break Some(culprit(&slots).unwrap_or(who));
        }
        if slots.iter().all(|s| s.status.is_some()) {
            drain(&rx, &mut slots, &mut view);
            view.finish();
            return Outcome::Success;
        }
        view.tick();
    };
    let stopped = stop_all(&rx, &mut slots, &mut view, &interrupts);
    drain(&rx, &mut slots, &mut view);
    view.finish();
    match failed {
        Some(who) => {
            // Those that exited saying a partner failed, also after the launcher's SIGTERM.
            let partners: Vec<String> = slots
                .iter()
                .enumerate()
                .filter(|&(i, s)| i != who && stopped_by_partner(s))
                .map(|(_, s)| s.run.name.clone())
                .collect();
            Outcome::Failed {
                who,
                status: slots[who].status.unwrap_or_else(|| ExitStatus::from_raw(1 << 8)),
                tail: slots[who].tail.lines().map(str::to_string).collect(),
                stopped: stopped.into_iter().filter(|n| !partners.contains(n)).collect(),
                partners,
            }
        }
        None => Outcome::Interrupted { stopped },
    }
}

/// Handles the events that arrive within `wait`.
fn pump(rx: &Receiver<Event>, slots: &mut [Slot], view: &mut ProgressView, wait: Duration) {
    let deadline = Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(Event::Line { who, stream, text }) => line(slots, view, who, stream, &text),
            Ok(Event::Closed { who }) => slots[who].open_pipes = slots[who].open_pipes.saturating_sub(1),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => return,
        }
        if Instant::now() >= deadline {
            return;
        }
    }
}

fn line(slots: &mut [Slot], view: &mut ProgressView, who: usize, stream: Stream, text: &str) {
    if let Some(t) = progress::parse(text) {
        view.update(who, t);
        return;
    }
    let slot = &mut slots[who];
    let shown = format!("[{}] {text}", slot.run.name);
    slot.tail.push(&shown);
    view.print(|| match stream {
        Stream::Out => {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{shown}");
            let _ = out.flush();
        }
        // Never `eprintln!`: a closed terminal (SIGHUP) would end the launcher mid-stop.
        Stream::Err => {
            let _ = writeln!(std::io::stderr(), "{shown}");
        }
    });
}

/// Records exits; returns the first participant that failed (non-zero or signal).
fn reap(slots: &mut [Slot]) -> Option<usize> {
    let mut failed = None;
    let mut seen = slots.iter().filter(|s| s.exited.is_some()).count();
    for (i, s) in slots.iter_mut().enumerate().filter(|(_, s)| s.status.is_none()) {
        if let Ok(Some(status)) = s.run.child.try_wait() {
            s.status = Some(status);
            s.exited = Some(seen);
            seen += 1;
            if !status.success() && failed.is_none() {
                failed = Some(i);
            }
        }
    }
    failed
}

/// Whether `s` exited saying a partner's failure stopped it ([`PARTNER_EXIT`]).
fn stopped_by_partner(s: &Slot) -> bool {
    by_partner(s.status)
}

fn by_partner(status: Option<ExitStatus>) -> bool {
    status.and_then(|st| st.code()) == Some(PARTNER_EXIT)
}

/// Waits until every participant has exited, at most [`SETTLE`] (or an interrupt).
fn settle(rx: &Receiver<Event>, slots: &mut [Slot], view: &mut ProgressView, interrupts: &AtomicUsize) {
    let deadline = Instant::now() + SETTLE;
    while Instant::now() < deadline && interrupts.load(Ordering::SeqCst) == 0 {
        if slots.iter().all(|s| s.status.is_some()) {
            return;
        }
        pump(rx, slots, view, POLL);
        reap(slots);
    }
}

/// The first participant, in the order of their exits, that failed on its own (not because of
/// a partner); `None` when none did.
fn culprit(slots: &[Slot]) -> Option<usize> {
    first_on_its_own(slots.iter().map(|s| (s.status, s.exited)))
}

/// [`culprit`] over each participant's exit status and exit order.
fn first_on_its_own(exits: impl Iterator<Item = (Option<ExitStatus>, Option<usize>)>) -> Option<usize> {
    exits
        .enumerate()
        .filter(|(_, (status, _))| status.is_some_and(|st| !st.success()) && !by_partner(*status))
        .min_by_key(|(_, (_, order))| *order)
        .map(|(i, _)| i)
}

/// SIGTERM to everyone still running, SIGKILL after the grace period (or a second Ctrl-C).
fn stop_all(
    rx: &Receiver<Event>,
    slots: &mut [Slot],
    view: &mut ProgressView,
    interrupts: &AtomicUsize,
) -> Vec<String> {
    let stopped: Vec<String> = slots.iter().filter(|s| s.status.is_none()).map(|s| s.run.name.clone()).collect();
    let presses = interrupts.load(Ordering::SeqCst);
    for s in slots.iter_mut().filter(|s| s.status.is_none()) {
        stop::signal_group(&mut s.run.child, "TERM");
    }
    let deadline = Instant::now() + stop::GRACE;
    while Instant::now() < deadline && interrupts.load(Ordering::SeqCst) <= presses.max(1) {
        pump(rx, slots, view, POLL);
        reap(slots);
        if slots.iter().all(|s| s.status.is_some()) {
            return stopped;
        }
    }
    for s in slots.iter_mut().filter(|s| s.status.is_none()) {
        stop::signal_group(&mut s.run.child, "KILL");
        s.status = s.run.child.wait().ok();
    }
    stopped
}

/// Prints what is still in the pipes, until they close or `DRAIN` passes.
fn drain(rx: &Receiver<Event>, slots: &mut [Slot], view: &mut ProgressView) {
    let deadline = Instant::now() + DRAIN;
    while slots.iter().any(|s| s.open_pipes > 0) && Instant::now() < deadline {
        pump(rx, slots, view, POLL);
    }
}

/// "exited with status 3" / "was killed by signal 9".
pub fn describe(status: &ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exited with status {c}"),
        (None, Some(sig)) => format!("was killed by signal {sig}"),
        _ => "ended abnormally".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exited(code: i32) -> Option<ExitStatus> {
        Some(ExitStatus::from_raw(code << 8))
    }

    #[test]
    fn the_culprit_is_the_first_to_fail_on_its_own() {
        let killed = Some(ExitStatus::from_raw(9));
        // Fluid saw the partner's failure and exited first; Solid, killed, is the culprit.
        assert_eq!(first_on_its_own([(exited(PARTNER_EXIT), Some(0)), (killed, Some(1))].into_iter()), Some(1));
        // Two failed on their own: the first to exit.
        assert_eq!(first_on_its_own([(exited(1), Some(1)), (exited(2), Some(0))].into_iter()), Some(1));
        // Success and still running are never blamed; only partner exits: nobody on its own.
        assert_eq!(first_on_its_own([(exited(0), Some(0)), (None, None)].into_iter()), None);
        assert_eq!(first_on_its_own([(exited(PARTNER_EXIT), Some(0)), (None, None)].into_iter()), None);
    }
}
