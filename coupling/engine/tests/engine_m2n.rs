//! Connections between participants (docs/design/coupling-semantics.md §8.3, §8.4): rendezvous files (A27), the
//! configuration hash, handshake timeouts and partners that die or leave mid-run.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

/// Participant names of scenario A27: SolverOne is the XML acceptor, SolverTwo the connector.
fn solver_case(kind: &str, windows: u64) -> TempCase {
    Xml::new(2)
        .scheme(
            Scheme::new(kind, "SolverOne", "SolverTwo")
                .window(1)
                .windows(windows)
                .ex("DataOne", "SolverOne", "SolverTwo")
                .ex("DataTwo", "SolverTwo", "SolverOne"),
        )
        .case()
}

/// The example of coupling-semantics.md §8.3: the PRIMARYCOM file of listener SolverTwo and requester SolverOne.
fn primary_file(dir: &Path) -> PathBuf {
    dir.join("precice-run/SolverTwo-SolverOne/3b/0f28d9a0065c6f8af0a23dfa1ca307")
}

/// Runs one participant through all windows, reading and writing constants.
fn plain(config: &Path, me: &str, rd: &str, wd: &str) -> Vec<f64> {
    let mut p = open(config, me);
    p.initialize().unwrap_or_else(|e| panic!("{me}: {e}"));
    drive(&mut p, 1.0, 1.0, rd, wd, |t| t).iter().map(|s| s.read).collect()
}

/// A27: the file exists while SolverTwo waits; after both initialized `precice-run/` is empty.
#[test]
fn a27_rendezvous_files_during_start_up() {
    let case = solver_case("parallel-explicit", 1);
    let dir = case.path().to_path_buf();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let initialized = Arc::new(Barrier::new(3));
    let checked = Arc::new(Barrier::new(3));
    let run_one =
        |config: PathBuf, me: &'static str, rd: &'static str, wd: &'static str, go: Option<mpsc::Receiver<()>>| {
            let (initialized, checked) = (initialized.clone(), checked.clone());
            job(move || {
                if let Some(go) = go {
                    go.recv().expect("go signal");
                }
                let mut p = open(&config, me);
                p.initialize().unwrap();
                initialized.wait();
                checked.wait();
                write(&mut p, wd, 1.0);
                p.advance(1.0).unwrap();
                close(format!("{me} reads"), read(&mut p, rd, 0.0), 1.0);
                p.finalize().unwrap();
            })
        };
    let observer = {
        let (initialized, checked) = (initialized.clone(), checked.clone());
        job(move || {
            let file = primary_file(&dir);
            let deadline = Instant::now() + Duration::from_secs(20);
            while !file.exists() {
                assert!(Instant::now() < deadline, "SolverTwo never published {}", file.display());
                std::thread::sleep(Duration::from_millis(2));
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let addr: std::net::SocketAddr =
                text.lines().next().unwrap().trim_end().parse().expect("line 1 is <ip>:<port>");
            assert!(addr.ip().is_loopback(), "{addr}");
            go_tx.send(()).unwrap();
            initialized.wait();
            let run_dir = dir.join("precice-run");
            assert!(run_dir.is_dir(), "precice-run/ stays");
            let left: Vec<_> = std::fs::read_dir(&run_dir).unwrap().map(|e| e.unwrap().path()).collect();
            assert!(left.is_empty(), "precice-run/ must be empty after initialize: {left:?}");
            checked.wait();
        })
    };
    run(vec![
        run_one(cfg(&case), "SolverTwo", "DataOne", "DataTwo", None),
        run_one(cfg(&case), "SolverOne", "DataTwo", "DataOne", Some(go_rx)),
        observer,
    ]);
}

/// The engine's warnings, captured for the whole test binary (common::captured_log).
fn warnings() -> &'static Mutex<Vec<String>> {
    captured_log(log::Level::Warn)
}

