//! Differential tests: engine scenarios (coupling-semantics.md §12: A1–A21, A24, §5.5 and
//! B-spline waveforms) run once on the native engine and once on libprecice 3.4 with the
//! same XML; every value read, every step size and every status answer (window complete,
//! checkpoint requests, hence the iterations of every window) must agree to 1e-12, and the
//! implicit schemes' iteration and convergence logs must agree column by column.
//!
//! The tolerance holds for the quasi-Newton scenarios too. Both backends solve the same
//! least-squares problem through a QR decomposition, but not in the same operation order, so
//! they may differ by about ε·κ(V)·|x| (ε = 2.2e-16, κ the condition number of the matrix of
//! residual differences, which the QR filters keep small); on these scenarios the largest
//! difference measured is 7e-15 (|x| ≈ 40), so 1e-12 leaves a margin of 100.
//!
//! `TL_DIFF_DUMP=<folder>` writes every role's recorded answers on both backends there.
//!
//! Only compiled with the feature: `cargo test -p tidelink-coupling --features precice
//! --test differential` (needs libprecice 3.4 via pkg-config; docs/precice-backend.md).
//! preCICE keeps process-wide state, so each participant runs in its own process: this
//! test binary started again on the ignored test [`participant_process`].

#![cfg(feature = "precice")]

mod common;
#[path = "differential/logs.rs"]
mod logs;
#[path = "differential/scenarios.rs"]
mod scenarios;

use common::{mesh, TOL};
use logs::{compare_logs, skipped_log_columns, LOGS};
use scenarios::{scenario, Role, Steps, Values};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tidelink_coupling::{self as coupling, Backend, Coupling, CouplingError};

/// Environment of a participant process: scenario, participant, backend, config, output.
const ENV: [&str; 5] = ["TL_DIFF_SCENARIO", "TL_DIFF_PARTICIPANT", "TL_DIFF_BACKEND", "TL_DIFF_CONFIG", "TL_DIFF_OUT"];

/// How long one run of a scenario (all its processes) may take.
const WATCHDOG: Duration = Duration::from_secs(180);

/// One recorded answer: a value, or the error a call returned.
type Entry = (String, Result<f64, String>);

/// The value participant `who` writes for `data` at vertex `v`, component `c`, time `t`:
/// quadratic in t, so every interpolation degree shows.
fn value(who: &str, data: &str, v: usize, c: usize, t: f64) -> f64 {
    let base = (who.len() * 7 + data.len() * 3 + data.bytes().map(usize::from).sum::<usize>() % 13) as f64;
    base + t + 0.25 * t * t + 0.1 * v as f64 + 0.01 * c as f64
}

