//! The OSWEC flap of `tidelink run configs/oswec/wecsim_irregular` against WEC-Sim's stored
//! irregular, directionally spread run: prints the figures over 100–200 s (flap pitch RMS
//! difference relative to WEC-Sim's standard deviation, standard deviations, largest pitch, mean
//! PTO power) and writes `oswec_irregular.png` (pitch, difference, PTO power; titled, labelled,
//! with units) and `oswec_irregular.csv` (the series) to `<out>`.
//!
//! `cargo run --example oswec_irregular -- <case folder> <WEC-Sim reference CSV> <out folder>`
//! (docs/oswec.md).

mod compare;

use std::path::PathBuf;
use std::process::ExitCode;
use tidelink_mbs::io::output;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 3 {
        eprintln!("usage: oswec_irregular <case folder> <WEC-Sim reference CSV> <out folder>");
        return ExitCode::from(2);
    }
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oswec_irregular: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let flap_csv = PathBuf::from(&args[0]).join("solid/output/flap.csv");
    let flap = output::read(&flap_csv)
        .map_err(|e| format!("{}: {e} (run `tidelink run {}` first)", flap_csv.display(), args[0]))?;
    let c = compare::compare(&flap, &PathBuf::from(&args[1]))?;
    println!("{}", compare::report(&compare::figures(&c, compare::WINDOW), compare::WINDOW));
    let png = compare::plot(&c, &PathBuf::from(&args[2]), "oswec_irregular", TITLE)?;
    println!("wrote {}", png.display());
    Ok(())
}

/// The chart's title.
const TITLE: &str = "OSWEC in WEC-Sim's irregular spread sea (PM Hs 2.5 m, Tp 8 s), WEC-Sim's excitation replayed";
