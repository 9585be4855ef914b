//! What the participant binaries share on their command line,
//! `<participant.yaml> --precice-config <xml> [--backend native|precice]`, and how they end.

use crate::coupling::Backend;
use crate::driver::RunSummary;
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of every participant binary (flatten them into the binary's own parser).
#[derive(Debug, Clone, clap::Args)]
pub struct ParticipantArgs {
    /// The participant YAML file.
    pub participant: PathBuf,
    /// The preCICE XML configuration shared by all participants.
    #[arg(long)]
    pub precice_config: PathBuf,
    /// Coupling backend: `native` (Tidelink's engine) or `precice` (the real library).
    #[arg(long, default_value = "native")]
    pub backend: Backend,
}

/// Logs how the run ended and gives the exit code: success with a summary line, or
/// `error: …` with every cause (`{:#}`, as anyhow prints chains) and failure.
pub fn finish<E: std::fmt::Display>(result: Result<RunSummary, E>) -> ExitCode {
    match result {
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
