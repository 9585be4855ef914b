//! Shared memory where it is not built (every system but Linux): a link type with no values,
//! so that a connection's `Option<ShmLink>` is always `None` and its shared-memory branches,
//! which still compile, never run. The transport is then always TCP.

use std::io;
use std::os::fd::BorrowedFd;
use std::time::Duration;

/// A shared-memory end that cannot exist on this system (no value of it can be made).
#[derive(Debug)]
pub enum ShmLink {}

impl ShmLink {
    /// Never called: there is no link to write to.
    pub fn write(&self, _bytes: &[u8]) -> io::Result<usize> {
        match *self {}
    }

    /// Never called: there is no link to read from.
    pub fn read(&self, _buf: &mut [u8]) -> io::Result<usize> {
        match *self {}
    }

    /// Never called: there is no link to wait on.
    pub fn wait(&self, _timeout: Duration, _lifeline: BorrowedFd<'_>) -> io::Result<Woke> {
        match *self {}
    }
}

/// Why [`ShmLink::wait`] returned (as on Linux).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Woke {
    /// Bytes arrived (or were there already).
    Data,
    /// The lifeline became readable: the partner closed it or died.
    Lifeline,
    /// Nothing happened within the time given (or a signal interrupted the sleep).
    Timeout,
}
