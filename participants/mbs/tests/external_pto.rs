//! External power take-offs through the adapter, with the worked Python modules: one round trip
//! per accepted HHT step whatever Newton does, the linear-damper module against the built-in
//! damper, commit/rollback with checkpoints (a repeated window is bit for bit the same, module
//! state included), the warning for link coefficients that the module replaces, and YAML errors.

use nalgebra::Vector3;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::Adapter;
use tidelink_mbs::adapter::MbsAdapter;
use tidelink_mbs::io::model_yaml;
use tidelink_mbs_solver::{ExternalLink, Hht};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../pto/examples").canonicalize().unwrap()
}

/// A 1000 kg float on a vertical slider above a fixed plate, a spring-damper between them
/// (k = 4e4 N/m, c as given), the float released 0.2 m above rest with no gravity.
fn model(c: f64, external: &str) -> String {
    include_str!("modules/heave_pto.yaml").replace("DAMPING", &c.to_string()).replace("EXTERNAL", external)
}

fn external(module: &str, extra: &str) -> String {
    format!(
        "  external_ptos:
    - link: pto
      command: [python3, {}]
      combine_native: true
      config: {{{extra}}}
",
        examples().join(module).display()
    )
}

fn adapter(yaml: &str) -> MbsAdapter {
    let (mut m, _) = model_yaml::parse_str(yaml, Path::new("model.yaml"), Vector3::zeros()).unwrap();
    // The spring stays native; only the damper is external.
    if let Some(link) = m.forces.find_mut::<ExternalLink>("pto") {
        assert!(link.combine_native());
    }
    MbsAdapter::from_system("Solid", m, Box::new(Hht::default()), 0.01)
}

fn float_z(a: &MbsAdapter) -> (f64, f64) {
    let (_, b) = a.bodies().iter().nth(1).unwrap();
    (b.com_position().z, b.linvel().z)
}

#[test]
fn one_round_trip_per_accepted_hht_step_and_the_builtin_damper_reproduced() {
    let c = 4.0e3;
    let mut builtin = adapter(&model(c, ""));
    // Native spring (combine_native), damping 0 in the file: the module is the damper.
    let mut ext = adapter(&model(0.0, &external("linear_damper_pto.py", &format!("damping: {c}"))));
    ext.start_external_modules().unwrap();
    let (dt, steps) = (0.01, 300);
    let (mut p_builtin, mut p_ext) = (0.0, 0.0);
    for n in 0..steps {
        let t = n as f64 * dt;
        builtin.advance(t, dt).unwrap();
        ext.advance(t, dt).unwrap();
        let link = ext.system_mut().forces.find_mut::<ExternalLink>("pto").unwrap();
        assert_eq!(link.cache().round_trips(), n as u64 + 1, "round trips after step {n}");
        p_builtin += builtin.system().forces.iter().next().unwrap().link_power(builtin.bodies()).unwrap() * dt;
        p_ext += ext.system().forces.iter().next().unwrap().link_power(ext.bodies()).unwrap() * dt;
    }
    let (zb, vb) = float_z(&builtin);
    let (ze, ve) = float_z(&ext);
    assert!((zb - ze).abs() < 2e-3 && (vb - ve).abs() < 5e-3, "built-in ({zb}, {vb}) vs module ({ze}, {ve})");
    // Energy the damper took out (the spring's is returned): within 1 % of each other.
    assert!(p_builtin > 0.0 && ((p_ext - p_builtin) / p_builtin).abs() < 0.01, "{p_ext} vs {p_builtin}");
    ext.finish().unwrap();
}

#[test]
fn checkpoints_roll_the_module_back_and_a_repeated_window_is_identical() {
    let cfg = "area: 0.01, v0: 0.5, p0: 1.0e6, valve: 2.0e3";
    let mut a = adapter(&model(0.0, &external("hydraulic_accumulator_pto.py", cfg)));
    a.start_external_modules().unwrap();
    let dt = 0.01;
    let mut t = 0.0;
    let window = |a: &mut MbsAdapter, t0: f64| {
        for k in 0..10 {
            a.advance(t0 + k as f64 * dt, dt).unwrap();
        }
        a.bodies().save_state().to_bits()
    };
    // Two accepted windows (committed on their output), then a window repeated twice.
    for _ in 0..2 {
        window(&mut a, t);
        t += 10.0 * dt;
        a.write_output(t).unwrap();
    }
    a.write_checkpoint().unwrap();
    let first = window(&mut a, t);
    a.read_checkpoint().unwrap();
    let second = window(&mut a, t);
    assert_eq!(first, second, "the repeated window differs: the module state was not rolled back");
    let (z, _) = float_z(&a);
    assert!((z - 0.2).abs() > 1e-3, "the float did not move");
    a.finish().unwrap();
}

