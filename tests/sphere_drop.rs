//! End-to-end tests of the sphere_drop case: `tidelink-buoyancy` (Fluid) and `tidelink-mbs`
//! (Solid) run in threads through the native engine, each test in its own temporary copy of
//! `configs/sphere_drop` (rendezvous files under `exchange-directory="{dir}"`). The coupled
//! trajectory is read back from the Solid's CSV output and compared with a monolithic
//! integration of the same physics written here, independently of both solver libraries.

use std::f64::consts::PI;
use tidelink_mbs::io::output::{self, Row};

mod support;
use support::case::{self, text, tidelink};
use support::in_threads;
use support::temp_copy::{edited, without_fps, TempCopy};

// The physics of the shipped case (configs/sphere_drop).
const R: f64 = 0.12;
const RHO: f64 = 1000.0;
const G: f64 = 9.81;
const M: f64 = 3.62;
const Z_RELEASE: f64 = 0.18;
const CD: f64 = 0.5;
/// The shipped case's integrator type (for a free body, the semi-implicit Euler update).
const EULER: &str = "Euler_implicit_linearized";

/// The ball in water as one system (the reference): `m z'' = −m g + ρ g V(h) − ½ ρ C_d A(h) |v| v`.
struct Monolithic {
    cd: f64,
}

impl Monolithic {
    fn accel(&self, z: f64, v: f64) -> f64 {
        let h = (R - z).clamp(0.0, 2.0 * R);
        let volume = PI * h * h * (3.0 * R - h) / 3.0;
        let area = if h <= 0.0 {
            0.0
        } else if h <= R {
            PI * (2.0 * R * h - h * h)
        } else {
            PI * R * R
        };
        -G + (RHO * G * volume - 0.5 * RHO * self.cd * area * v.abs() * v) / M
    }

    /// Classical RK4, `substeps` steps per window; the state at every window end (index 0:
    /// the initial state).
    fn trajectory(&self, z0: f64, window: f64, windows: usize, substeps: usize) -> Vec<(f64, f64)> {
        let h = window / substeps as f64;
        let (mut z, mut v) = (z0, 0.0);
        let mut out = vec![(z, v)];
        for _ in 0..windows {
            for _ in 0..substeps {
                let (k1z, k1v) = (v, self.accel(z, v));
                let (k2z, k2v) = (v + 0.5 * h * k1v, self.accel(z + 0.5 * h * k1z, v + 0.5 * h * k1v));
                let (k3z, k3v) = (v + 0.5 * h * k2v, self.accel(z + 0.5 * h * k2z, v + 0.5 * h * k2v));
                let (k4z, k4v) = (v + h * k3v, self.accel(z + h * k3z, v + h * k3v));
                z += h / 6.0 * (k1z + 2.0 * k2z + 2.0 * k3z + k4z);
                v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
            }
            out.push((z, v));
        }
        out
    }
}

/// Small-amplitude bobbing period: stiffness ρ g π R² (the water-plane area at the
/// equilibrium, centre on the water line) against the mass.
fn bobbing_period() -> f64 {
    2.0 * PI / (RHO * G * PI * R * R / M).sqrt()
}

/// What a coupled run varies from the shipped case.
struct Setup {
    window: f64,
    windows: usize,
    z0: f64,
    drag: f64,
    solid_read: &'static str,
    /// The solver file's integrator type.
    integrator: &'static str,
    /// Run the implicit variant (its own XML, Solid, solver and Fluid files; `solid_read`
    /// and `integrator` are then those of the variant).
    implicit: bool,
}

