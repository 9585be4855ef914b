//! The one command line of every participant binary,
//! `<participant.yaml> --precice-config <xml> [--backend native|precice] [--check[=lines]]`,
//! and how it ends: [`main`] is the whole `main` of a participant program. `--capabilities`
//! alone prints what the program can do ([`Capabilities`]).

use crate::capabilities::Capabilities;
use crate::coupling::{Backend, CouplingError, ErrorKind};
use crate::driver::RunSummary;
use crate::launcher::PARTNER_EXIT;
use crate::participant::{self, Participant};
use crate::progress::LineReporter;
use crate::signals::INTERRUPTED_EXIT;
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
    // SIGINT, SIGTERM and SIGHUP end the run at a window boundary, output files whole. With
    // libprecice, whose waits cannot be interrupted, a watchdog ends a participant still
    // waiting a moment later (`signals`); the files then hold the rows of every finished window.
    crate::signals::catch_for(args.backend);
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
            ExitCode::from(exit_status(&e))
        }
    }
}

/// The exit status of a failed run: [`INTERRUPTED_EXIT`] when a stop signal ended it,
/// [`PARTNER_EXIT`] when a partner's failure did (the launcher then blames the partner), else 1.
/// Public for participant programs with a `main` of their own (`tidelink-flap`).
pub fn exit_status(e: &(dyn std::error::Error + 'static)) -> u8 {
    let mut cause = Some(e);
    while let Some(c) = cause {
        // `AdapterError::Coupling` is transparent: its source is not the coupling error itself.
        let coupling = match c.downcast_ref::<crate::AdapterError>() {
            Some(crate::AdapterError::Coupling(inner)) => Some(inner),
            _ => c.downcast_ref::<CouplingError>(),
        };
        if let Some(coupling) = coupling {
            return match coupling.kind {
                ErrorKind::Interrupted => INTERRUPTED_EXIT as u8,
                ErrorKind::Partner => PARTNER_EXIT as u8,
                _ => 1,
            };
        }
        cause = c.source();
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::CoupleError;

    fn run_error(e: CouplingError) -> participant::ParticipantError {
        let source = crate::AdapterError::Coupling(e);
        participant::ParticipantError::Couple(CoupleError::Run { name: "Fluid".into(), source })
    }

    #[test]
    fn the_exit_status_says_whether_a_partner_or_a_signal_stopped_the_run() {
        assert_eq!(exit_status(&run_error(CouplingError::partner("participant \"Solid\" failed"))), 75);
        assert_eq!(exit_status(&run_error(CouplingError::interrupted("stopped by a signal"))), 130);
        assert_eq!(exit_status(&run_error(CouplingError::io("disk full"))), 1);
        let solver = participant::ParticipantError::Couple(CoupleError::Run {
            name: "Fluid".into(),
            source: crate::AdapterError::solver("diverged"),
        });
        assert_eq!(exit_status(&solver), 1);
        let open = participant::ParticipantError::Couple(CoupleError::Open {
            name: "Fluid".into(),
            config: "p.xml".into(),
            source: CouplingError::partner("participant \"Solid\" never came"),
        });
        assert_eq!(exit_status(&open), 75);
    }
}
