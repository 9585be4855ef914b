//! `tidelink-buoyancy <participant.yaml> --precice-config <xml> [--backend native|precice]`

use clap::Parser;
use std::process::ExitCode;
use tidelink_adapter_core::cli::{self, ParticipantArgs};

/// Buoyancy-and-drag stand-in fluid participant for a sphere.
#[derive(Parser)]
#[command(name = "tidelink-buoyancy", version)]
struct Cli {
    #[command(flatten)]
    args: ParticipantArgs,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let a = Cli::parse().args;
    cli::finish(tidelink_buoyancy::run(&a.participant, &a.precice_config, a.backend))
}
