//! Typed view of a preCICE v3 XML configuration (docs/design/coupling-semantics.md §9.3). Every item keeps the
//! location it came from, so later checks can point at the right line.

use crate::diagnostics::Location;
use std::path::PathBuf;

/// The whole `<precice-configuration>` file.
#[derive(Debug, Clone, Default)]
pub struct PreciceConfig {
    /// The file it was read from; every [`Location`] of the model points into it.
    pub path: PathBuf,
    /// Hex digest of the raw file bytes; partners compare it at connection time (coupling-semantics.md §8.4).
    pub hash: String,
    /// `experimental="true"`: unlocks experimental features (just-in-time mapping, remeshing, ...).
    pub experimental: bool,
    /// `allow-remeshing`: experimental in preCICE; parsed so it can be checked against `experimental`.
    pub allow_remeshing: bool,
    /// `wait-in-finalize`: in preCICE both sides of every connection meet before closing
    /// (coupling-semantics.md §2.11).
    pub wait_in_finalize: bool,
    /// The `<data:*>` tags, in document order.
    pub data: Vec<DataDecl>,
    /// The `<mesh>` tags, in document order.
    pub meshes: Vec<MeshDecl>,
    /// The `<participant>` tags, in document order.
    pub participants: Vec<ParticipantDecl>,
    /// The `<m2n:*>` tags: which pairs of participants connect, and how.
    pub m2ns: Vec<M2nDecl>,
    /// The `<coupling-scheme:*>` tags, in document order.
    pub schemes: Vec<CouplingSchemeDecl>,
}

/// Whether a datum has one component or one per mesh dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataKind {
    /// `<data:scalar>`: one value per vertex.
    Scalar,
    /// `<data:vector>`: as many values per vertex as the mesh has dimensions.
    Vector,
}

/// `<data:scalar>` / `<data:vector>`.
#[derive(Debug, Clone)]
pub struct DataDecl {
    /// The name meshes, participants and exchanges refer to.
    pub name: String,
    /// Scalar or vector.
    pub kind: DataKind,
    /// `waveform-degree`, default 1.
    pub waveform_degree: u32,
    /// The tag.
    pub loc: Location,
}

/// `<mesh name dimensions>` with its `<use-data>` children.
#[derive(Debug, Clone)]
pub struct MeshDecl {
    /// The name participants and exchanges refer to.
    pub name: String,
    /// Spatial dimension, 2 or 3 (also the size of vector data on it).
    pub dimensions: usize,
    /// The data that may live on it (`<use-data name>`), in order.
    pub use_data: Vec<String>,
    /// The tag.
    pub loc: Location,
}

/// `<provide-mesh name>`: the participant defines this mesh's vertices.
#[derive(Debug, Clone)]
pub struct ProvideMesh {
    /// The mesh.
    pub name: String,
    /// The tag.
    pub loc: Location,
}

/// `<receive-mesh name from api-access>`: the participant gets this mesh from its provider.
#[derive(Debug, Clone)]
pub struct ReceiveMesh {
    /// The mesh.
    pub name: String,
    /// The providing participant; empty when absent (an error reported by `validate`).
    pub from: String,
    /// `api-access` (or the deprecated `direct-access`): the participant reads or writes on it
    /// directly, without a mapping (experimental).
    pub api_access: bool,
    /// The tag.
    pub loc: Location,
}

/// `<write-data>` / `<read-data>` inside a participant.
#[derive(Debug, Clone)]
pub struct DataUse {
    /// The datum.
    pub name: String,
    /// The mesh it is read or written on.
    pub mesh: String,
    /// The tag.
    pub loc: Location,
}

/// When a mapping runs (coupling-semantics.md §7.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MappingDirection {
    /// From a received mesh to a provided one, after data arrive.
    Read,
    /// From a provided mesh to a received one, before data are sent.
    Write,
}

/// What a mapping preserves (coupling-semantics.md §7.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MappingConstraint {
    /// Interpolation, for intensive quantities (positions, velocities).
    Consistent,
    /// Sums kept, for extensive quantities (nodal forces).
    Conservative,
    /// Consistent, then scaled to keep the surface integral (needs connectivity).
    ScaledConsistentSurface,
    /// Consistent, then scaled to keep the volume integral (needs connectivity).
    ScaledConsistentVolume,
}

