//! Golden replays of the three worked modules: each driven through the protocol by the replay
//! harness (`tidelink-pto replay`), its forces, power, energy and saturation events compared
//! with values worked out here by hand from the modules' documented laws, not by the harness.

use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tidelink_mbs_solver::ExternalLaw;
use tidelink_pto::replay::{read_trace, replay, replay_each, Replay};
use tidelink_pto::{ModuleClient, ModuleSpec};

fn module(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name)
}

fn client(name: &str, config: serde_json::Value) -> ModuleClient {
    ModuleClient::new(ModuleSpec {
        label: format!("replay of {name}"),
        command: vec!["python3".into(), module(name).display().to_string()],
        dir: PathBuf::from("."),
        kind: "pto".into(),
        in_names: vec!["displacement".into(), "velocity".into()],
        n_outputs: 1,
        timeout: Duration::from_secs(20),
        config,
    })
}

fn run(name: &str, config: serde_json::Value, trace: &[[f64; 3]], limit: Option<f64>) -> Replay {
    let mut c = client(name, config);
    let r = replay(&mut c, trace, limit).unwrap();
    c.shutdown().unwrap();
    r
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-300)
}

#[test]
fn linear_damper_on_a_sine() {
    // x = A sin(ωt), v = Aω cos(ωt), sampled every 0.05 s over 4 periods of 2 s.
    let (a, w, c, dt) = (0.5, std::f64::consts::PI, 1.2e6, 0.05);
    let trace: Vec<[f64; 3]> =
        (0..=160).map(|n| n as f64 * dt).map(|t| [t, a * (w * t).sin(), a * w * (w * t).cos()]).collect();
    let r = run("linear_damper_pto.py", json!({"damping": c}), &trace, None);
    for row in &r.rows {
        let v = a * w * (w * row.time).cos();
        assert!(close(row.force, -c * v, 1e-12) || row.force.abs() < 1e-6, "{row:?}");
        assert!(close(row.power, c * v * v, 1e-12) || row.power.abs() < 1e-3);
    }
    // Mean of c v² over whole periods is c A²ω²/2; the trapezoidal rule on a periodic
    // integrand over whole periods is exact to round-off.
    let mean = c * a * a * w * w / 2.0;
    assert!(close(r.mean_power(), mean, 1e-9), "{} vs {mean}", r.mean_power());
    assert!(close(r.energy(), mean * 8.0, 1e-9));
    assert_eq!(r.saturation_events(), 0);
}

#[test]
fn adaptive_damping_ramps_clamps_and_saturates() {
    // Constant v = 2 from rest: c_n = min(150, 100 + 5 n) (c0 = 100, gain 0.5, v_ref 1,
    // dt 0.1); F_n = −min(c_n v, 250): saturated from c_n > 125, i.e. n ≥ 6.
    let (v, dt) = (2.0, 0.1);
    let trace: Vec<[f64; 3]> = (0..15).map(|n| [n as f64 * dt, v * n as f64 * dt, v]).collect();
    let cfg = json!({"damping": 100.0, "gain": 0.5, "v_ref": 1.0, "c_min": 50.0, "c_max": 150.0, "f_max": 250.0});
    let r = run("adaptive_damping_pto.py", cfg, &trace, Some(250.0));
    let forces: Vec<f64> = (0..15).map(|n| -f64::min((100.0 + 5.0 * n as f64).min(150.0) * v, 250.0)).collect();
    for (row, f) in r.rows.iter().zip(&forces) {
        assert!(close(row.force, *f, 1e-12), "t = {}: {} vs {f}", row.time, row.force);
    }
    // Rows at the limit, |F| ≥ 250: c_n v ≥ 250 from n = 5 (the module itself clips from n = 6,
    // where c_n v exceeds it; at n = 5 the law gives exactly the limit).
    assert_eq!(r.saturation_events(), 10);
    // Energy: trapezoids of P = −F v = 2|F| over 0.1 s.
    let energy: f64 = forces.windows(2).map(|p| 0.5 * (-p[0] * v - p[1] * v) * dt).sum();
    assert!(close(r.energy(), energy, 1e-12), "{} vs {energy}", r.energy());
}

