//! The mesh and data calls of the API (`CouplingData`) and the misuse checks they share
//! (docs/design/coupling-semantics.md §2.8–2.9, §2.12).

use super::*;

/// The hint after an unknown name `wanted` of a `what` ("mesh", "data"): the only name there
/// is (after `only`), the nearest one, or all of them (after `all`).
fn name_hint(wanted: &str, names: &[&str], only: &str, what: &str, all: &str) -> String {
    if names.len() == 1 {
        format!(" {only} {what} \"{}\".", names[0])
    } else if let Some(n) = nearest(wanted, names.iter().copied()) {
        format!(" Did you mean {what} \"{n}\"?")
    } else {
        format!(" {all}: {}", names.join(", "))
    }
}

impl NativeParticipant {
    fn mesh_error(&self, mesh: &str) -> CouplingError {
        let names: Vec<&str> = self.store.meshes.keys().map(String::as_str).collect();
        let hint = name_hint(mesh, &names, "This participant only knows", "mesh", "Available meshes are");
        CouplingError::misuse(format!("The mesh named \"{mesh}\" is unknown to preCICE.{hint}"))
    }

    pub(super) fn mesh(&self, mesh: &str) -> Result<&MeshState> {
        self.store.meshes.get(mesh).ok_or_else(|| self.mesh_error(mesh))
    }

    pub(super) fn data_error(&self, mesh: &str, data: &str) -> CouplingError {
        let mut names: Vec<&str> = self.store.data.keys().filter(|k| k.mesh == mesh).map(|k| k.data.as_str()).collect();
        // In the mesh's use-data order, as libprecice lists a mesh's data (the store is a hash map).
        let order = self.cfg.mesh(mesh).map(|m| m.use_data.clone()).unwrap_or_default();
        names.sort_by_key(|n| (order.iter().position(|u| u == n).unwrap_or(usize::MAX), n.to_string()));
        let hint = name_hint(data, &names, "This mesh only knows", "data", "Available data are");
        CouplingError::misuse(format!("The given data \"{data}\" is unknown to preCICE mesh \"{mesh}\".{hint}"))
    }

    pub(super) fn require_initialized(&self, call: &str) -> Result<()> {
        match self.state {
            State::Constructed => misuse(format!("initialize() has to be called before {call}")),
            State::Finalized => misuse(format!("{call} cannot be called after finalize()")),
            State::Initialized => Ok(()),
        }
    }

    fn check_ids(&self, mesh: &str, ids: &[VertexId], what: &str) -> Result<()> {
        let n = self.mesh(mesh)?.vertex_count();
        if let Some(i) = ids.iter().position(|&id| id < 0 || id as usize >= n) {
            return misuse(format!(
                "Cannot {what} data on mesh \"{mesh}\" due to invalid Vertex ID at vertices[{i}] (id {}; the mesh has {n} vertices).",
                ids[i]
            ));
        }
        Ok(())
    }

