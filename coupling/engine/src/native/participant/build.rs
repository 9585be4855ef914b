//! Construction from the configuration: schemes, the data store, the data flow of every
//! exchange, and [`check`], which reports the same refusals as diagnostics.

use super::*;

impl NativeParticipant {
    /// The construction proper: schemes, data store and data flow (the first error only).
    pub(super) fn build(name: &str, cfg: PreciceConfig, settings: Settings) -> Result<NativeParticipant> {
        let Some(me) = cfg.participant(name) else {
            let names: Vec<&str> = cfg.participants.iter().map(|p| p.name.as_str()).collect();
            let hint = nearest(name, names.iter().copied())
                .map(|n| format!(" Did you mean \"{n}\"?"))
                .unwrap_or_else(|| format!(" Participants are: {}.", names.join(", ")));
            return refuse(format!(
                "This participant's name, \"{name}\", is not defined in the preCICE configuration \"{}\".{hint}",
                cfg.path.display()
            ));
        };
        if cfg.participants.len() < 2 {
            return refuse(format!(
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
            return refuse(format!(
                "{}: No coupling scheme defined for participant \"{name}\" in \"{}\".",
                me.loc,
                cfg.path.display()
            ));
        }

        warn_quasi_newton_with_gradients(&cfg, &schemes);
        let mut store = DataStore::default();
        for pm in &me.provide_meshes {
            let dim = cfg.mesh(&pm.name).map_or(3, |m| m.dimensions);
            store.meshes.insert(pm.name.clone(), MeshState::new(dim, true));
        }
        for rm in &me.receive_meshes {
            let dim = cfg.mesh(&rm.name).map_or(3, |m| m.dimensions);
            store.meshes.insert(rm.name.clone(), MeshState::new(dim, false));
        }
        let add = |store: &mut DataStore, key: &DataKey, write: bool| {
            let components = cfg.data_dimensions(&key.mesh, &key.data).unwrap_or(1);
            let degree = cfg.data(&key.data).map_or(1, |d| d.waveform_degree);
            let gradients = cfg.needs_gradients(&key.mesh, &key.data);
            let entry = store
                .data
                .entry(key.clone())
                .or_insert_with(|| DataState::new(components, gradients, Waveform::new(degree)));
            if write {
                entry.write_buffer = Some(Vec::new());
                // What `requiresGradientDataFor` answers: written here, and carrying gradients.
                entry.gradient_buffer = gradients.then(Vec::new);
            }
        };
        let write_keys: Vec<DataKey> = me.write_data.iter().map(|d| DataKey::new(&d.mesh, &d.name)).collect();
        let read_keys: Vec<DataKey> = me.read_data.iter().map(|d| DataKey::new(&d.mesh, &d.name)).collect();
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
                let DataKey { mesh, data } = &e.key;
                if me.provides(mesh) {
                    if !write_keys.contains(&e.key) {
                        return refuse(format!(
                            "{}: participant \"{name}\" sends data \"{data}\" on mesh \"{mesh}\" but does not write it: add <write-data name=\"{data}\" mesh=\"{mesh}\"/>.",
                            me.loc
                        ));
                    }
                    continue;
                }
                let found = me.mappings.iter().find(|m| {
                    m.direction == MappingDirection::Write
                        && m.to == *mesh
                        && write_keys.contains(&DataKey::new(&m.from, data))
                });
                let Some(m) = found else {
                    return refuse(format!(
                        "{}: participant \"{name}\" sends data \"{data}\" on the received mesh \"{mesh}\" but no write mapping brings it there: the data \"{data}\" doesn't contain any samples. Add a <mapping:nearest-neighbor direction=\"write\" from=\"<your mesh>\" to=\"{mesh}\" .../> and a <write-data> on your mesh.",
                        me.loc
                    ));
                };
                let i = store.add_mapping(MappingRun::new(m));
                store.add_write_map(e.key.clone(), DataKey::new(&m.from, data), i);
            }
            for e in s.links.iter().flat_map(|l| &l.receive) {
                let DataKey { mesh, data } = &e.key;
                if me.provides(mesh) {
                    continue;
                }
                for m in me.mappings.iter().filter(|m| {
                    m.direction == MappingDirection::Read
                        && m.from == *mesh
                        && read_keys.contains(&DataKey::new(&m.to, data))
                }) {
                    let i = store.add_mapping(MappingRun::new(m));
                    store.add_read_map(e.key.clone(), DataKey::new(&m.to, data), i);
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
            profiling: Vec::new(),
            watch_points: Vec::new(),
            watch_integrals: Vec::new(),
            exports: Exports::default(),
        })
    }
}

/// libprecice's warning where the measuring participant of a quasi-Newton scheme exchanges
/// data with gradients: the quasi-Newton update leaves the gradients as they are.
fn warn_quasi_newton_with_gradients(cfg: &PreciceConfig, schemes: &[CouplingScheme]) {
    for s in schemes.iter().filter(|s| s.implicit.as_ref().is_some_and(|i| i.measuring)) {
        let qn = cfg.schemes[s.index as usize].acceleration.as_ref().is_some_and(|a| a.kind.is_quasi_newton());
        let mut keys = s.links.iter().flat_map(|l| l.send.iter().chain(&l.receive)).map(|e| &e.key);
        if qn && keys.any(|k| cfg.needs_gradients(&k.mesh, &k.data)) {
            log::warn!(
                "Gradient data, which is required by at least one of the configured data mappings, is not yet compatible \
                 with quasi-Newton acceleration. This combination might lead to numerical issues. Consider switching to a \
                 different acceleration scheme or a different data mapping scheme."
            );
        }
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
            return Err(CouplingError::config(format!(
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
