//! Implicit coupling through real coupled runs (docs/design/coupling-semantics.md §11):
//! scenarios A5–A7, A12–A16, A18, A24 and A26 (b, c) of §12 there. The accelerations (A12, A13,
//! A16) are in `acceleration.rs`, implicit and explicit schemes composed (A18) in `composition.rs`.

#[path = "engine_implicit/acceleration.rs"]
mod acceleration;
mod common;
#[path = "engine_implicit/composition.rs"]
mod composition;

use common::*;

/// A5/A6/A7 setting: Δ = 2, 5 windows, exactly 3 iterations, solver dt 4/7 (4 steps).
fn fixed_three(s: Scheme) -> Scheme {
    s.window(2).windows(5).child(r#"<min-iterations value="3"/>"#).child(r#"<max-iterations value="3"/>"#)
}

/// One side of A5/A6: writes `base + t` (also before initialize), reads at rel = dt.
fn side(
    config: std::path::PathBuf,
    me: &'static str,
    rd: &'static str,
    wd: &'static str,
    base: f64,
) -> impl FnOnce() -> Vec<IStep> {
    move || {
        let mut p = open_logged(&config, me);
        if p.requires_initial_data().unwrap() {
            write(&mut p, wd, base);
        }
        p.initialize().unwrap();
        drive_implicit(&mut p, 4.0 / 7.0, rd, wd, |dt| dt, |_, s| base + s.t + s.dt)
    }
}

fn check_protocol(who: &str, steps: &[IStep]) {
    assert_eq!(steps.len(), 5 * 3 * 4, "{who}: 5 windows × 3 iterations × 4 steps");
    for (i, s) in steps.iter().enumerate() {
        let (w, it, k) = (i / 12, (i % 12) / 4 + 1, i % 4);
        assert_eq!((s.window, s.iteration), (w, it as u32), "{who}: step {i}");
        assert_eq!(s.repeat, k == 3 && it < 3, "{who}: read-checkpoint after step {i}");
        assert_eq!(s.complete, k == 3 && it == 3, "{who}: window complete after step {i}");
    }
}

/// A5/A6: `scheme` with both data initialized, A writing 2 + t and B 10 + t; both sides'
/// steps, checked against the forced protocol.
fn run_fixed_three(scheme: Scheme) -> (TempCase, Vec<IStep>, Vec<IStep>) {
    let attrs = r#"initialize="true""#;
    let case = Xml::new(2)
        .scheme(fixed_three(scheme).ex_with("DataOne", "A", "B", attrs).ex_with("DataTwo", "B", "A", attrs))
        .case();
    let (a, b) =
        run2(side(cfg(&case), "A", "DataTwo", "DataOne", 2.0), side(cfg(&case), "B", "DataOne", "DataTwo", 10.0));
    check_protocol("A", &a);
    check_protocol("B", &b);
    (case, a, b)
}

fn log(case: &TempCase, name: &str) -> String {
    std::fs::read_to_string(case.path().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The iteration log of five windows of three forced iterations each (A5, A24).
fn forced_rows(windows: usize, iterations: usize) -> String {
    let mut s = String::from("  TimeWindow  TotalIterations  Iterations  Convergence");
    for w in 1..=windows {
        s += &format!("\n{w:>6}  {:>6}  {iterations:>6}  {:>6}", w * iterations, 0);
    }
    s
}

/// A5: serial-implicit, both sides initialized, no measures, min = max = 3.
#[test]
fn a5_serial_implicit_fixed_iterations() {
    let (case, a, b) = run_fixed_three(Scheme::serial_implicit("A", "B"));
    for s in &a {
        let want = if s.iteration == 1 { 10.0 + 2.0 * s.window as f64 } else { 10.0 + s.t + s.dt };
        close(format!("A reads in window {} iteration {} at t {}", s.window + 1, s.iteration, s.t), s.read, want);
    }
    for s in &b {
        close(
            format!("B reads in window {} iteration {} at t {}", s.window + 1, s.iteration, s.t),
            s.read,
            2.0 + s.t + s.dt,
        );
    }
    assert_eq!(log(&case, "precice-A-iterations.log"), forced_rows(5, 3));
    assert_eq!(log(&case, "precice-B-iterations.log"), forced_rows(5, 3));
}

/// A6: as A5 with parallel-implicit: both read the partner's window-start value in iteration
/// 1 and its previous iteration's waveform afterwards.
#[test]
fn a6_parallel_implicit_fixed_iterations() {
    let (_case, a, b) = run_fixed_three(Scheme::parallel_implicit("A", "B"));
    for (who, steps, base) in [("A", &a, 10.0), ("B", &b, 2.0)] {
        for s in steps {
            let want = if s.iteration == 1 { base + 2.0 * s.window as f64 } else { base + s.t + s.dt };
            close(
                format!("{who} reads in window {} iteration {} at t {}", s.window + 1, s.iteration, s.t),
                s.read,
                want,
            );
        }
    }
}

/// A7: multi, controller A coupled with B and C both ways, all initialized: every
/// participant reads like A6.
#[test]
fn a7_multi_coupling_three_solvers() {
    let attrs = r#"initialize="true""#;
    let scheme = fixed_three(Scheme::multi("A", &["B", "C"]))
        .ex_with("DataAB", "A", "B", attrs)
        .ex_with("DataBA", "B", "A", attrs)
        .ex_with("DataAC", "A", "C", attrs)
        .ex_with("DataCA", "C", "A", attrs);
    let case = Xml::new(2).scheme(scheme).case();
    // A reads both partners; the driver reads one datum, so A's second read is checked inside `f`.
    let ca = cfg(&case);
    let a = move || {
        let mut p = open_logged(&ca, "A");
        assert!(p.requires_initial_data().unwrap());
        write(&mut p, "DataAB", 1.0);
        write(&mut p, "DataAC", 1.0);
        p.initialize().unwrap();
        let mut from_c = Vec::new();
        let steps = drive_implicit(
            &mut p,
            4.0 / 7.0,
            "DataBA",
            "DataAB",
            |dt| dt,
            |p, s| {
                from_c.push((*s, read(p, "DataCA", s.dt)));
                write(p, "DataAC", 1.0 + s.t + s.dt);
                1.0 + s.t + s.dt
            },
        );
        (steps, from_c)
    };
    let other = |me: &'static str, rd: &'static str, wd: &'static str, base: f64| side(cfg(&case), me, rd, wd, base);
    let b = other("B", "DataAB", "DataBA", 2.0);
    let c = other("C", "DataAC", "DataCA", 3.0);
    let mut r = run(vec![
        job(move || (a(), Vec::new(), Vec::new())),
        job(move || ((Vec::new(), Vec::new()), b(), Vec::new())),
        job(move || ((Vec::new(), Vec::new()), Vec::new(), c())),
    ]);
    let c = r.pop().unwrap().2;
    let b = r.pop().unwrap().1;
    let (a, a_from_c) = r.pop().unwrap().0;
    assert_eq!(iterations_per_window(&a), vec![3; 5]);
    for (who, steps, base) in [("A from B", &a, 2.0), ("B", &b, 1.0), ("C", &c, 1.0)] {
        for s in steps.iter() {
            let want = if s.iteration == 1 { base + 2.0 * s.window as f64 } else { base + s.t + s.dt };
            close(
                format!("{who} reads in window {} iteration {} at t {}", s.window + 1, s.iteration, s.t),
                s.read,
                want,
            );
        }
    }
    for (s, v) in &a_from_c {
        let want = if s.iteration == 1 { 3.0 + 2.0 * s.window as f64 } else { 3.0 + s.t + s.dt };
        close(format!("A from C in window {} iteration {} at t {}", s.window + 1, s.iteration, s.t), *v, want);
    }
    assert!(log(&case, "precice-A-convergence.log").starts_with("  TimeWindow  Iteration"));
    assert!(!case.path().join("precice-B-convergence.log").exists(), "only the controller measures");
}

/// A14/A15: serial-implicit, Δ = 1, 2 windows; B writes 1.0, 1.01, 2.0, 2.5, 2.8, 2.81,
/// one value per advance; the measure is on B's datum. Returns B's result and iterations.
fn measured(children: &[&str]) -> (Result<Vec<u32>, String>, TempCase) {
    let mut s = Scheme::serial_implicit("A", "B").window(1).windows(2).ex("DataOne", "A", "B").ex("DataTwo", "B", "A");
    for c in children {
        s = s.child(*c);
    }
    let case = Xml::new(2).scheme(s).case();
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (_, b) = run2(
        move || {
            let mut a = open_logged(&ca, "A");
            a.initialize().unwrap();
            let mut n = 0;
            while a.is_coupling_ongoing().unwrap() {
                a.requires_writing_checkpoint().unwrap();
                write(&mut a, "DataOne", 0.0);
                if a.advance(1.0).is_err() {
                    return Ok(vec![]); // B stopped the run (the strict variant)
                }
                a.requires_reading_checkpoint().unwrap();
                n += 1;
                assert!(n < 100, "A iterates forever");
            }
            a.finalize().unwrap();
            Ok(vec![])
        },
        move || {
            let mut b = open_logged(&cb, "B");
            b.initialize().unwrap();
            let seq = [1.0, 1.01, 2.0, 2.5, 2.8, 2.81];
            let mut per_window = Vec::new();
            let (mut i, mut it) = (0, 1);
            while b.is_coupling_ongoing().unwrap() {
                b.requires_writing_checkpoint().unwrap();
                write(&mut b, "DataTwo", *seq.get(i).unwrap_or(&2.81));
                i += 1;
                if let Err(e) = b.advance(1.0) {
                    return Err(message_of(e, ErrorKind::Config));
                }
                if b.requires_reading_checkpoint().unwrap() {
                    it += 1;
                } else {
                    per_window.push(it);
                    it = 1;
                }
            }
            b.finalize().unwrap();
            Ok(per_window)
        },
    );
    (b, case)
}

fn measure_tag(kind: &str, attrs: &str) -> String {
    format!(r#"<{kind}-convergence-measure data="DataTwo" mesh="{}" {attrs}/>"#, mesh("A"))
}

/// A14 (1)–(4): the four measure settings and their iterations per window.
#[test]
fn a14_convergence_measures() {
    let cases: [(&str, Vec<String>, Vec<u32>); 4] = [
        (
            "absolute 0.1",
            vec![measure_tag("absolute", r#"limit="0.1""#), r#"<max-iterations value="100"/>"#.into()],
            vec![2, 4],
        ),
        (
            "absolute 1e-3, max 3",
            vec![measure_tag("absolute", r#"limit="1e-3""#), r#"<max-iterations value="3"/>"#.into()],
            vec![3, 3],
        ),
        (
            "absolute 0.1 strict, max 4",
            vec![measure_tag("absolute", r#"limit="0.1" strict="true""#), r#"<max-iterations value="4"/>"#.into()],
            vec![2, 4],
        ),
        (
            "absolute-or-relative, min 2",
            vec![
                measure_tag("absolute-or-relative", r#"abs-limit="0.1" rel-limit="1.0""#),
                r#"<min-iterations value="2"/>"#.into(),
                r#"<max-iterations value="10"/>"#.into(),
            ],
            vec![2, 2],
        ),
    ];
    for (what, children, want) in cases {
        let children: Vec<&str> = children.iter().map(String::as_str).collect();
        let (got, _) = measured(&children);
        assert_eq!(got.unwrap_or_else(|e| panic!("{what}: {e}")), want, "{what}");
    }
}

/// A14 (3) with max-iterations 3: the strict measure stops the run, naming the data.
#[test]
fn a14_strict_measure_unconverged_at_max_iterations_is_an_error() {
    let tag = measure_tag("absolute", r#"limit="0.1" strict="true""#);
    let (got, _) = measured(&[&tag, r#"<max-iterations value="3"/>"#]);
    let msg = got.expect_err("the strict measure must stop the run");
    for f in ["did not converge within the maximum allowed iterations", "\"DataTwo\"", "time window 2"] {
        assert!(msg.contains(f), "{f:?} in: {msg}");
    }
}

/// A15: residual-relative 0.5 → 2 and 3 iterations; its log column is the ratio to the
/// window's first residual.
#[test]
fn a15_residual_relative_measure() {
    let tag = measure_tag("residual-relative", r#"limit="0.5""#);
    let (got, case) = measured(&[&tag, r#"<max-iterations value="10"/>"#]);
    assert_eq!(got.unwrap(), vec![2, 3]);
    let text = std::fs::read_to_string(case.path().join("precice-B-convergence.log")).unwrap();
    let rows: Vec<Vec<f64>> =
        text.lines().skip(1).map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect()).collect();
    assert!(text.starts_with("  TimeWindow  Iteration  ResDrop(A-Mesh:DataTwo)"), "{text}");
    let want = [(1, 1, 1.0), (1, 2, 0.01), (2, 1, 1.0), (2, 2, 0.5 / 0.99), (2, 3, 0.3 / 0.99)];
    assert_eq!(rows.len(), want.len(), "{text}");
    for (row, (w, i, r)) in rows.iter().zip(want) {
        assert_eq!((row[0], row[1]), (w as f64, i as f64));
        assert!((row[2] - r).abs() < 1e-7 * r.max(1.0), "window {w} iteration {i}: {} vs {r}", row[2]);
    }
}

/// A24: forced convergence at max-iterations 3 without measures; both iteration logs and
/// the second participant's convergence log, byte for byte.
#[test]
fn a24_iteration_logs_with_forced_convergence() {
    let (got, case) = measured(&[r#"<max-iterations value="3"/>"#]);
    assert_eq!(got.unwrap(), vec![3, 3]);
    let dir = case.path();
    let read = |n: &str| std::fs::read_to_string(dir.join(n)).unwrap();
    let want = "  TimeWindow  TotalIterations  Iterations  Convergence\n     1       3       3       0\n     2       6       3       0";
    assert_eq!(read("precice-A-iterations.log"), want);
    assert_eq!(read("precice-B-iterations.log"), want);
    let conv: String = std::iter::once("  TimeWindow  Iteration".to_string())
        .chain([(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3)].map(|(w, i)| format!("\n{w:>6}  {i:>6}")))
        .collect();
    assert_eq!(read("precice-B-convergence.log"), conv);
    assert!(!dir.join("precice-A-convergence.log").exists(), "only the second participant measures");
}

/// A26 (b), (c): skipping a required checkpoint query is an error at the next advance.
#[test]
fn a26_missed_checkpoint_queries() {
    for skip_read in [false, true] {
        let case = Xml::new(2)
            .scheme(
                Scheme::serial_implicit("A", "B")
                    .window(1)
                    .windows(2)
                    .child(r#"<max-iterations value="2"/>"#)
                    .ex("DataOne", "A", "B")
                    .ex("DataTwo", "B", "A"),
            )
            .case();
        let (ca, cb) = (cfg(&case), cfg(&case));
        let (a, _) = run2(
            move || {
                let mut a = open_logged(&ca, "A");
                a.initialize().unwrap();
                if skip_read {
                    assert!(a.requires_writing_checkpoint().unwrap());
                    a.advance(1.0).unwrap();
                    // Reading is required now; not asking for it is the misuse.
                }
                let r = a.advance(1.0);
                a.abort("test over");
                r
            },
            move || {
                let mut b = open_logged(&cb, "B");
                // A may stop before B's initialize() has its first window.
                if b.initialize().is_err() {
                    return Ok(());
                }
                let _ = b.requires_writing_checkpoint();
                let _ = b.advance(1.0);
                b.abort("test over");
                Ok(())
            },
        );
        let want = if skip_read { "requiresReadingCheckpoint()" } else { "requiresWritingCheckpoint()" };
        fails(a, ErrorKind::Misuse, &[want]);
    }
}

/// What one side of [`pair`] computes from its step.
type Solver = Box<dyn FnMut(&mut NativeParticipant, &IStep) -> f64 + Send>;

/// A serial-implicit pair at Δ = 1: A runs `fa`, B runs `fb` (each gets the value read at
/// the window end and returns what it writes); both sides' steps.
fn pair(
    scheme: Scheme,
    fa: impl FnMut(&mut NativeParticipant, &IStep) -> f64 + Send + 'static,
    fb: impl FnMut(&mut NativeParticipant, &IStep) -> f64 + Send + 'static,
) -> (Vec<IStep>, Vec<IStep>, TempCase) {
    let case = Xml::new(2).scheme(scheme).case();
    let (ca, cb) = (cfg(&case), cfg(&case));
    let side = |config: std::path::PathBuf, me: &'static str, rd: &'static str, wd: &'static str, mut f: Solver| {
        move || {
            let mut p = open_logged(&config, me);
            if p.requires_initial_data().unwrap() {
                write(&mut p, wd, 0.3);
            }
            p.initialize().unwrap();
            drive_implicit(&mut p, 1.0, rd, wd, |dt| dt, |p, s| f(p, s))
        }
    };
    let (a, b) =
        run2(side(ca, "A", "DataTwo", "DataOne", Box::new(fa)), side(cb, "B", "DataOne", "DataTwo", Box::new(fb)));
    (a, b, case)
}

fn reads(steps: &[IStep]) -> Vec<f64> {
    steps.iter().map(|s| s.read).collect()
}

fn same(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: {got:?}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        close(format!("{what} [{i}]"), *g, *w);
    }
}

/// The first measurement of a received, initialized datum compares against zero, not
/// against the initial data (preCICE stores that previous iteration before the initial
/// exchange; found by the differential tests against libprecice 3.4.1): a relative residual of 1.
#[test]
fn first_measurement_of_received_initial_data_is_against_zero() {
    let m = mesh("A");
    let scheme = Scheme::serial_implicit("A", "B")
        .window(1)
        .windows(1)
        .child(r#"<max-iterations value="2"/>"#)
        .child(format!(r#"<relative-convergence-measure data="DataOne" mesh="{m}" limit="1e-3"/>"#))
        .ex_with("DataOne", "A", "B", r#"initialize="true""#)
        .ex("DataTwo", "B", "A");
    // A writes 0.3 initially (the helper's initial data) and 5 in every iteration: against the
    // initial data, iteration 1 would show |5 − 0.3| / 5 = 0.94.
    let (_, b, case) = pair(scheme, |_, _| 5.0, |_, _| 0.0);
    assert_eq!(iterations_per_window(&b), vec![2]);
    let text = std::fs::read_to_string(case.path().join("precice-B-convergence.log")).unwrap();
    let rows: Vec<Vec<f64>> =
        text.lines().skip(1).map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(rows[0][2], 1.0, "iteration 1 against zero: {text}");
    assert_eq!(rows[1][2], 0.0, "iteration 2 against iteration 1: {text}");
}
