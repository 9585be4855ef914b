//! `tidelink-tdpf <participant.yaml> --precice-config <xml> [--backend native|precice]`

use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;
use tidelink_adapter_core::coupling::Backend;

/// Time-domain potential-flow fluid participant: linear hydrodynamic loads from a BEMIO HDF5 file.
#[derive(Parser)]
#[command(name = "tidelink-tdpf", version)]
struct Cli {
    /// The participant YAML file.
    participant: PathBuf,
    /// The preCICE XML configuration shared by all participants.
    #[arg(long)]
    precice_config: PathBuf,
    /// Coupling backend: `native` (Tidelink's engine) or `precice` (the real library).
    #[arg(long, default_value = "native")]
    backend: Backend,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let cli = Cli::parse();
    match tidelink_tdpf::run(&cli.participant, &cli.precice_config, cli.backend) {
        Ok(summary) => {
            log::info!("coupling ended at t = {} after {} windows", summary.time, summary.windows);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
