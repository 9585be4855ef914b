//! Explicit coupling schemes through real coupled runs (docs/design/coupling-semantics.md §5.2, §5.3, §5.5):
//! scenarios A1–A4, A20 and a compositional scheme with two partners.

mod common;

use common::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A1: serial-explicit, Δ = 1, 3 windows; A writes t_end, B writes 10·t_end.
#[test]
fn a1_serial_explicit_basics() {
    let case = pair_case(Scheme::serial("A", "B").window(1).windows(3));
    let (ca, cb) = (cfg(&case), cfg(&case));
    let a_advanced = Arc::new(AtomicBool::new(false));
    let seen_by_b = a_advanced.clone();
    run2(
        move || {
            let mut a = open(&ca, "A");
            a.initialize().unwrap();
            for (k, want) in [0.0, 10.0, 20.0].into_iter().enumerate() {
                for rel in [0.0, 0.5, 1.0] {
                    close(format!("A window {} rel {rel}", k + 1), read(&mut a, "DataTwo", rel), want);
                }
                write(&mut a, "DataOne", (k + 1) as f64);
                if k == 0 {
                    // B must still be inside initialize() now.
                    std::thread::sleep(Duration::from_millis(200));
                    a_advanced.store(true, Ordering::SeqCst);
                }
                a.advance(1.0).unwrap();
            }
            assert!(!a.is_coupling_ongoing().unwrap());
            assert_eq!(a.get_max_time_step_size().unwrap(), 0.0);
            close("A after the end", read(&mut a, "DataTwo", 0.0), 30.0);
            let mut v = [0.0];
            assert!(a.read_data(&mesh("A"), "DataTwo", &[0], 0.1, &mut v).is_err());
            a.finalize().unwrap();
        },
        move || {
            let mut b = open(&cb, "B");
            b.initialize().unwrap();
            assert!(seen_by_b.load(Ordering::SeqCst), "B's initialize() returned before A's first advance");
            for k in 0..3 {
                let k0 = k as f64;
                for rel in [0.0, 0.5, 1.0] {
                    close(format!("B window {} rel {rel}", k + 1), read(&mut b, "DataOne", rel), k0 + rel);
                }
                write(&mut b, "DataTwo", 10.0 * (k0 + 1.0));
                b.advance(1.0).unwrap();
            }
            assert!(!b.is_coupling_ongoing().unwrap());
            assert_eq!(b.get_max_time_step_size().unwrap(), 0.0);
            close("B after the end", read(&mut b, "DataOne", 0.0), 3.0);
            let mut v = [0.0];
            assert!(b.read_data(&mesh("B"), "DataOne", &[0], 0.1, &mut v).is_err());
            b.finalize().unwrap();
        },
    );
}

/// A2–A4: Δ = 2, 5 windows, solver dt 4/7; A writes 2 + t, B writes 10 + t (also at t = 0).
fn subcycling(scheme: Scheme, xml: Xml) -> (Vec<Step>, Vec<Step>) {
    let case = xml.scheme(scheme.window(2).windows(5)).case();
    let (ca, cb) = (cfg(&case), cfg(&case));
    let side = |config: std::path::PathBuf, me: &'static str, rd: &'static str, wd: &'static str, base: f64| {
        move || {
            let mut p = open(&config, me);
            if p.requires_initial_data().unwrap() {
                write(&mut p, wd, base);
            }
            p.initialize().unwrap();
            drive(&mut p, 4.0 / 7.0, 2.0, rd, wd, |t| base + t)
        }
    };
    run2(side(ca, "A", "DataTwo", "DataOne", 2.0), side(cb, "B", "DataOne", "DataTwo", 10.0))
}

fn check_steps(who: &str, steps: &[Step]) {
    assert_eq!(steps.len(), 20, "{who}: 5 windows of 4 steps");
    let sizes = [4.0 / 7.0, 4.0 / 7.0, 4.0 / 7.0, 2.0 / 7.0];
    for (i, s) in steps.iter().enumerate() {
        assert_eq!(s.window, i / 4, "{who}: step {i} in window {}", s.window);
        close(format!("{who}: size of step {i}"), s.dt, sizes[i % 4]);
    }
}

fn check_reads(who: &str, steps: &[Step], want: impl Fn(&Step) -> f64) {
    for (i, s) in steps.iter().enumerate() {
        close(format!("{who}: read in step {i} (t = {}, dt = {})", s.t, s.dt), s.read, want(s));
    }
}

/// A2: serial-explicit with sub-steps both ways, both directions initialized.
#[test]
fn a2_serial_explicit_subcycling_with_substeps() {
    let attrs = r#"initialize="on" substeps="true""#;
    let scheme = Scheme::serial("A", "B").ex_with("DataOne", "A", "B", attrs).ex_with("DataTwo", "B", "A", attrs);
    let (a, b) = subcycling(scheme, Xml::new(2));
    check_steps("A", &a);
    check_steps("B", &b);
    check_reads("A", &a, |s| 10.0 + 2.0 * s.window as f64);
    check_reads("B", &b, |s| 2.0 + (s.t + s.dt));
}

/// A3: as A2 with waveform-degree 0, no sub-steps, only B → A initialized.
#[test]
fn a3_degree_zero_without_substeps() {
    let scheme = Scheme::serial("A", "B").ex_with("DataOne", "A", "B", r#"substeps="false""#).ex_with(
        "DataTwo",
        "B",
        "A",
        r#"initialize="true" substeps="false""#,
    );
    let (a, b) = subcycling(scheme, Xml::new(2).degree("DataOne", 0).degree("DataTwo", 0));
    check_steps("A", &a);
    check_steps("B", &b);
    check_reads("A", &a, |s| 10.0 + 2.0 * s.window as f64);
    check_reads("B", &b, |s| 2.0 + 2.0 * (s.window as f64 + 1.0));
}