/// The mapping method named by the tag suffix (`mapping:nearest-neighbor`, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MappingMethod {
    /// The closest vertex; the one method the native engine runs.
    NearestNeighbor,
    /// Projection onto edges and triangles, nearest vertex as fallback.
    NearestProjection,
    /// Nearest neighbor corrected by gradient data (experimental).
    NearestNeighborGradient,
    /// Barycentric interpolation inside the cells of the input mesh.
    LinearCellInterpolation,
    /// RBF with one global system, solved directly.
    RbfGlobalDirect,
    /// RBF with one global system, solved iteratively.
    RbfGlobalIterative,
    /// RBF on overlapping clusters (partition of unity).
    RbfPumDirect,
    /// The `mapping:rbf` alias.
    Rbf,
    /// Experimental methods we parse but never run (coarse-graining, geometric multiscale).
    Other(String),
}

impl MappingMethod {
    /// True for the RBF methods, which need exactly one `<basis-function:*>`.
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
    /// The tag suffix (`thin-plate-splines`, `gaussian`, `compact-polynomial-c2`, ...).
    pub name: String,
    /// `shape-parameter`, for the basis functions that take one.
    pub shape_parameter: Option<f64>,
    /// `support-radius`, for the compactly supported ones (and `gaussian`, as an alternative).
    pub support_radius: Option<f64>,
    /// The tag.
    pub loc: Location,
}

/// `<mapping:TYPE direction from to constraint>`.
#[derive(Debug, Clone)]
pub struct MappingDecl {
    /// The tag suffix.
    pub method: MappingMethod,
    /// `direction`: read or write.
    pub direction: MappingDirection,
    /// Empty string when the attribute is absent (just-in-time mapping).
    pub from: String,
    /// The output mesh; empty when absent (just-in-time mapping).
    pub to: String,
    /// `constraint`.
    pub constraint: MappingConstraint,
    /// The `<basis-function:*>` children (one is required for RBF methods, none allowed otherwise).
    pub basis_functions: Vec<BasisFunctionDecl>,
    /// The tag.
    pub loc: Location,
}

/// `<watch-point name mesh coordinate>`.
#[derive(Debug, Clone)]
pub struct WatchPointDecl {
    /// Names the output file (`precice-<participant>-watchpoint-<name>.log`).
    pub name: String,
    /// A mesh the participant provides.
    pub mesh: String,
    /// The point watched; as many components as the mesh has dimensions.
    pub coordinate: Vec<f64>,
    /// The tag.
    pub loc: Location,
}

/// `<watch-integral name mesh scale-with-connectivity>`.
#[derive(Debug, Clone)]
pub struct WatchIntegralDecl {
    /// Names the output file (`precice-<participant>-watchintegral-<name>.log`).
    pub name: String,
    /// A mesh the participant provides.
    pub mesh: String,
    /// The tag.
    pub loc: Location,
}

/// `<action:TYPE timing mesh>`: a data action run around the mappings (multiply-by-area,
/// divide-by-area, summation, python, recorder).
#[derive(Debug, Clone)]
pub struct ActionDecl {
    /// The tag suffix.
    pub kind: String,
    /// The mesh whose data it changes.
    pub mesh: String,
    /// The tag.
    pub loc: Location,
}

/// `<export:vtu|vtp|vtk|csv>`.
#[derive(Debug, Clone)]
pub struct ExportDecl {
    /// The tag suffix: `vtu`, `vtp`, `vtk` or `csv`.
    pub format: String,
    /// `directory`, default ".".
    pub directory: String,
    /// `every-n-time-windows`, default 1.
    pub every_n_time_windows: i64,
    /// `every-iteration`: also export the iterations of implicit windows.
    pub every_iteration: bool,
    /// The tag.
    pub loc: Location,
}

/// `<participant name>` and everything declared inside it.
#[derive(Debug, Clone)]
pub struct ParticipantDecl {
    /// The name a participant process is started with.
    pub name: String,
    /// Meshes whose vertices it defines.
    pub provide_meshes: Vec<ProvideMesh>,
    /// Meshes it gets from their providers.
    pub receive_meshes: Vec<ReceiveMesh>,
    /// `<write-data>`: what its adapter may write, and on which mesh.
    pub write_data: Vec<DataUse>,
    /// `<read-data>`: what its adapter may read, and on which mesh.
    pub read_data: Vec<DataUse>,
    /// The mappings that run on this participant.
    pub mappings: Vec<MappingDecl>,
    /// `<watch-point>`s (validated; the native engine writes no files for them yet).
    pub watch_points: Vec<WatchPointDecl>,
    /// `<watch-integral>`s (validated; the native engine writes no files for them yet).
    pub watch_integrals: Vec<WatchIntegralDecl>,
    /// `<export:*>`s (validated; the native engine writes no files for them yet).
    pub exports: Vec<ExportDecl>,
    /// `<action:*>`s (validated; the native engine refuses them).
    pub actions: Vec<ActionDecl>,
    /// The tag.
    pub loc: Location,
}

