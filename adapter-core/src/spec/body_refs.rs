//! The one RIGID_BODY_REFS mesh of a participant that takes bodies' motion and gives back their
//! loads (the fluid side of a rigid-body coupling: TDPF, SPH, the buoyancy stand-in). Which data
//! it reads and writes is found through their types in the participant file and checked before
//! any connection, every error at its line, so each participant states only what it needs.

use super::model::{AdapterConfig, DataType, InterfaceSpec, MeshType};
use crate::{AdapterError, AdapterResult};

/// The motion that a fluid side can read, in the order messages list it.
pub const MOTION: [DataType; 4] =
    [DataType::Positions, DataType::Rotations, DataType::LinearVelocities, DataType::AngularVelocities];

/// The data names on the mesh, by role (`None`: the file does not exchange that datum).
#[derive(Debug, Clone, PartialEq)]
pub struct BodyRefs {
    /// The mesh: vertex i is coupling body i.
    pub mesh: String,
    /// POSITIONS read: the bodies' reference points (m).
    pub positions: Option<String>,
    /// ROTATIONS read (rotation vectors, rad).
    pub rotations: Option<String>,
    /// LINEAR_VELOCITIES read (m/s).
    pub velocities: Option<String>,
    /// ANGULAR_VELOCITIES read (rad/s, world axes).
    pub angular_velocities: Option<String>,
    /// FORCES written (N, world axes).
    pub forces: Option<String>,
    /// TORQUES written (N m about the reference point).
    pub torques: Option<String>,
    /// The interface entry, for messages about it.
    pub interface: InterfaceSpec,
}

impl BodyRefs {
    /// The one RIGID_BODY_REFS interface among `interfaces` of `adapter`, for `who` (e.g. "the
    /// SPH participant"), which reads the types in `reads` (a part of [`MOTION`]) and writes
    /// FORCES and TORQUES. Errors: no interface or several, another mesh type (not implemented
    /// by `who`), a datum it cannot read or write.
    pub fn find(
        who: &str,
        adapter: &AdapterConfig,
        interfaces: &[&InterfaceSpec],
        reads: &[DataType],
    ) -> AdapterResult<Self> {
        let iface = match interfaces {
            [one] => *one,
            [] => {
                return Err(AdapterError::config(format!(
                    "{}: {who} needs one interface (a RIGID_BODY_REFS mesh); none is listed",
                    adapter.loc
                )))
            }
            more => {
                return Err(AdapterError::config(format!(
                    "{}: {who} exchanges all its bodies on one RIGID_BODY_REFS mesh; {} interfaces are listed",
                    adapter.loc,
                    more.len()
                )))
            }
        };
        if iface.mesh_type != MeshType::RigidBodyRefs {
            return Err(AdapterError::Unsupported(format!(
                "{}: mesh `{}` has mesh_type {}: not implemented by {who}, which exchanges one pose and one \
                 resultant load per body; use mesh_type: RIGID_BODY_REFS",
                iface.loc,
                iface.mesh_name,
                iface.mesh_type.as_str()
            )));
        }
        let mut refs = BodyRefs {
            mesh: iface.mesh_name.clone(),
            positions: None,
            rotations: None,
            velocities: None,
            angular_velocities: None,
            forces: None,
            torques: None,
            interface: iface.clone(),
        };
        for d in &iface.read_data {
            if !(reads.contains(&d.data_type) && MOTION.contains(&d.data_type)) {
                let list: Vec<&str> = MOTION.iter().filter(|t| reads.contains(t)).map(|t| t.as_str()).collect();
                return Err(AdapterError::Unsupported(format!(
                    "{}: {who} cannot read {} (`{}`); it reads {}",
                    d.loc,
                    d.data_type.as_str(),
                    d.name,
                    and_list(&list)
                )));
            }
            let slot = match d.data_type {
                DataType::Positions => &mut refs.positions,
                DataType::Rotations => &mut refs.rotations,
                DataType::LinearVelocities => &mut refs.velocities,
                _ => &mut refs.angular_velocities,
            };
            *slot = Some(d.name.clone());
        }
        for d in &iface.write_data {
            match d.data_type {
                DataType::Forces => refs.forces = Some(d.name.clone()),
                DataType::Torques => refs.torques = Some(d.name.clone()),
                other => {
                    return Err(AdapterError::Unsupported(format!(
                        "{}: {who} cannot write {} (`{}`); it writes FORCES and TORQUES",
                        d.loc,
                        other.as_str(),
                        d.name
                    )))
                }
            }
        }
        Ok(refs)
    }

