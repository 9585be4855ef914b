//! `tidelink-mbs-fmu <model.yaml | participant.yaml --precice-config XML> [-o model.fmu]
//! [--library libtidelink_mbs_fmu.so]`: packs an FMI 3.0 co-simulation FMU of an MBS model file,
//! or of an MBS participant file with its preCICE configuration (added mass included; docs/fmi.md).
//! The library defaults to the one built next to this program. `tidelink fmu` calls this.

use std::path::PathBuf;
use std::process::ExitCode;
use tidelink_mbs_fmu::setup::Source;

const USAGE: &str = "usage: tidelink-mbs-fmu <model.yaml | participant.yaml --precice-config XML> [-o model.fmu] \
                     [--library libtidelink_mbs_fmu.so]\n       \
                     tidelink-mbs-fmu trajectory <model.yaml> <step> <steps> [name=value ...]";

fn main() -> ExitCode {
    let all: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if all.first().and_then(|a| a.to_str()) == Some("trajectory") {
        let rest: Vec<String> = all[1..].iter().map(|a| a.to_string_lossy().into_owned()).collect();
        return match tidelink_mbs_fmu::trajectory::run(&rest) {
            Ok(csv) => {
                print!("{csv}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}\n{USAGE}");
                ExitCode::FAILURE
            }
        };
    }
    let mut args = all.into_iter();
    let (mut model, mut out, mut library, mut config) = (None, PathBuf::from("model.fmu"), None, None);
    while let Some(a) = args.next() {
        match a.to_str() {
            Some("-o" | "--output") => out = args.next().map(PathBuf::from).unwrap_or(out),
            Some("--library") => library = args.next().map(PathBuf::from),
            Some("--precice-config") => config = args.next().map(PathBuf::from),
            Some("-h" | "--help") => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ if model.is_none() => model = Some(PathBuf::from(a)),
            _ => {
                eprintln!("error: unexpected argument {a:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(model) = model else {
        eprintln!("error: no model file given\n{USAGE}");
        return ExitCode::from(2);
    };
    let library = library.unwrap_or_else(|| {
        let exe = std::env::current_exe().unwrap_or_default();
        exe.with_file_name("libtidelink_mbs_fmu.so")
    });
    let source = match config {
        Some(config) => Source::Participant { participant: model.clone(), config },
        None => match tidelink_mbs_fmu::setup::looks_like_participant(&model) {
            true => {
                eprintln!(
                    "error: {} is a participant file: give its preCICE configuration with --precice-config \
                     (or run `tidelink fmu` on the case)\n{USAGE}",
                    model.display()
                );
                return ExitCode::from(2);
            }
            false => Source::Model(model.clone()),
        },
    };
    match tidelink_mbs_fmu::pack::pack(&source, &library, &out) {
        Ok(p) => {
            println!("{}: {} variables, from {}", p.fmu.display(), p.variables, model.display());
            for n in &p.notes {
                println!("note: {n}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
