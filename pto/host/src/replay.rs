//! Replay: a module driven by a recorded (time, displacement, velocity) trace through the same
//! client and protocol as a run (lean state, `kind: pto`), each row an accepted step (evaluate,
//! then commit), reporting the force, the absorbed power `P = −F·v`, the cumulative energy
//! (trapezoidal rule over the rows) and the rows where the force sits at a limit. Several traces
//! share one module process, with `reset` between them ([`replay_each`]).

use std::path::{Path, PathBuf};
use thiserror::Error;
use tidelink_mbs_solver::{ExternalLaw, ExternalLawError};

/// Why a trace could not be read or replayed; the message names the file and line.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// The trace file could not be read.
    #[error("reading the trace {}: {source}", path.display())]
    Read {
        /// The trace.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A row after the first is not numbers.
    #[error("{}:{line}: not three numbers: {text}", path.display())]
    NotNumbers {
        /// The trace.
        path: PathBuf,
        /// Its line (from 1).
        line: usize,
        /// The row.
        text: String,
    },
    /// A row has another number of columns than three.
    #[error("{}:{line}: {columns} columns; a trace has time,displacement,velocity", path.display())]
    Columns {
        /// The trace.
        path: PathBuf,
        /// Its line (from 1).
        line: usize,
        /// How many it has.
        columns: usize,
    },
    /// A value is infinite or NaN.
    #[error("{}:{line}: a value is not finite", path.display())]
    NotFinite {
        /// The trace.
        path: PathBuf,
        /// Its line (from 1).
        line: usize,
    },
    /// The times do not increase strictly.
    #[error("{}:{line}: time {time} does not increase", path.display())]
    NotIncreasing {
        /// The trace.
        path: PathBuf,
        /// Its line (from 1).
        line: usize,
        /// The row's time.
        time: f64,
    },
    /// No rows at all.
    #[error("{}: the trace has no rows", path.display())]
    Empty {
        /// The trace.
        path: PathBuf,
    },
    /// The module failed (its message names it, the op and what was sent).
    #[error(transparent)]
    Module(#[from] ExternalLawError),
}

/// `x` in its shortest round-trip form, plain or with an exponent, whichever is shorter (as
/// the participants' CSV files write numbers).
fn number(x: f64) -> String {
    let plain = format!("{x}");
    let exp = format!("{x:e}");
    if exp.len() < plain.len() {
        exp
    } else {
        plain
    }
}

/// One replayed row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReplayRow {
    /// Time (s).
    pub time: f64,
    /// Displacement from rest (m or rad).
    pub displacement: f64,
    /// Velocity (m/s or rad/s).
    pub velocity: f64,
    /// The module's force (N) or torque (N·m).
    pub force: f64,
    /// Absorbed power `−F·v` (W).
    pub power: f64,
    /// Energy absorbed from the first row to this one (J, trapezoidal).
    pub energy: f64,
    /// `|F|` reached the limit (within 1e-9 relative).
    pub saturated: bool,
}

/// The kind of link a trace was recorded on, which sets the units of its columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LinkKind {
    /// A translational spring-damper: m, m/s, N.
    #[default]
    Tsda,
    /// A rotational spring-damper: rad, rad/s, N·m.
    Rsda,
}

impl LinkKind {
    /// The CSV header of a replay on this kind of link.
    pub fn header(self) -> &'static str {
        match self {
            LinkKind::Tsda => "time_s,displacement_m,velocity_m_s,force_N,power_W,energy_J,saturated",
            LinkKind::Rsda => "time_s,angle_rad,angular_velocity_rad_s,torque_Nm,power_W,energy_J,saturated",
        }
    }
}

/// A whole replay and its totals.
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    /// Every row, in trace order.
    pub rows: Vec<ReplayRow>,
}

