//! The participants' own checks: `tidelink check` runs every `tidelink-*` participant program of
//! the case with `--check=lines`, so that model, solver and hydrodynamic files are validated by the
//! code that will read them, with file and line, without starting a run; then it applies the
//! rules between participants that need what only they know (their [`Fact`]s).

use crate::launch;
use crate::manifest::{Case, ParticipantEntry};
use crate::stop;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::participant::{CheckReport, Fact, BODY_TO_BODY};

/// How long one participant's check may take (it reads files, it solves nothing).
const CHECK_TIMEOUT: Duration = Duration::from_secs(120);

/// How often a running check looks whether it was cancelled.
const CANCEL_POLL: Duration = Duration::from_millis(50);
/// Set by [`cancel`]: the checks still to run are skipped and a running one is killed.
static CANCEL: AtomicBool = AtomicBool::new(false);
/// The error of a check stopped by [`cancel`].
const CANCELLED: &str = "interrupted";

/// Stops the participants' checks at once (`tidelink run` got SIGINT, SIGTERM or SIGHUP):
/// callable from a signal handler's thread.
pub fn cancel() {
    CANCEL.store(true, Ordering::SeqCst);
}

fn cancelled() -> bool {
    CANCEL.load(Ordering::SeqCst)
}

/// The facts of one participant, by name.
pub struct ParticipantFacts {
    /// The participant's name in the manifest.
    pub name: String,
    /// What its check reported.
    pub facts: Vec<Fact>,
}

/// Runs the check of every launched `tidelink-*` participant that has a participant file, all at
/// once (one thread each: the slowest check, not their sum, is the wait); adds what they found to
/// `d` in the manifest's order of the participants (except what `d` already holds) and returns
/// their facts in that order.
pub fn run_all(case: &Case, d: &mut Diagnostics) -> Vec<ParticipantFacts> {
    let jobs: Vec<(usize, &ParticipantEntry, &str)> = case
        .launched()
        .filter_map(|(i, p)| {
            let cmd = p.command.as_ref()?;
            let program = Path::new(cmd.program()).file_name().and_then(|n| n.to_str()).unwrap_or("");
            (program.starts_with("tidelink-") && case.spec_path(p).is_some()).then_some((i, p, program))
        })
        .collect();
    let results = in_parallel(&jobs, |&(_, p, _)| run_one(case, p));
    let mut out = Vec::new();
    for (&(i, p, program), result) in jobs.iter().zip(results) {
        let at = case.loc(&format!("participants[{i}].command"));
        match result {
            Ok(report) => {
                for diag in report.diagnostics.0 {
                    if !d.0.contains(&diag) {
                        d.push(diag);
                    }
                }
                out.push(ParticipantFacts { name: p.name.clone(), facts: report.facts });
            }
            Err(why) => d.error(at, format!("the check of participant `{}` ({program} --check) failed: {why}", p.name)),
        }
    }
    out
}