/// Runs `role` on `backend` and records every answer in order: the canonical loop of
/// coupling-semantics.md §2.2, with checkpoints (the role's clock, step count and last reads)
/// written and read when the coupling asks.
fn play(role: &Role, backend: Backend, config: &Path) -> Result<Vec<Entry>, CouplingError> {
    let mut p = coupling::open(backend, role.me, config)?;
    let own = mesh(role.me);
    let dim = p.get_mesh_dimensions(&own)?;
    let vertices = role.vertices.clone().unwrap_or_else(|| vec![0.0; dim]);
    let mut ids = vec![0; vertices.len() / dim];
    p.set_mesh_vertices(&own, &vertices, &mut ids)?;
    let mut out: Vec<Entry> = Vec::new();
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let initial = p.requires_initial_data()?;
    out.push(("requires_initial_data".into(), Ok(flag(initial))));
    // The first read datum at the end of the last step, per vertex (what `Feedback` feeds back).
    let mut fed = vec![0.0; ids.len()];
    if initial {
        write_all(p.as_mut(), role, &ids, 0.0, 0, &fed)?;
    }
    // Misuse (coupling-semantics.md §2.12): refused by both backends, and harmless.
    out.push(("advance before initialize".into(), p.advance(1.0).map(|()| 0.0).map_err(|e| e.message)));
    p.initialize()?;
    // `step` counts every advance (labels); `k` the accepted ones (schedules, sequences).
    let (mut t, mut step, mut k, mut advances) = (0.0, 0usize, 0usize, 0usize);
    let mut saved = (t, k, fed.clone());
    while p.is_coupling_ongoing()? {
        let write_checkpoint = p.requires_writing_checkpoint()?;
        out.push((format!("step {step} requires writing a checkpoint"), Ok(flag(write_checkpoint))));
        if write_checkpoint {
            saved = (t, k, fed.clone());
        }
        let max = p.get_max_time_step_size()?;
        out.push((format!("step {step} max dt"), Ok(max)));
        let dt = match &role.steps {
            Steps::Fixed(h) => h.min(max),
            Steps::Schedule(list) => list.get(k).map_or(max, |h| h.min(max)),
            Steps::Unchecked(list) => list.get(k).copied().unwrap_or(max),
        };
        for (n, data) in role.reads.iter().enumerate() {
            for (what, rel) in [("0", 0.0), ("dt/2", 0.5 * dt), ("dt", dt)] {
                let got =
                    read_all(p.as_mut(), &own, data, &ids, rel, &format!("step {step} {data} rel {what}"), &mut out);
                if n == 0 && what == "dt" {
                    if let Some(values) = got {
                        let d = values.len() / ids.len();
                        fed = values.iter().step_by(d).copied().collect();
                    }
                }
            }
        }
        if !role.silent_steps.contains(&step) {
            write_all(p.as_mut(), role, &ids, t + dt, advances, &fed)?;
        }
        advances += 1;
        let dt = match p.advance(dt) {
            Ok(()) => dt,
            Err(e) => {
                out.push((format!("step {step} advance({dt:?})"), Err(e.message)));
                if matches!(role.steps, Steps::Unchecked(_)) {
                    p.advance(max)?;
                    max
                } else {
                    // An implicit scheme's refusal (a strict measure) ends the run.
                    return Ok(out);
                }
            }
        };
        let read_checkpoint = p.requires_reading_checkpoint()?;
        out.push((format!("step {step} requires reading a checkpoint"), Ok(flag(read_checkpoint))));
        out.push((format!("step {step} window complete"), Ok(flag(p.is_time_window_complete()?))));
        if read_checkpoint {
            (t, k, fed) = saved.clone();
        } else {
            t += dt;
            k += 1;
        }
        step += 1;
    }
    out.push(("max dt after the end".into(), Ok(p.get_max_time_step_size()?)));
    for data in &role.reads {
        read_all(p.as_mut(), &own, data, &ids, 0.0, &format!("{data} after the end"), &mut out);
    }
    out.push(("advance after the end".into(), p.advance(0.1).map(|()| 0.0).map_err(|e| e.message)));
    if let Some(data) = role.reads.first() {
        read_all(p.as_mut(), &own, data, &ids, 0.1, &format!("{data} at rel 0.1 after the end"), &mut out);
    }
    p.finalize()?;
    Ok(out)
}

/// Writes every datum of `role` at time `t`; `n` is the number of advances so far (for
/// [`Values::Sequence`]) and `fed` the value fed back per vertex (for [`Values::Feedback`]).
fn write_all(
    p: &mut dyn Coupling,
    role: &Role,
    ids: &[i32],
    t: f64,
    n: usize,
    fed: &[f64],
) -> Result<(), CouplingError> {
    let own = mesh(role.me);
    for data in &role.writes {
        let d = p.get_data_dimensions(&own, data)?;
        let values: Vec<f64> = (0..ids.len() * d)
            .map(|i| match &role.values {
                Values::OfTime => value(role.me, data, i / d, i % d, t),
                Values::Feedback(gain) => value(role.me, data, i / d, i % d, t) + gain * fed[i / d],
                Values::Sequence(seq) => seq[n.min(seq.len() - 1)],
            })
            .collect();
        p.write_data(&own, data, ids, &values)?;
    }
    Ok(())
}

