//! `tidelink sweep CASE GRID`: a grid of runs of one case (sea states, power take-off
//! coefficients) and the matrices of their figures (docs/campaigns.md).
//!
//! Each cell gets its own folder under the output folder with its own copy of the case
//! (`cell.rs`), so its exchange directory, output, module processes and ports are its own, and
//! is run by `tidelink run` as a child process (the launcher's whole machinery: check, run lock,
//! supervision, progress lines into the cell's `run.log`). `--jobs` cells run at once. A cell
//! that finished writes `done.json` last, with its settings and figures; a later sweep with the
//! same settings does not rerun it. A failed cell is reported with its reason and folder, leaves
//! the others alone, and makes the exit status 1.

mod cell;
mod figures;
mod grid;
mod keys;
mod matrix;

use crate::manifest::Case;
use crate::progress_bar::{clock, Bar};
use anyhow::{bail, Context, Result};
use cell::{Edit, Layout};
use figures::Figures;
use matrix::{label, CellResult, Status};
use std::collections::VecDeque;
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};
use tidelink_adapter_core::coupling::native::settings::RUN_SECRET_ENV;
use tidelink_adapter_core::launcher::RUN_ID_ENV;

/// The completion marker of a cell, written last.
const MARKER: &str = "done.json";

/// What `tidelink sweep` was asked.
pub struct Options {
    /// The case folder (or its manifest).
    pub case: PathBuf,
    /// The grid file.
    pub grid: PathBuf,
    /// The output folder (default: beside the grid, named after it).
    pub output: Option<PathBuf>,
    /// Cells run at once.
    pub jobs: usize,
}

/// A line on stderr that cannot panic.
fn say(args: fmt::Arguments) {
    let _ = writeln!(std::io::stderr(), "{args}");
}

/// What a cell's marker holds: its settings (a resumed sweep compares them) and its figures.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Marker {
    settings: serde_json::Value,
    figures: Figures,
}

/// One cell to run.
#[derive(Clone)]
struct Job {
    at: (usize, usize),
    name: String,
    edits: Vec<Edit>,
    dir: PathBuf,
    settings: serde_json::Value,
}

/// Runs the sweep; the exit status: 0 when every cell finished, 1 when one failed, 130 when
/// interrupted.
pub fn run(opts: &Options) -> Result<u8> {
    if opts.jobs == 0 {
        bail!("--jobs must be at least 1");
    }
    let case = Case::load(&opts.case).map_err(|d| anyhow::anyhow!("{d}"))?;
    let case_dir = if case.dir.as_os_str().is_empty() { PathBuf::from(".") } else { case.dir.clone() };
    let grid = match grid::load(&opts.grid, &case_dir) {
        Ok(g) => g,
        Err(d) => {
            for x in &d.0 {
                say(format_args!("{x}"));
            }
            bail!("the grid file does not check ({} error(s)); nothing was run", d.errors().count());
        }
    };
    let out = opts.output.clone().unwrap_or_else(|| {
        let stem = opts.grid.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "grid".into());
        opts.grid.parent().unwrap_or(Path::new(".")).join(format!("{stem}-sweep"))
    });
    std::fs::create_dir_all(out.join("cells")).with_context(|| format!("cannot create {}", out.display()))?;
    let out = out.canonicalize()?;
    // One sweep per output folder at a time.
    let _claim = crate::run_lock::claim(std::slice::from_ref(&out), &out, &format!("sweep-{}", std::process::id()))
        .context("nothing was run")?;
    let layout = cell::layout(&case, &grid, &out)?;
    let title = grid.title.clone().unwrap_or_else(|| case.name());
    let case_abs = layout.root.join(&layout.case);
    let jobs = plan(&grid, &case_abs, &out);
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = Arc::clone(&interrupted);
        if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst)) {
            log::warn!("Ctrl-C will not stop the cells cleanly: {e}");
        }
    }
    let mut results: Vec<CellResult> = Vec::new();
    let mut queue = VecDeque::new();
    for j in jobs {
        match resumed(&j) {
            Some(f) => results.push(CellResult { at: j.at, dir: j.dir, status: Status::Resumed(f) }),
            None => queue.push_back(j),
        }
    }
    let total = results.len() + queue.len();
    say(format_args!(
        "sweep of `{}` over {}: {total} cells ({} finished before, {} to run, {} at once), in {}",
        case.name(),
        axes(&grid),
        results.len(),
        queue.len(),
        opts.jobs.min(queue.len().max(1)),
        out.display()
    ));
    results.extend(run_cells(queue, opts.jobs, &layout, &grid, &interrupted, total));
    results.sort_by_key(|c| c.at);
    let written = matrix::write(&grid, &title, &results, &out)?;
    report(&grid, &results, &written);
    let failed = results.iter().filter(|c| matches!(c.status, Status::Failed(_))).count();
    Ok(if interrupted.load(Ordering::SeqCst) {
        130
    } else if failed > 0 {
        1
    } else {
        0
    })
}