/// Runs both participants on a temporary copy of the case; the Solid's rows, one per window.
fn coupled(s: &Setup) -> Vec<Row> {
    // The implicit variant (configs/sphere_drop/implicit): its own coupling, Solid and Fluid
    // files around the same model files.
    let variant = if s.implicit { "implicit/" } else { "" };
    let window = format!(r#"<time-window-size value="{}" />"#, s.window);
    let windows = format!(r#"<max-time-windows value="{}" />"#, s.windows);
    let copy = TempCopy::shipped(
        "configs/sphere_drop",
        &format!("{variant}precice-config.xml"),
        &[(r#"<time-window-size value="1e-3" />"#, &window), (r#"<max-time-windows value="1000" />"#, &windows)],
    );
    let (solid, solver, fluid) = if s.implicit {
        (
            copy.text("implicit/solid/participant.yaml", &[("model: ../../solid/model.yaml", "model: model.yaml")]),
            copy.text("implicit/solid/solver.yaml", &[]),
            copy.text("implicit/fluid/participant.yaml", &[("model: ../../fluid/", "model: ")]),
        )
    } else {
        let read = format!("read_data_time: {}", s.solid_read);
        let integrator = (format!("type: {EULER}"), format!("type: {}", s.integrator));
        (
            copy.text("solid/participant.yaml", &[("read_data_time: WINDOW_END", &read)]),
            copy.text("solid/solver.yaml", &[(&integrator.0, &integrator.1)]),
            copy.text("fluid/participant.yaml", &[]),
        )
    };
    let location = format!("location: [0, 0, {}]", s.z0);
    let solid_file = copy.write("solid/participant.yaml", &without_fps(&solid));
    copy.copy("solid/model.yaml", &[("location: [0, 0, 0.18]", &location)]);
    let step = format!("time_step: {}", s.window);
    copy.write("solid/solver.yaml", &edited("solid/solver.yaml", &solver, &[("time_step: 1e-3", &step)]));
    let fluid = edited("fluid/participant.yaml", &fluid, &[("location: [0, 0, 0.18]", &location)]);
    let fluid_file = copy.write("fluid/participant.yaml", &fluid);
    let drag = format!("drag_coefficient: {}", s.drag);
    copy.copy("fluid/buoyancy_model.yaml", &[("drag_coefficient: 0.5", &drag)]);
    let outputs = in_threads::fluid_and_mbs(in_threads::buoyancy, fluid_file, solid_file, &copy.case);
    assert_eq!(outputs.len(), 1, "one CSV file for the ball");
    let rows = output::read(&outputs[0]).expect("read the Solid's CSV");
    assert_eq!(rows.len(), s.windows + 1, "one row per window plus the initial one");
    rows
}

/// Max |z_coupled − z_monolithic| over the run, at every window end.
fn max_error(window: f64, duration: f64) -> f64 {
    max_error_with(window, duration, EULER)
}

fn max_error_with(window: f64, duration: f64, integrator: &'static str) -> f64 {
    max_error_of(window, duration, integrator, false)
}

fn max_error_of(window: f64, duration: f64, integrator: &'static str, implicit: bool) -> f64 {
    let windows = (duration / window).round() as usize;
    let setup = Setup { window, windows, z0: Z_RELEASE, drag: CD, solid_read: "WINDOW_END", integrator, implicit };
    let rows = coupled(&setup);
    let substeps = (window / 1e-5).round() as usize;
    let reference = Monolithic { cd: CD }.trajectory(Z_RELEASE, window, windows, substeps);
    rows.iter().zip(&reference).map(|(r, (z, _))| (r.position.z - z).abs()).fold(0.0, f64::max)
}

/// The coupled drop against the monolithic RK4 reference over the first second (free
/// fall, entry, the first bobs).
///
/// With Fluid first and Solid reading at the window end, the force over window n is
/// evaluated from the ball's state at the window start, and the Solid takes one
/// semi-implicit Euler step per window: the coupled system is exactly the symplectic Euler
/// method applied to the monolithic ODE with step Δ (the window). Its global error is
/// first order, ≈ C·Δ (C ≈ 0.8 m/s here: already g·t/2 in the 0.11 s of free fall), so
/// each halving of the window halves the error; 1.6 leaves room for the higher-order terms.
/// The RK4 reference (step 1e-5 s) is exact to far below these errors. At Δ = 1 ms the
/// first-order estimate is 0.8 mm; we allow 2 mm (1.7 % of the radius, 1.1 % of the drop).
#[test]
fn coupled_drop_matches_the_monolithic_model_at_first_order() {
    let windows = [4e-3, 2e-3, 1e-3];
    let errors: Vec<f64> = windows.iter().map(|w| max_error(*w, 1.0)).collect();
    for (w, e) in windows.iter().zip(&errors) {
        println!("window {w:e} s: max |z − z_ref| over 1 s = {:.4} mm", e * 1e3);
    }
    assert!(errors[2] < 2e-3, "error {:.3} mm at window 1e-3 s exceeds 2 mm", errors[2] * 1e3);
    for k in 1..errors.len() {
        let ratio = errors[k - 1] / errors[k];
        println!("ratio {:e} → {:e}: {ratio:.3}", windows[k - 1], windows[k]);
        assert!(
            ratio >= 1.6,
            "halving the window from {} to {} reduced the error by {ratio:.3} only",
            windows[k - 1],
            windows[k]
        );
    }
}

/// The shipped case on the multibody solver's HHT integrator (one step per 1 ms window)
/// instead of its linearized implicit Euler: the trajectory may move, but by no more than
/// the coupled scheme's stated error, so it must stay within the same 2 mm of the
/// monolithic reference over the first second.
#[test]
fn coupled_drop_on_hht_stays_within_the_stated_error() {
    let (hht, euler) = (max_error_with(1e-3, 1.0, "HHT"), max_error(1e-3, 1.0));
    println!("max |z − z_ref| over 1 s at 1 ms: HHT {:.4} mm, linearized Euler {:.4} mm", hht * 1e3, euler * 1e3);
    assert!(hht < 2e-3, "HHT: error {:.3} mm exceeds 2 mm", hht * 1e3);
}

/// The implicit variant (configs/sphere_drop/implicit): serial-implicit, the force of the
/// window-end state, HHT in the Solid. Each converged window is one HHT step of the ball in
/// water as one system, so the coupling adds no first-order error: at the same window it is
/// closer to the monolithic reference than either explicit run.
#[test]
fn implicit_drop_is_closer_to_the_monolithic_model_than_explicit() {
    for window in [2e-3, 1e-3] {
        let implicit = max_error_of(window, 1.0, "HHT", true);
        let (euler, hht) = (max_error(window, 1.0), max_error_with(window, 1.0, "HHT"));
        println!(
            "window {window:e} s: max |z − z_ref| over 1 s: implicit {:.4} mm, explicit Euler {:.4} mm, explicit HHT {:.4} mm",
            implicit * 1e3,
            euler * 1e3,
            hht * 1e3
        );
        // Second order against first: at 1–2 ms the implicit error is over 50 times smaller.
        assert!(10.0 * implicit < euler.min(hht), "implicit {implicit} vs explicit {euler} / {hht}");
    }
}

/// The drop settles with its centre on the water line. The ball's density is half the
/// water's, so the submerged volume at rest must be half the sphere: z = 0, the fixed point
/// of the coupled scheme as much as of the ODE (at rest the drag vanishes and the force
/// evaluated from the window-start state is the true one). What is left after a while is
/// the decaying bob: quadratic drag only makes the amplitude fall like 1/t (about
/// 0.066 m·s / t here), so the duration is taken from the monolithic model as the time its
/// envelope over one bobbing period falls below 2.5 mm, and the coupled run must then stay
/// within 5 mm of z = 0 over its last period: 4 % of the radius, half of it for the
/// remaining bob and half for the first-order coupling error, which the previous test shows
/// to be under 1 mm.
#[test]
fn coupled_drop_settles_on_the_water_line() {
    let tol = 5e-3;
    let window = 1e-3;
    let period_windows = (bobbing_period() / window).ceil() as usize;
    let reference = Monolithic { cd: CD }.trajectory(Z_RELEASE, window, 200_000, 10);
    let settled = (period_windows..reference.len())
        .find(|&n| reference[n - period_windows..=n].iter().all(|(z, _)| z.abs() < tol / 2.0))
        .expect("the monolithic model settles within 200 s");
    let windows = settled + period_windows;
    println!(
        "monolithic envelope below {} mm after {:.2} s; coupled run of {:.2} s",
        tol / 2.0 * 1e3,
        settled as f64 * window,
        windows as f64 * window
    );
    let rows = coupled(&Setup {
        window,
        windows,
        z0: Z_RELEASE,
        drag: CD,
        solid_read: "WINDOW_END",
        integrator: EULER,
        implicit: false,
    });
    let last = &rows[rows.len() - period_windows..];
    let worst = last.iter().map(|r| r.position.z.abs()).fold(0.0, f64::max);
    let mean = last.iter().map(|r| r.position.z).sum::<f64>() / last.len() as f64;
    let ref_worst = reference[windows - period_windows..=windows].iter().map(|(z, _)| z.abs()).fold(0.0, f64::max);
    println!(
        "last period: max |z| = {:.3} mm (monolithic {:.3} mm), mean z = {:.3} mm, final z = {:.3} mm",
        worst * 1e3,
        ref_worst * 1e3,
        mean * 1e3,
        rows.last().map(|r| r.position.z).unwrap_or(f64::NAN) * 1e3
    );
    assert!(worst < tol, "the ball still moves by {:.2} mm around the water line", worst * 1e3);
}

/// Mechanical energy above the floating equilibrium: kinetic, gravitational and the
/// hydrostatic potential U with −dU/dz = buoyancy. With h = R − z the cap height,
/// U = ρ g ∫₀ʰ V(s) ds = ρ g π (R h³/3 − h⁴/12) (valid for 0 ≤ h ≤ 2R).
fn energy(z: f64, v: f64) -> f64 {
    let u = |z: f64| {
        let h = (R - z).clamp(0.0, 2.0 * R);
        RHO * G * PI * (R * h.powi(3) / 3.0 - h.powi(4) / 12.0)
    };
    0.5 * M * v * v + M * G * z + u(z) - u(0.0)
}

/// Mean energy over each bobbing period of an undamped run.
fn energy_per_period(solid_read: &'static str) -> Vec<f64> {
    let window = 1e-3;
    let per = (bobbing_period() / window).round() as usize;
    // Centre 4 cm above the water line, at rest: the cap height stays within (0, 2R)
    // (it swings about R ± 4 cm, growing to about ± 5.5 cm with the lag), so the motion is
    // nonlinear but smooth: no exit from the water, no full submersion.
    let rows = coupled(&Setup {
        window,
        windows: 10 * per,
        z0: 0.04,
        drag: 0.0,
        solid_read,
        integrator: EULER,
        implicit: false,
    });
    rows[1..]
        .chunks(per)
        .map(|c| c.iter().map(|r| energy(r.position.z, r.linvel.z)).sum::<f64>() / c.len() as f64)
        .collect()
}

/// The one-window lag (docs/design/coupling-semantics.md §6.1) on an undamped bobbing ball (C_d = 0, Fluid first, Solid
/// second). Reading at WINDOW_START, the Solid applies over window n the force the Fluid
/// computed from the state at the start of window n − 1: a restoring force lagging by one
/// window acts as negative damping, E grows like exp(ω² Δ t) — about +100 % over 10
/// periods at Δ = 1 ms. Reading at WINDOW_END the force comes from the window-start state
/// of the same window: symplectic Euler, whose energy error stays bounded (oscillates at
/// O(ωΔ) within a period, no drift), so the period means barely move.
#[test]
fn window_start_lag_pumps_energy_into_an_undamped_ball() {
    let lagged = energy_per_period("WINDOW_START");
    let lag_free = energy_per_period("WINDOW_END");
    let gain = |e: &[f64]| e[e.len() - 1] / e[0] - 1.0;
    let (g_lag, g_free) = (gain(&lagged), gain(&lag_free));
    println!("energy gain over 10 periods: WINDOW_START {:+.2} %, WINDOW_END {:+.4} %", g_lag * 100.0, g_free * 100.0);
    println!(
        "period means (J), WINDOW_START: {:?}",
        lagged.iter().map(|e| (e * 1e4).round() / 1e4).collect::<Vec<_>>()
    );
    assert!(g_lag > 0.5, "the lagged run gained only {:.1} % in 10 periods", g_lag * 100.0);
    assert!(lagged.windows(2).all(|w| w[1] > w[0]), "the lagged run should gain energy period after period");
    assert!(
        g_free.abs() * 3.0 < g_lag,
        "the lag-free run gained {:.2} %, not three times less than {:.2} %",
        g_free * 100.0,
        g_lag * 100.0
    );
}

/// The shipped case as users run it: `tidelink run` starts `tidelink-buoyancy` and
/// `tidelink-mbs` as processes (found next to `tidelink`), and the Solid's trajectory is
/// the monolithic one within the first-order bound of the in-thread test (2 mm at 1 ms).
#[test]
fn shipped_case_runs_as_processes_through_the_launcher() {
    // Up to date, next to this tidelink (same profile and target folder).
    support::participant_programs(&[("tidelink-mbs", "tidelink-mbs"), ("tidelink-buoyancy", "tidelink-buoyancy")]);
    let dir = case::sphere_drop_with(&[]);
    let out = tidelink(&["run"], dir.path());
    let text = text(&out);
    assert!(out.status.success(), "tidelink run failed:\n{text}");
    assert!(text.contains("[Solid]") && text.contains("[Fluid]"), "output lines are prefixed:\n{text}");
    assert!(!text.contains("@progress"), "progress lines are not echoed:\n{text}");
    let rows = output::read(&dir.path().join("solid/output/ball.csv")).expect("the Solid's CSV");
    let last = rows.last().expect("rows");
    assert!((last.time - 1.0).abs() < 1e-12, "the run covers 1000 windows of 1 ms, ended at {}", last.time);
    let reference = Monolithic { cd: CD }.trajectory(Z_RELEASE, 1e-3, 1000, 100);
    let worst = rows
        .iter()
        .map(|r| {
            let n = (r.time / 1e-3).round() as usize;
            (r.position.z - reference[n].0).abs()
        })
        .fold(0.0, f64::max);
    assert!(worst < 2e-3, "coupled vs monolithic: {:.3} mm", worst * 1e3);
    assert!(
        std::fs::read_dir(dir.path().join("precice-run")).map_or(true, |mut d| d.next().is_none()),
        "precice-run/ is empty after a clean run"
    );
}
