//! `tidelink-mbs <participant.yaml> --precice-config <xml> [--backend native|precice]`

use clap::Parser;
use std::process::ExitCode;
use tidelink_adapter_core::cli::{self, ParticipantArgs};

/// Multibody (solid) participant: rigid bodies, joints, springs and dampers, coupled through reference frames or points.
#[derive(Parser)]
#[command(name = "tidelink-mbs", version)]
struct Cli {
    #[command(flatten)]
    args: ParticipantArgs,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let a = Cli::parse().args;
    cli::finish(tidelink_mbs::run(&a.participant, &a.precice_config, a.backend).map(|r| r.summary))
}
