//! `tidelink-tdpf <participant.yaml> --precice-config <xml> [--backend native|precice] [--check]`

fn main() -> std::process::ExitCode {
    tidelink_adapter_core::cli::main::<tidelink_tdpf::participant::Tdpf>(
        "tidelink-tdpf",
        "Time-domain potential-flow fluid participant: linear hydrodynamic loads from a BEMIO HDF5 file.",
    )
}
