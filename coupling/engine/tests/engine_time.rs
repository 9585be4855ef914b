//! Time bookkeeping and sub-cycling through coupled runs (docs/design/coupling-semantics.md §3.1, §3.4, §3.3):
//! scenarios A8, A9, A10 and A11.

mod common;

use common::*;

/// A8: parallel-explicit, Δ = 0.75, max-time 1 → windows of 0.75 and 0.25.
#[test]
fn a8_non_fitting_last_window() {
    let case = pair_case(Scheme::parallel("A", "B").window(0.75).max_time(1));
    let side = |config: std::path::PathBuf, me: &'static str| {
        move || {
            let mut p = open(&config, me);
            p.initialize().unwrap();
            close(format!("{me}: max dt after initialize"), p.get_max_time_step_size().unwrap(), 0.75);
            assert!(!p.is_time_window_complete().unwrap(), "{me}: no window complete after initialize");
            p.advance(0.75).unwrap();
            assert!(p.is_time_window_complete().unwrap(), "{me}: window 1 complete");
            assert!(p.is_coupling_ongoing().unwrap(), "{me}: ongoing after 0.75");
            close(format!("{me}: max dt in the last window"), p.get_max_time_step_size().unwrap(), 0.25);
            p.advance(0.25).unwrap();
            assert!(p.is_time_window_complete().unwrap(), "{me}: window 2 complete");
            assert!(!p.is_coupling_ongoing().unwrap(), "{me}: finished at max-time");
            assert_eq!(p.get_max_time_step_size().unwrap(), 0.0);
            p.finalize().unwrap();
        }
    };
    run2(side(cfg(&case), "A"), side(cfg(&case), "B"));
}

/// A9: Δ = 0.01, max-time 5, both always advance getMaxTimeStepSize() → 500 windows.
#[test]
fn a9_five_hundred_windows_of_a_hundredth() {
    let case = pair_case(Scheme::serial("A", "B").window(0.01).max_time(5));
    let side = |config: std::path::PathBuf, me: &'static str, rd: &'static str, wd: &'static str| {
        move || {
            let mut p = open(&config, me);
            p.initialize().unwrap();
            drive(&mut p, f64::INFINITY, 0.01, rd, wd, |t| t).len()
        }
    };
    let (a, b) = run2(side(cfg(&case), "A", "DataTwo", "DataOne"), side(cfg(&case), "B", "DataOne", "DataTwo"));
    assert_eq!((a, b), (500, 500), "windows run by A and B");
}

#[derive(Clone, Copy)]
enum Rule {
    /// `dt = min(Δ/N, getMaxTimeStepSize())`.
    Simple,
    /// Take the rest of the window when it differs from Δ/N by less than 1e-13.
    Snap,
}

/// A9 sub-cycling: parallel-explicit, Δ = 0.2, max-time 1; A takes steps of Δ/N.
/// Returns A's number of steps per window.
fn steps_per_window(n: usize, rule: Rule) -> Vec<usize> {
    let case = pair_case(Scheme::parallel("A", "B").window(0.2).max_time(1));
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (counts, _) = run2(
        move || {
            let mut a = open(&ca, "A");
            a.initialize().unwrap();
            let solver_dt = 0.2 / n as f64;
            let mut counts = vec![0usize];
            while a.is_coupling_ongoing().unwrap() {
                let max = a.get_max_time_step_size().unwrap();
                let dt = match rule {
                    Rule::Snap if (max - solver_dt).abs() < 1e-13 => max,
                    _ => solver_dt.min(max),
                };
                a.advance(dt).unwrap();
                *counts.last_mut().expect("a window") += 1;
                if a.is_time_window_complete().unwrap() && a.is_coupling_ongoing().unwrap() {
                    // The next window starts at an exact multiple of Δ: it is a full Δ long.
                    let max = a.get_max_time_step_size().unwrap();
                    assert!((max - 0.2).abs() <= 1e-14, "window {} has size {max}", counts.len() + 1);
                    counts.push(0);
                }
            }
            a.finalize().unwrap();
            counts
        },
        move || {
            let mut b = open(&cb, "B");
            b.initialize().unwrap();
            let windows = drive(&mut b, f64::INFINITY, 0.2, "DataOne", "DataTwo", |t| t).len();
            assert_eq!(windows, 5, "B takes one step per window");
            vec![]
        },
    );
    assert_eq!(counts.len(), 5, "A's windows: {counts:?}");
    counts
}

#[test]
fn a9_64_and_640_substeps_fit_exactly() {
    for n in [64, 640] {
        assert_eq!(steps_per_window(n, Rule::Simple), vec![n; 5], "N = {n}");
    }
}

