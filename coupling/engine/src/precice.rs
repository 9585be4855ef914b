//! The real preCICE library behind [`Coupling`] (cargo feature `precice`), so cases run
//! on clusters and next to other codes' preCICE adapters. A thin layer over the `precice`
//! crate 3.4 (cxx bindings to libprecice 3.4).
//!
//! Errors: preCICE v3 reports every configuration, misuse and communication error by
//! throwing `precice::Error` (a `std::runtime_error`); the cxx bridge catches any
//! `std::exception` and returns it as `cxx::Exception`, whose `what()` becomes the
//! [`CouplingError`] message unchanged. What cannot be caught is an exception thrown by the
//! C++ destructor, which finalizes implicitly and would end the process through
//! `std::terminate`; [`Drop`] therefore finalizes explicitly and, when that fails, leaks the
//! C++ object instead of destroying it.
//!
//! Crashes guarded here: in a Release libprecice 3.4.1, `advance()` before `initialize()` or
//! after `finalize()` dereferences a null profiling event (`_solverAdvanceEvent->stop()` in
//! `ParticipantImpl::advance`, src/precice/impl/ParticipantImpl.cpp:403, ahead of the state
//! checks at :407–409) and the process dies with SIGSEGV. This layer answers both with the
//! library's own messages instead of calling it.

use super::{Coupling, CouplingData, CouplingError, Result, VertexId};
use std::path::Path;

/// One participant of a coupled run on libprecice (serial: rank 0 of 1).
pub struct PreciceParticipant {
    name: String,
    /// `None` once finalized (successfully or not): later calls report that.
    inner: Option<::precice::Participant>,
    /// `initialize()` returned successfully (guards the `advance` crash above).
    initialized: bool,
}

/// The library's message, as preCICE wrote it, for a call of the API: libprecice's errors
/// carry no kind, and those a call can return are its misuse checks (a failing partner or
/// connection ends the process in libprecice instead of returning).
fn lib(e: ::precice::Error) -> CouplingError {
    CouplingError::misuse(e.what().to_string())
}

/// The library's message for the constructor, which reads and checks the configuration.
fn lib_config(e: ::precice::Error) -> CouplingError {
    CouplingError::config(e.what().to_string())
}

/// A count handed out by preCICE as `int`; negative values would be a library bug.
fn count(n: i32) -> Result<usize> {
    usize::try_from(n).map_err(|_| CouplingError::protocol(format!("preCICE returned the negative count {n}")))
}

impl PreciceParticipant {
    /// Configures participant `name` from the XML at `config` (serial run, one rank).
    pub fn new(name: &str, config: &Path) -> Result<PreciceParticipant> {
        let Some(config_text) = config.to_str() else {
            return Err(CouplingError::config(format!(
                "the preCICE configuration path {} is not valid UTF-8",
                config.display()
            )));
        };
        let inner = ::precice::Participant::new(name, config_text, 0, 1).map_err(lib_config)?;
        Ok(PreciceParticipant { name: name.to_string(), inner: Some(inner), initialized: false })
    }

    fn get(&self) -> Result<&::precice::Participant> {
        self.inner.as_ref().ok_or_else(|| gone(&self.name))
    }

    fn get_mut(&mut self) -> Result<&mut ::precice::Participant> {
        self.inner.as_mut().ok_or_else(|| gone(&self.name))
    }
}

/// Registers `ids` as elements of `n` vertices one by one through `one` (the singular calls).
///
/// The `precice` crate 3.4.0 forwards `set_mesh_triangles`, `set_mesh_quads` and
/// `set_mesh_tetrahedra` to libprecice's `setMeshEdges` (its C++ bridge, precice-bridge.cpp),
/// so a triangle mesh arrives as edges only and nearest-projection silently maps onto edges;
/// the singular calls are forwarded correctly. The count is checked first, as libprecice's
/// plural calls check it.
fn elements(
    mesh: &str,
    ids: &[VertexId],
    n: usize,
    what: &str,
    mut one: impl FnMut(&[VertexId]) -> std::result::Result<(), ::precice::Error>,
) -> Result<()> {
    if !ids.len().is_multiple_of(n) {
        return Err(CouplingError::misuse(format!(
            "Cannot interpret passed vertex IDs attempting to set {what} of mesh \"{mesh}\". You passed {} vertex \
             indices, which is not a multiple of {n}.",
            ids.len()
        )));
    }
    ids.chunks_exact(n).try_for_each(|e| one(e).map_err(lib))
}

/// The error of any call after `finalize()` (the C++ object no longer exists then).
fn gone(name: &str) -> CouplingError {
    CouplingError::misuse(format!(
        "participant \"{name}\" was already finalized; no preCICE call is possible after finalize()"
    ))
}

impl CouplingData for PreciceParticipant {
    fn participant_name(&self) -> &str {
        &self.name
    }

    fn get_mesh_dimensions(&self, mesh: &str) -> Result<usize> {
        count(self.get()?.get_mesh_dimensions(mesh).map_err(lib)?)
    }

