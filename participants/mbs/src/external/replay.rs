//! Replay: a module driven by a recorded (time, displacement, velocity) trace through the same
//! client and protocol as a run (lean state, `kind: pto`), each row an accepted step (evaluate,
//! then commit), reporting the force, the absorbed power `P = −F·v`, the cumulative energy
//! (trapezoidal rule over the rows) and the rows where the force sits at a limit.

use anyhow::{bail, Context, Result};
use std::path::Path;
use tidelink_adapter_core::records::number;
use tidelink_mbs_solver::ExternalLaw;

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
pub fn read_trace(path: &Path) -> Result<Vec<[f64; 3]>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading the trace {}", path.display()))?;
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
            bail!("{}:{}: not three numbers: {line}", path.display(), i + 1);
        };
        let [t, x, v] = nums[..] else {
            bail!("{}:{}: {} columns; a trace has time,displacement,velocity", path.display(), i + 1, nums.len());
        };
        if !(t.is_finite() && x.is_finite() && v.is_finite()) {
            bail!("{}:{}: a value is not finite", path.display(), i + 1);
        }
        if rows.last().is_some_and(|r| t <= r[0]) {
            bail!("{}:{}: time {t} does not increase", path.display(), i + 1);
        }
        rows.push([t, x, v]);
    }
    if rows.is_empty() {
        bail!("{}: the trace has no rows", path.display());
    }
    Ok(rows)
}

/// Drives `module` through `trace`; `limit` marks rows whose `|F|` reaches it.
pub fn replay(module: &mut dyn ExternalLaw, trace: &[[f64; 3]], limit: Option<f64>) -> Result<Replay> {
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