    /// The checks shared by readData and writeData (coupling-semantics.md §2.8–2.9): the mesh and datum are
    /// known and configured for this direction, sizes match, ids are valid. `None` for the
    /// empty no-op call; otherwise the datum's index in `read_keys` or `write_keys` and its
    /// component count (found by comparing names: no key is built on this per-step path).
    fn check_access(
        &self,
        access: Access,
        mesh: &str,
        data: &str,
        ids: &[VertexId],
        n_values: usize,
    ) -> Result<Option<(usize, usize)>> {
        let (verb, prep, keys) = match access {
            Access::Read => ("read", "from", &self.read_keys),
            Access::Write => ("write", "to", &self.write_keys),
        };
        self.mesh(mesh)?;
        let Some(index) = keys.iter().position(|k| k.mesh == mesh && k.data == data) else {
            if !self.store.data.contains_key(&DataKey::new(mesh, data)) {
                return Err(self.data_error(mesh, data));
            }
            return misuse(format!(
                "This participant does not use data \"{data}\" via mesh \"{mesh}\", but attempted to {verb} it. Please extend the configuration of participant \"{}\" by defining <{verb}-data mesh=\"{mesh}\" name=\"{data}\" />.",
                self.name
            ));
        };
        if ids.is_empty() && n_values == 0 {
            return Ok(None);
        }
        let c = self.store.data[&keys[index]].components;
        if n_values != ids.len() * c {
            return misuse(format!(
                "Input sizes are inconsistent attempting to {verb} {c}D data \"{data}\" {prep} mesh \"{mesh}\". You passed {} vertex indices and {n_values} data components, but we expected {} data components ({c} x {}).",
                ids.len(),
                ids.len() * c,
                ids.len()
            ));
        }
        self.check_ids(mesh, ids, verb)?;
        Ok(Some((index, c)))
    }
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
        self.store.data.get(&DataKey::new(mesh, data)).map(|d| d.components).ok_or_else(|| self.data_error(mesh, data))
    }

    fn set_mesh_vertices(&mut self, mesh: &str, positions: &[f64], ids: &mut [VertexId]) -> Result<()> {
        let state = self.state;
        let name = self.name.clone();
        let m = self.mesh(mesh)?;
        if !m.provided {
            return misuse(format!("Participant \"{name}\" does not provide Mesh \"{mesh}\": vertices can only be set on provided meshes (<provide-mesh>)."));
        }
        if state != State::Constructed {
            return misuse(format!("Cannot set vertices on mesh \"{mesh}\" while locked. Mesh modification is only allowed before calling initialize()."));
        }
        if positions.len() != ids.len() * m.dim {
            return misuse(format!(
                "Cannot set vertices on mesh \"{mesh}\": You passed {} vertex indices and {} position components, but the mesh has dimension {}.",
                ids.len(),
                positions.len(),
                m.dim
            ));
        }
        if let Some(i) = positions.iter().position(|x| !x.is_finite()) {
            return misuse(format!(
                "Cannot set vertices on mesh \"{mesh}\": position component {i} is {}.",
                positions[i]
            ));
        }
        let m = self.store.meshes.get_mut(mesh).expect("checked");
        let first = m.vertex_count();
        m.coords.extend_from_slice(positions);
        for (k, id) in ids.iter_mut().enumerate() {
            *id = (first + k) as VertexId;
        }
        Ok(())
    }

    fn requires_mesh_connectivity_for(&self, mesh: &str) -> Result<bool> {
        NativeParticipant::requires_mesh_connectivity_for(self, mesh)
    }

    fn requires_gradient_data_for(&self, mesh: &str, data: &str) -> Result<bool> {
        NativeParticipant::requires_gradient_data_for(self, mesh, data)
    }

    fn write_gradient_data(&mut self, mesh: &str, data: &str, ids: &[VertexId], gradients: &[f64]) -> Result<()> {
        NativeParticipant::write_gradient_data(self, mesh, data, ids, gradients)
    }

    fn set_mesh_edges(&mut self, mesh: &str, ids: &[VertexId]) -> Result<()> {
        self.set_mesh_elements(mesh, super::Element::Edge, ids)
    }

    fn set_mesh_triangles(&mut self, mesh: &str, ids: &[VertexId]) -> Result<()> {
        self.set_mesh_elements(mesh, super::Element::Triangle, ids)
    }

    fn set_mesh_tetrahedra(&mut self, mesh: &str, ids: &[VertexId]) -> Result<()> {
        self.set_mesh_elements(mesh, super::Element::Tetrahedron, ids)
    }

    fn get_mesh_vertex_size(&self, mesh: &str) -> Result<usize> {
        let m = self.mesh(mesh)?;
        if !m.provided && self.state == State::Constructed {
            return misuse(format!(
                "initialize() has to be called before accessing data of the received mesh \"{mesh}\"."
            ));
        }
        Ok(m.vertex_count())
    }

    fn read_data(&mut self, mesh: &str, data: &str, ids: &[VertexId], rel: f64, values: &mut [f64]) -> Result<()> {
        self.require_initialized("readData(...)").map_err(|_| {
            CouplingError::misuse(match self.state {
                State::Constructed => "readData(...) cannot be called before initialize().".to_string(),
                _ => "readData(...) cannot be called after finalize().".to_string(),
            })
        })?;
        // After the end getMaxTimeStepSize() is 0, so the window check only applies while
        // ongoing; afterwards the dedicated "relativeReadTime = 0" error below fires.
        let max = self.get_max_time_step_size()?;
        if self.ongoing() && rel > max + EPS {
            return misuse(format!(
                "readData(...) for data \"{data}\" cannot sample data outside of current time window: relative read time {rel} exceeds the remaining {max}."
            ));
        }
        if rel < 0.0 {
            return misuse(format!("readData(...) for data \"{data}\" cannot sample data before the current time (relative read time {rel})."));
        }
        if !self.ongoing() && rel.abs() > EPS {
            return misuse("If coupling finished, only data for relativeReadTime = 0 is available. Please always use precice.getMaxTimeStepSize() to obtain the maximum allowed relativeReadTime.");
        }
        let Some((index, _)) = self.check_access(Access::Read, mesh, data, ids, values.len())? else {
            return Ok(());
        };
        let t = self.time() + rel;
        self.store.read(&self.read_keys[index], t, ids, values).ok_or_else(|| {
            CouplingError::config(format!(
                "Data \"{data}\" cannot be read from mesh \"{mesh}\" as it contains no samples. This is typically a configuration issue of the data flow."
            ))
        })
    }

    fn write_data(&mut self, mesh: &str, data: &str, ids: &[VertexId], values: &[f64]) -> Result<()> {
        if self.state == State::Finalized {
            return misuse("writeData(...) cannot be called after finalize().");
        }
        if self.state == State::Initialized && !self.ongoing() {
            return misuse("Calling writeData(...) is forbidden if coupling is not ongoing, because the data you are trying to write will not be used anymore. You can fix this by always calling writeData(...) before the advance(...) call in your simulation loop or by using Participant::isCouplingOngoing() to implement a safeguard.");
        }
        let Some((index, c)) = self.check_access(Access::Write, mesh, data, ids, values.len())? else {
            return Ok(());
        };
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            let window = self.schemes.iter().map(|s| s.time.window()).min().unwrap_or(1);
            return misuse(format!(
                "participant \"{}\" wrote a non-finite value ({}) for data \"{data}\" on mesh \"{mesh}\" at vertex {} (component {}) in time window {window}: the solver has probably diverged.",
                self.name,
                values[i],
                ids[i / c],
                i % c
            ));
        }
        let key = &self.write_keys[index];
        let n = self.store.meshes[&key.mesh].vertex_count();
        let d = self.store.data.get_mut(key).expect("checked");
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
