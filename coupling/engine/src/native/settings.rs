//! What the program that opens a native participant tells it: the run it belongs to and how it
//! waits. The engine reads no environment variable itself; a program's entry point builds
//! [`Settings`] (usually [`Settings::from_env`]) and passes them in.

use super::m2n::{auth::Secret, keyfile};
use crate::{CouplingError, Result};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The environment variable holding the run identity (letters, digits, `-`, `_`, `.`).
pub const RUN_ID_ENV: &str = "TIDELINK_RUN_ID";
/// The environment variable holding how long `initialize` waits for partners, in seconds.
pub const HANDSHAKE_TIMEOUT_ENV: &str = "TIDELINK_HANDSHAKE_TIMEOUT";
/// The environment variable holding how long a wait polls before it blocks, in microseconds.
pub const SPIN_ENV: &str = "TIDELINK_SPIN_US";
/// The environment variable in which `tidelink run` hands its participants the run's secret
/// (hex); never on a command line, never in a file others can read (docs/security.md).
pub const RUN_SECRET_ENV: &str = "TIDELINK_RUN_SECRET";
/// The environment variable naming a file that holds the run's secret (its bytes, at least 16;
/// the file private to its user): for partners on other hosts, or started by hand beside a run.
pub const SECRET_FILE_ENV: &str = "TIDELINK_SECRET_FILE";
/// The environment variable holding after how many seconds without a message a wait warns
/// naming the partner (default 60; `0` turns the warning off).
pub const STALL_WARNING_ENV: &str = "TIDELINK_STALL_WARNING";
/// The environment variable holding after how many seconds without a message a wait fails
/// naming the partner (default: never).
pub const STALL_TIMEOUT_ENV: &str = "TIDELINK_STALL_TIMEOUT";

/// The environment variable choosing the transport between partners on the same machine:
/// `auto` (the default: shared memory, TCP for partners on other machines) or `tcp` (always TCP).
pub const TRANSPORT_ENV: &str = "TIDELINK_TRANSPORT";

/// How this participant exchanges with partners on its own machine ([`TRANSPORT_ENV`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Transport {
    /// Shared memory with partners on the same machine that want it too, TCP otherwise.
    #[default]
    Auto,
    /// TCP with every partner (for comparisons, or where shared memory is not wanted).
    Tcp,
}

/// A native participant's settings from outside the XML.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The run this participant belongs to; it pairs only with partners of the same run (`None`:
    /// a participant started by hand, pairing with partners that have none either).
    pub run_id: Option<String>,
    /// How long `initialize` waits for partners (default 60 s).
    pub handshake_timeout: Duration,
    /// How long a wait polls its socket (yielding the CPU between polls) before it blocks (default
    /// 50 µs; zero disables). On virtual machines waking a blocked reader on another CPU costs about
    /// 100 µs, far more than a partner's usual answer time.
    pub spin: Duration,
    /// Whether the XML's warnings are logged (not where a launcher has printed them already).
    pub log_config_warnings: bool,
    /// Asked while a call waits for partners (about every 100 ms); its answer stops the wait.
    pub interrupt: Option<Interrupt>,
    /// The run's secret that partners prove they hold in the handshake. `None`: the key file in
    /// `<exchange-directory>/precice-run/`, created by the first participant that needs it and
    /// readable by its user alone (participants started by hand on one host).
    pub secret: Option<Secret>,
    /// After how long without a message from the partner waited for a warning names it (then
    /// again at doubling intervals; `None`: never). Default 60 s.
    pub stall_warning: Option<Duration>,
    /// After how long without a message from the partner waited for the wait fails, naming it
    /// (`None`, the default: it waits as long as the partner lives).
    pub stall_timeout: Option<Duration>,
    /// Shared memory with partners on this machine, or TCP always. Both sides must want shared
    /// memory for a connection to use it; the log says which transport each connection uses.
    pub transport: Transport,
}

/// A question a waiting participant asks its program: `Some(reason)` ends the wait with an
/// [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted) error carrying `reason`. The Python
/// module answers with Ctrl-C, which cannot reach a thread blocked in a socket otherwise.
#[derive(Clone)]
pub struct Interrupt(pub Arc<dyn Fn() -> Option<String> + Send + Sync>);

impl Interrupt {
    /// The hook's answer now.
    pub fn check(&self) -> Option<String> {
        (self.0)()
    }
}

impl std::fmt::Debug for Interrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Interrupt(..)")
    }
}

impl PartialEq for Interrupt {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            run_id: None,
            handshake_timeout: Duration::from_secs(60),
            spin: Duration::from_micros(50),
            log_config_warnings: true,
            interrupt: None,
            secret: None,
            stall_warning: Some(Duration::from_secs(60)),
            stall_timeout: None,
            transport: Transport::Auto,
        }
    }
}

