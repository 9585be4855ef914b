//! `tidelink-mbs <participant.yaml> --precice-config <xml> [--backend native|precice] [--check]`

fn main() -> std::process::ExitCode {
    tidelink_adapter_core::cli::main::<tidelink_mbs::participant::Mbs>(
        "tidelink-mbs",
        "Multibody (solid) participant: rigid bodies, joints, springs and dampers, coupled through reference frames or points.",
    )
}
