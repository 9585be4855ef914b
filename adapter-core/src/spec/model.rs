//! Typed view of a participant YAML file. Keys and spellings follow Chrono's preCICE
//! module so its case files read unchanged; `precice_adapter_config` is the part the
//! adapters use, the rest (model, solver, simulation, output) is participant glue.

use crate::diagnostics::Location;
use std::path::PathBuf;

/// When, inside a coupling window, a participant samples the data it reads (docs/design/coupling-semantics.md §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReadDataTime {
    /// Value at the window start, held for every sub-step (the default; carries a one-window lag).
    #[default]
    WindowStart,
    /// Value at the window end; only valid for the second participant of serial schemes.
    WindowEnd,
}

/// How a coupling mesh is built from the solver's objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MeshType {
    /// One vertex per coupling body, at its reference frame.
    RigidBodyRefs,
    /// The points of every coupling body, in body order.
    RigidBodyPoints,
    /// `FEA_MESH_NODES` / `FEA_MESH_POINTS`: parsed, rejected at start-up by the adapters.
    Fea(String),
}

impl MeshType {
    /// The `mesh_type` spelling, for messages.
    pub fn as_str(&self) -> &str {
        match self {
            MeshType::RigidBodyRefs => "RIGID_BODY_REFS",
            MeshType::RigidBodyPoints => "RIGID_BODY_POINTS",
            MeshType::Fea(s) => s,
        }
    }
}

/// The physical meaning of a coupling datum; the adapter translates it to solver state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataType {
    /// Reference-frame origin (or point), world coordinates.
    Positions,
    /// Rotation vectors (axis × angle), world axes.
    Rotations,
    /// Positions relative to the initial pose.
    Displacements,
    /// Linear velocities, world axes.
    LinearVelocities,
    /// Angular velocities, world axes.
    AngularVelocities,
    /// Forces, world axes; on `RIGID_BODY_REFS` applied at the reference-frame origin.
    Forces,
    /// Torques, world axes (3 components in 3D, 1 in 2D).
    Torques,
    /// Added-mass coefficients (docs/design/added-mass.md §6).
    AddedMass,
}

impl DataType {
    /// Every type with its YAML spelling: the parser's choices and [`DataType::as_str`]'s table.
    pub const ALL: [(&'static str, DataType); 8] = [
        ("POSITIONS", DataType::Positions),
        ("ROTATIONS", DataType::Rotations),
        ("DISPLACEMENTS", DataType::Displacements),
        ("LINEAR_VELOCITIES", DataType::LinearVelocities),
        ("ANGULAR_VELOCITIES", DataType::AngularVelocities),
        ("FORCES", DataType::Forces),
        ("TORQUES", DataType::Torques),
        ("ADDED_MASS", DataType::AddedMass),
    ];
    /// The YAML spelling, for messages.
    pub fn as_str(self) -> &'static str {
        DataType::ALL.iter().find(|(_, t)| *t == self).map(|(s, _)| *s).unwrap_or("?")
    }
}

/// One `{name, type}` entry of `write_data` / `read_data`.
#[derive(Debug, Clone, PartialEq)]
pub struct DataSpec {
    /// The preCICE data name (must exist in the XML on this mesh).
    pub name: String,
    /// Its physical meaning, which decides how the adapter translates it.
    pub data_type: DataType,
    /// The entry.
    pub loc: Location,
}

/// One entry of `interfaces`.
#[derive(Debug, Clone, PartialEq)]
pub struct InterfaceSpec {
    /// The preCICE mesh, one the participant provides or receives in the XML.
    pub mesh_name: String,
    /// How its vertices are built from the bodies.
    pub mesh_type: MeshType,
    /// What the adapter writes on it (must match the XML's `<write-data>`).
    pub write_data: Vec<DataSpec>,
    /// What the adapter reads on it (must match the XML's `<read-data>`).
    pub read_data: Vec<DataSpec>,
    /// The entry.
    pub loc: Location,
}

/// Where a coupling body's points come from.
#[derive(Debug, Clone, PartialEq)]
pub enum PointsSpec {
    /// Inline `[[x, y, z], ...]` in the body frame.
    Inline(Vec<[f64; 3]>),
    /// A file name (relative to `data_path`): text coordinates, `.obj` or `.stl`.
    File(String),
}

