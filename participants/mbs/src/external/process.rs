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

/// The least time a starting module gets to connect.
pub const MIN_CONNECT: Duration = Duration::from_secs(10);

/// How long a request polls for the reply before it sleeps in a blocking read (unless
/// [`SPIN_ENV`] says otherwise). A module answers in tens of microseconds; waking a process
/// that slept costs as much again on a virtual machine, so a short poll halves the round trip
/// and costs at most this much CPU.
pub const REPLY_SPIN: Duration = Duration::from_micros(100);

/// [`REPLY_SPIN`], or the whole microseconds (0 to 1 000 000) [`SPIN_ENV`] gives; anything
/// else is an error naming the variable.
fn reply_spin() -> Result<Duration, String> {
    spin_from(std::env::var(SPIN_ENV).ok().as_deref())
}

fn spin_from(text: Option<&str>) -> Result<Duration, String> {
    match text.map(str::trim) {
        None | Some("") => Ok(REPLY_SPIN),
        Some(t) => t.parse::<u64>().ok().filter(|us| *us <= 1_000_000).map(Duration::from_micros).ok_or_else(|| {
            format!("{SPIN_ENV}={t:?} is not a poll time: give whole microseconds from 0 (off) to 1000000, or unset it")
        }),
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
    pub fn start(command: &[String], dir: &Path) -> Result<Self, String> {
        if command.is_empty() {
            return Err("the command is empty".into());
        }
        let spin = reply_spin()?;
        let argv = resolve(command, dir);
        let listener = TcpListener::bind(("127.0.0.1", 0)).map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let child = match start(&argv, port) {
            Err(e) if e.kind() == io::ErrorKind::NotFound && argv[0] == "python" => {
                let mut again = argv.clone();
                again[0] = "python3".into();
                start(&again, port)
            }
            other => other,
        }
        .map_err(|e| format!("cannot start {:?}: {e}", argv))?;
        let mut launched = Launched { child: Some(child), spin, listener, port };
        launched.listener.set_nonblocking(true).map_err(|e| launched.abandon(e.to_string()))?;
        Ok(launched)
    }

    /// Kills and reaps the child; returns `msg` for the caller's error.
    fn abandon(&mut self, msg: String) -> String {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        msg
    }

    /// Waits at most `timeout` for the module to connect (at least [`MIN_CONNECT`]: an
    /// interpreter can take seconds to start on a busy machine, while replies are held to
    /// `timeout` itself).
    pub fn connect(mut self, timeout: Duration) -> Result<ModuleProcess, String> {
        let port = self.port;
        let connect = timeout.max(MIN_CONNECT);
        let deadline = Instant::now() + connect;
        let stream = loop {
            match self.listener.accept() {
                Ok((s, _)) => break s,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(self.abandon(format!("accepting its connection failed: {e}"))),
            }
            if let Some(Ok(Some(status))) = self.child.as_mut().map(Child::try_wait) {
                self.child = None;
                return Err(format!("it exited ({status}) before connecting to port {port}"));
            }
            if Instant::now() >= deadline {
                return Err(
                    self.abandon(format!("it did not connect to port {port} within {} ms", connect.as_millis()))
                );
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
            return Err(self.abandon(format!("setting up its connection failed: {e}")));
        }
        let child = self.child.take().ok_or("the module process is gone")?;
        Ok(ModuleProcess { child, stream, timeout, spin: self.spin, reaped: None })
    }
}

impl Drop for Launched {
    fn drop(&mut self) {
        self.abandon(String::new());
    }
}

impl ModuleProcess {
    /// [`Launched::start`] then [`Launched::connect`]: a module started and connected.
    pub fn spawn(command: &[String], dir: &Path, timeout: Duration) -> Result<Self, String> {
        Launched::start(command, dir)?.connect(timeout)
    }

    /// The process id (tests check it is gone).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends `msg` and waits for one reply frame; errors say what happened (timeout, the
    /// process gone and its exit status, a malformed frame).
    pub fn request(&mut self, msg: &Value) -> Result<Value, String> {
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

    fn explain(&mut self, e: FrameError, doing: &str) -> String {
        let timed_out = matches!(&e, FrameError::Io(io) if matches!(io.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut));
        if timed_out {
            return format!("no reply within the timeout of {} ms", self.timeout.as_millis());
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
                format!("the module process exited ({status}) while {doing}")
            }
            None => format!("{doing} failed: {e}"),
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
            let e = spin_from(Some(bad)).unwrap_err();
            assert!(e.contains("TIDELINK_PTO_SPIN_US") && e.contains(bad), "{e}");
        }
    }
}
