//! A module as the solver's [`ExternalLaw`]: started on [`ExternalLaw::start`] (or on the first
//! evaluation), one request per call, and on any failure an error naming the module, the
//! operation and what was sent, with the process terminated and reaped.

use super::process::{Launched, ModuleProcess};
use super::protocol::{self, Initialize, ModuleInfo};
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tidelink_mbs_solver::{ExternalLaw, ExternalLawError};

/// Everything needed to start and initialize a module.
#[derive(Debug, Clone, PartialEq)]
pub struct ModuleSpec {
    /// What it drives, for messages (e.g. ``TSDA `pto` ``).
    pub label: String,
    /// The child's argv (`--tidelink-port N` is appended).
    pub command: Vec<String>,
    /// Where relative `.py` paths of the command are looked up (the model file's folder).
    pub dir: PathBuf,
    /// The protocol's `kind` (`pto`, `pto_tsda`, `pto_rsda`, `body_force`).
    pub kind: String,
    /// The input channel names, in order.
    pub in_names: Vec<String>,
    /// The number of outputs per evaluation.
    pub n_outputs: usize,
    /// Limit on the connection and on every reply.
    pub timeout: Duration,
    /// The module's settings (`config`), passed through.
    pub config: Value,
}

/// A module process behind the solver's external-law interface.
#[derive(Debug)]
pub struct ModuleClient {
    spec: ModuleSpec,
    launched: Option<Launched>,
    process: Option<ModuleProcess>,
    info: Option<ModuleInfo>,
    failed: Option<String>,
    dt: f64,
    round_trips: u64,
    busy: Duration,
    /// The last evaluation of a stateless module: `(t, dt, inputs, outputs)`.
    last: Option<(f64, f64, Vec<f64>, Vec<f64>)>,
    repeats: u64,
}

impl ModuleClient {
    /// A client for `spec`; nothing is started yet.
    pub fn new(spec: ModuleSpec) -> Self {
        ModuleClient {
            spec,
            launched: None,
            process: None,
            info: None,
            failed: None,
            dt: 0.0,
            round_trips: 0,
            busy: Duration::ZERO,
            last: None,
            repeats: 0,
        }
    }
    /// The spec it was made from.
    pub fn spec(&self) -> &ModuleSpec {
        &self.spec
    }
    /// What the module said about itself, once initialized.
    pub fn info(&self) -> Option<&ModuleInfo> {
        self.info.as_ref()
    }
    /// The process id while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(ModuleProcess::id)
    }
    /// `evaluate` requests sent so far.
    pub fn round_trips(&self) -> u64 {
        self.round_trips
    }
    /// Evaluations answered with the last answer of a stateless module (the same time, step and
    /// inputs: a window that an implicit scheme repeats).
    pub fn repeats(&self) -> u64 {
        self.repeats
    }
    /// Wall time spent in `evaluate` round trips.
    pub fn busy(&self) -> Duration {
        self.busy
    }

    fn who(&self) -> String {
        let name = self.info.as_ref().map(|i| format!(" \"{}\" {}", i.name, i.version)).unwrap_or_default();
        format!("external module{name} on {} ({})", self.spec.label, self.spec.command.join(" "))
    }

    /// Fails this client for good: the process is terminated and reaped, later calls refused.
    fn fail(&mut self, op: &str, sent: &Value, why: impl std::fmt::Display) -> ExternalLawError {
        if let Some(mut p) = self.process.take() {
            p.terminate();
        }
        self.launched = None; // killed and reaped when dropped
        let msg = format!("{}: op `{op}` sent {}: {why}", self.who(), protocol::short(sent));
        self.failed = Some(msg.clone());
        ExternalLawError(msg)
    }

    fn ensure_started(&mut self) -> Result<(), ExternalLawError> {
        if let Some(f) = &self.failed {
            return Err(ExternalLawError(format!("failed earlier: {f}")));
        }
        if self.process.is_some() {
            return Ok(());
        }
        self.launch_process()?;
        let launched = self.launched.take().ok_or_else(|| self.fail("spawn", &Value::Null, "not started"))?;
        let process = launched.connect(self.spec.timeout).map_err(|why| self.fail("spawn", &Value::Null, why))?;
        self.process = Some(process);
        let msg = protocol::initialize(&Initialize {
            kind: &self.spec.kind,
            in_names: &self.spec.in_names,
            n_outputs: self.spec.n_outputs,
            dt: self.dt,
            config: &self.spec.config,
        });
        let reply = self.request("initialize", &msg)?;
        let info = protocol::module_info(&reply).map_err(|why| self.fail("initialize", &msg, why))?;
        log::info!(
            "external module \"{}\" {} on {}: {} states, pid {}",
            info.name,
            info.version,
            self.spec.label,
            info.n_states,
            self.pid().unwrap_or(0)
        );
        self.info = Some(info);
        Ok(())
    }

    /// Starts the process unless it is started (or running) already.
    fn launch_process(&mut self) -> Result<(), ExternalLawError> {
        if self.launched.is_none() && self.process.is_none() {
            let launched = Launched::start(&self.spec.command, &self.spec.dir)
                .map_err(|why| self.fail("spawn", &Value::Null, why))?;
            self.launched = Some(launched);
        }
        Ok(())
    }

    fn request(&mut self, op: &str, msg: &Value) -> Result<Value, ExternalLawError> {
        let Some(p) = self.process.as_mut() else {
            return Err(self.fail(op, msg, "the module is not running"));
        };
        p.request(msg).map_err(|why| self.fail(op, msg, why))
    }

    /// Whether the module said it keeps no internal state (`n_states: 0`); starts it if needed.
    fn stateless(&mut self) -> Result<bool, ExternalLawError> {
        self.ensure_started()?;
        Ok(self.info.as_ref().is_some_and(|i| i.n_states == 0))
    }

    fn simple(&mut self, op: &str) -> Result<(), ExternalLawError> {
        self.ensure_started()?;
        let msg = protocol::bare(op);
        let reply = self.request(op, &msg)?;
        protocol::check_status(&reply).map(|_| ()).map_err(|why| self.fail(op, &msg, why))
    }
}

