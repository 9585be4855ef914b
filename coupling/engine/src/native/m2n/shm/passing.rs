//! Handing a segment's descriptors to the one process that may have them: over a Unix socket
//! (SCM_RIGHTS), after the kernel has said which process is at the other end (SO_PEERCRED).
//! The segment is never reachable by a name: whoever does not receive its descriptors cannot
//! map it.

use super::ring::SegmentFds;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;

/// The process and user at the other end of `sock`, as the kernel recorded them when it connected.
pub fn peer(sock: &UnixStream) -> io::Result<(u32, u32)> {
    let mut cred = libc::ucred { pid: 0, uid: 0, gid: 0 };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: getsockopt into a local ucred of the length given.
    let r = unsafe {
        libc::getsockopt(
            sock.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok((cred.pid as u32, cred.uid))
}

const FDS: usize = 3;

/// Room for the control message carrying [`FDS`] descriptors (u64 words keep it aligned).
fn control_buffer() -> Vec<u64> {
    // SAFETY: CMSG_SPACE only computes a size.
    let bytes = unsafe { libc::CMSG_SPACE((FDS * std::mem::size_of::<RawFd>()) as u32) } as usize;
    vec![0u64; bytes.div_ceil(8)]
}

/// Sends the segment's descriptors (one byte of payload carries them).
pub fn send(sock: &UnixStream, fds: &SegmentFds) -> io::Result<()> {
    let raw = [fds.memory.as_raw_fd(), fds.wake_creator.as_raw_fd(), fds.wake_attacher.as_raw_fd()];
    let mut control = control_buffer();
    let mut byte = [1u8];
    let mut iov = libc::iovec { iov_base: byte.as_mut_ptr().cast(), iov_len: 1 };
    // SAFETY: a msghdr over local buffers that outlive the call; the control message is
    // filled within the space CMSG_SPACE reserved.
    unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = (control.len() * 8) as _;
        let c = libc::CMSG_FIRSTHDR(&msg);
        (*c).cmsg_level = libc::SOL_SOCKET;
        (*c).cmsg_type = libc::SCM_RIGHTS;
        (*c).cmsg_len = libc::CMSG_LEN((FDS * std::mem::size_of::<RawFd>()) as u32) as _;
        std::ptr::copy_nonoverlapping(raw.as_ptr(), libc::CMSG_DATA(c).cast::<RawFd>(), FDS);
        if libc::sendmsg(sock.as_raw_fd(), &msg, libc::MSG_NOSIGNAL) != 1 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Receives a segment's descriptors (blocking as `sock`'s read timeout says).
pub fn receive(sock: &UnixStream) -> io::Result<SegmentFds> {
    let mut control = control_buffer();
    let mut byte = [0u8];
    let mut iov = libc::iovec { iov_base: byte.as_mut_ptr().cast(), iov_len: 1 };
    let mut got: Vec<OwnedFd> = Vec::new();
    // SAFETY: a msghdr over local buffers that outlive the call; every descriptor the kernel
    // placed is taken into an OwnedFd at once (so none leaks), whatever else the message holds.
    let n = unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = (control.len() * 8) as _;
        let n = libc::recvmsg(sock.as_raw_fd(), &mut msg, libc::MSG_CMSG_CLOEXEC);
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        let mut c = libc::CMSG_FIRSTHDR(&msg);
        while !c.is_null() {
            if (*c).cmsg_level == libc::SOL_SOCKET && (*c).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(c).cast::<RawFd>();
                let count = ((*c).cmsg_len as usize - (data as usize - c as usize)) / std::mem::size_of::<RawFd>();
                for k in 0..count {
                    got.push(OwnedFd::from_raw_fd(data.add(k).read_unaligned()));
                }
            }
            c = libc::CMSG_NXTHDR(&msg, c);
        }
        if msg.msg_flags & libc::MSG_CTRUNC != 0 {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "the descriptors were cut off"));
        }
        n
    };
    if n != 1 || got.len() != FDS {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("expected {FDS} descriptors with one byte, got {} with {n} bytes", got.len()),
        ));
    }
    let mut it = got.into_iter();
    let mut next = || it.next().expect("three descriptors, counted above");
    Ok(SegmentFds { memory: next(), wake_creator: next(), wake_attacher: next() })
}

#[cfg(test)]
mod tests {
    use super::super::ring::ShmLink;
    use super::*;

    #[test]
    fn the_segment_crosses_a_socket_and_the_peer_is_this_process() {
        let (a, b) = UnixStream::pair().unwrap();
        let (creator, fds) = ShmLink::create().unwrap();
        send(&a, &fds).unwrap();
        let attacher = ShmLink::attach(receive(&b).unwrap()).unwrap();
        assert_eq!(creator.write(b"hi").unwrap(), 2);
        let mut buf = [0u8; 2];
        assert_eq!(attacher.read(&mut buf).unwrap(), 2);
        assert_eq!(&buf, b"hi");
        // SAFETY: geteuid has no preconditions.
        assert_eq!(peer(&a).unwrap(), (std::process::id(), unsafe { libc::geteuid() }));
    }

    #[test]
    fn a_message_without_descriptors_is_refused() {
        use std::io::Write;
        let (mut a, b) = UnixStream::pair().unwrap();
        a.write_all(&[1]).unwrap();
        assert!(receive(&b).unwrap_err().to_string().contains("expected 3 descriptors"));
    }
}
