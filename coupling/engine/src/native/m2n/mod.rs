//! Communication between participants (preCICE's `m2n`): one TCP connection per pair
//! of participants that share a scheme or a mesh, set up through rendezvous files.
//!
//! Connections are read by the participant's own thread. A wait on one partner polls
//! its socket briefly, then blocks in short slices and looks at every other partner
//! between them, so a participant never waits on a dead partner; a send that finds the
//! kernel buffer full keeps reading all partners meanwhile, so two large sends in
//! opposite directions cannot deadlock.

mod conn;
pub mod rendezvous;
mod stall;
pub mod wire;

use rendezvous::{describe_run, Lookup, Owner};
use wire::Frame;

use conn::{Conn, Fill};
use stall::{StallSettings, StallWatch};

use super::settings::{Interrupt, Settings, RUN_ID_ENV};
use crate::{CouplingError, Result};
use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tidelink_precice_config::PreciceConfig;

/// Version string exchanged in the hello frame.
pub const VERSION: &str = concat!("tidelink-native-", env!("CARGO_PKG_VERSION"));

/// Blocking slice of a wait while other partners must be watched too.
const WATCH_SLICE: Duration = Duration::from_millis(10);

/// All connections of one participant.
pub struct M2n {
    partners: Vec<Conn>,
    /// Frames that arrived from a partner while waiting for another one.
    stash: Vec<VecDeque<Frame>>,
    spin: Duration,
    /// The program's interrupt hook, asked between blocking slices of a wait.
    interrupt: Option<Interrupt>,
    /// This participant's name, for the interrupt's message.
    me: String,
    /// When a silent partner is named in a warning or an error.
    stall: StallSettings,
}

/// Blocking slice of a wait when the program may interrupt it.
const INTERRUPT_SLICE: Duration = Duration::from_millis(100);

/// The hook's answer as an error, if it asks to stop.
fn interrupted(hook: Option<&Interrupt>, me: &str) -> Result<()> {
    match hook.and_then(Interrupt::check) {
        Some(reason) => Err(CouplingError::interrupted(format!("participant \"{me}\": {reason}"))),
        None => Ok(()),
    }
}

/// One side of one `<m2n:sockets>` of this participant.
struct Endpoint {
    partner: String,
    listen: bool,
    file: PathBuf,
    pair_dir: PathBuf,
    exchange_dir: PathBuf,
    network: String,
    port: u16,
}

/// The IPv4 address of network interface `network` (`lo` is the loopback address), or the
/// error naming the interfaces this machine has.
pub(crate) fn interface_ip(network: &str) -> Result<IpAddr> {
    if network == "lo" || network == "lo0" {
        return Ok(IpAddr::V4(Ipv4Addr::LOCALHOST));
    }
    let ifs =
        if_addrs::get_if_addrs().map_err(|e| CouplingError::io(format!("cannot list network interfaces: {e}")))?;
    ifs.iter().find(|i| i.name == network && i.ip().is_ipv4()).map(|i| i.ip()).ok_or_else(|| {
        let mut names: Vec<String> = ifs.iter().map(|i| i.name.clone()).collect();
        names.dedup();
        names.sort();
        names.dedup();
        CouplingError::config(format!(
            "Cannot find network interface \"{network}\". Available interfaces are: {}",
            names.join(", ")
        ))
    })
}

fn endpoints(me: &str, cfg: &PreciceConfig) -> Result<Vec<Endpoint>> {
    let mut out = Vec::new();
    for m in cfg.m2ns.iter().filter(|m| m.acceptor == me || m.connector == me) {
        if let Some(msg) = super::unsupported::m2n_transport_message(m) {
            return Err(CouplingError::config(format!("{}: {msg}", m.loc)));
        }
        let (listener, requester) = (m.connector.as_str(), m.acceptor.as_str());
        let exchange_dir = PathBuf::from(&m.exchange_directory);
        let partner = if me == listener { requester } else { listener };
        out.push(Endpoint {
            partner: partner.to_string(),
            listen: me == listener,
            file: rendezvous::connection_file(&exchange_dir, listener, requester, "PRIMARYCOM", -1),
            pair_dir: rendezvous::pair_dir(&exchange_dir, listener, requester),
            exchange_dir,
            network: m.network.clone(),
            port: m.port,
        });
    }
    Ok(out)
}

