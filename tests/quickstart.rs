//! The preCICE quickstart's Solid as shipped in `configs/quickstart` (`tidelink-mbs` from its
//! YAML files), without OpenFOAM and without libprecice:
//!
//! - `tidelink check` accepts the case laid out as in the tutorial (the case folder beside the
//!   Fluid's, the XML one folder up), with an XML written here that uses the tutorial's
//!   participant, mesh and data names and its RBF mappings;
//! - a scripted Fluid on the native engine drives the Solid through the spring's stiffening at
//!   1.5 s, and the flap's angle follows a monolithic integration of the same model written
//!   here (RK4), independently of the MBS solver.
//!
//! The XML is ours, not the tutorial's file. The changes for the native engine: its
//! mappings are nearest-neighbor (the native engine has no RBF), which is exact here because
//! the scripted Fluid's mesh has the Solid's points, and the watch-point is left out (the
//! native engine does not write its file yet and refuses it).

use nalgebra::Vector3;
use std::path::Path;
use tidelink_adapter_core::coupling::{self, Backend, Coupling};
use tidelink_adapter_core::testing;
use tidelink_mbs::io::output;

mod support;

const MANIFEST: &str = include_str!("../configs/quickstart/tidelink.yaml");
const PARTICIPANT: &str = include_str!("../configs/quickstart/participant.yaml");
const MODEL: &str = include_str!("../configs/quickstart/model.yaml");
const SOLVER: &str = include_str!("../configs/quickstart/solver.yaml");
const POINTS: &str = include_str!("../configs/quickstart/flap_points.txt");

/// The quickstart's coupling in our words: Solid first, serial-explicit, 25 ms windows for
/// 2.5 s, the Fluid mapping both ways; `{mapping}` and `{exchange}` are filled in per test.
const XML: &str = include_str!("fixtures/quickstart-precice-config.xml");

const RBF: &str = r#"<mapping:rbf direction="read" from="Solid-Mesh" to="Fluid-Mesh" constraint="consistent">
      <basis-function:thin-plate-splines />
    </mapping:rbf>
    <mapping:rbf direction="write" from="Fluid-Mesh" to="Solid-Mesh" constraint="conservative">
      <basis-function:thin-plate-splines />
    </mapping:rbf>"#;

/// The Solid's watch-point, which libprecice writes and the native engine refuses.
const WATCH_POINT: &str = r#"<watch-point mesh="Solid-Mesh" name="Flap-Tip" coordinate="0.25;0.0" />"#;

const NEAREST: &str = r#"<mapping:nearest-neighbor direction="read" from="Solid-Mesh" to="Fluid-Mesh" constraint="consistent" />
    <mapping:nearest-neighbor direction="write" from="Fluid-Mesh" to="Solid-Mesh" constraint="conservative" />"#;

// The model of the shipped files (configs/quickstart/model.yaml), from the tutorial's data:
// a 0.2 × 0.02 m plate of 10000 kg/m³ turning about one end.
const WINDOW: f64 = 0.025;
const END: f64 = 2.5;
const I_HINGE: f64 = 40.0 * (4.0 * 0.2 * 0.2 + 0.02 * 0.02) / 12.0;
const K_SOFT: f64 = 25.0;
const K_STIFF: f64 = 8.0 * K_SOFT;
const T_STIFF: f64 = 1.5;

/// The scripted Fluid's moment about the hinge (N m): it rises to 5 N m, which deflects the
/// flap by about 0.2 rad on the soft spring and 0.025 rad on the stiff one.
fn moment(t: f64) -> f64 {
    5.0 * (1.0 - (-t / 0.2).exp())
}

