//! What a participant program can do, declared in code ([`crate::Participant::CAPABILITIES`]) so
//! that the program (`--capabilities`), its start-up checks and the table of
//! docs/design/participants.md say the same thing: a test compares the printed rows with the
//! table, so the documentation cannot drift from the code.

use crate::spec::{DataType, MeshType};

/// The declared abilities of one participant program.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capabilities {
    /// The program's name, e.g. `tidelink-sph`.
    pub program: &'static str,
    /// The coupling mesh types its participant file may use.
    pub meshes: &'static [MeshType],
    /// The spatial dimensions of those meshes.
    pub dimensions: &'static [usize],
    /// The data types it can read.
    pub reads: &'static [DataType],
    /// The data types it can write.
    pub writes: &'static [DataType],
    /// Whether it saves and restores its state, so implicit schemes can repeat its windows
    /// (checked against its adapter's `can_checkpoint` at every build).
    pub checkpoints: bool,
    /// Whether it takes several steps of its own inside a coupling window.
    pub sub_steps: bool,
    /// What valid preCICE or participant files may ask of it but it refuses, with a clear error.
    pub refuses: &'static [&'static str],
}

impl Capabilities {
    /// The heading of the table rows [`Capabilities::row`] writes.
    pub const HEADER: &'static str =
        "| program | meshes | dimensions | reads | writes | checkpoints (implicit schemes) | sub-steps in a window | refuses |";

    /// One Markdown table row, as `--capabilities` prints it and docs/design/participants.md lists it.
    pub fn row(&self) -> String {
        let list = |items: Vec<String>| if items.is_empty() { "—".to_string() } else { items.join(", ") };
        let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
        let cells = [
            format!("`{}`", self.program),
            list(self.meshes.iter().map(|m| m.as_str().to_string()).collect()),
            list(self.dimensions.iter().map(|d| format!("{d}D")).collect()),
            list(self.reads.iter().map(|d| d.as_str().to_string()).collect()),
            list(self.writes.iter().map(|d| d.as_str().to_string()).collect()),
            yes_no(self.checkpoints),
            yes_no(self.sub_steps),
            list(self.refuses.iter().map(|r| r.to_string()).collect()),
        ];
        format!("| {} |", cells.join(" | "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_lists_every_field_in_the_header_order() {
        let c = Capabilities {
            program: "tidelink-x",
            meshes: &[MeshType::RigidBodyRefs],
            dimensions: &[2, 3],
            reads: &[DataType::Positions, DataType::Rotations],
            writes: &[DataType::Forces],
            checkpoints: true,
            sub_steps: false,
            refuses: &[],
        };
        assert_eq!(
            c.row(),
            "| `tidelink-x` | RIGID_BODY_REFS | 2D, 3D | POSITIONS, ROTATIONS | FORCES | yes | no | — |"
        );
        assert_eq!(c.row().matches('|').count(), Capabilities::HEADER.matches('|').count());
    }
}