fn abs(p: &Path) -> String {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()).display().to_string()
}

/// `other`: a live connection file of another run that the requester found instead of its partner's.
fn timeout_error(
    me: &str,
    run: Option<&str>,
    ep: &Endpoint,
    timeout: Duration,
    other: Option<&Owner>,
) -> CouplingError {
    let mut msg = format!(
        "participant \"{me}\" waited {:.0} s for participant \"{}\" to connect, without success. Is it running, with \
         the same preCICE configuration, from a folder where exchange-directory \"{}\" is \"{}\"? (Set \
         TIDELINK_HANDSHAKE_TIMEOUT to wait longer.)",
        timeout.as_secs_f64(),
        ep.partner,
        ep.exchange_dir.display(),
        abs(&ep.exchange_dir)
    );
    if let Some(o) = other {
        msg += &format!(
            " The connection file \"{}\" belongs to a \"{}\" of another run ({o}), not to this participant's ({}): \
             two runs share this exchange directory. A participant pairs only with partners of its own run; \
             {RUN_ID_ENV} sets the run of a participant started by hand.",
            abs(&ep.file),
            ep.partner,
            describe_run(run)
        );
    }
    CouplingError::partner(msg)
}

fn hello(me: &str, hash: &str, run: Option<&str>) -> Frame {
    Frame::Hello {
        protocol: wire::PROTOCOL,
        version: VERSION.to_string(),
        config_hash: hash.to_string(),
        participant: me.to_string(),
        run: run.unwrap_or("").to_string(),
    }
}

/// The run identity a hello carries (`None`: a participant without one).
fn hello_run(f: &Frame) -> Option<&str> {
    match f {
        Frame::Hello { run, .. } if !run.is_empty() => Some(run),
        _ => None,
    }
}

fn check_hello(me: &str, expected: &str, hash: &str, run: Option<&str>, f: Option<Frame>) -> Result<()> {
    match f {
        Some(Frame::Hello { protocol, version, config_hash, participant, run: theirs }) => {
            if participant != expected {
                return Err(CouplingError::partner(format!(
                    "participant \"{me}\" expected to connect to \"{expected}\" but \"{participant}\" answered: two \
                     runs share one exchange directory"
                )));
            }
            if protocol != wire::PROTOCOL || version != VERSION {
                return Err(CouplingError::protocol(format!(
                    "participant \"{me}\" uses {VERSION} but \"{participant}\" uses {version}. Mixing versions can \
                     lead to undefined behavior and is, thus, forbidden."
                )));
            }
            let theirs = (!theirs.is_empty()).then_some(theirs.as_str());
            if theirs != run {
                return Err(CouplingError::partner(format!(
                    "participant \"{me}\" ({}) reached \"{participant}\" of another run ({}): two runs share one \
                     exchange directory, and a participant pairs only with partners of its own run",
                    describe_run(run),
                    describe_run(theirs)
                )));
            }
            if config_hash != hash {
                return Err(CouplingError::config(format!(
                    "participant \"{me}\" uses a different configuration file than the remote participant \
                     \"{participant}\" (Hashes differ). All participants must read the very same preCICE XML file."
                )));
            }
            Ok(())
        }
        _ => Err(CouplingError::protocol(format!(
            "participant \"{me}\": the connection to \"{expected}\" did not start with a hello"
        ))),
    }
}

