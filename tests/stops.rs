//! What a stopped run leaves, and who is blamed: after SIGTERM or SIGINT every output file of
//! `tidelink-mbs` (the bodies' CSV, `links.csv`, `bodies.h5`) holds whole rows up to the same last
//! window; after SIGKILL of the participant they hold whole rows (the HDF5 file opens) at most one
//! row apart; the participant that failed first is named, with its reason, and its partner says
//! it stopped because of it; `tidelink-flap` stops on SIGTERM as the others do; a module never outlives `tidelink-mbs` or the launcher, nor does
//! what it started when it runs behind a wrapper; a check in
//! progress stops at once on a signal; a partner that stops answering is named in a warning and,
//! after the time-out, in the error that ends the run.
//!
//! Linux only: the tests find the processes, and tell whether they still run, through /proc.
#![cfg(target_os = "linux")]

mod support;

use hdf5_metno as hdf5;
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use support::procs::{descendants, running, wait_until, Proc};

const TIDELINK: &str = env!("CARGO_BIN_EXE_tidelink");
/// A deadline for conditions that take about a second, far above it (a busy machine).
const GENEROUS: u64 = 120;

/// The folder of the participant programs (built once for the whole file).
fn programs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        support::participant_programs(&[("tidelink-buoyancy", "tidelink-buoyancy"), ("tidelink-mbs", "tidelink-mbs")])
    })
}

/// A damper from a fixed ground point to the ball, so that `links.csv` is written too.
const DAMPER: &[(&str, &str, &str)] = &[
    (
        "solid/model.yaml",
        "  bodies:\n    - name: ball",
        "  bodies:\n    - {name: ground, location: [0, 0, 0], fixed: true}\n    - name: ball",
    ),
    (
        "solid/model.yaml",
        "            radius: 0.12\n",
        "            radius: 0.12\n  tsdas:\n    - name: damper\n      body1: ground\n      body2: ball\n      \
         point1: [0, 0, 1]\n      point2: [0, 0, 0.18]\n      damping_coefficient: 1.0\n",
    ),
];

/// sphere_drop with the damper, running (practically) forever, with `edits` besides.
fn case(edits: &[(&str, &str, &str)]) -> tempfile::TempDir {
    programs();
    let dir = tempfile::tempdir().expect("case folder");
    let all: Vec<_> = DAMPER.iter().chain(edits).copied().collect();
    support::sphere_drop_case(dir.path(), 100_000_000, &all);
    dir
}

/// `tidelink run <case>` with its output in `<case>/run.log` and `env` added.
fn launch(case: &Path, env: &[(&str, &str)]) -> Child {
    let out = File::create(case.join("run.log")).expect("log file");
    let mut c = Command::new(TIDELINK);
    c.arg("run").arg(case).stdin(Stdio::null()).stdout(out.try_clone().expect("log file")).stderr(out);
    c.env_remove("RUST_LOG").env_remove("TIDELINK_RUN_ID");
    c.envs(env.iter().copied());
    c.spawn().expect("start tidelink")
}

fn log(case: &Path) -> String {
    std::fs::read_to_string(case.join("run.log")).unwrap_or_default()
}

/// Waits for `child` to exit.
fn exit_of(child: &mut Child, case: &Path) -> ExitStatus {
    let status = wait_until(GENEROUS, "tidelink exits", || child.try_wait().expect("wait"));
    println!("{}", log(case));
    status
}