/// One entry of `bodies`.
#[derive(Debug, Clone, PartialEq)]
pub struct CouplingBodySpec {
    /// The body of the participant's model it stands for.
    pub name: String,
    /// Its points on a `RIGID_BODY_POINTS` mesh (MBS).
    pub points: Option<PointsSpec>,
    /// Initial pose, used by fluid participants that build their own proxies.
    pub location: Option<[f64; 3]>,
    /// Initial orientation, Chrono's three angles Rz·Ry·Rx (unit from `angle_degrees`).
    pub orientation: Option<[f64; 3]>,
    /// The entry.
    pub loc: Location,
}

/// `data_path: {type: RELATIVE|ABSOLUTE, root}`.
#[derive(Debug, Clone, PartialEq)]
pub struct DataPath {
    /// `ABSOLUTE`: `root` as is; `RELATIVE` (default): `root` under the participant file's folder.
    pub absolute: bool,
    /// The folder data files are looked up in.
    pub root: String,
}

/// The `precice_adapter_config` section.
#[derive(Debug, Clone, PartialEq)]
pub struct AdapterConfig {
    /// The `<participant name>` of the XML this file drives.
    pub participant_name: String,
    /// Where data files (points, BEM files) are found; this file's folder without it.
    pub data_path: Option<DataPath>,
    /// Unit of the bodies' `orientation` angles: degrees unless `false`.
    pub angle_degrees: Option<bool>,
    /// The coupling bodies; their order is the vertex order of the coupling meshes.
    pub bodies: Vec<CouplingBodySpec>,
    /// The coupling meshes and what is exchanged on them.
    pub interfaces: Vec<InterfaceSpec>,
    /// When in a window read data are sampled.
    pub read_data_time: ReadDataTime,
    /// Location of the `read_data_time` key (or of the section when absent).
    pub read_data_time_loc: Location,
    /// `added_mass`: the (baseline) added mass of the coupling bodies; used by the MBS
    /// participant only when the preCICE XML declares added-mass meshes.
    pub added_mass: Option<AddedMassSpec>,
    /// The `participant_name` key (or the section when it is missing): where a wrong name is reported.
    pub loc: Location,
}

/// `precice_adapter_config.added_mass`: where the coupling bodies' infinite-frequency added
/// mass comes from (docs/design/added-mass.md §5). Association is by index: block / file body `i` and column group
/// `i` belong to coupling body `i` of `bodies`.
#[derive(Debug, Clone, PartialEq)]
pub struct AddedMassSpec {
    /// A BEMIO file or inline coefficients.
    pub source: AddedMassSource,
    /// `reference_points`: the point each body's coefficients are about (body reference frame);
    /// bodies not listed default to their centre of mass.
    pub reference_points: Vec<ReferencePointSpec>,
    /// `body_to_body` (default true): keep the blocks coupling different bodies; false keeps each
    /// body's own 6 × 6 block only, as WEC-Sim does by default (match the fluid's setting).
    pub body_to_body: bool,
    /// `symmetry_tolerance` (BEMIO files only): the relative asymmetry of the file's coefficients
    /// accepted without a warning (default 0.01); BEM solutions are symmetric only to their accuracy.
    pub symmetry_tolerance: Option<f64>,
    /// The `added_mass` key.
    pub loc: Location,
}

/// The two ways to give the coefficients.
#[derive(Debug, Clone, PartialEq)]
pub enum AddedMassSource {
    /// `h5_filename`: a BEMIO HDF5 file (resolved through `data_path`); `/body{i+1}`'s A∞,
    /// already × ρ, in inertial axes.
    H5 {
        /// The file name, resolved through `data_path`.
        filename: String,
        /// The `h5_filename` key.
        loc: Location,
    },
    /// `density` + `frame` + `blocks`: coefficients written out, each multiplied by `density`.
    Inline(InlineAddedMass),
}

/// The axes inline coefficients are expressed in (`frame`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AddedMassFrame {
    /// World axes (BEM convention; the default).
    #[default]
    Inertial,
    /// The axes of each body's reference frame (coefficients turning with the body).
    Body,
}

/// Inline coefficients: one 6 × 6·Nb block per coupling body, values as written (× `density`
/// gives kg, kg·m, kg·m²; see [`InlineAddedMass::block_si`]).
#[derive(Debug, Clone, PartialEq)]
pub struct InlineAddedMass {
    /// The fluid density ρ every value is multiplied by (1 when the values are already in kg, kg·m, kg·m²).
    pub density: f64,
    /// The axes the coefficients are expressed in.
    pub frame: AddedMassFrame,
    /// One block per coupling body, in `bodies` order.
    pub blocks: Vec<AddedMassBlockSpec>,
}

