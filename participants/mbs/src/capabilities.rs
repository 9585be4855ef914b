//! What `tidelink-mbs` can do, declared once: `--capabilities` prints it and a test compares it with
//! docs/design/participants.md.

use tidelink_adapter_core::spec::{DataType, MeshType};
use tidelink_adapter_core::Capabilities;

/// The declared capabilities of `tidelink-mbs`.
pub const CAPABILITIES: Capabilities = Capabilities {
    program: "tidelink-mbs",
    meshes: &[MeshType::RigidBodyRefs, MeshType::RigidBodyPoints],
    dimensions: &[2, 3],
    reads: &[DataType::Forces, DataType::Torques, DataType::AddedMass],
    writes: &[
        DataType::Positions,
        DataType::Rotations,
        DataType::Displacements,
        DataType::LinearVelocities,
        DataType::AngularVelocities,
    ],
    checkpoints: true,
    sub_steps: true,
    refuses: &["FEA meshes", "rotational data on RIGID_BODY_POINTS"],
};
