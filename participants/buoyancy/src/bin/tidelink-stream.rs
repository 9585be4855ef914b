//! `tidelink-stream <participant.yaml> --precice-config <xml> [--backend native|precice] [--check]`

fn main() -> std::process::ExitCode {
    tidelink_adapter_core::cli::main::<tidelink_buoyancy::stream::participant::Stream>(
        "tidelink-stream",
        "Stand-in fluid participant: drag of a uniform stream on the points of a plate.",
    )
}