/// The case laid out as in the tutorial: `<root>/precice-config.xml` and the shipped files in
/// `<root>/solid-tidelink/`. Returns the case folder.
fn lay_out(root: &Path, xml: &str) -> std::path::PathBuf {
    let case = root.join("solid-tidelink");
    std::fs::create_dir_all(&case).unwrap();
    std::fs::write(root.join("precice-config.xml"), xml).unwrap();
    for (name, text) in [
        ("tidelink.yaml", MANIFEST),
        ("participant.yaml", PARTICIPANT),
        ("model.yaml", MODEL),
        ("solver.yaml", SOLVER),
        ("flap_points.txt", POINTS),
    ] {
        std::fs::write(case.join(name), text).unwrap();
    }
    case
}

/// `tidelink check` on the shipped case beside the quickstart-like XML (RBF mappings, the
/// tutorial's exchange directory `..`): accepted, the Fluid external.
#[test]
fn tidelink_check_accepts_the_case() {
    support::participant_programs(&[("tidelink-mbs", "tidelink-mbs")]);
    let root = tempfile::tempdir().unwrap();
    let xml = XML.replace("{mapping}", RBF).replace("{exchange}", "..");
    let case = lay_out(root.path(), &xml);
    let out = support::case::tidelink(&["check"], &case);
    let text = support::case::text(&out);
    assert!(out.status.success(), "tidelink check refused the case:\n{text}");
    assert!(text.contains("case `quickstart`: no errors"), "{text}");
}

/// The outline points of the shipped file (its first line is their count).
fn points() -> Vec<Vector3<f64>> {
    let mut lines = POINTS.lines();
    let n: usize = lines.next().unwrap().trim().parse().unwrap();
    let pts: Vec<Vector3<f64>> = lines
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            Vector3::new(v[0], v[1], v[2])
        })
        .collect();
    assert_eq!(pts.len(), n);
    pts
}

/// The Fluid on the bare coupling API: in every window it reads where the flap's points are
/// and writes forces that are a pure couple of `moment(t)` at the window's end (the time the
/// Solid's next window starts): `F_j = c ẑ × (p_j − p̄)` sums to zero and turns the flap by
/// `c Σ |p_j − p̄|²` about any point, whatever its angle. Returns the moments it sent.
fn scripted_fluid(xml: &Path) -> Result<Vec<f64>, String> {
    let e = |e: coupling::CouplingError| format!("Fluid: {e}");
    let mut c: Box<dyn Coupling> = coupling::open(Backend::Native, "Fluid", xml).map_err(e)?;
    let reference = points();
    let flat: Vec<f64> = reference.iter().flat_map(|p| [p.x, p.y]).collect();
    let mut ids = vec![0; reference.len()];
    c.set_mesh_vertices("Fluid-Mesh", &flat, &mut ids).map_err(e)?;
    c.initialize().map_err(e)?;
    let (mut t, mut sent) = (0.0, Vec::new());
    while c.is_coupling_ongoing().map_err(e)? {
        let dt = c.get_max_time_step_size().map_err(e)?;
        let mut disp = vec![0.0; 2 * reference.len()];
        c.read_data("Fluid-Mesh", "Displacement", &ids, dt, &mut disp).map_err(e)?;
        t += dt;
        let now: Vec<Vector3<f64>> =
            reference.iter().enumerate().map(|(j, p)| p + Vector3::new(disp[2 * j], disp[2 * j + 1], 0.0)).collect();
        let centre = now.iter().sum::<Vector3<f64>>() / now.len() as f64;
        let spread: f64 = now.iter().map(|p| (p - centre).norm_squared()).sum();
        let m = moment(t);
        let scale = m / spread;
        let forces: Vec<f64> = now.iter().flat_map(|p| [-scale * (p.y - centre.y), scale * (p.x - centre.x)]).collect();
        c.write_data("Fluid-Mesh", "Force", &ids, &forces).map_err(e)?;
        c.advance(dt).map_err(e)?;
        sent.push(m);
    }
    c.finalize().map_err(e)?;
    Ok(sent)
}

