//! What `tidelink-tdpf` can do, declared once: `--capabilities` prints it and a test compares it with
//! docs/design/participants.md.

use tidelink_adapter_core::spec::{DataType, MeshType};
use tidelink_adapter_core::Capabilities;

/// The declared capabilities of `tidelink-tdpf`.
pub const CAPABILITIES: Capabilities = Capabilities {
    program: "tidelink-tdpf",
    meshes: &[MeshType::RigidBodyRefs],
    dimensions: &[3],
    reads: &[DataType::Positions, DataType::Rotations, DataType::LinearVelocities, DataType::AngularVelocities],
    writes: &[DataType::Forces, DataType::Torques, DataType::AddedMass],
    checkpoints: true,
    sub_steps: false,
    refuses: &["RIGID_BODY_POINTS", "time-window-size method=\"first-participant\"", "steps other than the window"],
};
