//! One connection's handshake, on either side (docs/security.md):
//!
//! ```text
//! requester → listener   Hello (protocol, version, hash, name, run, nonce_r)
//! listener  → requester  Hello (…, nonce_l)
//! requester → listener   Proof (HMAC of both hellos, requester's label)
//! listener  → requester  Proof (listener's label), or Abort with the reason it refused
//! then the choice of transport, shared memory or TCP (`transport.rs`)
//! ```
//!
//! Before a side has proven itself, every frame it sends is limited to
//! [`MAX_HANDSHAKE_FRAME`] bytes (a larger length prefix is refused before anything is
//! allocated) and every read has a deadline that a trickle of bytes does not extend.

use super::auth::{random_bytes, Role, Secret, SECRET_LEN};
use super::rendezvous::describe_run;
use super::transport::Chosen;
use super::wire::{self, Frame};
use super::VERSION;
use crate::CouplingError;
use std::io::{self, Read};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The largest frame read from a side that has not proven itself yet (a hello is a few
/// hundred bytes).
pub const MAX_HANDSHAKE_FRAME: usize = 4096;

/// How long one incoming connection may take over its part of the handshake: a partner sends
/// each frame as soon as it can, so only a silent or slow stranger ever reaches it.
pub const CONNECTION_DEADLINE: Duration = Duration::from_secs(10);

/// The longest a read blocks before the deadline and the cancel question are looked at again.
const READ_SLICE: Duration = Duration::from_millis(100);

/// Who this side is: what its hello says and the secret it proves itself with.
#[derive(Debug, Clone)]
pub(super) struct Ctx {
    /// This participant.
    pub me: String,
    /// The partner expected on this connection.
    pub partner: String,
    /// The configuration's hash.
    pub hash: String,
    /// The run identity (`None`: started by hand).
    pub run: Option<String>,
    /// The run's secret (`None` only before a requester has read its partner's key: then no
    /// handshake is started).
    pub secret: Option<Secret>,
    /// Whether this side wants shared memory with a partner on the same machine (`transport.rs`).
    pub shm: bool,
}

impl Ctx {
    fn key(&self) -> io::Result<&Secret> {
        self.secret.as_ref().ok_or_else(|| io::Error::other("no secret to prove this participant belongs to the run"))
    }
}

impl Ctx {
    fn hello(&self) -> io::Result<Frame> {
        Ok(Frame::Hello {
            protocol: wire::PROTOCOL,
            version: VERSION.to_string(),
            config_hash: self.hash.clone(),
            participant: self.me.clone(),
            run: self.run.clone().unwrap_or_default(),
            nonce: random_bytes(SECRET_LEN)?,
        })
    }
}

/// Reads one frame of at most `max` bytes before `deadline`; `Ok(None)` when the stream ends
/// before its first byte. `cancel` is asked between blocking slices.
pub fn read_frame_by(
    s: &TcpStream,
    deadline: Instant,
    max: usize,
    cancel: &dyn Fn() -> bool,
) -> io::Result<Option<Frame>> {
    let mut len = [0u8; 4];
    if !read_exact_by(s, &mut len, deadline, cancel, true)? {
        return Ok(None);
    }
    let n = u32::from_le_bytes(len) as usize;
    if n > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("announced a frame of {n} bytes, more than the {max} allowed before a partner is authenticated"),
        ));
    }
    let mut body = vec![0u8; n];
    read_exact_by(s, &mut body, deadline, cancel, false)?;
    Frame::decode(&body).map(Some)
}

/// Fills `buf` before `deadline`; `Ok(false)` if the stream ends before the first byte and
/// `eof_ok`.
fn read_exact_by(
    mut s: &TcpStream,
    buf: &mut [u8],
    deadline: Instant,
    cancel: &dyn Fn() -> bool,
    eof_ok: bool,
) -> io::Result<bool> {
    let mut got = 0;
    while got < buf.len() {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "sent no complete frame in time"));
        }
        if cancel() {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "the handshake was cancelled"));
        }
        s.set_read_timeout(Some(left.min(READ_SLICE)))?;
        match s.read(&mut buf[got..]) {
            Ok(0) if got == 0 && eof_ok => return Ok(false),
            Ok(0) => return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "closed the connection mid-frame")),
            Ok(n) => got += n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
                ) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

fn write(mut s: &TcpStream, f: &Frame, deadline: Instant) -> io::Result<()> {
    s.set_write_timeout(Some(deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(10))))?;
    wire::write_frame(&mut s, f)
}

/// What became of one connection to a listener.
#[derive(Debug)]
pub(super) enum Incoming {
    /// The partner, authenticated and agreeing on version, run and configuration, with the
    /// transport chosen with it.
    Partner(TcpStream, Chosen),
    /// Not the partner (the reason, for the warning); the listener keeps waiting.
    Refused(String),
    /// Closed before sending anything (another participant's liveness probe, a port scan).
    Probe,
    /// The authenticated partner disagrees (another configuration file, another name): the error.
    Failed(CouplingError),
}

