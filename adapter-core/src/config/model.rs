//! Typed view of a preCICE v3 XML configuration (docs/design/coupling-semantics.md §9.3). Every item keeps the
//! location it came from, so later checks can point at the right line.

use crate::diagnostics::Location;
use std::path::PathBuf;

/// The whole `<precice-configuration>` file.
#[derive(Debug, Clone, Default)]
pub struct PreciceConfig {
    pub path: PathBuf,
    /// Hex digest of the raw file bytes; partners compare it at connection time (coupling-semantics.md §8.4).
    pub hash: String,
    pub experimental: bool,
    pub allow_remeshing: bool,
    pub wait_in_finalize: bool,
    pub data: Vec<DataDecl>,
    pub meshes: Vec<MeshDecl>,
    pub participants: Vec<ParticipantDecl>,
    pub m2ns: Vec<M2nDecl>,
    pub schemes: Vec<CouplingSchemeDecl>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataKind {
    Scalar,
    Vector,
}

/// `<data:scalar>` / `<data:vector>`.
#[derive(Debug, Clone)]
pub struct DataDecl {
    pub name: String,
    pub kind: DataKind,
    /// `waveform-degree`, default 1.
    pub waveform_degree: u32,
    pub loc: Location,
}

/// `<mesh name dimensions>` with its `<use-data>` children.
#[derive(Debug, Clone)]
pub struct MeshDecl {
    pub name: String,
    pub dimensions: usize,
    pub use_data: Vec<String>,
    pub loc: Location,
}

#[derive(Debug, Clone)]
pub struct ProvideMesh {
    pub name: String,
    pub loc: Location,
}

#[derive(Debug, Clone)]
pub struct ReceiveMesh {
    pub name: String,
    pub from: String,
    pub api_access: bool,
    pub loc: Location,
}

/// `<write-data>` / `<read-data>` inside a participant.
#[derive(Debug, Clone)]
pub struct DataUse {
    pub name: String,
    pub mesh: String,
    pub loc: Location,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MappingDirection {
    Read,
    Write,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MappingConstraint {
    Consistent,
    Conservative,
    ScaledConsistentSurface,
    ScaledConsistentVolume,
}

/// The mapping method named by the tag suffix (`mapping:nearest-neighbor`, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MappingMethod {
    NearestNeighbor,
    NearestProjection,
    NearestNeighborGradient,
    LinearCellInterpolation,
    RbfGlobalDirect,
    RbfGlobalIterative,
    RbfPumDirect,
    /// The `mapping:rbf` alias.
    Rbf,
    /// Experimental methods we parse but never run (coarse-graining, geometric multiscale).
    Other(String),
}

impl MappingMethod {
    pub fn is_rbf(&self) -> bool {
        matches!(
            self,
            MappingMethod::RbfGlobalDirect
                | MappingMethod::RbfGlobalIterative
                | MappingMethod::RbfPumDirect
                | MappingMethod::Rbf
        )
    }
    /// The tag suffix, for messages.
    pub fn tag(&self) -> &str {
        match self {
            MappingMethod::NearestNeighbor => "nearest-neighbor",
            MappingMethod::NearestProjection => "nearest-projection",
            MappingMethod::NearestNeighborGradient => "nearest-neighbor-gradient",
            MappingMethod::LinearCellInterpolation => "linear-cell-interpolation",
            MappingMethod::RbfGlobalDirect => "rbf-global-direct",
            MappingMethod::RbfGlobalIterative => "rbf-global-iterative",
            MappingMethod::RbfPumDirect => "rbf-pum-direct",
            MappingMethod::Rbf => "rbf",
            MappingMethod::Other(s) => s,
        }
    }
}

/// `<basis-function:NAME>` of an RBF mapping, kept as parsed.
#[derive(Debug, Clone)]
pub struct BasisFunctionDecl {
    pub name: String,
    pub shape_parameter: Option<f64>,
    pub support_radius: Option<f64>,
    pub loc: Location,
}

/// `<mapping:TYPE direction from to constraint>`.
#[derive(Debug, Clone)]
pub struct MappingDecl {
    pub method: MappingMethod,
    pub direction: MappingDirection,
    /// Empty string when the attribute is absent (just-in-time mapping).
    pub from: String,
    pub to: String,
    pub constraint: MappingConstraint,
    pub basis_functions: Vec<BasisFunctionDecl>,
    pub loc: Location,
}

/// `<watch-point name mesh coordinate>`.
#[derive(Debug, Clone)]
pub struct WatchPointDecl {
    pub name: String,
    pub mesh: String,
    pub coordinate: Vec<f64>,
    pub loc: Location,
}

/// `<export:vtu|vtp|vtk|csv>`.
#[derive(Debug, Clone)]
pub struct ExportDecl {
    pub format: String,
    pub directory: String,
    pub every_n_time_windows: i64,
    pub every_iteration: bool,
    pub loc: Location,
}

/// `<participant name>` and everything declared inside it.
#[derive(Debug, Clone)]
pub struct ParticipantDecl {
    pub name: String,
    pub provide_meshes: Vec<ProvideMesh>,
    pub receive_meshes: Vec<ReceiveMesh>,
    pub write_data: Vec<DataUse>,
    pub read_data: Vec<DataUse>,
    pub mappings: Vec<MappingDecl>,
    pub watch_points: Vec<WatchPointDecl>,
    pub exports: Vec<ExportDecl>,
    pub loc: Location,
}

impl ParticipantDecl {
    pub fn provides(&self, mesh: &str) -> bool {
        self.provide_meshes.iter().any(|m| m.name == mesh)
    }
    pub fn receives(&self, mesh: &str) -> Option<&ReceiveMesh> {
        self.receive_meshes.iter().find(|m| m.name == mesh)
    }
    /// Provided or received.
    pub fn uses_mesh(&self, mesh: &str) -> bool {
        self.provides(mesh) || self.receives(mesh).is_some()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum M2nKind {
    Sockets,
    Mpi,
    MpiMultiplePorts,
}

/// `<m2n:sockets acceptor connector ...>` (coupling-semantics.md §8.1). Note the role inversion of
/// §8.2 there: the *connector* listens and publishes the rendezvous file.
#[derive(Debug, Clone)]
pub struct M2nDecl {
    pub kind: M2nKind,
    pub acceptor: String,
    pub connector: String,
    /// 0 = ephemeral.
    pub port: u16,
    /// Interface name; default "lo".
    pub network: String,
    /// Default ".".
    pub exchange_directory: String,
    pub enforce_gather_scatter: bool,
    pub use_two_level_initialization: bool,
    pub loc: Location,
}

impl M2nDecl {
    pub fn connects(&self, a: &str, b: &str) -> bool {
        (self.acceptor == a && self.connector == b) || (self.acceptor == b && self.connector == a)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemeKind {
    SerialExplicit,
    ParallelExplicit,
    SerialImplicit,
    ParallelImplicit,
    Multi,
}

impl SchemeKind {
    pub fn is_serial(self) -> bool {
        matches!(self, SchemeKind::SerialExplicit | SchemeKind::SerialImplicit)
    }
    pub fn is_implicit(self) -> bool {
        matches!(self, SchemeKind::SerialImplicit | SchemeKind::ParallelImplicit | SchemeKind::Multi)
    }
    /// The tag suffix, for messages.
    pub fn tag(self) -> &'static str {
        match self {
            SchemeKind::SerialExplicit => "serial-explicit",
            SchemeKind::ParallelExplicit => "parallel-explicit",
            SchemeKind::SerialImplicit => "serial-implicit",
            SchemeKind::ParallelImplicit => "parallel-implicit",
            SchemeKind::Multi => "multi",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeWindowSize {
    /// `method="fixed"` (default) with its `value`.
    Fixed(f64),
    /// `method="first-participant"`: the first participant's step sizes define the windows.
    FirstParticipant,
}

/// `<exchange data mesh from to initialize substeps>`.
#[derive(Debug, Clone)]
pub struct ExchangeDecl {
    pub data: String,
    pub mesh: String,
    pub from: String,
    pub to: String,
    pub initialize: bool,
    /// Resolved default: false for explicit schemes, true for implicit and multi.
    pub substeps: bool,
    pub loc: Location,
}

/// `<*-convergence-measure>` of an implicit scheme (kept for implicit coupling, coupling-semantics.md §11.3).
#[derive(Debug, Clone)]
pub struct ConvergenceMeasureDecl {
    /// absolute, relative, residual-relative, absolute-or-relative.
    pub kind: String,
    pub data: String,
    pub mesh: String,
    pub limit: Option<f64>,
    pub abs_limit: Option<f64>,
    pub rel_limit: Option<f64>,
    pub strict: bool,
    pub loc: Location,
}

/// `<acceleration:TYPE>` of an implicit scheme (kept for implicit coupling, coupling-semantics.md §11.5).
#[derive(Debug, Clone)]
pub struct AccelerationDecl {
    /// constant, aitken, IQN-ILS, IQN-IMVJ.
    pub kind: String,
    /// (data, mesh) pairs of `<data>` children.
    pub data: Vec<(String, String)>,
    pub relaxation: Option<f64>,
    pub initial_relaxation: Option<f64>,
    pub loc: Location,
}

/// One `<coupling-scheme:*>`.
#[derive(Debug, Clone)]
pub struct CouplingSchemeDecl {
    pub kind: SchemeKind,
    /// Bi-schemes: `<participants first second>`; empty for multi.
    pub first: String,
    pub second: String,
    /// Multi: `(name, control)` of each `<participant>`.
    pub multi_participants: Vec<(String, bool)>,
    pub max_time: Option<f64>,
    pub max_time_windows: Option<u64>,
    pub time_window_size: TimeWindowSize,
    pub exchanges: Vec<ExchangeDecl>,
    pub min_iterations: Option<u32>,
    pub max_iterations: Option<u32>,
    pub convergence_measures: Vec<ConvergenceMeasureDecl>,
    pub acceleration: Option<AccelerationDecl>,
    pub loc: Location,
}

impl CouplingSchemeDecl {
    /// The participants taking part, in declaration order.
    pub fn participant_names(&self) -> Vec<&str> {
        if self.kind == SchemeKind::Multi {
            self.multi_participants.iter().map(|(n, _)| n.as_str()).collect()
        } else {
            vec![self.first.as_str(), self.second.as_str()]
        }
    }
    pub fn involves(&self, participant: &str) -> bool {
        self.participant_names().contains(&participant)
    }
}

impl PreciceConfig {
    pub fn participant(&self, name: &str) -> Option<&ParticipantDecl> {
        self.participants.iter().find(|p| p.name == name)
    }
    pub fn mesh(&self, name: &str) -> Option<&MeshDecl> {
        self.meshes.iter().find(|m| m.name == name)
    }
    pub fn data(&self, name: &str) -> Option<&DataDecl> {
        self.data.iter().find(|d| d.name == name)
    }
    /// Component count of `data` on `mesh`: 1 for scalar, the mesh dimension for vector.
    pub fn data_dimensions(&self, mesh: &str, data: &str) -> Option<usize> {
        let m = self.mesh(mesh)?;
        let d = self.data(data)?;
        Some(match d.kind {
            DataKind::Scalar => 1,
            DataKind::Vector => m.dimensions,
        })
    }
    /// The m2n between two participants, in either order.
    pub fn m2n_between(&self, a: &str, b: &str) -> Option<&M2nDecl> {
        self.m2ns.iter().find(|m| m.connects(a, b))
    }
    /// The schemes a participant takes part in, in configuration order.
    pub fn schemes_of<'a>(&'a self, participant: &'a str) -> impl Iterator<Item = &'a CouplingSchemeDecl> + 'a {
        self.schemes.iter().filter(move |s| s.involves(participant))
    }
}
