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
//!       mass: 3.62               # kg, required unless fixed; `equilibrium`: ρ V of the hydrodynamic file
//!       com: {location: [0, 0, 0], orientation: [0, 0, 0]}   # COM frame in the reference frame
//!       inertia: {moments: [Ixx, Iyy, Izz], products: [Ixy, Ixz, Iyz]}  # about the COM, COM frame
//!       initial_linear_velocity: [0, 0, 0]    # COM velocity, world
//!       initial_angular_velocity: [0, 0, 0]   # COM frame axes
//!       visualization: {shapes: [{type: SPHERE, radius: 0.12, location: [0, 0, 0]}]}
//!       contact: {shapes: [...]}  # shapes kept (SPHERE, BOX, CYLINDER, HULL, MESH); contact not modelled
//!
//!   joints:
//!     - {name: hinge, type: REVOLUTE, body1: ground, body2: flap, location: [0, 0, 0], axis: [0, 0, 1]}
//!     # REVOLUTE, PRISMATIC, CYLINDRICAL, POINT_LINE: `axis` (the joint's z) or `orientation`;
//!     # UNIVERSAL: `axis1` (on body1) and `axis2` (on body2) or `orientation`; SPHERICAL,
//!     # LOCK: `location` (LOCK: optional `orientation`); DISTANCE: `point1` and `point2`.
//!   tsdas:
//!     - {name: pto, body1: a, body2: b, point1: [..], point2: [..], spring_coefficient: k,
//!        damping_coefficient: c, preload: P, free_length: L0}   # L0 defaults to the current length
//!   rsdas:
//!     - {name: spring, body1: a, body2: b, location: [..], axis: [..], spring_coefficient: k,
//!        damping_coefficient: c, preload: P, free_angle: a0}     # a0 in the model's angle unit
//! ```
//!
//! Three angles `[a, b, c]` mean `R = Rz(a) Ry(b) Rx(c)`, as Chrono's YAML parser reads
//! them. Constraints, body loads and motors are accepted with a warning (not modelled).

use crate::body::RigidBodyBuilder;
use crate::body_set::{BodyHandle, BodySet};
use crate::force_element::ForceElementSet;
use crate::joint::{Joint, JointKind, JointSet};
use crate::rsda::Rsda;
use crate::shape::BodyShape;
use crate::shape_yaml::{body_shapes, ContactEntry, VisualizationEntry};
use crate::tsda::Tsda;
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
    #[serde(default)]
    joints: Vec<JointEntry>,
    constraints: Option<IgnoredAny>,
    #[serde(default)]
    tsdas: Vec<TsdaEntry>,
    #[serde(default)]
    rsdas: Vec<RsdaEntry>,
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
    mass: Option<MassEntry>,
    com: Option<ComEntry>,
    inertia: Option<InertiaEntry>,
    initial_linear_velocity: Option<[f64; 3]>,
    initial_angular_velocity: Option<[f64; 3]>,
    visualization: Option<VisualizationEntry>,
    contact: Option<ContactEntry>,
}