/// A stale PRIMARYCOM file left by a crashed run (its port no longer listens) is
/// replaced with a warning, and the run works.
#[test]
fn a27_stale_connection_file_of_a_dead_run_is_replaced() {
    let case = solver_case("serial-explicit", 2);
    let file = primary_file(case.path());
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let dead_port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    std::fs::write(
        &file,
        format!("127.0.0.1:{dead_port}\nAcceptor: SolverTwo, Requester: SolverOne, Tag: PRIMARYCOM, Rank: -1\n"),
    )
    .unwrap();
    let log = warnings();
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (one, two) = run2(
        move || plain(&ca, "SolverOne", "DataTwo", "DataOne"),
        move || plain(&cb, "SolverTwo", "DataOne", "DataTwo"),
    );
    assert_eq!(one, vec![0.0, 1.0], "SolverOne lags one window");
    assert_eq!(two, vec![1.0, 2.0]);
    let name = file.display().to_string();
    let log = log.lock().unwrap();
    assert!(log.iter().any(|w| w.contains(&name) && w.contains("stale")), "no warning about {name}: {log:?}");
    assert!(!file.exists(), "the replacement file is removed once connected");
}

/// A stale file whose process id belongs to a live process again (here: this very test's) is
/// still recognised: its writer's lock went with the writer. The run works.
#[test]
fn a27_stale_file_whose_pid_is_in_use_again_is_replaced() {
    let case = solver_case("serial-explicit", 2);
    let file = primary_file(case.path());
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let text = format!(
        "127.0.0.1:1\nAcceptor: SolverTwo, Requester: SolverOne, Tag: PRIMARYCOM, Rank: -1\nOwner: pid={} host={} \
         lock=1 run=-\n",
        std::process::id(),
        host.trim()
    );
    std::fs::write(&file, text).unwrap();
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (one, two) = run2(
        move || plain(&ca, "SolverOne", "DataTwo", "DataOne"),
        move || plain(&cb, "SolverTwo", "DataOne", "DataTwo"),
    );
    assert_eq!((one, two), (vec![0.0, 1.0], vec![1.0, 2.0]));
}

/// Runs one participant of run `run` through all windows, writing `t + offset`.
fn in_run(config: &Path, me: &str, rd: &str, wd: &str, run: &str, offset: f64) -> Vec<f64> {
    let mut p = open(config, me);
    p.set_run_id(Some(run));
    p.initialize().unwrap_or_else(|e| panic!("{me} of {run}: {e}"));
    drive(&mut p, 1.0, 1.0, rd, wd, move |t| t + offset).iter().map(|s| s.read).collect()
}

/// coupling-semantics.md §8.3, §8.4: participants of different runs never pair, even with the
/// same configuration in one exchange directory. At the timeout the requester names the run
/// whose file it found.
#[test]
fn participants_of_different_runs_never_pair() {
    let case = solver_case("parallel-explicit", 1);
    let attempt = |config: PathBuf, me: &'static str, run: &'static str| {
        move || {
            let mut p = open(&config, me);
            p.set_run_id(Some(run));
            p.set_handshake_timeout(Duration::from_secs(2));
            p.initialize().err().map(|e| message_of(e, ErrorKind::Partner))
        }
    };
    let (one, two) = run2(attempt(cfg(&case), "SolverOne", "run-a"), attempt(cfg(&case), "SolverTwo", "run-b"));
    let one = one.expect("SolverOne (run-a) paired with SolverTwo of run-b");
    let two = two.expect("SolverTwo (run-b) paired with SolverOne of run-a");
    assert!(one.contains("of another run") && one.contains("run run-b") && one.contains("(run run-a)"), "{one}");
    assert!(two.contains("waited 2 s for participant \"SolverOne\""), "{two}");
    assert!(!primary_file(case.path()).exists(), "SolverTwo left its rendezvous file behind");
}