/// `reset` returns the adaptive module to its initial state in the same process: a trace
/// replayed after it gives the first replay's forces bit for bit, although the first replay
/// moved the coefficient (from c0 = 100 to the clamp at 150, by the law above), and without
/// it the same trace meets the adapted coefficient instead.
#[test]
fn reset_returns_the_adaptive_module_to_its_initial_state() {
    let (v, dt) = (2.0, 0.1);
    let trace: Vec<[f64; 3]> = (0..15).map(|n| [n as f64 * dt, v * n as f64 * dt, v]).collect();
    let cfg = json!({"damping": 100.0, "gain": 0.5, "v_ref": 1.0, "c_min": 50.0, "c_max": 150.0, "f_max": 1e9});
    let forces = |r: &Replay| r.rows.iter().map(|row| row.force).collect::<Vec<_>>();
    let mut c = client("adaptive_damping_pto.py", cfg);
    let pid = {
        c.start(dt).unwrap();
        c.pid()
    };
    let both = replay_each(&mut c, &[trace.clone(), trace.clone()], None).unwrap();
    assert_eq!(c.pid(), pid, "the module process was replaced, not reset");
    // The first replay starts at c0 (F = −c0 v) and ends at the clamp (F = −c_max v).
    assert_eq!((both[0].rows[0].force, both[0].rows[14].force), (-200.0, -300.0));
    assert_eq!(forces(&both[1]), forces(&both[0]), "after reset the module did not start from c0");
    // Without reset the third pass starts where the second ended: at the clamp.
    let again = replay(&mut c, &trace, None).unwrap();
    assert_eq!(again.rows[0].force, -300.0);
    c.shutdown().unwrap();
}

#[test]
fn hydraulic_accumulator_follows_the_gas_law() {
    // Constant v: V(t) = V0 − A v t exactly, p = p0 (V0/V)^γ, F = −A (p − p0) − c v.
    let (area, v0, p0, gamma, valve, v, dt) = (0.01, 0.5, 1.0e6, 1.4, 2.0e3, 0.3, 0.1);
    let trace: Vec<[f64; 3]> = (0..20).map(|n| [n as f64 * dt, v * n as f64 * dt, v]).collect();
    let cfg = json!({"area": area, "v0": v0, "p0": p0, "gamma": gamma, "valve": valve});
    let r = run("hydraulic_accumulator_pto.py", cfg, &trace, None);
    for (n, row) in r.rows.iter().enumerate() {
        let volume = v0 - area * v * n as f64 * dt;
        let f = -area * (p0 * (v0 / volume).powf(gamma) - p0) - valve * v;
        assert!(close(row.force, f, 1e-9), "n = {n}: {} vs {f}", row.force);
        assert!(close(row.power, -f * v, 1e-9));
    }
}

#[test]
fn the_command_line_harness_reads_a_trace_file_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.csv");
    std::fs::write(&trace, "time,displacement,velocity\n0,0,1\n0.5,0.5,1\n1,1,1\n").unwrap();
    assert_eq!(read_trace(&trace).unwrap().len(), 3);
    let run = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tidelink-pto"))
            .args(["replay", &module("linear_damper_pto.py").display().to_string(), &trace.display().to_string()])
            .args(["--config", r#"{"damping": 10}"#, "--limit", "10"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stdout.lines().next(), Some("time_s,displacement_m,velocity_m_s,force_N,power_W,energy_J,saturated"));
    assert_eq!(stdout.lines().nth(3), Some("1,1,1,-10,10,10,1"), "{stdout}");
    assert!(stderr.contains("energy 1.000000e1 J") && stderr.contains("saturation events 3"), "{stderr}");
    // On a hinge the same numbers are an angle, an angular velocity and a torque.
    let out = run(&["--link", "rsda"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.lines().next(),
        Some("time_s,angle_rad,angular_velocity_rad_s,torque_Nm,power_W,energy_J,saturated"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.lines().nth(3), Some("1,1,1,-10,10,10,1"), "{stdout}");
    // Two traces through one module process: a block each, named.
    let second = dir.path().join("second.csv");
    std::fs::write(&second, "0,0,2\n1,2,2\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tidelink-pto"))
        .args(["replay", &module("linear_damper_pto.py").display().to_string()])
        .args([&trace, &second])
        .args(["--config", r#"{"damping": 10}"#])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.lines().filter(|l| l.starts_with("# trace ")).count(), 2, "{stdout}");
    assert_eq!(stdout.lines().last(), Some("1,2,2,-20,40,40,0"), "{stdout}");
    std::fs::write(&trace, "0,0,1\n0,1,1\n").unwrap();
    let e = read_trace(&trace).unwrap_err().to_string();
    assert!(e.contains(":2: time 0 does not increase"), "{e}");
}
