//! Mapping differential tests: every case of `mapping/cases.rs` (the same meshes, elements,
//! data and `<mapping:*>` tags) run on the native engine and on libprecice 3.4, each
//! participant in its own process; the values B reads (A's smooth field mapped consistently)
//! and the forces A reads (B's mapped conservatively; for nearest-neighbor-gradient, B's
//! linear vector field mapped consistently, both with their gradients) must agree within each case's
//! tolerance (`Case::differential_tol`, relative to the largest value: 1e-12 for the
//! geometric methods, which do the same arithmetic in another order; 1e-7 for the RBF
//! methods, whose linear solves differ by the condition number times round-off). A case
//! libprecice cannot run (the iterative RBF solver needs its PETSc build) is compared with the
//! case named by `Case::precice_reference` (the direct solve of the same system).
//!
//! Only compiled with the feature: `cargo test -p tidelink-coupling --features precice
//! --test mapping_differential` (needs libprecice 3.4 via pkg-config; docs/precice-backend.md).
//! `--nocapture` prints the largest difference of every case (and the values where they
//! differ); `TL_MAP_ONLY=<case>` runs one case, `TL_MAP_FIELD=linear` maps the linear field
//! instead of the smooth one, `TL_MAP_KEEP=1` keeps the case folders (logs, preCICE's output).

#![cfg(feature = "precice")]

#[path = "mapping/cases.rs"]
mod cases;
mod common;
#[path = "mapping/gradient.rs"]
mod gradient;

use cases::{cases, play_a, play_b, xml, LINEAR, SMOOTH};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tidelink_coupling::{self as coupling, Backend};

/// Environment of a participant process: case, participant, backend, config, output file.
const ENV: [&str; 5] = ["TL_MAP_CASE", "TL_MAP_PARTICIPANT", "TL_MAP_BACKEND", "TL_MAP_CONFIG", "TL_MAP_OUT"];

/// How long one run of a case (both processes) may take.
const WATCHDOG: Duration = Duration::from_secs(120);

/// The participant process: plays its role of the case named by [`ENV`], writes the values
/// it read (one per line, exactly) or the error.
#[test]
#[ignore = "a participant process of the mapping differential tests; they start it themselves"]
fn mapping_participant_process() {
    let [Some(name), Some(me), Some(backend), Some(config), Some(out)] = ENV.map(|k| std::env::var(k).ok()) else {
        println!("nothing to do: started by the mapping differential tests only");
        return;
    };
    let backend: Backend = backend.parse().unwrap_or_else(|e| panic!("{e}"));
    let opened = coupling::open(backend, &me, Path::new(&config));
    if name.starts_with("gradient_misuse") {
        let lines = match opened {
            Ok(mut p) => gradient::misuse(p.as_mut()),
            Err(e) => vec![format!("FAILED {}", e.message.replace('\n', " "))],
        };
        std::fs::write(out, lines.iter().map(|l| format!("{}\n", l.replace('\n', " "))).collect::<String>())
            .expect("write the answers");
        return;
    }
    if name == "gradient_in_time" {
        let played = opened.and_then(|mut p| match me.as_str() {
            "A" => gradient::play_a(p.as_mut()),
            _ => gradient::play_b(p.as_mut()),
        });
        let text = match played {
            Ok(values) => values.iter().map(|v| format!("{v:?}\n")).collect(),
            Err(e) => format!("FAILED {}\n", e.message.replace('\n', " ")),
        };
        std::fs::write(out, text).expect("write the values");
        return;
    }
    let case = cases().into_iter().find(|c| c.name == name).expect("known case");
    let played = opened.and_then(|mut p| match me.as_str() {
        "A" if std::env::var("TL_MAP_FIELD").is_ok_and(|f| f == "linear") => play_a(p.as_mut(), &case, LINEAR),
        "A" => play_a(p.as_mut(), &case, SMOOTH),
        _ => play_b(p.as_mut(), &case),
    });
    let text = match played {
        Ok(values) => values.iter().map(|v| format!("{v:?}\n")).collect(),
        Err(e) => format!("FAILED {}\n", e.message.replace('\n', " ")),
    };
    std::fs::write(out, text).expect("write the values");
}

/// Runs case `name` on `backend`; what A and B read, or why they failed.
fn run_on(name: &str, backend: &str) -> Result<[Vec<f64>; 2], String> {
    let xml = match name {
        "gradient_in_time" => gradient::XML.to_string(),
        _ => xml(&cases().into_iter().find(|c| c.name == name).expect("known case")),
    };
    let mut read = Vec::new();
    for text in run_roles(name, backend, &xml, &["A", "B"])? {
        if let Some(why) = text.strip_prefix("FAILED ") {
            return Err(format!("{name} on {backend}: {}", why.trim()));
        }
        read.push(text.lines().map(|l| l.parse::<f64>().expect("a number")).collect::<Vec<_>>());
    }
    let b = read.pop().expect("two");
    Ok([read.pop().expect("two"), b])
}

