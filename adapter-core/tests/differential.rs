//! Differential tests: engine scenarios (coupling-semantics.md §12: A1–A4, A8–A11, A17, A20, A21, §5.5 and
//! B-spline waveforms) run once on the native engine and once on libprecice 3.4 with the
//! same XML; every value read, every step size and every status answer must agree to 1e-12.
//!
//! Only compiled with the feature: `cargo test -p tidelink-adapter-core --features precice
//! --test differential` (needs libprecice 3.4 via pkg-config; docs/precice-backend.md).
//! preCICE keeps process-wide state, so each participant runs in its own process: this
//! test binary started again on the ignored test [`participant_process`].

#![cfg(feature = "precice")]

mod common;

use common::{mesh, Scheme, Xml, TOL};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tidelink_adapter_core::coupling::{self, Backend, Coupling, CouplingError};

/// Environment of a participant process: scenario, participant, backend, config, output.
const ENV: [&str; 5] = ["TL_DIFF_SCENARIO", "TL_DIFF_PARTICIPANT", "TL_DIFF_BACKEND", "TL_DIFF_CONFIG", "TL_DIFF_OUT"];

/// How long one run of a scenario (all its processes) may take.
const WATCHDOG: Duration = Duration::from_secs(180);

/// How a participant chooses its step size.
#[derive(Clone)]
enum Steps {
    /// `dt = min(solver_dt, getMaxTimeStepSize())`.
    Fixed(f64),
    /// These sizes in turn (capped by the max), then `getMaxTimeStepSize()`.
    Schedule(Vec<f64>),
    /// As `Schedule`, not capped: a refused `advance` is recorded and retried with the max.
    Unchecked(Vec<f64>),
}

/// What one participant does: the canonical loop of coupling-semantics.md §2.2 with the data named here.
#[derive(Clone)]
struct Role {
    me: &'static str,
    /// Flat coordinates on the own mesh (`None`: one vertex at the origin).
    vertices: Option<Vec<f64>>,
    reads: Vec<&'static str>,
    writes: Vec<&'static str>,
    steps: Steps,
    /// 0-based steps in which nothing is written (scenario A20).
    silent_steps: Vec<usize>,
}

impl Role {
    fn new(me: &'static str, reads: &[&'static str], writes: &[&'static str], steps: Steps) -> Role {
        Role { me, vertices: None, reads: reads.to_vec(), writes: writes.to_vec(), steps, silent_steps: vec![] }
    }
    fn at(mut self, vertices: &[f64]) -> Role {
        self.vertices = Some(vertices.to_vec());
        self
    }
}

struct Scenario {
    xml: Xml,
    roles: Vec<Role>,
}

fn fixed(me: &'static str, reads: &[&'static str], writes: &[&'static str], dt: f64) -> Role {
    Role::new(me, reads, writes, Steps::Fixed(dt))
}

/// The two-way exchange of the `engine_*` tests (DataOne A → B, DataTwo B → A).
fn pair(scheme: Scheme, attrs_one: &str, attrs_two: &str) -> Scheme {
    scheme.ex_with("DataOne", "A", "B", attrs_one).ex_with("DataTwo", "B", "A", attrs_two)
}

