//! One partner connection, read by the participant's own thread. The socket rests in
//! non-blocking mode; received bytes collect in a buffer from which whole frames are cut.
//! Reading on the caller's thread (instead of a reader thread handing frames over a
//! channel) saves two thread wake-ups per window, which dominate a window's cost.

use super::wire::{self, Frame};
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

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
    pub fn new(name: String, stream: TcpStream) -> io::Result<Conn> {
        stream.set_nonblocking(true)?;
        Ok(Conn { name, stream, buf: vec![0; 2 * CHUNK], start: 0, filled: 0, closed: None, said_bye: false })
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

    /// One non-blocking write; `Ok(0)` when the kernel buffer is full.
    pub fn write_some(&mut self, bytes: &[u8]) -> io::Result<usize> {
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
        let _ = self.stream.set_nonblocking(false);
        let _ = self.stream.set_write_timeout(Some(Duration::from_secs(1)));
        let _ = self.stream.write_all(bytes);
    }

    pub fn shutdown(&self, how: std::net::Shutdown) {
        let _ = self.stream.shutdown(how);
    }
}
