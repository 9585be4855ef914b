//! `NativeParticipant`: the preCICE v3 participant API over the native engine — the
//! state machine (Constructed → Initialized → Finalized), the API-misuse checks of
//! docs/design/coupling-semantics.md §2.12, and the orchestration of m2n, data and schemes.

use super::cplscheme::{CouplingScheme, Role};
use super::data::{DataState, DataStore, Key, MappingRun, MeshState};
use super::m2n::wire::Frame;
use super::m2n::M2n;
use super::settings::Settings;
use super::time::{Waveform, EPS};
use super::unsupported;
use crate::{Coupling, CouplingData, CouplingError, Result, VertexId};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tidelink_precice_config::diagnostics::{nearest, Diagnostic, Diagnostics, Location};
use tidelink_precice_config::{self as config, MappingDirection, PreciceConfig};

/// Direction of a data access, for the shared checks.
#[derive(Debug, Clone, Copy)]
enum Access {
    Read,
    Write,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Constructed,
    Initialized,
    Finalized,
}

/// One participant of a coupled run, talking to its partners over TCP.
pub struct NativeParticipant {
    name: String,
    cfg: PreciceConfig,
    state: State,
    store: DataStore,
    read_keys: Vec<Key>,
    write_keys: Vec<Key>,
    schemes: Vec<CouplingScheme>,
    /// Index of the one implicit scheme, if any.
    implicit: Option<usize>,
    m2n: Option<M2n>,
    /// Where the iteration and convergence logs go (the working directory, as in preCICE).
    log_dir: PathBuf,
    initial_data_queried: bool,
    window_complete: bool,
    /// The run identity and the waits, from the program that opened it.
    settings: Settings,
}

fn err<T>(msg: impl Into<String>) -> Result<T> {
    Err(CouplingError::new(msg))
}

impl NativeParticipant {
    /// Parses and validates the configuration and prepares participant `name`, with the default
    /// [`Settings`] (no run identity: a participant started by hand).
    pub fn new(name: &str, config_path: &Path) -> Result<NativeParticipant> {
        Self::with_settings(name, config_path, Settings::default())
    }

    /// As [`NativeParticipant::new`], with the run identity and waits of `settings`.
    pub fn with_settings(name: &str, config_path: &Path, settings: Settings) -> Result<NativeParticipant> {
        if name.is_empty() {
            return err("This participant's name is an empty string. Give the participant the name of a <participant> in the preCICE configuration.");
        }
        if !config_path.exists() {
            return err(format!("unable to open configuration file \"{}\"", config_path.display()));
        }
        let (cfg, warnings) = config::load(config_path).map_err(|d| CouplingError::new(d.to_string()))?;
        if settings.log_config_warnings {
            warnings.log_warnings();
        }
        #[allow(unused_mut)]
        let mut p = Self::from_config_with(name, cfg, settings)?;
        #[cfg(feature = "testing")]
        if let Some(dir) = crate::testing::thread_log_directory() {
            p.log_dir = dir;
        }
        Ok(p)
    }

    /// Prepares participant `name` from an already loaded configuration; refuses, with every
    /// reason at its tag, what the native engine does not run (see [`check`]), and logs what
    /// it accepts without carrying out.
    pub fn from_config(name: &str, cfg: PreciceConfig) -> Result<NativeParticipant> {
        Self::from_config_with(name, cfg, Settings::default())
    }

    /// As [`NativeParticipant::from_config`], with `settings`.
    pub fn from_config_with(name: &str, cfg: PreciceConfig, settings: Settings) -> Result<NativeParticipant> {
        let findings = unsupported::findings(&cfg, name);
        if settings.log_config_warnings {
            findings.log_warnings();
        }
        let mut refused: Vec<String> = findings.errors().map(|d| format!("{}: {}", d.location, d.message)).collect();
        match Self::build(name, cfg, settings) {
            Ok(p) if refused.is_empty() => Ok(p),
            Ok(_) => err(refused.join("\n")),
            Err(e) => {
                refused.push(e.message);
                err(refused.join("\n"))
            }
        }
    }

