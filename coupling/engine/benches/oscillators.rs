//! Implicit coupling cost on the two oscillators (docs/performance.md, "Implicit coupling: two
//! oscillators"): iterations per window and wall time per window of each acceleration, as
//! ratios against plain iterations (no acceleration) measured in the same run.
//!
//! The case is configs/oscillators/precice-config.xml (serial-implicit, Δ = 0.01, cubic
//! waveforms, 4 generalized-α sub-steps per window, relative measures 1e-10) run for 10 s
//! (1000 windows) instead of 1 s, with the acceleration inserted into the scheme. Both
//! participants of `examples/oscillator.rs` run in threads of this process, in a temporary
//! folder. Five rounds, the methods interleaved in each; the figures are the medians.
//!
//! `cargo bench -p tidelink-coupling --bench oscillators`

#[path = "../examples/oscillator.rs"]
mod oscillator;

use oscillator::{Options, Params};
use std::path::Path;
use std::time::{Duration, Instant};
use tidelink_coupling::Backend;

const MAX_TIME: f64 = 10.0;
const ROUNDS: usize = 5;
/// One coupled run in `dir`: (mean iterations per window, wall time per window, largest error).
fn run(dir: &Path, acceleration: &str) -> (f64, Duration, f64) {
    let path = dir.join("precice-config.xml");
    std::fs::write(&path, oscillator::config_variant(0.01, 3, MAX_TIME, ".", acceleration))
        .expect("write the configuration");
    let start = Instant::now();
    let handles: Vec<_> = oscillator::PARTICIPANTS
        .iter()
        .map(|name| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut c = oscillator::open(Backend::Native, name, &path).unwrap_or_else(|e| panic!("{name}: {e}"));
                oscillator::simulate(c.as_mut(), &Params::tutorial(), &Options::default())
                    .unwrap_or_else(|e| panic!("{name}: {e}"))
            })
        })
        .collect();
    let outcomes: Vec<_> = handles.into_iter().map(|h| h.join().expect("participant thread")).collect();
    let took = start.elapsed();
    let windows = outcomes[0].iterations.len();
    let exact = oscillator::Exact::new(&Params::tutorial());
    let error = outcomes[0].max_error(&exact, 0).max(outcomes[1].max_error(&exact, 1));
    (outcomes[0].mean_iterations(), took / windows as u32, error)
}

fn main() {
    // Participants write their logs and rendezvous files into the working directory.
    let dir = tempfile::tempdir().expect("temporary folder");
    std::env::set_current_dir(dir.path()).expect("enter the temporary folder");
    let methods = oscillator::acceleration_variants();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); methods.len()];
    let mut iterations = vec![0.0; methods.len()];
    let mut errors = vec![0.0; methods.len()];
    for round in 1..=ROUNDS {
        for (i, (name, tag)) in methods.iter().enumerate() {
            let (it, per_window, error) = run(dir.path(), tag);
            let us = per_window.as_secs_f64() * 1e6;
            println!(
                "round {round}: {name:<24} {it:6.2} iterations/window {us:8.1} us/window  largest error {error:.3e}"
            );
            times[i].push(us);
            iterations[i] = it;
            errors[i] = error;
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let us: Vec<f64> = times.iter_mut().map(median).collect();
    println!(
        "medians of {ROUNDS} rounds, {} windows of 0.01 s, generalized-α, 4 sub-steps, cubic waveforms:",
        (MAX_TIME / 0.01).round()
    );
    println!(
        "  {:<24} {:>10} {:>10} {:>12} {:>10} {:>12}",
        "acceleration", "it/window", "ratio", "us/window", "ratio", "us/iteration"
    );
    for (i, (name, _)) in methods.iter().enumerate() {
        println!(
            "  {name:<24} {:>10.2} {:>10.2} {:>12.1} {:>10.2} {:>12.1}",
            iterations[i],
            iterations[i] / iterations[0],
            us[i],
            us[i] / us[0],
            us[i] / iterations[i]
        );
    }
    let errors: Vec<String> = errors.iter().map(|e| format!("{e:.3e}")).collect();
    println!("largest errors at the window ends (same order): {}", errors.join(", "));
}