/// Two runs share an exchange directory. Run b's requester starts while run a's listener waits
/// for its partner: it waits too (that file is not its partner's); run a pairs when its own
/// requester comes, and run b once its listener has published. Each run reads its own data.
#[test]
fn a_requester_waits_past_the_listener_of_another_run() {
    let case = solver_case("serial-explicit", 2);
    let file = primary_file(case.path());
    let (a_paired_tx, a_paired_rx) = mpsc::channel::<()>();
    let (b_waits_tx, b_waits_rx) = mpsc::channel::<()>();
    let (c1, c2, c3, c4) = (cfg(&case), cfg(&case), cfg(&case), cfg(&case));
    let watch = file.clone();
    let results = run(vec![
        job(move || in_run(&c1, "SolverTwo", "DataOne", "DataTwo", "a", 0.0)),
        job(move || {
            let deadline = Instant::now() + Duration::from_secs(20);
            while !watch.exists() {
                assert!(Instant::now() < deadline, "run a's SolverTwo never published");
                std::thread::sleep(Duration::from_millis(2));
            }
            b_waits_tx.send(()).unwrap();
            in_run(&c2, "SolverOne", "DataTwo", "DataOne", "b", 100.0)
        }),
        job(move || {
            b_waits_rx.recv().unwrap();
            // Run b's requester has had time to find run a's file (and to connect, were it not checked).
            std::thread::sleep(Duration::from_millis(300));
            let r = in_run(&c3, "SolverOne", "DataTwo", "DataOne", "a", 0.0);
            a_paired_tx.send(()).unwrap();
            r
        }),
        job(move || {
            a_paired_rx.recv().unwrap();
            in_run(&c4, "SolverTwo", "DataOne", "DataTwo", "b", 100.0)
        }),
    ]);
    assert_eq!(results[0], vec![1.0, 2.0], "run a's SolverTwo");
    assert_eq!(results[2], vec![0.0, 1.0], "run a's SolverOne");
    assert_eq!(results[1], vec![0.0, 101.0], "run b's SolverOne");
    assert_eq!(results[3], vec![101.0, 102.0], "run b's SolverTwo");
}

/// A27 / coupling-semantics.md §8.4: configurations differing by one whitespace → both fail in initialize().
#[test]
fn a27_configs_differing_by_one_space_are_refused_on_both_sides() {
    let case = solver_case("parallel-explicit", 1);
    let text = std::fs::read_to_string(&case.config).unwrap();
    let other = case.write("other.xml", &text.replacen("</precice-configuration>", " </precice-configuration>", 1));
    let ca = cfg(&case);
    let (one, two) = run2(
        move || open(&ca, "SolverOne").initialize().err().map(|e| message_of(e, ErrorKind::Config)),
        move || open(&other, "SolverTwo").initialize().err().map(|e| message_of(e, ErrorKind::Config)),
    );
    for (who, msg) in [("SolverOne", one), ("SolverTwo", two)] {
        let msg = msg.unwrap_or_else(|| panic!("{who} must refuse the partner"));
        assert!(msg.contains("different configuration file"), "{who}: {msg}");
    }
}

/// A missing partner makes initialize() fail after the handshake timeout, naming it,
/// on the connecting and on the listening side; the listener removes its file.
#[test]
fn handshake_timeout_names_the_missing_partner() {
    let case = solver_case("parallel-explicit", 1);
    for (me, missing) in [("SolverOne", "SolverTwo"), ("SolverTwo", "SolverOne")] {
        let mut p = open(&case.config, me);
        p.set_handshake_timeout(Duration::from_secs(1));
        let t0 = Instant::now();
        let msg = fails(p.initialize(), ErrorKind::Partner, &[&format!("\"{missing}\"")]);
        let waited = t0.elapsed();
        // The timeout set, not the default 60 s: the message says so. Only a lower bound on the
        // clock (giving up early is a bug; a loaded machine can only make the wait longer).
        assert!(msg.contains("waited 1 s for participant"), "{me}: {msg}");
        assert!(waited >= Duration::from_millis(900), "{me} gave up after {waited:?}: {msg}");
        assert!(!primary_file(case.path()).exists(), "{me} left its rendezvous file behind");
    }
}

/// How a participant leaves the run early.
#[derive(Clone, Copy, Debug)]
enum Leave {
    /// Drops its NativeParticipant and keeps its thread alive.
    Drop,
    /// Calls finalize() while coupling is ongoing.
    Finalize,
    /// Returns from its thread (the participant goes out of scope).
    Return,
}

