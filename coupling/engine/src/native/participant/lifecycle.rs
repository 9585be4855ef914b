//! The calls that move time (`Coupling`: initialize, advance, the checkpoint queries,
//! finalize) and the mesh and window-end exchanges they drive.

use super::*;

impl NativeParticipant {
    /// Sends every provided mesh (vertices, and the elements its receivers need) to the
    /// participants that receive it, then receives this participant's received meshes.
    fn exchange_meshes(&mut self) -> Result<()> {
        for mesh in self.store.meshes.values_mut().filter(|m| m.provided) {
            mesh.connectivity.preprocess();
        }
        let m2n = self.m2n.as_mut().expect("connected");
        let me = self.cfg.participant(&self.name).expect("checked at construction");
        for pm in &me.provide_meshes {
            for other in &self.cfg.participants {
                if other.receive_meshes.iter().any(|r| r.name == pm.name && r.from == self.name) {
                    let mesh = &self.store.meshes[&pm.name];
                    if mesh.coords.is_empty() {
                        return misuse(format!(
                            "The provided mesh \"{}\" is empty: participant \"{}\" must set its vertices (set_mesh_vertices) before initialize().",
                            pm.name, self.name
                        ));
                    }
                    let to = m2n.partner(&other.name).ok_or_else(|| no_m2n(&self.name, &other.name))?;
                    let frame = Frame::Mesh {
                        name: pm.name.clone(),
                        coords: mesh.coords.clone(),
                        connectivity: mesh.connectivity.clone(),
                    };
                    m2n.send(to, &frame)?;
                }
            }
        }
        let mut received: Vec<_> = me.receive_meshes.iter().collect();
        received.sort_by(|a, b| a.name.cmp(&b.name));
        for rm in received {
            let from = m2n.partner(&rm.from).ok_or_else(|| no_m2n(&self.name, &rm.from))?;
            match m2n.recv(from)? {
                Frame::Mesh { name, coords, mut connectivity } if name == rm.name => {
                    let mesh = self.store.meshes.get_mut(&rm.name).expect("registered");
                    if coords.len() % mesh.dim != 0 {
                        return Err(CouplingError::protocol(format!(
                            "mesh \"{name}\" arrived with a coordinate count that is not a multiple of its dimension"
                        )));
                    }
                    if let Some(why) = connectivity.invalid_id(coords.len() / mesh.dim) {
                        return Err(CouplingError::protocol(format!("mesh \"{name}\" arrived broken: {why}")));
                    }
                    connectivity.preprocess();
                    mesh.connectivity = connectivity;
                    mesh.coords = coords;
                    mesh.received = true;
                }
                _ => {
                    return Err(CouplingError::protocol(format!(
                        "protocol error: expected mesh \"{}\" from \"{}\"",
                        rm.name, rm.from
                    )))
                }
            }
        }
        Ok(())
    }

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

impl Coupling for NativeParticipant {
    fn requires_initial_data(&mut self) -> Result<bool> {
        if self.state != State::Constructed {
            return misuse("requiresInitialData() has to be called before initialize().");
        }
        self.initial_data_queried = true;
        Ok(self.schemes.iter().any(CouplingScheme::sends_initial_data))
    }

