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
//!
//! Off Linux (no memfd, eventfd or abstract sockets) neither side wants or offers the segment,
//! the handshake's frames are the same, and the log says why TCP (the `local` module below is
//! Linux's; its stand-in refuses).

use super::handshake::{read_frame_by, Ctx, MAX_HANDSHAKE_FRAME};
use super::shm::ShmLink;
use super::wire::{self, Frame};
use std::io;
use std::net::TcpStream;
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
    } else if !local::BUILT {
        offer = Err(local::WHY_NOT.to_string());
    } else if !wanted {
        offer = Err(format!("\"{}\" forces it ({}=tcp)", ctx.partner, crate::native::settings::TRANSPORT_ENV));
    } else if own.as_deref() != Some(host.as_str()) {
        offer = Err(format!("\"{}\" runs on another machine", ctx.partner));
    }
    let socket = offer.and_then(|()| local::listen());
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
    let (link, failure) = local::hand_over(s, ctx, l, pid, deadline);
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
    let wanted = ctx.shm && own.is_some() && local::BUILT;
    let me = std::process::id();
    let host = own.unwrap_or_default();
    write(s, &Frame::Transport { shm: wanted, host: host.clone(), pid: me, detail: String::new() }, deadline)?;
    let (offered, _, _, detail) = read(s, deadline, cancel)?;
    if !offered {
        let why = if !ctx.shm {
            why_not_wanted()
        } else if !local::BUILT {
            local::WHY_NOT.to_string()
        } else {
            detail
        };
        return Ok(Chosen::tcp(why));
    }
    let by = deadline.min(Instant::now() + ATTACH_DEADLINE);
    let attached = local::attach(&detail, by);
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

/// The Linux side of the hand-over: an abstract Unix socket named in the handshake, the kernel's
/// word on who connected to it, the segment's descriptors passed over it.
#[cfg(target_os = "linux")]
mod local {
    use super::super::keyfile::euid;
    use super::super::shm::{self, ShmLink};
    use super::{Ctx, ATTACH_DEADLINE};
    use std::io;
    use std::net::TcpStream;
    use std::os::linux::net::SocketAddrExt;
    use std::os::unix::net::{SocketAddr, UnixListener, UnixStream};
    use std::time::{Duration, Instant};

    /// Shared memory is built here.
    pub(super) const BUILT: bool = true;
    /// Never shown on Linux.
    pub(super) const WHY_NOT: &str = "";

    /// A fresh abstract socket to hand the segment over on, and its name.
    pub(super) fn listen() -> Result<(String, UnixListener), String> {
        let name =
            format!("tidelink-m2n-{}", super::super::auth::Secret::random().map_err(|e| e.to_string())?.to_hex());
        let l = SocketAddr::from_abstract_name(name.as_bytes())
            .and_then(|a| UnixListener::bind_addr(&a))
            .and_then(|l| l.set_nonblocking(true).map(|()| l))
            .map_err(|e| format!("no local socket to hand the segment over ({e})"))?;
        Ok((name, l))
    }

    /// Waits on `l` for process `pid` of this user and hands it a fresh segment: this side's end,
    /// or why not.
    pub(super) fn hand_over(
        s: &TcpStream,
        ctx: &Ctx,
        l: UnixListener,
        pid: u32,
        deadline: Instant,
    ) -> (Option<ShmLink>, String) {
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
        (link, failure)
    }

    /// Connects to the listener's socket `name` and attaches the segment it sends, by `by`.
    pub(super) fn attach(name: &str, by: Instant) -> io::Result<ShmLink> {
        SocketAddr::from_abstract_name(name.as_bytes()).and_then(|a| UnixStream::connect_addr(&a)).and_then(|c| {
            c.set_read_timeout(Some(by.saturating_duration_since(Instant::now()).max(Duration::from_millis(1))))?;
            shm::accept(&c)
        })
    }
}

/// Elsewhere: no segment, ever; the reason goes to the log with the choice of TCP.
#[cfg(not(target_os = "linux"))]
mod local {
    use super::super::shm::ShmLink;
    use super::Ctx;
    use std::io;
    use std::net::TcpStream;
    use std::os::unix::net::UnixListener;
    use std::time::Instant;

    /// Shared memory is not built here.
    pub(super) const BUILT: bool = false;
    /// Why TCP, for the log.
    pub(super) const WHY_NOT: &str = "shared memory between partners is built on Linux only (memfd, eventfd)";

    /// Never called (the offer is refused first); refuses.
    pub(super) fn listen() -> Result<(String, UnixListener), String> {
        Err(WHY_NOT.to_string())
    }

    /// Never called (there is no listener); hands nothing over.
    pub(super) fn hand_over(_: &TcpStream, _: &Ctx, _: UnixListener, _: u32, _: Instant) -> (Option<ShmLink>, String) {
        (None, WHY_NOT.to_string())
    }

    /// Never called (nothing is offered); refuses.
    pub(super) fn attach(_: &str, _: Instant) -> io::Result<ShmLink> {
        Err(io::Error::new(io::ErrorKind::Unsupported, WHY_NOT))
    }
}
