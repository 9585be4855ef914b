//! Implicit and explicit schemes composed in one run (A18): explicit partners see converged
//! iterations only, also when the implicit participant sub-cycles.

use super::*;

/// A18's windows: size 1, two of them.
fn a18_window(s: Scheme) -> Scheme {
    s.window(1).windows(2)
}

/// A18's explicit EA –(serial-explicit)– IA and the implicit IA –(2 iterations)– IB; EA's
/// datum is initialized.
fn a18_xml() -> Xml {
    Xml::new(2)
        .scheme(a18_window(Scheme::serial("IA", "EA")).ex("D-IA-EA", "IA", "EA").ex_with(
            "D-EA",
            "EA",
            "IA",
            r#"initialize="true""#,
        ))
        .scheme(
            a18_window(Scheme::serial_implicit("IA", "IB"))
                .child(r#"<max-iterations value="2"/>"#)
                .ex("D-IA-IB", "IA", "IB")
                .ex("D-IB-IA", "IB", "IA"),
        )
}

/// A18: EA –(serial-explicit)– IA –(serial-implicit, 2 iterations)– IB –(serial-explicit)– EB.
/// Explicit partners see converged iterations only.
#[test]
fn a18_compositional_implicit_and_explicit() {
    let case = a18_xml().scheme(a18_window(Scheme::serial("IB", "EB")).ex("D-IB-EB", "IB", "EB").ex_with(
        "D-EB",
        "EB",
        "IB",
        r#"initialize="true""#,
    ));
    let case = case.case();
    // (reads at the window end, requires_reading_checkpoint, requires_writing_checkpoint) per advance.
    type Record = Vec<(Vec<f64>, bool, bool)>;
    let side = |me: &'static str,
                reads: &'static [&'static str],
                writes: &'static [&'static str],
                init: Option<&'static str>| {
        let config = cfg(&case);
        move || -> (Record, Vec<f64>) {
            let mut p = open_logged(&config, me);
            if p.requires_initial_data().unwrap() {
                write(&mut p, init.expect("initializes"), 0.1);
            }
            p.initialize().unwrap();
            let mut out = Vec::new();
            let (mut window, mut iteration) = (1, 1);
            let mut wrote_checkpoint = p.requires_writing_checkpoint().unwrap();
            while p.is_coupling_ongoing().unwrap() {
                let _ = wrote_checkpoint;
                let rel = p.get_max_time_step_size().unwrap();
                let r: Vec<f64> = reads.iter().map(|d| read(&mut p, d, rel)).collect();
                for d in writes {
                    write(&mut p, d, window as f64 + iteration as f64 / 10.0);
                }
                p.advance(rel).unwrap();
                let repeat = p.requires_reading_checkpoint().unwrap();
                wrote_checkpoint = p.requires_writing_checkpoint().unwrap();
                out.push((r, repeat, wrote_checkpoint));
                if repeat {
                    iteration += 1;
                } else {
                    window += 1;
                    iteration = 1;
                }
            }
            let after: Vec<f64> = reads.iter().map(|d| read(&mut p, d, 0.0)).collect();
            p.finalize().unwrap();
            (out, after)
        }
    };
    let mut r = run(vec![
        job(side("EA", &["D-IA-EA"], &["D-EA"], Some("D-EA"))),
        job(side("IA", &["D-EA", "D-IB-IA"], &["D-IA-EA", "D-IA-IB"], None)),
        job(side("IB", &["D-IA-IB", "D-EB"], &["D-IB-IA", "D-IB-EB"], None)),
        job(side("EB", &["D-IB-EB"], &["D-EB"], Some("D-EB"))),
    ]);
    let (eb, ib, ia, ea) = (r.pop().unwrap(), r.pop().unwrap(), r.pop().unwrap(), r.pop().unwrap());
    let col = |rec: &Record, i: usize| rec.iter().map(|x| x.0[i]).collect::<Vec<f64>>();
    let same = |what: &str, got: Vec<f64>, want: &[f64]| {
        assert_eq!(got.len(), want.len(), "{what}: {got:?}");
        for (g, w) in got.iter().zip(want) {
            close(what, *g, *w);
        }
    };
    same("EA reads D-IA-EA", col(&ea.0, 0), &[1.2, 2.2]);
    same("EA after the end", ea.1.clone(), &[2.2]);
    same("IA reads D-EA", col(&ia.0, 0), &[0.1, 0.1, 1.1, 1.1]);
    same("IA reads D-IB-IA", col(&ia.0, 1), &[0.0, 1.1, 1.2, 2.1]);
    same("IB reads D-IA-IB", col(&ib.0, 0), &[1.1, 1.2, 2.1, 2.2]);
    same("EB reads D-IB-EB", col(&eb.0, 0), &[1.2, 2.2]);
    assert!(ia.0[0].1, "IA must read its checkpoint after advance 1");
    assert!(ia.0[1].2, "IA must write a checkpoint after advance 2");
}

