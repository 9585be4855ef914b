//! `tidelink`: checks co-simulation cases and launches their participant processes.

mod bodies;
mod check;
mod exchange;
mod fmu;
mod gravity;
mod hydro;
mod launch;
mod lifeline;
mod manifest;
mod output;
mod participant_check;
mod paths;
mod progress_bar;
mod progress_view;
mod run;
mod run_lock;
mod stop;
mod supervise;
mod sweep;

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use tidelink_adapter_core::coupling::Backend;
use tidelink_adapter_core::diagnostics::Location;

/// Checks and runs Tidelink co-simulation cases.
///
/// A case is a directory with a manifest `tidelink.yaml` naming the preCICE XML and, for
/// each participant, its command, participant file (`spec`) and working directory. `check`
/// also takes a preCICE XML file alone.
#[derive(Parser)]
#[command(name = "tidelink", version)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Check the case, then start every participant and watch them until they finish
    ///
    /// Refuses to start while another run uses the case folder or one of its exchange
    /// directories, removes what dead runs left in precice-run folders, prefixes each
    /// participant's output with `[Name] `, and turns their `@progress` lines into one progress
    /// display. If one participant fails (or on Ctrl-C, SIGTERM or SIGHUP) the others are
    /// stopped (SIGTERM, then SIGKILL after 2 s); if `tidelink` itself is killed, they end with
    /// it. Exits 0 only if every participant exits 0.
    Run {
        /// The case directory (or its tidelink.yaml).
        case: PathBuf,
    },
    /// Validate a case, or a preCICE configuration alone, without running it
    ///
    /// Checks the preCICE XML, every participant file, every `tidelink-*` participant's own
    /// files (model, solver, hydrodynamic; by running it with `--check`), what the native engine
    /// refuses for the participants that run on it, and the agreements between files
    /// (participant, mesh and data names, read_data_time, gravity, body_to_body). Given an XML
    /// file instead of a case, checks that file and what the engine of `--backend` would refuse
    /// for each of its participants. Prints every problem as `file:line: error: ...`; exits 0
    /// when there are no errors (warnings are allowed).
    Check {
        /// The case directory (or its tidelink.yaml), or a preCICE configuration file.
        case: PathBuf,
        /// For a preCICE configuration checked alone: the backend its participants would run on
        /// (`native`, the default, or `precice`, the real library). A case's manifest says it.
        #[arg(long, value_name = "BACKEND")]
        backend: Option<Backend>,
    },
    /// Run a grid of cells of a case (sea states, PTO coefficients) and write their matrix
    ///
    /// Each cell sets the grid file's numbers in its own copy of the case (under
    /// OUTPUT/cells/<cell>/: its own exchange directory, output, module processes and ports) and
    /// runs it with `tidelink run`, `--jobs` cells at once. A cell that finished (its
    /// `done.json`, written last) is not rerun by a later sweep with the same settings. Writes
    /// the mean absorbed power (and the heave RMS) as compact CSV matrices, `cells.csv` and
    /// labelled heat maps (PNG). A failed cell is reported with its reason and folder; the
    /// others' results stay. Exits 0 when every cell finished, 1 when one failed. See
    /// docs/campaigns.md.
    Sweep {
        /// The case directory (or its tidelink.yaml).
        case: PathBuf,
        /// The grid file (YAML: rows, columns, duration, figures).
        grid: PathBuf,
        /// Cells run at once.
        #[arg(short, long, default_value_t = 1)]
        jobs: usize,
        /// The output folder (default: beside the grid file, `<grid name>-sweep`).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Export a case's MBS participant (or an MBS participant or model file) as an FMI 3.0 FMU
    ///
    /// Runs `tidelink-mbs-fmu` (found next to `tidelink`, else on PATH): for a case, with its
    /// `tidelink-mbs` participant's file and the case's preCICE configuration, which together
    /// say what `tidelink-mbs` would simulate (bodies, joints, PTO, added mass). See docs/fmi.md.
    Fmu {
        /// The case directory (or its tidelink.yaml), an MBS participant file, or a model file.
        input: PathBuf,
        /// The FMU to write.
        #[arg(short, long, default_value = "model.fmu")]
        output: PathBuf,
        /// The preCICE configuration of a participant file (a case's is its own).
        #[arg(long, value_name = "XML")]
        precice_config: Option<PathBuf>,
    },
    /// Generate a BEMIO hydrodynamic file with Capytaine from a YAML description
    ///
    /// Installs its Python environment on first use (pinned capytaine, h5py, scipy) and caches
    /// results by their inputs; prints the path of the file. With `--wamit STEM -o FILE` it
    /// imports a WAMIT run's radiation and hydrostatics instead (no BEM, seconds; no excitation).
    /// See docs/hydro.md.
    Hydro {
        /// The description (bodies, frequencies, headings, depth, rho, g).
        #[arg(required_unless_present = "wamit", conflicts_with = "wamit")]
        description: Option<PathBuf>,
        /// Copy the result here (default: the description's `output:`, else only the cache).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Import the WAMIT run STEM (STEM.1, .hst, .mmx, .pot) into the file `--output`:
        /// radiation and hydrostatics only, for still-water (NO_WAVE) cases.
        #[arg(long, value_name = "STEM", requires = "output")]
        wamit: Option<PathBuf>,
        /// With `--wamit`: length of the radiation impulse response (s), as BEMIO's radiationIRF.
        #[arg(long, value_name = "SECONDS", default_value_t = 30.0, requires = "wamit")]
        irf_t_end: f64,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result: Result<u8> = match cli.command {
        Cmd::Run { case } => run::run(&case),
        Cmd::Sweep { case, grid, jobs, output } => sweep::run(&sweep::Options { case, grid, output, jobs }),
        Cmd::Check { case, backend } => Ok(if check_command(&case, backend) { 0 } else { 1 }),
        Cmd::Fmu { input, output, precice_config } => fmu::export(&input, &output, precice_config.as_deref()),
        Cmd::Hydro { description, output, wamit, irf_t_end } => match (wamit, description, output) {
            (Some(stem), _, Some(out)) => hydro::import_wamit(&stem, &out, irf_t_end),
            (_, Some(description), output) => hydro::generate(&description, output.as_deref()),
            _ => Err(anyhow::anyhow!("tidelink hydro: give a description, or --wamit STEM with --output FILE")),
        }
        .map(|p| {
            println!("{}", p.display());
            0
        }),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            let text = format!("{e:#}");
            // A message that already says `file:line: error: …` is printed as it is.
            if text.contains(": error: ") {
                eprintln!("{text}");
            } else {
                eprintln!("error: {text}");
            }
            ExitCode::FAILURE
        }
    }
}

