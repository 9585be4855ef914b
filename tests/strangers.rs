//! Strangers against real runs (docs/security.md): a process of the same user without the run's
//! secret connects to the listening participant again and again during a whole `tidelink run`
//! and is refused each time, the run's results bit for bit those of the run alone; a process of
//! another user (uid 65534, through `setpriv`) can neither read the key file nor plant a file in
//! the exchange directory and is refused too; another user's lock file is named as busy while its
//! run lives and as that user's stale lock once it is dead.
//!
//! The other-user tests need root (to switch users) and `setpriv`: elsewhere they show as
//! ignored (`cfg(tidelink_second_uid)`, set by build.rs; docs/testing.md).
//!
//! Linux only: the connection and key files, `setpriv`.
#![cfg(target_os = "linux")]

mod support;

use std::fs::File;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use support::procs::wait_until;

const TIDELINK: &str = env!("CARGO_BIN_EXE_tidelink");
/// A deadline for conditions that take about a second, far above it (a busy machine).
const GENEROUS: u64 = 120;
/// The Solid (the XML's connector) listens and publishes this connection file in the case.
const CONNECTION_FILE: &str = "precice-run/Solid-Fluid/b4/2e0dd39c3756d0836301cc03527663";
/// The uid and gid of the other user (`nobody` on most systems).
const STRANGER_UID: &str = "65534";

/// The folder of the participant programs (built once for the whole file).
fn programs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        support::participant_programs(&[("tidelink-buoyancy", "tidelink-buoyancy"), ("tidelink-mbs", "tidelink-mbs")])
    })
}

/// The ball's rows (the CSV without its provenance line, which names the time of the run).
fn ball_rows(case: &Path) -> Vec<u8> {
    let text = std::fs::read(case.join("solid/output/ball.csv")).expect("ball.csv");
    match text.first() {
        Some(b'#') => text.iter().position(|&b| b == b'\n').map_or(Vec::new(), |i| text[i + 1..].to_vec()),
        _ => text,
    }
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A frame of the engine's wire format: u32 length (little-endian), then the body.
fn frame(body: &[u8]) -> Vec<u8> {
    let mut f = (body.len() as u32).to_le_bytes().to_vec();
    f.extend_from_slice(body);
    f
}

fn field(out: &mut Vec<u8>, b: &[u8]) {
    out.extend((b.len() as u32).to_le_bytes());
    out.extend_from_slice(b);
}

/// What a stranger knows: the protocol (7), the version, the participant names; not the secret.
fn forged_hello() -> Vec<u8> {
    let mut b = vec![1u8];
    b.extend(7u32.to_le_bytes()); // the protocol of this version (coupling/engine m2n/wire.rs)
    field(&mut b, concat!("tidelink-native-", env!("CARGO_PKG_VERSION")).as_bytes());
    field(&mut b, b"any hash");
    field(&mut b, b"Fluid");
    field(&mut b, b"");
    field(&mut b, &[7; 32]);
    frame(&b)
}

/// One forged handshake against `addr`: the hello, then a proof of zeros. `Some(answer)` (the
/// listener's abort, as text) when the listener took the connection, `None` when it did not (it
/// has stopped listening: the partners are connected).
fn forge(addr: SocketAddr) -> Option<String> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    s.write_all(&forged_hello()).ok()?;
    let mut len = [0u8; 4];
    s.read_exact(&mut len).ok()?;
    let mut hello = vec![0u8; u32::from_le_bytes(len) as usize];
    s.read_exact(&mut hello).ok()?;
    let mut proof = vec![6u8];
    field(&mut proof, &[0u8; 32]);
    s.write_all(&frame(&proof)).ok()?;
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    Some(String::from_utf8_lossy(&answer).into_owned())
}

/// The address in the connection file, once it is there and whole.
fn published(case: &Path) -> Option<SocketAddr> {
    std::fs::read_to_string(case.join(CONNECTION_FILE)).ok()?.lines().next()?.trim().parse().ok()
}