    /// The construction proper: schemes, data store and data flow (the first error only).
    fn build(name: &str, cfg: PreciceConfig, settings: Settings) -> Result<NativeParticipant> {
        let Some(me) = cfg.participant(name) else {
            let names: Vec<&str> = cfg.participants.iter().map(|p| p.name.as_str()).collect();
            let hint = nearest(name, names.iter().copied())
                .map(|n| format!(" Did you mean \"{n}\"?"))
                .unwrap_or_else(|| format!(" Participants are: {}.", names.join(", ")));
            return err(format!(
                "This participant's name, \"{name}\", is not defined in the preCICE configuration \"{}\".{hint}",
                cfg.path.display()
            ));
        };
        if cfg.participants.len() < 2 {
            return err(format!(
                "{}: In the preCICE configuration \"{}\" only one participant is defined. One participant makes no coupled simulation.",
                me.loc,
                cfg.path.display()
            ));
        }
        let mut schemes = Vec::new();
        for (i, s) in cfg.schemes.iter().enumerate().filter(|(_, s)| s.involves(name)) {
            schemes.push(CouplingScheme::new(i, s, name)?);
        }
        let implicit = schemes.iter().position(CouplingScheme::is_implicit);
        if let Some(i) = implicit {
            check_composition(&cfg, &schemes, i, name)?;
        }
        if schemes.is_empty() {
            return err(format!(
                "{}: No coupling scheme defined for participant \"{name}\" in \"{}\".",
                me.loc,
                cfg.path.display()
            ));
        }

        let mut store = DataStore::default();
        for pm in &me.provide_meshes {
            let dim = cfg.mesh(&pm.name).map_or(3, |m| m.dimensions);
            store
                .meshes
                .insert(pm.name.clone(), MeshState { dim, provided: true, coords: Vec::new(), received: false });
        }
        for rm in &me.receive_meshes {
            let dim = cfg.mesh(&rm.name).map_or(3, |m| m.dimensions);
            store
                .meshes
                .insert(rm.name.clone(), MeshState { dim, provided: false, coords: Vec::new(), received: false });
        }
        let add = |store: &mut DataStore, key: &Key, write: bool| {
            let components = cfg.data_dimensions(&key.0, &key.1).unwrap_or(1);
            let degree = cfg.data(&key.1).map_or(1, |d| d.waveform_degree);
            let entry = store.data.entry(key.clone()).or_insert_with(|| DataState {
                components,
                waveform: Waveform::new(degree),
                write_buffer: None,
            });
            if write {
                entry.write_buffer = Some(Vec::new());
            }
        };
        let write_keys: Vec<Key> = me.write_data.iter().map(|d| (d.mesh.clone(), d.name.clone())).collect();
        let read_keys: Vec<Key> = me.read_data.iter().map(|d| (d.mesh.clone(), d.name.clone())).collect();
        for k in &write_keys {
            add(&mut store, k, true);
        }
        for k in &read_keys {
            add(&mut store, k, false);
        }
        for s in &schemes {
            for e in s.links.iter().flat_map(|l| l.send.iter().chain(&l.receive)) {
                add(&mut store, &e.key, false);
            }
        }

        // Data flow of every exchange: where the sent samples come from, where received ones go.
        for s in &schemes {
            for e in s.links.iter().flat_map(|l| &l.send) {
                let (mesh, data) = &e.key;
                if me.provides(mesh) {
                    if !write_keys.contains(&e.key) {
                        return err(format!(
                            "{}: participant \"{name}\" sends data \"{data}\" on mesh \"{mesh}\" but does not write it: add <write-data name=\"{data}\" mesh=\"{mesh}\"/>.",
                            me.loc
                        ));
                    }
                    continue;
                }
                let found = me.mappings.iter().find(|m| {
                    m.direction == MappingDirection::Write
                        && m.to == *mesh
                        && write_keys.contains(&(m.from.clone(), data.clone()))
                });
                let Some(m) = found else {
                    return err(format!(
                        "{}: participant \"{name}\" sends data \"{data}\" on the received mesh \"{mesh}\" but no write mapping brings it there: the data \"{data}\" doesn't contain any samples. Add a <mapping:nearest-neighbor direction=\"write\" from=\"<your mesh>\" to=\"{mesh}\" .../> and a <write-data> on your mesh.",
                        me.loc
                    ));
                };
                let i = store.add_mapping(MappingRun::new(&m.from, &m.to, m.constraint));
                store.add_write_map(e.key.clone(), (m.from.clone(), data.clone()), i);
            }
            for e in s.links.iter().flat_map(|l| &l.receive) {
                let (mesh, data) = &e.key;
                if me.provides(mesh) {
                    continue;
                }
                for m in me.mappings.iter().filter(|m| {
                    m.direction == MappingDirection::Read
                        && m.from == *mesh
                        && read_keys.contains(&(m.to.clone(), data.clone()))
                }) {
                    let i = store.add_mapping(MappingRun::new(&m.from, &m.to, m.constraint));
                    store.add_read_map(e.key.clone(), (m.to.clone(), data.clone()), i);
                }
            }
        }
        Ok(NativeParticipant {
            name: name.to_string(),
            cfg,
            state: State::Constructed,
            store,
            read_keys,
            write_keys,
            schemes,
            implicit,
            m2n: None,
            log_dir: PathBuf::from("."),
            initial_data_queried: false,
            window_complete: false,
            settings,
        })
    }

