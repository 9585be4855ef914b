//! Reads the regenerated RM3 file of the shared data folder (next to the repository) and checks it
//! against the figures of docs/design/tdpf-loads.md (§9.1, §9.3, §2, §3).

use nalgebra::{DMatrix, Vector6};
use tidelink_adapter_core::testing;
use tidelink_bemio::{self as bemio, HydroData, WaterDepth};
use tidelink_tdpf_solver::hydrostatics::{equilibrium, hydrostatic_force};

/// The file; panics naming it when the shared data folder is not there (the tests calling it
/// are ignored then, unless TIDELINK_REQUIRE_SHARED=1; docs/testing.md).
fn load() -> HydroData {
    match bemio::read(&testing::shared_path("data/rm3/rm3.h5")) {
        Ok(data) => data,
        Err(e) => panic!("{e}"),
    }
}

fn assert_rel(what: &str, got: f64, expected: f64, tol: f64) {
    let rel = ((got - expected) / expected).abs();
    assert!(rel <= tol, "{what}: got {got:.6e}, expected {expected:.6e} (relative error {rel:.2e} > {tol:.0e})");
}

/// Linear interpolation of `f(k)` (k = frequency index) at `w` on the file's grid.
fn interp(data: &HydroData, w: f64, f: impl Fn(usize) -> f64) -> f64 {
    let k = data.omega.iter().position(|&x| x > w).expect("w inside the grid");
    let (w0, w1) = (data.omega[k - 1], data.omega[k]);
    let s = (w - w0) / (w1 - w0);
    f(k - 1) * (1.0 - s) + f(k) * s
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn parameters_and_bodies() {
    let data = load();
    assert_eq!((data.rho, data.g, data.depth), (1000.0, 9.81, WaterDepth::Infinite));
    assert_eq!(data.code.as_deref(), Some("WAMIT"));
    assert_eq!(data.omega.len(), 260);
    // WAMIT prints periods, so ω = 2π/T is 0.02 … 5.20 rad/s only to about 1e-6 relative.
    assert_rel("first ω", data.omega[0], 0.02, 1e-5);
    assert_rel("last ω", data.omega[259], 5.20, 1e-5);
    assert_eq!(data.headings_deg, vec![0.0]);
    let names: Vec<&str> = data.bodies.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["float", "spar"]);
    assert!(bemio::check_body_names(&data, &["float", "spar"], true).unwrap().is_empty());

    let (float, spar) = (&data.bodies[0], &data.bodies[1]);
    assert_eq!((float.cg.x, float.cg.y, float.cg.z), (0.0, 0.0, -0.72));
    assert_eq!((spar.cg.x, spar.cg.y, spar.cg.z), (0.0, 0.0, -21.29));
    // The layout listing prints cb to 7 significant figures.
    assert!((float.cb.z + 1.292734).abs() < 1e-6 && (float.cb.y - 3e-6).abs() < 1e-7, "{}", float.cb);
    assert!((spar.cb.z + 15.60399).abs() < 1e-5 && (spar.cb.y + 2e-6).abs() < 1e-7, "{}", spar.cb);
    assert_eq!((float.displaced_volume, spar.displaced_volume), (725.833, 886.687));
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn stiffness_and_added_mass_are_in_si_units() {
    let data = load();
    let rho_g = 1000.0 * 9.81;
    let (float, spar) = (&data.bodies[0], &data.bodies[1]);
    assert_rel("float K33", float.hydrostatic_stiffness[(2, 2)], 285.52 * rho_g, 1e-4);
    assert_rel("float K33 (N/m)", float.hydrostatic_stiffness[(2, 2)], 2.801e6, 1e-3);
    assert_rel("spar K33", spar.hydrostatic_stiffness[(2, 2)], 28.238 * rho_g, 1e-4);
    assert_rel("float K44", float.hydrostatic_stiffness[(3, 3)], 7347.0 * rho_g, 1e-3);
    assert_rel("spar K55", spar.hydrostatic_stiffness[(4, 4)], 5104.0 * rho_g, 1e-3);

    assert_eq!(float.added_mass_inf.shape(), (6, 12));
    assert_rel("float A∞ heave", float.added_mass_inf[(2, 2)], 1.2328e6, 1e-3);
    assert_rel("float–spar A∞(3,9)", float.added_mass_inf[(2, 8)], -1.42e5, 1e-2);
    assert_rel("spar A∞ heave", spar.added_mass_inf[(2, 8)], 8.9188e6, 1e-3);

    // tdpf-loads.md §9.3: frequency-domain coefficients at ω = 2π/8, interpolated between 0.78 and 0.80 rad/s.
    let w = std::f64::consts::PI / 4.0;
    assert_eq!((float.added_mass.len(), float.radiation_damping.len()), (260, 260));
    assert_rel("float A(ω) heave", interp(&data, w, |k| float.added_mass[k][(2, 2)]), 1.447e6, 5e-3);
    assert_rel("spar A(ω) heave", interp(&data, w, |k| spar.added_mass[k][(2, 8)]), 8.909e6, 5e-3);
    assert_rel("float B(ω) heave", interp(&data, w, |k| float.radiation_damping[k][(2, 2)]), 5.872e5, 1e-2);
    assert_rel("spar B(ω) heave", interp(&data, w, |k| spar.radiation_damping[k][(2, 8)]), 1.214e5, 1e-2);
    assert_rel("float–spar B(ω)", interp(&data, w, |k| float.radiation_damping[k][(2, 8)]), -2.67e5, 1e-2);
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn excitation_per_unit_amplitude() {
    let data = load();
    let w = std::f64::consts::PI / 4.0;
    let ex = &data.bodies[0].excitation;
    assert_eq!((ex.re.len(), ex.im.len(), ex.re[0].shape()), (260, 260, (6, 1)));
    let mag = interp(&data, w, |k| ex.re[k][(2, 0)].hypot(ex.im[k][(2, 0)]));
    let phase = interp(&data, w, |k| ex.im[k][(2, 0)].atan2(ex.re[k][(2, 0)])).to_degrees();
    assert_rel("float |X| heave", mag, 1.513e6, 1e-2);
    assert!((phase - 17.3).abs() < 1.0, "float heave excitation phase {phase:.2}°, expected ≈ +17.3°");
    let ex = &data.bodies[1].excitation;
    let mag = interp(&data, w, |k| ex.re[k][(2, 0)].hypot(ex.im[k][(2, 0)]));
    assert_rel("spar |X| heave", mag, 6.887e5, 1e-2);
    let irf = data.bodies[0].excitation.irf.as_ref().expect("excitation IRF");
    assert_eq!((irf.t.len(), irf.f.len(), irf.f[0].shape()), (1001, 1001, (6, 1)));
    assert!((irf.t[0] + 157.0).abs() < 1e-6 && (irf.t[1000] - 157.0).abs() < 1e-6);
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn radiation_irf_reproduces_damping() {
    let data = load();
    for (b, col) in [(0, 2), (1, 8), (0, 8)] {
        let body = &data.bodies[b];
        let irf = body.radiation_irf.as_ref().expect("radiation IRF");
        assert_eq!((irf.t.len(), irf.k.len(), irf.k[0].shape()), (1001, 1001, (6, 12)));
        assert!(irf.t[0] == 0.0 && (irf.t[1000] - 60.0).abs() < 1e-9);
        // B(ω) = ∫₀^∞ K(t) cos ωt dt, trapezoid over the file's t, at the grid frequency nearest 0.785 rad/s.
        let f = data.omega.iter().enumerate().min_by(|a, b| (a.1 - 0.785).abs().total_cmp(&(b.1 - 0.785).abs()));
        let (f, &w) = f.expect("frequencies");
        let integrand: Vec<f64> = irf.t.iter().zip(&irf.k).map(|(t, k)| k[(2, col)] * (w * t).cos()).collect();
        let b_from_k: f64 =
            irf.t.windows(2).zip(integrand.windows(2)).map(|(t, y)| 0.5 * (t[1] - t[0]) * (y[0] + y[1])).sum();
        let b_file = body.radiation_damping[f][(2, col)];
        assert_rel(&format!("body {b} heave row, column {col}: ∫K cos ωt at ω = {w}"), b_from_k, b_file, 1e-2);
    }
}

/// Impulse response `C e^{At} B + D δ` of one realisation on `t` (RK4 on ẋ = A x, x(0) = B).
fn ss_impulse(e: &bemio::StateSpaceEntry, t: &[f64]) -> Vec<f64> {
    let n = e.a.nrows();
    let mut x: DMatrix<f64> = e.b.clone();
    let mut out = Vec::with_capacity(t.len());
    let steps = 20;
    for (s, ts) in t.iter().enumerate() {
        out.push(if n == 0 { 0.0 } else { (&e.c * &x)[(0, 0)] });
        if let Some(next) = t.get(s + 1) {
            let h = (next - ts) / steps as f64;
            for _ in 0..steps {
                let k1 = &e.a * &x;
                let k2 = &e.a * (&x + &k1 * (h / 2.0));
                let k3 = &e.a * (&x + &k2 * (h / 2.0));
                let k4 = &e.a * (&x + &k3 * h);
                x += (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (h / 6.0);
            }
        }
    }
    out
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn state_space_fit_follows_the_irf() {
    let data = load();
    for (b, col) in [(0, 2), (1, 8)] {
        let body = &data.bodies[b];
        let ss = body.state_space.as_ref().expect("state space");
        assert_eq!((ss.entries.len(), ss.entries[0].len()), (6, 12));
        let e = &ss.entries[2][col];
        let n = e.a.nrows();
        assert!((1..=10).contains(&n), "order {n}"); // RM3 heave: order 2, R² ≈ 0.97 / 0.98 (BEMIO target 0.95)
        assert_eq!((e.b.shape(), e.c.shape()), ((n, 1), (1, n)));
        let irf = body.radiation_irf.as_ref().expect("radiation IRF");
        let k: Vec<f64> = irf.k.iter().map(|m| m[(2, col)]).collect();
        let fit = ss_impulse(e, &irf.t);
        let err: f64 = k.iter().zip(&fit).map(|(a, b)| (a - b).powi(2)).sum();
        let norm: f64 = k.iter().map(|a| (a - k.iter().sum::<f64>() / k.len() as f64).powi(2)).sum();
        let r2 = 1.0 - err / norm;
        assert!(r2 > 0.95, "body {b} heave state space: R² = {r2:.3} against K(t)");
    }
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn hydrostatic_equilibrium_balances_weight() {
    let data = load();
    for (body, volume) in data.bodies.iter().zip([725.833, 886.687]) {
        let f = hydrostatic_force(&data, body, &Vector6::zeros(), None);
        assert_rel(&format!("{} buoyancy", body.name), f[2], volume * 1000.0 * 9.81, 1e-12);
        assert!(f[0].abs() < 1e-9 && f[1].abs() < 1e-9, "{f}");
        assert!(f[3].abs() < 1e2 && f[4].abs() < 1e2 && f[5].abs() < 1e-9, "small cb offset moments only: {f}");
        // 10 cm down: the waterplane adds K33 · 0.1 m upward.
        let down = Vector6::new(0.0, 0.0, -0.1, 0.0, 0.0, 0.0);
        let f_down = hydrostatic_force(&data, body, &down, None);
        assert_rel("heave restoring", f_down[2] - f[2], 0.1 * body.hydrostatic_stiffness[(2, 2)], 1e-9);
        assert_eq!(equilibrium(body)[2], body.cg.z);
    }
}