impl Settings {
    /// From [`RUN_ID_ENV`], [`HANDSHAKE_TIMEOUT_ENV`], [`SPIN_ENV`] and the secret of
    /// [`RUN_SECRET_ENV`] or [`SECRET_FILE_ENV`], [`STALL_WARNING_ENV`], [`STALL_TIMEOUT_ENV`] and [`TRANSPORT_ENV`],
    /// each defaulted when unset; a value that is not valid is an error naming the variable (an invalid run identity is
    /// ignored with a warning, as a participant started by hand).
    pub fn from_env() -> Result<Settings> {
        Ok(Settings {
            run_id: run_id_from(env_text(RUN_ID_ENV)?.as_deref()),
            handshake_timeout: handshake_timeout_from(env_text(HANDSHAKE_TIMEOUT_ENV)?.as_deref())?,
            spin: spin_from(env_text(SPIN_ENV)?.as_deref())?,
            log_config_warnings: true,
            interrupt: None,
            secret: secret_from(env_text(RUN_SECRET_ENV)?.as_deref(), std::env::var_os(SECRET_FILE_ENV).as_deref())?,
            stall_warning: seconds_or_off(STALL_WARNING_ENV, env_text(STALL_WARNING_ENV)?.as_deref(), Some(60.0))?,
            stall_timeout: seconds_or_off(STALL_TIMEOUT_ENV, env_text(STALL_TIMEOUT_ENV)?.as_deref(), None)?,
            transport: transport_from(env_text(TRANSPORT_ENV)?.as_deref())?,
        })
    }
}

/// The secret of [`RUN_SECRET_ENV`] (hex) or else of the file [`SECRET_FILE_ENV`] names.
fn secret_from(hex: Option<&str>, file: Option<&std::ffi::OsStr>) -> Result<Option<Secret>> {
    if let Some(hex) = hex.filter(|h| !h.trim().is_empty()) {
        return Secret::from_hex(hex).map(Some).ok_or_else(|| {
            CouplingError::config(format!(
                "{RUN_SECRET_ENV} does not hold a secret (at least 32 hex digits); `tidelink run` sets it for the \
                 participants it starts: unset it"
            ))
        });
    }
    match file.filter(|f| !f.is_empty()) {
        Some(f) => keyfile::read_secret_file(Path::new(f))
            .map(Some)
            .map_err(|e| CouplingError::config(format!("{SECRET_FILE_ENV}: {e}"))),
        None => Ok(None),
    }
}

/// The transport of [`TRANSPORT_ENV`] (unset or empty: `auto`).
fn transport_from(text: Option<&str>) -> Result<Transport> {
    match text.map(|t| t.trim().to_ascii_lowercase()).as_deref() {
        None | Some("") | Some("auto") => Ok(Transport::Auto),
        Some("tcp") => Ok(Transport::Tcp),
        Some(other) => Err(CouplingError::config(format!(
            "{TRANSPORT_ENV}={other:?} is not a transport: give `tcp` to exchange over TCP even with partners on \
             this machine, `auto` (or unset it) for shared memory with them"
        ))),
    }
}

/// A stall setting: seconds (`0` off), `default` (seconds, `None` off) when unset or empty.
fn seconds_or_off(name: &str, text: Option<&str>, default: Option<f64>) -> Result<Option<Duration>> {
    let text = text.map(str::trim).filter(|t| !t.is_empty());
    let Some(text) = text else { return Ok(default.map(Duration::from_secs_f64)) };
    match text.parse::<f64>() {
        Ok(0.0) => Ok(None),
        Ok(s) if s > 0.0 && s < 3.2e7 => Ok(Some(Duration::from_secs_f64(s))),
        _ => Err(CouplingError::config(format!(
            "{name}={text:?} is not a time: give seconds (a positive number below a year, e.g. {name}=300), 0 for \
             never, or unset it for the default"
        ))),
    }
}

/// Whether `id` can be a run identity: 1 to 64 letters, digits, `-`, `_` or `.`.
pub fn is_valid_run_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
}

/// The environment variable `name` as text (`None` when unset); not text is an error naming it.
fn env_text(name: &str) -> Result<Option<String>> {
    match std::env::var(name) {
        Ok(v) => Ok(Some(v)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(v)) => {
            Err(CouplingError::config(format!("the environment variable {name}={v:?} is not text")))
        }
    }
}

fn run_id_from(text: Option<&str>) -> Option<String> {
    let id = text?.trim();
    if id.is_empty() {
        return None;
    }
    if !is_valid_run_id(id) {
        log::warn!("ignoring {RUN_ID_ENV}=\"{id}\": a run identity is 1 to 64 letters, digits, `-`, `_` or `.`");
        return None;
    }
    Some(id.to_string())
}

