//! Communication between participants (preCICE's `m2n`): one TCP connection per pair
//! of participants that share a scheme or a mesh, set up through rendezvous files. Partners
//! on the same machine then exchange through shared memory (`shm`, chosen in `transport`),
//! keeping the TCP connection as the lifeline.
//!
//! Connections are read by the participant's own thread. A wait on one partner polls
//! its socket briefly, then blocks in short slices and looks at every other partner
//! between them, so a participant never waits on a dead partner; a send that finds the
//! kernel buffer full keeps reading all partners meanwhile, so two large sends in
//! opposite directions cannot deadlock.

pub mod auth;
mod conn;
mod connect;
mod handshake;
pub mod keyfile;
pub mod rendezvous;
pub mod shm;
mod stall;
mod transport;
pub mod wire;

use rendezvous::{describe_run, Lookup, Owner};
use wire::Frame;

use conn::{Conn, Fill};
pub(crate) use connect::interface_ip;
use connect::{abs, endpoints, listen, log_transport, request, Endpoint};
use stall::{StallSettings, StallWatch};

use super::settings::{Interrupt, Settings, Transport, RUN_ID_ENV, TRANSPORT_ENV};
use crate::{CouplingError, Result};
use auth::Secret;
use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use tidelink_precice_config::PreciceConfig;
use transport::Chosen;

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
    /// The bytes of the frame being sent (reused by every send).
    out: Vec<u8>,
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

impl M2n {
    /// Connects to every partner of `me` in `run` (the launcher's run identity; `None` when
    /// started by hand): publish all listeners, then run every endpoint's handshake in its own
    /// thread (so no ordering between pairs can deadlock), each incoming connection in one more
    /// thread with its own short deadline (so a silent stranger stalls nothing). Partners prove
    /// they hold the run's secret (`handshake`); only partners of the same run pair up: a
    /// requester ignores connection files of other runs, and a listener refuses, with a
    /// warning naming the peer, any connection that cannot prove itself and keeps waiting for
    /// its own partner.
    pub fn connect(me: &str, cfg: &PreciceConfig, settings: &Settings) -> Result<M2n> {
        let (timeout, spin, run) = (settings.handshake_timeout, settings.spin, settings.run_id.as_deref());
        let hook = settings.interrupt.as_ref();
        let eps = endpoints(me, cfg)?;
        let deadline = Instant::now() + timeout;
        for ep in &eps {
            keyfile::prepare_run_dir(&ep.exchange_dir)
                .map_err(|e| CouplingError::config(format!("participant \"{me}\": {e}")))?;
        }
        let ctx = |ep: &Endpoint, secret: Option<Secret>| handshake::Ctx {
            me: me.to_string(),
            partner: ep.partner.clone(),
            hash: cfg.hash.clone(),
            run: run.map(str::to_string),
            secret,
            shm: settings.transport == Transport::Auto,
        };
        let mut listeners = Vec::new();
        for (i, ep) in eps.iter().enumerate().filter(|(_, e)| e.listen) {
            let ip = interface_ip(&ep.network)?;
            let l = TcpListener::bind(SocketAddr::new(ip, ep.port)).map_err(|e| {
                CouplingError::io(format!("participant \"{me}\" cannot listen on {ip}:{}: {e}", ep.port))
            })?;
            let addr = l.local_addr().map_err(|e| CouplingError::io(e.to_string()))?;
            log::info!("{me}: waiting for \"{}\" via {}", ep.partner, abs(&ep.file));
            let (hold, key) =
                rendezvous::publish(&ep.file, addr, me, &ep.partner, "PRIMARYCOM", run, settings.secret.is_none())
                    .map_err(CouplingError::io)?;
            if let Err(e) = l.set_nonblocking(true) {
                rendezvous::unpublish(&ep.file, &ep.pair_dir, hold);
                return Err(CouplingError::io(e.to_string()));
            }
            listeners.push((i, l, hold, Arc::new(ctx(ep, settings.secret.clone().or(key)))));
        }
        let stop = AtomicBool::new(false);
        let mut streams: Vec<Option<(TcpStream, Chosen)>> = eps.iter().map(|_| None).collect();
        let mut failure = None;
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel();
            for (i, l, hold, ctx) in listeners {
                let (tx, ep, stop) = (tx.clone(), &eps[i], &stop);
                scope.spawn(move || {
                    let _ = tx.send((i, listen(ep, l, hold, ctx, deadline, timeout, stop)));
                });
            }
            for (i, ep) in eps.iter().enumerate().filter(|(_, e)| !e.listen) {
                let (tx, ctx, stop) = (tx.clone(), ctx(ep, settings.secret.clone()), &stop);
                scope.spawn(move || {
                    let _ = tx.send((i, request(ep, &ctx, deadline, timeout, stop)));
                });
            }
            drop(tx);
            let mut left = eps.len();
            while left > 0 {
                match rx.recv_timeout(INTERRUPT_SLICE) {
                    Ok((i, Ok(s))) => {
                        streams[i] = Some(s);
                        left -= 1;
                    }
                    Ok((_, Err(e))) => {
                        failure = Some(e);
                        break;
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if let Err(e) = interrupted(hook, me) {
                            failure = Some(e);
                            break;
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
            // The other endpoints stop at their next look (listeners unpublish their files).
            stop.store(true, Ordering::Relaxed);
        });
        if let Some(e) = failure {
            return Err(e);
        }
        let mut partners = Vec::new();
        for (ep, s) in eps.iter().zip(streams) {
            let s = s.ok_or_else(|| {
                CouplingError::io(format!(
                    "participant \"{me}\": the handshake with \"{}\" ended without a connection",
                    ep.partner
                ))
            })?;
            let (s, chosen) = s;
            let _ = s.set_read_timeout(None);
            let _ = s.set_write_timeout(None);
            log_transport(me, &ep.partner, &s, &chosen);
            partners.push(Conn::new(ep.partner.clone(), s, chosen.shm).map_err(|e| CouplingError::io(e.to_string()))?);
        }
        let stash = partners.iter().map(|_| VecDeque::new()).collect();
        Ok(M2n {
            partners,
            stash,
            spin,
            interrupt: settings.interrupt.clone(),
            me: me.to_string(),
            stall: StallSettings::from(settings),
            out: Vec::new(),
        })
    }

    /// Index of a partner by name.
    pub fn partner(&self, name: &str) -> Option<usize> {
        self.partners.iter().position(|p| p.name == name)
    }

    /// Sends one frame. While the kernel buffer is full, incoming data of every partner
    /// are read into their buffers so the partner's own send can finish too.
    pub fn send(&mut self, to: usize, f: &Frame) -> Result<()> {
        let mut bytes = std::mem::take(&mut self.out);
        f.encode_into(&mut bytes);
        let sent = self.send_bytes(to, &bytes);
        // Kept for the next frame unless a mesh made it large.
        if bytes.capacity() <= 1 << 20 {
            self.out = bytes;
        }
        sent
    }

    fn send_bytes(&mut self, to: usize, bytes: &[u8]) -> Result<()> {
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
            let spinning = Instant::now() < spin_until;
            let got = if spinning { self.partners[from].fill_spinning() } else { self.partners[from].fill() };
            match got {
                Fill::Data | Fill::Drained => continue,
                Fill::Closed => {
                    let reason = self.partners[from].closed.clone().flatten();
                    return Err(self.disconnected(from, reason));
                }
                Fill::Empty => {}
            }
            if spinning {
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