/// A window that an implicit scheme repeats starts from the same checkpoint, so its first step
/// asks the same question: a stateless module is not asked again, one with states is (after its
/// rollback). The test module answers the number of evaluations it has received.
#[test]
fn a_repeated_window_asks_a_stateless_module_nothing_new() {
    let counted = |n_states: u32| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../pto/host/tests/modules/faulty_module.py");
        let yaml = model(0.0, &external("", &format!("count_evaluations: true, n_states: {n_states}")))
            .replace(&examples().join("").display().to_string(), &script.display().to_string());
        let mut a = adapter(&yaml);
        a.start_external_modules().unwrap();
        let dt = 0.01;
        let held = |a: &mut MbsAdapter| a.system_mut().forces.find_mut::<ExternalLink>("pto").unwrap().external_force();
        a.advance(0.0, dt).unwrap();
        a.write_checkpoint().unwrap();
        a.advance(dt, dt).unwrap();
        let first = held(&mut a);
        a.read_checkpoint().unwrap();
        a.advance(dt, dt).unwrap();
        let repeated = held(&mut a);
        a.advance(2.0 * dt, dt).unwrap();
        let next = held(&mut a);
        a.finish().unwrap();
        (first, repeated, next)
    };
    assert_eq!(counted(0), (2.0, 2.0, 3.0));
    assert_eq!(counted(1), (2.0, 3.0, 4.0));
}

/// `rich_state: false` sends the lean state (`kind: pto`, displacement and velocity) and the
/// default the 17 channels of a TSDA (`kind: pto_tsda`): the test module answers 1000 for the
/// lean kind plus the number of inputs it received.
#[test]
fn rich_state_false_sends_the_lean_state() {
    let answer = |rich: &str| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../pto/host/tests/modules/faulty_module.py");
        let yaml =
            model(0.0, &external("", "count_inputs: true").replace("combine_native", &format!("{rich}combine_native")))
                .replace(&examples().join("").display().to_string(), &script.display().to_string());
        let mut a = adapter(&yaml);
        a.start_external_modules().unwrap();
        a.advance(0.0, 0.01).unwrap();
        let out = a.system_mut().forces.find_mut::<ExternalLink>("pto").unwrap().external_force();
        a.finish().unwrap();
        out
    };
    assert_eq!(answer(""), 17.0);
    assert_eq!(answer("rich_state: true\n      "), 17.0);
    assert_eq!(answer("rich_state: false\n      "), 1002.0);
}

#[test]
fn a_replaced_native_law_warns_and_yaml_errors_name_the_line() {
    let yaml =
        model(1.0e3, &external("linear_damper_pto.py", "").replace("combine_native: true", "combine_native: false"));
    let (_, warnings) = model_yaml::parse_str(&yaml, Path::new("model.yaml"), Vector3::zeros()).unwrap();
    let w = warnings.to_string();
    assert!(w.contains("damping_coefficient 1000") && w.contains("combine_native"), "{w}");
    let bad = model(0.0, &external("linear_damper_pto.py", "").replace("link: pto", "link: ptoo"));
    let e = model_yaml::parse_str(&bad, Path::new("model.yaml"), Vector3::zeros()).unwrap_err().to_string();
    let line = 1 + bad.lines().position(|l| l.contains("link: ptoo")).unwrap();
    assert!(
        e.contains(&format!("model.yaml:{line}:")) && e.contains("no TSDA or RSDA named `ptoo`") && e.contains("`pto`"),
        "{e}"
    );
    let bad = model(0.0, &external("linear_damper_pto.py", "").replace("combine_native", "combine_nativ"));
    let e = model_yaml::parse_str(&bad, Path::new("model.yaml"), Vector3::zeros()).unwrap_err().to_string();
    assert!(e.contains("combine_nativ"), "{e}");
}

#[test]
fn a_failing_module_stops_the_step_with_its_error() {
    let mut a = adapter(&model(0.0, &external("linear_damper_pto.py", "damping: not-a-number")));
    let e = a.start_external_modules().unwrap_err().to_string();
    assert!(e.contains("op `initialize`") && e.contains("ValueError") && e.contains("TSDA `pto`"), "{e}");
}
