//! The shared segment: one memfd holding two single-producer single-consumer byte rings (one
//! per direction) and, per ring, the flag by which a reader says it is about to sleep; two
//! eventfds wake a sleeping reader. A writer makes a system call only when its reader sleeps,
//! so a partner that answers within the reader's spin costs no system call at all.
//!
//! ```text
//! offset 0      magic, layout version, capacity of each ring
//! offset 64     ring 0 (creator → attacher): head (written by its writer), tail (by its reader), reader asleep
//! offset 256    ring 1 (attacher → creator): the same
//! offset 4096   ring 0's bytes, then ring 1's bytes
//! ```
//!
//! Head and tail count bytes since the start (they never wrap in practice: 2^64 bytes); a
//! reader finds `head - tail` bytes, a writer `capacity - (head - tail)` free. The values
//! written by the other process are checked before use, so a corrupt segment is an error,
//! never an access outside the mapping.

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

/// The segment's first word: `tidelink` in ASCII.
const MAGIC: u64 = u64::from_le_bytes(*b"tidelink");
/// The layout's version (in the header next to the magic).
const LAYOUT: u32 = 1;
/// Bytes of each ring. Frames larger than this pass in pieces, as through a socket.
pub const CAPACITY: usize = 1 << 20;
/// Where the rings' bytes start.
const DATA: usize = 4096;
/// The segment's size.
const SIZE: usize = DATA + 2 * CAPACITY;

/// The control words of one ring, each on its own cache line.
fn ring_ctl(dir: usize) -> (usize, usize, usize) {
    let base = 64 + dir * 192;
    (base, base + 64, base + 128)
}

/// One end of a shared-memory connection: writes into one ring, reads from the other.
pub struct ShmLink {
    base: *mut u8,
    /// 0: the creator's end, 1: the attacher's.
    side: usize,
    /// The eventfd this end sleeps on.
    wake_me: OwnedFd,
    /// The eventfd that wakes the other end.
    wake_peer: OwnedFd,
}

impl std::fmt::Debug for ShmLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ShmLink(side {})", self.side)
    }
}

// SAFETY: the mapping is owned by the link (unmapped on drop) and every access to the shared
// words goes through atomics; the raw pointer is only an address.
unsafe impl Send for ShmLink {}

fn last_error(what: &str) -> io::Error {
    let e = io::Error::last_os_error();
    io::Error::new(e.kind(), format!("{what}: {e}"))
}

