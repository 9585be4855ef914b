//! `tidelink run` and the life of its participants: they die with the launcher however it
//! dies (SIGTERM, SIGHUP, SIGKILL; also behind a shell wrapper), a second run of a case that is
//! running is refused at once, and runs that share an exchange directory never couple with each
//! other's participants (through the launcher, or started by hand with different run identities).
//!
//! Linux only: the tests find the participants, and tell whether they still run, through /proc.
#![cfg(target_os = "linux")]

mod support;

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use support::procs::{descendants, running, Proc};

const TIDELINK: &str = env!("CARGO_BIN_EXE_tidelink");

/// The folder of the participant programs (built once for the whole file).
fn programs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        support::participant_programs(&[("tidelink-buoyancy", "tidelink-buoyancy"), ("tidelink-mbs", "tidelink-mbs")])
    })
}

/// A copy of configs/sphere_drop (support::sphere_drop_case).
fn sphere_drop(dir: &Path, windows: u64, edits: &[(&str, &str, &str)]) {
    support::sphere_drop_case(dir, windows, edits);
}

/// `tidelink run <case>` with its output in `log`; `path_first`: a folder put first on PATH.
fn launch(case: &Path, log: &Path, path_first: Option<&Path>) -> Child {
    let out = File::create(log).expect("log file");
    let mut c = Command::new(TIDELINK);
    c.arg("run").arg(case).stdin(Stdio::null()).stdout(out.try_clone().expect("log file")).stderr(out);
    // The participants' info lines ("coupling initialized") are what the tests wait for.
    c.env_remove("RUST_LOG").env_remove("TIDELINK_RUN_ID");
    if let Some(dir) = path_first {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let joined = std::env::join_paths(std::iter::once(dir.to_path_buf()).chain(std::env::split_paths(&path)));
        c.env("PATH", joined.expect("a PATH"));
    }
    c.spawn().expect("start tidelink")
}

fn read(log: &Path) -> String {
    std::fs::read_to_string(log).unwrap_or_default()
}

