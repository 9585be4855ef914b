//! The bodies part of Chrono's MBS model format (`model:` of an MBS participant file):
//!
//! ```yaml
//! chrono-version: 10.0
//! model:
//!   name: ball
//!   angle_degrees: true          # angles in degrees (default) or radians
//!   bodies:
//!     - name: ball
//!       location: [0, 0, 0.18]   # reference frame origin (required)
//!       orientation: [0, 0, 0]   # 3 angles or a quaternion [e0, e1, e2, e3]
//!       fixed: false
//!       mass: 3.62               # required unless fixed
//!       com: {location: [0, 0, 0], orientation: [0, 0, 0]}   # COM frame in the reference frame
//!       inertia: {moments: [Ixx, Iyy, Izz], products: [Ixy, Ixz, Iyz]}  # about the COM, COM frame
//!       initial_linear_velocity: [0, 0, 0]    # COM velocity, world
//!       initial_angular_velocity: [0, 0, 0]   # COM frame axes
//!       visualization: ...       # accepted, ignored
//! ```
//!
//! Three angles `[a, b, c]` mean `R = Rz(a) Ry(b) Rx(c)`, as Chrono's YAML parser reads
//! them. Joints, constraints, spring-dampers, body loads and motors are accepted with a
//! warning: they come with a later issue, and until then every body moves freely.

