//! `tidelink-flap --precice-config <xml> [options]`: the rigid flap built in code (see
//! `tidelink_mbs::flap`), coupled as the Solid of `configs/flap`.

use anyhow::Result;
use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::driver;
use tidelink_adapter_core::progress::LineReporter;
use tidelink_adapter_core::records::Provenance;
use tidelink_adapter_core::spec::ReadDataTime;
use tidelink_adapter_core::{launcher, signals};
use tidelink_mbs::adapter::{OutputFormat, OutputSettings};
use tidelink_mbs::flap::{self, FlapSettings};

/// The rigid flap on a hinge with a rotational spring that is stiffened during the run.
#[derive(Parser)]
#[command(name = "tidelink-flap", version)]
struct Cli {
    /// The preCICE XML configuration shared by all participants.
    #[arg(long)]
    precice_config: PathBuf,
    /// Coupling backend: `native` (Tidelink's engine) or `precice` (the real library).
    #[arg(long, default_value = "native")]
    backend: Backend,
    /// The participant's name in the XML.
    #[arg(long, default_value = "Solid")]
    participant: String,
    /// Spring coefficient (N m/rad) at the start…
    #[arg(long, default_value_t = 25.0)]
    stiffness: f64,
    /// …and from `--stiffen-at` on.
    #[arg(long, default_value_t = 100.0)]
    stiffness_after: f64,
    #[arg(long, default_value_t = 1.5)]
    stiffen_at: f64,
    /// Folder of the CSV output (flap.csv), relative to the working directory.
    #[arg(long, default_value = "output")]
    output: PathBuf,
    /// Output rows per second of coupled time (at most one per coupling window).
    #[arg(long, default_value_t = 40.0)]
    fps: f64,
}

fn run(cli: &Cli) -> Result<()> {
    let settings = FlapSettings {
        participant: cli.participant.clone(),
        stiffness: cli.stiffness,
        stiffness_after: cli.stiffness_after,
        stiffen_at: cli.stiffen_at,
        ..FlapSettings::default()
    };
    let provenance = Provenance::now(&cli.precice_config, &cli.participant);
    let output = OutputSettings {
        directory: cli.output.clone(),
        fps: Some(cli.fps),
        format: OutputFormat::Csv,
        provenance,
        vtk: None,
    };
    let mut solid = flap::adapter(&settings, Some(output))?;
    let (name, config) = (&settings.participant, &cli.precice_config);
    let summary =
        driver::couple(&mut solid, name, config, cli.backend, ReadDataTime::WindowStart, &mut LineReporter::default())?;
    log::info!("coupling ended at t = {} after {} windows", summary.time, summary.windows);
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let cli = Cli::parse();
    // As every participant program (`tidelink_adapter_core::cli::main`): end with the launcher
    // that started it, however it ends, and stop at a window boundary on SIGINT, SIGTERM or
    // SIGHUP, the output whole, with status 130 (`signals`).
    launcher::watch_lifeline();
    signals::catch_for(cli.backend);
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(tidelink_adapter_core::cli::exit_status(e.as_ref()))
        }
    }
}
