//! Iteration control of an implicit scheme (preCICE's `BaseCouplingScheme` implicit part):
//! the required checkpoint actions, the iteration counters and logs of every participant,
//! and — on the measuring participant — convergence measurement and acceleration
//! (docs/design/coupling-semantics.md §11.1–§11.2, §11.8).

use super::super::acceleration::{self, AccData, Acceleration};
use super::super::data::DataKey;
use super::super::m2n::wire::DataItem;
use super::super::time::{tolerance, Waveform};
use super::convergence::{all_converged, Measure};
use super::logs::{Cell, Table};
use super::unconverged::Unconverged;
use crate::{CouplingError, Result};
use std::collections::HashMap;
use std::path::Path;
use tidelink_precice_config::CouplingSchemeDecl;

/// Identifies one exchanged datum of a scheme: which link, which direction, which exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SlotId {
    /// Index of the link (the partner) in the scheme.
    pub link: usize,
    /// Sent by this participant (true) or received (false).
    pub sent: bool,
    /// Index of the exchange in the link's send or receive list.
    pub exchange: usize,
}

impl SlotId {
    /// The `exchange`-th datum this participant sends over `link`.
    pub fn sent(link: usize, exchange: usize) -> Self {
        SlotId { link, sent: true, exchange }
    }
    /// The `exchange`-th datum this participant receives over `link`.
    pub fn received(link: usize, exchange: usize) -> Self {
        SlotId { link, sent: false, exchange }
    }
}

/// One exchanged datum at a window end, as the measuring participant handles it.
pub struct Slot {
    /// Where it sits in the scheme.
    pub id: SlotId,
    /// (mesh, data).
    pub key: DataKey,
    /// Its samples of this iteration; the acceleration rewrites those after the window start.
    pub item: DataItem,
    /// Part of the acceleration map (coupling-semantics.md §11.4).
    pub accelerate: bool,
    /// Its waveform-degree, for sampling the previous iteration at this iteration's times.
    pub degree: u32,
}

/// Checkpoint actions the coupling requires before the next `advance`.
#[derive(Debug, Default)]
pub struct Actions {
    write: bool,
    read: bool,
    write_done: bool,
    read_done: bool,
}

impl Actions {
    /// `requires_writing_checkpoint()`: required now? Marks it as done.
    pub fn query_write(&mut self) -> bool {
        self.write_done |= self.write;
        self.write
    }
    /// `requires_reading_checkpoint()`: required now? Marks it as done.
    pub fn query_read(&mut self) -> bool {
        self.read_done |= self.read;
        self.read
    }
    /// At `advance`: every required action must have been queried; then nothing is required.
    pub fn check_and_clear(&mut self) -> Result<()> {
        if self.write && !self.write_done {
            return Err(CouplingError::misuse(
                "The iteration checkpoint wasn't written. Did you forget to call \"requiresWritingCheckpoint()\"?",
            ));
        }
        if self.read && !self.read_done {
            return Err(CouplingError::misuse(
                "The iteration checkpoint wasn't read. Did you forget to call \"requiresReadingCheckpoint()\"?",
            ));
        }
        *self = Actions::default();
        Ok(())
    }
}

/// The implicit part of one scheme on one participant.
pub struct Implicit {
    /// 1-based iteration inside the current window.
    pub iteration: u32,
    total: u64,
    min: u32,
    max: Option<u32>,
    /// This participant measures convergence and accelerates (second, or the controller).
    pub measuring: bool,
    measures: Vec<Measure>,
    acceleration: Option<Box<dyn Acceleration>>,
    qn: bool,
    primary: Vec<DataKey>,
    /// The previous iteration's (accelerated) samples of every slot, window start included.
    previous: HashMap<SlotId, Waveform>,
    /// What the coupling requires before the next `advance`.
    pub actions: Actions,
    iterations_log: Option<Table>,
    convergence_log: Option<Table>,
    scheme_tag: String,
    unconverged: Unconverged,
}

impl Implicit {
    /// The iteration control `decl` configures; `measuring` on the second participant or controller.
    pub fn new(decl: &CouplingSchemeDecl, measuring: bool) -> Result<Implicit> {
        let measures =
            if measuring { decl.convergence_measures.iter().map(Measure::new).collect::<Result<_>>()? } else { vec![] };
        let (acceleration, qn, primary) = match (&decl.acceleration, measuring) {
            (Some(a), true) => (Some(acceleration::build(a)?), a.kind.is_quasi_newton(), a.data.clone()),
            _ => (None, false, vec![]),
        };
        Ok(Implicit {
            iteration: 1,
            total: 0,
            min: decl.min_iterations.unwrap_or(1),
            max: decl.max_iterations,
            measuring,
            measures,
            acceleration,
            qn,
            primary,
            previous: HashMap::new(),
            actions: Actions { write: true, ..Actions::default() },
            iterations_log: None,
            convergence_log: None,
            scheme_tag: format!("<coupling-scheme:{}> at {}", decl.kind.tag(), decl.loc),
            unconverged: Unconverged::new(&format!("<coupling-scheme:{}> at {}", decl.kind.tag(), decl.loc)),
        })
    }