/// N = 6400. The simple rule can leave a 6401st tiny step in one window; that is
/// what a *global* naive time sum does (window 2 of 0.2 with steps of 0.2/6400 then ends
/// 1.5e-14 short). preCICE 3.4.1 and coupling-semantics.md §3.1 sum the progress inside each window with
/// Kahan and restart every window at an exact multiple of Δ, so both rules give exactly
/// 6400 steps per window; an engine without that bookkeeping fails here.
#[test]
fn a9_6400_substeps_fit_with_both_step_rules() {
    assert_eq!(steps_per_window(6400, Rule::Simple), vec![6400; 5], "simple rule");
    assert_eq!(steps_per_window(6400, Rule::Snap), vec![6400; 5], "1e-13 rule");
}

/// A10: Δ = 2, solver dt 4/7 → limits 2, 10/7, 6/7, 2/7; a 4th step of 4/7 is refused
/// and the participant stays usable.
#[test]
fn a10_step_limiting() {
    let case = pair_case(Scheme::parallel("A", "B").window(2).windows(1));
    let (ca, cb) = (cfg(&case), cfg(&case));
    run2(
        move || {
            let mut a = open(&ca, "A");
            a.initialize().unwrap();
            for (i, want) in [2.0, 10.0 / 7.0, 6.0 / 7.0].into_iter().enumerate() {
                let max = a.get_max_time_step_size().unwrap();
                assert!((max - want).abs() <= 1e-14, "max dt before step {}: {max} vs {want}", i + 1);
                a.advance(4.0 / 7.0).unwrap();
            }
            let max = a.get_max_time_step_size().unwrap();
            assert!((max - 2.0 / 7.0).abs() <= 1e-14, "max dt before step 4: {max}");
            fails(a.advance(4.0 / 7.0), ErrorKind::Misuse, &["exceeds the maximum allowed time step size"]);
            assert!(!a.is_time_window_complete().unwrap());
            a.advance(max).unwrap();
            assert!(a.is_time_window_complete().unwrap());
            assert!(!a.is_coupling_ongoing().unwrap());
            a.finalize().unwrap();
        },
        move || {
            let mut b = open(&cb, "B");
            b.initialize().unwrap();
            b.advance(2.0).unwrap();
            b.finalize().unwrap();
        },
    );
}

fn first_participant_case(end: Scheme) -> TempCase {
    pair_case(end.first_participant())
}

/// A11: method="first-participant", max-time 6; A's steps 1, 2, 3 define the windows.
#[test]
fn a11_first_participant_defines_the_windows() {
    let case = first_participant_case(Scheme::serial("A", "B").max_time(6));
    let (ca, cb) = (cfg(&case), cfg(&case));
    run2(
        move || {
            let mut a = open(&ca, "A");
            a.initialize().unwrap();
            for (k, (dt, max)) in [(1.0, 6.0), (2.0, 5.0), (3.0, 3.0)].into_iter().enumerate() {
                assert!(a.is_coupling_ongoing().unwrap());
                close(format!("A's max dt in window {}", k + 1), a.get_max_time_step_size().unwrap(), max);
                close(
                    format!("A reads in window {}", k + 1),
                    read(&mut a, "DataTwo", dt),
                    if k == 0 { 0.0 } else { 2.5 },
                );
                write(&mut a, "DataOne", 2.5);
                a.advance(dt).unwrap();
                assert!(a.is_time_window_complete().unwrap(), "every advance of A completes a window");
            }
            assert!(!a.is_coupling_ongoing().unwrap());
            a.finalize().unwrap();
        },
        move || {
            let mut b = open(&cb, "B");
            b.initialize().unwrap();
            for (k, want) in [1.0, 2.0, 3.0].into_iter().enumerate() {
                assert!(b.is_coupling_ongoing().unwrap());
                let max = b.get_max_time_step_size().unwrap();
                close(format!("B's max dt in window {}", k + 1), max, want);
                close(format!("B reads in window {}", k + 1), read(&mut b, "DataOne", max), 2.5);
                write(&mut b, "DataTwo", 2.5);
                b.advance(max).unwrap();
            }
            assert!(!b.is_coupling_ongoing().unwrap());
            b.finalize().unwrap();
        },
    );
}

/// A11, error part: without max-time, advancing by getMaxTimeStepSize() is refused;
/// B, waiting in initialize() for A's first window, then fails too.
#[test]
fn a11_first_participant_cannot_advance_by_the_infinite_max() {
    let case = first_participant_case(Scheme::serial("A", "B").windows(1000));
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (a_err, b_err) = run2(
        move || {
            let mut a = open(&ca, "A");
            a.initialize().unwrap();
            let max = a.get_max_time_step_size().unwrap();
            a.advance(max).err().map(|e| message_of(e, ErrorKind::Misuse))
        },
        move || {
            let mut b = open(&cb, "B");
            b.initialize().err().map(|e| message_of(e, ErrorKind::Partner))
        },
    );
    let a_err = a_err.expect("A's advance(getMaxTimeStepSize()) must fail");
    assert!(a_err.contains(r#"method="first-participant""#), "{a_err}");
    let b_err = b_err.expect("B's initialize must fail once A is gone");
    assert!(b_err.contains("\"A\""), "B's error should name A: {b_err}");
}
