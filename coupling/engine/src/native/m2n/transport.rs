//! Which transport an authenticated connection uses, chosen right after the proofs:
//!
//! ```text
//! requester → listener   Transport (shm wanted?, boot id, its pid)
//! listener  → requester  Transport (shm offered?, boot id, its pid, a fresh abstract socket name | why not)
//!   requester connects to that socket; the listener checks the kernel's peer credentials
//!   (the pid the requester announced, this user) and sends the segment's descriptors
//! requester → listener   Transport (shm taken?, …, why not)
//! ```
//!
//! Shared memory is used when both sides want it (`TIDELINK_TRANSPORT` is not `tcp`), both run
//! on one machine (the same boot id) and the hand-over works; anything else keeps TCP, with the
//! reason in the log. Either way the TCP connection stays open: with shared memory it carries
//! nothing more and is the lifeline whose end says the partner died.

use super::handshake::{read_frame_by, Ctx, MAX_HANDSHAKE_FRAME};
use super::keyfile::euid;
use super::shm::{self, ShmLink};
use super::wire::{self, Frame};
use std::io;
use std::net::TcpStream;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr, UnixListener, UnixStream};
use std::time::{Duration, Instant};

/// The longest the hand-over of the segment may take (within the handshake's deadline).
const ATTACH_DEADLINE: Duration = Duration::from_secs(2);

/// The transport a connection ended up with.
#[derive(Debug)]
pub(super) struct Chosen {
    /// The shared segment's end, or `None` for TCP.
    pub shm: Option<ShmLink>,
    /// Why TCP (empty with shared memory).
    pub why: String,
}

impl Chosen {
    fn tcp(why: impl Into<String>) -> Chosen {
        Chosen { shm: None, why: why.into() }
    }
}

/// This machine's identity for this boot (Linux), if it can be read.
fn boot_id() -> Option<String> {
    let id = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
    let id = id.trim();
    (!id.is_empty()).then(|| id.to_string())
}

fn write(mut s: &TcpStream, f: &Frame, deadline: Instant) -> io::Result<()> {
    s.set_write_timeout(Some(deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(10))))?;
    wire::write_frame(&mut s, f)
}

fn read(s: &TcpStream, deadline: Instant, cancel: &dyn Fn() -> bool) -> io::Result<(bool, String, u32, String)> {
    match read_frame_by(s, deadline, MAX_HANDSHAKE_FRAME, cancel)? {
        Some(Frame::Transport { shm, host, pid, detail }) => Ok((shm, host, pid, detail)),
        Some(_) => Err(io::Error::new(io::ErrorKind::InvalidData, "sent something else than its choice of transport")),
        None => Err(io::Error::new(io::ErrorKind::UnexpectedEof, "closed the connection while choosing the transport")),
    }
}

fn why_not_wanted() -> String {
    format!("{}=tcp forces it", crate::native::settings::TRANSPORT_ENV)
}

