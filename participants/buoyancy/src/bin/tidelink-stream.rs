//! `tidelink-stream <participant.yaml> --precice-config <xml> [--backend native|precice]`

use clap::Parser;
use std::process::ExitCode;
use tidelink_adapter_core::cli::{self, ParticipantArgs};

/// Stand-in fluid participant: drag of a uniform stream on the points of a plate.
#[derive(Parser)]
#[command(name = "tidelink-stream", version)]
struct Cli {
    #[command(flatten)]
    args: ParticipantArgs,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let a = Cli::parse().args;
    cli::finish(tidelink_buoyancy::stream::participant::run(&a.participant, &a.precice_config, a.backend))
}