/// A18 with IA sub-cycling (two steps per window): the explicit scheme waits at its window end
/// through every iteration's sub-steps, so IA's explicit partner exchanges only after the
/// implicit window is accepted (found by the differential tests against libprecice 3.4.1).
#[test]
fn a18_explicit_partners_wait_through_sub_steps_of_repeated_iterations() {
    let case = a18_xml().case();
    // Every participant writes window.iteration; EA writes 10 + window and 0.1 initially.
    let (ca, cb, ce) = (cfg(&case), cfg(&case), cfg(&case));
    let ia = move || {
        let mut p = open_logged(&ca, "IA");
        p.initialize().unwrap();
        // (D-EA read at the step's end, window complete after the step)
        let mut seen = Vec::new();
        let (mut window, mut iteration) = (1, 1);
        while p.is_coupling_ongoing().unwrap() {
            p.requires_writing_checkpoint().unwrap();
            let dt = 0.5f64.min(p.get_max_time_step_size().unwrap());
            let from_ea = read(&mut p, "D-EA", dt);
            let v = window as f64 + iteration as f64 / 10.0;
            write(&mut p, "D-IA-EA", v);
            write(&mut p, "D-IA-IB", v);
            p.advance(dt).unwrap();
            let repeat = p.requires_reading_checkpoint().unwrap();
            let complete = p.is_time_window_complete().unwrap();
            seen.push((from_ea, complete));
            if repeat {
                iteration += 1;
            } else if complete {
                window += 1;
                iteration = 1;
            }
        }
        p.finalize().unwrap();
        seen
    };
    let ib = move || {
        let mut p = open_logged(&cb, "IB");
        p.initialize().unwrap();
        let (mut window, mut iteration) = (1, 1);
        while p.is_coupling_ongoing().unwrap() {
            p.requires_writing_checkpoint().unwrap();
            write(&mut p, "D-IB-IA", window as f64 + iteration as f64 / 10.0);
            p.advance(1.0).unwrap();
            if p.requires_reading_checkpoint().unwrap() {
                iteration += 1;
            } else {
                window += 1;
                iteration = 1;
            }
        }
        p.finalize().unwrap();
        Vec::new()
    };
    let ea = move || {
        let mut p = open_logged(&ce, "EA");
        assert!(p.requires_initial_data().unwrap());
        write(&mut p, "D-EA", 0.1);
        p.initialize().unwrap();
        let mut got = Vec::new();
        let mut window = 1;
        while p.is_coupling_ongoing().unwrap() {
            got.push((read(&mut p, "D-IA-EA", 1.0), false));
            write(&mut p, "D-EA", 10.0 + window as f64);
            p.advance(1.0).unwrap();
            window += 1;
        }
        p.finalize().unwrap();
        got
    };
    let mut r = run(vec![job(ia), job(ib), job(ea)]);
    let (ea, _, ia) = (r.pop().unwrap(), r.pop().unwrap(), r.pop().unwrap());
    // IA: window 1 = iterations 1 and 2 of two sub-steps each; D-EA is EA's initial 0.1 until
    // window 1 is accepted, then EA's window-1 value 11 (serial-explicit, EA second).
    let from_ea: Vec<f64> = ia.iter().map(|s| s.0).collect();
    same("IA reads D-EA", &from_ea, &[0.1, 0.1, 0.1, 0.1, 11.0, 11.0, 11.0, 11.0]);
    let complete: Vec<bool> = ia.iter().map(|s| s.1).collect();
    assert_eq!(complete, [false, false, false, true, false, false, false, true], "IA's window-complete flags");
    // EA sees IA's accepted (second) iterations only.
    let from_ia: Vec<f64> = ea.iter().map(|s| s.0).collect();
    same("EA reads D-IA-EA at its window end", &from_ia, &[1.2, 2.2]);
}
