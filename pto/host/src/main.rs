//! `tidelink-pto replay MODULE TRACE.csv`: drives an external module with a recorded
//! (time, displacement, velocity) trace, through the protocol, and reports force, absorbed
//! power, energy and saturation events (docs/external-modules.md).

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::time::Duration;
use tidelink_mbs_solver::external::LEAN_CHANNELS;
use tidelink_mbs_solver::ExternalLaw;
use tidelink_pto::replay::{read_trace, replay, LinkKind};
use tidelink_pto::{ModuleClient, ModuleSpec};

#[derive(Parser)]
#[command(name = "tidelink-pto", about = "Tools for external force modules (power take-off laws in Python or MATLAB).")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Replays a (time, displacement, velocity) trace through a module; rows as CSV on stdout
    /// (time, displacement, velocity, force, power, energy, saturated; units in the header),
    /// totals on stderr.
    Replay {
        /// The module: a `.py` file (run with python3) or, with --command, ignored.
        module: PathBuf,
        /// CSV rows time,displacement,velocity (a header line is skipped).
        trace: PathBuf,
        /// The module's `config`, as JSON (e.g. '{"damping": 1.2e6}').
        #[arg(long, default_value = "{}")]
        config: String,
        /// The whole command instead of `python3 MODULE` (e.g. --command octave --command run_pto.m).
        #[arg(long)]
        command: Vec<String>,
        /// The link the trace belongs to: `tsda` (m, m/s, N) or `rsda` (rad, rad/s, N·m); it
        /// names the output's columns and units.
        #[arg(long, value_enum, default_value_t = LinkKind::Tsda)]
        link: LinkKind,
        /// Force limit for saturation events (default: the config's `f_max`, if any).
        #[arg(long)]
        limit: Option<f64>,
        /// Reply timeout (ms).
        #[arg(long, default_value_t = 20_000)]
        timeout_ms: u64,
        /// Write the rows to this file instead of stdout.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tidelink-pto: error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> Result<()> {
    let Cmd::Replay { module, trace, config, command, link, limit, timeout_ms, output } = Cli::parse().command;
    let config: serde_json::Value = serde_json::from_str(&config).context("--config is not JSON")?;
    let limit = limit.or_else(|| config.get("f_max").and_then(|v| v.as_f64()));
    let command = if command.is_empty() { vec!["python3".into(), module.display().to_string()] } else { command };
    let rows = read_trace(&trace)?;
    let mut client = ModuleClient::new(ModuleSpec {
        label: format!("replay of {}", trace.display()),
        command,
        dir: std::env::current_dir()?,
        kind: "pto".into(),
        in_names: LEAN_CHANNELS.iter().map(|s| s.to_string()).collect(),
        n_outputs: 1,
        timeout: Duration::from_millis(timeout_ms),
        config,
    });
    let dt = rows.get(1).map_or(0.0, |r| r[0] - rows[0][0]);
    client.start(dt)?;
    let result = replay(&mut client, &rows, limit)?;
    client.shutdown()?;
    let csv = result.to_csv(link);
    match output {
        Some(p) => std::fs::write(&p, csv).with_context(|| format!("writing {}", p.display()))?,
        None => print!("{csv}"),
    }
    eprintln!(
        "rows {}, energy {:.6e} J, mean absorbed power {:.6e} W, saturation events {}{}",
        result.rows.len(),
        result.energy(),
        result.mean_power(),
        result.saturation_events(),
        limit.map(|l| format!(" (limit {l})")).unwrap_or_default()
    );
    Ok(())
}
