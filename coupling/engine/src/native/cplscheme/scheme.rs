//! One coupling scheme seen from one participant: serial or parallel, explicit or
//! implicit, with one partner (preCICE's bi-coupling schemes) or — for the controller of a
//! `multi` scheme — with several. The exchange order and read visibility follow
//! docs/design/coupling-semantics.md §5.2–§5.3 (explicit) and §11.6 (implicit).
//!
//! A window end is handled in two phases so that a participant in several schemes never
//! waits on one partner while another waits on it: phase 1 sends (and, where the protocol
//! needs it first, receives), phase 2 receives what comes next.

use super::super::data::{DataKey, DataStore};
use super::super::m2n::wire::{DataFrame, DataItem, Frame};
use super::super::m2n::M2n;
use super::super::time::{TimeHandler, EPS};
use super::implicit::{Implicit, Slot, SlotId};
use crate::{CouplingError, Result};
use tidelink_precice_config::{CouplingSchemeDecl, SchemeKind, TimeWindowSize};

/// This participant's place in a scheme: a multi scheme's controller plays `Second`
/// towards every other participant, which play `First`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `<participants first>`, or a participant of a multi scheme without control.
    First,
    /// `<participants second>`, or a multi scheme's controller.
    Second,
}

/// One `<exchange>` seen from this participant.
#[derive(Debug, Clone)]
pub struct Exchange {
    /// (mesh, data).
    pub key: DataKey,
    /// `initialize="true"`.
    pub initialize: bool,
    /// `substeps="true"`: every sample of the window travels.
    pub substeps: bool,
}

/// The exchanges with one partner.
pub struct Link {
    /// The partner's participant name.
    pub partner_name: String,
    /// m2n index of the partner, set when connected.
    pub partner: usize,
    /// Data this participant sends to the partner.
    pub send: Vec<Exchange>,
    /// Data this participant receives from the partner.
    pub receive: Vec<Exchange>,
}

/// One coupling scheme of this participant.
pub struct CouplingScheme {
    /// Index of the scheme in the configuration (tags every frame).
    pub index: u32,
    /// The tag suffix.
    pub kind: SchemeKind,
    /// First or second (controller).
    pub role: Role,
    /// One link per partner: one for bi-schemes, several for a multi controller.
    pub links: Vec<Link>,
    first_participant_method: bool,
    /// This scheme's clock.
    pub time: TimeHandler,
    /// Window end reached by the last `advance` and not yet exchanged.
    pub at_window_end: bool,
    /// Iterations, convergence and checkpoints (implicit schemes only).
    pub implicit: Option<Implicit>,
    /// An explicit scheme waiting while this participant's implicit scheme repeats a window.
    pub held: bool,
    /// The last window-end exchange accepted the window.
    pub accepted: bool,
}

fn protocol_error(msg: String) -> CouplingError {
    CouplingError::protocol(format!("protocol error: {msg}"))
}

impl CouplingScheme {
    /// Builds scheme `index` for participant `me` from its declaration.
    pub fn new(index: usize, decl: &CouplingSchemeDecl, me: &str) -> Result<CouplingScheme> {
        let ex = |e: &tidelink_precice_config::ExchangeDecl| Exchange {
            key: DataKey::new(&e.mesh, &e.data),
            initialize: e.initialize,
            substeps: e.substeps,
        };
        let link = |partner: &str| Link {
            partner_name: partner.to_string(),
            partner: usize::MAX,
            send: decl.exchanges.iter().filter(|e| e.from == me && e.to == partner).map(ex).collect(),
            receive: decl.exchanges.iter().filter(|e| e.to == me && e.from == partner).map(ex).collect(),
        };
        let (role, links) = if decl.kind == SchemeKind::Multi {
            let controller = decl.multi_participants.iter().find(|(_, c)| *c).map(|(n, _)| n.as_str()).unwrap_or("");
            if let Some(e) = decl.exchanges.iter().find(|e| e.from != controller && e.to != controller) {
                return Err(CouplingError::config(format!(
                    "{}: the exchange of \"{}\" from \"{}\" to \"{}\" bypasses the controller \"{controller}\" of the multi \
                     coupling scheme; the native engine exchanges data of a multi scheme only with its controller. Route \
                     the data through the controller, or run with the precice backend.",
                    e.loc, e.data, e.from, e.to
                )));
            }
            if me == controller {
                let links = decl
                    .multi_participants
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .filter(|n| *n != me)
                    .map(link)
                    .filter(|l| !l.send.is_empty() || !l.receive.is_empty())
                    .collect();
                (Role::Second, links)
            } else {
                (Role::First, vec![link(controller)])
            }
        } else if decl.first == me {
            (Role::First, vec![link(&decl.second)])
        } else {
            (Role::Second, vec![link(&decl.first)])
        };
        let (window, fp) = match decl.time_window_size {
            TimeWindowSize::Fixed(w) => (Some(w), false),
            TimeWindowSize::FirstParticipant => (None, true),
        };
        let implicit = if decl.kind.is_implicit() { Some(Implicit::new(decl, role == Role::Second)?) } else { None };
        Ok(CouplingScheme {
            index: index as u32,
            kind: decl.kind,
            role,
            links,
            first_participant_method: fp,
            time: TimeHandler::new(window, decl.max_time, decl.max_time_windows),
            at_window_end: false,
            implicit,
            held: false,
            accepted: false,
        })
    }