    /// How long `initialize` waits for partners (default: [`Settings::handshake_timeout`]).
    pub fn set_handshake_timeout(&mut self, timeout: Duration) {
        self.settings.handshake_timeout = timeout;
    }

    /// The run this participant belongs to (default: [`Settings::run_id`]; `tidelink run` gives
    /// every participant it starts one; none when started by hand). It pairs only with partners of the same run; call
    /// before `initialize`.
    pub fn set_run_id(&mut self, run: Option<&str>) {
        self.settings.run_id = run.map(str::to_string);
    }

    /// Where `precice-<name>-iterations.log` and `-convergence.log` are written (default:
    /// the working directory, as preCICE does); call before `initialize`.
    pub fn set_log_directory(&mut self, dir: &Path) {
        self.log_dir = dir.to_path_buf();
    }

    /// Tells the partners this participant failed, with `reason`, before it goes away.
    pub fn abort(&mut self, reason: &str) {
        if let Some(m) = &mut self.m2n {
            m.abort(reason);
        }
        self.m2n = None;
        self.state = State::Finalized;
    }

    fn mesh_error(&self, mesh: &str) -> CouplingError {
        let names: Vec<&str> = self.store.meshes.keys().map(String::as_str).collect();
        let hint = if names.len() == 1 {
            format!(" This participant only knows mesh \"{}\".", names[0])
        } else if let Some(n) = nearest(mesh, names.iter().copied()) {
            format!(" Did you mean mesh \"{n}\"?")
        } else {
            format!(" Available meshes are: {}", names.join(", "))
        };
        CouplingError::new(format!("The mesh named \"{mesh}\" is unknown to preCICE.{hint}"))
    }

    fn mesh(&self, mesh: &str) -> Result<&MeshState> {
        self.store.meshes.get(mesh).ok_or_else(|| self.mesh_error(mesh))
    }

    fn data_error(&self, mesh: &str, data: &str) -> CouplingError {
        let names: Vec<&str> = self.store.data.keys().filter(|(m, _)| m == mesh).map(|(_, d)| d.as_str()).collect();
        let hint = if names.len() == 1 {
            format!(" This mesh only knows data \"{}\".", names[0])
        } else if let Some(n) = nearest(data, names.iter().copied()) {
            format!(" Did you mean data \"{n}\"?")
        } else {
            format!(" Available data are: {}", names.join(", "))
        };
        CouplingError::new(format!("The given data \"{data}\" is unknown to preCICE mesh \"{mesh}\".{hint}"))
    }

    /// The participant's time: the implicit scheme's (it may jump back), else the first ongoing scheme's.
    fn time(&self) -> f64 {
        if let Some(i) = self.implicit {
            return self.schemes[i].time.time();
        }
        self.schemes.iter().find(|s| s.is_ongoing()).unwrap_or(&self.schemes[0]).time.time()
    }

    /// The implicit scheme decides when coupling ends; without one, any ongoing scheme keeps it going.
    fn ongoing(&self) -> bool {
        match self.implicit {
            Some(i) => self.schemes[i].is_ongoing(),
            None => self.schemes.iter().any(CouplingScheme::is_ongoing),
        }
    }

