//! What `tidelink-buoyancy` can do, declared once: `--capabilities` prints it and a test compares it with
//! docs/design/participants.md.

use tidelink_adapter_core::spec::{DataType, MeshType};
use tidelink_adapter_core::Capabilities;

/// The declared capabilities of `tidelink-buoyancy`.
pub const CAPABILITIES: Capabilities = Capabilities {
    program: "tidelink-buoyancy",
    meshes: &[MeshType::RigidBodyRefs],
    dimensions: &[3],
    reads: &[DataType::Positions, DataType::LinearVelocities],
    writes: &[DataType::Forces, DataType::Torques],
    checkpoints: true,
    sub_steps: false,
    refuses: &["RIGID_BODY_POINTS"],
};
