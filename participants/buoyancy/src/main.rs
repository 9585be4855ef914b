//! `tidelink-buoyancy <participant.yaml> --precice-config <xml> [--backend native|precice] [--check]`

fn main() -> std::process::ExitCode {
    tidelink_adapter_core::cli::main::<tidelink_buoyancy::participant::Buoyancy>(
        "tidelink-buoyancy",
        "Buoyancy-and-drag stand-in fluid participant for a sphere.",
    )
}
