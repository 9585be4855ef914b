//! Implicit windows accepted only because `max-iterations` was reached: a throttled warning per
//! window and a summary at finalize, and `strict="true"` ending the run with libprecice's message
//! (docs/design/coupling-semantics.md §11.2).

mod common;

use common::*;

/// Serial-implicit A–B, Δ = 1, `windows` windows, the measure `measure` (attributes) on B's
/// DataTwo and max-iterations 2. B writes a new value in every iteration except in the windows
/// `same`, where its second iteration repeats the first (so the measure converges there).
/// Returns B's result: `Err` with the message of a configuration error from `advance`.
fn two_iterations(windows: u64, measure: &str, same: std::ops::RangeInclusive<u64>) -> Result<(), String> {
    let m = mesh("A");
    let s = Scheme::serial_implicit("A", "B")
        .window(1)
        .windows(windows)
        .child(format!(r#"<absolute-convergence-measure data="DataTwo" mesh="{m}" {measure}/>"#))
        .child(r#"<max-iterations value="2"/>"#);
    let case = pair_case(s);
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (_, b) = run2(
        move || {
            let mut a = open(&ca, "A");
            a.initialize().unwrap();
            while a.is_coupling_ongoing().unwrap() {
                a.requires_writing_checkpoint().unwrap();
                write(&mut a, "DataOne", 0.0);
                if a.advance(1.0).is_err() {
                    return Ok(()); // B stopped the run (strict)
                }
                a.requires_reading_checkpoint().unwrap();
            }
            a.finalize().unwrap();
            Ok(())
        },
        move || {
            let mut b = open(&cb, "B");
            b.initialize().unwrap();
            let (mut window, mut iteration, mut fresh) = (1u64, 1u32, 1.0);
            while b.is_coupling_ongoing().unwrap() {
                b.requires_writing_checkpoint().unwrap();
                let value = if same.contains(&window) { 1000.0 + window as f64 } else { fresh };
                fresh += 1.0;
                write(&mut b, "DataTwo", value);
                if let Err(e) = b.advance(1.0) {
                    return Err(message_of(e, ErrorKind::Config));
                }
                if b.requires_reading_checkpoint().unwrap() {
                    iteration += 1;
                    assert!(iteration <= 2, "max-iterations 2");
                } else {
                    (window, iteration) = (window + 1, 1);
                }
            }
            b.finalize().unwrap();
            Ok(())
        },
    );
    b
}

/// 120 windows, unconverged all but 50–60 (their second iteration repeats the first): 109
/// unconverged windows. Warned individually: the first 5 and the 100th unconverged one (window
/// 111 = 61 + 50, the 49 of windows 1–49 counted before); then one summary naming the ranges.
#[test]
fn unconverged_windows_are_warned_about_throttled_and_summarised() {
    let logged = captured_log(log::Level::Warn);
    two_iterations(120, r#"limit="1e-300""#, 50..=60).expect("not strict: the run goes on");
    let warned = logged.lock().unwrap().iter().filter(|w| w.contains("1e-300")).cloned().collect::<Vec<_>>();
    let per_window: Vec<&String> = warned.iter().filter(|w| w.starts_with("Time window ")).collect();
    let numbers: Vec<&str> = per_window.iter().map(|w| w.split(' ').nth(2).unwrap()).collect();
    assert_eq!(numbers, ["1", "2", "3", "4", "5", "111"], "{per_window:#?}");
    let first = per_window[0];
    for f in [
        "Time window 1 (ending at t = 1) of the <coupling-scheme:serial-implicit> at ",
        "did not converge within max-iterations (2 iterations): absolute measure of \"DataTwo\" on \"A-Mesh\": ",
        "|new - old| = 1.000e0 > limit 1e-300.",
        "strict=\"true\"",
    ] {
        assert!(first.contains(f), "{f:?} in: {first}");
    }
    assert!(per_window[4].contains("reported every 100th"), "{}", per_window[4]);
    assert!(per_window[5].contains("(100 unconverged windows so far.)"), "{}", per_window[5]);
    let summaries: Vec<&String> = warned.iter().filter(|w| w.contains("ended unconverged")).collect();
    assert_eq!(summaries.len(), 1, "one summary, from the measuring participant: {summaries:#?}");
    for f in [
        "109 of 120 time windows of the <coupling-scheme:serial-implicit> at ",
        "ended unconverged at max-iterations: windows 1\u{2013}49, 61\u{2013}120; ",
        "unmet measures: absolute measure of \"DataTwo\" on \"A-Mesh\" (limit 1e-300) in 109.",
    ] {
        assert!(summaries[0].contains(f), "{f:?} in: {}", summaries[0]);
    }
    assert_eq!(warned.len(), 7, "six window warnings and the summary: {warned:#?}");
}

/// `strict="true"`: the first unconverged window at max-iterations ends the run with
/// libprecice's message (BaseCouplingScheme::measureConvergence), then where and by how much.
#[test]
fn a_strict_measure_ends_the_run_with_libprecices_message() {
    let msg = two_iterations(3, r#"limit="1e-200" strict="true""#, 0..=0).expect_err("strict stops the run");
    let precice = "The strict convergence measure for data \"DataTwo\" did not converge within the maximum allowed \
                   iterations, which terminates the simulation. To avoid this forced termination do not mark the \
                   convergence measure as strict.";
    assert!(msg.starts_with(precice), "{msg}");
    for f in [
        "Mesh \"A-Mesh\", time window 1 ending at t = 1, 2 iterations, <coupling-scheme:serial-implicit> at ",
        "> limit 1e-200",
    ] {
        assert!(msg.contains(f), "{f:?} in: {msg}");
    }
}