    fn require_initialized(&self, call: &str) -> Result<()> {
        match self.state {
            State::Constructed => err(format!("initialize() has to be called before {call}")),
            State::Finalized => err(format!("{call} cannot be called after finalize()")),
            State::Initialized => Ok(()),
        }
    }

    fn check_ids(&self, mesh: &str, ids: &[VertexId], what: &str) -> Result<()> {
        let n = self.mesh(mesh)?.vertex_count();
        if let Some(i) = ids.iter().position(|&id| id < 0 || id as usize >= n) {
            return err(format!(
                "Cannot {what} data on mesh \"{mesh}\" due to invalid Vertex ID at vertices[{i}] (id {}; the mesh has {n} vertices).",
                ids[i]
            ));
        }
        Ok(())
    }

    /// The checks shared by readData and writeData (coupling-semantics.md §2.8–2.9): the mesh and datum are
    /// known and configured for this direction, sizes match, ids are valid. `None` for the
    /// empty no-op call; otherwise the datum's key and component count.
    fn check_access(
        &self,
        access: Access,
        mesh: &str,
        data: &str,
        ids: &[VertexId],
        n_values: usize,
    ) -> Result<Option<(Key, usize)>> {
        let (verb, prep, keys) = match access {
            Access::Read => ("read", "from", &self.read_keys),
            Access::Write => ("write", "to", &self.write_keys),
        };
        let key = (mesh.to_string(), data.to_string());
        self.mesh(mesh)?;
        if !keys.contains(&key) {
            if !self.store.data.contains_key(&key) {
                return Err(self.data_error(mesh, data));
            }
            return err(format!(
                "This participant does not use data \"{data}\" via mesh \"{mesh}\", but attempted to {verb} it. Please extend the configuration of participant \"{}\" by defining <{verb}-data mesh=\"{mesh}\" name=\"{data}\" />.",
                self.name
            ));
        }
        if ids.is_empty() && n_values == 0 {
            return Ok(None);
        }
        let c = self.store.data[&key].components;
        if n_values != ids.len() * c {
            return err(format!(
                "Input sizes are inconsistent attempting to {verb} {c}D data \"{data}\" {prep} mesh \"{mesh}\". You passed {} vertex indices and {n_values} data components, but we expected {} data components ({c} x {}).",
                ids.len(),
                ids.len() * c,
                ids.len()
            ));
        }
        self.check_ids(mesh, ids, verb)?;
        Ok(Some((key, c)))
    }

    fn exchange_meshes(&mut self) -> Result<()> {
        let m2n = self.m2n.as_mut().expect("connected");
        let me = self.cfg.participant(&self.name).expect("checked at construction");
        for pm in &me.provide_meshes {
            for other in &self.cfg.participants {
                if other.receive_meshes.iter().any(|r| r.name == pm.name && r.from == self.name) {
                    let mesh = &self.store.meshes[&pm.name];
                    if mesh.coords.is_empty() {
                        return err(format!(
                            "The provided mesh \"{}\" is empty: participant \"{}\" must set its vertices (set_mesh_vertices) before initialize().",
                            pm.name, self.name
                        ));
                    }
                    let to = m2n.partner(&other.name).ok_or_else(|| {
                        CouplingError::new(format!(
                            "There is no m2n communication configured between participants \"{}\" and \"{}\". Please add an appropriate \"<m2n />\" tag.",
                            self.name, other.name
                        ))
                    })?;
                    m2n.send(to, &Frame::Mesh { name: pm.name.clone(), coords: mesh.coords.clone() })?;
                }
            }
        }
        let mut received: Vec<_> = me.receive_meshes.iter().collect();
        received.sort_by(|a, b| a.name.cmp(&b.name));
        for rm in received {
            let from = m2n.partner(&rm.from).ok_or_else(|| {
                CouplingError::new(format!(
                    "There is no m2n communication configured between participants \"{}\" and \"{}\". Please add an appropriate \"<m2n />\" tag.",
                    self.name, rm.from
                ))
            })?;
            match m2n.recv(from)? {
                Frame::Mesh { name, coords } if name == rm.name => {
                    let mesh = self.store.meshes.get_mut(&rm.name).expect("registered");
                    if coords.len() % mesh.dim != 0 {
                        return err(format!(
                            "mesh \"{name}\" arrived with a coordinate count that is not a multiple of its dimension"
                        ));
                    }
                    mesh.coords = coords;
                    mesh.received = true;
                }
                _ => return err(format!("protocol error: expected mesh \"{}\" from \"{}\"", rm.name, rm.from)),
            }
        }
        Ok(())
    }
}