/// `I θ'' = M(t) − k(t) θ` by RK4 with `steps` steps per window, the spring stiffened from
/// window `stiff_from` on, the moment held over each window at `held[n]` (`None`: the
/// continuous `moment(t)`); θ at every window end.
fn monolithic(held: Option<&[f64]>, steps: usize, stiff_from: usize) -> Vec<f64> {
    let h = WINDOW / steps as f64;
    let windows = (END / WINDOW).round() as usize;
    let (mut th, mut om) = (0.0, 0.0);
    let mut out = vec![0.0];
    for n in 0..windows {
        let k = if n < stiff_from { K_SOFT } else { K_STIFF };
        for s in 0..steps {
            let t0 = n as f64 * WINDOW + s as f64 * h;
            let m = |t: f64| held.map_or_else(|| moment(t), |v| v[n]);
            let acc = |t: f64, th: f64| (m(t) - k * th) / I_HINGE;
            let k1 = (om, acc(t0, th));
            let k2 = (om + 0.5 * h * k1.1, acc(t0 + 0.5 * h, th + 0.5 * h * k1.0));
            let k3 = (om + 0.5 * h * k2.1, acc(t0 + 0.5 * h, th + 0.5 * h * k2.0));
            let k4 = (om + h * k3.1, acc(t0 + h, th + h * k3.0));
            th += h / 6.0 * (k1.0 + 2.0 * k2.0 + 2.0 * k3.0 + k4.0);
            om += h / 6.0 * (k1.1 + 2.0 * k2.1 + 2.0 * k3.1 + k4.1);
        }
        out.push(th);
    }
    out
}