    fn serial(&self) -> bool {
        self.kind.is_serial()
    }

    /// True for implicit schemes (serial, parallel or multi).
    pub fn is_implicit(&self) -> bool {
        self.implicit.is_some()
    }

    /// The first participant of a first-participant scheme defines the windows by its steps
    /// (in an implicit scheme only in a window's first iteration; later ones repeat it).
    pub fn defines_windows(&self) -> bool {
        self.first_participant_method
            && self.role == Role::First
            && self.implicit.as_ref().is_none_or(|i| i.iteration == 1)
    }

    /// Largest step this scheme allows now.
    pub fn max_step(&self) -> f64 {
        if self.defines_windows() {
            self.time.until_max_time()
        } else {
            self.time.until_window_end()
        }
    }

    /// True until the scheme's end condition is met.
    pub fn is_ongoing(&self) -> bool {
        self.time.is_ongoing()
    }

    /// Whether this participant sends initial data in any direction of this scheme.
    pub fn sends_initial_data(&self) -> bool {
        self.links.iter().any(|l| l.send.iter().any(|e| e.initialize))
    }

    /// Adds a step; records whether the window end was reached.
    pub fn advance(&mut self, dt: f64) {
        let end = self.time.advance(dt);
        self.at_window_end = end || self.defines_windows();
    }

    fn items(&self, l: usize, store: &mut DataStore, initial: bool) -> Result<Vec<DataItem>> {
        let (from, to) = if initial { (0.0, 0.0) } else { (self.time.window_start(), self.time.time()) };
        self.links[l].send.iter().map(|e| store.outgoing(&e.key, from, to, e.substeps && !initial)).collect()
    }

    fn frame(&self, items: Vec<DataItem>, window: u64, initial: bool, converged: Option<bool>) -> Frame {
        let window_size = (self.first_participant_method && self.role == Role::First && !initial)
            .then(|| self.time.window_size().unwrap_or(self.time.progress()));
        Frame::Data(DataFrame { scheme: self.index, window, window_size, converged, items })
    }

    fn send(&self, l: usize, m2n: &mut M2n, store: &mut DataStore, converged: Option<bool>) -> Result<()> {
        let items = self.items(l, store, false)?;
        let f = self.frame(items, self.time.window(), false, converged);
        m2n.send(self.links[l].partner, &f)
    }

    fn expect_data(&self, l: usize, m2n: &mut M2n) -> Result<DataFrame> {
        let link = &self.links[l];
        match m2n.recv(link.partner)? {
            Frame::Data(d) if d.scheme == self.index && d.items.len() == link.receive.len() => Ok(d),
            other => Err(protocol_error(format!(
                "expected the data of coupling scheme {} from participant \"{}\", got {}",
                self.index,
                link.partner_name,
                match other {
                    Frame::Data(_) => "data of another scheme or shape",
                    Frame::Mesh { .. } => "a mesh",
                    _ => "another message",
                }
            ))),
        }
    }

    fn store(&self, l: usize, store: &mut DataStore, items: Vec<DataItem>, end_time: f64) -> Result<()> {
        for (e, item) in self.links[l].receive.iter().zip(items) {
            store.incoming(&e.key, item, end_time, e.substeps)?;
        }
        Ok(())
    }

    /// Initialization, phase 1: send initial data (buffered sends never block the other phase).
    pub fn initialize_send(&mut self, m2n: &mut M2n, store: &mut DataStore) -> Result<()> {
        for l in 0..self.links.len() {
            if self.links[l].send.iter().any(|e| e.initialize) {
                let items = self.items(l, store, true)?;
                let f = self.frame(items, 0, true, None);
                m2n.send(self.links[l].partner, &f)?;
            }
        }
        Ok(())
    }