/// Runs the participant processes `roles` of scenario `name` with configuration `xml` on
/// `backend`; the text each wrote.
fn run_roles(name: &str, backend: &str, xml: &str, roles: &[&str]) -> Result<Vec<String>, String> {
    let tc = common::temp_case(xml);
    let exe = std::env::current_exe().expect("own test binary");
    let mut children = Vec::new();
    for &me in roles {
        let out = tc.path().join(format!("{me}.values"));
        let log = std::fs::File::create(tc.path().join(format!("{me}.log"))).expect("log file");
        let values = [name, me, backend, &tc.config.display().to_string(), &out.display().to_string()];
        let mut c = Command::new(&exe);
        c.args(["mapping_participant_process", "--exact", "--ignored", "--nocapture", "--test-threads=1"]);
        c.envs(ENV.iter().zip(values)).current_dir(tc.path()).stdin(Stdio::null());
        c.stdout(log.try_clone().expect("log file")).stderr(log);
        children.push((c.spawn().expect("start a participant process"), out));
    }
    let deadline = Instant::now() + WATCHDOG;
    let mut read = Vec::new();
    for (child, out) in &mut children {
        loop {
            if child.try_wait().expect("wait for a participant").is_some() {
                break;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{name} on {backend}: a participant hung"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        read.push(std::fs::read_to_string(&*out).map_err(|e| format!("{name} on {backend}: no values: {e}"))?);
    }
    if std::env::var_os("TL_MAP_KEEP").is_some() {
        println!("{name} on {backend}: kept in {}", tc.path().display());
        std::mem::forget(tc);
    }
    Ok(read)
}

/// The largest |a − b| relative to the largest |a|.
fn relative_difference(a: &[f64], b: &[f64]) -> f64 {
    let scale = a.iter().fold(0.0f64, |m, x| m.max(x.abs())).max(f64::MIN_POSITIVE);
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max) / scale
}

#[test]
fn every_mapping_agrees_with_libprecice() {
    let mut failures = Vec::new();
    let only = std::env::var("TL_MAP_ONLY").ok();
    for case in cases().into_iter().filter(|c| only.as_ref().is_none_or(|o| o == c.name)) {
        let on_precice = case.precice_reference.unwrap_or(case.name);
        let (native, real) = match (run_on(case.name, "native"), run_on(on_precice, "precice")) {
            (Ok(n), Ok(r)) => (n, r),
            (n, r) => {
                failures.extend([n.err(), r.err()].into_iter().flatten());
                continue;
            }
        };
        for (k, what) in ["F on A (write mapping)", "T on B (read mapping)"].iter().enumerate() {
            if native[k].len() != real[k].len() {
                failures.push(format!(
                    "{}: {what}: {} values native, {} on preCICE",
                    case.name,
                    native[k].len(),
                    real[k].len()
                ));
                continue;
            }
            let d = relative_difference(&real[k], &native[k]);
            println!(
                "{:<34} {what:<22} relative difference {d:.2e} (tolerance {:.0e})",
                case.name, case.differential_tol
            );
            if d > case.differential_tol {
                println!("  native  {:?}\n  preCICE {:?}", &native[k], &real[k]);
                failures
                    .push(format!("{}: {what}: relative difference {d:e} > {:e}", case.name, case.differential_tol));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Nearest-neighbor-gradient in time (`mapping/gradient.rs`): initial data with gradients,
/// sub-steps, and constant relaxation of values and gradients in a serial-implicit window;
/// what A reads must agree to round-off (O(1) values: 1e-12).
#[test]
fn gradients_in_time_agree_with_libprecice() {
    let (native, real) = match (run_on("gradient_in_time", "native"), run_on("gradient_in_time", "precice")) {
        (Ok(n), Ok(r)) => (n, r),
        (n, r) => panic!("{:?}", [n.err(), r.err()]),
    };
    println!(
        "gradient_in_time: A read (iteration, t, T0, T1) per step\n  native  {:?}\n  preCICE {:?}",
        native[0], real[0]
    );
    assert_eq!(native[0].len(), real[0].len());
    let worst = native[0].iter().zip(&real[0]).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(worst <= 1e-12, "largest difference {worst:e}");
}

/// The gradient calls' answers and misuse messages (`gradient::misuse`, B alone before
/// `initialize`), native against libprecice, line by line; with the configuration as it is
/// and without `experimental="true"`.
#[test]
fn gradient_misuse_answers_agree_with_libprecice() {
    let plain = gradient::XML.replace(r#" experimental="true""#, "");
    let mut differ = Vec::new();
    for (name, xml) in [("gradient_misuse", gradient::XML.to_string()), ("gradient_misuse_plain", plain)] {
        let native = run_roles(name, "native", &xml, &["B"]).expect("native run");
        let real = run_roles(name, "precice", &xml, &["B"]).expect("preCICE run");
        for (n, r) in native[0].lines().zip(real[0].lines()) {
            println!("{name}\n  native  {n}\n  preCICE {r}");
            if n != r {
                differ.push(format!("{name}:\n  native  {n}\n  preCICE {r}"));
            }
        }
        assert_eq!(native[0].lines().count(), real[0].lines().count(), "{name}");
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
