//! The two oscillators (docs/oscillators.md) on the native engine and on libprecice 3.4 with the
//! same XML (configs/oscillators/precice-config.xml with another window, degree or
//! acceleration): the same iterations in every window, and the same displacements at every
//! window end to 1e-12.
//!
//! Only compiled with the feature: `cargo test -p tidelink-coupling --features precice
//! --test oscillators_differential` (needs libprecice 3.4 via pkg-config; docs/precice-backend.md).
//! preCICE keeps process-wide state, so each participant runs in its own process: this test
//! binary started again on the ignored test [`participant_process`].

#![cfg(feature = "precice")]

#[path = "../examples/oscillator.rs"]
mod oscillator;

use oscillator::{Integrator, Options, Params, PARTICIPANTS};
use std::path::Path;
use std::process::{Command, Stdio};
use tidelink_coupling::Backend;

/// Environment of a participant process: participant, backend, config, integrator, output.
const ENV: [&str; 5] = ["TL_OSC_PARTICIPANT", "TL_OSC_BACKEND", "TL_OSC_CONFIG", "TL_OSC_INTEGRATOR", "TL_OSC_OUT"];

/// The participant process: runs one mass and writes its iterations and trajectory.
#[test]
#[ignore = "a participant process of the oscillator differential tests; they start it themselves"]
fn participant_process() {
    let [Some(me), Some(backend), Some(config), Some(integrator), Some(out)] = ENV.map(|k| std::env::var(k).ok())
    else {
        println!("nothing to do: started by the differential tests only");
        return;
    };
    let backend: Backend = backend.parse().unwrap_or_else(|e| panic!("{e}"));
    let options = Options { integrator: Integrator::parse(&integrator).expect("integrator"), substeps: 4 };
    let mut c = oscillator::open(backend, &me, Path::new(&config)).unwrap_or_else(|e| panic!("{me}: {e}"));
    let o = oscillator::simulate(c.as_mut(), &Params::tutorial(), &options).unwrap_or_else(|e| panic!("{me}: {e}"));
    let mut text = format!("{:?}\n", o.iterations);
    for (t, s) in &o.trajectory {
        text += &format!("{t:?} {:?}\n", s.u);
    }
    std::fs::write(out, text).expect("write the outcome");
}

/// Both masses on `backend`, each in its own process: per participant, the outcome file's text.
fn run_on(dir: &Path, backend: &str, integrator: &str) -> Vec<String> {
    let exe = std::env::current_exe().expect("own test binary");
    let config = dir.join("precice-config.xml");
    let children: Vec<_> = PARTICIPANTS
        .iter()
        .map(|me| {
            let out = dir.join(format!("{me}-{backend}.out"));
            let log = std::fs::File::create(dir.join(format!("{me}-{backend}.log"))).expect("log file");
            let values = [me, backend, &config.display().to_string(), integrator, &out.display().to_string()]
                .map(|s| s.to_string());
            let child = Command::new(&exe)
                .args(["participant_process", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
                .envs(ENV.iter().zip(values))
                .current_dir(dir)
                .stdin(Stdio::null())
                .stdout(log.try_clone().expect("log file"))
                .stderr(log)
                .spawn()
                .expect("start a participant process");
            (me, child, out)
        })
        .collect();
    children
        .into_iter()
        .map(|(me, mut child, out)| {
            let status = child.wait().expect("wait for a participant");
            let log = std::fs::read_to_string(dir.join(format!("{me}-{backend}.log"))).unwrap_or_default();
            assert!(status.success(), "{me} on {backend} failed:\n{log}");
            if backend == "precice" {
                assert!(log.contains("This is preCICE version 3.4"), "{me}: no libprecice 3.4 banner in {log}");
            }
            std::fs::read_to_string(out).expect("outcome file")
        })
        .collect()
}

/// Runs the case on both backends and compares iterations (equal) and displacements (1e-12).
fn differential(window: f64, degree: u32, integrator: &str, acceleration: &str) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let xml = oscillator::config_variant(window, degree, 1.0, &dir.path().display().to_string(), acceleration);
    std::fs::write(dir.path().join("precice-config.xml"), xml).expect("write the configuration");
    let native = run_on(dir.path(), "native", integrator);
    let real = run_on(dir.path(), "precice", integrator);
    let what = format!("Δ = {window}, degree {degree}, {integrator}, acceleration {acceleration:?}");
    let mut worst: f64 = 0.0;
    for ((me, n), r) in PARTICIPANTS.iter().zip(&native).zip(&real) {
        let (n_its, r_its) = (n.lines().next(), r.lines().next());
        assert_eq!(n_its, r_its, "{what}: {me}'s iterations per window (native, then preCICE)");
        assert_eq!(n.lines().count(), r.lines().count(), "{what}: {me}'s window ends");
        for (a, b) in n.lines().skip(1).zip(r.lines().skip(1)) {
            let parse = |l: &str| -> Vec<f64> { l.split(' ').map(|x| x.parse().expect("number")).collect() };
            let (a, b) = (parse(a), parse(b));
            assert!((a[0] - b[0]).abs() < 1e-12, "{what}: {me}'s window ends at {} and {}", a[0], b[0]);
            worst = worst.max((a[1] - b[1]).abs());
        }
    }
    println!("{what}: same iterations, max |native − preCICE| displacement {worst:e}");
    assert!(worst <= 1e-12, "{what}: displacements differ by {worst:e}");
}

#[test]
fn generalized_alpha_every_degree() {
    for degree in 1..=3 {
        differential(0.05, degree, "generalized-alpha", "");
    }
}

#[test]
fn runge_kutta_4_degree_two() {
    differential(0.05, 2, "runge-kutta-4", "");
}

#[test]
fn shipped_case_with_constant_relaxation() {
    differential(
        0.01,
        3,
        "generalized-alpha",
        r#"<acceleration:constant><relaxation value="0.5"/></acceleration:constant>"#,
    );
}