impl InlineAddedMass {
    /// The rows of block `i` multiplied by the density (SI units), or `None` past the end.
    pub fn block_si(&self, i: usize) -> Option<Vec<Vec<f64>>> {
        let b = self.blocks.get(i)?;
        Some(b.data.iter().map(|row| row.iter().map(|v| v * self.density).collect()).collect())
    }
}

/// One entry of `added_mass.blocks`: the coupling body it belongs to and its 6 rows of 6·Nb values.
#[derive(Debug, Clone, PartialEq)]
pub struct AddedMassBlockSpec {
    /// The coupling body, checked against `bodies` by the MBS participant.
    pub name: String,
    /// 6 rows of 6·Nb values, as written (not yet × `density`).
    pub data: Vec<Vec<f64>>,
    /// The entry.
    pub loc: Location,
}

/// One entry of `added_mass.reference_points`.
#[derive(Debug, Clone, PartialEq)]
pub struct ReferencePointSpec {
    /// The coupling body.
    pub name: String,
    /// In the body reference frame.
    pub point: [f64; 3],
    /// The entry.
    pub loc: Location,
}

/// The `simulation` section.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SimulationSpec {
    /// Never used for the duration (the XML decides); anything but -1 gives a warning.
    pub end_time: Option<f64>,
    /// MBS: pace every window to the wall clock.
    pub enforce_realtime: bool,
    /// The gravity vector; must agree between participants (`tidelink check` compares it).
    pub gravity: Option<[f64; 3]>,
    /// The `gravity` key, for `tidelink check`'s message when participants disagree.
    pub gravity_loc: Option<Location>,
}

/// The `output` section.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OutputSpec {
    /// NONE, CSV, HDF5 (Chrono spelling).
    pub format: Option<String>,
    /// `FRAMES` or `SERIES` (Chrono's key; accepted, not used by the participants).
    pub mode: Option<String>,
    /// MBS: output rows per second of coupled time; one row per window without it.
    pub fps: Option<f64>,
    /// Output folder, relative to the participant file (Tidelink extension; default "output").
    pub directory: Option<String>,
    /// MBS: also write the bodies' shapes as a ParaView scene (`bodies.pvd`; Tidelink extension).
    pub vtk: bool,
    /// Where the output folder is named (`output.directory`, else `output`), for messages about it.
    pub loc: Option<Location>,
}

/// A whole participant file.
#[derive(Debug, Clone, PartialEq)]
pub struct ParticipantFile {
    /// The file itself; relative names in it resolve against its folder.
    pub path: PathBuf,
    /// `type` (MBS, SPH, TDPF, BUOYANCY, ...).
    pub participant_type: Option<String>,
    /// Where `type` is written (the file's first line when it is absent).
    pub participant_type_loc: Location,
    /// `model` file, relative to this file.
    pub model: Option<String>,
    /// `solver` file, relative to this file.
    pub solver: Option<String>,
    /// `simulation`: gravity, real-time pacing (the duration is the XML's).
    pub simulation: SimulationSpec,
    /// `output`: what the participant writes and where.
    pub output: OutputSpec,
    /// `precice_adapter_config`: how the participant couples.
    pub adapter: AdapterConfig,
}

impl ParticipantFile {
    /// Directory of the file, against which `model`, `solver` and `data_path` resolve.
    pub fn dir(&self) -> PathBuf {
        self.path.parent().map(|p| p.to_path_buf()).unwrap_or_default()
    }
    /// Resolves a data file name through `data_path` (Chrono semantics: relative to this file).
    pub fn data_file(&self, name: &str) -> PathBuf {
        let base = match &self.adapter.data_path {
            Some(DataPath { absolute: true, root }) => PathBuf::from(root),
            Some(DataPath { absolute: false, root }) => self.dir().join(root),
            None => self.dir(),
        };
        base.join(name)
    }
    /// The `interfaces` entry of `mesh`, if the file lists it.
    pub fn interface(&self, mesh: &str) -> Option<&InterfaceSpec> {
        self.adapter.interfaces.iter().find(|i| i.mesh_name == mesh)
    }
}