/// The one descendant of `root` named `name` (waiting for it to appear); the panic shows the
/// run's log and the processes there are.
fn process(case: &Path, root: u32, name: &str) -> Proc {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(GENEROUS);
    loop {
        let below = descendants(root);
        if let Some(p) = below.iter().find(|p| p.name == name) {
            return p.clone();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no `{name}` process below {root} within {GENEROUS} s: {below:?}\n{}",
            log(case)
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The data rows of a CSV output file (after the provenance line and the header).
fn csv_rows(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    assert!(text.is_empty() || text.ends_with('\n'), "{} ends inside a row", path.display());
    text.lines().skip(2).map(str::to_string).collect()
}

/// Waits until the ball's CSV file has at least `n` rows.
fn wait_for_rows(launcher: &mut Child, case: &Path, n: usize) {
    let ball = case.join("solid/output/ball.csv");
    wait_until(GENEROUS, &format!("{n} rows in ball.csv"), || {
        assert!(launcher.try_wait().expect("wait").is_none(), "the run ended early:\n{}", log(case));
        (csv_rows(&ball).len() >= n).then_some(())
    });
}

/// The ball's rows (every one whole: 19 numbers) and the links' times (every row whole: the time
/// and the damper's power).
fn csv_output(case: &Path) -> (Vec<f64>, Vec<f64>) {
    let out = case.join("solid/output");
    let ball = tidelink_mbs::io::output::read(&out.join("ball.csv")).expect("ball.csv reads back whole");
    let links: Vec<f64> = csv_rows(&out.join("links.csv"))
        .iter()
        .map(|row| {
            let cols: Vec<f64> = row.split(',').map(|c| c.parse().expect("a number")).collect();
            assert_eq!(cols.len(), 2, "a whole row of links.csv: {row}");
            cols[0]
        })
        .collect();
    (ball.iter().map(|r| r.time).collect(), links)
}

/// After SIGTERM (what batch schedulers send) or SIGINT (Ctrl-C) to the launcher, both CSV
/// files hold whole rows up to the same last window.
#[test]
fn csv_files_are_complete_and_end_together_after_sigterm_and_sigint() {
    for signal in [Signal::SIGTERM, Signal::SIGINT] {
        let dir = case(&[]);
        let mut launcher = launch(dir.path(), &[]);
        wait_for_rows(&mut launcher, dir.path(), 50);
        kill(Pid::from_raw(launcher.id() as i32), signal).expect("signal the launcher");
        let status = exit_of(&mut launcher, dir.path());
        assert_eq!(status.code(), Some(130), "{signal}: {}", log(dir.path()));
        let (ball, links) = csv_output(dir.path());
        assert!(ball.len() >= 50, "{signal}: {} rows", ball.len());
        assert_eq!(ball, links, "{signal}: the bodies' file and links.csv end at the same window");
    }
}

/// SIGKILL of `tidelink-mbs`: every row on disk is whole (a row is written and flushed at once,
/// at every window), `links.csv` at most the one row of the window being written behind; the
/// launcher names `Solid`, killed, and says `Fluid` stopped because of it.
#[test]
fn csv_rows_are_whole_after_sigkill_and_the_killed_participant_is_the_culprit() {
    let dir = case(&[]);
    let mut launcher = launch(dir.path(), &[]);
    wait_for_rows(&mut launcher, dir.path(), 50);
    let solid = process(dir.path(), launcher.id(), "tidelink-mbs");
    kill(Pid::from_raw(solid.pid as i32), Signal::SIGKILL).expect("kill the solid");
    let status = exit_of(&mut launcher, dir.path());
    let text = log(dir.path());
    assert_eq!(status.code(), Some(1), "{text}");
    assert!(text.contains("error: participant `Solid` was killed by signal 9"), "{text}");
    assert!(text.contains("`Fluid` stopped because `Solid` failed"), "{text}");
    let (ball, links) = csv_output(dir.path());
    assert!(ball.len() >= 50 && links.len() + 1 >= ball.len() && links.len() <= ball.len(), "{ball:?}\n{links:?}");
    assert_eq!(ball[..links.len()], links[..], "the same windows");
}

/// One body's `time` and `position` lengths and the links' `time` length in `bodies.h5`, which
/// must open and whose datasets must agree row for row.
fn hdf5_lengths(path: &Path) -> (usize, usize) {
    let (time, channels) = tidelink_mbs::io::hdf5_output::read(path, "ball").expect("bodies.h5 opens");
    for (k, c) in channels.iter().enumerate() {
        assert_eq!(c.len(), 3 * time.len(), "channel {k}: a whole record for every time");
    }
    let (link_time, links) = tidelink_mbs::io::hdf5_output::read_links(path).expect("the links' group");
    assert_eq!(links.len(), 1, "the damper");
    assert_eq!(links[0].1.len(), link_time.len());
    let f = hdf5::File::open(path).expect("opens with the hdf5 library");
    assert_eq!(f.group("ball").expect("group").dataset("force").expect("force").shape(), vec![time.len(), 3]);
    (time.len(), link_time.len())
}

/// `output.format: HDF5`: after SIGTERM or SIGINT the file is complete (same rows in every
/// group), after SIGKILL of `tidelink-mbs` it still opens and holds whole records.
#[test]
fn the_hdf5_file_is_valid_after_sigterm_sigint_and_sigkill() {
    for signal in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGKILL] {
        let dir = case(&[("solid/participant.yaml", "format: CSV", "format: HDF5")]);
        let h5 = dir.path().join("solid/output/bodies.h5");
        let mut launcher = launch(dir.path(), &[]);
        wait_until(GENEROUS, "bodies.h5 is created", || h5.is_file().then_some(()));
        // Some windows on disk: the file grows at every window (a wait, not a pass criterion).
        let size = std::fs::metadata(&h5).expect("bodies.h5").len();
        wait_until(GENEROUS, "bodies.h5 grows", || (std::fs::metadata(&h5).ok()?.len() > size + 8192).then_some(()));
        if signal == Signal::SIGKILL {
            let solid = process(dir.path(), launcher.id(), "tidelink-mbs");
            kill(Pid::from_raw(solid.pid as i32), Signal::SIGKILL).expect("kill the solid");
            assert_eq!(exit_of(&mut launcher, dir.path()).code(), Some(1));
        } else {
            kill(Pid::from_raw(launcher.id() as i32), signal).expect("signal the launcher");
            assert_eq!(exit_of(&mut launcher, dir.path()).code(), Some(130));
        }
        let (bodies, links) = hdf5_lengths(&h5);
        assert!(bodies > 1, "{signal}: {bodies} rows");
        assert_eq!(bodies, links, "{signal}: every row of a window is flushed together");
    }
}

/// A module that exits at once fails `Solid`: the summary names `Solid` with its reason, and
/// `Fluid` says it stopped because `Solid` failed, with that reason (sent in the abort message).
#[test]
fn the_first_to_fail_is_named_and_its_partner_gives_its_reason() {
    let module = "\n  external_ptos:\n    - link: damper\n      command: [python3, -c, 'import sys; sys.exit(7)']\n";
    let dir = case(&[("solid/model.yaml", "      damping_coefficient: 1.0\n", module)]);
    let mut launcher = launch(dir.path(), &[]);
    let status = exit_of(&mut launcher, dir.path());
    let text = log(dir.path());
    assert_eq!(status.code(), Some(1), "{text}");
    assert!(text.contains("error: participant `Solid` exited with status 1"), "{text}");
    assert!(text.contains("last ") && text.contains("output lines of `Solid`"), "{text}");
    assert!(!text.lines().any(|l| l.starts_with("error: participant `Fluid`")), "Fluid is not blamed:\n{text}");
    let fluid_says = text.lines().find(|l| l.starts_with("[Fluid] error:")).unwrap_or_else(|| panic!("{text}"));
    assert!(fluid_says.contains("participant \"Solid\" failed:") && fluid_says.contains("exit status: 7"), "{text}");
}

/// A module that never answers (it sleeps) is a child of `tidelink-mbs`; whether `tidelink-mbs`
/// or the launcher above it is killed with SIGKILL, the module goes too.
#[test]
fn a_hung_module_dies_with_tidelink_mbs_and_with_the_launcher() {
    let module =
        "\n  external_ptos:\n    - link: damper\n      command: [python3, -c, 'import time; time.sleep(1000)']\n";
    for victim in ["tidelink-mbs", "tidelink"] {
        let dir = case(&[("solid/model.yaml", "      damping_coefficient: 1.0\n", module)]);
        let mut launcher = launch(dir.path(), &[]);
        // Past the check phase, whose `tidelink-mbs --check=lines` has the same name.
        wait_until(GENEROUS, "the Solid is coupled", || {
            log(dir.path()).contains("Solid: coupling initialized").then_some(())
        });
        let solid = process(dir.path(), launcher.id(), "tidelink-mbs");
        let hung = process(dir.path(), solid.pid, "python3");
        let pid = if victim == "tidelink" { launcher.id() } else { solid.pid };
        kill(Pid::from_raw(pid as i32), Signal::SIGKILL).expect("kill");
        wait_until(GENEROUS, &format!("the module is gone after SIGKILL of {victim}"), || {
            (!running(&hung)).then_some(())
        });
        let _ = launcher.kill();
        let _ = launcher.wait();
    }
}

/// A module started through a wrapper that stays its parent (`sh -c '…; exit'`, so the shell
/// does not exec the interpreter) and hung in an endless loop of user code: whether
/// `tidelink-mbs` or the launcher above it is killed with SIGKILL, nothing of it is left, neither
/// the wrapper, nor the interpreter below it (which the parent-death signal of the direct child
/// does not reach), nor the guardian that kills them (pto/host/src/ties.rs).
#[test]
fn a_module_behind_a_wrapper_hung_in_a_loop_dies_with_tidelink_mbs_and_with_the_launcher() {
    let faulty = Path::new(env!("CARGO_MANIFEST_DIR")).join("pto/host/tests/modules/faulty_module.py");
    let module = format!(
        "\n  external_ptos:\n    - link: damper\n      command: [sh, -c, 'python3 \"$0\" \"$@\"; exit $?', '{}']\n      \
         timeout_ms: 100000000\n      config: {{fault: spin, at: 1}}\n",
        faulty.display()
    );
    for victim in ["tidelink-mbs", "tidelink"] {
        let dir = case(&[("solid/model.yaml", "      damping_coefficient: 1.0\n", &module)]);
        let mut launcher = launch(dir.path(), &[]);
        wait_until(GENEROUS, "the Solid is coupled", || {
            log(dir.path()).contains("Solid: coupling initialized").then_some(())
        });
        let solid = process(dir.path(), launcher.id(), "tidelink-mbs");
        let hung = process(dir.path(), solid.pid, "python3");
        assert_ne!(hung.ppid, solid.pid, "the module runs behind its wrapper: {:?}", descendants(solid.pid));
        let root = if victim == "tidelink" { launcher.id() } else { solid.pid };
        let below = descendants(root);
        assert!(below.len() >= 3, "the wrapper, the module and its guardian: {below:?}");
        kill(Pid::from_raw(root as i32), Signal::SIGKILL).expect("kill");
        wait_until(GENEROUS, &format!("nothing below {victim} is left after its SIGKILL"), || {
            below.iter().all(|p| !running(p)).then_some(())
        });
        let _ = launcher.kill();
        let _ = launcher.wait();
    }
}

/// `tidelink-flap` (a participant program with a `main` of its own) stops on SIGTERM as every
/// other one does: at a window boundary, with status 130 and the reason, its `flap.csv` whole
/// and ending at the time it names (not "killed by signal 15", with whatever was on disk).
#[test]
fn tidelink_flap_stops_on_sigterm_at_a_window_with_its_output_whole() {
    support::participant_programs(&[("tidelink-mbs", "tidelink-flap"), ("tidelink-buoyancy", "tidelink-stream")]);
    let files =
        ["tidelink.yaml", "precice-config.xml", "flap_points.txt", "fluid/participant.yaml", "fluid/stream_model.yaml"];
    let long = [("precice-config.xml", "<max-time value=\"2.5\" />", "<max-time value=\"1000000\" />")];
    let dir = support::case::shipped_with("flap", &files, &long);
    let mut launcher = launch(dir.path(), &[]);
    let csv = dir.path().join("solid-output/flap.csv");
    wait_until(GENEROUS, "20 rows in flap.csv", || {
        assert!(launcher.try_wait().expect("wait").is_none(), "the run ended early:\n{}", log(dir.path()));
        (csv_rows(&csv).len() >= 20).then_some(())
    });
    let flap = process(dir.path(), launcher.id(), "tidelink-flap");
    kill(Pid::from_raw(flap.pid as i32), Signal::SIGTERM).expect("signal the flap");
    let status = exit_of(&mut launcher, dir.path());
    let text = log(dir.path());
    assert_eq!(status.code(), Some(1), "{text}");
    assert!(text.contains("error: participant `Solid` exited with status 130"), "{text}");
    assert!(text.contains("`Fluid` stopped because `Solid` failed"), "{text}");
    let said = "\"Solid\" stopped by a signal (SIGINT, SIGTERM or SIGHUP)";
    assert!(text.contains(said) || text.contains("\"Solid\": stopped by a signal"), "{text}");
    let rows = tidelink_mbs::io::output::read(&csv).expect("flap.csv reads back whole");
    assert!(rows.len() >= 20, "{} rows", rows.len());
    // One row per 25 ms (fps 40) from t = 0, none missing. The times are compensated sums of
    // the window size printed with every digit: 1e-9 s absorbs only the rounding.
    for (i, row) in rows.iter().enumerate() {
        assert!((row.time - 0.025 * i as f64).abs() < 1e-9, "row {i} at t = {}", row.time);
    }
    // Stopped between two windows, it names the time of the last one finished: the file holds
    // every output row up to it (rows are 25 ms apart, windows shorter), none after it.
    if let Some((_, at)) = text.split_once(&format!("{said} at t = ")) {
        let number: String =
            at.chars().take_while(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '-' | '+')).collect();
        let t: f64 = number.parse().unwrap_or_else(|e| panic!("{number:?}: {e}"));
        let last = rows.last().expect("a row").time;
        assert!(
            last <= t + 1e-9 && t - last < 0.025 - 1e-9,
            "the last row is at t = {last}, the flap stopped at t = {t}: rows are missing or beyond the stop"
        );
    }
}

/// With `backend: precice` (only with the feature; libprecice 3.4): `Fluid` stopped with
/// SIGSTOP, so that `Solid` ends up waiting inside libprecice, which no signal interrupts.
/// SIGTERM to `Solid` still ends it with 130 and a reason (at a window boundary, or by the
/// watchdog of adapter-core's `signals` while it waits), not "killed by signal 15"; its CSV
/// rows are whole.
#[cfg(feature = "precice")]
#[test]
fn on_libprecice_a_participant_waiting_for_a_stopped_partner_ends_on_sigterm_with_130() {
    let dir = case(&[]);
    let manifest = dir.path().join("tidelink.yaml");
    let text = std::fs::read_to_string(&manifest).expect("manifest");
    std::fs::write(&manifest, format!("{text}backend: precice\n")).expect("manifest");
    let mut launcher = launch(dir.path(), &[]);
    wait_for_rows(&mut launcher, dir.path(), 20);
    assert!(log(dir.path()).contains("This is preCICE version 3.4"), "on libprecice:\n{}", log(dir.path()));
    let fluid = process(dir.path(), launcher.id(), "tidelink-buoyan");
    let solid = process(dir.path(), launcher.id(), "tidelink-mbs");
    kill(Pid::from_raw(fluid.pid as i32), Signal::SIGSTOP).expect("stop the fluid");
    kill(Pid::from_raw(solid.pid as i32), Signal::SIGTERM).expect("signal the solid");
    let status = exit_of(&mut launcher, dir.path());
    let text = log(dir.path());
    assert_eq!(status.code(), Some(1), "{text}");
    assert!(text.contains("error: participant `Solid` exited with status 130"), "{text}");
    assert!(text.contains("stopped by a signal"), "{text}");
    let (ball, links) = csv_output(dir.path());
    assert!(ball.len() >= 20 && links.len() + 1 >= ball.len() && links.len() <= ball.len(), "{ball:?}\n{links:?}");
    let _ = kill(Pid::from_raw(fluid.pid as i32), Signal::SIGCONT);
    wait_until(GENEROUS, "the stopped fluid is gone", || (!running(&fluid)).then_some(()));
}

/// A check that takes long: a `tidelink-*` program (first on PATH) that sleeps.
fn slow_check_case() -> (tempfile::TempDir, PathBuf) {
    let dir = case(&[("tidelink.yaml", "command: tidelink-buoyancy", "command: tidelink-slowcheck")]);
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).expect("bin folder");
    let script = bin.join("tidelink-slowcheck");
    std::fs::write(&script, "#!/bin/sh\nexec sleep 1000\n").expect("script");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("executable");
    (dir, bin)
}