/// A body's `mass`: kilograms, or `equilibrium` (WEC-Sim's word): the water its hull
/// displaces at rest, ρ V of the hydrodynamic file, so that it floats where the file says.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum MassEntry {
    Value(f64),
    Keyword(String),
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JointEntry {
    name: String,
    #[serde(rename = "type")]
    kind: String,
    body1: String,
    body2: String,
    location: Option<[f64; 3]>,
    axis: Option<[f64; 3]>,
    axis1: Option<[f64; 3]>,
    axis2: Option<[f64; 3]>,
    orientation: Option<Vec<f64>>,
    point1: Option<[f64; 3]>,
    point2: Option<[f64; 3]>,
    visualization: Option<IgnoredAny>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TsdaEntry {
    name: String,
    body1: String,
    body2: String,
    point1: [f64; 3],
    point2: [f64; 3],
    #[serde(default)]
    spring_coefficient: f64,
    #[serde(default)]
    damping_coefficient: f64,
    #[serde(default)]
    preload: f64,
    free_length: Option<f64>,
    visualization: Option<IgnoredAny>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RsdaEntry {
    name: String,
    body1: String,
    body2: String,
    location: Option<[f64; 3]>,
    axis: [f64; 3],
    #[serde(default)]
    spring_coefficient: f64,
    #[serde(default)]
    damping_coefficient: f64,
    #[serde(default)]
    preload: f64,
    #[serde(default)]
    free_angle: f64,
    visualization: Option<IgnoredAny>,
}

/// Joint types of Chrono's model format that we build.
pub const JOINT_TYPES: &[&str] =
    &["LOCK", "REVOLUTE", "PRISMATIC", "SPHERICAL", "UNIVERSAL", "CYLINDRICAL", "POINT_LINE", "DISTANCE"];

/// A model read from its file: the bodies under the participant's gravity, with names,
/// and the joints and force elements between them.
#[derive(Debug, Clone)]
pub struct Model {
    pub name: Option<String>,
    pub bodies: BodySet,
    /// Joints, in file order.
    pub joints: JointSet,
    /// TSDAs then RSDAs, in file order.
    pub forces: ForceElementSet,
    /// Body names in file order, with their handles.
    pub names: Vec<(String, BodyHandle)>,
    /// The bodies' visualization and contact shapes, in file order.
    pub shapes: Vec<BodyShape>,
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

/// The masses `mass: equilibrium` stands for, by body name (ρ V of a hydrodynamic file).
pub type EquilibriumMasses<'a> = &'a dyn Fn(&str) -> Option<f64>;

/// Reads `path` and builds its bodies under `gravity`. Ok carries warnings (sections that
/// are accepted but not modelled yet); every error names the file, line and key.
pub fn load(path: &Path, gravity: Vector3<f64>) -> Result<(Model, Diagnostics), Diagnostics> {
    load_with(path, gravity, &|_| None)
}

/// As [`load`], with the masses of bodies whose `mass` is `equilibrium`.
pub fn load_with(
    path: &Path,
    gravity: Vector3<f64>,
    equilibrium: EquilibriumMasses,
) -> Result<(Model, Diagnostics), Diagnostics> {
    let (file, lines) = spec::load_yaml_with_lines::<ModelFile>(path)?;
    build(file.model, &lines, gravity, equilibrium)
}

/// As [`load`], from text (`path` names it in messages).
pub fn parse_str(text: &str, path: &Path, gravity: Vector3<f64>) -> Result<(Model, Diagnostics), Diagnostics> {
    let file: ModelFile = spec::parse_yaml_str(text, path)?;
    build(file.model, &YamlLines::new(text, path), gravity, &|_| None)
}

fn build(
    m: ModelSection,
    lines: &YamlLines,
    gravity: Vector3<f64>,
    equilibrium: EquilibriumMasses,
) -> Result<(Model, Diagnostics), Diagnostics> {
    let mut warnings = Diagnostics::default();
    let mut errors = Diagnostics::default();
    let _ = &m.data_path;
    let later = [
        ("constraints", m.constraints.is_some()),
        ("body_loads", m.body_loads.is_some()),
        ("motors", m.motors.is_some()),
    ];
    for (key, present) in later {
        if present {
            warnings.warning(
                lines.loc(&format!("model.{key}")),
                format!("`{key}` is accepted but not modelled yet: it has no effect on the bodies"),
            );
        }
    }
    let degrees = m.angle_degrees.unwrap_or(true);
    let mut bodies = BodySet::new(gravity);
    let mut names: Vec<(String, BodyHandle)> = Vec::new();
    let mut shapes = Vec::new();
    for (i, b) in m.bodies.iter().enumerate() {
        let at = |key: &str| lines.loc(&format!("model.bodies[{i}]{key}"));
        if names.iter().any(|(n, _)| *n == b.name) {
            errors.error(at(".name"), format!("body name `{}` is used twice; body names must be unique", b.name));
            continue;
        }
        if b.contact.is_some() {
            warnings.warning(
                at(".contact"),
                format!("body `{}`: contact is not modelled; only the contact shapes are kept", b.name),
            );
        }
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
            let mass = match &b.mass {
                None => {
                    errors.error(at(""), format!("body `{}` needs a `mass` (or `fixed: true`)", b.name));
                    continue;
                }
                Some(MassEntry::Value(m)) => *m,
                Some(MassEntry::Keyword(k)) if k.eq_ignore_ascii_case("equilibrium") => match equilibrium(&b.name) {
                    Some(m) => m,
                    None => {
                        errors.error(
                            at(".mass"),
                            format!(
                                "body `{}`: `mass: equilibrium` is the water it displaces (ρ V of its hydrodynamic \
                                 file), which needs the body among the coupling bodies and \
                                 `precice_adapter_config.added_mass.h5_filename`; give the mass in kg otherwise",
                                b.name
                            ),
                        );
                        continue;
                    }
                },
                Some(MassEntry::Keyword(k)) => {
                    errors.error(
                        at(".mass"),
                        format!("body `{}`: `mass: {k}` is neither a number (kg) nor `equilibrium`", b.name),
                    );
                    continue;
                }
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
            Ok(body) => {
                let handle = bodies.insert(body);
                let key = format!("model.bodies[{i}]");
                let (vis, contact) = (b.visualization.as_ref(), b.contact.as_ref());
                shapes.extend(body_shapes(vis, contact, &b.name, handle, &key, lines, degrees, &mut errors));
                names.push((b.name.clone(), handle));
            }
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
    let mut joints = JointSet::new();
    let mut forces = ForceElementSet::new();
    if !errors.has_errors() {
        let ctx = Ctx { bodies: &bodies, names: &names, lines, degrees };
        build_joints(&m.joints, &ctx, &mut joints, &mut errors);
        build_forces(&m.tsdas, &m.rsdas, &ctx, &mut forces, &mut errors);
    }
    if errors.has_errors() {
        errors.0.sort_by_key(|d| d.location.line);
        let mut all = warnings;
        all.extend(errors);
        return Err(all);
    }
    Ok((Model { name: m.name, bodies, joints, forces, names, shapes }, warnings))
}

/// What the joint and force-element builders look things up in.
struct Ctx<'a> {
    bodies: &'a BodySet,
    names: &'a [(String, BodyHandle)],
    lines: &'a YamlLines,
    degrees: bool,
}

impl Ctx<'_> {
    fn body(&self, name: &str, what: &str, key: &str, errors: &mut Diagnostics) -> Option<BodyHandle> {
        let h = self.names.iter().find(|(n, _)| n == name).map(|(_, h)| *h);
        if h.is_none() {
            let all: Vec<&str> = self.names.iter().map(|(n, _)| n.as_str()).collect();
            errors.error(
                self.lines.loc(key),
                format!("{what}: no body named `{name}`; the model's bodies: {}", all.join(", ")),
            );
        }
        h
    }
}

fn unit(v: [f64; 3]) -> Option<Vector3<f64>> {
    let v = Vector3::from(v);
    (v.iter().all(|x| x.is_finite()) && v.norm() > 0.0).then(|| v.normalize())
}

/// The rotation taking z onto `axis`.
fn z_onto(axis: Vector3<f64>) -> UnitQuaternion<f64> {
    UnitQuaternion::rotation_between(&Vector3::z(), &axis)
        .unwrap_or_else(|| UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::PI))
}

fn build_joints(entries: &[JointEntry], ctx: &Ctx, joints: &mut JointSet, errors: &mut Diagnostics) {
    let mut seen: Vec<&str> = Vec::new();
    for (i, j) in entries.iter().enumerate() {
        let key = |k: &str| format!("model.joints[{i}]{k}");
        let what = format!("joint `{}`", j.name);
        if seen.contains(&j.name.as_str()) {
            errors.error(
                ctx.lines.loc(&key(".name")),
                format!("{what}: the name is used twice; joint names must be unique"),
            );
            continue;
        }
        seen.push(&j.name);
        let _ = &j.visualization;
        let kind = match j.kind.to_ascii_uppercase().as_str() {
            "LOCK" => JointKind::Lock,
            "REVOLUTE" => JointKind::Revolute,
            "PRISMATIC" => JointKind::Prismatic,
            "SPHERICAL" => JointKind::Spherical,
            "UNIVERSAL" => JointKind::Universal,
            "CYLINDRICAL" => JointKind::Cylindrical,
            "POINT_LINE" => JointKind::PointOnLine,
            "DISTANCE" => JointKind::Distance,
            other => {
                errors.error(
                    ctx.lines.loc(&key(".type")),
                    format!("{what}: type `{other}` is not implemented; implemented: {}", JOINT_TYPES.join(", ")),
                );
                continue;
            }
        };
        let (Some(b1), Some(b2)) =
            (ctx.body(&j.body1, &what, &key(".body1"), errors), ctx.body(&j.body2, &what, &key(".body2"), errors))
        else {
            continue;
        };
        let built = if kind == JointKind::Distance {
            let (Some(p1), Some(p2)) = (j.point1, j.point2) else {
                errors.error(ctx.lines.loc(&key("")), format!("{what}: a DISTANCE joint needs `point1` and `point2`"));
                continue;
            };
            Joint::distance(&j.name, ctx.bodies, b1, b2, Vector3::from(p1), Vector3::from(p2))
        } else {
            let Some(loc) = j.location else {
                errors.error(ctx.lines.loc(&key("")), format!("{what}: needs a `location`"));
                continue;
            };
            let rot = match (kind, j.orientation.as_deref(), j.axis, j.axis1, j.axis2) {
                (_, Some(o), None, None, None) => match rotation(Some(o), ctx.degrees) {
                    Ok(r) => r,
                    Err(msg) => {
                        errors.error(ctx.lines.loc(&key(".orientation")), format!("{what}: {msg}"));
                        continue;
                    }
                },
                (JointKind::Universal, None, None, Some(a1), Some(a2)) => {
                    let (Some(x), Some(y)) = (unit(a1), unit(a2)) else {
                        errors.error(
                            ctx.lines.loc(&key(".axis1")),
                            format!("{what}: `axis1` and `axis2` must be finite, non-zero"),
                        );
                        continue;
                    };
                    let y = y - x * x.dot(&y);
                    if y.norm() < 1e-9 {
                        errors.error(
                            ctx.lines.loc(&key(".axis2")),
                            format!("{what}: `axis1` and `axis2` must not be parallel"),
                        );
                        continue;
                    }
                    let y = y.normalize();
                    let m = nalgebra::Matrix3::from_columns(&[x, y, x.cross(&y)]);
                    UnitQuaternion::from_rotation_matrix(&nalgebra::Rotation3::from_matrix_unchecked(m))
                }
                (
                    JointKind::Revolute | JointKind::Prismatic | JointKind::Cylindrical | JointKind::PointOnLine,
                    None,
                    Some(a),
                    None,
                    None,
                ) => {
                    let Some(a) = unit(a) else {
                        errors
                            .error(ctx.lines.loc(&key(".axis")), format!("{what}: `axis` must be finite and non-zero"));
                        continue;
                    };
                    z_onto(a)
                }
                (JointKind::Spherical | JointKind::Lock, None, None, None, None) => UnitQuaternion::identity(),
                _ => {
                    let need = match kind {
                        JointKind::Universal => "`axis1` and `axis2`, or `orientation`",
                        JointKind::Spherical | JointKind::Lock => "no axis (an optional `orientation`)",
                        _ => "`axis` or `orientation` (one of them)",
                    };
                    errors.error(
                        ctx.lines.loc(&key("")),
                        format!("{what}: a {} joint takes {need}", j.kind.to_ascii_uppercase()),
                    );
                    continue;
                }
            };
            let frame = Isometry3::from_parts(Translation3::from(Vector3::from(loc)), rot);
            Joint::new(&j.name, kind, ctx.bodies, b1, b2, frame)
        };
        match built {
            Ok(joint) => {
                joints.insert(joint);
            }
            Err(e) => errors.error(ctx.lines.loc(&key("")), format!("{what}: {e}")),
        }
    }
}

fn build_forces(
    tsdas: &[TsdaEntry],
    rsdas: &[RsdaEntry],
    ctx: &Ctx,
    forces: &mut ForceElementSet,
    errors: &mut Diagnostics,
) {
    for (i, t) in tsdas.iter().enumerate() {
        let key = |k: &str| format!("model.tsdas[{i}]{k}");
        let what = format!("TSDA `{}`", t.name);
        let _ = &t.visualization;
        let (Some(b1), Some(b2)) =
            (ctx.body(&t.body1, &what, &key(".body1"), errors), ctx.body(&t.body2, &what, &key(".body2"), errors))
        else {
            continue;
        };
        let (p1, p2) = (Vector3::from(t.point1), Vector3::from(t.point2));
        let l0 = t.free_length.unwrap_or((p2 - p1).norm());
        match Tsda::new(&t.name, ctx.bodies, b1, b2, p1, p2, t.spring_coefficient, t.damping_coefficient, t.preload, l0)
        {
            Ok(e) => {
                forces.insert(Box::new(e));
            }
            Err(e) => errors.error(ctx.lines.loc(&key("")), format!("{what}: {e}")),
        }
    }
    let scale = if ctx.degrees { std::f64::consts::PI / 180.0 } else { 1.0 };
    for (i, r) in rsdas.iter().enumerate() {
        let key = |k: &str| format!("model.rsdas[{i}]{k}");
        let what = format!("RSDA `{}`", r.name);
        let _ = (&r.visualization, &r.location);
        let (Some(b1), Some(b2)) =
            (ctx.body(&r.body1, &what, &key(".body1"), errors), ctx.body(&r.body2, &what, &key(".body2"), errors))
        else {
            continue;
        };
        let Some(axis) = unit(r.axis) else {
            errors.error(ctx.lines.loc(&key(".axis")), format!("{what}: `axis` must be finite and non-zero"));
            continue;
        };
        // Stiffness and damping are per radian; only the free angle follows `angle_degrees`.
        match Rsda::new(
            &r.name,
            ctx.bodies,
            b1,
            b2,
            axis,
            r.spring_coefficient,
            r.damping_coefficient,
            r.preload,
            r.free_angle * scale,
        ) {
            Ok(e) => {
                forces.insert(Box::new(e));
            }
            Err(e) => errors.error(ctx.lines.loc(&key("")), format!("{what}: {e}")),
        }
    }
}

/// Three angles (Chrono's order: `Rz(a) Ry(b) Rx(c)`) or a quaternion `[e0, e1, e2, e3]`.
pub(crate) fn rotation(values: Option<&[f64]>, degrees: bool) -> Result<UnitQuaternion<f64>, String> {
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

    const FLAP: &str = "model:\n  angle_degrees: true\n  bodies:\n    - name: ground\n      location: [0, 0, 0]\n      fixed: true\n    \
                        - name: flap\n      location: [0, 0, 0]\n      mass: 40.0\n      com: {location: [0.1, 0, 0]}\n      \
                        inertia: {moments: [0.2, 0.2, 0.534]}\n  joints:\n    - name: revolute\n      type: REVOLUTE\n      \
                        body1: ground\n      body2: flap\n      location: [0, 0, 0]\n      axis: [0, 0, 1]\n  rsdas:\n    \
                        - name: rsda\n      body1: ground\n      body2: flap\n      location: [0, 0, 0]\n      axis: [0, 0, 1]\n      \
                        spring_coefficient: 25\n      free_angle: 0\n";

    #[test]
    fn chrono_flap_joints_and_rsdas_become_real() {
        use crate::integrator::Integrator;
        let (mut m, w) = parse_str(FLAP, Path::new("m.yaml"), Vector3::zeros()).unwrap();
        assert_eq!((m.joints.len(), m.forces.len()), (1, 1));
        assert!(w.0.is_empty(), "{w}");
        let flap = m.handle("flap").unwrap();
        m.bodies.get_mut(flap).unwrap().set_angvel(Vector3::new(0.0, 0.0, 0.1));
        let mut hht = crate::Hht::new(-0.2).unwrap();
        let (dt, mut last, mut ups) = (1e-3, 0.0, Vec::new());
        for i in 0..3000 {
            hht.step_system(&mut m.bodies, &m.joints, &m.forces, dt).unwrap();
            let q = m.bodies.get(flap).unwrap().com_orientation().scaled_axis().z;
            if last < 0.0 && q >= 0.0 {
                ups.push(i as f64 * dt);
            }
            last = q;
        }
        // Hinge inertia 0.534 + 40·0.1² about z, spring 25 N m/rad.
        let t0 = 2.0 * std::f64::consts::PI * (0.934f64 / 25.0).sqrt();
        let t = (ups[ups.len() - 1] - ups[0]) / (ups.len() - 1) as f64;
        assert!((t / t0 - 1.0).abs() < 2e-3, "period {t} s, closed form {t0} s");
    }

    #[test]
    fn joint_errors_name_line_and_key() {
        let bad_body = FLAP.replace(
            "body2: flap\n      location: [0, 0, 0]\n      axis: [0, 0, 1]\n  rsdas",
            "body2: flop\n      location: [0, 0, 0]\n      axis: [0, 0, 1]\n  rsdas",
        );
        let e = parse_str(&bad_body, Path::new("m.yaml"), g()).unwrap_err().to_string();
        assert!(
            e.contains("m.yaml:16: error: joint `revolute`: no body named `flop`; the model's bodies: ground, flap"),
            "{e}"
        );
        let bad_type = FLAP.replace("type: REVOLUTE", "type: SCREW");
        let e = parse_str(&bad_type, Path::new("m.yaml"), g()).unwrap_err().to_string();
        assert!(
            e.contains(
                "m.yaml:14: error: joint `revolute`: type `SCREW` is not implemented; implemented: LOCK, REVOLUTE"
            ),
            "{e}"
        );
        let unknown = FLAP.replace("      axis: [0, 0, 1]\n  rsdas", "      axsi: [0, 0, 1]\n  rsdas");
        let e = parse_str(&unknown, Path::new("m.yaml"), g()).unwrap_err().to_string();
        assert!(e.contains("m.yaml:18") && e.contains("unknown key `axsi`"), "{e}");
        let no_axis = FLAP.replace("      axis: [0, 0, 1]\n  rsdas", "\n  rsdas");
        let e = parse_str(&no_axis, Path::new("m.yaml"), g()).unwrap_err().to_string();
        assert!(e.contains("joint `revolute`: a REVOLUTE joint takes `axis` or `orientation`"), "{e}");
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