impl ExternalLaw for ModuleClient {
    fn start(&mut self, dt: f64) -> Result<(), ExternalLawError> {
        if self.process.is_none() && self.failed.is_none() {
            self.dt = dt;
        }
        self.ensure_started()
    }

    fn launch(&mut self, dt: f64) -> Result<(), ExternalLawError> {
        if let Some(f) = &self.failed {
            return Err(ExternalLawError(format!("failed earlier: {f}")));
        }
        if self.process.is_none() {
            self.dt = dt;
        }
        self.launch_process()
    }

    fn evaluate(&mut self, t: f64, dt: f64, inputs: &[f64]) -> Result<Vec<f64>, ExternalLawError> {
        if self.process.is_none() && self.failed.is_none() {
            self.dt = dt;
        }
        self.ensure_started()?;
        let msg = protocol::evaluate(t, dt, inputs);
        if inputs.len() != self.spec.in_names.len() {
            let why = format!("{} inputs given, {} announced in initialize", inputs.len(), self.spec.in_names.len());
            return Err(self.fail("evaluate", &msg, why));
        }
        // A module without states answers a function of (t, dt, inputs): the same question
        // (the first step of a repeated window starts from the same checkpoint) gets the same
        // answer without asking.
        let stateless = self.info.as_ref().is_some_and(|i| i.n_states == 0);
        if let Some((_, _, _, out)) = self.last.as_ref().filter(|(lt, ldt, lin, _)| {
            stateless && lt.to_bits() == t.to_bits() && ldt.to_bits() == dt.to_bits() && same_bits(lin, inputs)
        }) {
            self.repeats += 1;
            return Ok(out.clone());
        }
        let started = Instant::now();
        let reply = self.request("evaluate", &msg)?;
        self.busy += started.elapsed();
        self.round_trips += 1;
        let out = protocol::outputs(&reply, self.spec.n_outputs).map_err(|why| self.fail("evaluate", &msg, why))?;
        if stateless {
            self.last = Some((t, dt, inputs.to_vec(), out.clone()));
        }
        Ok(out)
    }

    fn reset(&mut self) -> Result<(), ExternalLawError> {
        self.last = None;
        self.simple("reset")
    }
    /// Sent only to a module that reported internal states (`n_states` > 0): for one without,
    /// commit and rollback are no-ops, and skipping them saves two round trips per repeated window.
    fn commit(&mut self) -> Result<(), ExternalLawError> {
        if self.stateless()? {
            return Ok(());
        }
        self.simple("commit")
    }
    /// As [`Self::commit`].
    fn rollback(&mut self) -> Result<(), ExternalLawError> {
        if self.stateless()? {
            return Ok(());
        }
        self.simple("rollback")
    }

    /// `shutdown`, then waits for the process to exit (killing it after the timeout) and
    /// reaps it. A module never started, or already failed, has nothing to shut down.
    fn shutdown(&mut self) -> Result<(), ExternalLawError> {
        if self.process.is_none() {
            self.launched = None; // started but never connected: killed and reaped
            return Ok(());
        }
        let msg = protocol::bare("shutdown");
        let reply = self.request("shutdown", &msg)?;
        protocol::check_status(&reply).map_err(|why| self.fail("shutdown", &msg, why))?;
        let status = self.process.take().and_then(|mut p| p.join());
        if self.round_trips > 0 {
            log::info!(
                "{}: {} evaluations ({} more answered as repeats), {:.1} µs per round trip, exit {}",
                self.who(),
                self.round_trips,
                self.repeats,
                self.busy.as_secs_f64() * 1e6 / self.round_trips as f64,
                status.map(|s| s.to_string()).unwrap_or_else(|| "unknown".into())
            );
        }
        Ok(())
    }
}

/// Whether two input vectors are the same bit for bit (NaN-safe, −0 ≠ +0).
fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}
