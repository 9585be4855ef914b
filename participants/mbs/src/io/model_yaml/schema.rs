//! The model file as written: serde's view of Chrono's MBS model format, checked for unknown
//! keys; [`super::build`] turns it into solver structs.

use crate::io::shape_yaml::{ContactEntry, VisualizationEntry};
use serde::de::IgnoredAny;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ModelFile {
    #[serde(rename = "chrono-version")]
    pub(super) _chrono_version: Option<IgnoredAny>,
    pub(super) model: ModelSection,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ModelSection {
    pub(super) name: Option<String>,
    pub(super) angle_degrees: Option<bool>,
    pub(super) data_path: Option<IgnoredAny>,
    pub(super) bodies: Vec<BodyEntry>,
    #[serde(default)]
    pub(super) joints: Vec<JointEntry>,
    pub(super) constraints: Option<IgnoredAny>,
    #[serde(default)]
    pub(super) tsdas: Vec<TsdaEntry>,
    #[serde(default)]
    pub(super) rsdas: Vec<RsdaEntry>,
    /// Links driven by external force modules (docs/external-modules.md).
    #[serde(default)]
    pub(super) external_ptos: Vec<ExternalPtoEntry>,
    /// One external module's entry in a file of its own (a path relative to this file).
    pub(super) external_pto_file: Option<String>,
    /// One external module's entry written here, for small one-offs (not with the file).
    pub(super) external_pto: Option<ExternalPtoEntry>,
    /// 6-DOF body forces from external modules (docs/external-modules.md).
    #[serde(default)]
    pub(super) external_forces: Vec<ExternalForceEntry>,
    pub(super) body_loads: Option<IgnoredAny>,
    pub(super) motors: Option<IgnoredAny>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BodyEntry {
    pub(super) name: String,
    pub(super) location: [f64; 3],
    pub(super) orientation: Option<Vec<f64>>,
    #[serde(default)]
    pub(super) fixed: bool,
    pub(super) mass: Option<MassEntry>,
    pub(super) com: Option<ComEntry>,
    pub(super) inertia: Option<InertiaEntry>,
    pub(super) initial_linear_velocity: Option<[f64; 3]>,
    pub(super) initial_angular_velocity: Option<[f64; 3]>,
    pub(super) visualization: Option<VisualizationEntry>,
    pub(super) contact: Option<ContactEntry>,
}

/// A body's `mass`: kilograms, or `equilibrium` (WEC-Sim's word): the water its hull
/// displaces at rest, ρ V of the hydrodynamic file, so that it floats where the file says.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum MassEntry {
    Value(f64),
    Keyword(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ComEntry {
    pub(super) location: Option<[f64; 3]>,
    pub(super) orientation: Option<Vec<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct InertiaEntry {
    pub(super) moments: Option<[f64; 3]>,
    pub(super) products: Option<[f64; 3]>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JointEntry {
    pub(super) name: String,
    #[serde(rename = "type")]
    pub(super) kind: String,
    pub(super) body1: String,
    pub(super) body2: String,
    pub(super) location: Option<[f64; 3]>,
    pub(super) axis: Option<[f64; 3]>,
    pub(super) axis1: Option<[f64; 3]>,
    pub(super) axis2: Option<[f64; 3]>,
    pub(super) orientation: Option<Vec<f64>>,
    pub(super) point1: Option<[f64; 3]>,
    pub(super) point2: Option<[f64; 3]>,
    pub(super) visualization: Option<IgnoredAny>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TsdaEntry {
    pub(super) name: String,
    pub(super) body1: String,
    pub(super) body2: String,
    pub(super) point1: [f64; 3],
    pub(super) point2: [f64; 3],
    #[serde(default)]
    pub(super) spring_coefficient: f64,
    #[serde(default)]
    pub(super) damping_coefficient: f64,
    #[serde(default)]
    pub(super) preload: f64,
    pub(super) free_length: Option<f64>,
    /// The body states the element's outputs depend on (bodies or `<body>.<channel>`);
    /// all of its bodies' states when absent.
    pub(super) depends_on: Option<Vec<String>>,
    pub(super) visualization: Option<IgnoredAny>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RsdaEntry {
    pub(super) name: String,
    pub(super) body1: String,
    pub(super) body2: String,
    pub(super) location: Option<[f64; 3]>,
    pub(super) axis: [f64; 3],
    #[serde(default)]
    pub(super) spring_coefficient: f64,
    #[serde(default)]
    pub(super) damping_coefficient: f64,
    #[serde(default)]
    pub(super) preload: f64,
    #[serde(default)]
    pub(super) free_angle: f64,
    /// Spring coefficients that take over during the run (a stiffening spring).
    #[serde(default)]
    pub(super) spring_schedule: Vec<SpringStepEntry>,
    /// The body states the element's outputs depend on (bodies or `<body>.<channel>`);
    /// all of its bodies' states when absent.
    pub(super) depends_on: Option<Vec<String>>,
    pub(super) visualization: Option<IgnoredAny>,
}

/// An external 6-DOF body-force model on some bodies of the model.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ExternalForceEntry {
    /// The model's name, for messages and outputs.
    pub(super) name: String,
    /// The bodies it pushes, in the order of its inputs and outputs.
    pub(super) bodies: Vec<String>,
    /// The child's argv; `--tidelink-port N` is appended.
    pub(super) command: Vec<String>,
    /// Limit on every reply (ms).
    pub(super) timeout_ms: Option<u64>,
    /// The module's settings, passed through as JSON.
    pub(super) config: Option<serde_yaml::Value>,
    /// The body states the element's outputs depend on (bodies or `<body>.<channel>`);
    /// all of its bodies' states when absent.
    pub(super) depends_on: Option<Vec<String>>,
}

/// From time `from` (s) on, the RSDA's spring coefficient is `spring_coefficient` (N m/rad).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SpringStepEntry {
    pub(super) from: f64,
    pub(super) spring_coefficient: f64,
}

/// An external power take-off on a TSDA or RSDA of the model (an entry of `external_ptos`, the
/// map `external_pto`, or the whole of an `external_pto_file`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ExternalPtoEntry {
    /// The name of a TSDA or RSDA (its kind decides force or torque).
    pub(super) link: String,
    /// The child's argv; `--tidelink-port N` is appended.
    pub(super) command: Vec<String>,
    /// The 17-channel state (default) or the lean displacement and velocity.
    pub(super) rich_state: Option<bool>,
    /// Keep the link's own spring-damper law as well (default: replaced).
    #[serde(default)]
    pub(super) combine_native: bool,
    /// Limit on every reply (ms).
    pub(super) timeout_ms: Option<u64>,
    /// The module's settings, passed through as JSON.
    pub(super) config: Option<serde_yaml::Value>,
}