fn tune(stream: &TcpStream) {
    let _ = stream.set_nodelay(true);
    let sock = socket2::SockRef::from(stream);
    let ka = socket2::TcpKeepalive::new().with_time(Duration::from_secs(1)).with_interval(Duration::from_millis(500));
    let _ = sock.set_tcp_keepalive(&ka);
    let _ = sock.set_send_buffer_size(8 << 20);
}

impl M2n {
    /// Connects to every partner of `me` in `run` (the launcher's run identity; `None` when
    /// started by hand): publish all listeners, connect all requesters, then accept (so no
    /// ordering between pairs can deadlock), then check the hellos. Only partners of the same
    /// run pair up: a requester ignores connection files of other runs, and a listener turns
    /// away a hello of another run and keeps waiting for its own partner.
    pub fn connect(me: &str, cfg: &PreciceConfig, settings: &Settings) -> Result<M2n> {
        let (timeout, spin, run) = (settings.handshake_timeout, settings.spin, settings.run_id.as_deref());
        let hook = settings.interrupt.as_ref();
        let eps = endpoints(me, cfg)?;
        let deadline = Instant::now() + timeout;
        let mut listeners = Vec::new();
        for (i, ep) in eps.iter().enumerate().filter(|(_, e)| e.listen) {
            let ip = interface_ip(&ep.network)?;
            let l = TcpListener::bind(SocketAddr::new(ip, ep.port)).map_err(|e| {
                CouplingError::io(format!("participant \"{me}\" cannot listen on {ip}:{}: {e}", ep.port))
            })?;
            let addr = l.local_addr().map_err(|e| CouplingError::io(e.to_string()))?;
            log::info!("{me}: waiting for \"{}\" via {}", ep.partner, abs(&ep.file));
            let hold =
                rendezvous::publish(&ep.file, addr, me, &ep.partner, "PRIMARYCOM", run).map_err(CouplingError::io)?;
            l.set_nonblocking(true).map_err(|e| CouplingError::io(e.to_string()))?;
            listeners.push((i, l, hold));
        }
        let mut streams: Vec<Option<TcpStream>> = eps.iter().map(|_| None).collect();
        for (i, ep) in eps.iter().enumerate().filter(|(_, e)| !e.listen) {
            log::info!("{me}: looking for \"{}\" at {}", ep.partner, abs(&ep.file));
            let mut other = None;
            loop {
                match rendezvous::lookup(&ep.file, run) {
                    Lookup::Partner(addr) => {
                        if let Ok(mut s) = TcpStream::connect_timeout(&addr, Duration::from_millis(500)) {
                            tune(&s);
                            wire::write_frame(&mut s, &hello(me, &cfg.hash, run))
                                .map_err(|e| CouplingError::io(format!("cannot greet \"{}\": {e}", ep.partner)))?;
                            streams[i] = Some(s);
                            break;
                        }
                    }
                    Lookup::Other(owner) => {
                        if other.is_none() {
                            log::warn!(
                                "{me}: \"{}\" belongs to a participant of another run ({owner}); waiting for \"{}\" of \
                                 this run ({})",
                                abs(&ep.file),
                                ep.partner,
                                describe_run(run)
                            );
                        }
                        other = Some(owner);
                    }
                    Lookup::Stale | Lookup::Nothing => {}
                }
                if Instant::now() > deadline {
                    return Err(timeout_error(me, run, ep, timeout, other.as_ref()));
                }
                interrupted(hook, me)?;
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        for (i, l, hold) in listeners {
            let ep = &eps[i];
            loop {
                match l.accept() {
                    Ok((s, _)) => {
                        let _ = s.set_nonblocking(false);
                        tune(&s);
                        let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
                        let mut r = &s;
                        // A probe of another run's stale check connects and leaves: skip it.
                        match wire::read_frame(&mut r) {
                            Ok(Some(f @ Frame::Hello { .. })) => {
                                let mut w = &s;
                                wire::write_frame(&mut w, &hello(me, &cfg.hash, run))
                                    .map_err(|e| CouplingError::io(format!("cannot greet \"{}\": {e}", ep.partner)))?;
                                if hello_run(&f) != run {
                                    // Not our partner: it learns so from our hello; keep waiting.
                                    log::warn!(
                                        "{me}: turned away a participant of another run ({}) that reached {}",
                                        describe_run(hello_run(&f)),
                                        abs(&ep.file)
                                    );
                                    continue;
                                }
                                check_hello(me, &ep.partner, &cfg.hash, run, Some(f))?;
                                let _ = s.set_read_timeout(None);
                                rendezvous::unpublish(&ep.file, &ep.pair_dir, hold);
                                streams[i] = Some(s);
                                break;
                            }
                            _ => continue,
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        if Instant::now() > deadline {
                            rendezvous::unpublish(&ep.file, &ep.pair_dir, hold);
                            return Err(timeout_error(me, run, ep, timeout, None));
                        }
                        if let Err(e) = interrupted(hook, me) {
                            rendezvous::unpublish(&ep.file, &ep.pair_dir, hold);
                            return Err(e);
                        }
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    Err(e) => return Err(CouplingError::io(format!("accepting \"{}\" failed: {e}", ep.partner))),
                }
            }
        }
        // Requesters read the listener's hello (sent after it checked ours).
        for (i, ep) in eps.iter().enumerate().filter(|(_, e)| !e.listen) {
            let s = streams[i].as_ref().expect("connected above");
            let left = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(100));
            let _ = s.set_read_timeout(Some(left));
            let mut r = s;
            let f = wire::read_frame(&mut r).map_err(|e| {
                CouplingError::partner(format!(
                    "participant \"{me}\": no answer from \"{}\" during the handshake ({e}); look at its output",
                    ep.partner
                ))
            })?;
            if f.is_none() {
                return Err(CouplingError::partner(format!(
                    "participant \"{}\" closed the connection during the handshake (it probably found a problem: \
                     look at its output)",
                    ep.partner
                )));
            }
            check_hello(me, &ep.partner, &cfg.hash, run, f)?;
            let _ = s.set_read_timeout(None);
        }
        let mut partners = Vec::new();
        for (ep, s) in eps.iter().zip(streams) {
            let s = s.expect("every endpoint connected");
            partners.push(Conn::new(ep.partner.clone(), s).map_err(|e| CouplingError::io(e.to_string()))?);
        }
        let stash = partners.iter().map(|_| VecDeque::new()).collect();
        Ok(M2n {
            partners,
            stash,
            spin,
            interrupt: settings.interrupt.clone(),
            me: me.to_string(),
            stall: StallSettings::from(settings),
        })
    }

    /// Index of a partner by name.
    pub fn partner(&self, name: &str) -> Option<usize> {
        self.partners.iter().position(|p| p.name == name)
    }

    /// Sends one frame. While the kernel buffer is full, incoming data of every partner
    /// are read into their buffers so the partner's own send can finish too.
    pub fn send(&mut self, to: usize, f: &Frame) -> Result<()> {
        let bytes = f.encode();
        let mut off = 0;
        while off < bytes.len() {
            match self.partners[to].write_some(&bytes[off..]) {
                Ok(0) => {
                    for p in &mut self.partners {
                        p.fill();
                    }
                    std::thread::sleep(Duration::from_micros(50));
                }
                Ok(n) => off += n,
                Err(e) => {
                    return Err(CouplingError::partner(format!(
                        "Sending data to participant \"{}\" failed ({e}). This often means that the other participant \
                         exited with an error (look there).",
                        self.partners[to].name
                    )))
                }
            }
        }
        Ok(())
    }

    /// Handles the buffered frames of partner `q` other than the one waited for: aborts and
    /// unexpected disconnects are errors, goodbyes are noted, data are stashed.
    fn watch(&mut self, q: usize) -> Result<()> {
        while let Some(f) = self.frame(q)? {
            match f {
                Frame::Bye => self.partners[q].said_bye = true,
                f => self.stash[q].push_back(f),
            }
        }
        match &self.partners[q].closed {
            Some(reason) if !self.partners[q].said_bye => Err(self.disconnected(q, reason.clone())),
            _ => Ok(()),
        }
    }

    /// The next buffered frame of `q`; an abort is turned into the error it reports.
    fn frame(&mut self, q: usize) -> Result<Option<Frame>> {
        let p = &mut self.partners[q];
        match p.next_frame() {
            Ok(Some(Frame::Abort { message })) => {
                Err(CouplingError::partner(format!("participant \"{}\" failed: {message}", p.name)))
            }
            Ok(f) => Ok(f),
            Err(e) => Err(CouplingError::protocol(format!("participant \"{}\" sent a corrupt message ({e})", p.name))),
        }
    }

    fn disconnected(&self, q: usize, reason: Option<String>) -> CouplingError {
        CouplingError::partner(format!(
            "participant \"{}\" disconnected before the coupling ended{}: it exited or crashed (look at its output)",
            self.partners[q].name,
            reason.map(|r| format!(" ({r})")).unwrap_or_default()
        ))
    }

    /// Waits for the next frame from `from`; fails at once if any partner aborts or disconnects.
    pub fn recv(&mut self, from: usize) -> Result<Frame> {
        let spin_until = Instant::now() + self.spin;
        let mut stall = StallWatch::start(&self.stall);
        loop {
            for q in (0..self.partners.len()).filter(|&q| q != from) {
                self.watch(q)?;
            }
            if let Some(f) = self.stash[from].pop_front() {
                return Ok(f);
            }
            match self.frame(from)? {
                Some(Frame::Bye) => {
                    self.partners[from].said_bye = true;
                    return Err(CouplingError::protocol(format!(
                        "participant \"{}\" finished while this participant still expected data from it: the \
                         two disagree about the coupling (check that both use the same configuration)",
                        self.partners[from].name
                    )));
                }
                Some(f) => return Ok(f),
                None => {}
            }
            match self.partners[from].fill() {
                Fill::Data | Fill::Drained => continue,
                Fill::Closed => {
                    let reason = self.partners[from].closed.clone().flatten();
                    return Err(self.disconnected(from, reason));
                }
                Fill::Empty => {}
            }
            if Instant::now() < spin_until {
                // Yield between polls: back-to-back reads contend for the socket lock with
                // the kernel delivering the data, and a partner sharing our CPU must run.
                std::thread::yield_now();
                continue;
            }
            let alone = self.partners.len() == 1;
            for (q, p) in self.partners.iter_mut().enumerate() {
                if q != from {
                    p.fill();
                }
            }
            let slice = match (alone, &self.interrupt) {
                (false, _) => WATCH_SLICE,
                (true, None) => Duration::from_secs(1),
                (true, Some(_)) => INTERRUPT_SLICE,
            };
            if self.partners[from].wait(slice) == Fill::Empty {
                interrupted(self.interrupt.as_ref(), &self.me)?;
                stall.check(&self.me, &self.partners[from].name)?;
            }
        }
    }

    /// Tells every partner we failed, so they stop with our message instead of a bare disconnect.
    pub fn abort(&mut self, message: &str) {
        let bytes = Frame::Abort { message: message.to_string() }.encode();
        for p in &mut self.partners {
            p.write_last(&bytes);
        }
    }

    /// Says goodbye to every partner; the connections close when `self` is dropped.
    pub fn close(&mut self) {
        let bytes = Frame::Bye.encode();
        for p in &mut self.partners {
            p.write_last(&bytes);
            p.shutdown(std::net::Shutdown::Write);
        }
    }
}

impl Drop for M2n {
    fn drop(&mut self) {
        for p in &self.partners {
            p.shutdown(std::net::Shutdown::Both);
        }
    }
}
