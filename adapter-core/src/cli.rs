//! The one command line of every participant binary,
//! `<participant.yaml> --precice-config <xml> [--backend native|precice] [--check[=lines]]`,
//! and how it ends: [`main`] is the whole `main` of a participant program. `--capabilities`
//! alone prints what the program can do ([`Capabilities`]).

use crate::capabilities::Capabilities;
use crate::coupling::Backend;
use crate::driver::RunSummary;
use crate::participant::{self, Participant};
use crate::progress::LineReporter;
use clap::{Args, FromArgMatches};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The arguments of every participant binary.
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
    /// Only build the participant and report every error and warning of its files (with file
    /// and line) that a run would stop on, without running (on the native backend also what
    /// the engine refuses in the XML for this participant); `--check=lines` prints them as
    /// machine-readable lines (what `tidelink check` reads).
    #[arg(long, value_name = "FORMAT", num_args = 0..=1, default_missing_value = "text")]
    pub check: Option<CheckFormat>,
}

/// How `--check` prints what it found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// `file:line: error: ...`, one per line, and a summary.
    Text,
    /// `@check {json}` and `@fact {json}` lines for `tidelink check`.
    Lines,
}

/// The `main` of participant program `program` (`about` is its one-line description): parses
/// the arguments, then checks or runs participant `P`; the exit code says how it ended.
pub fn main<P: Participant>(program: &'static str, about: &'static str) -> ExitCode {
    // `--capabilities` alone: what the program can do, as a row of docs/design/participants.md.
    if std::env::args().skip(1).any(|a| a == "--capabilities") {
        println!("{}\n{}", Capabilities::HEADER, P::CAPABILITIES.row());
        return ExitCode::SUCCESS;
    }
    let command = clap::Command::new(program)
        .about(about)
        .version(env!("CARGO_PKG_VERSION"))
        .after_help("`--capabilities` (alone) prints what this program can do: meshes, data, checkpoints, refusals.");
    let matches = ParticipantArgs::augment_args(command).about(about).get_matches();
    let args = match ParticipantArgs::from_arg_matches(&matches) {
        Ok(a) => a,
        Err(e) => e.exit(),
    };
    let default_level = if args.check.is_some() { "warn" } else { "info" };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(default_level)).init();
    // Started by `tidelink run`: end with the launcher, however it ends.
    crate::launcher::watch_lifeline();
    if let Some(format) = args.check {
        return check::<P>(&args, format);
    }
    // Progress lines only for the launcher that reads them, not on the terminal of a user.
    let mut lines = LineReporter::default();
    let progress: &mut dyn crate::driver::Progress = if crate::launcher::launched() { &mut lines } else { &mut () };
    let result = participant::run::<P>(&args.participant, &args.precice_config, args.backend, progress);
    finish(result.map(|(summary, _)| summary), &args.participant)
}

/// `--check`: builds `P` and prints what it found; fails when there are errors.
fn check<P: Participant>(args: &ParticipantArgs, format: CheckFormat) -> ExitCode {
    let report = participant::check::<P>(&args.participant, &args.precice_config, args.backend);
    match format {
        CheckFormat::Lines => report.to_lines().iter().for_each(|l| println!("{l}")),
        CheckFormat::Text => {
            report.diagnostics.0.iter().for_each(|d| println!("{d}"));
            let (errors, warnings) = (report.diagnostics.errors().count(), report.diagnostics.warnings().count());
            println!("{}: {errors} error(s), {warnings} warning(s)", args.participant.display());
        }
    }
    if report.diagnostics.has_errors() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Logs how the run ended and gives the exit code: success with a summary line, or failure
/// with the file-and-line findings exactly as `--check` prints them (a file error), or
/// `error: …` with every cause (as anyhow prints chains) for a failed run.
pub fn finish(result: Result<RunSummary, participant::ParticipantError>, participant_file: &Path) -> ExitCode {
    match result {
        Ok(summary) => {
            log::info!("coupling ended at t = {} after {} windows", summary.time, summary.windows);
            ExitCode::SUCCESS
        }
        Err(e) => {
            match participant::findings(&e, participant_file) {
                Some(d) => d.0.iter().for_each(|d| eprintln!("{d}")),
                None => eprintln!("error: {}", participant::chain(&e)),
            }
            ExitCode::FAILURE
        }
    }
}