/// Waits (up to 60 s) until `log` has `n` lines containing `what`, or `child` has exited.
fn wait_for(child: &mut Child, log: &Path, what: &str, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while read(log).matches(what).count() < n {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("tidelink ended ({status}) before {n} × `{what}`:\n{}", read(log));
        }
        assert!(Instant::now() < deadline, "no {n} × `{what}` within 60 s:\n{}", read(log));
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits (up to 60 s) for `child` to exit.
fn wait_exit(child: &mut Child, log: &Path) -> ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("tidelink did not exit within 60 s:\n{}", read(log));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Polls up to 2 s for every process of `procs` to be gone; the survivors and the time it took.
fn gone_within_2_s(procs: &[Proc]) -> (Vec<Proc>, Duration) {
    let t0 = Instant::now();
    loop {
        let left: Vec<Proc> = procs.iter().filter(|p| running(p)).cloned().collect();
        if left.is_empty() || t0.elapsed() > Duration::from_secs(2) {
            return (left, t0.elapsed());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// How the participants are started.
#[derive(Clone, Copy, PartialEq)]
enum Wrap {
    /// Directly.
    No,
    /// Behind `sh -c` (which stays their parent).
    Shell,
    /// Behind `sh -c`, and without the lifeline's variable: like a program that does not watch
    /// the lifeline, only its group's guardian can end it when the launcher is killed.
    ShellBlind,
}

/// Starts a long sphere_drop run (participants wrapped as `wrap` says), waits until both
/// participants are coupled, sends `signal` to the launcher and asserts that every process it
/// started (the participants, their wrappers, their groups' guardians) is gone within 2 s.
/// Returns the case folder (for a run after it) and the log.
fn kill_the_launcher(signal: Signal, wrap: Wrap) -> (tempfile::TempDir, String) {
    let bin = programs();
    let dir = tempfile::tempdir().expect("case folder");
    let mut edits = Vec::new();
    let wrapped = wrap != Wrap::No;
    let blind = if wrap == Wrap::ShellBlind { "env -u TIDELINK_LIFELINE_FD " } else { "" };
    let fluid = format!("command: [sh, -c, '{blind}tidelink-buoyancy \"$@\"; exit $?', sh]");
    let solid = format!("command: [sh, -c, '{blind}tidelink-mbs \"$@\"; exit $?', sh]");
    if wrapped {
        // `sh` stays the parent: the Linux parent-death signal reaches it, not the participant
        // below it, which must notice the launcher's death through the inherited lifeline (or
        // be killed by its group's guardian).
        edits.push(("tidelink.yaml", "command: tidelink-buoyancy", fluid.as_str()));
        edits.push(("tidelink.yaml", "command: tidelink-mbs", solid.as_str()));
    }
    sphere_drop(dir.path(), 100_000_000, &edits);
    let log = dir.path().join("run.log");
    let mut launcher = launch(dir.path(), &log, wrapped.then_some(bin));
    wait_for(&mut launcher, &log, "coupling initialized", 2);
    let procs = descendants(launcher.id());
    let participants = procs.iter().filter(|p| p.name.starts_with("tidelink-")).count();
    assert_eq!(participants, 2, "{procs:?}");
    // Each participant's group has its guardian (src/lifeline.rs), a `sh`.
    assert_eq!(procs.len(), if wrapped { 6 } else { 4 }, "{procs:?}");

    kill(Pid::from_raw(launcher.id() as i32), signal).expect("signal the launcher");
    let (left, took) = gone_within_2_s(&procs);
    let status = wait_exit(&mut launcher, &log);
    let log_text = read(&log);
    println!(
        "{signal}{}: all {} processes gone {} ms after the signal",
        match wrap {
            Wrap::No => "",
            Wrap::Shell => " (sh wrappers)",
            Wrap::ShellBlind => " (sh wrappers, no lifeline)",
        },
        procs.len(),
        took.as_millis()
    );
    assert!(left.is_empty(), "still running 2 s after the launcher got {signal}: {left:?}\n{log_text}");
    if signal == Signal::SIGKILL {
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9), "{status}");
    } else {
        assert_eq!(status.code(), Some(130), "{log_text}");
        assert!(log_text.contains("interrupted; stopped: Fluid, Solid"), "{log_text}");
    }
    (dir, log_text)
}

#[test]
fn participants_die_with_a_launcher_stopped_by_sigterm() {
    kill_the_launcher(Signal::SIGTERM, Wrap::No);
}

/// What a closed terminal sends.
#[test]
fn participants_die_with_a_launcher_stopped_by_sighup() {
    kill_the_launcher(Signal::SIGHUP, Wrap::No);
}

/// SIGKILL cannot be caught: the participants notice the launcher's death themselves. The
/// launcher leaves its lock file behind, unlocked: the next run of the case is not refused.
#[test]
fn participants_die_with_a_launcher_killed_by_sigkill_and_the_case_runs_again() {
    let (dir, _) = kill_the_launcher(Signal::SIGKILL, Wrap::No);
    assert!(dir.path().join(".tidelink-run.lock").exists(), "SIGKILL leaves the lock file");
    let xml = dir.path().join("precice-config.xml");
    let text = std::fs::read_to_string(&xml).expect("xml");
    std::fs::write(&xml, text.replace("\"100000000\"", "\"50\"")).expect("shorter run");
    let o = Command::new(TIDELINK).arg("run").arg(dir.path()).output().expect("run again");
    let t = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{t}");
    assert!(t.contains("all participants exited 0"), "{t}");
    assert!(!dir.path().join(".tidelink-run.lock").exists(), "a run that ends removes its lock file");
}

/// Behind `sh -c` the parent-death signal stops only the shell: the participants below it end
/// through the lifeline pipe.
#[test]
fn participants_behind_a_shell_die_with_a_launcher_killed_by_sigkill() {
    kill_the_launcher(Signal::SIGKILL, Wrap::Shell);
}

/// A program behind `sh -c` that does not watch the lifeline (here a participant that is not
/// told of it) is killed by its group's guardian when the launcher is killed with SIGKILL.
#[test]
fn programs_behind_a_shell_that_ignore_the_lifeline_die_with_a_launcher_killed_by_sigkill() {
    kill_the_launcher(Signal::SIGKILL, Wrap::ShellBlind);
}

/// The canonical path of the case folder in messages.
fn canonical(p: &Path) -> String {
    p.canonicalize().expect("canonical path").display().to_string()
}

/// While a run of a case lives, every further run of it fails at once (nothing started) naming
/// the first one's pid; started together, exactly one of two runs starts.
#[test]
fn a_second_run_of_the_same_case_fails_at_once_every_time() {
    programs();
    let dir = tempfile::tempdir().expect("case folder");
    sphere_drop(dir.path(), 100_000_000, &[]);
    let busy = format!("another run is using {}", canonical(dir.path()));

    let log1 = dir.path().join("first.log");
    let mut first = launch(dir.path(), &log1, None);
    wait_for(&mut first, &log1, "coupling initialized", 2);
    let by = format!("(started by pid {} at ", first.id());
    for i in 0..10 {
        let log2 = dir.path().join(format!("second-{i}.log"));
        let mut second = launch(dir.path(), &log2, None);
        let status = wait_exit(&mut second, &log2);
        let t = read(&log2);
        assert_eq!(status.code(), Some(1), "attempt {i}: {t}");
        assert!(t.contains("error: nothing was started: ") && t.contains(&busy) && t.contains(&by), "attempt {i}: {t}");
        assert!(t.contains("wait for it or stop it") && !t.contains("started 2 participant(s)"), "attempt {i}: {t}");
    }
    assert!(first.try_wait().expect("wait").is_none(), "the first run goes on:\n{}", read(&log1));
    kill(Pid::from_raw(first.id() as i32), Signal::SIGTERM).expect("stop the first run");
    assert_eq!(wait_exit(&mut first, &log1).code(), Some(130));

    for i in 0..5 {
        let logs = [dir.path().join(format!("a-{i}.log")), dir.path().join(format!("b-{i}.log"))];
        let mut runs = [launch(dir.path(), &logs[0], None), launch(dir.path(), &logs[1], None)];
        // The refused one ends by itself; the other runs until stopped.
        let deadline = Instant::now() + Duration::from_secs(60);
        let loser = loop {
            if let Some(k) = (0..2).find(|&k| runs[k].try_wait().expect("wait").is_some()) {
                break k;
            }
            assert!(Instant::now() < deadline, "neither run was refused:\n{}\n{}", read(&logs[0]), read(&logs[1]));
            std::thread::sleep(Duration::from_millis(10));
        };
        let winner = 1 - loser;
        let t = read(&logs[loser]);
        assert!(t.contains(&busy) && t.contains(&format!("started by pid {}", runs[winner].id())), "trial {i}: {t}");
        wait_for(&mut runs[winner], &logs[winner], "coupling initialized", 2);
        kill(Pid::from_raw(runs[winner].id() as i32), Signal::SIGTERM).expect("stop the run");
        assert_eq!(wait_exit(&mut runs[winner], &logs[winner]).code(), Some(130), "{}", read(&logs[winner]));
    }
}

/// Case B: the same XML as case A, another fluid (denser water, more drag), so that a Solid
/// coupled to the other case's Fluid moves differently.
const OTHER_FLUID: &[(&str, &str, &str)] = &[
    ("fluid/buoyancy_model.yaml", "fluid_density: 1000", "fluid_density: 1025"),
    ("fluid/buoyancy_model.yaml", "drag_coefficient: 0.5", "drag_coefficient: 0.8"),
];

/// Cases A and B (300 windows) in `root/a` and `root/b`, both exchanging through `root/shared`.
fn two_cases(root: &Path) -> [PathBuf; 2] {
    let shared = root.join("shared");
    std::fs::create_dir_all(&shared).expect("shared folder");
    let m2n = format!("exchange-directory=\"{}\"", shared.display());
    let cases = [root.join("a"), root.join("b")];
    for (case, fluid) in cases.iter().zip([&[][..], OTHER_FLUID]) {
        let mut edits = vec![("precice-config.xml", "exchange-directory=\".\"", m2n.as_str())];
        edits.extend_from_slice(fluid);
        sphere_drop(case, 300, &edits);
    }
    cases
}

fn ball_csv(case: &Path) -> PathBuf {
    case.join("solid/output/ball.csv")
}

/// The ball's rows as written, without the provenance line (it carries the run's start time,
/// which differs between runs of the same physics).
fn ball_rows(case: &Path) -> std::io::Result<Vec<u8>> {
    let text = std::fs::read(ball_csv(case))?;
    Ok(match text.first() {
        Some(b'#') => text.iter().position(|&b| b == b'\n').map_or(Vec::new(), |i| text[i + 1..].to_vec()),
        _ => text,
    })
}

/// [`two_cases`] in a new folder, each run alone by `tidelink run` (which must succeed): the
/// folder, the cases and the ball's rows of each run alone.
fn two_cases_run_alone() -> (tempfile::TempDir, [PathBuf; 2], Vec<Vec<u8>>) {
    let root = tempfile::tempdir().expect("folder");
    let cases = two_cases(root.path());
    let reference = cases
        .iter()
        .map(|c| {
            let o = Command::new(TIDELINK).arg("run").arg(c).output().expect("run alone");
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            ball_rows(c).expect("output of a run alone")
        })
        .collect();
    (root, cases, reference)
}

/// Two runs of different cases that share an exchange directory, started together many times:
/// each either runs with its own physics (its output equals that of a run alone, bit for bit)
/// or is refused at once because the other is using the directory. Never both exit 0 with
/// each other's partners.
#[test]
fn runs_of_different_cases_sharing_an_exchange_directory_never_cross() {
    programs();
    let (root, cases, reference) = two_cases_run_alone();
    assert_ne!(reference[0], reference[1], "the two cases must differ in their physics");
    let shared = canonical(&root.path().join("shared"));
    let (mut both_ran, mut refused) = (0, 0);
    for trial in 0..15 {
        for c in &cases {
            let _ = std::fs::remove_file(ball_csv(c));
        }
        let logs: Vec<PathBuf> = (0..2).map(|k| root.path().join(format!("{trial}-{k}.log"))).collect();
        let mut runs: Vec<Child> = (0..2).map(|k| launch(&cases[k], &logs[k], None)).collect();
        let mut ran = 0;
        for k in 0..2 {
            let status = wait_exit(&mut runs[k], &logs[k]);
            let t = read(&logs[k]);
            if status.success() {
                ran += 1;
                let out = ball_rows(&cases[k]).expect("output");
                assert!(out == reference[k], "trial {trial}: case {k} exited 0 with another case's physics:\n{t}");
            } else {
                assert!(t.contains(&format!("another run is using {shared}")), "trial {trial}, case {k}: {t}");
                assert!(!t.contains("started 2 participant(s)"), "refused at once, nothing started: {t}");
                refused += 1;
            }
        }
        both_ran += usize::from(ran == 2);
    }
    println!(
        "15 pairs started together: {refused} run(s) refused, {both_ran} pair(s) where both ran one after the other"
    );
}

/// Starts participant `name` (`program`, spec `spec`) of `case` by hand, in run `run`.
fn by_hand(case: &Path, program: &str, spec: &str, run: &str, log: &Path) -> Child {
    let out = File::create(log).expect("log file");
    Command::new(programs().join(program))
        .args([spec, "--precice-config", "precice-config.xml"])
        .current_dir(case)
        .env("TIDELINK_RUN_ID", run)
        .env("TIDELINK_HANDSHAKE_TIMEOUT", "3")
        .env_remove("TIDELINK_LIFELINE_FD")
        .stdin(Stdio::null())
        .stdout(out.try_clone().expect("log file"))
        .stderr(out)
        .spawn()
        .expect("start a participant")
}

/// The same two cases without the launcher (and its lock): four participants of two runs
/// (different run identities) start together in one exchange directory, many times. A run
/// either couples its own two participants (its output equals that of a run alone) or fails
/// with a message about the other run; a participant never pairs with the other run's partner.
#[test]
fn participants_of_different_runs_started_by_hand_never_cross() {
    programs();
    let (root, cases, reference) = two_cases_run_alone();
    let mut failed_runs = 0;
    for trial in 0..8 {
        for c in &cases {
            let _ = std::fs::remove_file(ball_csv(c));
        }
        let mut procs = Vec::new();
        for (k, case) in cases.iter().enumerate() {
            let run = format!("trial{trial}-case{k}");
            for (program, spec) in
                [("tidelink-mbs", "solid/participant.yaml"), ("tidelink-buoyancy", "fluid/participant.yaml")]
            {
                let log = root.path().join(format!("{trial}-{k}-{program}.log"));
                procs.push((k, by_hand(case, program, spec, &run, &log), log));
            }
        }
        let mut ok = [true, true];
        let mut texts = [String::new(), String::new()];
        for (k, child, log) in &mut procs {
            let status = wait_exit(child, log);
            let t = read(log);
            if !status.success() {
                ok[*k] = false;
                // The other run's file was in the way (and named), or, on a slow machine, the
                // partner came after the timeout.
                assert!(
                    t.contains("another run")
                        || t.contains("connection file already exists")
                        || t.contains("waited 3 s"),
                    "trial {trial}, case {k}: an unexpected failure:\n{t}"
                );
            }
            texts[*k] += &t;
        }
        for k in 0..2 {
            if ok[k] {
                let out = ball_rows(&cases[k]).expect("output");
                assert!(out == reference[k], "trial {trial}: case {k} ran with another case's partner:\n{}", texts[k]);
            } else {
                failed_runs += 1;
            }
        }
    }
    println!(
        "8 trials of two runs started by hand together: {failed_runs} run(s) failed naming the other run, none crossed"
    );
}

/// An `external: true` participant started by hand before `tidelink run`: without the run's
/// identity it is another run, waiting in the exchange directory, so `run` refuses at once and
/// leaves its file alone; with the identity (`TIDELINK_RUN_ID` given to both) the two pair.
#[test]
fn an_external_participant_pairs_only_with_the_runs_identity() {
    programs();
    let dir = tempfile::tempdir().expect("case folder");
    sphere_drop(dir.path(), 300, &[("tidelink.yaml", "    command: tidelink-mbs\n", "    external: true\n")]);
    // Solid is the XML connector: it listens and publishes (coupling-semantics.md §8.2, §8.3).
    let rendezvous = dir.path().join("precice-run/Solid-Fluid/b4/2e0dd39c3756d0836301cc03527663");
    let start_solid = |run: Option<&str>, log: &Path| {
        let out = File::create(log).expect("log file");
        let mut c = Command::new(programs().join("tidelink-mbs"));
        c.args(["solid/participant.yaml", "--precice-config", "precice-config.xml"])
            .current_dir(dir.path())
            .env_remove("TIDELINK_RUN_ID")
            .env("TIDELINK_HANDSHAKE_TIMEOUT", "30")
            .stdin(Stdio::null())
            .stdout(out.try_clone().expect("log file"))
            .stderr(out);
        if let Some(r) = run {
            c.env("TIDELINK_RUN_ID", r);
        }
        c.spawn().expect("start the external Solid")
    };
    let wait_published = |solid: &mut Child, log: &Path| {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !rendezvous.is_file() {
            assert!(solid.try_wait().expect("wait").is_none(), "the Solid ended:\n{}", read(log));
            assert!(Instant::now() < deadline, "the Solid never published:\n{}", read(log));
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    let run = |id: Option<&str>| {
        let mut c = Command::new(TIDELINK);
        c.arg("run").arg(dir.path()).env_remove("TIDELINK_RUN_ID");
        if let Some(id) = id {
            c.env("TIDELINK_RUN_ID", id);
        }
        let o = c.output().expect("tidelink run");
        (o.status, format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
    };

    let log = dir.path().join("solid-1.log");
    let mut solid = start_solid(None, &log);
    wait_published(&mut solid, &log);
    let (status, t) = run(None);
    assert_eq!(status.code(), Some(1), "{t}");
    assert!(t.contains("another run is using") && t.contains(&format!("(pid {}, no run identity", solid.id())), "{t}");
    assert!(rendezvous.is_file(), "the live participant's file must stay");
    let _ = solid.kill();
    let _ = solid.wait();

    let log = dir.path().join("solid-2.log");
    let mut solid = start_solid(Some("case-run-7"), &log);
    wait_published(&mut solid, &log);
    let (status, t) = run(Some("case-run-7"));
    assert!(status.success(), "{t}");
    assert!(t.contains("`Solid` is external; start it yourself, with TIDELINK_RUN_ID=case-run-7"), "{t}");
    assert!(wait_exit(&mut solid, &log).success(), "{}", read(&log));
}
