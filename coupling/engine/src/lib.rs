//! The coupling API and its two backends: Tidelink's native engine (`native`: cplscheme, m2n,
//! time, acceleration, mapping, named after preCICE's modules) and, with the feature `precice`,
//! the real libprecice. It depends on the XML model only; the adapter layer above it opens a
//! participant through [`open_with`] with the settings its program was given.
//!
//! The API is a trait mirroring the preCICE v3 participant API (docs/design/coupling-semantics.md §1.4, §2),
//! with snake_case names of the `precice` crate 3.4 so the real-library backend is a
//! thin layer over it. Every call returns `Result`; errors carry an [`ErrorKind`];
//! misuse errors carry preCICE's message fragments (§2.12 there).

#![warn(missing_docs)]

pub mod native;
#[cfg(feature = "precice")]
pub mod precice;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod time;

mod error;

pub use error::{CouplingError, ErrorKind};

/// Vertex identifier as handed out by `set_mesh_vertices` (consecutive from 0).
pub type VertexId = i32;

/// The result of every coupling call.
pub type Result<T> = std::result::Result<T, CouplingError>;

/// The part of the coupling an adapter sees: meshes and data, nothing that moves time. The
/// driver alone holds the whole [`Coupling`], so "an adapter never calls `advance`" is a
/// property of the types.
pub trait CouplingData {
    /// The name of this participant.
    fn participant_name(&self) -> &str;
    /// The spatial dimension (2 or 3) of `mesh`.
    fn get_mesh_dimensions(&self, mesh: &str) -> Result<usize>;
    /// The number of components of `data` on `mesh` (1 for scalar data).
    fn get_data_dimensions(&self, mesh: &str, data: &str) -> Result<usize>;
    /// Registers vertices (flat coordinates) on a provided mesh; fills `ids`.
    fn set_mesh_vertices(&mut self, mesh: &str, positions: &[f64], ids: &mut [VertexId]) -> Result<()>;
    /// The number of vertices registered on `mesh`.
    fn get_mesh_vertex_size(&self, mesh: &str) -> Result<usize>;
    /// Whether a mapping of the run needs the elements of `mesh`: only then are the
    /// triangles given with [`set_mesh_triangles`](Self::set_mesh_triangles) kept.
    fn requires_mesh_connectivity_for(&self, mesh: &str) -> Result<bool>;
    /// Registers edges (flat vertex ids, two per edge) on a provided mesh: the elements of a
    /// 2D surface.
    fn set_mesh_edges(&mut self, mesh: &str, ids: &[VertexId]) -> Result<()>;
    /// Registers triangles (flat vertex ids, three per triangle) on a provided mesh, e.g. the
    /// faces of the surface file the vertices came from.
    fn set_mesh_triangles(&mut self, mesh: &str, ids: &[VertexId]) -> Result<()>;
    /// Registers tetrahedra (flat vertex ids, four per tetrahedron) on a provided 3D mesh:
    /// the cells of a volume.
    fn set_mesh_tetrahedra(&mut self, mesh: &str, ids: &[VertexId]) -> Result<()>;
    /// Whether the solver must write the gradients of `data` on `mesh` with
    /// [`write_gradient_data`](Self::write_gradient_data): it writes the datum and a
    /// nearest-neighbor-gradient mapping of the run maps it from that mesh.
    fn requires_gradient_data_for(&self, mesh: &str, data: &str) -> Result<bool>;
    /// Writes gradients for the current step (flat: per vertex of `ids`, per component of the
    /// datum, its partial derivatives along the mesh's axes); ignored unless
    /// [`requires_gradient_data_for`](Self::requires_gradient_data_for). Experimental in
    /// preCICE: the configuration needs `experimental="true"`.
    fn write_gradient_data(&mut self, mesh: &str, data: &str, ids: &[VertexId], gradients: &[f64]) -> Result<()>;
    /// Samples `data` at `relative_read_time` after the participant's current time.
    fn read_data(
        &mut self,
        mesh: &str,
        data: &str,
        ids: &[VertexId],
        relative_read_time: f64,
        values: &mut [f64],
    ) -> Result<()>;
    /// Writes `values` (flat, `ids.len()` × the data's components) for the current step.
    fn write_data(&mut self, mesh: &str, data: &str, ids: &[VertexId], values: &[f64]) -> Result<()>;
}