impl Replay {
    /// Rows at the limit.
    pub fn saturation_events(&self) -> usize {
        self.rows.iter().filter(|r| r.saturated).count()
    }
    /// Energy over the whole trace (J).
    pub fn energy(&self) -> f64 {
        self.rows.last().map_or(0.0, |r| r.energy)
    }
    /// Mean absorbed power: energy over the trace's duration (W).
    pub fn mean_power(&self) -> f64 {
        match (self.rows.first(), self.rows.last()) {
            (Some(a), Some(b)) if b.time > a.time => self.energy() / (b.time - a.time),
            _ => 0.0,
        }
    }
    /// The rows as CSV, with a header naming the units of `link`, numbers in shortest
    /// round-trip form.
    pub fn to_csv(&self, link: LinkKind) -> String {
        let mut s = format!("{}\n", link.header());
        for r in &self.rows {
            let cells = [r.time, r.displacement, r.velocity, r.force, r.power, r.energy].map(number);
            s.push_str(&format!("{},{}\n", cells.join(","), r.saturated as u8));
        }
        s
    }
}

/// Reads a trace: CSV rows `time,displacement,velocity` (a header line and `#` comments are
/// skipped), times strictly increasing.
pub fn read_trace(path: &Path) -> Result<Vec<[f64; 3]>, ReplayError> {
    let text =
        std::fs::read_to_string(path).map_err(|source| ReplayError::Read { path: path.to_path_buf(), source })?;
    let path = path.to_path_buf();
    let mut rows: Vec<[f64; 3]> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        let nums: Result<Vec<f64>, _> = cells.iter().map(|c| c.parse::<f64>()).collect();
        let Ok(nums) = nums else {
            if rows.is_empty() {
                continue; // the header
            }
            return Err(ReplayError::NotNumbers { path, line: i + 1, text: line.to_string() });
        };
        let [t, x, v] = nums[..] else {
            return Err(ReplayError::Columns { path, line: i + 1, columns: nums.len() });
        };
        if !(t.is_finite() && x.is_finite() && v.is_finite()) {
            return Err(ReplayError::NotFinite { path, line: i + 1 });
        }
        if rows.last().is_some_and(|r| t <= r[0]) {
            return Err(ReplayError::NotIncreasing { path, line: i + 1, time: t });
        }
        rows.push([t, x, v]);
    }
    if rows.is_empty() {
        return Err(ReplayError::Empty { path });
    }
    Ok(rows)
}

/// Drives one module process through several traces, each as if the module were fresh: `reset`
/// is sent before every trace but the first (the module process and its connection are
/// reused, so an interpreter that is slow to start, MATLAB above all, starts once).
pub fn replay_each(
    module: &mut dyn ExternalLaw,
    traces: &[Vec<[f64; 3]>],
    limit: Option<f64>,
) -> Result<Vec<Replay>, ReplayError> {
    let mut all = Vec::with_capacity(traces.len());
    for (i, trace) in traces.iter().enumerate() {
        if i > 0 {
            module.reset()?;
        }
        all.push(replay(module, trace, limit)?);
    }
    Ok(all)
}

/// Drives `module` through `trace`; `limit` marks rows whose `|F|` reaches it.
pub fn replay(module: &mut dyn ExternalLaw, trace: &[[f64; 3]], limit: Option<f64>) -> Result<Replay, ReplayError> {
    let mut rows: Vec<ReplayRow> = Vec::with_capacity(trace.len());
    for (i, &[time, displacement, velocity]) in trace.iter().enumerate() {
        let dt = match (trace.get(i + 1), i.checked_sub(1).map(|j| trace[j])) {
            (Some(next), _) => next[0] - time,
            (None, Some(prev)) => time - prev[0],
            (None, None) => 0.0,
        };
        let out = module.evaluate(time, dt, &[displacement, velocity])?;
        module.commit()?;
        let force = out[0];
        let power = -force * velocity;
        let energy = rows.last().map_or(0.0, |p| p.energy + 0.5 * (p.power + power) * (time - p.time));
        let saturated = limit.is_some_and(|l| force.abs() >= l.abs() * (1.0 - 1e-9));
        rows.push(ReplayRow { time, displacement, velocity, force, power, energy, saturated });
    }
    Ok(Replay { rows })
}
