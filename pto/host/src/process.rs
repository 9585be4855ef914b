//! The module's process: spawned with the port it must connect to and a fresh token in its
//! environment, accepted on 127.0.0.1 with a deadline once its first frame (`hello`) carries
//! that token (any other connection is refused with a warning naming its address, and the
//! host keeps waiting for its child), asked one frame at a time with a timeout, and always
//! terminated and reaped (on shutdown, on any failure, or when dropped).

use super::frame::{self, read_frame, write_frame, FrameError};
use super::protocol::{self, MAX_HELLO};
use super::{PORT_ENV, PORT_FLAG, SPIN_ENV, TOKEN_ENV};
use crate::ties::{self, Guard};
use serde_json::Value;
use std::io::{self, Read};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use thiserror::Error;

/// [`SPIN_ENV`] holds something other than a poll time.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{SPIN_ENV}={value:?} is not a poll time: give whole microseconds from 0 (off) to 1000000, or unset it")]
pub struct SpinError {
    /// What the variable holds (trimmed).
    pub value: String,
}

/// Why a module process could not be started, connected or asked; the message says what
/// happened to it (the client adds the module, the op and what was sent).
#[derive(Debug, Error)]
pub enum ProcessError {
    /// No program to run.
    #[error("the command is empty")]
    EmptyCommand,
    /// The poll time of [`SPIN_ENV`] is not one.
    #[error(transparent)]
    Spin(#[from] SpinError),
    /// No port to listen on.
    #[error("cannot listen on 127.0.0.1: {0}")]
    Listen(#[source] io::Error),
    /// The program could not be started (not found, not executable).
    #[error("cannot start {argv:?}: {source}")]
    Start {
        /// The command line as run.
        argv: Vec<String>,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// The listening socket could not be set up.
    #[error("{0}")]
    Socket(#[source] io::Error),
    /// Accepting the module's connection failed.
    #[error("accepting its connection failed: {0}")]
    Accept(#[source] io::Error),
    /// The module ended before it connected.
    #[error("it exited ({status}) before connecting to port {port}{}", refused_note(.refused))]
    ExitedBeforeConnecting {
        /// Its exit status.
        status: ExitStatus,
        /// The port it was given.
        port: u16,
        /// The last connection refused meanwhile, and why.
        refused: Option<String>,
    },
    /// The module did not connect in time.
    #[error("it did not connect to port {port} within {ms} ms{}", refused_note(.refused))]
    NoConnection {
        /// The port it was given.
        port: u16,
        /// How long it was waited for.
        ms: u128,
        /// The last connection refused meanwhile, and why.
        refused: Option<String>,
    },
    /// No random token for the child.
    #[error("no random bytes from the system for the module's token: {0}")]
    Token(String),
    /// The accepted connection could not be set up (blocking, delays, timeouts).
    #[error("setting up its connection failed: {0}")]
    Setup(#[source] io::Error),
    /// The child was already taken (a second connect).
    #[error("the module process is gone")]
    Gone,
    /// No reply came within the timeout.
    #[error("no reply within the timeout of {ms} ms")]
    Timeout {
        /// The timeout.
        ms: u128,
    },
    /// The module ended while it was being asked.
    #[error("the module process exited ({status}) while {doing}")]
    Exited {
        /// Its exit status.
        status: ExitStatus,
        /// `sending` or `waiting for the reply`.
        doing: &'static str,
    },
    /// Sending or reading a frame failed otherwise.
    #[error("{doing} failed: {source}")]
    Frame {
        /// `sending` or `waiting for the reply`.
        doing: &'static str,
        /// What was wrong with the frame or the connection.
        #[source]
        source: FrameError,
    },
}

fn refused_note(refused: &Option<String>) -> String {
    refused.as_ref().map(|r| format!(" (meanwhile refused a connection {r})")).unwrap_or_default()
}

/// How long one connection may take to send its hello: the helpers send it at once.
pub const HELLO_DEADLINE: Duration = Duration::from_secs(5);

/// At most this many connections wait for their hello at once; more are closed at once.
const MAX_PENDING: usize = 32;

/// A fresh token: 32 random bytes as hex.
fn new_token() -> Result<String, ProcessError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|e| ProcessError::Token(e.to_string()))?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// A connection waiting for its first frame, read without blocking.
struct Pending {
    stream: TcpStream,
    peer: SocketAddr,
    buf: Vec<u8>,
    deadline: Instant,
}

/// What a pending connection's bytes so far say.
enum Heard {
    /// Not a whole frame yet.
    More,
    /// Closed before a word (a port scan).
    Gone,
    /// The child's hello: this is the module.
    Child,
    /// Anything else, and why.
    Refused(String),
}

impl Pending {
    fn listen(&mut self, token: &str) -> Heard {
        let mut chunk = [0u8; 512];
        loop {
            match self.stream.read(&mut chunk) {
                Ok(0) if self.buf.is_empty() => return Heard::Gone,
                Ok(0) => return Heard::Refused("it closed the connection inside its first frame".into()),
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Heard::Refused(format!("reading its first frame failed: {e}")),
            }
            if self.buf.len() >= 4 + MAX_HELLO {
                break;
            }
        }
        if self.buf.len() >= 4 {
            let len = u32::from_be_bytes([self.buf[0], self.buf[1], self.buf[2], self.buf[3]]) as usize;
            if len > MAX_HELLO {
                return Heard::Refused(format!(
                    "its first frame announces {len} bytes, more than the {MAX_HELLO} of a hello"
                ));
            }
            if self.buf.len() >= 4 + len {
                return match frame::decode(&self.buf) {
                    Ok((v, _)) => match protocol::check_hello(&v, token) {
                        Ok(()) => Heard::Child,
                        Err(e) => Heard::Refused(e.to_string()),
                    },
                    Err(e) => Heard::Refused(format!("its first frame is not one: {e}")),
                };
            }
        }
        if Instant::now() >= self.deadline {
            return Heard::Refused(format!(
                "it sent no hello within {} s (a module of protocol 1, built on an older helper, waits for the host \
                 to speak first: use this version's helper)",
                HELLO_DEADLINE.as_secs()
            ));
        }
        Heard::More
    }
}

/// The least time a starting module gets to connect.
pub const MIN_CONNECT: Duration = Duration::from_secs(10);

/// How long a request polls for the reply before it sleeps in a blocking read (unless
/// [`SPIN_ENV`] says otherwise). A module answers in tens of microseconds; waking a process
/// that slept costs as much again on a virtual machine, so a short poll halves the round trip
/// and costs at most this much CPU.
pub const REPLY_SPIN: Duration = Duration::from_micros(100);

/// [`REPLY_SPIN`], or the whole microseconds (0 to 1 000 000) [`SPIN_ENV`] gives; anything
/// else is an error naming the variable.
pub(crate) fn reply_spin() -> Result<Duration, SpinError> {
    spin_from(std::env::var(SPIN_ENV).ok().as_deref())
}

fn spin_from(text: Option<&str>) -> Result<Duration, SpinError> {
    match text.map(str::trim) {
        None | Some("") => Ok(REPLY_SPIN),
        Some(t) => t
            .parse::<u64>()
            .ok()
            .filter(|us| *us <= 1_000_000)
            .map(Duration::from_micros)
            .ok_or_else(|| SpinError { value: t.to_string() }),
    }
}

/// A running module connected over TCP loopback.
#[derive(Debug)]
pub struct ModuleProcess {
    child: Child,
    /// Kills what the module started if the host dies (declared after `child`: dropped after it).
    guard: Option<Guard>,
    stream: TcpStream,
    timeout: Duration,
    spin: Duration,
    reaped: Option<ExitStatus>,
}

/// `command` with relative `*.py` and `*.m` arguments found under `dir` made absolute.
fn resolve(command: &[String], dir: &Path) -> Vec<String> {
    command
        .iter()
        .map(|a| {
            let p = Path::new(a);
            if (a.ends_with(".py") || a.ends_with(".m")) && p.is_relative() && dir.join(p).is_file() {
                dir.join(p).display().to_string()
            } else {
                a.clone()
            }
        })
        .collect()
}

fn start(argv: &[String], port: u16, token: &str) -> io::Result<Child> {
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..]).arg(PORT_FLAG).arg(port.to_string()).stdin(Stdio::null());
    // Also in the environment, for interpreters that cannot take extra arguments (matlab -batch).
    cmd.env(PORT_ENV, port.to_string());
    // The token only in the environment: a command line is visible to every user.
    cmd.env(TOKEN_ENV, token);
    // The coupling run's secret (what `tidelink run` gives its participants, the engine's
    // `RUN_SECRET_ENV`) is not the module's business: it is not passed on.
    cmd.env_remove("TIDELINK_RUN_SECRET");
    // The module's prints go to our stderr: our stdout carries progress lines for the launcher.
    cmd.stdout(io::stderr());
    ties::tie_to_host(&mut cmd);
    cmd.spawn()
}

/// A module process started and not yet connected: it starts up (an interpreter takes a tenth
/// of a second or more) while the host does other work, such as connecting to its partners.
/// Dropped unconnected, it is killed and reaped.
#[derive(Debug)]
pub struct Launched {
    child: Option<Child>,
    guard: Option<Guard>,
    spin: Duration,
    listener: TcpListener,
    port: u16,
    token: String,
}

impl Launched {
    /// Starts `command` (relative `.py` and `.m` paths against `dir`; `python` falls back to `python3`
    /// when not found) with `--tidelink-port N` appended, listening on that port; returns at once.
    pub fn start(command: &[String], dir: &Path) -> Result<Self, ProcessError> {
        if command.is_empty() {
            return Err(ProcessError::EmptyCommand);
        }
        let spin = reply_spin()?;
        let argv = resolve(command, dir);
        let listener = TcpListener::bind(("127.0.0.1", 0)).map_err(ProcessError::Listen)?;
        let port = listener.local_addr().map_err(ProcessError::Socket)?.port();
        let token = new_token()?;
        let child = match start(&argv, port, &token) {
            Err(e) if e.kind() == io::ErrorKind::NotFound && argv[0] == "python" => {
                let mut again = argv.clone();
                again[0] = "python3".into();
                log::info!("`python` is not found on PATH; starting the module with `python3`: {}", again.join(" "));
                start(&again, port, &token)
            }
            other => other,
        }
        .map_err(|source| ProcessError::Start { argv: argv.clone(), source })?;
        let guard = Guard::start(&child);
        let mut launched = Launched { child: Some(child), guard, spin, listener, port, token };
        launched.listener.set_nonblocking(true).map_err(|e| launched.abandon(ProcessError::Socket(e)))?;
        Ok(launched)
    }

    /// The port the module was given (anyone on this host can connect to it; only the child
    /// that proves itself with its token is taken).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Kills and reaps the child, if not done already.
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            ties::kill_group(&mut child);
            let _ = child.wait();
        }
        self.guard = None;
    }

    /// Kills and reaps the child; returns `e` for the caller's error.
    fn abandon(&mut self, e: ProcessError) -> ProcessError {
        self.kill();
        e
    }

    /// Waits at most `timeout` for the module to connect (at least [`MIN_CONNECT`]: an
    /// interpreter can take seconds to start on a busy machine, while replies are held to
    /// `timeout` itself). Only a connection whose first frame is the hello with the child's
    /// token is taken; every other is refused with a warning naming its address, each read
    /// without blocking and with [`HELLO_DEADLINE`] of its own, so none stalls the wait.
    pub fn connect(mut self, timeout: Duration) -> Result<ModuleProcess, ProcessError> {
        let port = self.port;
        let connect = timeout.max(MIN_CONNECT);
        let deadline = Instant::now() + connect;
        let mut pending: Vec<Pending> = Vec::new();
        let mut refused: Option<String> = None;
        let stream = 'wait: loop {
            match self.listener.accept() {
                Ok((s, peer)) if pending.len() >= MAX_PENDING => {
                    log::warn!("refused a connection from {peer} to the module port {port}: too many are waiting");
                    drop(s);
                }
                Ok((s, peer)) => match s.set_nonblocking(true) {
                    Ok(()) => pending.push(Pending {
                        stream: s,
                        peer,
                        buf: Vec::new(),
                        deadline: Instant::now() + HELLO_DEADLINE,
                    }),
                    Err(e) => log::warn!("dropped a connection from {peer} to the module port {port}: {e}"),
                },
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(self.abandon(ProcessError::Accept(e))),
            }
            let mut i = 0;
            while i < pending.len() {
                match pending[i].listen(&self.token) {
                    Heard::More => i += 1,
                    Heard::Child => break 'wait pending.swap_remove(i).stream,
                    Heard::Gone => {
                        pending.swap_remove(i);
                    }
                    Heard::Refused(why) => {
                        let p = pending.swap_remove(i);
                        log::warn!(
                            "refused a connection from {} to the module port {port}: {why}; still waiting for the \
                             module process",
                            p.peer
                        );
                        refused = Some(format!("from {}: {why}", p.peer));
                    }
                }
            }
            if let Some(Ok(Some(status))) = self.child.as_mut().map(Child::try_wait) {
                self.child = None;
                return Err(ProcessError::ExitedBeforeConnecting { status, port, refused });
            }
            if Instant::now() >= deadline {
                return Err(self.abandon(ProcessError::NoConnection { port, ms: connect.as_millis(), refused }));
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        let setup = (|| {
            stream.set_nonblocking(false)?;
            stream.set_nodelay(true)?;
            stream.set_read_timeout(Some(timeout))?;
            stream.set_write_timeout(Some(timeout))
        })();
        if let Err(e) = setup {
            return Err(self.abandon(ProcessError::Setup(e)));
        }
        let child = self.child.take().ok_or(ProcessError::Gone)?;
        Ok(ModuleProcess { child, guard: self.guard.take(), stream, timeout, spin: self.spin, reaped: None })
    }
}

impl Drop for Launched {
    fn drop(&mut self) {
        self.kill();
    }
}

impl ModuleProcess {
    /// [`Launched::start`] then [`Launched::connect`]: a module started and connected.
    pub fn spawn(command: &[String], dir: &Path, timeout: Duration) -> Result<Self, ProcessError> {
        Launched::start(command, dir)?.connect(timeout)
    }

    /// The process id (tests check it is gone).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The process id of the guardian that kills the module's process group if the host dies
    /// (`None` where it could not be started; tests check it is gone).
    pub fn guardian_id(&self) -> Option<u32> {
        self.guard.as_ref().map(Guard::id)
    }

    /// Sends `msg` and waits for one reply frame; errors say what happened (timeout, the
    /// process gone and its exit status, a malformed frame).
    pub fn request(&mut self, msg: &Value) -> Result<Value, ProcessError> {
        if let Err(e) = write_frame(&mut self.stream, msg) {
            return Err(self.explain(FrameError::Io(e), "sending"));
        }
        self.spin_for_reply();
        read_frame(&mut self.stream).map_err(|e| self.explain(e, "waiting for the reply"))
    }

    /// Polls the socket for up to [`REPLY_SPIN`] ([`SPIN_ENV`]) until the reply's first byte is there; the
    /// blocking read (with its timeout) takes over either way. Any socket error is left to it.
    fn spin_for_reply(&mut self) {
        if self.spin.is_zero() || self.stream.set_nonblocking(true).is_err() {
            return;
        }
        let start = Instant::now();
        let mut probe = [0u8; 1];
        loop {
            match self.stream.peek(&mut probe) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock && start.elapsed() < self.spin => {
                    // Yield rather than spin: another runnable process gets the core.
                    std::thread::yield_now()
                }
                _ => break,
            }
        }
        // Back to blocking: if this fails the read below reports WouldBlock as a timeout-like
        // error naming the module, which is the truth about a socket we cannot use.
        let _ = self.stream.set_nonblocking(false);
    }

    fn explain(&mut self, e: FrameError, doing: &'static str) -> ProcessError {
        let timed_out = matches!(&e, FrameError::Io(io) if matches!(io.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut));
        if timed_out {
            return ProcessError::Timeout { ms: self.timeout.as_millis() };
        }
        // Give a dying process a moment, so the message can say it died. A closed connection
        // (nothing more to read, or reset) almost always means the process is on its way out,
        // and an interpreter's shutdown after it closed its socket can take a while on a busy
        // machine: up to 2 s then, 100 ms otherwise.
        let closed = match &e {
            FrameError::Truncated { .. } => true,
            FrameError::Io(io) => matches!(
                io.kind(),
                io::ErrorKind::UnexpectedEof | io::ErrorKind::ConnectionReset | io::ErrorKind::BrokenPipe
            ),
            _ => false,
        };
        let polls = if closed { 1000 } else { 50 };
        let died = (0..polls).find_map(|_| match self.child.try_wait() {
            Ok(Some(s)) => Some(s),
            _ => {
                std::thread::sleep(Duration::from_millis(2));
                None
            }
        });
        match died {
            Some(status) => {
                self.reaped = Some(status);
                ProcessError::Exited { status, doing }
            }
            None => ProcessError::Frame { doing, source: e },
        }
    }

    /// Waits up to the timeout for the process to exit by itself (after `shutdown`), then
    /// kills it; reaps it either way and returns its status.
    pub fn join(&mut self) -> Option<ExitStatus> {
        if let Some(s) = self.reaped {
            return Some(s);
        }
        let deadline = Instant::now() + self.timeout;
        while Instant::now() < deadline {
            if let Ok(Some(s)) = self.child.try_wait() {
                self.reaped = Some(s);
                return Some(s);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        self.terminate()
    }

    /// Kills the process if it still runs and reaps it.
    pub fn terminate(&mut self) -> Option<ExitStatus> {
        if self.reaped.is_none() {
            ties::kill_group(&mut self.child);
            self.reaped = self.child.wait().ok();
        }
        self.reaped
    }
}

impl Drop for ModuleProcess {
    fn drop(&mut self) {
        self.terminate();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_poll_time_is_whole_microseconds_or_an_error_naming_the_variable() {
        assert_eq!(spin_from(None), Ok(REPLY_SPIN));
        assert_eq!(spin_from(Some("0")), Ok(Duration::ZERO));
        assert_eq!(spin_from(Some(" 250 ")), Ok(Duration::from_micros(250)));
        for bad in ["abc", "-5", "1.5", "2000000"] {
            let e = spin_from(Some(bad)).unwrap_err().to_string();
            assert!(e.contains("TIDELINK_PTO_SPIN_US") && e.contains(bad), "{e}");
        }
    }
}
