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
    /// What is written (a function of time by default).
    values: Values,
}

/// What a role writes.
#[derive(Clone)]
enum Values {
    /// [`value`]: a function of time only.
    OfTime,
    /// [`value`] plus `gain` times what the role last read of its first read datum at the
    /// end of the step (same vertex, component 0): a fixed-point problem for implicit schemes.
    Feedback(f64),
    /// One value per `advance`, on every vertex and component (the last one repeated).
    Sequence(Vec<f64>),
}

impl Role {
    fn new(me: &'static str, reads: &[&'static str], writes: &[&'static str], steps: Steps) -> Role {
        Role {
            me,
            vertices: None,
            reads: reads.to_vec(),
            writes: writes.to_vec(),
            steps,
            silent_steps: vec![],
            values: Values::OfTime,
        }
    }
    fn values(mut self, values: Values) -> Role {
        self.values = values;
        self
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
        // A5 / A6: implicit, Δ = 2, 5 windows, exactly 3 iterations, both initialized, sub-steps.
        "a5_serial_implicit_three_iterations" => Scenario {
            xml: Xml::new(2).scheme(pair(three(Scheme::serial_implicit("A", "B")), sub, sub)),
            roles: vec![a(4.0 / 7.0), b(4.0 / 7.0)],
        },
        "a6_parallel_implicit_three_iterations" => Scenario {
            xml: Xml::new(2).scheme(pair(three(Scheme::parallel_implicit("A", "B")), sub, sub)),
            roles: vec![a(4.0 / 7.0), b(0.5)],
        },
        // A7: multi, controller A coupled both ways with B and C, all initialized.
        "a7_multi_three_solvers" => Scenario {
            xml: Xml::new(2).scheme(
                three(Scheme::multi("A", &["B", "C"]))
                    .ex_with("DataAB", "A", "B", sub)
                    .ex_with("DataBA", "B", "A", sub)
                    .ex_with("DataAC", "A", "C", sub)
                    .ex_with("DataCA", "C", "A", sub),
            ),
            roles: vec![
                fixed("A", &["DataBA", "DataCA"], &["DataAB", "DataAC"], 4.0 / 7.0).values(Values::Feedback(0.3)),
                fixed("B", &["DataAB"], &["DataBA"], 0.5).values(Values::Feedback(0.3)),
                fixed("C", &["DataAC"], &["DataCA"], 1.0).values(Values::Feedback(0.3)),
            ],
        },
        // Measured fixed-point iterations without acceleration, cubic waveforms from sub-steps.
        "serial_implicit_fixed_point" => Scenario {
            xml: Xml::new(2).degree("DataOne", 3).degree("DataTwo", 2).scheme(pair(
                measured(Scheme::serial_implicit("A", "B"), &["DataOne", "DataTwo"], 1e-9, 40),
                sub,
                sub,
            )),
            roles: feedback(0.25, 0.2, 0.5),
        },
        "parallel_implicit_fixed_point" => Scenario {
            xml: Xml::new(2).scheme(pair(
                measured(Scheme::parallel_implicit("A", "B"), &["DataOne", "DataTwo"], 1e-9, 40),
                "",
                sub,
            )),
            roles: feedback(0.25, 0.5, 0.4),
        },
        // A12: constant under-relaxation ω = 0.5, measured.
        "a12_constant_relaxation" => Scenario {
            xml: Xml::new(2).scheme(pair(
                measured(Scheme::serial_implicit("A", "B"), &["DataTwo"], 1e-10, 60)
                    .child(r#"<acceleration:constant><relaxation value="0.5"/></acceleration:constant>"#),
                "",
                r#"initialize="true""#,
            )),
            roles: feedback(0.25, 0.5, 0.8),
        },
        // Constant relaxation with sub-steps and mutual initialization (the heat-conduction tutorial's setting).
        "constant_relaxation_substeps" => Scenario {
            xml: Xml::new(2).scheme(pair(
                measured(Scheme::serial_implicit("A", "B"), &["DataOne", "DataTwo"], 1e-8, 60)
                    .child(r#"<acceleration:constant><relaxation value="0.5"/></acceleration:constant>"#),
                sub,
                sub,
            )),
            roles: feedback(0.25, 0.25, 0.2),
        },
        // A13: Aitken, initial relaxation 0.1 (parallel: on both data; serial: on the second's).
        "a13_aitken_serial" => Scenario {
            xml: Xml::new(2).scheme(pair(
                measured(Scheme::serial_implicit("A", "B"), &["DataTwo"], 1e-10, 60).child(accel(
                    "aitken",
                    &["DataTwo"],
                    r#"<initial-relaxation value="0.1"/>"#,
                )),
                "",
                "",
            )),
            roles: feedback(0.25, 0.5, 0.5),
        },
        "a13_aitken_parallel" => Scenario {
            xml: Xml::new(2).scheme(pair(
                measured(Scheme::parallel_implicit("A", "B"), &["DataOne", "DataTwo"], 1e-10, 60).child(accel(
                    "aitken",
                    &["DataOne", "DataTwo"],
                    r#"<initial-relaxation value="0.5"/>"#,
                )),
                sub,
                sub,
            )),
            roles: feedback(0.25, 0.25, 0.5),
        },
        // A14 / A15 / A24: B writes a sequence, one value per advance; measures on B's datum.
        "a14_absolute" => sequence(&[&measure("absolute", r#"limit="0.1""#), r#"<max-iterations value="100"/>"#]),
        "a14_absolute_max3" => sequence(&[&measure("absolute", r#"limit="1e-3""#), r#"<max-iterations value="3"/>"#]),
        "a14_absolute_strict" => sequence(&[
            &measure("absolute", r#"limit="0.1" strict="true""#),
            r#"<max-iterations value="4"/>"#,
        ]),
        "a14_absolute_or_relative" => sequence(&[
            &measure("absolute-or-relative", r#"abs-limit="0.1" rel-limit="1.0""#),
            r#"<min-iterations value="2"/>"#,
            r#"<max-iterations value="10"/>"#,
        ]),
        "a15_residual_relative" => {
            sequence(&[&measure("residual-relative", r#"limit="0.5""#), r#"<max-iterations value="10"/>"#])
        }
        "a24_forced_convergence_logs" => sequence(&[r#"<max-iterations value="3"/>"#]),
        // A16: IQN-ILS with its defaults (initial relaxation 0.1, residual-sum, QR3 1e-2).
        "a16_iqn_ils_defaults" => Scenario {
            xml: Xml::new(2).scheme(pair(
                measured(Scheme::serial_implicit("A", "B"), &["DataTwo"], 1e-6, 10).child(accel(
                    "IQN-ILS",
                    &["DataTwo"],
                    "",
                )),
                "",
                "",
            )),
            roles: feedback(0.5, 0.5, 1.0),
        },
        // IQN-ILS as the perpendicular-flap tutorial sets it up: parallel, both data primary,
        // residual-sum, QR2 1e-2, initial relaxation 0.5, windows reused, sub-steps.
        "iqn_ils_parallel_qr2" => Scenario {
            xml: Xml::new(2).scheme(pair(
                measured(Scheme::parallel_implicit("A", "B"), &["DataOne", "DataTwo"], 1e-8, 50).child(accel(
                    "IQN-ILS",
                    &["DataOne", "DataTwo"],
                    r#"<preconditioner type="residual-sum"/><filter type="QR2" limit="1e-2"/><initial-relaxation value="0.5"/><max-used-iterations value="100"/><time-windows-reused value="3"/>"#,
                )),
                sub,
                sub,
            )),
            roles: feedback(0.25, 0.8, 0.7),
        },
        "iqn_ils_serial_qr1_value" => Scenario {
            xml: Xml::new(2).scheme(pair(
                measured(Scheme::serial_implicit("A", "B"), &["DataTwo"], 1e-8, 50).child(accel(
                    "IQN-ILS",
                    &["DataTwo"],
                    r#"<preconditioner type="value"/><filter type="QR1" limit="1e-6"/><initial-relaxation value="0.3"/><max-used-iterations value="20"/><time-windows-reused value="2"/>"#,
                )),
                "",
                sub,
            )),
            roles: feedback(0.25, 0.9, 0.9),
        },
        // IQN-ILS on every sample of the waveform (reduced-time-grid="false"), columns kept
        // over two windows, five windows.
        "iqn_ils_full_time_grid" => Scenario {
            xml: Xml::new(2).scheme(pair(
                measures(Scheme::serial_implicit("A", "B").window(1).windows(5), &["DataTwo"], 1e-9, 50).child(
                    r#"<acceleration:IQN-ILS reduced-time-grid="false"><data name="DataTwo" mesh="A-Mesh"/><preconditioner type="residual-sum"/><filter type="QR2" limit="1e-3"/><initial-relaxation value="0.5"/><max-used-iterations value="20"/><time-windows-reused value="2"/></acceleration:IQN-ILS>"#,
                ),
                sub,
                sub,
            )),
            roles: feedback(0.4, 0.25, 0.25),
        },
        // IQN-IMVJ (libprecice runs it only when built with MPI: see the ignored tests below).
        "iqn_imvj_parallel" => Scenario {
            xml: Xml::new(2).scheme(pair(
                measured(Scheme::parallel_implicit("A", "B"), &["DataOne", "DataTwo"], 1e-8, 50).child(accel(
                    "IQN-IMVJ",
                    &["DataOne", "DataTwo"],
                    r#"<preconditioner type="residual-sum"/><filter type="QR2" limit="1e-2"/><initial-relaxation value="0.5"/><max-used-iterations value="30"/><time-windows-reused value="0"/>"#,
                )),
                sub,
                sub,
            )),
            roles: feedback(0.25, 0.8, 0.7),
        },
        "iqn_imvj_rs_ls" => Scenario {
            xml: Xml::new(2).scheme(pair(
                measured(Scheme::parallel_implicit("A", "B"), &["DataOne", "DataTwo"], 1e-8, 50).child(accel(
                    "IQN-IMVJ",
                    &["DataOne", "DataTwo"],
                    r#"<preconditioner type="residual-sum"/><initial-relaxation value="0.5"/><max-used-iterations value="30"/><time-windows-reused value="0"/><imvj-restart-mode type="RS-LS" chunk-size="2" reused-time-windows-at-restart="1"/>"#,
                )),
                "",
                "",
            )),
            roles: feedback(0.25, 0.8, 0.7),
        },
        // A18: EA –(serial-explicit)– IA –(serial-implicit)– IB –(serial-explicit)– EB; explicit
        // partners see converged values only.
        "a18_compositional_implicit_explicit" => {
            let init = r#"initialize="true""#;
            let base = |s: Scheme| s.window(1).windows(3);
            Scenario {
                xml: Xml::new(2)
                    .scheme(base(Scheme::serial("IA", "EA")).ex("D-IA-EA", "IA", "EA").ex_with("D-EA", "EA", "IA", init))
                    .scheme(
                        measures(base(Scheme::serial_implicit("IA", "IB")), &["D-IB-IA"], 1e-9, 40)
                            .ex("D-IA-IB", "IA", "IB")
                            .ex("D-IB-IA", "IB", "IA"),
                    )
                    .scheme(base(Scheme::serial("IB", "EB")).ex("D-IB-EB", "IB", "EB").ex_with("D-EB", "EB", "IB", init)),
                roles: vec![
                    fixed("EA", &["D-IA-EA"], &["D-EA"], 0.5).values(Values::Feedback(0.5)),
                    fixed("IA", &["D-IB-IA", "D-EA"], &["D-IA-EA", "D-IA-IB"], 0.5).values(Values::Feedback(0.5)),
                    fixed("IB", &["D-IA-IB", "D-EB"], &["D-IB-IA", "D-IB-EB"], 1.0).values(Values::Feedback(0.5)),
                    fixed("EB", &["D-IB-EB"], &["D-EB"], 1.0).values(Values::Feedback(0.5)),
                ],
            }
        }
        _ => return None,
    };
    Some(s)
}

/// Δ = 2, 5 windows, exactly three iterations (min = max = 3, no measure): A5–A7.
fn three(s: Scheme) -> Scheme {
    s.window(2).windows(5).child(r#"<min-iterations value="3"/>"#).child(r#"<max-iterations value="3"/>"#)
}

/// Δ = 1, 3 windows and [`measures`].
fn measured(s: Scheme, data: &[&str], limit: f64, max: u32) -> Scheme {
    measures(s.window(1).windows(3), data, limit, max)
}

/// A relative measure `limit` on each of `data` (on the first participant's mesh, where the
/// exchanges live), at most `max` iterations.
fn measures(mut s: Scheme, data: &[&str], limit: f64, max: u32) -> Scheme {
    let on = mesh(s.first_name());
    for d in data {
        s = s.child(format!(r#"<relative-convergence-measure data="{d}" mesh="{on}" limit="{limit}"/>"#));
    }
    s.child(format!(r#"<max-iterations value="{max}"/>"#))
}

/// An `<acceleration:kind>` on `data` (first participant's mesh "A-Mesh") with extra children.
fn accel(kind: &str, data: &[&str], children: &str) -> String {
    let data: String = data.iter().map(|d| format!(r#"<data name="{d}" mesh="{}"/>"#, mesh("A"))).collect();
    format!("<acceleration:{kind}>{data}{children}</acceleration:{kind}>")
}

/// A convergence-measure tag on DataTwo (A14/A15), `kind` e.g. "absolute".
fn measure(kind: &str, attrs: &str) -> String {
    format!(r#"<{kind}-convergence-measure data="DataTwo" mesh="{}" {attrs}/>"#, mesh("A"))
}

/// A and B of the two-way pair, both writing `value + gain · read` with steps `dt_a`, `dt_b`.
fn feedback(gain: f64, dt_a: f64, dt_b: f64) -> Vec<Role> {
    vec![
        fixed("A", &["DataTwo"], &["DataOne"], dt_a).values(Values::Feedback(gain)),
        fixed("B", &["DataOne"], &["DataTwo"], dt_b).values(Values::Feedback(gain)),
    ]
}

/// A14/A15/A24: serial-implicit, Δ = 1, 2 windows; B writes 1.0, 1.01, 2.0, 2.5, 2.8, 2.81.
fn sequence(children: &[&str]) -> Scenario {
    let mut s = Scheme::serial_implicit("A", "B").window(1).windows(2);
    for c in children {
        s = s.child(*c);
    }
    let seq = vec![1.0, 1.01, 2.0, 2.5, 2.8, 2.81];
    Scenario {
        xml: Xml::new(2).scheme(pair(s, "", "")),
        roles: vec![
            fixed("A", &["DataTwo"], &["DataOne"], 1.0),
            fixed("B", &["DataOne"], &["DataTwo"], 1.0).values(Values::Sequence(seq)),
        ],
    }
}

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

/// The implicit schemes' log files, `precice-<participant>-<kind>.log`, written into the
/// working directory by both backends.
const LOGS: [&str; 2] = ["iterations", "convergence"];

/// Log columns not compared in scenario `name`, with the reason.
///
/// `iqn_ils_serial_qr1_value` (one unknown, QR1): once a window holds one column more than
/// there are unknowns, libprecice 3.4.1 fails to insert that column into its QR decomposition
/// but keeps it in V and W, so its QR1 filter (which walks the QR's columns) never counts it
/// as deleted; the native engine's filter sees all columns and deletes it. The values, the
/// column counts and the iterations agree; only `DeletedQNColumns` differs (1 against 0).
fn skipped_log_columns(name: &str) -> &'static [&'static str] {
    match name {
        "iqn_ils_serial_qr1_value" => &["DeletedQNColumns"],
        _ => &[],
    }
}

/// Compares two log files column by column: the same header, the same number of rows, equal
/// integers and reals within `tol` relative (the files print 8 significant digits, so the
/// reals are compared to the larger of `tol` and 5e-8 of their magnitude), except the
/// columns named in `skip`; problems go to `out`.
fn compare_logs(what: &str, native: &str, real: &str, tol: f64, skip: &[&str], out: &mut Vec<String>) -> usize {
    let (n, r): (Vec<&str>, Vec<&str>) = (native.lines().collect(), real.lines().collect());
    if n.first() != r.first() {
        out.push(format!("{what}: header native {:?}, preCICE {:?}", n.first(), r.first()));
        return 0;
    }
    if n.len() != r.len() {
        out.push(format!("{what}: {} rows native, {} on preCICE", n.len() - 1, r.len().saturating_sub(1)));
    }
    let header: Vec<&str> = n.first().map(|h| h.split_whitespace().collect()).unwrap_or_default();
    let mut cells = 0;
    for (i, (ln, lr)) in n.iter().zip(&r).enumerate().skip(1) {
        let (cn, cr): (Vec<&str>, Vec<&str>) = (ln.split_whitespace().collect(), lr.split_whitespace().collect());
        if cn.len() != cr.len() {
            out.push(format!("{what} row {i}: native `{ln}`, preCICE `{lr}`"));
            continue;
        }
        for (k, (a, b)) in cn.iter().zip(&cr).enumerate() {
            if header.get(k).is_some_and(|h| skip.contains(h)) {
                continue;
            }
            cells += 1;
            let same = match (a.parse::<i64>(), b.parse::<i64>()) {
                (Ok(x), Ok(y)) => x == y,
                _ => match (a.parse::<f64>(), b.parse::<f64>()) {
                    (Ok(x), Ok(y)) => (x - y).abs() <= tol.max(5e-8 * x.abs().max(y.abs())),
                    _ => a == b,
                },
            };
            if !same {
                out.push(format!("{what} row {i}: native `{ln}`, preCICE `{lr}`"));
                break;
            }
        }
    }
    cells
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
// preCICE is compiled with MPI"); docs/precice-backend.md says how to build one. Against such
// a libprecice 3.4.1 both scenarios agree in window 1 and differ from window 2 on (3
// iterations on preCICE, 2 native): an open difference in how the Jacobian is carried over.
#[test]
#[ignore = "IQN-IMVJ needs a libprecice built with MPI; differs from window 2 on (open, docs/precice-backend.md)"]
fn iqn_imvj_parallel() {
    differential("iqn_imvj_parallel");
}

#[test]
#[ignore = "IQN-IMVJ needs a libprecice built with MPI; differs from window 2 on (open, docs/precice-backend.md)"]
fn iqn_imvj_rs_ls() {
    differential("iqn_imvj_rs_ls");
}
