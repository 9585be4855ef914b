//! The external-module client against real child processes (Python): the lifecycle, and every
//! way a module can fail (error status, malformed reply, wrong length, death, timeout, no
//! connection, incomplete initialize reply) ending the call with an error that names the
//! module, the op and what was sent, with the child terminated and reaped.

use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tidelink_mbs_solver::ExternalLaw;
use tidelink_pto::{ModuleClient, ModuleSpec};

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/modules")
}

fn spec(command: Vec<String>, config: serde_json::Value, timeout_ms: u64) -> ModuleSpec {
    ModuleSpec {
        label: "TSDA `pto`".into(),
        command,
        dir: here(),
        kind: "pto".into(),
        in_names: vec!["displacement".into(), "velocity".into()],
        n_outputs: 1,
        timeout: Duration::from_millis(timeout_ms),
        config,
    }
}

fn faulty(fault: &str) -> ModuleClient {
    let cmd = vec!["python3".into(), "faulty_module.py".into()];
    ModuleClient::new(spec(cmd, json!({"fault": fault, "at": 2}), 5000))
}

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn lifecycle_spawn_initialize_evaluate_shutdown_join() {
    let mut c = faulty("none");
    c.start(0.01).unwrap();
    let pid = c.pid().unwrap();
    assert!(alive(pid));
    assert_eq!(c.info().unwrap().name, "Faulty");
    assert_eq!(c.evaluate(0.0, 0.01, &[0.1, 0.5]).unwrap(), vec![-1.0]);
    c.commit().unwrap();
    c.rollback().unwrap();
    c.reset().unwrap();
    assert_eq!(c.evaluate(0.01, 0.01, &[0.1, -0.25]).unwrap(), vec![0.5]);
    assert_eq!(c.round_trips(), 2);
    c.shutdown().unwrap();
    assert_eq!(c.pid(), None);
    assert!(!alive(pid), "the module process {pid} was not reaped");
}

/// `commit` and `rollback` reach only a module that reported internal states: for one with
/// `n_states: 0` they are no-ops, and sending them would cost two round trips per repeated
/// window.
#[test]
fn commit_and_rollback_reach_only_a_module_with_states() {
    let received = |n_states: u64| {
        let cmd = vec!["python3".into(), "faulty_module.py".into()];
        let mut c = ModuleClient::new(spec(cmd, json!({"n_states": n_states, "count_lifecycle": true}), 5000));
        c.start(0.01).unwrap();
        for _ in 0..3 {
            c.rollback().unwrap();
        }
        c.commit().unwrap();
        let seen = c.evaluate(0.01, 0.01, &[0.0, 0.0]).unwrap()[0];
        c.shutdown().unwrap();
        seen
    };
    assert_eq!(received(0), 0.0);
    assert_eq!(received(2), 4.0);
}

/// A stateless module asked the same question again (the first step of a window an implicit
/// scheme repeats: same time, step and inputs from the same checkpoint) is answered without a
/// round trip; any other question, or any question to a module with states, is sent.
#[test]
fn a_stateless_module_is_not_asked_the_same_question_twice() {
    let asked = |n_states: u64| {
        let cmd = vec!["python3".into(), "faulty_module.py".into()];
        let mut c = ModuleClient::new(spec(cmd, json!({"n_states": n_states}), 5000));
        for (t, v) in [(0.01, 0.5), (0.01, 0.5), (0.01, 0.25), (0.02, 0.25), (0.02, 0.25)] {
            assert_eq!(c.evaluate(t, 0.01, &[0.0, v]).unwrap(), vec![-2.0 * v]);
        }
        c.shutdown().unwrap();
        (c.round_trips(), c.repeats())
    };
    assert_eq!(asked(0), (3, 2));
    assert_eq!(asked(1), (5, 0));
}