/// B leaves after 3 windows; A keeps stepping. Returns A's error and whether A failed while
/// B's thread was still alive (after Drop and Finalize it lives on for 3 s).
fn partner_leaves(leave: Leave) -> (String, bool) {
    let case = pair_case(Scheme::serial("A", "B").window(1).windows(50));
    let (ca, cb) = (cfg(&case), cfg(&case));
    let b_ended = Arc::new(AtomicBool::new(false));
    let (seen, ended) = (b_ended.clone(), b_ended);
    let (a, _) = run2(
        move || {
            let mut a = open(&ca, "A");
            a.initialize().unwrap();
            loop {
                write(&mut a, "DataOne", 1.0);
                if let Err(e) = a.advance(1.0) {
                    return Some((message_of(e, ErrorKind::Partner), !seen.load(Ordering::SeqCst)));
                }
                assert!(a.is_coupling_ongoing().unwrap(), "A must not reach the end");
            }
        },
        move || {
            let mut b = open(&cb, "B");
            b.initialize().unwrap();
            for _ in 0..3 {
                b.advance(1.0).unwrap();
            }
            std::thread::sleep(Duration::from_millis(100));
            match leave {
                Leave::Drop => drop(b),
                Leave::Finalize => b.finalize().unwrap(),
                Leave::Return => {
                    ended.store(true, Ordering::SeqCst);
                    return None;
                }
            }
            std::thread::sleep(Duration::from_secs(3));
            ended.store(true, Ordering::SeqCst);
            None
        },
    );
    a.expect("A must fail")
}

/// A notices the leaving itself, not the end of B's thread: no clock involved, A must have
/// failed while B's thread was still sleeping after Drop or Finalize.
#[test]
fn partner_that_leaves_makes_the_other_fail_at_once() {
    for leave in [Leave::Drop, Leave::Finalize, Leave::Return] {
        let (msg, before_b_ended) = partner_leaves(leave);
        assert!(msg.contains("\"B\""), "{leave:?}: A's error must name B: {msg}");
        if !matches!(leave, Leave::Return) {
            assert!(before_b_ended, "{leave:?}: A failed only once B's thread had ended: {msg}");
        }
    }
}

/// Chain A → B → C (two serial schemes); C disappears in window 3; A, two hops away, fails,
/// and both fail on the death itself: while C's thread still sleeps after dropping C.
#[test]
fn death_at_the_end_of_a_chain_reaches_the_far_end_at_once() {
    let case = Xml::new(2)
        .scheme(Scheme::serial("A", "B").window(1).windows(50).ex("AB", "A", "B").ex("BA", "B", "A"))
        .scheme(Scheme::serial("B", "C").window(1).windows(50).ex("BC", "B", "C").ex("CB", "C", "B"))
        .case();
    let c_ended = Arc::new(AtomicBool::new(false));
    let stepper = |config: PathBuf, me: &'static str| {
        let seen = c_ended.clone();
        job(move || {
            let mut p = open(&config, me);
            p.initialize().unwrap();
            loop {
                if let Err(e) = p.advance(1.0) {
                    return Some((message_of(e, ErrorKind::Partner), !seen.load(Ordering::SeqCst)));
                }
            }
        })
    };
    let (cc, ended) = (cfg(&case), c_ended.clone());
    let c = job(move || {
        let mut c = open(&cc, "C");
        c.initialize().unwrap();
        c.advance(1.0).unwrap();
        c.advance(1.0).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        drop(c);
        std::thread::sleep(Duration::from_secs(3));
        ended.store(true, Ordering::SeqCst);
        None
    });
    let r = run(vec![stepper(cfg(&case), "A"), stepper(cfg(&case), "B"), c]);
    for (who, res) in [("A", &r[0]), ("B", &r[1])] {
        let (msg, before_c_ended) = res.clone().unwrap_or_else(|| panic!("{who} must fail"));
        assert!(before_c_ended, "{who} failed only once C's thread had ended: {msg}");
    }
    let b_msg = &r[1].as_ref().unwrap().0;
    assert!(b_msg.contains("\"C\""), "B's error names C: {b_msg}");
}

const CHILD_ENV: &str = "TIDELINK_TEST_CHILD_CONFIG";

/// Child-process half of `partner_process_killed_mid_run`: participant B stepping slowly.
#[test]
#[ignore = "helper: started as a child process by partner_process_killed_mid_run"]
fn child_participant_b() {
    let config = PathBuf::from(std::env::var(CHILD_ENV).expect("run by partner_process_killed_mid_run"));
    let mut b = open(&config, "B");
    b.initialize().unwrap();
    while b.is_coupling_ongoing().unwrap() {
        std::thread::sleep(Duration::from_millis(20));
        b.advance(1.0).unwrap();
    }
}

