//! Test helpers shared by every crate's tests (feature `testing`): the engine's temporary case
//! folders, participants run in threads and the one way to find the reference data of
//! ../shared ([`shared_path`]), plus what adapters' tests need. Kept here so no test copies a
//! fixture.

use tidelink_adapter_core::config::DataKey;

pub use tidelink_coupling::testing::{
    find_shared, run_in_threads, run_participants, shared_dir, shared_path, temp_case, thread_log_directory, Job,
    TempCase,
};

/// A call of [`ScriptedCoupling`] that can be scripted to fail ([`ScriptedCoupling::failing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// `get_mesh_dimensions`.
    MeshDimensions,
    /// `get_data_dimensions`.
    DataDimensions,
    /// `set_mesh_vertices`.
    SetVertices,
    /// `read_data`.
    Read,
    /// `write_data`.
    Write,
}

/// A coupling without partners for adapter tests: meshes of given dimensions, the vertices an
/// adapter registers and the values it writes recorded, reads answered from scripted values, and
/// chosen calls failing. As a [`Coupling`](tidelink_adapter_core::coupling::Coupling) it runs a fixed number of
/// windows of a fixed size (1 and 1 s unless set), asking for a checkpoint at each window start
/// when told to.
///
/// Every mesh is 3D and every datum has as many components as its mesh has dimensions unless
/// set otherwise; a read of data nothing was served for fails, or gives zeros after
/// [`ScriptedCoupling::zeros_when_unscripted`].
#[derive(Debug, Clone)]
pub struct ScriptedCoupling {
    participant: String,
    dimensions: usize,
    mesh_dimensions: std::collections::BTreeMap<String, usize>,
    mesh_data_dimensions: std::collections::BTreeMap<String, usize>,
    data_dimensions: std::collections::BTreeMap<DataKey, usize>,
    vertices: std::collections::BTreeMap<String, Vec<f64>>,
    served: std::collections::BTreeMap<DataKey, Vec<f64>>,
    connectivity: std::collections::BTreeSet<String>,
    triangles: std::collections::BTreeMap<String, Vec<tidelink_adapter_core::coupling::VertexId>>,
    zeros_when_unscripted: bool,
    written: std::collections::BTreeMap<DataKey, Vec<f64>>,
    failures: Vec<(Call, String, String)>,
    windows: u32,
    window_size: f64,
    window: u32,
    progress: f64,
    complete: bool,
    checkpoints: bool,
    finalized: bool,
}

type CouplingResult<T> = tidelink_adapter_core::coupling::Result<T>;

impl ScriptedCoupling {
    /// A coupling of participant `participant`: 3D meshes, nothing served, one window of 1 s.
    pub fn new(participant: &str) -> Self {
        ScriptedCoupling {
            participant: participant.to_string(),
            dimensions: 3,
            mesh_dimensions: Default::default(),
            mesh_data_dimensions: Default::default(),
            data_dimensions: Default::default(),
            vertices: Default::default(),
            served: Default::default(),
            connectivity: Default::default(),
            triangles: Default::default(),
            zeros_when_unscripted: false,
            written: Default::default(),
            failures: Vec::new(),
            windows: 1,
            window_size: 1.0,
            window: 0,
            progress: 0.0,
            complete: false,
            checkpoints: false,
            finalized: false,
        }
    }

    /// Every mesh not set otherwise has `n` dimensions (and its data `n` components).
    pub fn with_dimensions(mut self, n: usize) -> Self {
        self.dimensions = n;
        self
    }

    /// `mesh` has `n` dimensions.
    pub fn with_mesh_dimensions(mut self, mesh: &str, n: usize) -> Self {
        self.mesh_dimensions.insert(mesh.to_string(), n);
        self
    }

    /// Every datum on `mesh` not set otherwise has `n` components.
    pub fn with_mesh_data_dimensions(mut self, mesh: &str, n: usize) -> Self {
        self.mesh_data_dimensions.insert(mesh.to_string(), n);
        self
    }

    /// `data` on `mesh` has `n` components.
    pub fn with_data_dimensions(mut self, mesh: &str, data: &str, n: usize) -> Self {
        self.data_dimensions.insert(DataKey::new(mesh, data), n);
        self
    }

    /// A mapping needs the elements of `mesh`: triangles set on it are kept.
    pub fn with_connectivity(mut self, mesh: &str) -> Self {
        self.connectivity.insert(mesh.to_string());
        self
    }