impl NativeParticipant {
    /// The window-end exchanges of one `advance` (coupling-semantics.md §11.6–§11.7): the
    /// implicit scheme first; explicit schemes only once it has accepted its window (so
    /// explicit partners see converged data only), sends before receives.
    fn exchange_at_window_ends(&mut self) -> Result<()> {
        let m2n = self.m2n.as_mut().expect("initialized");
        let store = &mut self.store;
        let mut implicit_second = None;
        let mut accepted = None;
        if let Some(i) = self.implicit.filter(|&i| self.schemes[i].at_window_end) {
            let s = &mut self.schemes[i];
            match s.first_exchange(m2n, store)? {
                Some(c) if c && s.role == Role::Second => {
                    implicit_second = Some(i);
                    accepted = Some(true);
                }
                Some(c) => {
                    s.second_exchange(m2n, store)?;
                    accepted = Some(c);
                }
                None => {
                    s.second_exchange(m2n, store)?;
                    accepted = Some(s.accepted);
                }
            }
        }
        match accepted {
            Some(false) => {
                for s in self.schemes.iter_mut().filter(|s| !s.is_implicit()) {
                    s.held = true;
                }
                return Ok(());
            }
            Some(true) => {
                for s in self.schemes.iter_mut() {
                    s.held = false;
                }
            }
            // A sub-step inside the implicit window: explicit schemes held at their window
            // end wait until the implicit scheme accepts its window.
            None => {}
        }
        let explicit: Vec<usize> = (0..self.schemes.len())
            .filter(|&i| Some(i) != self.implicit && self.schemes[i].at_window_end && !self.schemes[i].held)
            .collect();
        for &i in &explicit {
            self.schemes[i].first_exchange(m2n, store)?;
        }
        if let Some(i) = implicit_second {
            self.schemes[i].second_exchange(m2n, store)?;
        }
        for &i in &explicit {
            self.schemes[i].second_exchange(m2n, store)?;
        }
        Ok(())
    }
}

/// What the native engine says about participant `name` of `cfg` before it connects: every
/// feature it refuses and the first other error its construction stops on (errors, the same
/// words and location as [`NativeParticipant::from_config`] and a run), and the features it
/// accepts without carrying them out (warnings). Empty when a run would start cleanly.
pub fn check(cfg: &PreciceConfig, name: &str) -> Diagnostics {
    let mut d = unsupported::findings(cfg, name);
    if let Err(e) = NativeParticipant::build(name, cfg.clone(), Settings::default()) {
        d.push(located(cfg, &e.message));
    }
    d
}

/// An error message that starts with `<cfg.path>:<line>: ` as a diagnostic at that line (the
/// file as a whole otherwise).
fn located(cfg: &PreciceConfig, message: &str) -> Diagnostic {
    let prefix = format!("{}:", cfg.path.display());
    let at = message.strip_prefix(&prefix).and_then(|rest| {
        let (line, text) = rest.split_once(": ")?;
        Some((line.parse::<usize>().ok()?, text))
    });
    match at {
        Some((line, text)) => Diagnostic::error(Location::new(&cfg.path, line), text),
        None => Diagnostic::error(Location::new(&cfg.path, 0), message),
    }
}

/// The compositions the native engine runs with an implicit scheme: explicit windows that
/// end only where implicit ones do, and no first-participant windows among them.
fn check_composition(cfg: &PreciceConfig, schemes: &[CouplingScheme], implicit: usize, name: &str) -> Result<()> {
    let imp = &schemes[implicit];
    for s in schemes.iter().enumerate().filter(|(k, _)| *k != implicit).map(|(_, s)| s) {
        let decl = &cfg.schemes[s.index as usize];
        let fp = |s: &CouplingScheme| s.time.window_size().is_none();
        if fp(s) || fp(imp) || !imp.windows_align_with(s) {
            return Err(CouplingError::new(format!(
                "{}: participant \"{name}\" couples explicitly here and implicitly in the <coupling-scheme:{}> at line {}; \
                 the native engine needs the explicit time-window-size to be a whole multiple of the implicit one, and \
                 neither may use method=\"first-participant\". Adjust the window sizes, or run with the precice backend.",
                decl.loc,
                cfg.schemes[imp.index as usize].kind.tag(),
                cfg.schemes[imp.index as usize].loc.line
            )));
        }
    }
    Ok(())
}