/// Who a hello says it is, for refusal messages.
fn claims(f: &Frame) -> String {
    match f {
        Frame::Hello { participant, run, .. } => {
            format!("claiming to be \"{participant}\" ({})", describe_run((!run.is_empty()).then_some(run)))
        }
        _ => "without a hello".into(),
    }
}

/// The listener's side of one accepted connection, finished before `deadline`.
pub(super) fn listener_side(s: TcpStream, ctx: &Ctx, deadline: Instant) -> Incoming {
    let never = || false;
    let theirs = match read_frame_by(&s, deadline, MAX_HANDSHAKE_FRAME, &never) {
        Ok(None) => return Incoming::Probe,
        Ok(Some(f @ Frame::Hello { .. })) => f,
        Ok(Some(_)) => return Incoming::Refused("it did not start with a hello".into()),
        Err(e) => return Incoming::Refused(format!("it {e}")),
    };
    let ours = match ctx.hello() {
        Ok(f) => f,
        Err(e) => return Incoming::Failed(CouplingError::io(e.to_string())),
    };
    // Sent before any check: a partner of another version or run reads the mismatch from it.
    if let Err(e) = write(&s, &ours, deadline) {
        return Incoming::Refused(format!("{}: sending our hello failed ({e})", claims(&theirs)));
    }
    let Frame::Hello { protocol, version, .. } = &theirs else { unreachable!("matched above") };
    if *protocol != wire::PROTOCOL || *version != VERSION {
        return Incoming::Refused(format!(
            "{}: it uses {version} (protocol {protocol}), this participant {VERSION} (protocol {})",
            claims(&theirs),
            wire::PROTOCOL
        ));
    }
    let proof = match read_frame_by(&s, deadline, MAX_HANDSHAKE_FRAME, &never) {
        Ok(Some(Frame::Proof { mac })) => mac,
        Ok(None) => {
            return Incoming::Refused(format!("{}: it closed the connection before proving itself", claims(&theirs)))
        }
        Ok(Some(_)) => return Incoming::Refused(format!("{}: it sent no proof", claims(&theirs))),
        Err(e) => return Incoming::Refused(format!("{}: it {e}", claims(&theirs))),
    };
    if !ctx.key().is_ok_and(|k| k.verify(Role::Requester, &theirs.encode(), &ours.encode(), &proof)) {
        let why = "it could not prove that it belongs to this run (it does not hold the run's secret)";
        let _ = write(
            &s,
            &Frame::Abort { message: format!("participant \"{}\" refused the connection: {why}", ctx.me) },
            deadline,
        );
        return Incoming::Refused(format!("{}: {why}", claims(&theirs)));
    }
    let Frame::Hello { participant, run, .. } = &theirs else { unreachable!("matched above") };
    let run = (!run.is_empty()).then_some(run.as_str());
    if run != ctx.run.as_deref() {
        // Holds the secret but belongs to another run (a shared secret file): it learns so from
        // our hello and stops; we keep waiting for our own partner.
        return Incoming::Refused(format!("{}: a participant of another run", claims(&theirs)));
    }
    if let Err(e) = check_hello(ctx, participant, &theirs) {
        let _ = write(&s, &Frame::Abort { message: e.message.clone() }, deadline);
        return Incoming::Failed(e);
    }
    let Ok(key) = ctx.key() else { unreachable!("verified above") };
    let mine = key.prove(Role::Listener, &theirs.encode(), &ours.encode());
    if let Err(e) = write(&s, &Frame::Proof { mac: mine }, deadline) {
        return Incoming::Refused(format!("{}: sending our proof failed ({e})", claims(&theirs)));
    }
    match super::transport::listener_side(&s, ctx, deadline) {
        Ok(chosen) => Incoming::Partner(s, chosen),
        Err(e) => Incoming::Failed(CouplingError::partner(format!(
            "participant \"{}\": \"{}\" proved itself but then {e} (look at its output)",
            ctx.me, ctx.partner
        ))),
    }
}

