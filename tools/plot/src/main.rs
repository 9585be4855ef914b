//! `tidelink-plot`: columns of CSV files as a chart (PNG, or SVG when the output ends in `.svg`),
//! one panel per `--panel`, one series per file; for scripts that have no matplotlib
//! (`pto/examples/run_visual_verification.py`). Arguments are read by hand: the library is a
//! dependency of the participants, and an argument parser here would be one of theirs too.

use std::path::PathBuf;
use std::process::ExitCode;
use tidelink_plot::csv_chart::{chart, PanelSpec, Table};

const USAGE: &str = "\
usage: tidelink-plot -o OUT.png|OUT.svg --title TITLE [--x COLUMN] [--x-label LABEL]
                     --panel LABEL=COLUMN [--panel ...] [--from X] [--to X] FILE[=LEGEND] ...

Draws columns of CSV files (`#` comments, a header, rows of numbers) side by side: one panel per
--panel (its y label with the unit, and the column drawn from every file), one series per file
(its legend after `=`, else the file's name), against the --x column (default time_s, labelled
\"time t [s]\"); --from and --to limit the x range.";

/// The parsed command line.
struct Args {
    output: PathBuf,
    title: String,
    x: String,
    x_label: String,
    panels: Vec<PanelSpec>,
    from: Option<f64>,
    to: Option<f64>,
    files: Vec<(String, String)>,
}

fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut output, mut title, mut from, mut to) = (None, None, None, None);
    let (mut x, mut x_label) = ("time_s".to_string(), "time t [s]".to_string());
    let (mut panels, mut files) = (Vec::new(), Vec::new());
    let number = |flag: &str, v: String| v.parse::<f64>().map_err(|_| format!("{flag} {v:?}: not a number"));
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "-o" | "--output" => output = Some(PathBuf::from(value()?)),
            "--title" => title = Some(value()?),
            "--x" => x = value()?,
            "--x-label" => x_label = value()?,
            "--from" => from = Some(number("--from", value()?)?),
            "--to" => to = Some(number("--to", value()?)?),
            "--panel" => {
                let p = value()?;
                match p.rsplit_once('=') {
                    Some((label, column)) if !label.is_empty() && !column.is_empty() => {
                        panels.push(PanelSpec { label: label.into(), column: column.into() })
                    }
                    _ => return Err(format!("--panel {p:?}: give LABEL=COLUMN, e.g. \"heave z [m]=z_m\"")),
                }
            }
            flag if flag.starts_with('-') && flag.len() > 1 => return Err(format!("unknown option {flag}")),
            file => files.push(match file.split_once('=') {
                Some((p, l)) => (p.to_string(), l.to_string()),
                None => (file.to_string(), file.to_string()),
            }),
        }
    }
    let output = output.ok_or("-o OUT is missing")?;
    let title = title.ok_or("--title is missing")?;
    if panels.is_empty() || files.is_empty() {
        return Err("give at least one --panel and one file".into());
    }
    Ok(Args { output, title, x, x_label, panels, from, to, files })
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("tidelink-plot: error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tidelink-plot: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(a: Args) -> Result<(), String> {
    let mut runs = Vec::new();
    for (path, legend) in &a.files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        runs.push((legend.clone(), Table::parse(&text, path).map_err(|e| e.to_string())?));
    }
    let range = match (a.from, a.to) {
        (None, None) => None,
        (from, to) => Some((from.unwrap_or(f64::NEG_INFINITY), to.unwrap_or(f64::INFINITY))),
    };
    let c = chart(&a.title, &a.x_label, &a.x, &a.panels, &runs, range).map_err(|e| e.to_string())?;
    if a.output.extension().is_some_and(|e| e == "svg") {
        let svg = c.to_svg().map_err(|e| e.to_string())?;
        std::fs::write(&a.output, svg).map_err(|e| format!("{}: {e}", a.output.display()))
    } else {
        c.write_png(&a.output).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Result<Args, String> {
        parse(s.iter().map(|x| x.to_string()))
    }

    #[test]
    fn reads_panels_files_and_range() {
        let a = args(&[
            "-o",
            "t.png",
            "--title",
            "T",
            "--panel",
            "power P = -F v [kW]=power_kW",
            "a.csv=linear",
            "b.csv",
            "--from",
            "3",
        ])
        .unwrap();
        assert_eq!(a.panels[0].label, "power P = -F v [kW]");
        assert_eq!(a.panels[0].column, "power_kW");
        assert_eq!(a.files, vec![("a.csv".into(), "linear".into()), ("b.csv".into(), "b.csv".into())]);
        assert_eq!((a.from, a.to, a.x.as_str()), (Some(3.0), None, "time_s"));
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        assert_eq!(args(&["--title", "T", "--panel", "a=b", "f"]).err().unwrap(), "-o OUT is missing");
        assert!(args(&["-o", "t.png", "--title", "T", "--panel", "nocolumn", "f"])
            .err()
            .unwrap()
            .contains("LABEL=COLUMN"));
        assert!(args(&["-o", "t.png", "--title", "T", "--panel", "a=b", "--from", "x", "f"])
            .err()
            .unwrap()
            .contains("not a number"));
        assert!(args(&["-o", "t.png", "--title", "T", "--panel", "a=b", "--bogus", "f"])
            .err()
            .unwrap()
            .contains("--bogus"));
        assert!(args(&["-o", "t.png", "--title", "T", "f"]).err().unwrap().contains("--panel"));
    }
}