    fn get_data_dimensions(&self, mesh: &str, data: &str) -> Result<usize> {
        count(self.get()?.get_data_dimensions(mesh, data).map_err(lib)?)
    }

    fn set_mesh_vertices(&mut self, mesh: &str, positions: &[f64], ids: &mut [VertexId]) -> Result<()> {
        self.get_mut()?.set_mesh_vertices(mesh, positions, ids).map_err(lib)
    }

    fn get_mesh_vertex_size(&self, mesh: &str) -> Result<usize> {
        count(self.get()?.get_mesh_vertex_size(mesh).map_err(lib)?)
    }

    fn requires_mesh_connectivity_for(&self, mesh: &str) -> Result<bool> {
        self.get()?.requires_mesh_connectivity_for(mesh).map_err(lib)
    }

    fn set_mesh_edges(&mut self, mesh: &str, ids: &[VertexId]) -> Result<()> {
        self.get_mut()?.set_mesh_edges(mesh, ids).map_err(lib)
    }

    fn requires_gradient_data_for(&self, mesh: &str, data: &str) -> Result<bool> {
        self.get()?.requires_gradient_data_for(mesh, data).map_err(lib)
    }

    fn write_gradient_data(&mut self, mesh: &str, data: &str, ids: &[VertexId], gradients: &[f64]) -> Result<()> {
        self.get_mut()?.write_gradient_data(mesh, data, ids, gradients).map_err(lib)
    }

    /// Element by element: the crate's plural call (3.4.0) passes the ids to libprecice's
    /// `setMeshEdges` instead of `setMeshTriangles` (see [`elements`]).
    fn set_mesh_triangles(&mut self, mesh: &str, ids: &[VertexId]) -> Result<()> {
        let p = self.get_mut()?;
        elements(mesh, ids, 3, "triangles", |t| p.set_mesh_triangle(mesh, t[0], t[1], t[2]))
    }

    /// Element by element, for the reason of [`set_mesh_triangles`](Self::set_mesh_triangles).
    fn set_mesh_tetrahedra(&mut self, mesh: &str, ids: &[VertexId]) -> Result<()> {
        let p = self.get_mut()?;
        elements(mesh, ids, 4, "tetrahedra", |t| p.set_mesh_tetrahedron(mesh, t[0], t[1], t[2], t[3]))
    }

    fn read_data(
        &mut self,
        mesh: &str,
        data: &str,
        ids: &[VertexId],
        relative_read_time: f64,
        values: &mut [f64],
    ) -> Result<()> {
        self.get()?.read_data(mesh, data, ids, relative_read_time, values).map_err(lib)
    }

    fn write_data(&mut self, mesh: &str, data: &str, ids: &[VertexId], values: &[f64]) -> Result<()> {
        self.get_mut()?.write_data(mesh, data, ids, values).map_err(lib)
    }
}

impl Coupling for PreciceParticipant {
    fn requires_initial_data(&mut self) -> Result<bool> {
        self.get_mut()?.requires_initial_data().map_err(lib)
    }

    fn initialize(&mut self) -> Result<()> {
        self.get_mut()?.initialize().map_err(lib)?;
        self.initialized = true;
        Ok(())
    }

    fn get_max_time_step_size(&self) -> Result<f64> {
        self.get()?.get_max_time_step_size().map_err(lib)
    }

    fn advance(&mut self, dt: f64) -> Result<()> {
        let p =
            self.inner.as_mut().ok_or_else(|| CouplingError::misuse("advance() cannot be called after finalize()."))?;
        if !self.initialized {
            return Err(CouplingError::misuse("initialize() has to be called before advance()."));
        }
        p.advance(dt).map_err(lib)
    }

    fn requires_writing_checkpoint(&mut self) -> Result<bool> {
        self.get_mut()?.requires_writing_checkpoint().map_err(lib)
    }

    fn requires_reading_checkpoint(&mut self) -> Result<bool> {
        self.get_mut()?.requires_reading_checkpoint().map_err(lib)
    }

    fn is_coupling_ongoing(&self) -> Result<bool> {
        self.get()?.is_coupling_ongoing().map_err(lib)
    }

    fn is_time_window_complete(&self) -> Result<bool> {
        self.get()?.is_time_window_complete().map_err(lib)
    }

    fn finalize(&mut self) -> Result<()> {
        let mut p = self.inner.take().ok_or_else(|| gone(&self.name))?;
        match p.finalize() {
            Ok(()) => Ok(()),
            Err(e) => {
                // The C++ destructor would finalize again and throw inside a destructor.
                std::mem::forget(p);
                Err(lib(e))
            }
        }
    }
}

impl Drop for PreciceParticipant {
    fn drop(&mut self) {
        if let Some(mut p) = self.inner.take() {
            if let Err(e) = p.finalize() {
                log::warn!("participant \"{}\": implicit preCICE finalize failed: {}", self.name, e.what());
                std::mem::forget(p);
            }
        }
    }
}