/// Every scenario, by name (the participant processes rebuild theirs from the name).
fn scenario(name: &str) -> Option<Scenario> {
    let sub = r#"initialize="on" substeps="true""#;
    let a = |dt| fixed("A", &["DataTwo"], &["DataOne"], dt);
    let b = |dt| fixed("B", &["DataOne"], &["DataTwo"], dt);
    let s = match name {
        // A1: serial-explicit, Δ = 1, 3 windows, nothing initialized.
        "a1_serial_explicit" => Scenario {
            xml: Xml::new(2).scheme(pair(Scheme::serial("A", "B").window(1).windows(3), "", "")),
            roles: vec![a(1.0), b(1.0)],
        },
        // A2: serial-explicit sub-cycling (4/7 in windows of 2), initialized, with sub-steps.
        "a2_serial_subcycling_initialized" => Scenario {
            xml: Xml::new(2).scheme(pair(Scheme::serial("A", "B").window(2).windows(5), sub, sub)),
            roles: vec![a(4.0 / 7.0), b(4.0 / 7.0)],
        },
        // A3: waveform degree 0, no sub-steps, only B → A initialized; B steps 0.5.
        "a3_degree_zero" => Scenario {
            xml: Xml::new(2).degree("DataOne", 0).degree("DataTwo", 0).scheme(pair(
                Scheme::serial("A", "B").window(2).windows(5),
                r#"substeps="false""#,
                r#"initialize="true" substeps="false""#,
            )),
            roles: vec![a(4.0 / 7.0), b(0.5)],
        },
        // A4: parallel-explicit sub-cycling, initialized, with sub-steps.
        "a4_parallel_subcycling_initialized" => Scenario {
            xml: Xml::new(2).scheme(pair(Scheme::parallel("A", "B").window(2).windows(5), sub, sub)),
            roles: vec![a(4.0 / 7.0), b(0.4)],
        },
        // A8: parallel-explicit, Δ = 0.75 and max-time 1 (a short last window), no init.
        "a8_parallel_short_last_window" => Scenario {
            xml: Xml::new(2).scheme(pair(Scheme::parallel("A", "B").window(0.75).max_time(1), "", "")),
            roles: vec![a(0.3), b(1.0)],
        },
        // A9: 6400 sub-steps per window of 0.2 (the per-window Kahan sum of coupling-semantics.md §3.1).
        "a9_6400_substeps" => Scenario {
            xml: Xml::new(2).scheme(pair(Scheme::parallel("A", "B").window(0.2).max_time(1), "", "")),
            roles: vec![a(0.2 / 6400.0), b(f64::INFINITY)],
        },
        // Degree 1 without sub-steps against B-spline degrees 2 and 3 (serial, sub-steps on).
        "bspline_degrees_serial" => Scenario {
            xml: Xml::new(2).degree("DataOne", 2).degree("DataTwo", 3).scheme(pair(
                Scheme::serial("A", "B").window(1).windows(4),
                r#"substeps="true""#,
                r#"initialize="true" substeps="true""#,
            )),
            roles: vec![a(0.25), b(0.2)],
        },
        "bspline_degrees_parallel" => Scenario {
            xml: Xml::new(2).degree("DataOne", 3).degree("DataTwo", 2).scheme(pair(
                Scheme::parallel("A", "B").window(1).windows(4),
                sub,
                r#"substeps="true""#,
            )),
            roles: vec![a(1.0 / 3.0), b(0.125)],
        },
        "degree_one_without_substeps" => Scenario {
            xml: Xml::new(2).scheme(pair(
                Scheme::serial("A", "B").window(1).windows(4),
                r#"substeps="false""#,
                r#"substeps="false""#,
            )),
            roles: vec![a(0.25), b(0.3)],
        },
        // A11: time-window-size method="first-participant"; A's steps 1, 2, 3 make the windows.
        "a11_first_participant" => Scenario {
            xml: Xml::new(2).scheme(pair(Scheme::serial("A", "B").first_participant().max_time(6), "", "")),
            roles: vec![
                Role::new("A", &["DataTwo"], &["DataOne"], Steps::Schedule(vec![1.0, 2.0, 3.0])),
                b(f64::INFINITY),
            ],
        },
        // A10: Δ = 2, solver dt 4/7; a 4th step of 4/7 exceeds the window and is refused.
        "a10_step_too_large" => Scenario {
            xml: Xml::new(2).scheme(pair(Scheme::parallel("A", "B").window(2).windows(2), "", "")),
            roles: vec![Role::new("A", &["DataTwo"], &["DataOne"], Steps::Unchecked(vec![4.0 / 7.0; 8])), b(2.0)],
        },
        // A17: 3D, vector DataOne, B initializes DataTwo.
        "a17_initialized_3d_vector" => Scenario {
            xml: Xml::new(3).vector("DataOne").scheme(pair(
                Scheme::serial("A", "B").window(1).windows(3),
                "",
                r#"initialize="true""#,
            )),
            roles: vec![a(0.5), b(1.0)],
        },
        // A20: with sub-steps, a step without writeData sends a zero sample.
        "a20_unwritten_substep" => Scenario {
            xml: Xml::new(2).scheme(Scheme::serial("A", "B").window(1).windows(2).ex_with(
                "DataOne",
                "A",
                "B",
                r#"substeps="true""#,
            )),
            roles: vec![
                Role { silent_steps: vec![0, 3], ..fixed("A", &[], &["DataOne"], 0.25) },
                fixed("B", &["DataOne"], &[], 0.5),
            ],
        },
        // A21: nearest-neighbor read-consistent and write-conservative, vector DataTwo.
        "a21_nearest_neighbor" => Scenario {
            xml: Xml::new(2).vector("DataTwo").scheme(pair(Scheme::serial("A", "B").window(1).windows(3), "", "")),
            roles: vec![a(0.5).at(&[0.0, 0.0, 1.0, 0.0, 2.0, 0.0]), b(1.0).at(&[0.4, 0.0, 1.6, 0.0])],
        },
        // coupling-semantics.md §5.5: three participants; Solid is second in schemes with Δ = 2 and Δ = 3.
        "three_participants_compositional" => {
            let init = r#"initialize="true""#;
            let scheme = |fluid: &str, f: &str, s: &str, w: u32| {
                Scheme::serial(fluid, "Solid")
                    .window(w)
                    .max_time(12)
                    .ex_with(f, fluid, "Solid", init)
                    .ex(s, "Solid", fluid)
            };
            Scenario {
                xml: Xml::new(2).scheme(scheme("Fluid1", "F1", "S1", 2)).scheme(scheme("Fluid2", "F2", "S2", 3)),
                roles: vec![
                    fixed("Fluid1", &["S1"], &["F1"], 2.0),
                    fixed("Fluid2", &["S2"], &["F2"], 1.5),
                    fixed("Solid", &["F1", "F2"], &["S1", "S2"], f64::INFINITY),
                ],
            }
        }
        _ => return None,
    };
    Some(s)
}

