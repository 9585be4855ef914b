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
//!     # optional on an RSDA: the spring stiffens (or softens) during the run; a step that starts
//!     # at or after `from` (s) uses that coefficient (N m/rad)
//!     #  spring_schedule: [{from: 1.5, spring_coefficient: 200}]
//!   external_ptos:               # a link's force from a module in its own process
//!     - {link: pto, command: [python3, my_pto.py], rich_state: true, combine_native: false,
//!        timeout_ms: 20000, config: {damping: 1.2e6}}   # docs/external-modules.md
//!   external_pto_file: pto.yaml  # or one entry in a file of its own (relative to this file) …
//!   external_pto: {link: pto, command: [python3, my_pto.py]}   # … or inline; not both
//!   external_forces:             # 6-DOF force and moment on bodies from a module
//!     - {name: mooring, bodies: [float], command: [python3, my_mooring.py], config: {..}}
//!   # optional on a TSDA, RSDA or external force: the body states its outputs depend on
//!   # (bodies, or `<body>.<channel>` with pos_x … omega_z); finite differences perturb only these
//!   #  depends_on: [float.pos_z, float.vel_z]
//! ```
//!
//! Three angles `[a, b, c]` mean `R = Rz(a) Ry(b) Rx(c)`, as Chrono's YAML parser reads
//! them. Constraints, body loads and motors are accepted with a warning (not modelled).

mod build;
mod dependencies;
mod external;
mod external_file;
mod module_command;
mod schema;

use nalgebra::{Quaternion, UnitQuaternion, Vector3};
use schema::ModelFile;
use std::path::Path;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::{self, YamlLines};
use tidelink_mbs_solver::Model;

/// Joint types of Chrono's model format that we build.
pub const JOINT_TYPES: &[&str] =
    &["LOCK", "REVOLUTE", "PRISMATIC", "SPHERICAL", "UNIVERSAL", "CYLINDRICAL", "POINT_LINE", "DISTANCE"];

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
    build::build(file.model, &lines, gravity, equilibrium, path.parent().unwrap_or(Path::new(".")))
}

/// As [`load`], from text (`path` names it in messages).
pub fn parse_str(text: &str, path: &Path, gravity: Vector3<f64>) -> Result<(Model, Diagnostics), Diagnostics> {
    let file: ModelFile = spec::parse_yaml_str(text, path)?;
    build::build(file.model, &YamlLines::new(text, path), gravity, &|_| None, path.parent().unwrap_or(Path::new(".")))
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
        use tidelink_mbs_solver::solver::integrator::Integrator;
        let (mut m, w) = parse_str(FLAP, Path::new("m.yaml"), Vector3::zeros()).unwrap();
        assert_eq!((m.joints.len(), m.forces.len()), (1, 1));
        assert!(w.0.is_empty(), "{w}");
        let flap = m.handle("flap").unwrap();
        m.bodies.get_mut(flap).unwrap().set_angvel(Vector3::new(0.0, 0.0, 0.1));
        let mut hht = tidelink_mbs_solver::Hht::new(-0.2).unwrap();
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
    fn spring_schedule_stiffens_the_rsda_and_its_errors_name_the_line() {
        let text = format!("{FLAP}      spring_schedule:\n        - {{from: 1.5, spring_coefficient: 200}}\n");
        let (mut m, w) = parse_str(&text, Path::new("m.yaml"), Vector3::zeros()).unwrap();
        assert!(w.0.is_empty(), "{w}");
        let rsda = m.forces.find_mut::<tidelink_mbs_solver::dynamics::rsda::Rsda>("rsda").unwrap();
        assert_eq!(rsda.stiffness_schedule, vec![(1.5, 200.0)]);
        let bad = format!(
            "{FLAP}      spring_schedule:\n        - {{from: 2, spring_coefficient: 200}}\n        \
             - {{from: 1, spring_coefficient: 100}}\n"
        );
        let e = parse_str(&bad, Path::new("m.yaml"), g()).unwrap_err().to_string();
        assert!(e.contains("m.yaml:27: error: RSDA `rsda`") && e.contains("increase strictly"), "{e}");
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