/// The requester's side on a connection to the address its partner published, finished before
/// `deadline` (or when `cancel` says so), with the transport chosen. Errors name the partner
/// and what to look at.
pub(super) fn requester_side(
    s: &TcpStream,
    ctx: &Ctx,
    deadline: Instant,
    cancel: &dyn Fn() -> bool,
) -> crate::Result<Chosen> {
    let (me, partner) = (&ctx.me, &ctx.partner);
    let ours = ctx.hello().map_err(|e| CouplingError::io(e.to_string()))?;
    write(s, &ours, deadline).map_err(|e| CouplingError::io(format!("cannot greet \"{partner}\": {e}")))?;
    let closed = || {
        CouplingError::partner(format!(
            "participant \"{partner}\" closed the connection during the handshake (it probably found a problem: look \
             at its output)"
        ))
    };
    let no_answer = |e: io::Error| {
        CouplingError::partner(format!(
            "participant \"{me}\": no answer from \"{partner}\" during the handshake ({e}); look at its output"
        ))
    };
    let theirs = match read_frame_by(s, deadline, MAX_HANDSHAKE_FRAME, cancel).map_err(no_answer)? {
        None => return Err(closed()),
        Some(f @ Frame::Hello { .. }) => f,
        Some(_) => {
            return Err(CouplingError::protocol(format!(
                "participant \"{me}\": the connection to \"{partner}\" did not start with a hello"
            )))
        }
    };
    let Frame::Hello { protocol, version, participant, run, .. } = &theirs else { unreachable!("matched above") };
    if *protocol != wire::PROTOCOL || *version != VERSION {
        return Err(version_error(me, participant, version));
    }
    if participant != partner {
        return Err(name_error(me, partner, participant));
    }
    let run = (!run.is_empty()).then_some(run.as_str());
    if run != ctx.run.as_deref() {
        return Err(run_error(me, participant, ctx.run.as_deref(), run));
    }
    let key = ctx.key().map_err(|e| CouplingError::misuse(format!("participant \"{me}\": {e}")))?;
    let proof = key.prove(Role::Requester, &ours.encode(), &theirs.encode());
    write(s, &Frame::Proof { mac: proof }, deadline).map_err(|e| {
        CouplingError::partner(format!("cannot prove to \"{partner}\" that this participant belongs to the run: {e}"))
    })?;
    let peer = s.peer_addr().map(|a| a.to_string()).unwrap_or_else(|_| "its address".into());
    match read_frame_by(s, deadline, MAX_HANDSHAKE_FRAME, cancel).map_err(no_answer)? {
        Some(Frame::Proof { mac }) if key.verify(Role::Listener, &ours.encode(), &theirs.encode(), &mac) => {}
        Some(Frame::Proof { .. }) => {
            return Err(CouplingError::partner(format!(
                "participant \"{me}\": the program listening at {peer} answered as \"{partner}\" but could not prove \
                 that it belongs to this run (it does not hold the run's secret); its connection file is not this \
                 run's partner's. See docs/security.md"
            )))
        }
        Some(Frame::Abort { message }) => {
            // An authenticated listener that found another configuration says so: the same
            // check here gives the same error on both sides.
            check_hello(ctx, participant, &theirs)?;
            return Err(CouplingError::partner(format!(
                "{message}. Participants started by hand use the key file beside the listener's connection file; \
                 with TIDELINK_SECRET_FILE both sides must name files of the same content (docs/security.md)"
            )));
        }
        None => return Err(closed()),
        Some(_) => {
            return Err(CouplingError::protocol(format!(
                "participant \"{me}\": \"{partner}\" sent something else than its proof during the handshake"
            )))
        }
    }
    check_hello(ctx, participant, &theirs)?;
    super::transport::requester_side(s, ctx, deadline, cancel).map_err(|e| {
        CouplingError::partner(format!(
            "participant \"{me}\": \"{partner}\" proved itself but then the choice of transport failed ({e}); look \
             at its output"
        ))
    })
}

fn version_error(me: &str, participant: &str, version: &str) -> CouplingError {
    CouplingError::protocol(format!(
        "participant \"{me}\" uses {VERSION} but \"{participant}\" uses {version}. Mixing versions can lead to \
         undefined behavior and is, thus, forbidden."
    ))
}

fn name_error(me: &str, expected: &str, participant: &str) -> CouplingError {
    CouplingError::partner(format!(
        "participant \"{me}\" expected to connect to \"{expected}\" but \"{participant}\" answered: two runs share \
         one exchange directory"
    ))
}

fn run_error(me: &str, participant: &str, run: Option<&str>, theirs: Option<&str>) -> CouplingError {
    CouplingError::partner(format!(
        "participant \"{me}\" ({}) reached \"{participant}\" of another run ({}): two runs share one exchange \
         directory, and a participant pairs only with partners of its own run",
        describe_run(run),
        describe_run(theirs)
    ))
}

/// The checks of an authenticated hello: the expected partner, the same configuration.
fn check_hello(ctx: &Ctx, participant: &str, f: &Frame) -> crate::Result<()> {
    if participant != ctx.partner {
        return Err(name_error(&ctx.me, &ctx.partner, participant));
    }
    let Frame::Hello { config_hash, .. } = f else { unreachable!("a hello") };
    if *config_hash != ctx.hash {
        return Err(CouplingError::config(format!(
            "participant \"{}\" uses a different configuration file than the remote participant \"{participant}\" \
             (Hashes differ). All participants must read the very same preCICE XML file.",
            ctx.me
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