/// The first evaluation works, the second fails as `fault` says.
fn second_evaluation_fails(fault: &str, timeout_ms: u64) -> String {
    let cmd = vec!["python3".into(), "faulty_module.py".into()];
    let mut c = ModuleClient::new(spec(cmd, json!({"fault": fault, "at": 2}), timeout_ms));
    c.evaluate(0.0, 0.01, &[0.0, 1.0]).unwrap();
    let pid = c.pid().unwrap();
    let e = c.evaluate(0.01, 0.01, &[0.0, 0.75]).unwrap_err().0;
    assert!(e.contains("TSDA `pto`") && e.contains("faulty_module.py"), "no module named: {e}");
    assert!(e.contains("op `evaluate`"), "no op: {e}");
    assert!(e.contains(r#""in":[0.0,0.75]"#), "not what was sent: {e}");
    assert!(!alive(pid), "{fault}: the module process {pid} still runs");
    assert_eq!(c.pid(), None);
    // Refused from now on, with the first error.
    let again = c.evaluate(0.02, 0.01, &[0.0, 0.0]).unwrap_err().0;
    assert!(again.contains("failed earlier"), "{again}");
    e
}

#[test]
fn error_status_aborts_with_the_modules_message() {
    let e = second_evaluation_fails("status_error", 5000);
    assert!(e.contains("status \"error\": division by zero"), "{e}");
}

#[test]
fn malformed_json_aborts() {
    let e = second_evaluation_fails("malformed", 5000);
    assert!(e.contains("not valid JSON"), "{e}");
}

#[test]
fn wrong_array_length_aborts() {
    let e = second_evaluation_fails("wrong_length", 5000);
    assert!(e.contains("`out` has 2 values, 1 expected"), "{e}");
}

#[test]
fn a_module_that_dies_aborts_with_its_exit_status() {
    let e = second_evaluation_fails("die", 5000);
    assert!(e.contains("exited") && e.contains('3'), "{e}");
}

#[test]
fn a_module_that_hangs_times_out() {
    let started = std::time::Instant::now();
    let e = second_evaluation_fails("hang", 400);
    assert!(e.contains("no reply within the timeout of 400 ms"), "{e}");
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_module_that_never_connects_is_reported() {
    let cmd = ["env", "FAULT_AT_START=no_connect", "python3", "faulty_module.py"].map(String::from).to_vec();
    let mut c = ModuleClient::new(spec(cmd, json!({}), 5000));
    let e = c.start(0.01).unwrap_err().0;
    assert!(e.contains("op `spawn`") && e.contains("exited") && e.contains("before connecting"), "{e}");
    let cmd = vec!["/nonexistent/tidelink-no-such-program".to_string()];
    let e = ModuleClient::new(spec(cmd, json!({}), 500)).start(0.01).unwrap_err().0;
    assert!(e.contains("cannot start"), "{e}");
}

#[test]
fn an_incomplete_initialize_reply_is_refused() {
    let cmd = vec!["python3".into(), "faulty_module.py".into()];
    let mut c = ModuleClient::new(spec(cmd, json!({"fault": "no_n_states"}), 5000));
    let e = c.start(0.01).unwrap_err().0;
    assert!(e.contains("op `initialize`") && e.contains("lacks `n_states`") && e.contains(r#""protocol":2"#), "{e}");
}

#[test]
fn wrong_input_count_is_refused_before_sending() {
    let mut c = faulty("none");
    let e = c.evaluate(0.0, 0.01, &[1.0, 2.0, 3.0]).unwrap_err().0;
    assert!(e.contains("3 inputs given, 2 announced"), "{e}");
}

/// A process of this host that finds the module port (in `/proc/net/tcp`) and connects before
/// the module, with a forged hello, a 1 GiB length prefix and a silent connection, gets nothing:
/// each is refused and closed, and the host takes its own child, which answers as always.
#[test]
fn a_forged_module_connection_is_refused_and_the_real_module_is_taken() {
    use std::io::{Read, Write};
    let cmd: Vec<String> = vec!["python3".into(), "faulty_module.py".into(), "--connect-late".into()];
    let launched = tidelink_pto::process::Launched::start(&cmd, &here()).unwrap();
    let port = launched.port();
    let frame = |v: serde_json::Value| tidelink_pto::frame::encode(&v);
    let mut forged = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    forged.write_all(&frame(tidelink_pto::protocol::hello(&"00".repeat(32)))).unwrap();
    let mut huge = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    huge.write_all(&(1u32 << 30).to_be_bytes()).unwrap();
    let _silent = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut module = launched.connect(Duration::from_secs(5)).expect("the real module");
    let init = json!({"op": "initialize", "protocol": 2, "kind": "pto", "n_inputs": 2, "n_outputs": 1, "dt": 0.01,
                      "in_names": ["displacement", "velocity"], "config": {}});
    assert_eq!(module.request(&init).unwrap()["name"], "Faulty");
    let out = module.request(&json!({"op": "evaluate", "t": 0.0, "dt": 0.01, "in": [0.0, 0.5]})).unwrap();
    assert_eq!(out["out"], json!([-1.0]), "the module's own answer, not a forger's");
    // The forger was closed without a word: it never saw the configuration.
    let mut got = Vec::new();
    forged.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    assert_eq!(forged.read_to_end(&mut got).unwrap_or(0), 0, "the forger received {got:?}");
    huge.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    assert_eq!(huge.read_to_end(&mut got).unwrap_or(0), 0);
    assert_eq!(module.request(&json!({"op": "shutdown"})).unwrap()["status"], "ok");
}

/// A module of protocol 1 (no hello) is refused with a message saying to update its helper.
#[test]
fn a_module_without_hello_is_refused_naming_the_protocol() {
    let cmd: Vec<String> = vec!["python3".into(), "faulty_module.py".into(), "--no-hello".into()];
    let launched = tidelink_pto::process::Launched::start(&cmd, &here()).unwrap();
    let e = launched.connect(Duration::from_millis(100)).unwrap_err().to_string();
    assert!(e.contains("sent no hello within 5 s") && e.contains("protocol 1"), "{e}");
}
