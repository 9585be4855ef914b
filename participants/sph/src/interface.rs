//! Which coupling data the SPH participant exchanges, found through their types in the
//! participant file and checked before any connection: one RIGID_BODY_REFS mesh (one vertex per
//! body), reading the bodies' motion and writing their loads. A RIGID_BODY_POINTS mesh (loads
//! per marker) is valid preCICE but not implemented here, and refused with that word.

use tidelink_adapter_core::spec::{BodyRefs, ParticipantFile, MOTION};
use tidelink_adapter_core::AdapterResult;

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
        let refs = BodyRefs::find("the SPH participant", a, &a.interfaces.iter().collect::<Vec<_>>(), &MOTION)?;
        let positions = refs.need(&refs.positions, "read POSITIONS (the bodies' reference points)")?;
        let velocities = refs.need(&refs.velocities, "read LINEAR_VELOCITIES (the body markers move with them)")?;
        let forces = refs.need(&refs.forces, "write FORCES")?;
        refs.warn_without(&refs.torques, "writes no TORQUES: the fluid's moments are dropped");
        let BodyRefs { mesh, rotations, angular_velocities, torques, .. } = refs;
        Ok(Interface { mesh, positions, rotations, velocities, angular_velocities, forces, torques })
    }
}
