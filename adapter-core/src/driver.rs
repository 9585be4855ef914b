//! The one driver loop every participant runs (seed "Common structure", spec §1.1).

use crate::adapter::{Adapter, AdapterResult};
use crate::coupling::native::time::Kahan;
use crate::coupling::Coupling;
use crate::spec::ReadDataTime;

/// What the driver did, for logs and tests.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunSummary {
    /// Completed coupling windows.
    pub windows: u64,
    /// Solver steps taken (including repeated iterations).
    pub steps: u64,
    /// Coupled time reached.
    pub time: f64,
}

/// Hooks the driver calls to report progress (the binaries print it).
pub trait Progress {
    fn window_completed(&mut self, _time: f64, _windows: u64) {}
}

impl Progress for () {}

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
            // Tell the partners (the native engine sends an abort notice) without masking `e`.
            let _ = coupling.finalize();
            Err(e)
        }
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
    while coupling.is_coupling_ongoing()? {
        if coupling.requires_writing_checkpoint()? {
            adapter.write_checkpoint()?;
            checkpoint_time = time;
        }
        let max_step = coupling.get_max_time_step_size()?;
        let dt = adapter.solver_time_step(max_step);
        if window_start {
            let rel = match read_time {
                ReadDataTime::WindowStart => 0.0,
                ReadDataTime::WindowEnd => max_step,
            };
            adapter.read_data(coupling, rel)?;
            window_start = false;
        }
        adapter.advance(dt)?;
        adapter.write_data(coupling)?;
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
            adapter.write_output(time.value())?;
            progress.window_completed(time.value(), summary.windows);
        }
    }
    summary.time = time.value();
    Ok(summary)
}
