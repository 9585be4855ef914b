//! Cost of one coupling window of the native engine against a bare TCP round trip.
//!
//! Two trivial participants in two processes (this binary re-executes itself as the
//! second one), one vertex, four 3D vector data (positions and velocities A → B, forces
//! and torques B → A), serial-explicit, 10 000 measured windows. In the same run: a bare
//! ping-pong between two processes on loopback with TCP_NODELAY and messages of the size
//! of the engine's data frames, once with plain blocking reads and once waiting like the
//! engine (poll briefly, yielding, then block). Three rounds of all three, interleaved;
//! prints every round, the medians and the ratios of the medians.
//!
//! `cargo bench -p tidelink-coupling --bench engine_roundtrip`

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};
use tidelink_coupling::native::NativeParticipant;
use tidelink_coupling::{Coupling, CouplingData, CouplingError};

const WINDOWS: usize = 10_000;
const WARMUP: usize = 500;
/// Bytes of one engine data frame carrying two 3D vectors on one vertex (length prefix,
/// header, and per datum one time and three values).
const FRAME: usize = 102;

const TO_B: [&str; 2] = ["Positions", "Velocities"];
const TO_A: [&str; 2] = ["Forces", "Torques"];

fn config(exchange_dir: &Path) -> String {
    let mut use_all = String::new();
    for d in TO_B.iter().chain(&TO_A) {
        use_all += &format!("    <use-data name=\"{d}\"/>\n");
    }
    let data: String = TO_B.iter().chain(&TO_A).map(|d| format!("  <data:vector name=\"{d}\"/>\n")).collect();
    let ex: String = TO_B
        .iter()
        .map(|d| (d, "A", "B"))
        .chain(TO_A.iter().map(|d| (d, "B", "A")))
        .map(|(d, f, t)| format!("    <exchange data=\"{d}\" mesh=\"A-Mesh\" from=\"{f}\" to=\"{t}\"/>\n"))
        .collect();
    let rw = |p: &str, w: &[&str], r: &[&str]| -> String {
        let mut s = String::new();
        for d in w {
            s += &format!("    <write-data name=\"{d}\" mesh=\"{p}-Mesh\"/>\n");
        }
        for d in r {
            s += &format!("    <read-data name=\"{d}\" mesh=\"{p}-Mesh\"/>\n");
        }
        s
    };
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" ?>
<precice-configuration>
{data}  <mesh name="A-Mesh" dimensions="3">
{use_all}  </mesh>
  <mesh name="B-Mesh" dimensions="3">
{use_all}  </mesh>
  <participant name="A">
    <provide-mesh name="A-Mesh"/>
{a}  </participant>
  <participant name="B">
    <provide-mesh name="B-Mesh"/>
    <receive-mesh name="A-Mesh" from="A"/>
{b}    <mapping:nearest-neighbor direction="read" from="A-Mesh" to="B-Mesh" constraint="consistent"/>
    <mapping:nearest-neighbor direction="write" from="B-Mesh" to="A-Mesh" constraint="conservative"/>
  </participant>
  <m2n:sockets acceptor="A" connector="B" exchange-directory="{dir}"/>
  <coupling-scheme:serial-explicit>
    <participants first="A" second="B"/>
    <time-window-size value="1"/>
    <max-time-windows value="{n}"/>
{ex}  </coupling-scheme:serial-explicit>
</precice-configuration>
"#,
        a = rw("A", &TO_B, &TO_A),
        b = rw("B", &TO_A, &TO_B),
        dir = exchange_dir.display(),
        n = WARMUP + WINDOWS,
    )
}

/// Runs one participant; returns the wall time of the measured windows.
fn participant(name: &str, config: &Path) -> Result<Duration, CouplingError> {
    let (writes, reads) = if name == "A" { (TO_B, TO_A) } else { (TO_A, TO_B) };
    let mesh = format!("{name}-Mesh");
    let mut p = NativeParticipant::with_settings(name, config, tidelink_coupling::native::Settings::from_env()?)?;
    let mut id = [0];
    p.set_mesh_vertices(&mesh, &[0.0; 3], &mut id)?;
    p.initialize()?;
    let mut buf = [0.0; 3];
    let mut k = 0usize;
    let mut start = Instant::now();
    while p.is_coupling_ongoing()? {
        if k == WARMUP {
            start = Instant::now();
        }
        let dt = p.get_max_time_step_size()?;
        for d in reads {
            p.read_data(&mesh, d, &id, dt, &mut buf)?;
        }
        for d in writes {
            p.write_data(&mesh, d, &id, &[k as f64, buf[0], 1.0])?;
        }
        p.advance(dt)?;
        k += 1;
    }
    let took = start.elapsed();
    p.finalize()?;
    Ok(took)
}

