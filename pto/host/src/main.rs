//! `tidelink-pto replay MODULE TRACE.csv [TRACE.csv …]`: drives an external module with recorded
//! (time, displacement, velocity) traces, through the protocol, and reports force, absorbed
//! power, energy and saturation events (docs/external-modules.md); several traces share the
//! module process, with `reset` between them.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::time::Duration;
use tidelink_mbs_solver::external::LEAN_CHANNELS;
use tidelink_mbs_solver::ExternalLaw;
use tidelink_pto::replay::{read_trace, replay_each, LinkKind};
use tidelink_pto::{ModuleClient, ModuleSpec};

#[derive(Parser)]
#[command(name = "tidelink-pto", about = "Tools for external force modules (power take-off laws in Python or MATLAB).")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Replays (time, displacement, velocity) traces through a module; rows as CSV on stdout
    /// (time, displacement, velocity, force, power, energy, saturated; units in the header),
    /// totals on stderr. Several traces share one module process, which gets `reset` before
    /// each trace but the first.
    Replay {
        /// The module: a `.py` file (run with python3) or, with --command, ignored.
        module: PathBuf,
        /// CSV rows time,displacement,velocity (a header line is skipped); several are replayed
        /// in turn.
        #[arg(required = true, num_args = 1..)]
        traces: Vec<PathBuf>,
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
        /// Write the rows to this file instead of stdout (with several traces: a folder, one
        /// `<trace name>.csv` each).
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
    let Cmd::Replay { module, traces, config, command, link, limit, timeout_ms, output } = Cli::parse().command;
    let config: serde_json::Value = serde_json::from_str(&config).context("--config is not JSON")?;
    let limit = limit.or_else(|| config.get("f_max").and_then(|v| v.as_f64()));
    let command = if command.is_empty() { vec!["python3".into(), module.display().to_string()] } else { command };
    let rows = traces.iter().map(|t| read_trace(t)).collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = traces.iter().map(|t| t.display().to_string()).collect();
    let mut client = ModuleClient::new(ModuleSpec {
        label: format!("replay of {}", names.join(", ")),
        command,
        dir: std::env::current_dir()?,
        kind: "pto".into(),
        in_names: LEAN_CHANNELS.iter().map(|s| s.to_string()).collect(),
        n_outputs: 1,
        timeout: Duration::from_millis(timeout_ms),
        config,
    });
    let dt = rows[0].get(1).map_or(0.0, |r| r[0] - rows[0][0][0]);
    client.start(dt)?;
    let results = replay_each(&mut client, &rows, limit)?;
    client.shutdown()?;
    let several = traces.len() > 1;
    if let (true, Some(dir)) = (several, &output) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating the folder {}", dir.display()))?;
    }
    let mut stdout = String::new();
    for ((trace, name), result) in traces.iter().zip(&names).zip(&results) {
        let csv = result.to_csv(link);
        match (&output, several) {
            (Some(p), false) => std::fs::write(p, csv).with_context(|| format!("writing {}", p.display()))?,
            (Some(dir), true) => {
                let stem =
                    trace.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "trace".into());
                let p = dir.join(format!("{stem}.csv"));
                std::fs::write(&p, csv).with_context(|| format!("writing {}", p.display()))?;
            }
            (None, false) => stdout.push_str(&csv),
            (None, true) => stdout.push_str(&format!("# trace {name}\n{csv}")),
        }
        eprintln!(
            "{}rows {}, energy {:.6e} J, mean absorbed power {:.6e} W, saturation events {}{}",
            if several { format!("{name}: ") } else { String::new() },
            result.rows.len(),
            result.energy(),
            result.mean_power(),
            result.saturation_events(),
            limit.map(|l| format!(" (limit {l})")).unwrap_or_default()
        );
    }
    print!("{stdout}");
    Ok(())
}
