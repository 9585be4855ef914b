//! One partner connection, read by the participant's own thread. The socket rests in
//! non-blocking mode; received bytes collect in a buffer from which whole frames are cut.
//! Reading on the caller's thread (instead of a reader thread handing frames over a
//! channel) saves two thread wake-ups per window, which dominate a window's cost.
//!
//! With a partner on the same machine the bytes travel through a shared segment instead
//! (`shm`); the socket then carries nothing and only its end matters: the partner closed it
//! or died. The buffer, the frames and their limits are the same for both transports.

use super::shm::{ShmLink, Woke};
use super::wire::{self, Frame};
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

/// Free space kept at the end of the buffer for one read.
const CHUNK: usize = 16 * 1024;

/// What a read attempt brought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fill {
    /// New bytes arrived.
    Data,
    /// Nothing available now.
    Empty,
    /// The stream has ended (see [`Conn::closed`]).
    Closed,
    /// New bytes arrived and the read did not fill the space offered (internal to `fill`).
    Drained,
}

pub(super) struct Conn {
    pub name: String,
    stream: TcpStream,
    /// The shared segment, when the partner is on this machine; `stream` is then the lifeline.
    shm: Option<ShmLink>,
    buf: Vec<u8>,
    /// Unconsumed bytes are `buf[start..filled]`.
    start: usize,
    filled: usize,
    /// Set once the stream ended: `None` for a clean end, else the error.
    pub closed: Option<Option<String>>,
    /// The partner finalized cleanly; its end of stream is expected.
    pub said_bye: bool,
}

impl Conn {
    pub fn new(name: String, stream: TcpStream, shm: Option<ShmLink>) -> io::Result<Conn> {
        stream.set_nonblocking(true)?;
        Ok(Conn { name, stream, shm, buf: vec![0; 2 * CHUNK], start: 0, filled: 0, closed: None, said_bye: false })
    }