fn handshake_timeout_from(text: Option<&str>) -> Result<Duration> {
    const NAME: &str = HANDSHAKE_TIMEOUT_ENV;
    let Some(text) = text else { return Ok(Settings::default().handshake_timeout) };
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s < 3.2e7 => Ok(Duration::from_secs_f64(s)),
        _ => Err(CouplingError::config(format!(
            "{NAME}={text:?} is not a handshake timeout: give a positive number of seconds below a year, e.g. \
             {NAME}=120, or unset it for the default 60 s"
        ))),
    }
}

fn spin_from(text: Option<&str>) -> Result<Duration> {
    const NAME: &str = SPIN_ENV;
    let Some(text) = text else { return Ok(Settings::default().spin) };
    match text.trim().parse::<u64>() {
        Ok(us) if us <= 1_000_000 => Ok(Duration::from_micros(us)),
        _ => Err(CouplingError::config(format!(
            "{NAME}={text:?} is not a spin time: give whole microseconds from 0 (off) to 1000000, or unset it for 50"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_settings_are_validated_with_their_name() {
        assert_eq!(handshake_timeout_from(None).unwrap(), Duration::from_secs(60));
        assert_eq!(handshake_timeout_from(Some(" 2.5")).unwrap(), Duration::from_millis(2500));
        for bad in ["inf", "0", "-5", "abc", "NaN", "1e300", ""] {
            let e = handshake_timeout_from(Some(bad)).expect_err(bad).message;
            assert!(e.contains("TIDELINK_HANDSHAKE_TIMEOUT") && e.contains("positive number of seconds"), "{e}");
        }
        assert_eq!(spin_from(None).unwrap(), Duration::from_micros(50));
        assert_eq!(spin_from(Some("0")).unwrap(), Duration::ZERO);
        for bad in ["-1", "1.5", "x", "2000000"] {
            let e = spin_from(Some(bad)).expect_err(bad).message;
            assert!(e.contains("TIDELINK_SPIN_US"), "{e}");
        }
    }

    #[test]
    fn secrets_come_from_the_launcher_or_a_private_file() {
        let s = Secret::random().unwrap();
        assert_eq!(secret_from(Some(&s.to_hex()), None).unwrap(), Some(s.clone()));
        assert_eq!(secret_from(None, None).unwrap(), None);
        assert_eq!(secret_from(Some(" "), None).unwrap(), None);
        let e = secret_from(Some("xyz"), None).unwrap_err().message;
        assert!(e.contains(RUN_SECRET_ENV), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("secret");
        std::fs::write(&f, b"0123456789abcdef0123").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(secret_from(None, Some(f.as_os_str())).unwrap(), Secret::from_bytes(b"0123456789abcdef0123"));
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
        let e = secret_from(None, Some(f.as_os_str())).unwrap_err().message;
        assert!(e.starts_with(SECRET_FILE_ENV) && e.contains("chmod 600"), "{e}");
    }

    #[test]
    fn stall_times_are_seconds_zero_or_unset() {
        let w = STALL_WARNING_ENV;
        assert_eq!(seconds_or_off(w, None, Some(60.0)).unwrap(), Some(Duration::from_secs(60)));
        assert_eq!(seconds_or_off(w, Some(" "), None).unwrap(), None);
        assert_eq!(seconds_or_off(w, Some("0"), Some(60.0)).unwrap(), None, "0 turns it off");
        assert_eq!(seconds_or_off(w, Some("2.5"), None).unwrap(), Some(Duration::from_millis(2500)));
        for bad in ["-1", "x", "inf", "NaN", "1e300"] {
            let e = seconds_or_off(STALL_TIMEOUT_ENV, Some(bad), None).expect_err(bad).message;
            assert!(e.contains("TIDELINK_STALL_TIMEOUT") && e.contains("seconds"), "{e}");
        }
    }

    #[test]
    fn the_transport_is_auto_or_tcp() {
        assert_eq!(transport_from(None).unwrap(), Transport::Auto);
        assert_eq!(transport_from(Some(" ")).unwrap(), Transport::Auto);
        assert_eq!(transport_from(Some("auto")).unwrap(), Transport::Auto);
        assert_eq!(transport_from(Some(" TCP\n")).unwrap(), Transport::Tcp);
        let e = transport_from(Some("shm2")).unwrap_err().message;
        assert!(e.contains(TRANSPORT_ENV) && e.contains("`tcp`"), "{e}");
    }

    #[test]
    fn run_identities_are_checked() {
        assert_eq!(run_id_from(Some(" run-1.a_b ")), Some("run-1.a_b".to_string()));
        assert_eq!(run_id_from(Some("")), None);
        assert_eq!(run_id_from(None), None);
        assert_eq!(run_id_from(Some("a b")), None);
        assert!(!is_valid_run_id(&"x".repeat(65)) && is_valid_run_id(&"x".repeat(64)));
    }
}
