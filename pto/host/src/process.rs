//! The module's process: spawned with the port it must connect to, accepted on 127.0.0.1 with
//! a deadline, asked one frame at a time with a timeout, and always terminated and reaped
//! (on shutdown, on any failure, or when dropped).

use super::frame::{read_frame, write_frame, FrameError};
use super::{PORT_ENV, PORT_FLAG, SPIN_ENV};
use serde_json::Value;
use std::io;
use std::net::{TcpListener, TcpStream};
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
    #[error("it exited ({status}) before connecting to port {port}")]
    ExitedBeforeConnecting {
        /// Its exit status.
        status: ExitStatus,
        /// The port it was given.
        port: u16,
    },
    /// The module did not connect in time.
    #[error("it did not connect to port {port} within {ms} ms")]
    NoConnection {
        /// The port it was given.
        port: u16,
        /// How long it was waited for.
        ms: u128,
    },
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
    stream: TcpStream,
    timeout: Duration,
    spin: Duration,
    reaped: Option<ExitStatus>,
}

/// `command` with relative `*.py` arguments found under `dir` made absolute.
fn resolve(command: &[String], dir: &Path) -> Vec<String> {
    command
        .iter()
        .map(|a| {
            let p = Path::new(a);
            if a.ends_with(".py") && p.is_relative() && dir.join(p).is_file() {
                dir.join(p).display().to_string()
            } else {
                a.clone()
            }
        })
        .collect()
}

fn start(argv: &[String], port: u16) -> io::Result<Child> {
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..]).arg(PORT_FLAG).arg(port.to_string()).stdin(Stdio::null());
    // Also in the environment, for interpreters that cannot take extra arguments (matlab -batch).
    cmd.env(PORT_ENV, port.to_string());
    // The module's prints go to our stderr: our stdout carries progress lines for the launcher.
    cmd.stdout(io::stderr());
    cmd.spawn()
}

/// A module process started and not yet connected: it starts up (an interpreter takes a tenth
/// of a second or more) while the host does other work, such as connecting to its partners.
/// Dropped unconnected, it is killed and reaped.
#[derive(Debug)]
pub struct Launched {
    child: Option<Child>,
    spin: Duration,
    listener: TcpListener,
    port: u16,
}

impl Launched {
    /// Starts `command` (relative `.py` paths against `dir`; `python` falls back to `python3`
    /// when not found) with `--tidelink-port N` appended, listening on that port; returns at once.
    pub fn start(command: &[String], dir: &Path) -> Result<Self, ProcessError> {
        if command.is_empty() {
            return Err(ProcessError::EmptyCommand);
        }
        let spin = reply_spin()?;
        let argv = resolve(command, dir);
        let listener = TcpListener::bind(("127.0.0.1", 0)).map_err(ProcessError::Listen)?;
        let port = listener.local_addr().map_err(ProcessError::Socket)?.port();
        let child = match start(&argv, port) {
            Err(e) if e.kind() == io::ErrorKind::NotFound && argv[0] == "python" => {
                let mut again = argv.clone();
                again[0] = "python3".into();
                start(&again, port)
            }
            other => other,
        }
        .map_err(|source| ProcessError::Start { argv: argv.clone(), source })?;
        let mut launched = Launched { child: Some(child), spin, listener, port };
        launched.listener.set_nonblocking(true).map_err(|e| launched.abandon(ProcessError::Socket(e)))?;
        Ok(launched)
    }

    /// Kills and reaps the child, if not done already.
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Kills and reaps the child; returns `e` for the caller's error.
    fn abandon(&mut self, e: ProcessError) -> ProcessError {
        self.kill();
        e
    }

    /// Waits at most `timeout` for the module to connect (at least [`MIN_CONNECT`]: an
    /// interpreter can take seconds to start on a busy machine, while replies are held to
    /// `timeout` itself).
    pub fn connect(mut self, timeout: Duration) -> Result<ModuleProcess, ProcessError> {
        let port = self.port;
        let connect = timeout.max(MIN_CONNECT);
        let deadline = Instant::now() + connect;
        let stream = loop {
            match self.listener.accept() {
                Ok((s, _)) => break s,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(self.abandon(ProcessError::Accept(e))),
            }
            if let Some(Ok(Some(status))) = self.child.as_mut().map(Child::try_wait) {
                self.child = None;
                return Err(ProcessError::ExitedBeforeConnecting { status, port });
            }
            if Instant::now() >= deadline {
                return Err(self.abandon(ProcessError::NoConnection { port, ms: connect.as_millis() }));
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
        Ok(ModuleProcess { child, stream, timeout, spin: self.spin, reaped: None })
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
        // Give a dying process a moment, so the message can say it died.
        let died = (0..50).find_map(|_| match self.child.try_wait() {
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
            let _ = self.child.kill();
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
