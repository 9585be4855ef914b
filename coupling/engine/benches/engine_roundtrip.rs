//! Cost of one coupling window of the native engine, over TCP and through shared memory,
//! against bare round trips of both transports.
//!
//! Two trivial participants in two processes (this binary re-executes itself as the
//! second one), one vertex, four 3D vector data (positions and velocities A → B, forces
//! and torques B → A), serial-explicit, 10 000 measured windows, once with
//! `TIDELINK_TRANSPORT=tcp` and once with the default (shared memory between processes on
//! one machine). In the same run: a bare ping-pong between two processes with messages of
//! the size of the engine's data frames: on loopback TCP with TCP_NODELAY, once with plain
//! blocking reads and once waiting like the engine (poll briefly, yielding, then block), and
//! through the engine's shared segment (`native::shm`, waiting the same way, then sleeping on
//! its eventfd). Three rounds of all five, interleaved; prints every round, the medians and
//! the ratios of the medians.
//!
//! `cargo bench -p tidelink-coupling --bench engine_roundtrip`
//!
//! The shared-memory rows need Linux (memfd, eventfd, abstract sockets): elsewhere the bench says
//! so and measures nothing.

#[cfg(not(target_os = "linux"))]
fn main() {
    println!("engine_roundtrip NOT RUN, nothing measured: the shared-memory transport is built on Linux only");
}

#[cfg(target_os = "linux")]
fn main() {
    linux::main();
}

/// The bench itself (Linux).
#[cfg(target_os = "linux")]
mod linux {
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    use std::os::fd::AsFd;
    use std::os::linux::net::SocketAddrExt;
    use std::os::unix::net::{SocketAddr, UnixListener, UnixStream};
    use std::path::Path;
    use std::process::{Child, Command};
    use std::time::{Duration, Instant};
    use tidelink_coupling::native::shm::{self, ShmLink, Woke};
    use tidelink_coupling::native::{NativeParticipant, Transport};
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