/// `f` of every job, each on a thread of its own, the results in the jobs' order whatever order
/// they finish in (so the diagnostics come out the same in every run).
fn in_parallel<T: Sync, R: Send>(jobs: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = jobs.iter().map(|job| scope.spawn(move || f(job))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}

/// `program <spec> --precice-config <xml> --check=lines` in the participant's working directory.
fn run_one(case: &Case, p: &ParticipantEntry) -> Result<CheckReport, String> {
    if cancelled() {
        return Err(CANCELLED.into());
    }
    let mut command = launch::command_for(case, p).map_err(|e| e.to_string())?;
    command.arg("--check=lines");
    // Killed with `tidelink`, however it dies (it is in a process group of its own).
    crate::lifeline::die_with_launcher(&mut command);
    let child = command.spawn().map_err(|e| format!("cannot start it: {e}"))?;
    let pgid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let deadline = Instant::now() + CHECK_TIMEOUT;
    let output = loop {
        match rx.recv_timeout(CANCEL_POLL) {
            Ok(Ok(output)) => break output,
            Ok(Err(e)) => return Err(format!("cannot read its output: {e}")),
            Err(_) if cancelled() => {
                stop::signal_pgid(pgid, "KILL");
                return Err(CANCELLED.into());
            }
            Err(_) if Instant::now() >= deadline => {
                stop::signal_pgid(pgid, "KILL");
                return Err(format!("no answer within {} s; it was stopped", CHECK_TIMEOUT.as_secs()));
            }
            Err(_) => {}
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut report = CheckReport::from_lines(&stdout);
    // The participant ran in its working directory: its paths are relative to it, ours to the case.
    let wd = case.working_dir(p);
    for d in &mut report.diagnostics.0 {
        d.location.file = in_case(&wd, &d.location.file);
    }
    for f in &mut report.facts {
        f.file = in_case(&wd, Path::new(&f.file)).display().to_string();
    }
    // Exit 1 with its findings is a normal "errors found"; anything else is the program failing.
    let answered = output.status.success() || (output.status.code() == Some(1) && report.diagnostics.has_errors());
    if !answered {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        let hint = if output.status.code() == Some(127) || stderr.contains("error while loading shared libraries") {
            " (a shared library it was linked against is missing: a build with `--features precice` needs \
             libprecice at run time, even with `backend: native`; see docs/precice-backend.md)"
        } else {
            ""
        };
        return Err(format!("{}{hint}: {}", crate::supervise::describe(&output.status), tail.join(" | ")));
    }
    Ok(report)
}

/// `file` (relative to the participant's working directory `wd`) as the case's own paths are
/// written, without `.` components and with `dir/..` folded, so the same finding compares equal.
fn in_case(wd: &Path, file: &Path) -> PathBuf {
    let joined = if file.is_relative() { wd.join(file) } else { file.to_path_buf() };
    let mut out: Vec<Component> = Vec::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}

/// Rules between participants: settings that must be the same wherever they are set.
pub fn cross_rules(all: &[ParticipantFacts]) -> Diagnostics {
    let mut d = Diagnostics::default();
    let set: Vec<(&str, &Fact)> = all
        .iter()
        .flat_map(|p| p.facts.iter().filter(|f| f.name == BODY_TO_BODY).map(move |f| (p.name.as_str(), f)))
        .collect();
    if let Some((first, f0)) = set.first() {
        for (name, f) in &set[1..] {
            if f.value != f0.value {
                let msg = format!(
                    "body_to_body is {} for participant `{name}` but {} for `{first}` ({}): the solid's added mass and \
                     the fluid's radiation loads must both keep, or both drop, the blocks coupling different bodies; \
                     set the same value in both files",
                    f.value,
                    f0.value,
                    f0.location()
                );
                d.error(Location::new(&f.file, f.line), msg);
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(name: &str, value: bool, line: usize) -> ParticipantFacts {
        let fact = Fact::new(BODY_TO_BODY, value, &Location::new(format!("{name}.yaml"), line));
        ParticipantFacts { name: name.to_string(), facts: vec![fact] }
    }

    #[test]
    fn paths_from_a_working_directory_are_written_as_the_case_writes_them() {
        let wd = Path::new("configs/case/./solid");
        assert_eq!(in_case(wd, Path::new("../precice-config.xml")), Path::new("configs/case/precice-config.xml"));
        assert_eq!(in_case(wd, Path::new("./model.yaml")), Path::new("configs/case/solid/model.yaml"));
        assert_eq!(in_case(Path::new("../up"), Path::new("../x.xml")), Path::new("../x.xml"));
        assert_eq!(in_case(wd, Path::new("/abs/x.xml")), Path::new("/abs/x.xml"));
    }

    #[test]
    fn checks_run_at_once_and_report_in_the_jobs_order() {
        // Job 0 finishes only after job 1 has (it waits for job 1's message): run one after the
        // other it would never see it. Its result still comes first.
        let (tx, rx) = mpsc::channel::<()>();
        let (tx, rx) = (std::sync::Mutex::new(Some(tx)), std::sync::Mutex::new(rx));
        let results = in_parallel(&[0, 1, 2], |&job| match job {
            // Generous: only a failure waits this long (the threads start at once).
            0 => format!("0 saw 1 finish: {}", rx.lock().expect("lock").recv_timeout(Duration::from_secs(60)).is_ok()),
            1 => {
                tx.lock().expect("lock").take().expect("one sender").send(()).expect("job 0 listens");
                "1".to_string()
            }
            n => n.to_string(),
        });
        assert_eq!(results, ["0 saw 1 finish: true", "1", "2"]);
    }

    #[test]
    fn body_to_body_must_agree_between_participants() {
        let agree = [facts("Solid", true, 4), facts("Fluid", true, 9)];
        assert!(cross_rules(&agree).0.is_empty());
        let differ = [facts("Solid", true, 4), facts("Fluid", false, 9)];
        let text = cross_rules(&differ).to_string();
        assert!(text.starts_with("Fluid.yaml:9: error: body_to_body is false for participant `Fluid` but true for `Solid` (Solid.yaml:4)"), "{text}");
    }
}