/// Reads `data` at `rel` into `out`; the values, when the read succeeded.
fn read_all(
    p: &mut dyn Coupling,
    own: &str,
    data: &str,
    ids: &[i32],
    rel: f64,
    label: &str,
    out: &mut Vec<Entry>,
) -> Option<Vec<f64>> {
    let d = match p.get_data_dimensions(own, data) {
        Ok(d) => d,
        Err(e) => {
            out.push((label.to_string(), Err(e.message)));
            return None;
        }
    };
    let mut values = vec![0.0; ids.len() * d];
    match p.read_data(own, data, ids, rel, &mut values) {
        Ok(()) => {
            out.extend(values.iter().enumerate().map(|(k, v)| (format!("{label} [{k}]"), Ok(*v))));
            Some(values)
        }
        Err(e) => {
            out.push((label.to_string(), Err(e.message)));
            None
        }
    }
}

/// The participant process: plays the role named by [`ENV`] and writes its entries.
#[test]
#[ignore = "a participant process of the differential tests; they start it themselves"]
fn participant_process() {
    let [Some(sc), Some(me), Some(backend), Some(config), Some(out)] = ENV.map(|k| std::env::var(k).ok()) else {
        println!("nothing to do: started by the differential tests only");
        return;
    };
    let backend: Backend = backend.parse().unwrap_or_else(|e| panic!("{e}"));
    let role = scenario(&sc).and_then(|s| s.roles.into_iter().find(|r| r.me == me)).expect("known role");
    let text = match play(&role, backend, Path::new(&config)) {
        Ok(entries) => entries.iter().fold(String::new(), |mut s, (label, v)| {
            let _ = match v {
                Ok(x) => writeln!(s, "{label}\tok\t{x:?}"),
                Err(m) => writeln!(s, "{label}\terr\t{}", m.replace(['\n', '\t'], " ")),
            };
            s
        }),
        Err(e) => format!("FAILED\terr\t{}\n", e.message.replace(['\n', '\t'], " ")),
    };
    std::fs::write(&out, text).expect("write the entries");
}

/// What one role did: its entries and its log files ([`LOGS`], `None` where not written).
type Played = (Vec<Entry>, [Option<String>; 2]);

