//! Which coupling data the SPH participant exchanges, found through their types in the
//! participant file and checked before any connection: one RIGID_BODY_REFS mesh (one vertex per
//! body), reading the bodies' motion and writing their loads. A RIGID_BODY_POINTS mesh (loads
//! per marker) is valid preCICE but not implemented here, and refused with that word.

use tidelink_adapter_core::spec::{DataType, MeshType, ParticipantFile};
use tidelink_adapter_core::{AdapterError, AdapterResult};

/// The data of the RIGID_BODY_REFS mesh.
#[derive(Debug, Clone)]
pub struct Interface {
    /// The mesh: vertex i is body i of `precice_adapter_config.bodies`.
    pub mesh: String,
    /// POSITIONS read: the bodies' reference points (m).
    pub positions: String,
    /// ROTATIONS read (rotation vectors, rad); without them the initial orientation is kept.
    pub rotations: Option<String>,
    /// LINEAR_VELOCITIES read (m/s): the markers move with them.
    pub velocities: String,
    /// ANGULAR_VELOCITIES read (rad/s, world axes); without them the bodies do not turn.
    pub angular_velocities: Option<String>,
    /// FORCES written (N, world axes).
    pub forces: String,
    /// TORQUES written (N m about the reference point); without them the moments are dropped.
    pub torques: Option<String>,
}

impl Interface {
    /// Checks the interfaces of `file`; errors name the file and line and say what to use.
    pub fn from_file(file: &ParticipantFile) -> AdapterResult<Self> {
        let a = &file.adapter;
        let iface = match a.interfaces.as_slice() {
            [one] => one,
            [] => {
                return Err(AdapterError::config(format!(
                    "{}: the SPH participant needs one interface (a RIGID_BODY_REFS mesh); none is listed",
                    a.loc
                )))
            }
            more => {
                return Err(AdapterError::config(format!(
                "{}: the SPH participant exchanges all bodies on one RIGID_BODY_REFS mesh; {} interfaces are listed",
                a.loc,
                more.len()
            )))
            }
        };
        if iface.mesh_type != MeshType::RigidBodyRefs {
            return Err(AdapterError::Unsupported(format!(
                "{}: mesh `{}` has mesh_type {}: not implemented by the SPH participant, which exchanges one pose and \
                 one resultant load per body; use mesh_type: RIGID_BODY_REFS",
                iface.loc,
                iface.mesh_name,
                iface.mesh_type.as_str()
            )));
        }
        let (mut positions, mut rotations, mut velocities, mut angular) = (None, None, None, None);
        for d in &iface.read_data {
            let slot = match d.data_type {
                DataType::Positions => &mut positions,
                DataType::Rotations => &mut rotations,
                DataType::LinearVelocities => &mut velocities,
                DataType::AngularVelocities => &mut angular,
                other => {
                    return Err(AdapterError::Unsupported(format!(
                        "{}: the SPH participant cannot read {} (`{}`); it reads POSITIONS, ROTATIONS, \
                         LINEAR_VELOCITIES and ANGULAR_VELOCITIES",
                        d.loc,
                        other.as_str(),
                        d.name
                    )))
                }
            };
            *slot = Some(d.name.clone());
        }
        let (mut forces, mut torques) = (None, None);
        for d in &iface.write_data {
            match d.data_type {
                DataType::Forces => forces = Some(d.name.clone()),
                DataType::Torques => torques = Some(d.name.clone()),
                other => {
                    return Err(AdapterError::Unsupported(format!(
                        "{}: the SPH participant cannot write {} (`{}`); it writes FORCES and TORQUES",
                        d.loc,
                        other.as_str(),
                        d.name
                    )))
                }
            }
        }
        let need = |v: Option<String>, what: &str| {
            v.ok_or_else(|| AdapterError::config(format!("{}: mesh `{}` must {what}", iface.loc, iface.mesh_name)))
        };
        let positions = need(positions, "read POSITIONS (the bodies' reference points)")?;
        let velocities = need(velocities, "read LINEAR_VELOCITIES (the body markers move with them)")?;
        let forces = need(forces, "write FORCES")?;
        if torques.is_none() {
            log::warn!("{}: mesh `{}` writes no TORQUES: the fluid's moments are dropped", iface.loc, iface.mesh_name);
        }
        Ok(Interface {
            mesh: iface.mesh_name.clone(),
            positions,
            rotations,
            velocities,
            angular_velocities: angular,
            forces,
            torques,
        })
    }
}