/// One recorded answer: a value, or the error a call returned.
type Entry = (String, Result<f64, String>);

/// The value participant `who` writes for `data` at vertex `v`, component `c`, time `t`:
/// quadratic in t, so every interpolation degree shows.
fn value(who: &str, data: &str, v: usize, c: usize, t: f64) -> f64 {
    let base = (who.len() * 7 + data.len() * 3 + data.bytes().map(usize::from).sum::<usize>() % 13) as f64;
    base + t + 0.25 * t * t + 0.1 * v as f64 + 0.01 * c as f64
}

/// Runs `role` on `backend` and records every answer in order.
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
    if initial {
        write_all(p.as_mut(), role, &ids, 0.0)?;
    }
    // Misuse (coupling-semantics.md §2.12): refused by both backends, and harmless.
    out.push(("advance before initialize".into(), p.advance(1.0).map(|()| 0.0).map_err(|e| e.message)));
    p.initialize()?;
    let (mut t, mut step) = (0.0, 0usize);
    while p.is_coupling_ongoing()? {
        let max = p.get_max_time_step_size()?;
        out.push((format!("step {step} max dt"), Ok(max)));
        let dt = match &role.steps {
            Steps::Fixed(h) => h.min(max),
            Steps::Schedule(list) => list.get(step).map_or(max, |h| h.min(max)),
            Steps::Unchecked(list) => list.get(step).copied().unwrap_or(max),
        };
        for data in &role.reads {
            for (what, rel) in [("0", 0.0), ("dt/2", 0.5 * dt), ("dt", dt)] {
                read_all(p.as_mut(), &own, data, &ids, rel, &format!("step {step} {data} rel {what}"), &mut out);
            }
        }
        if !role.silent_steps.contains(&step) {
            write_all(p.as_mut(), role, &ids, t + dt)?;
        }
        let dt = match p.advance(dt) {
            Ok(()) => dt,
            Err(e) => {
                out.push((format!("step {step} advance({dt:?})"), Err(e.message)));
                p.advance(max)?;
                max
            }
        };
        t += dt;
        out.push((format!("step {step} window complete"), Ok(flag(p.is_time_window_complete()?))));
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

fn write_all(p: &mut dyn Coupling, role: &Role, ids: &[i32], t: f64) -> Result<(), CouplingError> {
    let own = mesh(role.me);
    for data in &role.writes {
        let d = p.get_data_dimensions(&own, data)?;
        let values: Vec<f64> = (0..ids.len() * d).map(|k| value(role.me, data, k / d, k % d, t)).collect();
        p.write_data(&own, data, ids, &values)?;
    }
    Ok(())
}

fn read_all(p: &mut dyn Coupling, own: &str, data: &str, ids: &[i32], rel: f64, label: &str, out: &mut Vec<Entry>) {
    let d = match p.get_data_dimensions(own, data) {
        Ok(d) => d,
        Err(e) => return out.push((label.to_string(), Err(e.message))),
    };
    let mut values = vec![0.0; ids.len() * d];
    match p.read_data(own, data, ids, rel, &mut values) {
        Ok(()) => out.extend(values.iter().enumerate().map(|(k, v)| (format!("{label} [{k}]"), Ok(*v)))),
        Err(e) => out.push((label.to_string(), Err(e.message))),
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

/// Runs every role of `name` on `backend`, each in its own process; entries per role.
fn run_on(name: &str, backend: &str) -> Vec<Vec<Entry>> {
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
    children.iter().map(|(_, out, _)| parse(&std::fs::read_to_string(out).expect("entries file"))).collect()
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
    let roles = scenario(name).expect("known scenario").roles;
    let mut problems = Vec::new();
    let (mut compared, mut both_failed, mut worst) = (0usize, 0usize, 0.0f64);
    for ((role, n), r) in roles.iter().zip(&native).zip(&real) {
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
                    if diff.is_nan() || diff > TOL {
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
        "{name}: {compared} values compared, max |native − preCICE| = {worst:e}; {both_failed} calls refused by both"
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
