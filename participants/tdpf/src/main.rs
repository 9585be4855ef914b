//! `tidelink-tdpf <participant.yaml> --precice-config <xml> [--backend native|precice]`

use clap::Parser;
use std::process::ExitCode;
use tidelink_adapter_core::cli::{self, ParticipantArgs};

/// Time-domain potential-flow fluid participant: linear hydrodynamic loads from a BEMIO HDF5 file.
#[derive(Parser)]
#[command(name = "tidelink-tdpf", version)]
struct Cli {
    #[command(flatten)]
    args: ParticipantArgs,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let a = Cli::parse().args;
    cli::finish(tidelink_tdpf::run(&a.participant, &a.precice_config, a.backend))
}
