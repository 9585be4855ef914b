//! `<participant>` and what it declares: meshes, data access, mappings, watch points, actions, exports.

use crate::diagnostics::Location;

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

/// `polynomial` of an RBF mapping: how the linear part of the field is handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Polynomial {
    /// Fitted first by least squares, the remainder interpolated (the default).
    Separate,
    /// Part of the interpolation system (a saddle-point system).
    On,
    /// No polynomial: the basis functions alone.
    Off,
}

/// The attributes of the RBF methods, with libprecice's defaults where absent.
#[derive(Debug, Clone, PartialEq)]
pub struct RbfOptions {
    /// `polynomial` (default `separate`).
    pub polynomial: Polynomial,
    /// `x-dead`, `y-dead`, `z-dead`: axes left out of the distances (global methods and `rbf`).
    pub dead_axes: [bool; 3],
    /// `solver-rtol` of `rbf-global-iterative` (default 1e-9).
    pub solver_rtol: f64,
    /// `vertices-per-cluster` of `rbf-pum-direct` (default 50).
    pub vertices_per_cluster: i64,
    /// `relative-overlap` of `rbf-pum-direct` (default 0.15).
    pub relative_overlap: f64,
    /// `project-to-input` of `rbf-pum-direct` (default true).
    pub project_to_input: bool,
    /// The `<executor:NAME>` child, `cpu` when absent.
    pub executor: String,
}

impl Default for RbfOptions {
    fn default() -> Self {
        RbfOptions {
            polynomial: Polynomial::Separate,
            dead_axes: [false; 3],
            solver_rtol: 1e-9,
            vertices_per_cluster: 50,
            relative_overlap: 0.15,
            project_to_input: true,
            executor: "cpu".to_string(),
        }
    }
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
    /// The RBF attributes (defaults for the other methods, which take none).
    pub rbf: RbfOptions,
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
    /// `scale-with-connectivity`: integrate over the mesh's elements instead of summing the
    /// vertex values (where the mesh has elements).
    pub scale_with_connectivity: bool,
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
    /// `update-series`: rewrite the `.series` file after every window, not only at the end.
    pub update_series: bool,
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
    /// `<watch-integral>`s.
    pub watch_integrals: Vec<WatchIntegralDecl>,
    /// `<export:*>`s.
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
