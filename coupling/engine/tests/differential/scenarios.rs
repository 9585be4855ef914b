//! The scenarios of the differential tests (docs/design/coupling-semantics.md §12): for each,
//! the XML and what every participant does. `differential.rs` plays them on both backends.

use crate::common::{mesh, Scheme, Xml};

/// How a participant chooses its step size.
#[derive(Clone)]
pub enum Steps {
    /// `dt = min(solver_dt, getMaxTimeStepSize())`.
    Fixed(f64),
    /// These sizes in turn (capped by the max), then `getMaxTimeStepSize()`.
    Schedule(Vec<f64>),
    /// As `Schedule`, not capped: a refused `advance` is recorded and retried with the max.
    Unchecked(Vec<f64>),
}

/// What one participant does: the canonical loop of coupling-semantics.md §2.2 with the data named here.
#[derive(Clone)]
pub struct Role {
    pub me: &'static str,
    /// Flat coordinates on the own mesh (`None`: one vertex at the origin).
    pub vertices: Option<Vec<f64>>,
    pub reads: Vec<&'static str>,
    pub writes: Vec<&'static str>,
    pub steps: Steps,
    /// 0-based steps in which nothing is written (scenario A20).
    pub silent_steps: Vec<usize>,
    /// What is written (a function of time by default).
    pub values: Values,
}

/// What a role writes.
#[derive(Clone)]
pub enum Values {
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

pub struct Scenario {
    pub xml: Xml,
    pub roles: Vec<Role>,
}

fn fixed(me: &'static str, reads: &[&'static str], writes: &[&'static str], dt: f64) -> Role {
    Role::new(me, reads, writes, Steps::Fixed(dt))
}

/// The two-way exchange of the `engine_*` tests (DataOne A → B, DataTwo B → A).
fn pair(scheme: Scheme, attrs_one: &str, attrs_two: &str) -> Scheme {
    scheme.ex_with("DataOne", "A", "B", attrs_one).ex_with("DataTwo", "B", "A", attrs_two)
}

/// Every scenario, by name (the participant processes rebuild theirs from the name).
pub fn scenario(name: &str) -> Option<Scenario> {
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
        "iqn_imvj_parallel" => imvj_parallel(0),
        "iqn_imvj_windows_reused" => imvj_parallel(2),
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

/// IQN-IMVJ on both data of a parallel-implicit pair, with sub-steps, reusing `reused` windows.
fn imvj_parallel(reused: u32) -> Scenario {
    let sub = r#"initialize="on" substeps="true""#;
    let children = format!(
        r#"<preconditioner type="residual-sum"/><filter type="QR2" limit="1e-2"/><initial-relaxation value="0.5"/><max-used-iterations value="30"/><time-windows-reused value="{reused}"/>"#
    );
    Scenario {
        xml: Xml::new(2).scheme(pair(
            measured(Scheme::parallel_implicit("A", "B"), &["DataOne", "DataTwo"], 1e-8, 50).child(accel(
                "IQN-IMVJ",
                &["DataOne", "DataTwo"],
                &children,
            )),
            sub,
            sub,
        )),
        roles: feedback(0.25, 0.8, 0.7),
    }
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
