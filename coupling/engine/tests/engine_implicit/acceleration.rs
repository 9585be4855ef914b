//! Accelerated implicit coupling: constant relaxation (A12), Aitken (A13), IQN-ILS (A16), and
//! the acceleration's time grid over long runs.

use super::*;

/// A12's scheme: two windows of three forced iterations, constant relaxation ω = 0.5,
/// DataOne from A to B.
fn a12_scheme() -> Scheme {
    Scheme::serial_implicit("A", "B")
        .window(1)
        .windows(2)
        .child(r#"<max-iterations value="3"/>"#)
        .child(r#"<acceleration:constant><relaxation value="0.5"/></acceleration:constant>"#)
        .ex("DataOne", "A", "B")
}

/// A12: constant relaxation ω = 0.5, 3 forced iterations; B always writes 1.
#[test]
fn a12_constant_relaxation() {
    let scheme = a12_scheme().ex("DataTwo", "B", "A");
    let mut halfway = Vec::new();
    let (a, _, _) = pair(
        scheme,
        move |p, s| {
            halfway.push(read(p, "DataTwo", 0.5));
            if s.window == 0 && s.iteration == 2 {
                close("A at rel 0.5 in iteration 2", halfway[1], 0.25);
            }
            0.0
        },
        |_, _| 1.0,
    );
    same("A reads at the window end", &reads(&a), &[0.0, 0.5, 0.75, 1.0, 1.0, 1.0]);
}

/// A12, initial-data variant: the window-start sample (B's initial 0.3) is never relaxed.
#[test]
fn a12_initial_data_is_never_relaxed() {
    let scheme = a12_scheme().ex_with("DataTwo", "B", "A", r#"initialize="true""#);
    let (a, _, _) = pair(
        scheme,
        |p, s| {
            if s.window == 0 {
                close(format!("A at rel 0 in iteration {}", s.iteration), read(p, "DataTwo", 0.0), 0.3);
            }
            0.0
        },
        |_, _| 1.0,
    );
    // Window end: 0.3 (start), then 0.5·1 + 0.5·0.3, then 0.5·1 + 0.5·0.65.
    same("A reads at the window end", &reads(&a[..3]), &[0.3, 0.65, 0.825]);
}

/// A13: Aitken with initial relaxation 0.1 on A → B (first = B, second = A), A writes 1.
#[test]
fn a13_aitken() {
    let scheme = Scheme::serial_implicit("B", "A")
        .window(1)
        .windows(2)
        .child(r#"<max-iterations value="5"/>"#)
        .child(format!(r#"<relative-convergence-measure data="DataOne" mesh="{}" limit="1e-5"/>"#, mesh("B")))
        .child(format!(
            r#"<acceleration:aitken><initial-relaxation value="0.1"/><data name="DataOne" mesh="{}"/></acceleration:aitken>"#,
            mesh("B")
        ))
        .ex_with("DataOne", "A", "B", r#"substeps="false""#)
        .ex("DataTwo", "B", "A");
    let (_, b, case) = pair(scheme, |_, _| 1.0, |_, _| 0.0);
    // B reads A's datum at the window end: 0 (start), 0.1 (ω₁ = 0.1), 1.0 (ω₂ = 1.0), converged.
    same("B reads in window 1", &reads(&b[..3]), &[0.0, 0.1, 1.0]);
    assert_eq!(iterations_per_window(&b)[0], 3, "window 1 converges in iteration 3");
    let log = std::fs::read_to_string(case.path().join("precice-A-iterations.log")).unwrap();
    assert!(
        log.starts_with("  TimeWindow  TotalIterations  Iterations  Convergence\n     1       3       3       1"),
        "{log}"
    );
}

/// A16: IQN-ILS on B's X = 0.5·y + 1, where y is what A read: the secant step lands on the
/// fixed point 2 in iteration 3, and window 2 converges at once.
#[test]
fn a16_iqn_ils_secant_step() {
    let m = mesh("A");
    let scheme = Scheme::serial_implicit("A", "B")
        .window(1)
        .windows(2)
        .child(r#"<max-iterations value="10"/>"#)
        .child(format!(r#"<relative-convergence-measure data="DataTwo" mesh="{m}" limit="1e-6"/>"#))
        .child(format!(r#"<acceleration:IQN-ILS><data name="DataTwo" mesh="{m}"/></acceleration:IQN-ILS>"#))
        .ex("DataOne", "A", "B")
        .ex("DataTwo", "B", "A");
    let (a, b, case) = pair(scheme, |_, s| s.read, |_, s| 0.5 * s.read + 1.0);
    same("A reads at the window end", &reads(&a), &[0.0, 0.1, 2.0, 2.0]);
    assert_eq!(iterations_per_window(&b), vec![3, 1]);
    let log = std::fs::read_to_string(case.path().join("precice-B-iterations.log")).unwrap();
    let rows: Vec<&str> = log.lines().collect();
    assert_eq!(
        rows[0],
        "  TimeWindow  TotalIterations  Iterations  Convergence  QNColumns  DeletedQNColumns  DroppedQNColumns"
    );
    assert!(rows[1].starts_with("     1       3       3       1"), "{log}");
    assert!(rows[2].starts_with("     2       4       1       1"), "{log}");
}

/// Past t = 128 s one ulp of an absolute time (2.8e-14 s) exceeds preCICE's 1e-14 tolerance, so
/// a sample at the window start and the start itself, summed in different orders, compared
/// unequal: in some windows the first iteration took the start sample for a sub-step, the
/// acceleration moved it (window-start samples must never change) and then saw its time grid
/// change (1295 warnings in a 200 s RM3 run). Here 6500 windows of 0.02 s run to 130 s, the
/// accelerated data initialized and sent with its sub-steps (so the waveform A receives keeps
/// the window-start sample, as RM3's does): the acceleration never sees its grid change.
#[test]
fn the_acceleration_time_grid_holds_past_128_seconds() {
    let logged = captured_log(log::Level::Warn);
    let m = mesh("A");
    let scheme = Scheme::serial_implicit("A", "B")
        .window("0.02")
        .max_time(130)
        .child(r#"<max-iterations value="20"/>"#)
        .child(format!(r#"<relative-convergence-measure data="DataTwo" mesh="{m}" limit="1e-9"/>"#))
        .child(format!(r#"<acceleration:IQN-ILS><data name="DataTwo" mesh="{m}"/></acceleration:IQN-ILS>"#))
        .ex("DataOne", "A", "B")
        .ex_with("DataTwo", "B", "A", r#"initialize="true""#);
    let (_, _, _case) = pair(scheme, |_, s| s.read, |_, s| 0.5 * s.read.sin() + 1.0 + s.t.sin());
    let warned = logged.lock().unwrap().iter().filter(|w| w.contains("time grid changed")).cloned().collect::<Vec<_>>();
    assert!(warned.is_empty(), "{} grid changes, first: {:?}", warned.len(), warned.first());
}