impl CouplingData for NativeParticipant {
    fn participant_name(&self) -> &str {
        &self.name
    }

    fn get_mesh_dimensions(&self, mesh: &str) -> Result<usize> {
        Ok(self.mesh(mesh)?.dim)
    }

    fn get_data_dimensions(&self, mesh: &str, data: &str) -> Result<usize> {
        self.mesh(mesh)?;
        self.store
            .data
            .get(&(mesh.to_string(), data.to_string()))
            .map(|d| d.components)
            .ok_or_else(|| self.data_error(mesh, data))
    }

    fn set_mesh_vertices(&mut self, mesh: &str, positions: &[f64], ids: &mut [VertexId]) -> Result<()> {
        let state = self.state;
        let name = self.name.clone();
        let m = self.mesh(mesh)?;
        if !m.provided {
            return err(format!("Participant \"{name}\" does not provide Mesh \"{mesh}\": vertices can only be set on provided meshes (<provide-mesh>)."));
        }
        if state != State::Constructed {
            return err(format!("Cannot set vertices on mesh \"{mesh}\" while locked. Mesh modification is only allowed before calling initialize()."));
        }
        if positions.len() != ids.len() * m.dim {
            return err(format!(
                "Cannot set vertices on mesh \"{mesh}\": You passed {} vertex indices and {} position components, but the mesh has dimension {}.",
                ids.len(),
                positions.len(),
                m.dim
            ));
        }
        if let Some(i) = positions.iter().position(|x| !x.is_finite()) {
            return err(format!("Cannot set vertices on mesh \"{mesh}\": position component {i} is {}.", positions[i]));
        }
        let m = self.store.meshes.get_mut(mesh).expect("checked");
        let first = m.vertex_count();
        m.coords.extend_from_slice(positions);
        for (k, id) in ids.iter_mut().enumerate() {
            *id = (first + k) as VertexId;
        }
        Ok(())
    }

    fn get_mesh_vertex_size(&self, mesh: &str) -> Result<usize> {
        let m = self.mesh(mesh)?;
        if !m.provided && self.state == State::Constructed {
            return err(format!(
                "initialize() has to be called before accessing data of the received mesh \"{mesh}\"."
            ));
        }
        Ok(m.vertex_count())
    }

    fn read_data(&mut self, mesh: &str, data: &str, ids: &[VertexId], rel: f64, values: &mut [f64]) -> Result<()> {
        self.require_initialized("readData(...)").map_err(|_| {
            CouplingError::new(match self.state {
                State::Constructed => "readData(...) cannot be called before initialize().".to_string(),
                _ => "readData(...) cannot be called after finalize().".to_string(),
            })
        })?;
        // After the end getMaxTimeStepSize() is 0, so the window check only applies while
        // ongoing; afterwards the dedicated "relativeReadTime = 0" error below fires.
        let max = self.get_max_time_step_size()?;
        if self.ongoing() && rel > max + EPS {
            return err(format!(
                "readData(...) for data \"{data}\" cannot sample data outside of current time window: relative read time {rel} exceeds the remaining {max}."
            ));
        }
        if rel < 0.0 {
            return err(format!("readData(...) for data \"{data}\" cannot sample data before the current time (relative read time {rel})."));
        }
        if !self.ongoing() && rel.abs() > EPS {
            return err("If coupling finished, only data for relativeReadTime = 0 is available. Please always use precice.getMaxTimeStepSize() to obtain the maximum allowed relativeReadTime.");
        }
        let Some((key, _)) = self.check_access(Access::Read, mesh, data, ids, values.len())? else {
            return Ok(());
        };
        let t = self.time() + rel;
        self.store.read(&key, t, ids, values).ok_or_else(|| {
            CouplingError::new(format!(
                "Data \"{data}\" cannot be read from mesh \"{mesh}\" as it contains no samples. This is typically a configuration issue of the data flow."
            ))
        })
    }