    /// Opens `precice-<participant>-iterations.log` (and `-convergence.log` when measuring) in `dir`.
    pub fn open_logs(&mut self, dir: &Path, participant: &str) -> Result<()> {
        let mut cols: Vec<String> =
            ["TimeWindow", "TotalIterations", "Iterations", "Convergence"].iter().map(|s| s.to_string()).collect();
        if self.qn {
            cols.extend(["QNColumns", "DeletedQNColumns", "DroppedQNColumns"].iter().map(|s| s.to_string()));
        }
        self.iterations_log = Some(Table::create(dir, &format!("precice-{participant}-iterations.log"), &cols)?);
        if self.measuring {
            let mut cols = vec!["TimeWindow".to_string(), "Iteration".to_string()];
            cols.extend(self.measures.iter().map(Measure::column));
            self.convergence_log = Some(Table::create(dir, &format!("precice-{participant}-convergence.log"), &cols)?);
        }
        Ok(())
    }

    /// The value a slot had before the first window (initial data or zero), measured against
    /// in window 1, with its gradients (empty: none).
    pub fn set_initial(&mut self, id: SlotId, degree: u32, values: Vec<f64>, gradients: Vec<f64>) {
        let mut w = Waveform::new(degree);
        w.set_with_gradients(0.0, values, gradients);
        self.previous.insert(id, w);
    }

    /// The measuring participant at a window end: measures, then accelerates the slots
    /// unless converged. True when the window is accepted (converged or forced).
    pub fn decide(&mut self, window: u64, start: f64, end: f64, slots: &mut [Slot]) -> Result<bool> {
        for m in &mut self.measures {
            let Some(slot) = slots.iter().find(|s| s.key == m.key) else {
                return Err(CouplingError::config(format!(
                    "{}: the convergence measure's data \"{}\" on mesh \"{}\" is not exchanged by this participant",
                    self.scheme_tag, m.key.data, m.key.mesh
                )));
            };
            let new = slot.item.values.last().cloned().unwrap_or_default();
            let old = self.previous.get(&slot.id).and_then(|w| w.last()).map(|(_, v)| v.clone());
            let old = old.unwrap_or_else(|| vec![0.0; new.len()]);
            m.measure(&old, &new, self.iteration);
        }
        let mut converged = all_converged(&self.measures, self.iteration, self.min);
        let at_max = self.max.is_some_and(|max| self.iteration >= max);
        if at_max {
            // libprecice's message (BaseCouplingScheme::measureConvergence), then where and by how much.
            if let Some(m) = self.measures.iter().find(|m| m.strict && !m.converged) {
                return Err(CouplingError::config(format!(
                    "The strict convergence measure for data \"{}\" did not converge within the maximum allowed \
                     iterations, which terminates the simulation. To avoid this forced termination do not mark the \
                     convergence measure as strict. (Mesh \"{}\", time window {window} ending at t = {end}, {} iterations, \
                     {}; {}. Or raise max-iterations, or loosen the limit.)",
                    m.key.data,
                    m.key.mesh,
                    self.iteration,
                    self.scheme_tag,
                    m.shortfall()
                )));
            }
            if !converged && !self.measures.is_empty() {
                let unmet: Vec<(String, String)> =
                    self.measures.iter().filter(|m| !m.converged).map(|m| (m.label(), m.shortfall())).collect();
                self.unconverged.record(window, end, self.iteration, &unmet);
            }
            converged = true;
        }
        if let Some(log) = &mut self.convergence_log {
            let mut cells = vec![Cell::Int(window as i64), Cell::Int(self.iteration as i64)];
            cells.extend(self.measures.iter().map(|m| Cell::Real(m.logged)));
            log.row(&cells);
        }
        // The accelerated slots' data, moved (not copied) into the method.
        let acc: Option<(Vec<usize>, Vec<AccData>)> = self.acceleration.is_some().then(|| {
            slots.iter().enumerate().filter(|(_, s)| s.accelerate).map(|(i, s)| (i, self.acc_data(s, start))).unzip()
        });
        if let (Some(a), Some((index, mut data))) = (&mut self.acceleration, acc) {
            if converged {
                a.converged(&data);
            } else {
                a.perform(&mut data)?;
                for (i, d) in index.iter().zip(&data) {
                    write_back(&mut slots[*i].item, start, d);
                }
            }
        }
        for s in slots.iter() {
            let mut w = self.previous.remove(&s.id).unwrap_or_else(|| Waveform::new(s.degree));
            let gradient = |k: usize| s.item.gradients.get(k).cloned().unwrap_or_default();
            if converged {
                w = Waveform::new(s.degree);
                if let Some(v) = s.item.values.last() {
                    w.set_with_gradients(end, v.clone(), gradient(s.item.values.len() - 1));
                }
            } else {
                w.trim_after(start);
                for (k, (t, v)) in s.item.times.iter().zip(&s.item.values).enumerate() {
                    if *t > start + tolerance(start) {
                        w.set_with_gradients(*t, v.clone(), gradient(k));
                    }
                }
            }
            self.previous.insert(s.id, w);
        }
        Ok(converged)
    }