    /// With shared memory: whether the lifeline has ended (`Some` with the reason, `None` for a
    /// clean close inside). Any byte on it is an error too: after the switch it carries nothing.
    fn lifeline_end(&self) -> Option<Option<String>> {
        let mut one = [0u8; 1];
        match (&self.stream).read(&mut one) {
            Ok(0) => Some(None),
            Ok(_) => Some(Some("it sent bytes on the connection that carries none once shared memory is used".into())),
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) => None,
            Err(e) => Some(Some(e.to_string())),
        }
    }

    /// One copy out of the shared ring into the buffer (after `make_room`).
    fn read_shm(&mut self) -> Fill {
        let Some(link) = &self.shm else { return Fill::Empty };
        match link.read(&mut self.buf[self.filled..]) {
            Ok(0) => Fill::Empty,
            Ok(n) => {
                let short = n < self.buf.len() - self.filled;
                self.filled += n;
                if short {
                    Fill::Drained
                } else {
                    Fill::Data
                }
            }
            Err(e) => {
                self.closed = Some(Some(e.to_string()));
                Fill::Closed
            }
        }
    }

    fn make_room(&mut self) {
        if self.start == self.filled {
            self.start = 0;
            self.filled = 0;
        }
        if self.buf.len() - self.filled < CHUNK {
            if self.start > 0 {
                self.buf.copy_within(self.start..self.filled, 0);
                self.filled -= self.start;
                self.start = 0;
            }
            if self.buf.len() - self.filled < CHUNK {
                let n = (2 * self.buf.len()).max(self.filled + CHUNK);
                self.buf.resize(n, 0);
            }
        }
    }

    /// One `read` into the buffer; `WouldBlock` and timeouts count as [`Fill::Empty`].
    fn read_once(&mut self) -> Fill {
        if self.closed.is_some() {
            return Fill::Closed;
        }
        self.make_room();
        if self.shm.is_some() {
            let got = self.read_shm();
            if got != Fill::Empty {
                return got;
            }
            // Empty: is the partner still there? Whatever it wrote before its end was
            // closed is in the ring by now, so look once more before calling it closed.
            let Some(end) = self.lifeline_end() else { return Fill::Empty };
            let got = self.read_shm();
            if got == Fill::Empty {
                self.closed = Some(end);
                return Fill::Closed;
            }
            return got;
        }
        loop {
            match self.stream.read(&mut self.buf[self.filled..]) {
                Ok(0) => {
                    self.closed = Some(None);
                    return Fill::Closed;
                }
                Ok(n) => {
                    let short = n < self.buf.len() - self.filled;
                    self.filled += n;
                    return if short { Fill::Drained } else { Fill::Data };
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                    return Fill::Empty
                }
                Err(e) => {
                    self.closed = Some(Some(e.to_string()));
                    return Fill::Closed;
                }
            }
        }
    }

    /// While spinning for a partner's answer: with shared memory one look at the ring alone
    /// (no system call: the lifeline is asked by [`Conn::fill`] and watched by [`Conn::wait`],
    /// which every wait reaches after its short spin, so a dead partner is still found within
    /// the spin time); over TCP the same as [`Conn::fill`].
    pub fn fill_spinning(&mut self) -> Fill {
        if self.shm.is_none() || self.closed.is_some() {
            return self.fill();
        }
        self.make_room();
        match self.read_shm() {
            // A short read took everything there was.
            Fill::Drained => Fill::Data,
            // The room offered is full: more may wait, take it all as `fill` would.
            Fill::Data => match self.fill() {
                Fill::Closed => Fill::Closed,
                _ => Fill::Data,
            },
            other => other,
        }
    }

    /// Reads whatever is available without blocking.
    pub fn fill(&mut self) -> Fill {
        let mut got = false;
        loop {
            match self.read_once() {
                // A short read took everything there was: save the syscall that would say so.
                Fill::Drained => return Fill::Data,
                Fill::Data => got = true,
                _ if got => return Fill::Data,
                other => return other,
            }
        }
    }

    /// Blocks until data arrive, the stream ends or `timeout` passes.
    pub fn wait(&mut self, timeout: Duration) -> Fill {
        if self.closed.is_some() {
            return Fill::Closed;
        }
        if let Some(link) = &self.shm {
            // Whatever woke it (data, the lifeline's end, the time), `fill` says what there is.
            return match link.wait(timeout, self.stream.as_fd()) {
                Ok(Woke::Data | Woke::Lifeline | Woke::Timeout) => self.fill(),
                Err(e) => {
                    self.closed = Some(Some(e.to_string()));
                    Fill::Closed
                }
            };
        }
        if self.stream.set_nonblocking(false).is_err() || self.stream.set_read_timeout(Some(timeout)).is_err() {
            std::thread::sleep(Duration::from_millis(1));
            return self.fill();
        }
        let r = self.read_once();
        let _ = self.stream.set_nonblocking(true);
        if r == Fill::Drained {
            Fill::Data
        } else {
            r
        }
    }

    /// The next complete frame in the buffer, if any.
    pub fn next_frame(&mut self) -> io::Result<Option<Frame>> {
        match wire::split_frame(&self.buf[self.start..self.filled])? {
            Some((f, used)) => {
                self.start += used;
                Ok(Some(f))
            }
            None => Ok(None),
        }
    }

    /// One non-blocking write; `Ok(0)` when the kernel buffer (or the shared ring) is full.
    pub fn write_some(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if let Some(link) = &self.shm {
            let n = link.write(bytes)?;
            if n == 0 {
                if let Some(end) = self.lifeline_end() {
                    let why = end.unwrap_or_else(|| "connection closed".into());
                    return Err(io::Error::new(io::ErrorKind::BrokenPipe, why));
                }
            }
            return Ok(n);
        }
        loop {
            match self.stream.write(bytes) {
                Ok(0) => return Err(io::Error::new(io::ErrorKind::WriteZero, "connection closed")),
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(0),
                Err(e) => return Err(e),
            }
        }
    }

    /// Best-effort blocking write of a last message (abort or goodbye).
    pub fn write_last(&mut self, bytes: &[u8]) {
        if self.shm.is_some() {
            let until = Instant::now() + Duration::from_secs(1);
            let mut off = 0;
            while off < bytes.len() && Instant::now() < until {
                match self.write_some(&bytes[off..]) {
                    Ok(0) => std::thread::sleep(Duration::from_micros(50)),
                    Ok(n) => off += n,
                    Err(_) => return,
                }
            }
            return;
        }
        let _ = self.stream.set_nonblocking(false);
        let _ = self.stream.set_write_timeout(Some(Duration::from_secs(1)));
        let _ = self.stream.write_all(bytes);
    }

    pub fn shutdown(&self, how: std::net::Shutdown) {
        let _ = self.stream.shutdown(how);
    }
}
