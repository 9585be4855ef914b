//! Explicit bi-coupling schemes: serial (first runs, then second) and parallel (both at
//! once), with the exchange order and read visibility of docs/design/coupling-semantics.md §5.2–5.3. The state
//! machine keeps room for implicit schemes (checkpoint requests, iterations), which a
//! later change adds (§11 there).

use super::super::data::{DataStore, Key};
use super::super::m2n::wire::{DataFrame, Frame};
use super::super::m2n::M2n;
use super::super::time::TimeHandler;
use crate::config::{CouplingSchemeDecl, SchemeKind, TimeWindowSize};
use crate::coupling::{CouplingError, Result};

/// This participant's place in a bi-scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    First,
    Second,
}

/// One `<exchange>` seen from this participant.
#[derive(Debug, Clone)]
pub struct Exchange {
    pub key: Key,
    pub initialize: bool,
    pub substeps: bool,
}

/// One bi-scheme between this participant and one partner.
pub struct BiScheme {
    pub index: u32,
    pub kind: SchemeKind,
    pub role: Role,
    pub partner_name: String,
    /// m2n index of the partner, set when connected.
    pub partner: usize,
    pub first_participant_method: bool,
    pub time: TimeHandler,
    pub send: Vec<Exchange>,
    pub receive: Vec<Exchange>,
    /// Window end reached by the last `advance` and not yet exchanged.
    pub at_window_end: bool,
}

impl BiScheme {
    /// Builds the scheme for participant `me` from its declaration (explicit kinds only).
    pub fn new(index: usize, decl: &CouplingSchemeDecl, me: &str) -> Result<BiScheme> {
        if decl.kind.is_implicit() {
            return Err(CouplingError::new(format!(
                "{}: coupling-scheme:{} is not supported yet by the native engine (implicit coupling comes with a \
                 later release). Use serial-explicit or parallel-explicit, or run with the precice backend.",
                decl.loc,
                decl.kind.tag()
            )));
        }
        let role = if decl.first == me { Role::First } else { Role::Second };
        let partner_name = if role == Role::First { decl.second.clone() } else { decl.first.clone() };
        let ex = |e: &crate::config::ExchangeDecl| Exchange {
            key: (e.mesh.clone(), e.data.clone()),
            initialize: e.initialize,
            substeps: e.substeps,
        };
        let send = decl.exchanges.iter().filter(|e| e.from == me).map(ex).collect();
        let receive = decl.exchanges.iter().filter(|e| e.to == me).map(ex).collect();
        let (window, fp) = match decl.time_window_size {
            TimeWindowSize::Fixed(w) => (Some(w), false),
            TimeWindowSize::FirstParticipant => (None, true),
        };
        Ok(BiScheme {
            index: index as u32,
            kind: decl.kind,
            role,
            partner_name,
            partner: usize::MAX,
            first_participant_method: fp,
            time: TimeHandler::new(window, decl.max_time, decl.max_time_windows),
            send,
            receive,
            at_window_end: false,
        })
    }

    fn serial(&self) -> bool {
        self.kind.is_serial()
    }

    /// The first participant of a first-participant scheme defines the windows by its steps.
    pub fn defines_windows(&self) -> bool {
        self.first_participant_method && self.role == Role::First
    }

    /// Largest step this scheme allows now.
    pub fn max_step(&self) -> f64 {
        if self.defines_windows() {
            self.time.until_max_time()
        } else {
            self.time.until_window_end()
        }
    }

    pub fn is_ongoing(&self) -> bool {
        self.time.is_ongoing()
    }

    pub fn sends_initial_data(&self) -> bool {
        self.send.iter().any(|e| e.initialize)
    }

    fn receives_initial_data(&self) -> bool {
        self.receive.iter().any(|e| e.initialize)
    }

    /// Adds a step; records whether the window end was reached.
    pub fn advance(&mut self, dt: f64) {
        let end = self.time.advance(dt);
        self.at_window_end = end || self.defines_windows();
    }

