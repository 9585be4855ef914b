//! Excitation of the RM3 bodies from the regenerated shared rm3.h5: the regular-wave force amplitude
//! against the file's X, and the file's excitation IRF convolved with a regular η against the
//! frequency-domain force (docs/design/tdpf-loads.md §9.2, §9.3, §2).

use nalgebra::{Complex, Vector6};
use std::f64::consts::PI;
use tidelink_adapter_core::testing;
use tidelink_bemio::{self as bemio, HydroData};
use tidelink_tdpf_solver::excitation::{ExcitationTable, IrfExcitation, RegularExcitation};
use tidelink_tdpf_solver::waves::{Elevation, Ramp, RegularWave};

/// The file; panics naming it when the shared data folder is not there (the tests calling it
/// are ignored then, unless TIDELINK_REQUIRE_SHARED=1; docs/testing.md).
fn load() -> HydroData {
    match bemio::read(&testing::shared_path("data/rm3/rm3.h5")) {
        Ok(data) => data,
        Err(e) => panic!("{e}"),
    }
}

/// X of `body`, `dof` at heading column 0, interpolated here independently of the library.
fn x_by_hand(data: &HydroData, body: usize, dof: usize, w: f64) -> Complex<f64> {
    let k = data.omega.iter().position(|&x| x > w).expect("w inside the grid");
    let (w0, w1) = (data.omega[k - 1], data.omega[k]);
    let s = (w - w0) / (w1 - w0);
    let e = &data.bodies[body].excitation;
    let at = |f: usize| Complex::new(e.re[f][(dof, 0)], e.im[f][(dof, 0)]);
    at(k - 1) * (1.0 - s) + at(k) * s
}

/// Amplitude and phase (rad, relative to cos ωt) of one DOF of `force` by a least-squares
/// sinusoid fit over one period starting at `t0` (160 samples).
fn fit(force: impl Fn(f64) -> Vector6<f64>, dof: usize, omega: f64, t0: f64) -> (f64, f64) {
    let n = 160;
    let dt = 2.0 * PI / omega / n as f64;
    let (mut a, mut b) = (0.0, 0.0);
    for i in 0..n {
        let t = t0 + i as f64 * dt;
        let f = force(t)[dof];
        a += f * (omega * t).cos();
        b += f * (omega * t).sin();
    }
    let (a, b) = (2.0 * a / n as f64, 2.0 * b / n as f64);
    ((a * a + b * b).sqrt(), (-b).atan2(a))
}

fn wrap_deg(d: f64) -> f64 {
    (d + 540.0).rem_euclid(360.0) - 180.0
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn regular_h2p5_t8_force_amplitude() {
    let data = load();
    let wave = RegularWave::from_height(2.5, 8.0, 0.0, 0.0).unwrap();
    let omega = wave.omega();
    // tdpf-loads.md §9.3 (from rm3.out): |X33|·ρg = 1.513e6 N/m at +17.3° (float), 6.887e5 N/m at −162.7° (plate).
    for (body, x_ref, phase_ref) in [(0, 1.513e6, 17.3), (1, 6.887e5, -162.7)] {
        let table = ExcitationTable::from_hydro(&data, body).unwrap();
        let exc = RegularExcitation::new(&table, &wave, Ramp::None).unwrap();
        let x = x_by_hand(&data, body, 2, omega);
        let amp = exc.amplitudes()[2];
        let phase = exc.coefficients()[2].arg().to_degrees();
        println!(
            "body {body} heave at ω = {omega:.4} rad/s: |X33| = {:.5e} N/m, arg = {phase:.2}°, force amplitude {amp:.5e} N",
            x.norm()
        );
        assert!((amp - 1.25 * x.norm()).abs() <= 1e-9 * amp, "{amp} vs {}", 1.25 * x.norm());
        assert!((x.norm() / x_ref - 1.0).abs() < 5e-3, "|X33| {} vs notes {x_ref}", x.norm());
        assert!(wrap_deg(phase - phase_ref).abs() < 1.0, "phase {phase} vs notes {phase_ref}");
        // The time series has that amplitude: sampled peak over one period.
        let peak = (0..800).map(|i| exc.force(400.0 + i as f64 * 0.01)[2].abs()).fold(0.0, f64::max);
        assert!((peak / amp - 1.0).abs() < 1e-4, "sampled peak {peak} vs {amp}");
    }
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn irf_convolution_matches_frequency_domain() {
    let data = load();
    let wave = RegularWave::from_height(2.5, 8.0, 0.0, 0.0).unwrap();
    let omega = wave.omega();
    for body in 0..2 {
        let table = ExcitationTable::from_hydro(&data, body).unwrap();
        let freq = RegularExcitation::new(&table, &wave, Ramp::None).unwrap();
        let conv = IrfExcitation::new(&table, 0.0, Ramp::None).unwrap();
        let (t_min, t_max) = conv.span();
        for dof in [0, 2, 4] {
            let amp_fd = freq.amplitudes()[dof];
            let phase_fd = freq.coefficients()[dof].arg().to_degrees();
            let (amp, phase) = fit(|t| conv.force(&wave as &dyn Elevation, t), dof, omega, 200.0);
            let (amp_check, _) = fit(|t| freq.force(t), dof, omega, 200.0);
            let rel = amp / amp_fd - 1.0;
            let dphi = wrap_deg(phase.to_degrees() - phase_fd);
            println!(
                "body {body} dof {dof}: FD {amp_fd:.5e} at {phase_fd:.2}°, IRF [{t_min}, {t_max}] s: {amp:.5e} at {:.2}° \
                 (amplitude {:+.3} %, phase {dphi:+.3}°)",
                phase.to_degrees(),
                100.0 * rel
            );
            assert!((amp_check / amp_fd - 1.0).abs() < 1e-9);
            assert!(rel.abs() < 0.02, "body {body} dof {dof} amplitude off by {:.2} %", 100.0 * rel);
            assert!(dphi.abs() < 2.0, "body {body} dof {dof} phase off by {dphi:.2}°");
        }
    }
}