/// A4: as A2 with parallel-explicit: both read the partner's window-start value.
#[test]
fn a4_parallel_explicit_reads_window_start() {
    let attrs = r#"initialize="on" substeps="true""#;
    let scheme = Scheme::parallel("A", "B").ex_with("DataOne", "A", "B", attrs).ex_with("DataTwo", "B", "A", attrs);
    let (a, b) = subcycling(scheme, Xml::new(2));
    check_steps("A", &a);
    check_steps("B", &b);
    check_reads("A", &a, |s| 10.0 + 2.0 * s.window as f64);
    check_reads("B", &b, |s| 2.0 + 2.0 * s.window as f64);
}

/// A20: with sub-steps, a step without writeData sends a zero sample.
fn zero_substep(substeps: bool) -> (f64, f64) {
    let attrs = format!(r#"substeps="{substeps}""#);
    let case =
        Xml::new(2).scheme(Scheme::serial("A", "B").window(1).windows(1).ex_with("DataOne", "A", "B", &attrs)).case();
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (_, reads) = run2(
        move || {
            let mut a = open(&ca, "A");
            a.initialize().unwrap();
            a.advance(0.5).unwrap();
            write(&mut a, "DataOne", 1.0);
            a.advance(0.5).unwrap();
            a.finalize().unwrap();
            (0.0, 0.0)
        },
        move || {
            let mut b = open(&cb, "B");
            b.initialize().unwrap();
            let r = (read(&mut b, "DataOne", 0.5), read(&mut b, "DataOne", 0.75));
            b.advance(1.0).unwrap();
            b.finalize().unwrap();
            r
        },
    );
    reads
}

#[test]
fn a20_unwritten_substep_is_a_zero_sample() {
    let (at_half, at_three_quarters) = zero_substep(true);
    close("substeps: rel 0.5", at_half, 0.0);
    close("substeps: rel 0.75", at_three_quarters, 0.5);
    let (at_half, _) = zero_substep(false);
    close("no substeps: rel 0.5", at_half, 0.5);
}

/// coupling-semantics.md §5.5: Solid is second in two serial-explicit schemes, with Fluid1 (Δ = 2) and
/// Fluid2 (Δ = 3), max-time 12. Its steps are bounded by both schemes' window ends.
#[test]
fn compositional_serial_explicit_with_two_partners() {
    let init = r#"initialize="true""#;
    let case = Xml::new(2)
        .scheme(
            Scheme::serial("Fluid1", "Solid")
                .window(2)
                .max_time(12)
                .ex_with("F1", "Fluid1", "Solid", init)
                .ex("S1", "Solid", "Fluid1"),
        )
        .scheme(
            Scheme::serial("Fluid2", "Solid")
                .window(3)
                .max_time(12)
                .ex_with("F2", "Fluid2", "Solid", init)
                .ex("S2", "Solid", "Fluid2"),
        )
        .case();
    let fluid =
        |config: std::path::PathBuf, me: &'static str, rd: &'static str, wd: &'static str, base: f64, w: f64| {
            job(move || {
                let mut p = open(&config, me);
                assert!(p.requires_initial_data().unwrap());
                write(&mut p, wd, base);
                p.initialize().unwrap();
                drive(&mut p, w, w, rd, wd, |t| base + t)
            })
        };
    let cs = cfg(&case);
    let solid = job(move || {
        let mut s = open(&cs, "Solid");
        assert!(!s.requires_initial_data().unwrap());
        s.initialize().unwrap();
        let mut t = 0.0;
        let mut sizes = Vec::new();
        while s.is_coupling_ongoing().unwrap() {
            let dt = s.get_max_time_step_size().unwrap();
            for (data, base) in [("F1", 100.0), ("F2", 200.0)] {
                close(format!("Solid reads {data} at t = {t}"), read(&mut s, data, 0.0), base + t);
                close(format!("Solid reads {data} at t = {t} + {dt}"), read(&mut s, data, dt), base + t + dt);
            }
            write(&mut s, "S1", 1000.0 + t + dt);
            write(&mut s, "S2", 2000.0 + t + dt);
            s.advance(dt).unwrap();
            assert!(s.is_time_window_complete().unwrap(), "every Solid step ends a window of one scheme");
            t += dt;
            sizes.push(Step { window: 0, t, dt, read: 0.0 });
        }
        s.finalize().unwrap();
        sizes
    });
    let r = run(vec![
        fluid(cfg(&case), "Fluid1", "S1", "F1", 100.0, 2.0),
        fluid(cfg(&case), "Fluid2", "S2", "F2", 200.0, 3.0),
        solid,
    ]);
    let sizes: Vec<f64> = r[2].iter().map(|s| s.dt).collect();
    let want = [2.0, 1.0, 1.0, 2.0, 2.0, 1.0, 1.0, 2.0];
    assert_eq!(sizes.len(), want.len(), "Solid's steps: {sizes:?}");
    for (i, (g, w)) in sizes.iter().zip(want).enumerate() {
        close(format!("Solid step {i}"), *g, w);
    }
    for (steps, who, base, w) in [(&r[0], "Fluid1", 1000.0, 2.0), (&r[1], "Fluid2", 2000.0, 3.0)] {
        assert_eq!(steps.len(), (12.0 / w) as usize, "{who}'s windows");
        // A first participant reads the Solid's value at its window start (0 in window 1).
        check_reads(who, steps, |s| if s.window == 0 { 0.0 } else { base + s.t });
    }
}
