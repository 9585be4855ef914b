//! Partners prove they belong to the run (docs/security.md): a stranger of the same user
//! without the run's secret connects to the listener first, with a forged hello and proof, a
//! 1 GiB length prefix and a connection that trickles bytes for the whole run; each is refused
//! (a warning names its address), the listener keeps waiting, and the run's results are bit for
//! bit those of the run alone.

mod common;

use common::*;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;
use tidelink_coupling::native::{NativeParticipant, Secret, Settings};

/// The engine's warnings, captured for the whole test binary (common::captured_log).
fn warnings() -> &'static Mutex<Vec<String>> {
    captured_log(log::Level::Warn)
}

fn case() -> TempCase {
    Xml::new(2)
        .scheme(
            Scheme::new("serial-explicit", "SolverOne", "SolverTwo")
                .window(1)
                .windows(5)
                .ex("DataOne", "SolverOne", "SolverTwo")
                .ex("DataTwo", "SolverTwo", "SolverOne"),
        )
        .case()
}

/// SolverTwo (the XML connector) listens; its connection file.
fn primary_file(dir: &Path) -> PathBuf {
    dir.join("precice-run/SolverTwo-SolverOne/3b/0f28d9a0065c6f8af0a23dfa1ca307")
}

/// The handshake's overall deadline: shorter than the 10 s one incoming connection may take,
/// so a listener that served connections one at a time would miss it behind the trickle.
const TIMEOUT: Duration = Duration::from_secs(8);

/// One participant of run `r1` with `secret`, through all windows, writing `sin(t) + offset`
/// (values whose every bit matters); returns what it read.
fn member(config: &Path, me: &str, rd: &str, wd: &str, secret: &Secret, offset: f64) -> Vec<f64> {
    let settings = Settings {
        run_id: Some("r1".into()),
        secret: Some(secret.clone()),
        handshake_timeout: TIMEOUT,
        ..Settings::default()
    };
    let mut p = NativeParticipant::with_settings(me, config, settings).unwrap_or_else(|e| panic!("{me}: {e}"));
    let mut ids = [0];
    p.set_mesh_vertices(&mesh(me), &[0.0, 0.0], &mut ids).unwrap();
    p.initialize().unwrap_or_else(|e| panic!("{me}: {e}"));
    drive(&mut p, 1.0, 1.0, rd, wd, move |t| (t * 0.7).sin() + offset).iter().map(|s| s.read).collect()
}

fn pair(config: &Path, secret: &Secret, go: Option<mpsc::Receiver<()>>) -> (Vec<f64>, Vec<f64>) {
    let (c1, c2, s1, s2) = (config.to_path_buf(), config.to_path_buf(), secret.clone(), secret.clone());
    let mut out = run(vec![
        job(move || {
            if let Some(go) = go {
                go.recv().expect("the stranger's go");
            }
            member(&c1, "SolverOne", "DataTwo", "DataOne", &s1, 0.125)
        }),
        job(move || member(&c2, "SolverTwo", "DataOne", "DataTwo", &s2, 1.0 / 3.0)),
    ]);
    let two = out.pop().unwrap();
    (out.pop().unwrap(), two)
}

/// A frame of the engine's wire format: u32 length (LE), then the body.
fn frame(body: &[u8]) -> Vec<u8> {
    let mut f = (body.len() as u32).to_le_bytes().to_vec();
    f.extend_from_slice(body);
    f
}

fn field(out: &mut Vec<u8>, b: &[u8]) {
    out.extend((b.len() as u32).to_le_bytes());
    out.extend_from_slice(b);
}

/// What a stranger knows: the file's address, the participant names, the run identity (the
/// file says it), the protocol; not the secret.
fn forged_hello() -> Vec<u8> {
    let mut b = vec![1u8];
    b.extend(7u32.to_le_bytes()); // the protocol of this version (m2n/wire.rs)
    field(&mut b, concat!("tidelink-native-", env!("CARGO_PKG_VERSION")).as_bytes());
    field(&mut b, b"any hash");
    field(&mut b, b"SolverOne");
    field(&mut b, b"r1");
    field(&mut b, &[7; 32]);
    frame(&b)
}

#[test]
fn a_stranger_without_the_secret_is_refused_and_the_run_is_bitwise_its_solo_run() {
    let log = warnings();
    let solo_case = case();
    let solo = pair(&solo_case.config, &Secret::random().unwrap(), None);
    assert_eq!(solo.0.len(), 5);

    let case = case();
    let file = primary_file(case.path());
    let (go_tx, go_rx) = mpsc::channel();
    let done = Arc::new(AtomicBool::new(false));
    let stranger = {
        let done = done.clone();
        std::thread::spawn(move || {
            while !file.exists() {
                std::thread::sleep(Duration::from_millis(2));
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let addr: std::net::SocketAddr = text.lines().next().unwrap().parse().unwrap();
            // A trickle of bytes that never completes a frame, held for the whole run.
            let mut trickle = TcpStream::connect(addr).unwrap();
            trickle.write_all(&100u32.to_le_bytes()).unwrap();
            // A 1 GiB length prefix: refused at once, before any allocation.
            let mut huge = TcpStream::connect(addr).unwrap();
            huge.write_all(&(1u32 << 30).to_le_bytes()).unwrap();
            // A forged hello and proof: the listener answers with its hello, then refuses.
            let mut forged = TcpStream::connect(addr).unwrap();
            forged.write_all(&forged_hello()).unwrap();
            let mut len = [0u8; 4];
            forged.read_exact(&mut len).unwrap();
            let mut hello = vec![0u8; u32::from_le_bytes(len) as usize];
            forged.read_exact(&mut hello).unwrap();
            let mut proof = vec![6u8];
            field(&mut proof, &[0u8; 32]);
            forged.write_all(&frame(&proof)).unwrap();
            let mut refusal = Vec::new();
            let _ = forged.read_to_end(&mut refusal);
            assert_eq!(refusal.get(4), Some(&4u8), "the listener answers the forged proof with an abort");
            assert!(String::from_utf8_lossy(&refusal).contains("does not hold the run's secret"));
            go_tx.send(()).unwrap();
            while !done.load(Ordering::Relaxed) {
                if trickle.write_all(&[0]).is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            drop(huge);
        })
    };
    let attacked = pair(&case.config, &Secret::random().unwrap(), Some(go_rx));
    done.store(true, Ordering::Relaxed);
    stranger.join().expect("the stranger's own checks");
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&attacked.0), bits(&solo.0), "SolverOne reads what it reads alone");
    assert_eq!(bits(&attacked.1), bits(&solo.1), "SolverTwo reads what it reads alone");
    let log = log.lock().unwrap();
    let refused: Vec<&String> =
        log.iter().filter(|w| w.contains("SolverTwo: refused a connection from 127.0.0.1:")).collect();
    assert!(refused.iter().any(|w| w.contains("does not hold the run's secret")), "{log:?}");
    assert!(refused.iter().any(|w| w.contains("1073741824 bytes")), "{log:?}");
}
