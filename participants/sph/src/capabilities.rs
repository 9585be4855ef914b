//! What `tidelink-sph` can do, declared once: `--capabilities` prints it and a test compares it with
//! docs/design/participants.md.

use tidelink_adapter_core::spec::{DataType, MeshType};
use tidelink_adapter_core::Capabilities;

/// The declared capabilities of `tidelink-sph`.
pub const CAPABILITIES: Capabilities = Capabilities {
    program: "tidelink-sph",
    meshes: &[MeshType::RigidBodyRefs],
    dimensions: &[3],
    reads: &[DataType::Positions, DataType::Rotations, DataType::LinearVelocities, DataType::AngularVelocities],
    writes: &[DataType::Forces, DataType::Torques],
    checkpoints: true,
    sub_steps: true,
    refuses: &["RIGID_BODY_POINTS"],
};
