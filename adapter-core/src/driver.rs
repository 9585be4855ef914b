//! The one driver loop every participant runs (docs/design/participants.md §1.1, coupling-semantics.md §2.2).

use crate::adapter::{Adapter, AdapterError, AdapterResult};
use crate::coupling::{self, Backend, Coupling, CouplingError};
use crate::spec::ReadDataTime;
use crate::time::Kahan;
use std::path::Path;

/// What the driver did, for logs and tests.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunSummary {
    /// Completed coupling windows.
    pub windows: u64,
    /// Solver steps taken (including repeated iterations).
    pub steps: u64,
    /// Coupled time reached.
    pub time: f64,
    /// Wall-clock seconds from the end of `initialize` to the end of the loop.
    pub wall_seconds: f64,
    /// Of those, seconds inside the adapter (reading, solving, writing, output): the rest
    /// is the coupling, including waiting for partners.
    pub solver_seconds: f64,
}

/// Hooks the driver calls to report progress (the binaries print it).
pub trait Progress {
    /// Called after each accepted window, at coupled time `time`, `windows` windows done so far.
    fn window_completed(&mut self, _time: f64, _windows: u64) {}
}

impl Progress for () {}

/// Why [`couple`] stopped, naming the participant (the cause is the error's source).
#[derive(Debug, thiserror::Error)]
pub enum CoupleError {
    /// The coupling could not be opened: the XML, the participant name, the backend.
    #[error("opening participant `{name}` of {config}")]
    Open {
        /// The participant.
        name: String,
        /// The preCICE XML, as given.
        config: String,
        /// What the backend reported.
        #[source]
        source: CouplingError,
    },
    /// The run started and failed.
    #[error("participant `{name}` stopped")]
    Run {
        /// The participant.
        name: String,
        /// The adapter's or the coupling's error.
        #[source]
        source: AdapterError,
    },
}

/// Opens participant `name` of `config` on `backend` and runs `adapter` to the end: what every
/// participant does once its files are read and its adapter is built.
pub fn couple(
    adapter: &mut dyn Adapter,
    name: &str,
    config: &Path,
    backend: Backend,
    read_time: ReadDataTime,
    progress: &mut dyn Progress,
) -> Result<RunSummary, CoupleError> {
    let open = || {
        // The native engine's settings come from this process's environment; libprecice reads its own.
        let settings =
            if backend == Backend::Native { crate::launcher::engine_settings()? } else { Default::default() };
        coupling::open_with(backend, name, config, settings)
    };
    let mut c = open().map_err(|source| CoupleError::Open {
        name: name.to_string(),
        config: config.display().to_string(),
        source,
    })?;
    run(adapter, c.as_mut(), read_time, progress).map_err(|source| CoupleError::Run { name: name.to_string(), source })
}

/// Runs `adapter` coupled through `coupling` until the coupling ends, then finalizes.
///
/// The data of a window is read once, at its first sub-step: at the window start
/// (`WindowStart`, held for every sub-step) or at the window end (`WindowEnd`).
pub fn run(
    adapter: &mut dyn Adapter,
    coupling: &mut dyn Coupling,
    read_time: ReadDataTime,
    progress: &mut dyn Progress,
) -> AdapterResult<RunSummary> {
    let result = run_inner(adapter, coupling, read_time, progress);
    match result {
        Ok(summary) => {
            coupling.finalize()?;
            adapter.finish()?;
            Ok(summary)
        }
        Err(e) => {
            // Tell the partners why (the native engine sends an abort notice with the reason)
            // without masking `e`. The adapter's files are closed whole when it is dropped.
            let _ = coupling.abort(&abort_reason(&e));
            Err(e)
        }
    }
}

/// The longest reason sent to the partners (the first lines of a long error are enough).
const ABORT_REASON_CHARS: usize = 500;