impl ParticipantDecl {
    /// Whether it has `<provide-mesh name="mesh">`.
    pub fn provides(&self, mesh: &str) -> bool {
        self.provide_meshes.iter().any(|m| m.name == mesh)
    }
    /// Its `<receive-mesh>` of `mesh`, if it receives it.
    pub fn receives(&self, mesh: &str) -> Option<&ReceiveMesh> {
        self.receive_meshes.iter().find(|m| m.name == mesh)
    }
    /// Provided or received.
    pub fn uses_mesh(&self, mesh: &str) -> bool {
        self.provides(mesh) || self.receives(mesh).is_some()
    }
}

/// The transport of an `<m2n:*>`; the native engine speaks sockets only (coupling-semantics.md §10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum M2nKind {
    /// `m2n:sockets`: TCP, with rendezvous files in the exchange directory.
    Sockets,
    /// `m2n:mpi` (refused by the native engine).
    Mpi,
    /// `m2n:mpi-multiple-ports` (refused by the native engine).
    MpiMultiplePorts,
}

/// `<m2n:sockets acceptor connector ...>` (coupling-semantics.md §8.1). Note the role inversion of
/// §8.2 there: the *connector* listens and publishes the rendezvous file.
#[derive(Debug, Clone)]
pub struct M2nDecl {
    /// The transport.
    pub kind: M2nKind,
    /// The participant that reads the rendezvous file and connects.
    pub acceptor: String,
    /// The participant that listens and publishes the rendezvous file.
    pub connector: String,
    /// 0 = ephemeral.
    pub port: u16,
    /// Interface name; default "lo".
    pub network: String,
    /// Default ".".
    pub exchange_directory: String,
    /// `enforce-gather-scatter`: route all data through the primary ranks (parallel runs only).
    pub enforce_gather_scatter: bool,
    /// `use-two-level-initialization` (parallel runs only; a warning for serial ones).
    pub use_two_level_initialization: bool,
    /// The tag.
    pub loc: Location,
}

impl M2nDecl {
    /// Whether it joins `a` and `b`, in either role.
    pub fn connects(&self, a: &str, b: &str) -> bool {
        (self.acceptor == a && self.connector == b) || (self.acceptor == b && self.connector == a)
    }
}

/// The `<coupling-scheme:*>` tag suffix: order (serial or parallel) and iteration (explicit or implicit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemeKind {
    /// First then second, once per window.
    SerialExplicit,
    /// Both at once, once per window.
    ParallelExplicit,
    /// First then second, windows repeated until converged.
    SerialImplicit,
    /// Both at once, windows repeated until converged.
    ParallelImplicit,
    /// Several participants in one implicit scheme, one of them the controller.
    Multi,
}

impl SchemeKind {
    /// True when the second participant runs after the first in each window (what
    /// `read_data_time: WINDOW_END` needs, coupling-semantics.md §6.3).
    pub fn is_serial(self) -> bool {
        matches!(self, SchemeKind::SerialExplicit | SchemeKind::SerialImplicit)
    }
    /// True when windows can be repeated, so participants must checkpoint.
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

/// `<time-window-size value method>`: how long a coupling window is (coupling-semantics.md §3.4).
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
    /// The datum sent.
    pub data: String,
    /// The mesh it is sent on (provided by one side, received by the other).
    pub mesh: String,
    /// The sending participant.
    pub from: String,
    /// The receiving participant.
    pub to: String,
    /// `initialize`: the sender writes initial data, sent in `initialize` (coupling-semantics.md §5.4).
    pub initialize: bool,
    /// Resolved default: false for explicit schemes, true for implicit and multi.
    pub substeps: bool,
    /// The tag.
    pub loc: Location,
}

/// `<*-convergence-measure>` of an implicit scheme (coupling-semantics.md §11.3).
#[derive(Debug, Clone)]
pub struct ConvergenceMeasureDecl {
    /// absolute, relative, residual-relative, absolute-or-relative.
    pub kind: String,
    /// The datum measured.
    pub data: String,
    /// The mesh it is measured on.
    pub mesh: String,
    /// `limit` of the single-limit measures.
    pub limit: Option<f64>,
    /// `abs-limit` of `absolute-or-relative`.
    pub abs_limit: Option<f64>,
    /// `rel-limit` of `absolute-or-relative`.
    pub rel_limit: Option<f64>,
    /// `strict`: still unconverged at `max-iterations` is an error instead of forced convergence
    /// (coupling-semantics.md §11.2).
    pub strict: bool,
    /// `suffices`: this measure alone converging accepts the window (unless a strict one is unconverged).
    pub suffices: bool,
    /// The tag.
    pub loc: Location,
}