use crate::body::RigidBodyBuilder;
use crate::body_set::{BodyHandle, BodySet};
use nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion, Vector3};
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::path::Path;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::{self, YamlLines};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModelFile {
    #[serde(rename = "chrono-version")]
    _chrono_version: Option<IgnoredAny>,
    model: ModelSection,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModelSection {
    name: Option<String>,
    angle_degrees: Option<bool>,
    data_path: Option<IgnoredAny>,
    bodies: Vec<BodyEntry>,
    joints: Option<IgnoredAny>,
    constraints: Option<IgnoredAny>,
    tsdas: Option<IgnoredAny>,
    rsdas: Option<IgnoredAny>,
    body_loads: Option<IgnoredAny>,
    motors: Option<IgnoredAny>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BodyEntry {
    name: String,
    location: [f64; 3],
    orientation: Option<Vec<f64>>,
    #[serde(default)]
    fixed: bool,
    mass: Option<f64>,
    com: Option<ComEntry>,
    inertia: Option<InertiaEntry>,
    initial_linear_velocity: Option<[f64; 3]>,
    initial_angular_velocity: Option<[f64; 3]>,
    visualization: Option<IgnoredAny>,
    contact: Option<IgnoredAny>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ComEntry {
    location: Option<[f64; 3]>,
    orientation: Option<Vec<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InertiaEntry {
    moments: Option<[f64; 3]>,
    products: Option<[f64; 3]>,
}

/// A model read from its file: the bodies under the participant's gravity, with names.
#[derive(Debug, Clone)]
pub struct Model {
    pub name: Option<String>,
    pub bodies: BodySet,
    /// Body names in file order, with their handles.
    pub names: Vec<(String, BodyHandle)>,
}

impl Model {
    /// The handle of body `name`, if the model has one.
    pub fn handle(&self, name: &str) -> Option<BodyHandle> {
        self.names.iter().find(|(n, _)| n == name).map(|(_, h)| *h)
    }
    /// All body names, for messages.
    pub fn body_names(&self) -> Vec<&str> {
        self.names.iter().map(|(n, _)| n.as_str()).collect()
    }
}

/// Reads `path` and builds its bodies under `gravity`. Ok carries warnings (sections that
/// are accepted but not modelled yet); every error names the file, line and key.
pub fn load(path: &Path, gravity: Vector3<f64>) -> Result<(Model, Diagnostics), Diagnostics> {
    let (file, lines) = spec::load_yaml_with_lines::<ModelFile>(path)?;
    build(file.model, &lines, gravity)
}

/// As [`load`], from text (`path` names it in messages).
pub fn parse_str(text: &str, path: &Path, gravity: Vector3<f64>) -> Result<(Model, Diagnostics), Diagnostics> {
    let file: ModelFile = spec::parse_yaml_str(text, path)?;
    build(file.model, &YamlLines::new(text, path), gravity)
}

fn build(m: ModelSection, lines: &YamlLines, gravity: Vector3<f64>) -> Result<(Model, Diagnostics), Diagnostics> {
    let mut warnings = Diagnostics::default();
    let mut errors = Diagnostics::default();
    let _ = &m.data_path;
    let later = [
        ("joints", m.joints.is_some()),
        ("constraints", m.constraints.is_some()),
        ("tsdas", m.tsdas.is_some()),
        ("rsdas", m.rsdas.is_some()),
        ("body_loads", m.body_loads.is_some()),
        ("motors", m.motors.is_some()),
    ];
    for (key, present) in later {
        if present {
            warnings.warning(
                lines.loc(&format!("model.{key}")),
                format!(
                    "`{key}` is accepted but not modelled yet (joints and force elements come in a later issue): \
                     the bodies move freely"
                ),
            );
        }
    }
    let degrees = m.angle_degrees.unwrap_or(true);
    let mut bodies = BodySet::new(gravity);
    let mut names: Vec<(String, BodyHandle)> = Vec::new();
    for (i, b) in m.bodies.iter().enumerate() {
        let at = |key: &str| lines.loc(&format!("model.bodies[{i}]{key}"));
        if names.iter().any(|(n, _)| *n == b.name) {
            errors.error(at(".name"), format!("body name `{}` is used twice; body names must be unique", b.name));
            continue;
        }
        if b.contact.is_some() {
            warnings
                .warning(at(".contact"), format!("body `{}`: contact is not modelled; `contact` is ignored", b.name));
        }
        let _ = &b.visualization;
        let rot = match rotation(b.orientation.as_deref(), degrees) {
            Ok(r) => r,
            Err(msg) => {
                errors.error(at(".orientation"), format!("body `{}`: {msg}", b.name));
                continue;
            }
        };
        let com_rot = match rotation(b.com.as_ref().and_then(|c| c.orientation.as_deref()), degrees) {
            Ok(r) => r,
            Err(msg) => {
                errors.error(at(".com.orientation"), format!("body `{}`: {msg}", b.name));
                continue;
            }
        };
        let com_loc = b.com.as_ref().and_then(|c| c.location).unwrap_or([0.0; 3]);
        let pose = Isometry3::from_parts(Translation3::from(Vector3::from(b.location)), rot);
        let builder = if b.fixed {
            RigidBodyBuilder::fixed()
        } else {
            let Some(mass) = b.mass else {
                errors.error(at(""), format!("body `{}` needs a `mass` (or `fixed: true`)", b.name));
                continue;
            };
            let Some(moments) = b.inertia.as_ref().and_then(|i| i.moments) else {
                errors.error(
                    at(".inertia"),
                    format!("body `{}` needs `inertia: {{moments: [Ixx, Iyy, Izz]}}` (or `fixed: true`)", b.name),
                );
                continue;
            };
            let products = b.inertia.as_ref().and_then(|i| i.products).unwrap_or([0.0; 3]);
            RigidBodyBuilder::dynamic(mass, Vector3::from(moments)).products(Vector3::from(products))
        };
        let com_offset = Isometry3::from_parts(Translation3::from(Vector3::from(com_loc)), com_rot);
        let com_world_rot = rot * com_rot;
        let angvel_local = Vector3::from(b.initial_angular_velocity.unwrap_or([0.0; 3]));
        let builder = builder
            .com_offset(com_offset)
            .reference_pose(pose)
            .linvel(Vector3::from(b.initial_linear_velocity.unwrap_or([0.0; 3])))
            .angvel(com_world_rot * angvel_local);
        match builder.build() {
            Ok(body) => names.push((b.name.clone(), bodies.insert(body))),
            Err(e) => {
                let key = match e {
                    crate::MbsError::InvalidMass(_) => ".mass",
                    crate::MbsError::InvalidInertia(_) => ".inertia",
                    _ => "",
                };
                errors.error(at(key), format!("body `{}`: {e}", b.name));
            }
        }
    }
    if m.bodies.is_empty() {
        errors.error(lines.loc("model.bodies"), "the model has no bodies; list at least one under `bodies`");
    }
    if errors.has_errors() {
        errors.0.sort_by_key(|d| d.location.line);
        let mut all = warnings;
        all.extend(errors);
        return Err(all);
    }
    Ok((Model { name: m.name, bodies, names }, warnings))
}

/// Three angles (Chrono's order: `Rz(a) Ry(b) Rx(c)`) or a quaternion `[e0, e1, e2, e3]`.
fn rotation(values: Option<&[f64]>, degrees: bool) -> Result<UnitQuaternion<f64>, String> {
    let scale = if degrees { std::f64::consts::PI / 180.0 } else { 1.0 };
    match values {
        None => Ok(UnitQuaternion::identity()),
        Some(v) if v.iter().any(|x| !x.is_finite()) => Err("the orientation must be finite numbers".to_string()),
        Some([a, b, c]) => {
            let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), a * scale)
                * UnitQuaternion::from_axis_angle(&Vector3::y_axis(), b * scale)
                * UnitQuaternion::from_axis_angle(&Vector3::x_axis(), c * scale);
            Ok(q)
        }
        Some([w, x, y, z]) => {
            let q = Quaternion::new(*w, *x, *y, *z);
            if q.norm() == 0.0 {
                return Err("the orientation quaternion [e0, e1, e2, e3] must not be zero".to_string());
            }
            Ok(UnitQuaternion::from_quaternion(q))
        }
        Some(other) => Err(format!(
            "an orientation has 3 angles or 4 quaternion components [e0, e1, e2, e3]; got {} numbers",
            other.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g() -> Vector3<f64> {
        Vector3::new(0.0, 0.0, -9.81)
    }

    #[test]
    fn angles_follow_chrono_order_and_units() {
        let q = rotation(Some(&[90.0, 0.0, 0.0]), true).unwrap();
        assert!((q * Vector3::x() - Vector3::y()).norm() < 1e-15);
        let q = rotation(Some(&[0.0, 0.0, std::f64::consts::FRAC_PI_2]), false).unwrap();
        assert!((q * Vector3::y() - Vector3::z()).norm() < 1e-15);
        let q = rotation(Some(&[0.0, 0.0, 0.0, 2.0]), true).unwrap();
        assert!((q * Vector3::x() + Vector3::x()).norm() < 1e-15);
        assert!(rotation(Some(&[1.0, 2.0]), true).is_err());
    }

    #[test]
    fn builds_bodies_with_com_offsets() {
        let text = "model:\n  angle_degrees: false\n  bodies:\n    - name: ground\n      location: [0, 0, 0]\n      fixed: true\n    \
                    - name: flap\n      location: [1, 0, 0]\n      mass: 2\n      com: {location: [0.1, 0, 0]}\n      \
                    inertia: {moments: [1, 1, 2], products: [0, 0, 0]}\n      initial_linear_velocity: [0, 1, 0]\n";
        let (m, w) = parse_str(text, Path::new("m.yaml"), g()).unwrap();
        assert!(w.0.is_empty());
        assert_eq!(m.body_names(), ["ground", "flap"]);
        let flap = m.bodies.get(m.handle("flap").unwrap()).unwrap();
        assert!((flap.com_position() - Vector3::new(1.1, 0.0, 0.0)).norm() < 1e-15);
        assert_eq!(flap.linvel(), Vector3::new(0.0, 1.0, 0.0));
        assert!(m.bodies.get(m.handle("ground").unwrap()).unwrap().is_fixed());
    }

    #[test]
    fn semantic_errors_name_line_and_key() {
        let text = "model:\n  bodies:\n    - name: a\n      location: [0, 0, 0]\n      mass: -1\n      inertia: {moments: [1, 1, 1]}\n    \
                    - name: b\n      location: [0, 0, 0]\n";
        let e = parse_str(text, Path::new("m.yaml"), g()).unwrap_err().to_string();
        assert!(e.contains("m.yaml:5: error: body `a`: the mass must be positive"), "{e}");
        assert!(e.contains("m.yaml:7: error: body `b` needs a `mass`"), "{e}");
    }
}