/// `H [m] × T [s]`.
fn axes(grid: &grid::Grid) -> String {
    match &grid.columns {
        Some(c) => format!("{} × {}", grid.rows.title(), c.title()),
        None => grid.rows.title(),
    }
}

/// Every cell of the grid, row by row.
fn plan(grid: &grid::Grid, case_abs: &Path, out: &Path) -> Vec<Job> {
    let cols: Vec<Option<f64>> =
        grid.columns.as_ref().map_or(vec![None], |c| c.values.iter().map(|v| Some(*v)).collect());
    let mut jobs = Vec::new();
    for (i, r) in grid.rows.values.iter().enumerate() {
        for (j, c) in cols.iter().enumerate() {
            let mut edits = vec![Edit { file: grid.rows.file.clone(), key: grid.rows.key.clone(), value: *r }];
            let mut name = format!("{}={}", grid.rows.name, label(*r));
            if let (Some(col), Some(v)) = (&grid.columns, c) {
                edits.push(Edit { file: col.file.clone(), key: col.key.clone(), value: *v });
                name.push_str(&format!("_{}={}", col.name, label(*v)));
            }
            let settings = serde_json::json!({
                "case": case_abs.display().to_string(),
                "edits": edits,
                "duration": grid.duration,
                "average_from": grid.average_from,
                "power_link": grid.power_link,
                "heave_body": grid.heave_body,
            });
            jobs.push(Job { at: (i, j), dir: out.join("cells").join(&name), name, edits, settings });
        }
    }
    jobs
}

/// The figures of a cell finished before with the same settings.
fn resumed(j: &Job) -> Option<Figures> {
    let text = std::fs::read_to_string(j.dir.join(MARKER)).ok()?;
    let m: Marker = serde_json::from_str(&text).ok()?;
    (m.settings == j.settings).then_some(m.figures)
}

/// A worker's news for the main thread.
enum News {
    Started(String),
    Ended(CellResult, String, Duration),
}