/// The listener's side, on the connection whose requester has just proven itself.
pub(super) fn listener_side(s: &TcpStream, ctx: &Ctx, deadline: Instant) -> io::Result<Chosen> {
    let never = || false;
    let (wanted, host, pid, _) = read(s, deadline, &never)?;
    let own = boot_id();
    let mut offer = Ok(());
    if !ctx.shm {
        offer = Err(why_not_wanted());
    } else if !wanted {
        offer = Err(format!("\"{}\" forces it ({}=tcp)", ctx.partner, crate::native::settings::TRANSPORT_ENV));
    } else if own.as_deref() != Some(host.as_str()) {
        offer = Err(format!("\"{}\" runs on another machine", ctx.partner));
    }
    let socket = offer.and_then(|()| {
        let name = format!("tidelink-m2n-{}", super::auth::Secret::random().map_err(|e| e.to_string())?.to_hex());
        let l = SocketAddr::from_abstract_name(name.as_bytes())
            .and_then(|a| UnixListener::bind_addr(&a))
            .and_then(|l| l.set_nonblocking(true).map(|()| l))
            .map_err(|e| format!("no local socket to hand the segment over ({e})"))?;
        Ok((name, l))
    });
    let me = std::process::id();
    let (detail, listener) = match socket {
        Ok((name, l)) => (name, Some(l)),
        Err(why) => (why, None),
    };
    let host_out = own.unwrap_or_default();
    write(s, &Frame::Transport { shm: listener.is_some(), host: host_out, pid: me, detail: detail.clone() }, deadline)?;
    let Some(l) = listener else {
        return Ok(Chosen::tcp(detail));
    };
    let by = deadline.min(Instant::now() + ATTACH_DEADLINE);
    let mut link = None;
    let mut failure = String::from("the partner did not come for the segment in time");
    while Instant::now() < by {
        match l.accept() {
            Ok((c, _)) => match shm::passing::peer(&c) {
                Ok((p, u)) if p == pid && u == euid() => {
                    let _ = c.set_nonblocking(false);
                    match shm::offer(&c) {
                        Ok(end) => link = Some(end),
                        Err(e) => failure = format!("handing the segment over failed ({e})"),
                    }
                    break;
                }
                Ok((p, u)) => log::warn!(
                    "{}: refused a local connection from process {p} (uid {u}) to the socket meant for \"{}\" \
                     (process {pid}, uid {}); still waiting for it",
                    ctx.me,
                    ctx.partner,
                    euid()
                ),
                Err(e) => log::warn!("{}: refused a local connection whose process is unknown ({e})", ctx.me),
            },
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => {
                failure = format!("accepting on the local socket failed ({e})");
                break;
            }
        }
        // The requester gave up (its final word is on the way): stop waiting for it.
        let mut peek = [0u8; 1];
        if s.set_nonblocking(true).is_ok() {
            let gave_up = s.peek(&mut peek).is_ok();
            let _ = s.set_nonblocking(false);
            if gave_up {
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    drop(l);
    let (taken, _, _, why) = read(s, deadline, &never)?;
    match link {
        Some(end) if taken => Ok(Chosen { shm: Some(end), why: String::new() }),
        _ if taken => Err(io::Error::new(io::ErrorKind::InvalidData, "took a segment it was not given")),
        _ => Ok(Chosen::tcp(if why.is_empty() { failure } else { why })),
    }
}

/// The requester's side, on the connection whose listener has just proven itself.
pub(super) fn requester_side(
    s: &TcpStream,
    ctx: &Ctx,
    deadline: Instant,
    cancel: &dyn Fn() -> bool,
) -> io::Result<Chosen> {
    let own = boot_id();
    let wanted = ctx.shm && own.is_some();
    let me = std::process::id();
    let host = own.unwrap_or_default();
    write(s, &Frame::Transport { shm: wanted, host: host.clone(), pid: me, detail: String::new() }, deadline)?;
    let (offered, _, _, detail) = read(s, deadline, cancel)?;
    if !offered {
        return Ok(Chosen::tcp(if ctx.shm { detail } else { why_not_wanted() }));
    }
    let by = deadline.min(Instant::now() + ATTACH_DEADLINE);
    let attached =
        SocketAddr::from_abstract_name(detail.as_bytes()).and_then(|a| UnixStream::connect_addr(&a)).and_then(|c| {
            c.set_read_timeout(Some(by.saturating_duration_since(Instant::now()).max(Duration::from_millis(1))))?;
            shm::accept(&c)
        });
    let (taken, why) = match &attached {
        Ok(_) => (true, String::new()),
        Err(e) => (false, format!("\"{}\" could not attach the shared segment ({e})", ctx.me)),
    };
    write(s, &Frame::Transport { shm: taken, host, pid: me, detail: why.clone() }, deadline)?;
    Ok(match attached {
        Ok(end) => Chosen { shm: Some(end), why: String::new() },
        Err(_) => Chosen::tcp(why),
    })
}