/// Spin time of the engine's waits (its default, or `TIDELINK_SPIN_US`).
fn spin_us() -> u64 {
    std::env::var("TIDELINK_SPIN_US").ok().and_then(|s| s.parse().ok()).unwrap_or(50)
}

/// Reads one message: with `spin`, first polls the socket for up to `spin`, yielding the
/// CPU between polls (as the engine waits), then blocks.
fn receive(s: &mut TcpStream, buf: &mut [u8], spin: Duration) -> std::io::Result<()> {
    let mut got = 0;
    if !spin.is_zero() {
        s.set_nonblocking(true)?;
        let until = Instant::now() + spin;
        while got < buf.len() {
            match s.read(&mut buf[got..]) {
                Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() > until {
                        break;
                    }
                    std::thread::yield_now();
                }
                Err(e) => return Err(e),
            }
        }
        s.set_nonblocking(false)?;
    }
    s.read_exact(&mut buf[got..])
}

/// The far side of the bare ping-pong: answer every message with one of the same size.
fn pong(port: &str, spin: Duration) {
    let mut s = TcpStream::connect(("127.0.0.1", port.parse::<u16>().expect("port"))).expect("connect");
    s.set_nodelay(true).expect("nodelay");
    let mut buf = [0u8; FRAME];
    while receive(&mut s, &mut buf, spin).is_ok() {
        if s.write_all(&buf).is_err() {
            break;
        }
    }
}

fn child(args: &[&str]) -> Child {
    Command::new(std::env::current_exe().expect("own path")).args(args).spawn().expect("start the second process")
}

fn bare_round_trips(spin: Duration) -> Duration {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port().to_string();
    let mut other = child(&["--as-pong", &port, &spin.as_micros().to_string()]);
    let (mut s, _) = l.accept().expect("accept");
    s.set_nodelay(true).expect("nodelay");
    let mut buf = [7u8; FRAME];
    let mut start = Instant::now();
    for i in 0..WARMUP + WINDOWS {
        if i == WARMUP {
            start = Instant::now();
        }
        s.write_all(&buf).expect("ping");
        receive(&mut s, &mut buf, spin).expect("pong");
    }
    let took = start.elapsed();
    drop(s);
    other.wait().expect("pong process");
    took
}

fn per(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6 / WINDOWS as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let after = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    if let Some(config) = after("--as-participant-b") {
        participant("B", Path::new(&config)).unwrap_or_else(|e| panic!("B: {e}"));
        return;
    }
    if let Some(port) = after("--as-pong") {
        let us = args.last().and_then(|s| s.parse().ok()).unwrap_or(0);
        pong(&port, Duration::from_micros(us));
        return;
    }
    const ROUNDS: usize = 3;
    let spin = Duration::from_micros(spin_us());
    let (mut engine, mut blocking, mut polling) = (Vec::new(), Vec::new(), Vec::new());
    for round in 1..=ROUNDS {
        let dir = tempfile::tempdir().expect("temporary folder");
        let path = dir.path().join("precice-config.xml");
        std::fs::write(&path, config(dir.path())).expect("write config");
        let mut b = child(&["--as-participant-b", &path.display().to_string()]);
        engine.push(per(participant("A", &path).unwrap_or_else(|e| panic!("A: {e}"))));
        assert!(b.wait().expect("B's process").success(), "participant B failed");
        blocking.push(per(bare_round_trips(Duration::ZERO)));
        polling.push(per(bare_round_trips(spin)));
        println!(
            "round {round}: engine {:7.1} us/window, bare round trip {:7.1} us blocking, {:7.1} us polling",
            engine[round - 1],
            blocking[round - 1],
            polling[round - 1]
        );
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (e, rb, rp) = (median(&mut engine), median(&mut blocking), median(&mut polling));
    println!("medians of {ROUNDS} rounds of {WINDOWS} windows / round trips ({FRAME}-byte messages, TCP_NODELAY):");
    println!("  native engine, serial-explicit, 4 x 3D vector data, 1 vertex: {e:7.1} us per window");
    println!("  bare TCP round trip, blocking reads:                          {rb:7.1} us");
    println!("  bare TCP round trip, polling {:>3} us then blocking (as engine): {rp:7.1} us", spin.as_micros());
    println!("  ratio engine window / bare round trip: {:.2} (blocking), {:.2} (polling)", e / rb, e / rp);
}