    /// Initialization, phase 2: receive initial data; the serial second participant also
    /// waits for the first participant's whole first window.
    pub fn initialize_receive(&mut self, m2n: &mut M2n, store: &mut DataStore) -> Result<()> {
        for l in 0..self.links.len() {
            for e in &self.links[l].receive {
                store.zero_initial(&e.key)?;
            }
            if self.links[l].receive.iter().any(|e| e.initialize) {
                let d = self.expect_data(l, m2n)?;
                for (e, item) in self.links[l].receive.iter().zip(d.items) {
                    store.check_item(&e.key, &item)?;
                    let gradients = item.gradients.into_iter().next().unwrap_or_default();
                    if let Some(v) = item.values.into_iter().next() {
                        store.set_initial(&e.key, v, gradients)?;
                    }
                }
            }
        }
        self.remember_initial_values(store)?;
        if self.serial() && self.role == Role::Second {
            self.receive_window(m2n, store)?;
        }
        Ok(())
    }

    /// The measuring participant measures (and accelerates) window 1 against the values
    /// before it: its own initial data for what it sends (zero when it wrote none), and zero
    /// for what it receives, even when the partner sent initial data — preCICE stores this
    /// "previous iteration" before the initial exchange (coupling-semantics.md §11.3).
    fn remember_initial_values(&mut self, store: &mut DataStore) -> Result<()> {
        let Some(imp) = self.implicit.as_mut().filter(|i| i.measuring) else { return Ok(()) };
        for (l, link) in self.links.iter().enumerate() {
            for (k, e) in link.send.iter().enumerate() {
                let item = store.outgoing(&e.key, 0.0, 0.0, true)?;
                let g = item.gradients.into_iter().next().unwrap_or_else(|| vec![0.0; store.gradient_len(&e.key)]);
                let v = item.values.into_iter().next().unwrap_or_else(|| vec![0.0; store.sample_len(&e.key)]);
                imp.set_initial(SlotId::sent(l, k), store.degree(&e.key), v, g);
            }
            for (k, e) in link.receive.iter().enumerate() {
                let (v, g) = (vec![0.0; store.sample_len(&e.key)], vec![0.0; store.gradient_len(&e.key)]);
                imp.set_initial(SlotId::received(l, k), store.degree(&e.key), v, g);
            }
        }
        Ok(())
    }

    /// Serial second participant: receive the first participant's data of the current window.
    fn receive_window(&mut self, m2n: &mut M2n, store: &mut DataStore) -> Result<()> {
        let d = self.expect_data(0, m2n)?;
        if self.first_participant_method {
            match d.window_size {
                Some(w) => self.time.set_window_size(w),
                None => return Err(protocol_error("first-participant window size missing".into())),
            }
        }
        let end = self.time.window_end_time();
        self.store(0, store, d.items, end)
    }

    fn move_to_next_window(&mut self, store: &mut DataStore) -> Result<()> {
        let ongoing_before = self.time.window();
        self.time.complete_window();
        if self.first_participant_method && self.role == Role::First {
            self.time.clear_window_size();
        }
        self.at_window_end = false;
        self.accepted = true;
        for l in &self.links {
            for e in &l.receive {
                store.move_to_next_window(&e.key)?;
            }
        }
        let ongoing = self.time.is_ongoing();
        if let Some(imp) = &mut self.implicit {
            imp.accepted(ongoing_before, ongoing);
        }
        Ok(())
    }

    /// A non-converged implicit window: time back to the window start, iterate again.
    fn repeat_window(&mut self, store: &mut DataStore) {
        // A first participant that defines the windows repeats the size of the first iteration.
        if self.first_participant_method && self.role == Role::First && self.time.window_size().is_none() {
            self.time.set_window_size(self.time.progress());
        }
        self.time.reset_progress();
        self.at_window_end = false;
        self.accepted = false;
        store.trim_write_after(self.time.window_start());
        if let Some(imp) = &mut self.implicit {
            imp.repeated();
        }
    }

    /// At a window end, phase 1. Explicit: send this window's data. Implicit: the first
    /// participant sends; the measuring one (after receiving, in parallel schemes) decides,
    /// accelerates and sends the decision with its data. Returns whether the window is
    /// accepted when this participant knows it already.
    pub fn first_exchange(&mut self, m2n: &mut M2n, store: &mut DataStore) -> Result<Option<bool>> {
        if !self.is_implicit() {
            self.send(0, m2n, store, None)?;
            if self.serial() && self.role == Role::Second {
                self.move_to_next_window(store)?;
            }
            return Ok(None);
        }
        if self.role == Role::First {
            self.send(0, m2n, store, None)?;
            return Ok(None);
        }
        let converged = self.decide_and_send(m2n, store)?;
        if converged {
            self.move_to_next_window(store)?;
        } else {
            self.repeat_window(store);
        }
        Ok(Some(converged))
    }