/// `tidelink run <case>` with the programs' folder first on PATH (for the wrapper below).
fn tidelink_run(case: &Path) -> Output {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let joined = std::env::join_paths(std::iter::once(programs().to_path_buf()).chain(std::env::split_paths(&path)));
    Command::new(TIDELINK)
        .arg("run")
        .arg(case)
        .env("PATH", joined.expect("a PATH"))
        .env_remove("RUST_LOG")
        .env_remove("TIDELINK_RUN_ID")
        .output()
        .expect("start tidelink")
}

/// sphere_drop over 200 windows whose Fluid (the requester) starts only once `go` exists, so
/// that the stranger is sure to reach the Solid's listener before it.
fn gated_case(go: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("case folder");
    let gate = format!(
        "command: [sh, -c, 'while [ ! -e \"{}\" ]; do sleep 0.05; done; tidelink-buoyancy \"$@\"; exit $?', sh]",
        go.display()
    );
    support::sphere_drop_case(dir.path(), 200, &[("tidelink.yaml", "command: tidelink-buoyancy", &gate)]);
    dir
}

/// A stranger of the same user without the secret connects to the Solid's port again and again
/// during a whole `tidelink run` (first before the Fluid starts, then until the run ends): every
/// connection is refused with the reason, the Solid logs each with its address, and the ball's
/// trajectory is bit for bit that of the run alone.
#[test]
fn a_stranger_during_a_run_is_refused_and_logged_and_the_results_are_bitwise_the_solo_ones() {
    programs();
    let solo_go = tempfile::NamedTempFile::new().expect("an open gate");
    let solo = gated_case(solo_go.path());
    let out = tidelink_run(solo.path());
    assert!(out.status.success(), "{}", text(&out));
    let reference = ball_rows(solo.path());
    assert!(reference.len() > 1000, "the run alone wrote its rows");

    let gate_dir = tempfile::tempdir().expect("gate folder");
    let go = gate_dir.path().join("go");
    let attacked = gated_case(&go);
    let done = Arc::new(AtomicBool::new(false));
    let stranger = {
        let (case, go, done) = (attacked.path().to_path_buf(), go.clone(), done.clone());
        std::thread::spawn(move || {
            let addr = wait_until(GENEROUS, "the Solid publishes its address", || published(&case));
            let answer = forge(addr).expect("the listener takes the stranger's connection");
            assert!(answer.contains("does not hold the run's secret"), "the abort says why: {answer:?}");
            File::create(&go).expect("open the gate");
            let mut refused = 1;
            while !done.load(Ordering::Relaxed) {
                if let Some(answer) = published(&case).and_then(forge) {
                    assert!(answer.contains("does not hold the run's secret"), "{answer:?}");
                    refused += 1;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            refused
        })
    };
    let out = tidelink_run(attacked.path());
    done.store(true, Ordering::Relaxed);
    let refused = stranger.join().expect("the stranger's own checks");
    let log = text(&out);
    assert!(out.status.success(), "{log}");
    let logged = log.lines().filter(|l| l.contains("Solid: refused a connection from 127.0.0.1:")).count();
    assert!(logged >= 1 && log.contains("does not hold the run's secret"), "{log}");
    println!("{refused} forged connection(s) refused during the run, {logged} logged");
    assert!(ball_rows(attacked.path()) == reference, "the run's rows differ from those of the run alone:\n{log}");
}

/// `program` (`tidelink-mbs` or `tidelink-buoyancy`) started by hand in `case` (no launcher: the
/// pair's secret is the listener's key file), its output in `log`.
fn by_hand(case: &Path, program: &str, spec: &str, log: &Path) -> Child {
    let out = File::create(log).expect("log file");
    Command::new(programs().join(program))
        .args([spec, "--precice-config", "precice-config.xml"])
        .current_dir(case)
        .env_remove("TIDELINK_RUN_ID")
        .env_remove("TIDELINK_RUN_SECRET")
        .env_remove("TIDELINK_SECRET_FILE")
        .env_remove("TIDELINK_LIFELINE_FD")
        .env_remove("TIDELINK_LAUNCHED")
        .stdin(Stdio::null())
        .stdout(out.try_clone().expect("log file"))
        .stderr(out)
        .spawn()
        .expect("start a participant")
}

/// Runs the pair by hand in `case`; `before_fluid` runs once the Solid has published its
/// address and key file. Returns the Solid's log.
fn pair_by_hand(case: &Path, before_fluid: impl FnOnce(SocketAddr)) -> String {
    let (solid_log, fluid_log) = (case.join("solid.log"), case.join("fluid.log"));
    let mut solid = by_hand(case, "tidelink-mbs", "solid/participant.yaml", &solid_log);
    let key = case.join(format!("{CONNECTION_FILE}.key"));
    let addr =
        wait_until(GENEROUS, "the Solid publishes its address and key", || published(case).filter(|_| key.is_file()));
    before_fluid(addr);
    let mut fluid = by_hand(case, "tidelink-buoyancy", "fluid/participant.yaml", &fluid_log);
    for (child, log) in [(&mut solid, &solid_log), (&mut fluid, &fluid_log)] {
        let status = wait_until(GENEROUS * 5, "the participant exits", || child.try_wait().expect("wait"));
        let t = std::fs::read_to_string(log).unwrap_or_default();
        assert!(status.success(), "{}: {status}\n{t}", log.display());
    }
    std::fs::read_to_string(&solid_log).unwrap_or_default()
}

/// `setpriv` running `program` as the other user, with no supplementary groups.
fn as_stranger(program: &str) -> Command {
    let mut c = Command::new("setpriv");
    c.args([&format!("--reuid={STRANGER_UID}"), &format!("--regid={STRANGER_UID}"), "--clear-groups", program]);
    c
}

/// What the other user tries, in Python (an interpreter every test machine here has): read the
/// connection file and the key file, plant a file in `precice-run/`, and a forged handshake on
/// the port (which `/proc/net/tcp` shows to anyone). One line per attempt.
const STRANGER_PY: &str = r#"
import os, socket, struct, sys
conn, key, port, version = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def attempt(what, f):
    try:
        f()
        print(what + ": allowed")
    except PermissionError:
        print(what + ": denied")
attempt("read the connection file", lambda: open(conn, "rb").read())
attempt("read the key file", lambda: open(key, "rb").read())
run_dir = conn[: conn.index("precice-run") + len("precice-run")]
attempt("plant a file", lambda: open(os.path.join(run_dir, "planted"), "w").write("x"))
def field(b):
    return struct.pack("<I", len(b)) + b
def frame(b):
    return struct.pack("<I", len(b)) + b
def exact(s, n):
    out = b""
    while len(out) < n:
        chunk = s.recv(n - len(out))
        if not chunk:
            raise EOFError("closed")
        out += chunk
    return out
hello = b"\x01" + struct.pack("<I", 7) + field(version.encode()) + field(b"any hash") + field(b"Fluid") + field(b"") + field(bytes([7]) * 32)
s = socket.create_connection(("127.0.0.1", port), timeout=30)
s.sendall(frame(hello))
exact(s, struct.unpack("<I", exact(s, 4))[0])
s.sendall(frame(b"\x06" + field(bytes(32))))
rest = b""
while True:
    chunk = s.recv(4096)
    if not chunk:
        break
    rest += chunk
print("handshake: refused" if b"does not hold the run's secret" in rest else "handshake: not refused %r" % rest)
"#;

/// Another user, who finds the Solid's port (here: given) while the pair started by hand waits:
/// `precice-run/` (mode 700) keeps the connection and key files from it and lets it plant
/// nothing, the forged handshake is refused and logged, and the pair then runs as it does alone.
#[test]
#[cfg_attr(not(tidelink_second_uid), ignore = "needs root and setpriv to run a process as another user")]
fn another_user_reads_no_key_plants_nothing_and_is_refused() {
    programs();
    let solo = tempfile::tempdir().expect("case folder");
    support::sphere_drop_case(solo.path(), 200, &[]);
    pair_by_hand(solo.path(), |_| {});
    let reference = ball_rows(solo.path());

    let case = tempfile::tempdir().expect("case folder");
    support::sphere_drop_case(case.path(), 200, &[]);
    // A case folder others may enter and read, as a home or project folder commonly is.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(case.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let mut said = String::new();
    let solid_log = pair_by_hand(case.path(), |addr| {
        let conn = case.path().join(CONNECTION_FILE);
        let key = case.path().join(format!("{CONNECTION_FILE}.key"));
        // The system's interpreter: one installed under root's home (pyenv's shims) is out of
        // the other user's reach.
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"]
            .into_iter()
            .find(|p| Path::new(p).is_file())
            .expect("a system python3 (/usr/bin or /usr/local/bin) the other user may run");
        let o = as_stranger(python)
            .args(["-c", STRANGER_PY])
            .arg(&conn)
            .arg(&key)
            .arg(addr.port().to_string())
            .arg(concat!("tidelink-native-", env!("CARGO_PKG_VERSION")))
            .output()
            .expect("run the stranger");
        said = text(&o);
        assert!(o.status.success(), "{said}");
    });
    for line in ["read the key file: denied", "plant a file: denied", "handshake: refused"] {
        assert!(said.lines().any(|l| l == line), "`{line}` expected from the other user:\n{said}");
    }
    // Where the files are is no secret, their content is: not even the address is readable.
    assert!(said.lines().any(|l| l == "read the connection file: denied"), "{said}");
    assert!(!case.path().join("precice-run/planted").exists());
    assert!(solid_log.contains("refused a connection from 127.0.0.1:"), "{solid_log}");
    assert!(ball_rows(case.path()) == reference, "the pair's rows differ from those of the pair alone");
}

/// `tidelink run` as the other user in a shared, sticky case folder (as /tmp is) where this user's
/// lock file lies: while this user's run holds it, the other user's run is refused as busy; once
/// that run is dead (the lock released, the file left behind, which the other user may not
/// remove), it is named as this user's stale lock. Nothing is started either time.
#[test]
#[cfg_attr(not(tidelink_second_uid), ignore = "needs root and setpriv to run a process as another user")]
fn another_users_lock_is_busy_while_held_and_named_stale_once_its_process_is_dead() {
    programs();
    let case = tempfile::tempdir().expect("case folder");
    support::sphere_drop_case(case.path(), 20, &[]);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(case.path(), std::fs::Permissions::from_mode(0o1777)).expect("chmod");
    // The participants' folders (outputs) belong to the other user, whose case it is.
    for sub in ["fluid", "solid"] {
        std::os::unix::fs::chown(case.path().join(sub), Some(65534), Some(65534)).expect("chown");
    }
    let lock = case.path().join(".tidelink-run.lock");
    let mut held = File::create(&lock).expect("lock file");
    writeln!(held, "pid={}\nstarted=0\nrun=ours\ncase={}", std::process::id(), case.path().display()).expect("note");
    std::fs::set_permissions(&lock, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    held.try_lock().expect("this user's run holds the lock");
    let run = || {
        let o = as_stranger(TIDELINK).arg("run").arg(case.path()).env_remove("TIDELINK_RUN_ID").output().expect("run");
        (o.status.code(), text(&o))
    };
    let (code, busy) = run();
    assert_eq!(code, Some(1), "{busy}");
    assert!(
        busy.contains("another run is using") && busy.contains(&format!("started by pid {}", std::process::id())),
        "{busy}"
    );
    assert!(busy.contains("nothing was started") && !busy.contains("started 2 participant"), "{busy}");
    drop(held);
    let (code, stale) = run();
    assert_eq!(code, Some(1), "{stale}");
    assert!(stale.contains("is a stale lock file of user 0, left by a dead process"), "{stale}");
    assert!(stale.contains("nothing was started") && !stale.contains("started 2 participant"), "{stale}");
    assert!(lock.exists(), "the other user could not remove it");
}