fn eventfd() -> io::Result<OwnedFd> {
    // SAFETY: plain system call; the descriptor is owned at once.
    let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
    if fd < 0 {
        return Err(last_error("eventfd"));
    }
    // SAFETY: a fresh descriptor of ours.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Maps `fd` (a segment of [`SIZE`] bytes) shared, read and write.
fn map(fd: &OwnedFd) -> io::Result<*mut u8> {
    // SAFETY: mapping a descriptor we hold; the result is checked.
    let p = unsafe {
        libc::mmap(std::ptr::null_mut(), SIZE, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, fd.as_raw_fd(), 0)
    };
    if p == libc::MAP_FAILED {
        return Err(last_error("mmap of the shared segment"));
    }
    Ok(p.cast())
}

/// The three descriptors that make a segment: the memfd and the two eventfds (creator's, attacher's).
#[derive(Debug)]
pub struct SegmentFds {
    /// The memfd (sealed against resizing).
    pub memory: OwnedFd,
    /// Wakes the creator's end.
    pub wake_creator: OwnedFd,
    /// Wakes the attacher's end.
    pub wake_attacher: OwnedFd,
}

impl ShmLink {
    /// A fresh segment: the creator's end and the descriptors to hand the attacher.
    pub fn create() -> io::Result<(ShmLink, SegmentFds)> {
        // SAFETY: a NUL-terminated name; the descriptor is owned at once.
        let fd = unsafe { libc::memfd_create(c"tidelink-m2n".as_ptr(), libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING) };
        if fd < 0 {
            return Err(last_error("memfd_create"));
        }
        // SAFETY: a fresh descriptor of ours.
        let memory = unsafe { OwnedFd::from_raw_fd(fd) };
        // SAFETY: system calls on our descriptor, results checked.
        unsafe {
            if libc::ftruncate(memory.as_raw_fd(), SIZE as libc::off_t) != 0 {
                return Err(last_error("sizing the shared segment"));
            }
            // Neither end can shrink the segment under the other (an access past its end would
            // be a SIGBUS) nor undo the seals.
            let seals = libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_SEAL;
            if libc::fcntl(memory.as_raw_fd(), libc::F_ADD_SEALS, seals) != 0 {
                return Err(last_error("sealing the shared segment"));
            }
        }
        let base = map(&memory)?;
        // SAFETY: the header lies inside the fresh mapping; nobody else sees it yet.
        unsafe {
            base.cast::<u64>().write(MAGIC);
            base.add(8).cast::<u32>().write(LAYOUT);
            base.add(12).cast::<u32>().write(CAPACITY as u32);
        }
        let (wake_creator, wake_attacher) = (eventfd()?, eventfd()?);
        let link = ShmLink { base, side: 0, wake_me: wake_creator.try_clone()?, wake_peer: wake_attacher.try_clone()? };
        Ok((link, SegmentFds { memory, wake_creator, wake_attacher }))
    }

    /// The attacher's end of the segment whose descriptors arrived from its creator, after
    /// checking that it is one (size, seals, header).
    pub fn attach(fds: SegmentFds) -> io::Result<ShmLink> {
        let bad = |why: String| io::Error::new(io::ErrorKind::InvalidData, format!("not a shared segment: {why}"));
        // SAFETY: fstat and fcntl on a descriptor we hold, into a zeroed struct.
        let (size, seals) = unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            if libc::fstat(fds.memory.as_raw_fd(), &mut st) != 0 {
                return Err(last_error("fstat of the shared segment"));
            }
            (st.st_size as usize, libc::fcntl(fds.memory.as_raw_fd(), libc::F_GET_SEALS))
        };
        if size != SIZE {
            return Err(bad(format!("{size} bytes, not {SIZE}")));
        }
        if seals < 0 || seals & libc::F_SEAL_SHRINK == 0 {
            return Err(bad("it can be shrunk".into()));
        }
        let base = map(&fds.memory)?;
        let link = ShmLink { base, side: 1, wake_me: fds.wake_attacher, wake_peer: fds.wake_creator };
        // SAFETY: the header lies inside the mapping.
        let (magic, layout, cap) =
            unsafe { (base.cast::<u64>().read(), base.add(8).cast::<u32>().read(), base.add(12).cast::<u32>().read()) };
        if magic != MAGIC || layout != LAYOUT || cap as usize != CAPACITY {
            return Err(bad(format!("header {magic:#x}/{layout}/{cap}")));
        }
        Ok(link)
    }

    fn word64(&self, off: usize) -> &AtomicU64 {
        // SAFETY: `off` is one of the 8-aligned control offsets inside the mapping, which lives as long as `self`.
        unsafe { &*self.base.add(off).cast::<AtomicU64>() }
    }

    fn word32(&self, off: usize) -> &AtomicU32 {
        // SAFETY: as `word64`.
        unsafe { &*self.base.add(off).cast::<AtomicU32>() }
    }

    fn data(&self, dir: usize) -> *mut u8 {
        // SAFETY: the start of ring `dir`'s bytes, inside the mapping.
        unsafe { self.base.add(DATA + dir * CAPACITY) }
    }

    /// Copies as many of `bytes` as fit into the outgoing ring (0 when it is full) and wakes
    /// the reader if it sleeps.
    pub fn write(&self, bytes: &[u8]) -> io::Result<usize> {
        let dir = self.side;
        let (h, t, asleep) = ring_ctl(dir);
        let head = self.word64(h).load(Ordering::Relaxed);
        let tail = self.word64(t).load(Ordering::Acquire);
        let used = head.wrapping_sub(tail) as usize;
        if used > CAPACITY {
            return Err(corrupt(used));
        }
        let n = bytes.len().min(CAPACITY - used);
        if n == 0 {
            return Ok(0);
        }
        let at = head as usize % CAPACITY;
        let first = n.min(CAPACITY - at);
        // SAFETY: both pieces lie inside ring `dir`'s bytes, which only this writer writes
        // between `tail` and `tail + CAPACITY`.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.data(dir).add(at), first);
            std::ptr::copy_nonoverlapping(bytes.as_ptr().add(first), self.data(dir), n - first);
        }
        self.word64(h).store(head.wrapping_add(n as u64), Ordering::Release);
        // Pairs with the reader's fence between raising its flag and its last look at `head`:
        // either it sees the bytes, or this sees the flag.
        fence(Ordering::SeqCst);
        if self.word32(asleep).load(Ordering::Relaxed) != 0 {
            self.wake()?;
        }
        Ok(n)
    }

    fn wake(&self) -> io::Result<()> {
        let one = 1u64.to_ne_bytes();
        // SAFETY: writing 8 bytes from a local array to our eventfd.
        let r = unsafe { libc::write(self.wake_peer.as_raw_fd(), one.as_ptr().cast(), 8) };
        // EAGAIN: the counter is full, the reader will wake anyway.
        if r < 0 && io::Error::last_os_error().kind() != io::ErrorKind::WouldBlock {
            return Err(last_error("waking the partner"));
        }
        Ok(())
    }

    /// Bytes waiting in the incoming ring, checked.
    fn available(&self) -> io::Result<(u64, usize)> {
        let (h, t, _) = ring_ctl(1 - self.side);
        let tail = self.word64(t).load(Ordering::Relaxed);
        let head = self.word64(h).load(Ordering::Acquire);
        let n = head.wrapping_sub(tail) as usize;
        if n > CAPACITY {
            return Err(corrupt(n));
        }
        Ok((tail, n))
    }

    /// Copies what the incoming ring holds into `buf` (at most its length); 0 when it is empty.
    pub fn read(&self, buf: &mut [u8]) -> io::Result<usize> {
        let dir = 1 - self.side;
        let (tail, avail) = self.available()?;
        let n = avail.min(buf.len());
        if n == 0 {
            return Ok(0);
        }
        let at = tail as usize % CAPACITY;
        let first = n.min(CAPACITY - at);
        // SAFETY: both pieces lie inside ring `dir`'s bytes, published by the writer's
        // release store of `head` that `available` acquired.
        unsafe {
            std::ptr::copy_nonoverlapping(self.data(dir).add(at), buf.as_mut_ptr(), first);
            std::ptr::copy_nonoverlapping(self.data(dir), buf.as_mut_ptr().add(first), n - first);
        }
        self.word64(ring_ctl(dir).1).store(tail.wrapping_add(n as u64), Ordering::Release);
        Ok(n)
    }

    /// Sleeps until the incoming ring has bytes, `lifeline` becomes readable (the partner's
    /// end of it closed: it exited, however it died), or `timeout` passes; says which.
    pub fn wait(&self, timeout: Duration, lifeline: BorrowedFd<'_>) -> io::Result<Woke> {
        let asleep = self.word32(ring_ctl(1 - self.side).2);
        asleep.store(1, Ordering::Relaxed);
        fence(Ordering::SeqCst);
        let ready = self.available().map(|(_, n)| n > 0);
        let mut woke = Ok(Woke::Data);
        if matches!(ready, Ok(false)) {
            let mut fds = [
                libc::pollfd { fd: self.wake_me.as_raw_fd(), events: libc::POLLIN, revents: 0 },
                libc::pollfd { fd: lifeline.as_raw_fd(), events: libc::POLLIN | libc::POLLRDHUP, revents: 0 },
            ];
            let ms = timeout.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
            // SAFETY: two valid pollfd entries on the stack.
            woke = match unsafe { libc::poll(fds.as_mut_ptr(), 2, ms) } {
                0 => Ok(Woke::Timeout),
                n if n > 0 && fds[1].revents != 0 => Ok(Woke::Lifeline),
                n if n > 0 => Ok(Woke::Data),
                _ if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => Ok(Woke::Timeout),
                _ => Err(last_error("poll")),
            };
        }
        asleep.store(0, Ordering::Relaxed);
        let mut counter = [0u8; 8];
        // SAFETY: reading at most 8 bytes into a local array from our non-blocking eventfd; the
        // result does not matter (it only resets the counter).
        let _ = unsafe { libc::read(self.wake_me.as_raw_fd(), counter.as_mut_ptr().cast(), 8) };
        ready.and(woke)
    }
}