    /// At a window end, phase 2: receive what the partner sends and move on (or repeat).
    pub fn second_exchange(&mut self, m2n: &mut M2n, store: &mut DataStore) -> Result<()> {
        // The measuring side of a parallel implicit scheme received in phase 1 already.
        if self.role == Role::Second && (self.serial() || self.is_implicit()) {
            // Serial: the first participant's next window (or the same one again).
            if self.serial() && (self.time.is_ongoing() || !self.accepted) {
                self.receive_window(m2n, store)?;
            }
            return Ok(());
        }
        let d = self.expect_data(0, m2n)?;
        let now = self.time.time();
        let converged = d.converged;
        self.store(0, store, d.items, now)?;
        match (self.is_implicit(), converged) {
            (false, _) => self.move_to_next_window(store),
            (true, Some(true)) => self.move_to_next_window(store),
            (true, Some(false)) => {
                self.repeat_window(store);
                Ok(())
            }
            (true, None) => Err(protocol_error(format!(
                "participant \"{}\" sent no convergence decision for implicit coupling scheme {}",
                self.links[0].partner_name, self.index
            ))),
        }
    }

    /// The measuring participant's window end: gather every datum of the window, decide,
    /// accelerate, send the decision and data to every partner, store what it received.
    fn decide_and_send(&mut self, m2n: &mut M2n, store: &mut DataStore) -> Result<bool> {
        let start = self.time.window_start();
        let end = self.time.time();
        let parallel = !self.serial();
        let mut received: Vec<Vec<DataItem>> = Vec::new();
        if parallel {
            for l in 0..self.links.len() {
                received.push(self.expect_data(l, m2n)?.items);
            }
        }
        let mut slots = Vec::new();
        for (l, link) in self.links.iter().enumerate() {
            let sent = self.items(l, store, false)?;
            for (k, (e, mut item)) in link.send.iter().zip(sent).enumerate() {
                if !e.substeps {
                    item.times = vec![end];
                }
                let degree = store.degree(&e.key);
                slots.push(Slot { id: SlotId::sent(l, k), key: e.key.clone(), item, accelerate: true, degree });
            }
            for (k, e) in link.receive.iter().enumerate() {
                let mut item = if parallel {
                    received[l][k].clone()
                } else {
                    let w = store.waveform(&e.key);
                    let (times, values) = w.samples_between(start, end).into_iter().unzip();
                    let gradients =
                        if store.gradient_len(&e.key) > 0 { w.gradients_between(start, end) } else { vec![] };
                    DataItem { times, values, gradients }
                };
                if !e.substeps {
                    item.keep_last_at(end);
                }
                let degree = store.degree(&e.key);
                slots.push(Slot { id: SlotId::received(l, k), key: e.key.clone(), item, accelerate: parallel, degree });
            }
        }
        let window = self.time.window();
        let imp = self.implicit.as_mut().expect("implicit scheme");
        let converged = imp.decide(window, start, end, &mut slots)?;
        let mut slots = slots.into_iter();
        let mut to_store: Vec<Vec<DataItem>> = Vec::new();
        for l in 0..self.links.len() {
            let n_send = self.links[l].send.len();
            let n_recv = self.links[l].receive.len();
            let items: Vec<DataItem> = slots.by_ref().take(n_send).map(|s| s.item).collect();
            let f = self.frame(items, window, false, Some(converged));
            m2n.send(self.links[l].partner, &f)?;
            to_store.push(slots.by_ref().take(n_recv).map(|s| s.item).collect());
        }
        if parallel {
            for (l, items) in to_store.into_iter().enumerate() {
                self.store(l, store, items, end)?;
            }
        }
        Ok(converged)
    }

    /// True when `other`'s windows end only where this scheme's do (multiples of its size).
    pub fn windows_align_with(&self, other: &CouplingScheme) -> bool {
        match (self.time.window_size(), other.time.window_size()) {
            (Some(mine), Some(theirs)) => {
                let k = (theirs / mine).round();
                k >= 1.0 && (theirs - k * mine).abs() <= 1e3 * EPS * theirs.max(1.0)
            }
            _ => false,
        }
    }
}