    /// `name` if the file exchanges it, else an error at the interface: mesh `m` must `what`
    /// (e.g. "read POSITIONS (the bodies' reference points)").
    pub fn need(&self, name: &Option<String>, what: &str) -> AdapterResult<String> {
        name.clone()
            .ok_or_else(|| AdapterError::config(format!("{}: mesh `{}` must {what}", self.interface.loc, self.mesh)))
    }

    /// Logs a warning at the interface when `name` is not exchanged: mesh `m` `consequence`.
    pub fn warn_without(&self, name: &Option<String>, consequence: &str) {
        if name.is_none() {
            log::warn!("{}: mesh `{}` {consequence}", self.interface.loc, self.mesh);
        }
    }
}

/// "A", "A and B", "A, B and C".
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::spec::parse_str;

    /// A participant file with one body and `interfaces` (shared with body_interface's tests).
    pub(crate) fn file(interfaces: &str) -> AdapterConfig {
        let yaml = format!(
            "precice_adapter_config:\n  participant_name: Fluid\n  bodies:\n    - {{name: ball, location: [0, 0, 0]}}\n  interfaces:\n{interfaces}"
        );
        parse_str(&yaml, std::path::Path::new("p.yaml")).expect("a participant file").0.adapter
    }

    /// A RIGID_BODY_REFS interface reading positions and velocities, writing forces.
    pub(crate) const REFS: &str = "    - mesh_name: Refs\n      mesh_type: RIGID_BODY_REFS\n      read_data:\n        - {name: x, type: POSITIONS}\n        - {name: v, type: LINEAR_VELOCITIES}\n      write_data:\n        - {name: f, type: FORCES}\n";

    #[test]
    fn finds_the_data_by_type_and_names_what_is_refused() {
        let a = file(REFS);
        let refs = BodyRefs::find("the X participant", &a, &a.interfaces.iter().collect::<Vec<_>>(), &MOTION).unwrap();
        assert_eq!((refs.positions.as_deref(), refs.velocities.as_deref()), (Some("x"), Some("v")));
        assert_eq!((refs.forces.as_deref(), refs.torques.as_deref()), (Some("f"), None));
        let e = refs.need(&refs.torques, "write TORQUES").unwrap_err().to_string();
        assert!(e.contains("p.yaml:6") && e.contains("mesh `Refs` must write TORQUES"), "{e}");
        let only_x = [DataType::Positions];
        let e = BodyRefs::find("the X participant", &a, &a.interfaces.iter().collect::<Vec<_>>(), &only_x)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("p.yaml:10") && e.contains("cannot read LINEAR_VELOCITIES (`v`); it reads POSITIONS"),
            "{e}"
        );
        let e = BodyRefs::find("the X participant", &a, &[], &MOTION).unwrap_err().to_string();
        assert!(e.contains("needs one interface"), "{e}");
        let points = file(&REFS.replace("RIGID_BODY_REFS", "RIGID_BODY_POINTS"));
        let e = BodyRefs::find("the X participant", &points, &points.interfaces.iter().collect::<Vec<_>>(), &MOTION)
            .unwrap_err()
            .to_string();
        assert!(e.contains("RIGID_BODY_POINTS: not implemented by the X participant"), "{e}");
    }

    #[test]
    fn lists_read_naturally() {
        assert_eq!(and_list(&["A"]), "A");
        assert_eq!(and_list(&["A", "B"]), "A and B");
        assert_eq!(and_list(&["A", "B", "C"]), "A, B and C");
    }
}