/// `<acceleration:TYPE>` of an implicit scheme (kept for implicit coupling, coupling-semantics.md §11.5).
///
/// Every optional field is `None` when the XML does not give it; the defaults are resolved in
/// one place, `coupling::native::acceleration::settings`, because several depend on the kind
/// (IQN-ILS and IQN-IMVJ differ) or on whether a tag is present at all (the filter limit).
#[derive(Debug, Clone, Default)]
pub struct AccelerationDecl {
    /// constant, aitken, IQN-ILS, IQN-IMVJ.
    pub kind: String,
    /// (data, mesh) pairs of `<data>` children.
    pub data: Vec<(String, String)>,
    /// `scaling` of each `<data>` child, parallel to `data` (used by the constant preconditioner).
    pub scaling: Vec<Option<f64>>,
    /// `<relaxation value>` of constant relaxation, in (0, 1].
    pub relaxation: Option<f64>,
    /// `<initial-relaxation value>` of Aitken and the quasi-Newton methods, in (0, 1].
    pub initial_relaxation: Option<f64>,
    /// `<initial-relaxation enforce>` of the quasi-Newton methods: relax in the first iteration of every window.
    pub enforce_initial_relaxation: Option<bool>,
    /// `<max-used-iterations value>` (> 0): the most quasi-Newton columns kept.
    pub max_used_iterations: Option<usize>,
    /// `<time-windows-reused value>` (≥ 0): how many past windows' columns the quasi-Newton methods keep.
    pub time_windows_reused: Option<usize>,
    /// `<filter type limit>`: how nearly linearly dependent quasi-Newton columns are removed.
    pub filter: Option<FilterDecl>,
    /// `<preconditioner type update-on-threshold freeze-after>`: the weights of the primary data blocks.
    pub preconditioner: Option<PreconditionerDecl>,
    /// `reduced-time-grid` of the quasi-Newton methods: primary residuals use only the window-end sample.
    pub reduced_time_grid: Option<bool>,
    /// `on-bound-violation` of the quasi-Newton methods (the native engine supports only `ignore`).
    pub on_bound_violation: Option<BoundViolation>,
    /// `always-build-jacobian` of IQN-IMVJ: form the inverse Jacobian explicitly in every iteration.
    pub always_build_jacobian: Option<bool>,
    /// `<imvj-restart-mode>` of IQN-IMVJ.
    pub imvj_restart: Option<ImvjRestartDecl>,
    /// The tag.
    pub loc: Location,
}

impl AccelerationDecl {
    /// An acceleration of `kind` with nothing but its location set, as the parser starts it
    /// (and as tests build one by hand).
    pub fn new(kind: impl Into<String>, loc: Location) -> Self {
        AccelerationDecl { kind: kind.into(), loc, ..Default::default() }
    }
}

/// `<filter type>` of the quasi-Newton methods: which QR filter drops nearly dependent columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterKind {
    /// `QR1`: delete columns whose diagonal entry of R is small relative to ‖R‖_F.
    Qr1,
    /// `QR1-absolute`: delete columns whose diagonal entry of R is small in absolute terms.
    Qr1Absolute,
    /// `QR2`: rebuild the QR by Gram–Schmidt, deleting columns that are mostly in the span of newer ones.
    Qr2,
    /// `QR3`: QR2, but only when a newly added column fails the QR2 test.
    Qr3,
}

impl FilterKind {
    /// The XML spelling, for messages.
    pub fn tag(self) -> &'static str {
        match self {
            FilterKind::Qr1 => "QR1",
            FilterKind::Qr1Absolute => "QR1-absolute",
            FilterKind::Qr2 => "QR2",
            FilterKind::Qr3 => "QR3",
        }
    }
}

/// `<filter>` as written: the limit is kept optional because its default depends on the tag's presence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FilterDecl {
    /// `type`.
    pub kind: FilterKind,
    /// `limit` (> 0), absent when not written.
    pub limit: Option<f64>,
}

/// `<preconditioner type>`: how the primary data blocks are weighted in the residual.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreconditionerKind {
    /// `constant`: 1 / `scaling` of the `<data>` tag.
    Constant,
    /// `value`: 1 / norm of the block's values.
    Value,
    /// `residual`: 1 / norm of the block's residual.
    Residual,
    /// `residual-sum`: 1 / sum over the window's iterations of the block's share of the residual norm.
    ResidualSum,
}