/// `e` with its causes on one line, as the partners are told.
fn abort_reason(e: &AdapterError) -> String {
    let text = crate::participant::chain(e);
    match text.char_indices().nth(ABORT_REASON_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

fn run_inner(
    adapter: &mut dyn Adapter,
    coupling: &mut dyn Coupling,
    read_time: ReadDataTime,
    progress: &mut dyn Progress,
) -> AdapterResult<RunSummary> {
    adapter.initialize_participant(coupling)?;
    if coupling.requires_initial_data()? {
        adapter.write_data(coupling)?;
    }
    coupling.initialize()?;

    let mut summary = RunSummary::default();
    let mut window_start = true;
    // Compensated sum, so output times of long runs stay on the window grid.
    let mut time = Kahan::default();
    let mut checkpoint_time = Kahan::default();
    adapter.write_output(0.0)?;
    let wall = std::time::Instant::now();
    let mut solver = std::time::Duration::ZERO;
    while coupling.is_coupling_ongoing()? {
        // A stop signal ends the run between steps: the output holds the last finished window.
        if let Some(why) = crate::signals::requested() {
            let at = format!("participant \"{}\" {why} at t = {}", adapter.name(), time.value());
            return Err(CouplingError::interrupted(at).into());
        }
        if coupling.requires_writing_checkpoint()? {
            adapter.write_checkpoint()?;
            checkpoint_time = time;
        }
        let max_step = coupling.get_max_time_step_size()?;
        let dt = adapter.solver_time_step(max_step);
        let started = std::time::Instant::now();
        if window_start {
            let rel = match read_time {
                ReadDataTime::WindowStart => 0.0,
                ReadDataTime::WindowEnd => max_step,
            };
            adapter.read_data(coupling, time.value(), rel)?;
            window_start = false;
        }
        adapter.advance(time.value(), dt)?;
        adapter.write_data(coupling)?;
        solver += started.elapsed();
        coupling.advance(dt)?;
        time.add(dt);
        summary.steps += 1;
        if coupling.requires_reading_checkpoint()? {
            adapter.read_checkpoint()?;
            time = checkpoint_time;
            window_start = true;
        } else if coupling.is_time_window_complete()? {
            summary.windows += 1;
            window_start = true;
            let started = std::time::Instant::now();
            adapter.write_output(time.value())?;
            solver += started.elapsed();
            progress.window_completed(time.value(), summary.windows);
        }
    }
    summary.time = time.value();
    summary.wall_seconds = wall.elapsed().as_secs_f64();
    summary.solver_seconds = solver.as_secs_f64();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    //! The loop against a scripted coupling: windows of 1, `windows` of them.
    use super::*;
    use crate::adapter::AdapterError;
    use crate::coupling::CouplingData;
    use crate::testing::ScriptedCoupling;

    #[derive(Default)]
    struct Recorder {
        reads: Vec<f64>,
        steps: Vec<f64>,
        outputs: Vec<f64>,
    }

    impl Adapter for Recorder {
        fn name(&self) -> &str {
            "Recorder"
        }
        fn initialize_participant(&mut self, _: &mut dyn CouplingData) -> AdapterResult<()> {
            Ok(())
        }
        fn read_data(&mut self, _: &mut dyn CouplingData, _: f64, rel: f64) -> AdapterResult<()> {
            self.reads.push(rel);
            Ok(())
        }
        fn write_data(&mut self, _: &mut dyn CouplingData) -> AdapterResult<()> {
            Ok(())
        }
        fn advance(&mut self, _: f64, dt: f64) -> AdapterResult<()> {
            self.steps.push(dt);
            Ok(())
        }
        fn own_time_step(&self) -> f64 {
            0.4
        }
        fn write_output(&mut self, t: f64) -> AdapterResult<()> {
            self.outputs.push(t);
            Ok(())
        }
    }

    fn coupling(checkpoint: bool) -> ScriptedCoupling {
        let c = ScriptedCoupling::new("P").with_windows(2, 1.0);
        if checkpoint {
            c.with_checkpoints()
        } else {
            c
        }
    }

    #[test]
    fn reads_once_per_window_and_sub_cycles_to_the_window_end() {
        for (read_time, rel) in [(ReadDataTime::WindowStart, 0.0), (ReadDataTime::WindowEnd, 1.0)] {
            let mut a = Recorder::default();
            let s = run(&mut a, &mut coupling(false), read_time, &mut ()).unwrap();
            assert_eq!(a.reads, vec![rel, rel], "{read_time:?}: one read per window, held for its sub-steps");
            let expected = [0.4, 0.4, 0.2, 0.4, 0.4, 0.2];
            assert_eq!(a.steps.len(), expected.len());
            for (got, want) in a.steps.iter().zip(expected) {
                assert!((got - want).abs() < 1e-12, "steps {:?}", a.steps);
            }
            assert_eq!((s.windows, s.steps), (2, 6));
            assert_eq!(a.outputs.len(), 3, "initial output and one per window");
            assert!((a.outputs[2] - 2.0).abs() < 1e-14);
        }
    }

    #[test]
    fn the_partners_are_told_the_error_with_its_causes_on_one_line() {
        let e = AdapterError::io("writing out/ball.csv", std::io::Error::other("No space left on device"));
        assert_eq!(abort_reason(&e), "writing out/ball.csv: No space left on device");
        let long = abort_reason(&AdapterError::solver("x".repeat(2000)));
        assert_eq!(long.chars().count(), ABORT_REASON_CHARS + 1, "cut, with an ellipsis");
    }

    #[test]
    fn a_checkpoint_request_fails_clearly_without_checkpoint_support() {
        let e = run(&mut Recorder::default(), &mut coupling(true), ReadDataTime::WindowStart, &mut ()).unwrap_err();
        assert!(matches!(e, AdapterError::Unsupported(_)));
        let msg = e.to_string();
        assert!(msg.contains("checkpointing is not supported by participant \"Recorder\""), "{msg}");
    }
}
