//! What `tidelink-stream` can do, declared once: `--capabilities` prints it and a test compares it with
//! docs/design/participants.md.

use tidelink_adapter_core::spec::{DataType, MeshType};
use tidelink_adapter_core::Capabilities;

/// The declared capabilities of `tidelink-stream`.
pub const CAPABILITIES: Capabilities = Capabilities {
    program: "tidelink-stream",
    meshes: &[MeshType::RigidBodyPoints],
    dimensions: &[2, 3],
    reads: &[DataType::Displacements, DataType::Positions],
    writes: &[DataType::Forces],
    checkpoints: true,
    sub_steps: false,
    refuses: &["RIGID_BODY_REFS"],
};
