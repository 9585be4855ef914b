//! Same-machine transport (docs/performance.md, docs/security.md): partners on one machine
//! exchange through shared memory by default, say so in the log, read bit for bit what they
//! read over TCP; `TIDELINK_TRANSPORT=tcp` on either side keeps the pair on TCP; a partner
//! process killed while the other sleeps on the shared segment is noticed at once.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tidelink_coupling::native::{NativeParticipant, Transport};
use tidelink_coupling::ErrorKind;

/// The engine's info lines, captured for the whole test binary (common::captured_log).
fn infos() -> &'static Mutex<Vec<String>> {
    captured_log(log::Level::Info)
}

/// The transport line `me` logged about `partner`, if any.
fn transport_line(me: &str, partner: &str) -> Option<String> {
    let prefix = format!("{me}: exchanging with \"{partner}\" ");
    infos().lock().unwrap().iter().rev().find(|l| l.starts_with(&prefix)).cloned()
}

/// A serial-explicit pair `a`, `b` with one datum each way.
fn case_of(a: &str, b: &str, windows: u64) -> common::TempCase {
    Xml::new(2).scheme(Scheme::serial(a, b).window(1).windows(windows).ex("DataOne", a, b).ex("DataTwo", b, a)).case()
}

/// One participant through all windows writing `sin(0.7 t) + offset` (values whose every bit
/// matters); returns what it read.
fn member(config: &Path, me: &str, rd: &str, wd: &str, transport: Transport, offset: f64) -> Vec<f64> {
    let mut p = open(config, me);
    p.set_transport(transport);
    p.initialize().unwrap_or_else(|e| panic!("{me}: {e}"));
    drive(&mut p, 1.0, 1.0, rd, wd, move |t| (t * 0.7).sin() + offset).iter().map(|s| s.read).collect()
}

fn pair(config: &Path, a: &'static str, b: &'static str, ta: Transport, tb: Transport) -> (Vec<f64>, Vec<f64>) {
    let (ca, cb) = (config.to_path_buf(), config.to_path_buf());
    run2(
        move || member(&ca, a, "DataTwo", "DataOne", ta, 0.125),
        move || member(&cb, b, "DataOne", "DataTwo", tb, 1.0 / 3.0),
    )
}

#[test]
fn same_machine_partners_use_shared_memory_and_read_bitwise_what_tcp_gives() {
    infos();
    let (a, b) = ("ShmOne", "ShmTwo");
    let shm = pair(&case_of(a, b, 50).config, a, b, Transport::Auto, Transport::Auto);
    assert_eq!(shm.0.len(), 50);
    for (me, partner) in [(a, b), (b, a)] {
        let line = transport_line(me, partner).unwrap_or_else(|| panic!("{me} logged no transport"));
        assert!(line.contains("through shared memory") && line.contains("TIDELINK_TRANSPORT=tcp forces TCP"), "{line}");
    }
    // Either side forcing TCP keeps the pair on TCP; both say why.
    for (ta, tb) in [(Transport::Tcp, Transport::Auto), (Transport::Auto, Transport::Tcp)] {
        let tcp = pair(&case_of(a, b, 50).config, a, b, ta, tb);
        for (me, partner) in [(a, b), (b, a)] {
            let line = transport_line(me, partner).unwrap();
            assert!(line.contains("over TCP 127.0.0.1:") && line.contains("TIDELINK_TRANSPORT=tcp"), "{line}");
        }
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&tcp.0), bits(&shm.0), "{a} reads over TCP what it reads through shared memory");
        assert_eq!(bits(&tcp.1), bits(&shm.1), "{b} reads over TCP what it reads through shared memory");
    }
}

const CHILD_ENV: &str = "TIDELINK_TEST_SHM_CHILD_CONFIG";

/// Child-process half of `a_partner_killed_mid_exchange_over_shared_memory_is_noticed`:
/// participant KillB stepping slowly, so that KillA sleeps on the segment when KillB dies.
#[test]
#[ignore = "helper: started as a child process by a_partner_killed_mid_exchange_over_shared_memory_is_noticed"]
fn child_participant_kill_b() {
    let config = PathBuf::from(std::env::var(CHILD_ENV).expect("run by its parent test"));
    let mut b = open(&config, "KillB");
    b.initialize().unwrap();
    while b.is_coupling_ongoing().unwrap() {
        std::thread::sleep(std::time::Duration::from_millis(20));
        b.advance(1.0).unwrap();
    }
}

/// SIGKILL leaves no goodbye and no word in the segment: the lifeline's end wakes the sleeping
/// reader. Counted in windows, not seconds.
#[test]
fn a_partner_killed_mid_exchange_over_shared_memory_is_noticed() {
    infos();
    let case = case_of("KillA", "KillB", 1000);
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["child_participant_kill_b", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, &case.config)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start the child participant");
    let mut a: NativeParticipant = open(&case.config, "KillA");
    a.initialize().unwrap();
    let line = transport_line("KillA", "KillB").expect("a transport line");
    assert!(line.contains("through shared memory"), "{line}");
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
        assert!(window < 100, "KillA never noticed that KillB was killed");
    };
    let _ = child.wait();
    assert!(
        window <= KILLED_AT + 2,
        "KillA failed in window {window}, KillB was killed before window {}",
        KILLED_AT + 1
    );
    assert!(msg.contains("\"KillB\"") && msg.contains("disconnected"), "{msg}");
}