/// Runs every role of `name` on `backend`, each in its own process; what each role did.
fn run_on(name: &str, backend: &str) -> Vec<Played> {
    let sc = scenario(name).expect("known scenario");
    let case = sc.xml.case();
    let exe = std::env::current_exe().expect("own test binary");
    let start = |role: &Role| -> (Child, PathBuf, PathBuf) {
        let out = case.path().join(format!("{}.entries", role.me));
        let log = case.path().join(format!("{}.log", role.me));
        let file = std::fs::File::create(&log).expect("log file");
        let values = [name, role.me, backend, &case.config.display().to_string(), &out.display().to_string()]
            .map(str::to_string);
        let mut c = Command::new(&exe);
        c.args(["participant_process", "--exact", "--ignored", "--nocapture", "--test-threads=1"]);
        c.envs(ENV.iter().zip(values)).current_dir(case.path()).stdin(Stdio::null());
        c.stdout(file.try_clone().expect("log file")).stderr(file);
        (c.spawn().expect("start a participant process"), out, log)
    };
    let mut children: Vec<_> = sc.roles.iter().map(start).collect();
    let deadline = Instant::now() + WATCHDOG;
    let mut failed = Vec::new();
    for (i, (child, _, log)) in children.iter_mut().enumerate() {
        let status = loop {
            if let Some(s) = child.try_wait().expect("wait for a participant") {
                break Some(s);
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        if status.is_none_or(|s| !s.success()) {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(15).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            failed.push(format!("{} ({status:?}):\n{}", sc.roles[i].me, tail.join("\n")));
        }
    }
    assert!(failed.is_empty(), "{name} on {backend}: participants failed or hung:\n{}", failed.join("\n"));
    if backend == "precice" {
        // Guard against a silent fallback: libprecice greets with its version on stdout.
        for (_, _, log) in &children {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            assert!(text.contains("This is preCICE version 3.4"), "{name}: no libprecice 3.4 banner in {text}");
        }
    }
    let entries = children.iter().map(|(_, out, _)| parse(&std::fs::read_to_string(out).expect("entries file")));
    let logs = sc.roles.iter().map(|role| {
        LOGS.map(|kind| std::fs::read_to_string(case.path().join(format!("precice-{}-{kind}.log", role.me))).ok())
    });
    entries.zip(logs).collect()
}

fn parse(text: &str) -> Vec<Entry> {
    text.lines()
        .filter_map(|l| {
            let mut f = l.splitn(3, '\t');
            let (label, kind, v) = (f.next()?, f.next()?, f.next()?);
            let v = if kind == "ok" { v.parse::<f64>().map_err(|e| e.to_string()) } else { Err(v.to_string()) };
            Some((label.to_string(), v))
        })
        .collect()
}

/// Runs `name` on both backends and requires the same answers (values to 1e-12).
fn differential(name: &str) {
    let native = run_on(name, "native");
    let real = run_on(name, "precice");
    if let Ok(dir) = std::env::var("TL_DIFF_DUMP") {
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("TL_DIFF_DUMP={dir}: cannot create the folder: {e}"));
        for (backend, runs) in [("native", &native), ("precice", &real)] {
            for (role, (entries, _)) in scenario(name).expect("known").roles.iter().zip(runs) {
                let text: String = entries.iter().map(|(l, v)| format!("{l}\t{v:?}\n")).collect();
                std::fs::write(format!("{dir}/{name}-{}-{backend}.txt", role.me), text).expect("dump");
            }
        }
    }
    let roles = scenario(name).expect("known scenario").roles;
    let tol = TOL;
    let mut problems = Vec::new();
    let (mut compared, mut both_failed, mut worst, mut log_cells) = (0usize, 0usize, 0.0f64, 0usize);
    for ((role, (n, n_logs)), (r, r_logs)) in roles.iter().zip(&native).zip(&real) {
        for ((kind, a), b) in LOGS.iter().zip(n_logs).zip(r_logs) {
            let what = format!("precice-{}-{kind}.log", role.me);
            match (a, b) {
                (Some(a), Some(b)) => {
                    log_cells += compare_logs(&what, a, b, tol, skipped_log_columns(name), &mut problems)
                }
                (None, None) => {}
                _ => problems.push(format!(
                    "{what}: written by one backend only (native {}, preCICE {})",
                    a.is_some(),
                    b.is_some()
                )),
            }
        }
        if n.len() != r.len() {
            problems.push(format!("{}: {} entries native, {} on preCICE", role.me, n.len(), r.len()));
        }
        for ((ln, vn), (lr, vr)) in n.iter().zip(r) {
            if ln != lr {
                problems.push(format!("{}: native `{ln}` where preCICE has `{lr}`", role.me));
                break;
            }
            match (vn, vr) {
                (Ok(a), Ok(b)) => {
                    compared += 1;
                    let diff = if a == b { 0.0 } else { (a - b).abs() };
                    worst = worst.max(diff);
                    if diff.is_nan() || diff > tol {
                        problems.push(format!("{} {ln}: native {a:?}, preCICE {b:?} (|Δ| = {diff:e})", role.me));
                    }
                }
                (Err(en), Err(er)) => {
                    // Same refusal; the wording may differ (reported, not compared).
                    both_failed += 1;
                    if en != er {
                        println!("{name}: {} {ln}: both refuse, worded: native `{en}`; preCICE `{er}`", role.me);
                    }
                }
                _ => problems.push(format!("{} {ln}: native {vn:?}, preCICE {vr:?}", role.me)),
            }
        }
    }
    println!(
        "{name}: {compared} values compared, max |native − preCICE| = {worst:e} (tolerance {tol:e}); \
         {both_failed} calls refused by both; {log_cells} log cells compared"
    );
    problems.truncate(20);
    assert!(problems.is_empty(), "{name}: the backends differ:\n{}", problems.join("\n"));
    assert!(compared > 0, "{name}: nothing was compared");
}

#[test]
fn a1_serial_explicit() {
    differential("a1_serial_explicit");
}

#[test]
fn a2_serial_subcycling_initialized() {
    differential("a2_serial_subcycling_initialized");
}

#[test]
fn a3_degree_zero() {
    differential("a3_degree_zero");
}

#[test]
fn a4_parallel_subcycling_initialized() {
    differential("a4_parallel_subcycling_initialized");
}

#[test]
fn a8_parallel_short_last_window() {
    differential("a8_parallel_short_last_window");
}

#[test]
fn a9_6400_substeps() {
    differential("a9_6400_substeps");
}

#[test]
fn bspline_degrees_serial() {
    differential("bspline_degrees_serial");
}

#[test]
fn bspline_degrees_parallel() {
    differential("bspline_degrees_parallel");
}

#[test]
fn degree_one_without_substeps() {
    differential("degree_one_without_substeps");
}

#[test]
fn a11_first_participant() {
    differential("a11_first_participant");
}

#[test]
fn a10_step_too_large() {
    differential("a10_step_too_large");
}

#[test]
fn a17_initialized_3d_vector() {
    differential("a17_initialized_3d_vector");
}

#[test]
fn a20_unwritten_substep() {
    differential("a20_unwritten_substep");
}

#[test]
fn a21_nearest_neighbor() {
    differential("a21_nearest_neighbor");
}

#[test]
fn three_participants_compositional() {
    differential("three_participants_compositional");
}

#[test]
fn a5_serial_implicit_three_iterations() {
    differential("a5_serial_implicit_three_iterations");
}

#[test]
fn a6_parallel_implicit_three_iterations() {
    differential("a6_parallel_implicit_three_iterations");
}

#[test]
fn a7_multi_three_solvers() {
    differential("a7_multi_three_solvers");
}

#[test]
fn serial_implicit_fixed_point() {
    differential("serial_implicit_fixed_point");
}

#[test]
fn parallel_implicit_fixed_point() {
    differential("parallel_implicit_fixed_point");
}

#[test]
fn a12_constant_relaxation() {
    differential("a12_constant_relaxation");
}

#[test]
fn constant_relaxation_substeps() {
    differential("constant_relaxation_substeps");
}

#[test]
fn a13_aitken_serial() {
    differential("a13_aitken_serial");
}

#[test]
fn a13_aitken_parallel() {
    differential("a13_aitken_parallel");
}

#[test]
fn a14_absolute() {
    differential("a14_absolute");
}

#[test]
fn a14_absolute_max3() {
    differential("a14_absolute_max3");
}

#[test]
fn a14_absolute_strict() {
    differential("a14_absolute_strict");
}

#[test]
fn a14_absolute_or_relative() {
    differential("a14_absolute_or_relative");
}

#[test]
fn a15_residual_relative() {
    differential("a15_residual_relative");
}

#[test]
fn a24_forced_convergence_logs() {
    differential("a24_forced_convergence_logs");
}

#[test]
fn a16_iqn_ils_defaults() {
    differential("a16_iqn_ils_defaults");
}

#[test]
fn iqn_ils_parallel_qr2() {
    differential("iqn_ils_parallel_qr2");
}

#[test]
fn iqn_ils_serial_qr1_value() {
    differential("iqn_ils_serial_qr1_value");
}

#[test]
fn a18_compositional_implicit_explicit() {
    differential("a18_compositional_implicit_explicit");
}

#[test]
fn iqn_ils_full_time_grid() {
    differential("iqn_ils_full_time_grid");
}

// libprecice accepts IQN-IMVJ only when built with MPI ("Acceleration IQN-IMVJ only works if
// preCICE is compiled with MPI"); docs/precice-backend.md says how to build one. Against such a
// libprecice 3.4.1: with time-windows-reused = 0 (the first two) window 1 agrees and the first
// iteration of each later window differs, where libprecice combines the new inverse Jacobian
// with a W̃ = W − J V still computed with the previous one (see docs/precice-backend.md); with
// windows reused (the third) every value and iteration agrees and only the log's QN column
// counts differ in window 3.
#[test]
#[ignore = "IQN-IMVJ needs a libprecice built with MPI; it differs from window 2 on (docs/precice-backend.md)"]
fn iqn_imvj_parallel() {
    differential("iqn_imvj_parallel");
}

#[test]
#[ignore = "IQN-IMVJ needs a libprecice built with MPI; it differs from window 2 on (docs/precice-backend.md)"]
fn iqn_imvj_rs_ls() {
    differential("iqn_imvj_rs_ls");
}

#[test]
#[ignore = "IQN-IMVJ needs a libprecice built with MPI; its QN column counts differ in window 3 (docs/precice-backend.md)"]
fn iqn_imvj_windows_reused() {
    differential("iqn_imvj_windows_reused");
}