/// A partner process killed with SIGKILL (no goodbye of any kind) is noticed at once.
#[test]
fn partner_process_killed_mid_run() {
    let case = pair_case(Scheme::serial("A", "B").window(1).windows(1000));
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["child_participant_b", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, &case.config)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start the child participant");
    let mut a = open(&case.config, "A");
    a.initialize().unwrap();
    const KILLED_AT: usize = 3;
    let mut window = 0;
    let msg = loop {
        if window == KILLED_AT {
            child.kill().unwrap();
        }
        window += 1;
        if let Err(e) = a.advance(1.0) {
            break message_of(e, ErrorKind::Partner);
        }
        assert!(window < 100, "A never noticed that B was killed");
    };
    let _ = child.wait();
    // Counted in windows, not seconds: B can have sent at most the window it was in.
    println!("A failed in window {window}, B killed before window {}", KILLED_AT + 1);
    assert!(window <= KILLED_AT + 2, "A failed in window {window}, B was killed before window {}", KILLED_AT + 1);
    assert!(msg.contains("\"B\""), "{msg}");
}

/// `network="…"` selects the interface whose address is published; an unknown name is a
/// clear error listing the interfaces (coupling-semantics.md §8.1), raised by the listening side at once:
/// when it is constructed, at the m2n tag (so that `tidelink check` finds it too), before connecting.
#[test]
fn unknown_network_interface_is_named_with_the_available_ones() {
    let case = solver_case("parallel-explicit", 1);
    let xml = std::fs::read_to_string(&case.config).unwrap();
    let bad = xml.replace("exchange-directory=", "network=\"nosuch0\" exchange-directory=");
    assert_ne!(bad, xml, "the builder writes an m2n tag");
    std::fs::write(&case.config, bad).unwrap();
    // SolverTwo is the XML connector: it listens, so it looks the interface up.
    let msg = fails(
        tidelink_coupling::native::NativeParticipant::new("SolverTwo", &case.config),
        ErrorKind::Config,
        &["Cannot find network interface \"nosuch0\"", "Available interfaces are", "lo"],
    );
    assert!(msg.contains("precice-config.xml:"), "at the m2n tag: {msg}");
    // The requester does not use the interface.
    assert!(tidelink_coupling::native::NativeParticipant::new("SolverOne", &case.config).is_ok());
}

/// A partner that fails sends its reason: the other stops naming it and giving that reason,
/// not a bare "finalized before the end of the coupling".
#[test]
fn a_failing_partner_sends_its_reason() {
    let case = pair_case(Scheme::serial("A", "B").window(1).windows(50));
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (a, _) = run2(
        move || {
            let mut a = open(&ca, "A");
            a.initialize().unwrap();
            loop {
                write(&mut a, "DataOne", 1.0);
                if let Err(e) = a.advance(1.0) {
                    return Some(message_of(e, ErrorKind::Partner));
                }
            }
        },
        move || {
            let mut b = open(&cb, "B");
            b.initialize().unwrap();
            for _ in 0..3 {
                b.advance(1.0).unwrap();
            }
            Coupling::abort(&mut b, "writing out/ball.csv: No space left on device").unwrap();
            None
        },
    );
    let msg = a.expect("A must fail");
    assert!(msg.contains("participant \"B\" failed: writing out/ball.csv: No space left on device"), "{msg}");
}

/// A partner that stays connected but sends nothing (stopped, hung) ends the wait after the
/// stall time-out, with an error naming it; the partner lives on until then (it waits for A's
/// word, so no clock decides the outcome).
#[test]
fn a_silent_partner_is_named_after_the_stall_time_out() {
    let case = pair_case(Scheme::serial("A", "B").window(1).windows(50));
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let (a, _) = run2(
        move || {
            let mut a = open(&ca, "A");
            a.set_stall_timeout(Some(Duration::from_millis(300)));
            a.initialize().unwrap();
            let result = loop {
                write(&mut a, "DataOne", 1.0);
                if let Err(e) = a.advance(1.0) {
                    break Some(message_of(e, ErrorKind::Partner));
                }
            };
            let _ = done_tx.send(());
            result
        },
        move || {
            let mut b = open(&cb, "B");
            b.initialize().unwrap();
            b.advance(1.0).unwrap();
            // Silent from here on, connected, until A has given up.
            let _ = done_rx.recv_timeout(Duration::from_secs(120));
            drop(b);
            None
        },
    );
    let msg = a.expect("A must fail");
    assert!(msg.contains("no message from participant \"B\" for 0.3 s (TIDELINK_STALL_TIMEOUT=0.3)"), "{msg}");
}
