//! Which coupling data the SPH participant exchanges, found through their types in the
//! participant file and checked before any connection: one RIGID_BODY_REFS mesh (one vertex per
//! body), reading the bodies' motion and writing their loads. A RIGID_BODY_POINTS mesh (loads
//! per marker) is valid preCICE but not implemented here, and refused with that word.
//!
//! POSITIONS and LINEAR_VELOCITIES are required (the markers move with them); without ROTATIONS
//! the initial orientation is kept, without ANGULAR_VELOCITIES the bodies do not turn, without
//! TORQUES the fluid's moments are dropped.

use tidelink_adapter_core::body_interface::{BodyInterface, Needs, RigidMotion, RigidNeeds};
use tidelink_adapter_core::spec::ParticipantFile;
use tidelink_adapter_core::AdapterResult;

/// The data of the RIGID_BODY_REFS mesh: vertex i is body i of `precice_adapter_config.bodies`.
pub type Interface = BodyInterface<RigidMotion>;

/// What the SPH participant needs of its mesh, in its messages' words.
const NEEDS: Needs<RigidNeeds> = Needs {
    who: "the SPH participant",
    three_d: "the SPH participant exchanges 3D poses and loads (a 2D fluid model still couples on a 3D mesh)",
    motion: RigidNeeds { positions: "the bodies' reference points", velocities: "the body markers move with them" },
    without_torques: Some("the fluid's moments are dropped"),
};

/// Checks the interfaces of `file`; errors name the file and line and say what to use.
pub fn from_file(file: &ParticipantFile) -> AdapterResult<Interface> {
    let a = &file.adapter;
    BodyInterface::find(a, &a.interfaces.iter().collect::<Vec<_>>(), NEEDS)
}