/// `<preconditioner>` as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PreconditionerDecl {
    /// `type`.
    pub kind: PreconditionerKind,
    /// `update-on-threshold`: residual-sum weights change after the first window only by more than a factor 10.
    pub update_on_threshold: Option<bool>,
    /// `freeze-after`: weights stop changing after this many windows (−1: never).
    pub freeze_after: Option<i64>,
}

/// `on-bound-violation` of the quasi-Newton methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundViolation {
    /// `ignore`: the update is sent as computed.
    Ignore,
    /// `clamp`: values outside the data's bounds are clamped.
    Clamp,
    /// `discard`: an update that violates the bounds is discarded.
    Discard,
    /// `scale`: the update is scaled to stay within the bounds.
    Scale,
}

impl BoundViolation {
    /// The XML spelling, for messages.
    pub fn tag(self) -> &'static str {
        match self {
            BoundViolation::Ignore => "ignore",
            BoundViolation::Clamp => "clamp",
            BoundViolation::Discard => "discard",
            BoundViolation::Scale => "scale",
        }
    }
}

/// `<imvj-restart-mode type>`: how IQN-IMVJ limits what its inverse Jacobian remembers
/// (Scheufele & Mehl 2017).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImvjRestartKind {
    /// `no-restart`: the Jacobian keeps everything.
    NoRestart,
    /// `RS-0`: every chunk the Jacobian is reset to zero.
    Rs0,
    /// `RS-LS`: every chunk the Jacobian is rebuilt by least squares from the last windows' columns.
    RsLs,
    /// `RS-SVD`: every chunk the Jacobian is replaced by its truncated SVD.
    RsSvd,
    /// `RS-SLIDE`: every window the Jacobian is rebuilt from the last chunk of windows.
    RsSlide,
}

/// `<imvj-restart-mode>` as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImvjRestartDecl {
    /// `type`.
    pub kind: ImvjRestartKind,
    /// `chunk-size` (> 0): windows per restart chunk.
    pub chunk_size: Option<usize>,
    /// `reused-time-windows-at-restart` (≥ 0): windows whose columns RS-LS rebuilds from.
    pub reused_time_windows_at_restart: Option<usize>,
    /// `truncation-threshold` (> 0): RS-SVD drops singular values below it times the largest.
    pub truncation_threshold: Option<f64>,
}

/// One `<coupling-scheme:*>`.
#[derive(Debug, Clone)]
pub struct CouplingSchemeDecl {
    /// The tag suffix.
    pub kind: SchemeKind,
    /// Bi-schemes: `<participants first second>`; empty for multi.
    pub first: String,
    /// Bi-schemes: the participant that runs second in serial schemes; empty for multi.
    pub second: String,
    /// Multi: `(name, control)` of each `<participant>`.
    pub multi_participants: Vec<(String, bool)>,
    /// `<max-time value>`: the coupling ends at this time.
    pub max_time: Option<f64>,
    /// `<max-time-windows value>`: the coupling ends after this many windows.
    pub max_time_windows: Option<u64>,
    /// `<time-window-size>`.
    pub time_window_size: TimeWindowSize,
    /// The `<exchange>`s, in document order.
    pub exchanges: Vec<ExchangeDecl>,
    /// Implicit schemes: `<min-iterations value>`.
    pub min_iterations: Option<u32>,
    /// Implicit schemes: `<max-iterations value>`.
    pub max_iterations: Option<u32>,
    /// Implicit schemes: the `<*-convergence-measure>`s that decide when a window has converged.
    pub convergence_measures: Vec<ConvergenceMeasureDecl>,
    /// Implicit schemes: the `<acceleration:*>`, at most one.
    pub acceleration: Option<AccelerationDecl>,
    /// The tag.
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
    /// Whether `participant` takes part in it.
    pub fn involves(&self, participant: &str) -> bool {
        self.participant_names().contains(&participant)
    }
}

impl PreciceConfig {
    /// The `<participant>` called `name`.
    pub fn participant(&self, name: &str) -> Option<&ParticipantDecl> {
        self.participants.iter().find(|p| p.name == name)
    }
    /// The `<mesh>` called `name`.
    pub fn mesh(&self, name: &str) -> Option<&MeshDecl> {
        self.meshes.iter().find(|m| m.name == name)
    }
    /// The `<data:*>` called `name`.
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