/// Runs `queue` on `jobs` worker threads, showing progress; the cells' results.
fn run_cells(
    queue: VecDeque<Job>,
    jobs: usize,
    layout: &Layout,
    grid: &grid::Grid,
    interrupted: &Arc<AtomicBool>,
    total: usize,
) -> Vec<CellResult> {
    let to_run = queue.len();
    if to_run == 0 {
        return Vec::new();
    }
    let done_before = total - to_run;
    let queue = Arc::new(Mutex::new(queue));
    let (tx, rx) = mpsc::channel();
    let mut workers = Vec::new();
    for _ in 0..jobs.min(to_run) {
        let (queue, tx, layout, grid, stop) =
            (Arc::clone(&queue), tx.clone(), layout.clone(), grid.clone(), Arc::clone(interrupted));
        workers.push(std::thread::spawn(move || loop {
            let Some(job) = queue.lock().map(|mut q| q.pop_front()).unwrap_or(None) else { return };
            if stop.load(Ordering::SeqCst) {
                let _ = tx.send(News::Ended(
                    CellResult { at: job.at, dir: job.dir, status: Status::Interrupted },
                    job.name,
                    Duration::ZERO,
                ));
                continue;
            }
            let _ = tx.send(News::Started(job.name.clone()));
            let started = Instant::now();
            let status = run_cell(&job, &layout, &grid, &stop);
            let result = CellResult { at: job.at, dir: job.dir, status };
            let _ = tx.send(News::Ended(result, job.name, started.elapsed()));
        }));
    }
    drop(tx);
    let bar = Bar::on_terminal();
    let start = Instant::now();
    let mut running: Vec<String> = Vec::new();
    let mut results = Vec::new();
    let print = |line: String| match &bar {
        Some(b) => b.suspend(|| say(format_args!("{line}"))),
        None => say(format_args!("{line}")),
    };
    loop {
        match rx.recv_timeout(Duration::from_millis(250)) {
            Ok(News::Started(name)) => running.push(name),
            Ok(News::Ended(r, name, took)) => {
                running.retain(|n| *n != name);
                let line = match &r.status {
                    Status::Done(f) => format!(
                        "cell {name}: done in {}, mean absorbed power {:.4e} W{}",
                        clock(took.as_secs_f64()),
                        f.mean_power_w,
                        f.heave_rms_m.map(|h| format!(", heave RMS {h:.4} m")).unwrap_or_default()
                    ),
                    Status::Failed(why) => {
                        format!("cell {name}: FAILED after {}: {why} ({})", clock(took.as_secs_f64()), r.dir.display())
                    }
                    Status::Interrupted => format!("cell {name}: interrupted"),
                    Status::Resumed(_) => String::new(),
                };
                print(line);
                results.push(r);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if let Some(b) = &bar {
            let finished = results.len();
            let elapsed = start.elapsed().as_secs_f64();
            let left = (finished > 0).then(|| elapsed / finished as f64 * (to_run - finished) as f64);
            b.show(
                (done_before + finished) as f64 / total as f64,
                format!(
                    "{}/{total} cells, {} elapsed{}; running: {}",
                    done_before + finished,
                    clock(elapsed),
                    left.map(|l| format!(", ~{} left", clock(l))).unwrap_or_default(),
                    running.join(", ")
                ),
            );
        }
    }
    if let Some(b) = &bar {
        b.finish();
    }
    for w in workers {
        let _ = w.join();
    }
    results
}

/// Prepares, runs and measures one cell; the marker is written last.
fn run_cell(job: &Job, layout: &Layout, grid: &grid::Grid, stop: &AtomicBool) -> Status {
    let fail = |why: String| Status::Failed(why);
    // What an earlier, unfinished attempt left (no marker) is redone from scratch.
    if job.dir.exists() {
        if let Err(e) = std::fs::remove_dir_all(&job.dir) {
            return fail(format!("cannot clear the unfinished cell folder: {e}"));
        }
    }
    let case = match std::fs::create_dir_all(&job.dir)
        .map_err(anyhow::Error::from)
        .and_then(|_| cell::prepare(layout, grid, &job.edits, &job.dir))
    {
        Ok(c) => c,
        Err(e) => return fail(format!("cannot prepare the cell's case: {e:#}")),
    };
    let log = job.dir.join("run.log");
    let status = match launch(&case, &log, stop) {
        Ok(Some(s)) => s,
        Ok(None) => return Status::Interrupted,
        Err(e) => return fail(format!("cannot start `tidelink run`: {e:#}")),
    };
    if !status.success() {
        return fail(format!("`tidelink run` {}: {}", describe(status), first_error(&log)));
    }
    let figures =
        match figures::of_run(&job.dir.join("case"), &grid.power_link, grid.heave_body.as_deref(), grid.average_from) {
            Ok(f) => f,
            Err(why) => return fail(why),
        };
    let marker = Marker { settings: job.settings.clone(), figures };
    let tmp = job.dir.join(format!("{MARKER}.tmp"));
    // The figures reported are those read back from the marker, as a resumed sweep reads them:
    // serde_json's parser may land one unit in the last place off a number it printed, and a
    // resumed matrix must equal the first one digit for digit.
    let written = serde_json::to_string_pretty(&marker)
        .map_err(anyhow::Error::from)
        .and_then(|text| {
            let back: Marker = serde_json::from_str(&text)?;
            std::fs::write(&tmp, text + "\n")?;
            Ok(back.figures)
        })
        .and_then(|back| Ok((std::fs::rename(&tmp, job.dir.join(MARKER))?, back).1));
    match written {
        Ok(back) => Status::Done(back),
        Err(e) => fail(format!("cannot write the completion marker: {e:#}")),
    }
}

/// Runs `tidelink run CASE` (this program) with its output in `log`; `None` when interrupted.
fn launch(case: &Path, log: &Path, stop: &AtomicBool) -> Result<Option<std::process::ExitStatus>> {
    let file = std::fs::File::create(log)?;
    let mut cmd = Command::new(std::env::current_exe()?);
    cmd.arg("run").arg(case).stdin(Stdio::null()).stdout(file.try_clone()?).stderr(file);
    // Every cell is a run of its own: its own identity and secret, never the sweep's caller's.
    cmd.env_remove(RUN_ID_ENV).env_remove(RUN_SECRET_ENV);
    // Its own process group: the sweep decides how a cell stops (SIGTERM, then the run stops
    // its participants in order).
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    // Killed with the sweep (this worker thread waits for it, so it outlives the child).
    crate::lifeline::die_with_launcher(&mut cmd);
    let mut child = cmd.spawn()?;
    let mut signalled = false;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(if signalled { None } else { Some(status) });
        }
        if stop.load(Ordering::SeqCst) && !signalled {
            crate::stop::signal_group(&mut child, "TERM");
            signalled = true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn describe(s: std::process::ExitStatus) -> String {
    match s.code() {
        Some(c) => format!("exited with status {c}"),
        None => "was killed by a signal".into(),
    }
}

/// The first line of the cell's log that reports an error (the cause; later ones follow from it).
fn first_error(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    text.lines()
        .find(|l| l.contains("error:"))
        .map(|l| l.trim().to_string())
        .unwrap_or_else(|| format!("no error line; see {}", log.display()))
}

/// The closing summary: the files written and every failed cell with its reason and folder.
fn report(grid: &grid::Grid, results: &[CellResult], written: &[PathBuf]) {
    let count = |f: fn(&Status) -> bool| results.iter().filter(|c| f(&c.status)).count();
    say(format_args!(
        "{} cells: {} finished now, {} finished before, {} failed, {} interrupted (power of `{}`)",
        results.len(),
        count(|s| matches!(s, Status::Done(_))),
        count(|s| matches!(s, Status::Resumed(_))),
        count(|s| matches!(s, Status::Failed(_))),
        count(|s| matches!(s, Status::Interrupted)),
        grid.power_link
    ));
    for c in results {
        if let Status::Failed(why) = &c.status {
            say(format_args!(
                "failed cell {}: {why}\n  folder: {}",
                c.dir.file_name().map(|n| n.to_string_lossy()).unwrap_or_default(),
                c.dir.display()
            ));
        }
    }
    for w in written {
        say(format_args!("wrote {}", w.display()));
    }
}