/// A coupled participant as seen by the driver; one object per participant process: the
/// [`CouplingData`] calls plus the life cycle and time (preCICE v3's participant API).
pub trait Coupling: CouplingData {
    /// True when this participant must write initial data before `initialize`.
    fn requires_initial_data(&mut self) -> Result<bool>;
    /// Connects to the partners, exchanges meshes and initial data.
    fn initialize(&mut self) -> Result<()>;
    /// Remaining time of the current window (0 once coupling has ended).
    fn get_max_time_step_size(&self) -> Result<f64>;
    /// Ends a solver step of size `dt`; exchanges data at window ends.
    fn advance(&mut self, dt: f64) -> Result<()>;
    /// True when the solver must save its state now (start of an implicit window).
    fn requires_writing_checkpoint(&mut self) -> Result<bool>;
    /// True when the solver must restore the saved state (the window is repeated).
    fn requires_reading_checkpoint(&mut self) -> Result<bool>;
    /// False once the coupling has reached its end (max-time or max-time-windows).
    fn is_coupling_ongoing(&self) -> Result<bool>;
    /// True right after the step that completed a window (and it was accepted).
    fn is_time_window_complete(&self) -> Result<bool>;
    /// Ends the coupling: tells the partners and closes the connections.
    fn finalize(&mut self) -> Result<()>;
    /// Ends the coupling because this participant failed with `reason`: the native engine sends
    /// it to its partners (they stop naming this participant and the reason); libprecice, whose
    /// wire format has no such message, finalizes.
    fn abort(&mut self, reason: &str) -> Result<()> {
        let _ = reason;
        self.finalize()
    }
}

/// Which implementation of [`Coupling`] a participant binary uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Backend {
    /// The Rust engine of this crate (default).
    #[default]
    Native,
    /// The real preCICE library (libprecice 3.4); needs a build with the cargo feature `precice`.
    Precice,
}

/// Whether this build can open [`Backend::Precice`] (it was built with the feature `precice`).
pub const PRECICE_AVAILABLE: bool = cfg!(feature = "precice");

/// Opens participant `name` of the configuration at `config` on the chosen backend, with the
/// native engine's default settings (no run identity: a participant started by hand).
pub fn open(backend: Backend, name: &str, config: &std::path::Path) -> Result<Box<dyn Coupling>> {
    open_with(backend, name, config, native::Settings::default())
}

/// As [`open`]; the native engine takes `settings` (libprecice has its own and ignores them).
pub fn open_with(
    backend: Backend,
    name: &str,
    config: &std::path::Path,
    settings: native::Settings,
) -> Result<Box<dyn Coupling>> {
    match backend {
        Backend::Native => Ok(Box::new(native::NativeParticipant::with_settings(name, config, settings)?)),
        Backend::Precice => open_precice(name, config),
    }
}

#[cfg(feature = "precice")]
fn open_precice(name: &str, config: &std::path::Path) -> Result<Box<dyn Coupling>> {
    Ok(Box::new(precice::PreciceParticipant::new(name, config)?))
}

#[cfg(not(feature = "precice"))]
fn open_precice(_name: &str, _config: &std::path::Path) -> Result<Box<dyn Coupling>> {
    Err(CouplingError::config(
        "this build has no preCICE backend: rebuild with `cargo build --features tidelink-coupling/precice` \
         (or `cargo build --workspace --features precice`), which needs libprecice 3.4 installed where pkg-config \
         finds it (see docs/precice-backend.md); or use --backend native",
    ))
}

impl std::str::FromStr for Backend {
    type Err = CouplingError;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "native" => Ok(Backend::Native),
            "precice" => Ok(Backend::Precice),
            other => Err(CouplingError::config(format!(
                "unknown coupling backend \"{other}\": use \"native\" or \"precice\""
            ))),
        }
    }
}