    /// The triangles kept on `mesh` (flat vertex ids), in the order they were set.
    pub fn triangles(&self, mesh: &str) -> &[tidelink_adapter_core::coupling::VertexId] {
        self.triangles.get(mesh).map_or(&[], Vec::as_slice)
    }

    /// Reads of data nothing was served for give zeros instead of failing.
    pub fn zeros_when_unscripted(mut self) -> Self {
        self.zeros_when_unscripted = true;
        self
    }

    /// Calls `call` on `mesh` fail with `message`.
    pub fn failing(mut self, call: Call, mesh: &str, message: &str) -> Self {
        self.failures.push((call, mesh.to_string(), message.to_string()));
        self
    }

    /// As a `Coupling`: `windows` windows of `size` seconds.
    pub fn with_windows(mut self, windows: u32, size: f64) -> Self {
        (self.windows, self.window_size) = (windows, size);
        self
    }

    /// As a `Coupling`: asks for a checkpoint at every window start (an implicit scheme).
    pub fn with_checkpoints(mut self) -> Self {
        self.checkpoints = true;
        self
    }

    /// Serves `values` for reads of `data` on `mesh` from now on: the components of vertex `id`
    /// at `id × components`, in registration order.
    pub fn serve(&mut self, mesh: &str, data: &str, values: &[f64]) -> &mut Self {
        self.served.insert(DataKey::new(mesh, data), values.to_vec());
        self
    }

    /// The coordinates of every vertex registered on `mesh`, flat, in registration order.
    pub fn vertices(&self, mesh: &str) -> &[f64] {
        self.vertices.get(mesh).map_or(&[], Vec::as_slice)
    }

    /// The values last written to `data` on `mesh`; panics when none were.
    #[track_caller]
    pub fn written(&self, mesh: &str, data: &str) -> &[f64] {
        match self.written.get(&DataKey::new(mesh, data)) {
            Some(v) => v,
            None => panic!("nothing was written to `{data}` on mesh `{mesh}`"),
        }
    }

    /// Whether `finalize` was called.
    pub fn finalized(&self) -> bool {
        self.finalized
    }

    fn fail(&self, call: Call, mesh: &str) -> CouplingResult<()> {
        match self.failures.iter().find(|(c, m, _)| *c == call && m == mesh) {
            Some((_, _, message)) => Err(tidelink_adapter_core::coupling::CouplingError::new(message.clone())),
            None => Ok(()),
        }
    }

    fn mesh_dims(&self, mesh: &str) -> usize {
        self.mesh_dimensions.get(mesh).copied().unwrap_or(self.dimensions)
    }

    fn data_dims(&self, mesh: &str, data: &str) -> usize {
        let key = DataKey::new(mesh, data);
        let per_mesh = || self.mesh_data_dimensions.get(mesh).copied().unwrap_or(self.mesh_dims(mesh));
        self.data_dimensions.get(&key).copied().unwrap_or_else(per_mesh)
    }
}

