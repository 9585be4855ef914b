//! The tutorial-style configurations of `configs/tutorials/` on the real library: libprecice 3.4
//! constructs every participant of every file (it parses and validates the whole configuration,
//! the RBF mappings, watch-points and exports the native engine does not run included).
//!
//! Only compiled with the feature: `cargo test -p tidelink-coupling --features precice
//! --test tutorials_precice` (needs libprecice 3.4 via pkg-config; docs/precice-backend.md).
//! preCICE keeps process-wide state, so each participant is constructed in its own process:
//! this test binary started again on the ignored test [`participant_process`], in a temporary
//! folder (libprecice may write its profiling files there).

#![cfg(feature = "precice")]

use std::path::{Path, PathBuf};
use std::process::Command;
use tidelink_coupling::{self as coupling, Backend};
use tidelink_precice_config as config;

const TUTORIALS: [&str; 5] = [
    "oscillator",
    "partitioned-heat-conduction",
    "perpendicular-flap",
    "multiple-perpendicular-flaps",
    "flow-over-heated-plate",
];

/// The configuration and the participant a [`participant_process`] constructs.
const ENV: [&str; 2] = ["TL_TUTORIAL_CONFIG", "TL_TUTORIAL_PARTICIPANT"];

fn config_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/tutorials").join(name).join("precice-config.xml")
}

#[test]
#[ignore = "a participant process of the tutorials test; it starts it itself"]
fn participant_process() {
    let [Some(config), Some(me)] = ENV.map(|k| std::env::var(k).ok()) else {
        println!("nothing to do: started by the tutorials test only");
        return;
    };
    match coupling::open(Backend::Precice, &me, Path::new(&config)) {
        Ok(_) => println!("CONSTRUCTED {me}"),
        Err(e) => panic!("libprecice refused participant {me} of {config}: {}", e.message),
    }
}

#[test]
fn libprecice_constructs_every_participant_of_every_tutorial() {
    let exe = std::env::current_exe().expect("own test binary");
    let mut failed = Vec::new();
    for name in TUTORIALS {
        let xml = config_path(name).canonicalize().expect("the tutorial configuration");
        let cfg = config::load(&xml).unwrap_or_else(|d| panic!("{d}")).0;
        for p in &cfg.participants {
            let dir = tempfile::tempdir().expect("temporary folder");
            let out = Command::new(&exe)
                .args(["participant_process", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
                .envs(ENV.iter().zip([xml.display().to_string(), p.name.clone()]))
                .current_dir(dir.path())
                .output()
                .expect("start a participant process");
            let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            if !out.status.success() || !text.contains(&format!("CONSTRUCTED {}", p.name)) {
                let tail: Vec<&str> = text.lines().rev().take(12).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                failed.push(format!("{name}/{} ({}):\n{}", p.name, out.status, tail.join("\n")));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}