    /// Runs one participant (with `transport`, or as the environment says); returns the wall time
    /// of the measured windows.
    fn participant(name: &str, config: &Path, transport: Option<Transport>) -> Result<Duration, CouplingError> {
        let (writes, reads) = if name == "A" { (TO_B, TO_A) } else { (TO_A, TO_B) };
        let mesh = format!("{name}-Mesh");
        let mut settings = tidelink_coupling::native::Settings::from_env()?;
        if let Some(t) = transport {
            settings.transport = t;
        }
        let mut p = NativeParticipant::with_settings(name, config, settings)?;
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

    /// Reads one message from the shared segment: polls for up to `spin` (yielding), then sleeps on
    /// the segment's wake-up and the lifeline; an error once the lifeline has ended.
    fn shm_receive(link: &ShmLink, buf: &mut [u8], spin: Duration, lifeline: &UnixStream) -> std::io::Result<()> {
        let mut got = 0;
        let until = Instant::now() + spin;
        while got < buf.len() {
            let n = link.read(&mut buf[got..])?;
            got += n;
            if n > 0 {
                continue;
            }
            if Instant::now() < until {
                std::thread::yield_now();
            } else if link.wait(Duration::from_secs(1), lifeline.as_fd())? == Woke::Lifeline {
                // What the partner wrote before its end is in the ring by now.
                let n = link.read(&mut buf[got..])?;
                if n == 0 {
                    return Err(std::io::ErrorKind::UnexpectedEof.into());
                }
                got += n;
            }
        }
        Ok(())
    }

    fn shm_send(link: &ShmLink, buf: &[u8]) -> std::io::Result<()> {
        let mut off = 0;
        while off < buf.len() {
            off += link.write(&buf[off..])?;
        }
        Ok(())
    }

    /// The far side of the shared-memory ping-pong.
    fn shm_pong(name: &str, spin: Duration) {
        let sock =
            UnixStream::connect_addr(&SocketAddr::from_abstract_name(name.as_bytes()).expect("name")).expect("connect");
        let link = shm::accept(&sock).expect("attach the segment");
        let mut buf = [0u8; FRAME];
        while shm_receive(&link, &mut buf, spin, &sock).is_ok() {
            if shm_send(&link, &buf).is_err() {
                break;
            }
        }
    }

    fn bare_shm_round_trips(spin: Duration) -> Duration {
        static ROUND: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let k = ROUND.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("tidelink-bench-{}-{k}", std::process::id());
        let l = UnixListener::bind_addr(&SocketAddr::from_abstract_name(name.as_bytes()).expect("name")).expect("bind");
        let mut other = child(&["--as-shm-pong", &name, &spin.as_micros().to_string()]);
        let (sock, _) = l.accept().expect("accept");
        let link = shm::offer(&sock).expect("hand the segment over");
        let mut buf = [7u8; FRAME];
        let mut start = Instant::now();
        for i in 0..WARMUP + WINDOWS {
            if i == WARMUP {
                start = Instant::now();
            }
            shm_send(&link, &buf).expect("ping");
            shm_receive(&link, &mut buf, spin, &sock).expect("pong");
        }
        let took = start.elapsed();
        drop(sock);
        other.wait().expect("pong process");
        took
    }

    fn per(d: Duration) -> f64 {
        d.as_secs_f64() * 1e6 / WINDOWS as f64
    }

    pub fn main() {
        let args: Vec<String> = std::env::args().collect();
        let after = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
        if let Some(config) = after("--as-participant-b") {
            participant("B", Path::new(&config), None).unwrap_or_else(|e| panic!("B: {e}"));
            return;
        }
        if let Some(name) = after("--as-shm-pong") {
            let us = args.last().and_then(|s| s.parse().ok()).unwrap_or(0);
            shm_pong(&name, Duration::from_micros(us));
            return;
        }
        if let Some(port) = after("--as-pong") {
            let us = args.last().and_then(|s| s.parse().ok()).unwrap_or(0);
            pong(&port, Duration::from_micros(us));
            return;
        }
        const ROUNDS: usize = 3;
        let spin = Duration::from_micros(spin_us());
        let (mut tcp, mut mem, mut blocking, mut polling, mut bare_mem) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let engine = |transport: Transport| {
            let dir = tempfile::tempdir().expect("temporary folder");
            let path = dir.path().join("precice-config.xml");
            std::fs::write(&path, config(dir.path())).expect("write config");
            let word = if transport == Transport::Tcp { "tcp" } else { "auto" };
            let mut b = Command::new(std::env::current_exe().expect("own path"))
                .args(["--as-participant-b", &path.display().to_string()])
                .env("TIDELINK_TRANSPORT", word)
                .spawn()
                .expect("start participant B");
            let took = per(participant("A", &path, Some(transport)).unwrap_or_else(|e| panic!("A: {e}")));
            assert!(b.wait().expect("B's process").success(), "participant B failed");
            took
        };
        for round in 1..=ROUNDS {
            tcp.push(engine(Transport::Tcp));
            mem.push(engine(Transport::Auto));
            blocking.push(per(bare_round_trips(Duration::ZERO)));
            polling.push(per(bare_round_trips(spin)));
            bare_mem.push(per(bare_shm_round_trips(spin)));
            let k = round - 1;
            println!(
                "round {round}: engine {:7.1} us/window TCP, {:7.1} shared memory; bare round trip TCP {:7.1} us \
                 blocking, {:7.1} polling; shared memory {:7.2}",
                tcp[k], mem[k], blocking[k], polling[k], bare_mem[k]
            );
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (et, em, rb, rp, rm) =
            (median(&mut tcp), median(&mut mem), median(&mut blocking), median(&mut polling), median(&mut bare_mem));
        let us = spin.as_micros();
        println!("medians of {ROUNDS} rounds of {WINDOWS} windows / round trips ({FRAME}-byte messages):");
        println!(
            "  native engine, serial-explicit, 4 x 3D vector data, 1 vertex, TCP:           {et:7.1} us per window"
        );
        println!(
            "  native engine, the same, shared memory (the default on one machine):        {em:7.1} us per window"
        );
        println!("  bare TCP round trip (TCP_NODELAY), blocking reads:                           {rb:7.1} us");
        println!("  bare TCP round trip, polling {us:>3} us then blocking (as the engine):         {rp:7.1} us");
        println!("  bare shared-memory round trip, polling {us:>3} us then sleeping (as the engine): {rm:7.2} us");
        println!("  ratio engine window shared memory / TCP: {:.2}", em / et);
        println!("  ratio bare round trip shared memory / TCP polling: {:.2}", rm / rp);
        println!(
            "  ratio engine window / bare round trip: TCP {:.2} (blocking), {:.2} (polling); shared memory {:.2}",
            et / rb,
            et / rp,
            em / rm
        );
    }
}