    fn write_data(&mut self, mesh: &str, data: &str, ids: &[VertexId], values: &[f64]) -> Result<()> {
        if self.state == State::Finalized {
            return err("writeData(...) cannot be called after finalize().");
        }
        if self.state == State::Initialized && !self.ongoing() {
            return err("Calling writeData(...) is forbidden if coupling is not ongoing, because the data you are trying to write will not be used anymore. You can fix this by always calling writeData(...) before the advance(...) call in your simulation loop or by using Participant::isCouplingOngoing() to implement a safeguard.");
        }
        let Some((key, c)) = self.check_access(Access::Write, mesh, data, ids, values.len())? else {
            return Ok(());
        };
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            let window = self.schemes.iter().map(|s| s.time.window()).min().unwrap_or(1);
            return err(format!(
                "participant \"{}\" wrote a non-finite value ({}) for data \"{data}\" on mesh \"{mesh}\" at vertex {} (component {}) in time window {window}: the solver has probably diverged.",
                self.name,
                values[i],
                ids[i / c],
                i % c
            ));
        }
        let n = self.store.meshes[&key.0].vertex_count();
        let d = self.store.data.get_mut(&key).expect("checked");
        let buf = d.write_buffer.as_mut().expect("write data has a buffer");
        if buf.len() != n * c {
            buf.resize(n * c, 0.0);
        }
        for (k, &id) in ids.iter().enumerate() {
            let id = id as usize;
            buf[id * c..(id + 1) * c].copy_from_slice(&values[k * c..(k + 1) * c]);
        }
        Ok(())
    }
}

impl Coupling for NativeParticipant {
    fn requires_initial_data(&mut self) -> Result<bool> {
        if self.state != State::Constructed {
            return err("requiresInitialData() has to be called before initialize().");
        }
        self.initial_data_queried = true;
        Ok(self.schemes.iter().any(CouplingScheme::sends_initial_data))
    }

    fn initialize(&mut self) -> Result<()> {
        match self.state {
            State::Finalized => return err("initialize() cannot be called after finalize()."),
            State::Initialized => return err("initialize() may only be called once."),
            State::Constructed => {}
        }
        if self.schemes.iter().any(CouplingScheme::sends_initial_data) && !self.initial_data_queried {
            return err(format!(
                "Initial data has to be written to preCICE before calling initialize(). Participant \"{}\" sends initialized data: call requiresInitialData() and write the data before initialize().",
                self.name
            ));
        }
        // Write buffers get their size now that the provided meshes are complete.
        for k in &self.write_keys {
            let n = self.store.meshes[&k.0].vertex_count();
            let d = self.store.data.get_mut(k).expect("registered");
            if let Some(buf) = &mut d.write_buffer {
                buf.resize(n * d.components, 0.0);
            }
        }
        self.m2n = Some(M2n::connect(
            &self.name,
            &self.cfg,
            self.settings.handshake_timeout,
            self.settings.spin,
            self.settings.run_id.as_deref(),
        )?);
        let m2n_ref = self.m2n.as_ref().expect("just set");
        for link in self.schemes.iter_mut().flat_map(|s| s.links.iter_mut()) {
            link.partner = m2n_ref.partner(&link.partner_name).ok_or_else(|| {
                CouplingError::new(format!(
                    "There is no m2n communication configured between participants \"{}\" and \"{}\". Please add an appropriate \"<m2n />\" tag.",
                    self.name, link.partner_name
                ))
            })?;
        }
        self.exchange_meshes()?;
        self.store.sample_write_buffers(0.0);
        let m2n = self.m2n.as_mut().expect("connected");
        for s in &mut self.schemes {
            s.initialize_send(m2n, &mut self.store)?;
        }
        // Explicit schemes in configuration order, then the implicit one.
        let order: Vec<usize> =
            (0..self.schemes.len()).filter(|&i| Some(i) != self.implicit).chain(self.implicit).collect();
        for i in order {
            self.schemes[i].initialize_receive(m2n, &mut self.store)?;
        }
        if let Some(i) = self.implicit {
            let imp = self.schemes[i].implicit.as_mut().expect("implicit scheme");
            imp.open_logs(&self.log_dir, &self.name)?;
        }
        // Read data that no exchange feeds keep no samples: reading them is an error (coupling-semantics.md §2.9).
        self.state = State::Initialized;
        log::info!("{}: coupling initialized", self.name);
        Ok(())
    }