    fn frame(&self, store: &mut DataStore, window: u64, initial: bool) -> Result<Frame> {
        let (from, to) = if initial { (0.0, 0.0) } else { (self.time.window_start(), self.time.time()) };
        let items = self
            .send
            .iter()
            .map(|e| store.outgoing(&e.key, from, to, e.substeps && !initial))
            .collect::<Result<_>>()?;
        let window_size = (self.defines_windows() && !initial).then(|| self.time.progress());
        Ok(Frame::Data(DataFrame { scheme: self.index, window, window_size, items }))
    }

    fn expect_data(&self, m2n: &mut M2n) -> Result<DataFrame> {
        match m2n.recv(self.partner)? {
            Frame::Data(d) if d.scheme == self.index && d.items.len() == self.receive.len() => Ok(d),
            other => Err(CouplingError::new(format!(
                "protocol error: expected the data of coupling scheme {} from participant \"{}\", got {}",
                self.index,
                self.partner_name,
                match other {
                    Frame::Data(_) => "data of another scheme or shape",
                    Frame::Mesh { .. } => "a mesh",
                    _ => "another message",
                }
            ))),
        }
    }

    fn store(&self, store: &mut DataStore, d: DataFrame, end_time: f64) -> Result<()> {
        for (e, item) in self.receive.iter().zip(d.items) {
            store.incoming(&e.key, item, end_time, e.substeps)?;
        }
        Ok(())
    }

    /// Initialization, phase 1: send initial data (buffered sends never block the other phase).
    pub fn initialize_send(&mut self, m2n: &mut M2n, store: &mut DataStore) -> Result<()> {
        if self.sends_initial_data() {
            let f = self.frame(store, 0, true)?;
            m2n.send(self.partner, &f)?;
        }
        Ok(())
    }

    /// Initialization, phase 2: receive initial data; the serial second participant also
    /// waits for the first participant's whole first window.
    pub fn initialize_receive(&mut self, m2n: &mut M2n, store: &mut DataStore) -> Result<()> {
        for e in &self.receive {
            store.zero_initial(&e.key)?;
        }
        if self.receives_initial_data() {
            let d = self.expect_data(m2n)?;
            for (e, item) in self.receive.iter().zip(d.items) {
                if let Some(v) = item.values.into_iter().next() {
                    store.set_initial(&e.key, v)?;
                }
            }
        }
        if self.serial() && self.role == Role::Second {
            self.receive_next_window(m2n, store)?;
        }
        Ok(())
    }

    fn receive_next_window(&mut self, m2n: &mut M2n, store: &mut DataStore) -> Result<()> {
        let d = self.expect_data(m2n)?;
        if self.first_participant_method {
            match d.window_size {
                Some(w) => self.time.set_window_size(w),
                None => return Err(CouplingError::new("protocol error: first-participant window size missing")),
            }
        }
        let end = self.time.window_end_time();
        self.store(store, d, end)
    }

    fn complete_window(&mut self, store: &mut DataStore) -> Result<()> {
        self.time.complete_window();
        self.at_window_end = false;
        for e in &self.receive {
            store.move_to_next_window(&e.key)?;
        }
        Ok(())
    }

    /// At a window end, exchange part 1: send this window's data.
    pub fn first_exchange(&mut self, m2n: &mut M2n, store: &mut DataStore) -> Result<()> {
        let f = self.frame(store, self.time.window(), false)?;
        m2n.send(self.partner, &f)?;
        if self.serial() && self.role == Role::Second {
            self.complete_window(store)?;
        }
        Ok(())
    }

    /// At a window end, exchange part 2: receive the partner's data and move on.
    pub fn second_exchange(&mut self, m2n: &mut M2n, store: &mut DataStore) -> Result<()> {
        if self.serial() && self.role == Role::Second {
            if self.time.is_ongoing() {
                self.receive_next_window(m2n, store)?;
            }
            return Ok(());
        }
        let d = self.expect_data(m2n)?;
        let now = self.time.time();
        self.store(store, d, now)?;
        self.complete_window(store)
    }
}
