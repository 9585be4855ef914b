//! Same-host transport: partners on one machine exchange their frames through a shared
//! memory segment instead of the TCP connection they authenticated on (docs/security.md,
//! docs/performance.md). The segment is a memfd holding one byte ring per direction; a reader
//! that finds nothing spins briefly, then sleeps on an eventfd *and* on the TCP connection,
//! which stays open as the lifeline: a partner that dies, however, closes it and wakes the
//! reader at once.
//!
//! - [`ring`]: the segment, its rings and the wake-ups;
//! - [`passing`]: its descriptors handed over a Unix socket to the one process that proved it
//!   belongs to the run (SCM_RIGHTS, after checking the kernel's word on who connected).
//!
//! memfd, eventfd, SO_PEERCRED and abstract Unix sockets are Linux's: on other systems the
//! segment is never offered nor taken (`transport` says why in the log) and the partners keep
//! TCP; [`ShmLink`] is then a type without values ([`unsupported`]), so the code that uses a
//! link compiles everywhere and never runs.

#[cfg(target_os = "linux")]
pub mod passing;
#[cfg(target_os = "linux")]
pub mod ring;
#[cfg(not(target_os = "linux"))]
pub mod unsupported;

#[cfg(target_os = "linux")]
pub use ring::{SegmentFds, ShmLink, Woke};
#[cfg(not(target_os = "linux"))]
pub use unsupported::{ShmLink, Woke};

#[cfg(target_os = "linux")]
use std::io;
#[cfg(target_os = "linux")]
use std::os::unix::net::UnixStream;

/// Makes a fresh segment and sends its descriptors over `sock` (a connection to the one process
/// that may have them); returns this side's end.
#[cfg(target_os = "linux")]
pub fn offer(sock: &UnixStream) -> io::Result<ShmLink> {
    let (link, fds) = ShmLink::create()?;
    passing::send(sock, &fds)?;
    Ok(link)
}

/// Receives a segment's descriptors over `sock` and returns this side's end of it.
#[cfg(target_os = "linux")]
pub fn accept(sock: &UnixStream) -> io::Result<ShmLink> {
    ShmLink::attach(passing::receive(sock)?)
}