    fn get_max_time_step_size(&self) -> Result<f64> {
        self.require_initialized("getMaxTimeStepSize()")?;
        if !self.ongoing() {
            return Ok(0.0);
        }
        Ok(self
            .schemes
            .iter()
            .filter(|s| s.is_ongoing() && !s.held)
            .map(CouplingScheme::max_step)
            .fold(f64::MAX, f64::min))
    }

    fn advance(&mut self, dt: f64) -> Result<()> {
        match self.state {
            State::Constructed => return err("initialize() has to be called before advance()."),
            State::Finalized => return err("advance() cannot be called after finalize()."),
            State::Initialized => {}
        }
        if !self.ongoing() {
            return err("advance() cannot be called when isCouplingOngoing() returns false.");
        }
        if !dt.is_finite() {
            return err(format!("advance() cannot be called with an infinite time step size ({dt})."));
        }
        if dt.abs() <= EPS {
            return err("advance() cannot be called with a time step size of 0.");
        }
        if dt < 0.0 {
            return err(format!("advance() cannot be called with a negative time step size {dt}."));
        }
        if dt >= f64::MAX && self.schemes.iter().any(|s| s.defines_windows()) {
            return err("advance(dt) was called with dt = getMaxTimeStepSize() under time-window-size method=\"first-participant\" without max-time: directly using getMaxTimeStepSize() is not permitted. Advance by the solver's own step.");
        }
        let max = self.get_max_time_step_size()?;
        if dt > max + EPS {
            return err(format!(
                "advance(dt) of participant \"{}\": the time step size {dt} exceeds the maximum allowed time step size {max} in the remaining of this time window.",
                self.name
            ));
        }
        if let Some(i) = self.implicit {
            self.schemes[i].implicit.as_mut().expect("implicit scheme").actions.check_and_clear()?;
        }
        for s in self.schemes.iter_mut().filter(|s| s.is_ongoing() && !s.held) {
            s.advance(dt);
        }
        let t = self.time();
        self.store.sample_write_buffers(t);
        self.window_complete = false;
        for s in &mut self.schemes {
            s.accepted = false;
        }
        self.exchange_at_window_ends()?;
        if self.schemes.iter().any(|s| s.accepted) {
            self.window_complete = true;
            let start = self.schemes.iter().map(|s| s.time.window_start()).fold(f64::MAX, f64::min);
            self.store.trim_write_data(start);
        }
        Ok(())
    }

    fn requires_writing_checkpoint(&mut self) -> Result<bool> {
        self.require_initialized("requiresWritingCheckpoint()")?;
        Ok(self.implicit.is_some_and(|i| self.schemes[i].implicit.as_mut().expect("implicit").actions.query_write()))
    }

    fn requires_reading_checkpoint(&mut self) -> Result<bool> {
        self.require_initialized("requiresReadingCheckpoint()")?;
        Ok(self.implicit.is_some_and(|i| self.schemes[i].implicit.as_mut().expect("implicit").actions.query_read()))
    }

    fn is_coupling_ongoing(&self) -> Result<bool> {
        self.require_initialized("isCouplingOngoing()")?;
        Ok(self.ongoing())
    }

    fn is_time_window_complete(&self) -> Result<bool> {
        self.require_initialized("isTimeWindowComplete()")?;
        Ok(self.window_complete)
    }

    fn finalize(&mut self) -> Result<()> {
        if self.state == State::Finalized {
            return err("finalize() may only be called once.");
        }
        let early = self.state == State::Initialized && self.ongoing();
        if let Some(m) = &mut self.m2n {
            if early {
                m.abort(&format!("participant \"{}\" finalized before the end of the coupling", self.name));
            } else {
                m.close();
            }
        }
        self.m2n = None;
        self.state = State::Finalized;
        Ok(())
    }
}

impl Drop for NativeParticipant {
    fn drop(&mut self) {
        if self.state != State::Finalized {
            log::debug!("{}: implicitly finalizing in destructor", self.name);
            if let Some(m) = &mut self.m2n {
                m.abort(&format!("participant \"{}\" stopped before the end of the coupling", self.name));
            }
        }
    }
}