/// The shipped Solid against the scripted Fluid through the stiffening at 1.5 s.
///
/// The Solid reads at each window's start the couple the Fluid computed for that instant, so
/// over window n it turns under `M(t_n)` held (nothing in the first window, `M(0) = 0`). With
/// that held moment the monolithic RK4 (1000 steps per window) and the Solid's HHT (1 ms
/// steps, α = −0.2) integrate the same equation. They agree to a few 1e-4 rad on the soft
/// spring; at the jump of the spring the HHT step carries the acceleration of the soft spring
/// into the first stiff step, a velocity error of about h (1 − γ) Δk θ / I = 1e-3 · 0.3 ·
/// 175 · 0.32 / 0.53 ≈ 0.03 rad/s (γ = 0.7), i.e. some 1e-3 rad of amplitude at ω = 19 rad/s:
/// they must agree to 5e-3 rad. A spring stiffened one window early or late changes the
/// velocity by Δk θ Δ / I ≈ 2.6 rad/s, about 0.1 rad of amplitude: the Solid must be more than
/// 0.05 rad away from those two. Against the continuous moment the difference is the explicit
/// coupling's first-order error: the held moment lags by half a window on average, at most
/// 25 N m/s × 12.5 ms ≈ 0.3 N m at the start, 0.0125 rad on the soft spring; below 0.02 rad.
#[test]
fn scripted_fluid_drives_the_solid_through_the_stiffening_like_the_monolithic_model() {
    assert!(XML.contains(WATCH_POINT));
    let xml = XML.replace("{mapping}", NEAREST).replace("{exchange}", "{dir}").replace(WATCH_POINT, "");
    let tmp = testing::temp_case("");
    let case = lay_out(tmp.path(), &xml.replace("{dir}", &tmp.path().display().to_string()));
    let config = tmp.path().join("precice-config.xml");
    let (c1, c2) = (config.clone(), config.clone());
    let file = case.join("participant.yaml");
    let mut sent = Vec::new();
    let results = testing::run_in_threads::<Result<(Vec<std::path::PathBuf>, Vec<f64>), String>>(vec![
        (
            "Solid",
            Box::new(move || {
                tidelink_mbs::run_with_progress(&file, &c1, Backend::Native, &mut ())
                    .map(|r| (r.outputs, Vec::new()))
                    .map_err(|e| format!("Solid: {e:#}"))
            }),
        ),
        ("Fluid", Box::new(move || scripted_fluid(&c2).map(|m| (Vec::new(), m)))),
    ]);
    let mut outputs = Vec::new();
    for r in results {
        let (o, m) = r.unwrap_or_else(|e| panic!("{e}"));
        outputs.extend(o);
        sent.extend(m);
    }
    let csv = outputs.iter().find(|p| p.extension().is_some_and(|e| e == "csv")).expect("the Solid's CSV");
    let rows = output::read(csv).expect("read the Solid's CSV");
    let windows = (END / WINDOW).round() as usize;
    assert_eq!(rows.len(), windows + 1, "one row per window plus the initial one");
    assert_eq!(sent.len(), windows);
    // Window n is loaded by what the Fluid sent at the end of window n − 1.
    let mut held = vec![0.0];
    held.extend_from_slice(&sent[..windows - 1]);
    let stiff_from = (T_STIFF / WINDOW).round() as usize;
    let reference = monolithic(Some(&held), 1000, stiff_from);
    let continuous = monolithic(None, 1000, stiff_from);
    let late = monolithic(Some(&held), 1000, stiff_from + 1);
    let early = monolithic(Some(&held), 1000, stiff_from - 1);
    let (mut worst, mut worst_cont) = ((0.0f64, 0.0), (0.0f64, 0.0));
    for (n, row) in rows.iter().enumerate() {
        assert!((row.time - n as f64 * WINDOW).abs() < 1e-9, "row {n} at t = {}", row.time);
        let d = (row.rotation.z - reference[n]).abs();
        if d > worst.0 {
            worst = (d, row.time);
        }
        let d = (row.rotation.z - continuous[n]).abs();
        if d > worst_cont.0 {
            worst_cont = (d, row.time);
        }
    }
    let at = |t: f64| rows[(t / WINDOW).round() as usize].rotation.z;
    println!(
        "θ(1.5 s) = {:.5} rad, θ(1.75 s) = {:.5} rad, θ(2.5 s) = {:.5} rad; held-moment model: {:.5}, {:.5}, {:.5}",
        at(1.5),
        at(1.75),
        at(2.5),
        reference[60],
        reference[70],
        reference[100]
    );
    for t in [0.5, 1.0, 1.45, 1.5, 1.525, 1.55, 1.6, 2.0, 2.4] {
        let n = (t / WINDOW).round() as usize;
        println!("t = {t}: θ − θ_held = {:.3e} rad", rows[n].rotation.z - reference[n]);
    }
    println!("max |θ − θ_held| = {:.2e} rad at {:.3} s", worst.0, worst.1);
    println!("max |θ − θ_continuous| = {:.2e} rad at {:.3} s", worst_cont.0, worst_cont.1);
    // The flap really went through the stiffening: deflected on the soft spring, then swinging
    // about the stiff spring's 0.025 rad.
    assert!(at(1.5) > 0.15, "θ(1.5 s) = {}", at(1.5));
    let after: Vec<f64> = rows[61..].iter().map(|r| r.rotation.z).collect();
    assert!(after.iter().cloned().fold(f64::INFINITY, f64::min) < 0.0, "no swing back past 0 after 1.5 s");
    assert!(worst.0 < 5e-3, "the Solid is {:.2e} rad from the held-moment model at {} s", worst.0, worst.1);
    assert!(worst_cont.0 < 2e-2, "first-order coupling error {:.2e} rad at {} s", worst_cont.0, worst_cont.1);
    // A spring stiffened one window early or late would be told apart by far more.
    for (what, other) in [("late", &late), ("early", &early)] {
        let far = rows.iter().zip(other.iter()).map(|(r, th)| (r.rotation.z - th).abs()).fold(0.0, f64::max);
        println!("max |θ − θ_held, stiffened a window {what}| = {far:.3} rad");
        assert!(far > 0.05, "the Solid is only {far:.2e} rad from a flap stiffened a window {what}");
    }
}