impl tidelink_adapter_core::coupling::CouplingData for ScriptedCoupling {
    fn participant_name(&self) -> &str {
        &self.participant
    }
    fn get_mesh_dimensions(&self, mesh: &str) -> CouplingResult<usize> {
        self.fail(Call::MeshDimensions, mesh)?;
        Ok(self.mesh_dims(mesh))
    }
    fn get_data_dimensions(&self, mesh: &str, data: &str) -> CouplingResult<usize> {
        self.fail(Call::DataDimensions, mesh)?;
        Ok(self.data_dims(mesh, data))
    }
    fn set_mesh_vertices(
        &mut self,
        mesh: &str,
        positions: &[f64],
        ids: &mut [tidelink_adapter_core::coupling::VertexId],
    ) -> CouplingResult<()> {
        self.fail(Call::SetVertices, mesh)?;
        let dims = self.mesh_dims(mesh);
        let registered = self.vertices.entry(mesh.to_string()).or_default();
        let first = registered.len() / dims;
        for (i, id) in ids.iter_mut().enumerate() {
            *id = (first + i) as tidelink_adapter_core::coupling::VertexId;
        }
        registered.extend_from_slice(positions);
        Ok(())
    }
    fn get_mesh_vertex_size(&self, mesh: &str) -> CouplingResult<usize> {
        Ok(self.vertices(mesh).len() / self.mesh_dims(mesh))
    }
    fn requires_mesh_connectivity_for(&self, mesh: &str) -> CouplingResult<bool> {
        Ok(self.connectivity.contains(mesh))
    }
    /// No scripted mapping reads gradients.
    fn requires_gradient_data_for(&self, _: &str, _: &str) -> CouplingResult<bool> {
        Ok(false)
    }
    /// Ignored, as a participant ignores gradients nothing requires.
    fn write_gradient_data(
        &mut self,
        _: &str,
        _: &str,
        _: &[tidelink_adapter_core::coupling::VertexId],
        _: &[f64],
    ) -> CouplingResult<()> {
        Ok(())
    }
    fn set_mesh_edges(&mut self, _: &str, _: &[tidelink_adapter_core::coupling::VertexId]) -> CouplingResult<()> {
        Err(tidelink_adapter_core::coupling::CouplingError::new("ScriptedCoupling keeps triangles only"))
    }
    fn set_mesh_triangles(
        &mut self,
        mesh: &str,
        ids: &[tidelink_adapter_core::coupling::VertexId],
    ) -> CouplingResult<()> {
        if self.connectivity.contains(mesh) {
            self.triangles.entry(mesh.to_string()).or_default().extend_from_slice(ids);
        }
        Ok(())
    }
    fn set_mesh_tetrahedra(&mut self, _: &str, _: &[tidelink_adapter_core::coupling::VertexId]) -> CouplingResult<()> {
        Err(tidelink_adapter_core::coupling::CouplingError::new("ScriptedCoupling keeps triangles only"))
    }
    fn read_data(
        &mut self,
        mesh: &str,
        data: &str,
        ids: &[tidelink_adapter_core::coupling::VertexId],
        _relative_read_time: f64,
        values: &mut [f64],
    ) -> CouplingResult<()> {
        self.fail(Call::Read, mesh)?;
        let n = self.data_dims(mesh, data);
        let Some(served) = self.served.get(&DataKey::new(mesh, data)) else {
            if self.zeros_when_unscripted {
                values.fill(0.0);
                return Ok(());
            }
            return Err(tidelink_adapter_core::coupling::CouplingError::new(format!(
                "unexpected read of `{data}` on mesh `{mesh}`: nothing was served"
            )));
        };
        for (k, &id) in ids.iter().enumerate() {
            let from = id as usize * n;
            let Some(v) = served.get(from..from + n) else {
                return Err(tidelink_adapter_core::coupling::CouplingError::new(format!(
                    "the values served for `{data}` on mesh `{mesh}` have no vertex {id}"
                )));
            };
            values[k * n..(k + 1) * n].copy_from_slice(v);
        }
        Ok(())
    }
    fn write_data(
        &mut self,
        mesh: &str,
        data: &str,
        _ids: &[tidelink_adapter_core::coupling::VertexId],
        values: &[f64],
    ) -> CouplingResult<()> {
        self.fail(Call::Write, mesh)?;
        self.written.insert(DataKey::new(mesh, data), values.to_vec());
        Ok(())
    }
}

impl tidelink_adapter_core::coupling::Coupling for ScriptedCoupling {
    fn requires_initial_data(&mut self) -> CouplingResult<bool> {
        Ok(false)
    }
    fn initialize(&mut self) -> CouplingResult<()> {
        Ok(())
    }
    fn get_max_time_step_size(&self) -> CouplingResult<f64> {
        Ok(self.window_size - self.progress)
    }
    fn advance(&mut self, dt: f64) -> CouplingResult<()> {
        self.progress += dt;
        self.complete = (self.progress - self.window_size).abs() < 1e-14 * self.window_size;
        if self.complete {
            self.progress = 0.0;
            self.window += 1;
        }
        Ok(())
    }
    fn requires_writing_checkpoint(&mut self) -> CouplingResult<bool> {
        Ok(self.checkpoints && self.progress == 0.0)
    }
    fn requires_reading_checkpoint(&mut self) -> CouplingResult<bool> {
        Ok(false)
    }
    fn is_coupling_ongoing(&self) -> CouplingResult<bool> {
        Ok(self.window < self.windows)
    }
    fn is_time_window_complete(&self) -> CouplingResult<bool> {
        Ok(self.complete)
    }
    fn finalize(&mut self) -> CouplingResult<()> {
        self.finalized = true;
        Ok(())
    }
}