/// SIGTERM or SIGINT during the check phase stops the check at once (its program killed) and
/// `tidelink run` exits 130, as in the run phase; SIGKILL leaves no check program behind.
#[test]
fn signals_during_the_check_phase_stop_it_and_leave_no_check_behind() {
    for signal in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGKILL] {
        let (dir, bin) = slow_check_case();
        let path = std::env::var_os("PATH").unwrap_or_default();
        let joined = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&path))).expect("PATH");
        let mut launcher = launch(dir.path(), &[("PATH", joined.to_str().expect("a text PATH"))]);
        let check = process(dir.path(), launcher.id(), "sleep");
        kill(Pid::from_raw(launcher.id() as i32), signal).expect("signal");
        let status = exit_of(&mut launcher, dir.path());
        if signal == Signal::SIGKILL {
            assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9));
        } else {
            assert_eq!(status.code(), Some(130), "{signal}: {}", log(dir.path()));
            assert!(log(dir.path()).contains("interrupted during the check; nothing was started"));
        }
        wait_until(GENEROUS, &format!("the check program is gone after {signal}"), || (!running(&check)).then_some(()));
    }
}

/// `Fluid` stopped with SIGSTOP: `Solid` warns naming it after TIDELINK_STALL_WARNING seconds,
/// and after TIDELINK_STALL_TIMEOUT stops with an error naming it; the launcher ends the run.
#[test]
fn a_stopped_partner_is_named_in_a_warning_and_after_the_time_out() {
    let dir = case(&[]);
    let env = [("TIDELINK_STALL_WARNING", "1"), ("TIDELINK_STALL_TIMEOUT", "3")];
    let mut launcher = launch(dir.path(), &env);
    wait_for_rows(&mut launcher, dir.path(), 20);
    let fluid = process(dir.path(), launcher.id(), "tidelink-buoyan");
    kill(Pid::from_raw(fluid.pid as i32), Signal::SIGSTOP).expect("stop the fluid");
    let status = exit_of(&mut launcher, dir.path());
    let text = log(dir.path());
    assert_eq!(status.code(), Some(1), "{text}");
    assert!(text.contains("[Solid] ") && text.contains("for participant \"Fluid\", which sent nothing"), "{text}");
    assert!(text.contains("no message from participant \"Fluid\" for 3 s (TIDELINK_STALL_TIMEOUT=3)"), "{text}");
    wait_until(GENEROUS, "the stopped fluid is gone", || (!running(&fluid)).then_some(()));
}
