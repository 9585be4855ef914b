//! `tidelink-sph <participant.yaml> --precice-config <xml> [--backend native|precice] [--check]`

fn main() -> std::process::ExitCode {
    tidelink_adapter_core::cli::main::<tidelink_sph::participant::Sph>(
        "tidelink-sph",
        "SPH fluid participant: weakly compressible SPH around the rigid bodies it receives, returning their loads.",
    )
}
