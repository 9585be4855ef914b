//! From the model file's entries to the solver's bodies, joints and force elements, with every
//! error at its file, line and key.

use super::schema::*;
use super::{rotation, EquilibriumMasses, JOINT_TYPES};
use crate::io::shape_yaml::body_shapes;
use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::YamlLines;
use tidelink_mbs_solver::dynamics::body::RigidBodyBuilder;
use tidelink_mbs_solver::dynamics::body_set::{BodyHandle, BodySet};
use tidelink_mbs_solver::dynamics::force_element::ForceElementSet;
use tidelink_mbs_solver::dynamics::joint::{Joint, JointKind, JointSet};
use tidelink_mbs_solver::dynamics::rsda::Rsda;
use tidelink_mbs_solver::dynamics::tsda::Tsda;
use tidelink_mbs_solver::Model;

pub(super) fn build(
    m: ModelSection,
    lines: &YamlLines,
    gravity: Vector3<f64>,
    equilibrium: EquilibriumMasses,
    dir: &std::path::Path,
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
                    tidelink_mbs_solver::MbsError::InvalidMass(_) => ".mass",
                    tidelink_mbs_solver::MbsError::InvalidInertia(_) => ".inertia",
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
        warn_negative_coefficients(&m.tsdas, &m.rsdas, &ctx, &mut warnings);
        let from_file = super::external_file::load(&m, lines, dir, &mut errors);
        if !errors.has_errors() {
            let placed = super::external_file::placed(&m, lines, from_file.as_ref());
            super::external::attach(&placed, dir, &mut forces, &mut warnings, &mut errors);
            let model = super::external::Bodies { set: &bodies, names: &names };
            super::external::attach_body_forces(&m.external_forces, &model, lines, dir, &mut forces, &mut errors);
        }
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

/// A negative spring or damping coefficient adds energy instead of storing or taking it. A user
/// may mean it (negative-stiffness mechanisms, reactive control), so it is a warning at its
/// line, not an error.
fn warn_negative_coefficients(tsdas: &[TsdaEntry], rsdas: &[RsdaEntry], ctx: &Ctx, warnings: &mut Diagnostics) {
    let elements = tsdas
        .iter()
        .enumerate()
        .map(|(i, t)| ("tsdas", i, "TSDA", &t.name, t.spring_coefficient, t.damping_coefficient))
        .chain(
            rsdas
                .iter()
                .enumerate()
                .map(|(i, r)| ("rsdas", i, "RSDA", &r.name, r.spring_coefficient, r.damping_coefficient)),
        );
    for (list, i, kind, name, k, c) in elements {
        for (key, value, what) in [
            ("spring_coefficient", k, "pushes away from the free length instead of pulling back to it"),
            ("damping_coefficient", c, "feeds energy into the motion instead of taking it out"),
        ] {
            if value < 0.0 {
                let msg = format!(
                    "{kind} `{name}` has a negative {key} ({value}), which {what}; unless that is meant (a \
                     negative-stiffness mechanism, reactive control), make it positive"
                );
                warnings.warning(ctx.lines.loc(&format!("model.{list}[{i}].{key}")), msg);
            }
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
                let at = forces.insert(Box::new(e));
                declare(t.depends_on.as_deref(), at, &key, &what, ctx, forces, errors);
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
                let schedule = r.spring_schedule.iter().map(|s| (s.from, s.spring_coefficient)).collect();
                match e.with_stiffness_schedule(schedule) {
                    Ok(e) => {
                        let at = forces.insert(Box::new(e));
                        declare(r.depends_on.as_deref(), at, &key, &what, ctx, forces, errors);
                    }
                    Err(e) => errors.error(
                        ctx.lines.loc(&key(".spring_schedule")),
                        format!("{what}: {e}; list the entries as `{{from: <s>, spring_coefficient: <N m/rad>}}` in increasing `from`"),
                    ),
                }
            }
            Err(e) => errors.error(ctx.lines.loc(&key("")), format!("{what}: {e}")),
        }
    }
}

/// Sets the `depends_on` of element `at` (entry key `key`), if given.
fn declare(
    entries: Option<&[String]>,
    at: usize,
    key: &dyn Fn(&str) -> String,
    what: &str,
    ctx: &Ctx,
    forces: &mut ForceElementSet,
    errors: &mut Diagnostics,
) {
    let Some(entries) = entries else { return };
    let loc = |j: usize| ctx.lines.loc(&key(&format!(".depends_on[{j}]")));
    if let Some(deps) = super::dependencies::parse(entries, ctx.names, what, &loc, errors) {
        forces.set_dependencies(at, deps);
    }
}