/// Prints every diagnostic and a summary; true when there are no errors.
fn check_command(case: &std::path::Path, backend: Option<Backend>) -> bool {
    let xml = check::is_xml_file(case);
    let checked = if xml {
        check::check_xml(case, backend.unwrap_or_default())
    } else {
        let mut checked = check::check_case(case);
        if backend.is_some() {
            checked.diags.error(
                Location::new(case, 0),
                "--backend applies to a preCICE configuration checked alone; a case sets `backend:` in its tidelink.yaml",
            );
        }
        checked
    };
    // Written, not printed: a reader that closes the pipe (`| head`) ends the listing, never
    // the program; the exit code still says whether the case checks.
    let mut out = std::io::stdout().lock();
    let mut say = |line: String| {
        let _ = writeln!(out, "{line}");
    };
    for d in &checked.diags.0 {
        say(d.to_string());
    }
    let errors = checked.diags.errors().count();
    let warnings = checked.diags.warnings().count();
    let what = match &checked.case {
        Some(c) => format!("case `{}`", c.name()),
        None if xml => format!("configuration `{}`", case.display()),
        None => format!("case `{}`", case.display()),
    };
    if errors == 0 {
        say(format!("{what}: no errors ({warnings} warning(s))"));
    } else {
        say(format!("{what}: {errors} error(s), {warnings} warning(s)"));
    }
    errors == 0
}