    fn acc_data(&self, s: &Slot, start: f64) -> AccData {
        let size = s.item.values.first().map_or(0, Vec::len);
        let gradient_size = s.item.gradients.first().map_or(0, Vec::len);
        let prev = self.previous.get(&s.id);
        let mut times = Vec::new();
        let mut values = Vec::new();
        let mut old = Vec::new();
        let (mut gradients, mut old_gradients) = (Vec::new(), Vec::new());
        for (k, (t, v)) in s.item.times.iter().zip(&s.item.values).enumerate() {
            if *t <= start + tolerance(start) {
                continue;
            }
            times.push(*t);
            values.extend_from_slice(v);
            match prev.and_then(|w| w.sample(*t)) {
                Some(o) => old.extend(o),
                None => old.extend(std::iter::repeat_n(0.0, size)),
            }
            if gradient_size > 0 {
                gradients.extend_from_slice(&s.item.gradients[k]);
                // The previous iteration's gradients at t, with degree 0 (libprecice's
                // `getPreviousGradientsAtTime`); zero where it had none.
                match prev.and_then(|w| w.sample_gradients(*t)).filter(|g| g.len() == gradient_size) {
                    Some(o) => old_gradients.extend_from_slice(o),
                    None => old_gradients.extend(std::iter::repeat_n(0.0, gradient_size)),
                }
            }
        }
        AccData {
            key: s.key.clone(),
            primary: self.primary.contains(&s.key),
            size,
            times,
            values,
            old,
            gradient_size,
            gradients,
            old_gradients,
        }
    }

    /// The window was accepted: count, log, and require a checkpoint if coupling goes on.
    pub fn accepted(&mut self, window: u64, ongoing: bool) {
        self.total += u64::from(self.iteration);
        self.unconverged.count_accepted();
        let converged = self.iteration >= self.min && self.max.is_none_or(|max| self.iteration < max);
        if let Some(log) = &mut self.iterations_log {
            let mut cells = vec![
                Cell::Int(window as i64),
                Cell::Int(self.total as i64),
                Cell::Int(self.iteration as i64),
                Cell::Int(i64::from(converged)),
            ];
            if self.qn {
                let c = self.acceleration.as_ref().and_then(|a| a.qn_columns()).unwrap_or_default();
                cells.extend([c.columns, c.deleted, c.dropped].map(|n| Cell::Int(n as i64)));
            }
            log.row(&cells);
        }
        self.iteration = 1;
        self.actions.write = ongoing;
        self.actions.read = false;
    }

    /// Writes the logs' buffered rows out (at finalize: the files are complete once it returns).
    pub fn flush_logs(&mut self) {
        for log in [&mut self.iterations_log, &mut self.convergence_log].into_iter().flatten() {
            log.flush();
        }
    }

    /// The windows accepted only because `max-iterations` was reached (measuring participant).
    pub fn unconverged(&self) -> &Unconverged {
        &self.unconverged
    }

    /// The window is repeated: the participant must read its checkpoint.
    pub fn repeated(&mut self) {
        self.iteration += 1;
        self.actions.read = true;
        self.actions.write = false;
    }
}

/// Copies accelerated values (and relaxed gradients) back into the item's samples after the window start.
fn write_back(item: &mut DataItem, start: f64, d: &AccData) {
    let mut k = 0;
    for (i, (t, v)) in item.times.iter().zip(item.values.iter_mut()).enumerate() {
        if *t > start + tolerance(start) {
            v.copy_from_slice(&d.values[k * d.size..(k + 1) * d.size]);
            if d.gradient_size > 0 {
                let g = &d.gradients[k * d.gradient_size..(k + 1) * d.gradient_size];
                item.gradients[i].copy_from_slice(g);
            }
            k += 1;
        }
    }
}