/// Why [`ShmLink::wait`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Woke {
    /// Bytes arrived (or were there already).
    Data,
    /// The lifeline became readable: the partner closed it or died.
    Lifeline,
    /// Nothing happened within the time given (or a signal interrupted the sleep).
    Timeout,
}

fn corrupt(n: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("the shared segment is corrupt ({n} bytes announced in a ring of {CAPACITY})"),
    )
}

impl Drop for ShmLink {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `create`/`attach`, unmapped once.
        unsafe { libc::munmap(self.base.cast(), SIZE) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fds_copy(f: &SegmentFds) -> SegmentFds {
        SegmentFds {
            memory: f.memory.try_clone().unwrap(),
            wake_creator: f.wake_creator.try_clone().unwrap(),
            wake_attacher: f.wake_attacher.try_clone().unwrap(),
        }
    }

    #[test]
    fn bytes_cross_both_rings_in_order_across_the_wrap() {
        let (a, fds) = ShmLink::create().unwrap();
        let b = ShmLink::attach(fds_copy(&fds)).unwrap();
        let mut sent = 0u64;
        let mut got = 0u64;
        let mut buf = vec![0u8; 300_000];
        // Uneven pieces so that writes and reads straddle the ring's end many times.
        for round in 0..40 {
            let piece: Vec<u8> = (0..(70_001 + round * 13)).map(|i| ((sent + i as u64) % 251) as u8).collect();
            let mut off = 0;
            while off < piece.len() {
                off += a.write(&piece[off..]).unwrap();
                let n = b.read(&mut buf).unwrap();
                for &x in &buf[..n] {
                    assert_eq!(x as u64, got % 251, "byte {got}");
                    got += 1;
                }
            }
            sent += piece.len() as u64;
        }
        loop {
            let n = b.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            got += n as u64;
        }
        assert_eq!(got, sent);
        assert_eq!(b.write(b"back").unwrap(), 4);
        let mut four = [0u8; 8];
        assert_eq!(a.read(&mut four).unwrap(), 4);
        assert_eq!(&four[..4], b"back");
    }

    #[test]
    fn a_full_ring_takes_nothing_more() {
        let (a, fds) = ShmLink::create().unwrap();
        let _b = ShmLink::attach(fds_copy(&fds)).unwrap();
        assert_eq!(a.write(&vec![1u8; CAPACITY + 10]).unwrap(), CAPACITY);
        assert_eq!(a.write(&[1]).unwrap(), 0);
    }

    #[test]
    fn a_sleeping_reader_wakes_on_data_and_on_a_closed_lifeline() {
        let (a, fds) = ShmLink::create().unwrap();
        let b = ShmLink::attach(fds_copy(&fds)).unwrap();
        let (mine, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            a.write(b"x").unwrap();
            a
        });
        use std::os::fd::AsFd;
        assert_eq!(b.wait(Duration::from_secs(3600), mine.as_fd()).unwrap(), Woke::Data);
        let mut one = [0u8; 1];
        assert_eq!(b.read(&mut one).unwrap(), 1, "woken by the data");
        let _a = writer.join().unwrap();
        let closer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            drop(theirs);
        });
        assert_eq!(b.wait(Duration::from_secs(3600), mine.as_fd()).unwrap(), Woke::Lifeline);
        assert_eq!(b.read(&mut one).unwrap(), 0, "woken by the lifeline, not by data");
        closer.join().unwrap();
        assert_eq!(b.wait(Duration::from_millis(1), mine.as_fd()).unwrap(), Woke::Lifeline, "and stays readable");
    }

    #[test]
    fn segments_of_another_shape_are_refused() {
        let (_a, fds) = ShmLink::create().unwrap();
        let wrong = SegmentFds { memory: fds.wake_creator.try_clone().unwrap(), ..fds_copy(&fds) };
        assert!(ShmLink::attach(wrong).unwrap_err().to_string().contains("not a shared segment"));
    }
}