    fn initialize(&mut self) -> Result<()> {
        match self.state {
            State::Finalized => return misuse("initialize() cannot be called after finalize()."),
            State::Initialized => return misuse("initialize() may only be called once."),
            State::Constructed => {}
        }
        if self.schemes.iter().any(CouplingScheme::sends_initial_data) && !self.initial_data_queried {
            return misuse(format!(
                "Initial data has to be written to preCICE before calling initialize(). Participant \"{}\" sends initialized data: call requiresInitialData() and write the data before initialize().",
                self.name
            ));
        }
        // Write buffers get their size now that the provided meshes are complete.
        for k in &self.write_keys {
            let (n, dim) = (self.store.meshes[&k.mesh].vertex_count(), self.store.meshes[&k.mesh].dim);
            let d = self.store.data.get_mut(k).expect("registered");
            if let Some(buf) = &mut d.write_buffer {
                buf.resize(n * d.components, 0.0);
            }
            if let Some(buf) = &mut d.gradient_buffer {
                buf.resize(n * d.components * dim, 0.0);
            }
        }
        self.m2n = Some(M2n::connect(&self.name, &self.cfg, &self.settings)?);
        let m2n_ref = self.m2n.as_ref().expect("just set");
        for link in self.schemes.iter_mut().flat_map(|s| s.links.iter_mut()) {
            link.partner = m2n_ref.partner(&link.partner_name).ok_or_else(|| no_m2n(&self.name, &link.partner_name))?;
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
        let me = self.cfg.participant(&self.name).expect("checked at construction");
        for w in &me.watch_points {
            let mut wp = WatchPoint::open(w, &self.name, &self.cfg, &self.store, &self.log_dir)?;
            wp.row(0.0, &self.store)?;
            self.watch_points.push(wp);
        }
        for w in &me.watch_integrals {
            let mut wi = WatchIntegral::open(w, &self.name, &self.cfg, &self.store, &self.log_dir)?;
            wi.row(0.0, &self.store)?;
            self.watch_integrals.push(wi);
        }
        self.exports = Exports::new(&self.name, &self.cfg, &self.log_dir)?;
        self.exports.initial(&mut self.store)?;
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
            State::Constructed => return misuse("initialize() has to be called before advance()."),
            State::Finalized => return misuse("advance() cannot be called after finalize()."),
            State::Initialized => {}
        }
        if !self.ongoing() {
            return misuse("advance() cannot be called when isCouplingOngoing() returns false.");
        }
        if !dt.is_finite() {
            return misuse(format!("advance() cannot be called with an infinite time step size ({dt})."));
        }
        if dt.abs() <= EPS {
            return misuse("advance() cannot be called with a time step size of 0.");
        }
        if dt < 0.0 {
            return misuse(format!("advance() cannot be called with a negative time step size {dt}."));
        }
        if dt >= f64::MAX && self.schemes.iter().any(|s| s.defines_windows()) {
            return misuse("advance(dt) was called with dt = getMaxTimeStepSize() under time-window-size method=\"first-participant\" without max-time: directly using getMaxTimeStepSize() is not permitted. Advance by the solver's own step.");
        }
        let max = self.get_max_time_step_size()?;
        if dt > max + EPS {
            return misuse(format!(
                "advance(dt) of participant \"{}\": the time step size {dt} exceeds the maximum allowed time step size {max} in the remaining of this time window.",
                self.name
            ));
        }
        if let Some(i) = self.implicit {
            self.schemes[i].implicit.as_mut().expect("implicit scheme").actions.check_and_clear()?;
        }
        let mut window_end = false;
        for s in self.schemes.iter_mut().filter(|s| s.is_ongoing() && !s.held) {
            s.advance(dt);
            window_end |= s.at_window_end;
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
            let now = self.time();
            for wp in &mut self.watch_points {
                wp.row(now, &self.store)?;
            }
            for wi in &mut self.watch_integrals {
                wi.row(now, &self.store)?;
            }
            let start = self.schemes.iter().map(|s| s.time.window_start()).fold(f64::MAX, f64::min);
            self.store.trim_write_data(start);
        }
        let (last, now) = (!self.ongoing(), self.time());
        self.exports.advanced(window_end, self.window_complete, last, now, &mut self.store)?;
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
            return misuse("finalize() may only be called once.");
        }
        let early = self.state == State::Initialized && self.ongoing();
        // The windows accepted only at max-iterations, once per scheme (measuring participant only).
        for summary in self.schemes.iter().filter_map(|s| s.implicit.as_ref()?.unconverged().summary()) {
            log::warn!("{summary}");
        }
        for imp in self.schemes.iter_mut().filter_map(|s| s.implicit.as_mut()) {
            imp.flush_logs();
        }
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

    fn abort(&mut self, reason: &str) -> Result<()> {
        if self.state == State::Finalized {
            return misuse("finalize() may only be called once.");
        }
        NativeParticipant::abort(self, reason);
        Ok(())
    }
}

/// A partner this participant exchanges with but has no `<m2n>` to.
fn no_m2n(me: &str, other: &str) -> CouplingError {
    CouplingError::config(format!(
        "There is no m2n communication configured between participants \"{me}\" and \"{other}\". Please add an appropriate \"<m2n />\" tag."
    ))
}
