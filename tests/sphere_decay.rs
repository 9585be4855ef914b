//! Heave decay of a floating sphere (docs/design/tdpf-loads.md §1): `tidelink-mbs` (the sphere on a heave joint,
//! A∞ in its mass matrix) coupled to `tidelink-tdpf` (hydrostatics and radiation memory, still
//! water) through the native engine, in threads, on a temporary copy of `tests/sphere_decay`,
//! against the linear expectation computed here independently:
//!
//! - a monolithic Cummins integration of the same linear model (own integrator, own convolution);
//! - the dominant pole of the frequency-domain heave equation (damped period, log decrement).
//!
//! No external BEM data: the test writes a synthetic BEMIO file for a sphere of radius R = 5 m
//! floating half-submerged (a hemisphere below the still-water level), with Hulme's (1982)
//! heave added mass and damping, so it always runs.
//!
//! The file (`sphere.h5` in the case folder, layout of docs/design/tdpf-loads.md §2,
//! BEMIO's normalisations: A ÷ ρ, B ÷ ρω, K_hs ÷ ρg, IRF ÷ ρ):
//! - ρ = 1000 kg/m³, g = 9.81 m/s², infinite depth, one body, one heading (0°);
//! - cg at the centre (0, 0, 0); cb at the hemisphere's centroid (0, 0, −3R/8); V = ⅔πR³;
//! - hydrostatics: only K33 = ρgπR² (the water-plane area). Every other entry is zero, and so
//!   are all A, B and IRF entries but heave: the prismatic joint removes the other five DOFs, and
//!   zero entries keep them out of the loads and the mass matrix (cb under cg: the buoyancy has
//!   no moment about the cg either);
//! - A33(ω), B33(ω) from Hulme's table (tests/support/mod.rs), on ω = 0.02, 0.04, …, 6 rad/s;
//! - A∞ = ½ρV, Hulme's K → ∞ limit for the heaving hemisphere (his table tends to it from
//!   below: 0.4771 at K = 10);
//! - the radiation IRF K(t) = (2/π)∫₀^ωmax B33(ω) cos ωt dω on t = 0, 0.01, …, 20 s, from the
//!   same interpolated B33 (fine trapezoid quadrature);
//! - excitation re/im zero (the reader requires them; still water makes them irrelevant).
//!
//! The sphere's mass is the displaced water ρV, so weight (the Solid's gravity) and buoyancy
//! (the Fluid's ρgV) cancel at equilibrium and only −K33·z restores.

use hdf5_metno as hdf5;
use nalgebra::Complex;
use std::f64::consts::PI;
use std::path::Path;
use std::time::Instant;
use tidelink_mbs::io::output::{self, Row};

mod support;
use support::in_threads;
use support::temp_copy::TempCopy;
use support::{A_INF_BAR, HULME};

const RHO: f64 = 1000.0;
const G: f64 = 9.81;
/// Sphere radius (m).
const R: f64 = 5.0;
/// Release height above equilibrium (m), at rest.
const Z0: f64 = 1.0;
/// Simulated time of the coupled runs (s): about 13 damped periods (the mode's amplitude is then e^{−0.6·13} < 1 mm).
const DURATION: f64 = 60.0;
/// The coupling window of the main run (s), as rm3's.
const WINDOW: f64 = 0.005;
/// Frequency grid of the file (rad/s): `OMEGA_STEP · (1..=OMEGA_COUNT)`, 0.02 … 6.
const OMEGA_STEP: f64 = 0.02;
const OMEGA_COUNT: usize = 300;
/// IRF span and sampling in the file (s). At 20 s the IRF is below 10⁻³ of K(0) (printed).
const IRF_SPAN: f64 = 20.0;
const IRF_STEP: f64 = 0.01;

/// Displaced volume ⅔πR³ (m³); the sphere's mass is ρ times it.
fn volume() -> f64 {
    2.0 / 3.0 * PI * R.powi(3)
}

fn mass() -> f64 {
    RHO * volume()
}

/// Heave hydrostatic stiffness ρgπR² (N/m).
fn k33() -> f64 {
    RHO * G * PI * R * R
}

/// Nondimensional (Ā, B̄) at K = ω²R/g: linear interpolation in Hulme's table; below K = 0.05 Ā
/// is held and B̄ goes linearly to 0 (no radiation at zero frequency); above K = 10 Ā tends to ½
/// as 1/K and B̄ decays as the power of K its last two rows give (K^−3.3). Outside the table only
/// the IRF's low- and high-frequency ends depend on these choices, far from the heave resonance
/// (K ≈ 1.05).
fn hulme(k: f64) -> (f64, f64) {
    let first = HULME[0];
    let (last, before) = (HULME[HULME.len() - 1], HULME[HULME.len() - 2]);
    if k <= first.0 {
        return (first.1, first.2 * k / first.0);
    }
    if k >= last.0 {
        let power = (before.2 / last.2).ln() / (last.0 / before.0).ln();
        return (A_INF_BAR - (A_INF_BAR - last.1) * last.0 / k, last.2 * (last.0 / k).powf(power));
    }
    let i = HULME.iter().position(|r| r.0 >= k).expect("k inside the table");
    let (lo, hi) = (HULME[i - 1], HULME[i]);
    let s = (k - lo.0) / (hi.0 - lo.0);
    (lo.1 + s * (hi.1 - lo.1), lo.2 + s * (hi.2 - lo.2))
}

/// Dimensional heave added mass (kg) and radiation damping (N s/m) at ω (rad/s).
fn added_mass_and_damping(omega: f64) -> (f64, f64) {
    let (a, b) = hulme(omega * omega * R / G);
    (RHO * volume() * a, RHO * volume() * omega * b)
}

/// The upper end of the IRF quadrature (rad/s): the file's last frequency. B33 is there 0.3 % of
/// its peak, so the cut changes K(t) by well under 1 %.
fn omega_max() -> f64 {
    OMEGA_STEP * OMEGA_COUNT as f64
}

/// Radiation IRF K(t) = (2/π)∫₀^ωmax B33(ω) cos ωt dω (N/(m s)), trapezoid rule with
/// dω = 1 mrad/s (ω·t advances at most 0.02 rad per sample over the 20 s span).
fn irf_table(times: &[f64]) -> Vec<f64> {
    let n = (omega_max() / 1e-3).round() as usize;
    let dw = omega_max() / n as f64;
    let samples: Vec<(f64, f64)> = (0..=n)
        .map(|i| {
            let w = i as f64 * dw;
            let weight = if i == 0 || i == n { dw / 2.0 } else { dw };
            (w, weight * added_mass_and_damping(w).1)
        })
        .collect();
    times.iter().map(|t| 2.0 / PI * samples.iter().map(|(w, b)| b * (w * t).cos()).sum::<f64>()).collect()
}

/// Writes the synthetic BEMIO file (see the module doc) to `path`.
fn write_bemio(path: &Path) {
    let file = hdf5::File::create(path).expect("create the synthetic BEMIO file");
    let put = |name: &str, shape: &[usize], data: &[f64]| {
        let parts: Vec<&str> = name.split('/').filter(|p| !p.is_empty()).collect();
        let mut prefix = String::new();
        for part in &parts[..parts.len() - 1] {
            prefix.push('/');
            prefix.push_str(part);
            if !file.link_exists(&prefix) {
                file.create_group(&prefix).expect("create an HDF5 group");
            }
        }
        let ds = file.new_dataset::<f64>().shape(shape.to_vec()).create(name).expect("create a dataset");
        ds.write_raw(data).expect("write a dataset");
    };
    let omega: Vec<f64> = (1..=OMEGA_COUNT).map(|i| i as f64 * OMEGA_STEP).collect();
    let nf = omega.len();
    put("/simulation_parameters/rho", &[1, 1], &[RHO]);
    put("/simulation_parameters/g", &[1, 1], &[G]);
    put("/simulation_parameters/water_depth", &[1, 1], &[f64::INFINITY]);
    put("/simulation_parameters/w", &[nf, 1], &omega);
    put("/simulation_parameters/wave_dir", &[1, 1], &[0.0]);
    let name = hdf5::types::FixedAscii::<16>::from_ascii("sphere").expect("an ASCII name");
    file.create_group("/body1").and_then(|g| g.create_group("properties")).expect("create /body1/properties");
    file.new_dataset::<hdf5::types::FixedAscii<16>>()
        .shape(())
        .create("/body1/properties/name")
        .and_then(|ds| ds.write_scalar(&name))
        .expect("write the body name");
    put("/body1/properties/cg", &[3, 1], &[0.0, 0.0, 0.0]);
    put("/body1/properties/cb", &[3, 1], &[0.0, 0.0, -3.0 * R / 8.0]);
    put("/body1/properties/disp_vol", &[1, 1], &[volume()]);
    // A (6, 6) matrix with only its (heave, heave) entry, C order.
    let heave_only = |v: f64| {
        let mut m = vec![0.0; 36];
        m[2 * 6 + 2] = v;
        m
    };
    // A (6, 6, n) array whose (heave, heave) row holds `values`.
    let heave_series = |values: &[f64]| {
        let n = values.len();
        let mut m = vec![0.0; 36 * n];
        m[(2 * 6 + 2) * n..(2 * 6 + 3) * n].copy_from_slice(values);
        m
    };
    let h = "/body1/hydro_coeffs";
    put(&format!("{h}/linear_restoring_stiffness"), &[6, 6], &heave_only(k33() / (RHO * G)));
    put(&format!("{h}/added_mass/inf_freq"), &[6, 6], &heave_only(A_INF_BAR * volume()));
    let (a, b): (Vec<f64>, Vec<f64>) = omega.iter().map(|w| added_mass_and_damping(*w)).unzip();
    let a_bar: Vec<f64> = a.iter().map(|a| a / RHO).collect();
    let b_bar: Vec<f64> = b.iter().zip(&omega).map(|(b, w)| b / (RHO * w)).collect();
    put(&format!("{h}/added_mass/all"), &[6, 6, nf], &heave_series(&a_bar));
    put(&format!("{h}/radiation_damping/all"), &[6, 6, nf], &heave_series(&b_bar));
    let nt = (IRF_SPAN / IRF_STEP).round() as usize + 1;
    let t: Vec<f64> = (0..nt).map(|i| i as f64 * IRF_STEP).collect();
    let k: Vec<f64> = irf_table(&t).iter().map(|k| k / RHO).collect();
    put(&format!("{h}/radiation_damping/impulse_response_fun/t"), &[nt, 1], &t);
    put(&format!("{h}/radiation_damping/impulse_response_fun/K"), &[6, 6, nt], &heave_series(&k));
    put(&format!("{h}/excitation/re"), &[6, 1, nf], &vec![0.0; 6 * nf]);
    put(&format!("{h}/excitation/im"), &[6, 1, nf], &vec![0.0; 6 * nf]);
}

/// The sphere's (time, heave) every 0.01 s of a coupled run with coupling window `window`.
fn coupled(window: f64) -> Vec<(f64, f64)> {
    let (window, duration) = (window.to_string(), DURATION.to_string());
    let copy =
        TempCopy::new("tests/sphere_decay", "precice-config.xml", &[("{window}", &window), ("{max_time}", &duration)]);
    write_bemio(&copy.case.path().join("sphere.h5"));
    let solid_file = copy.copy("solid/participant.yaml", &[]);
    copy.copy("solid/solver.yaml", &[("{window}", &window)]);
    copy.copy_all(&["solid/model.yaml", "fluid/tdpf_model.yaml"]);
    let fluid_file = copy.copy("fluid/participant.yaml", &[]);
    let outputs = in_threads::fluid_and_mbs(in_threads::tdpf, fluid_file, solid_file, &copy.case);
    let path = outputs.iter().find(|p| p.ends_with("sphere.csv")).expect("the sphere's CSV");
    let rows: Vec<Row> = output::read(path).expect("read the Solid's CSV");
    rows.iter().map(|r| (r.time, r.position.z)).collect()
}

/// Monolithic Cummins equation `(m + A∞) z̈ + ∫₀^T K(τ) ż(t − τ) dτ + K33 z = 0`, `z(0) = Z0`,
/// `ż(0) = 0`, by the trapezoidal rule (Newmark, average acceleration) at step `h`, the memory
/// integral by the trapezoid rule over the same grid, `ż = 0` before 0, T = the file's IRF span
/// (the Fluid truncates there too). The IRF is evaluated at the lags by the cosine transform, not
/// read from the file. Both rules are second order: at h = 2.5 ms the phase error per period is
/// ~(ωh)²/12 ≈ 10⁻⁶, far below the coupling's first-order error (run once at h/4: every printed
/// figure unchanged to 4 digits). Returns z every `h`.
fn monolithic(h: f64, duration: f64) -> Vec<f64> {
    let lags = (IRF_SPAN / h).round() as usize;
    let taus: Vec<f64> = (0..=lags).map(|s| s as f64 * h).collect();
    // Trapezoid weights folded into the kernel.
    let kernel: Vec<f64> = irf_table(&taus)
        .iter()
        .enumerate()
        .map(|(s, k)| if s == 0 || s == lags { k * h / 2.0 } else { k * h })
        .collect();
    let m = mass() + A_INF_BAR * mass();
    let c = k33();
    let steps = (duration / h).round() as usize;
    let (mut z, mut v, mut a) = (vec![Z0], vec![0.0], -c * Z0 / m);
    let effective = m + kernel[0] * h / 2.0 + c * h * h / 4.0;
    for n in 0..steps {
        // Memory of the known velocities v_{n+1−s}, s = 1..=lags (zero before t = 0).
        let rest: f64 = (1..=lags.min(n + 1)).map(|s| kernel[s] * v[n + 1 - s]).sum();
        let v_pred = v[n] + h / 2.0 * a;
        let z_pred = z[n] + h * v[n] + h * h / 4.0 * a;
        let a_next = -(kernel[0] * v_pred + rest + c * z_pred) / effective;
        v.push(v_pred + h / 2.0 * a_next);
        z.push(z_pred + h * h / 4.0 * a_next);
        a = a_next;
    }
    z
}

/// The heave radiation impedance `A(ω) − iB(ω)/ω` (kg) at real ω: the Fourier transform of the
/// radiation force per unit acceleration, analytic in ω, so it can be continued to the pole.
fn impedance(omega: f64) -> Complex<f64> {
    let (a, b) = added_mass_and_damping(omega);
    Complex::new(a, -b / omega)
}

/// The dominant pole of `−ω²(m + A(ω)) + iωB(ω) + K33 = 0` (time factor e^{iωt}), solved by
/// fixed-point iteration on ω: (damped period 2π/Re ω (s), logarithmic decrement 2π Im ω / Re ω).
///
/// `continued = false`: A and B at the real part of ω, the textbook reading. `true`: the same
/// equation as `−ω²(m + Z(ω)) + K33 = 0`, `Z = A − iB/ω`, with Z continued to the complex ω by
/// its Taylor series to second order about the real part, the derivatives by central differences
/// of the interpolated table with step 0.1 rad/s — about the pole's half-bandwidth
/// Im ω ≈ 0.14 rad/s and wider than the table's node spacing near resonance
/// (0.07 rad/s), so they follow the table's trend and not its interpolation kinks (0.05 or
/// 0.15 rad/s move the decrement by at most 0.6 %). The continuation matters here: A33 falls
/// steeply through resonance (A' ≈ −0.2 ρV per rad/s) and the real-part reading leaves out the
/// term `−ω² · i Im ω · A'`, which adds ~10 % to the damping at the pole.
fn frequency_domain_pole(continued: bool) -> (f64, f64) {
    let step = 0.1;
    let mut omega = Complex::new((k33() / (mass() * (1.0 + A_INF_BAR))).sqrt(), 0.0);
    for _ in 0..200 {
        let (wr, s) = (omega.re, omega.im);
        let next = if continued {
            let z0 = impedance(wr);
            let z1 = (impedance(wr + step) - impedance(wr - step)) / (2.0 * step);
            let z2 = (impedance(wr + step) - z0 * 2.0 + impedance(wr - step)) / (step * step);
            let z = z0 + Complex::new(0.0, s) * z1 - z2 * (s * s / 2.0);
            (Complex::new(k33(), 0.0) / (z + mass())).sqrt()
        } else {
            // The quadratic with A, B frozen at Re ω: ω = iσ ± √(K33/M − σ²), σ = B/2M.
            let (a, b) = added_mass_and_damping(wr);
            let sigma = b / (2.0 * (mass() + a));
            Complex::new((k33() / (mass() + a) - sigma * sigma).sqrt(), sigma)
        };
        if (next - omega).norm() < 1e-12 {
            return (2.0 * PI / next.re, 2.0 * PI * next.im / next.re);
        }
        omega = next;
    }
    panic!("the pole iteration did not converge (last ω = {omega})");
}

/// Period and logarithmic decrement of a decay trace over its first `cycles` oscillations: the
/// period from zero crossings (linear interpolation), the decrement from the first extremum after
/// the release and the one `cycles` periods later (parabolic interpolation through 3 samples).
/// The release itself (t = 0) is not a free-oscillation peak and is skipped.
fn period_and_decrement(trace: &[(f64, f64)], cycles: usize) -> (f64, f64) {
    let mut crossings = Vec::new();
    let mut extrema = Vec::new();
    for i in 1..trace.len() - 1 {
        let ((t0, z0), (t1, z1), (_, z2)) = (trace[i - 1], trace[i], trace[i + 1]);
        if z0 > 0.0 && z1 <= 0.0 || z0 < 0.0 && z1 >= 0.0 {
            crossings.push(t0 + (t1 - t0) * z0 / (z0 - z1));
        }
        if (z1 - z0) * (z2 - z1) < 0.0 {
            // Vertex of the parabola through the three samples (equal spacing).
            let curvature = z0 - 2.0 * z1 + z2;
            let shift = 0.5 * (z0 - z2) / curvature;
            extrema.push((z1 - 0.25 * (z0 - z2) * shift).abs());
        }
    }
    assert!(crossings.len() > 2 * cycles && extrema.len() > 2 * cycles, "too few oscillations in the trace");
    let period = (crossings[2 * cycles] - crossings[0]) / cycles as f64;
    let decrement = (extrema[0] / extrema[2 * cycles]).ln() / cycles as f64;
    (period, decrement)
}

/// The coupled heave (5 ms window) follows the monolithic Cummins solution of the same linear
/// model, the error is first order in the window (doubling it doubles the error), and the period
/// and decay of the first oscillations match the frequency-domain pole.
///
/// Why these tolerances (figures of the last run in brackets):
/// - Coupling error. The Fluid computes the loads from the window-start state and the Solid holds
///   them over the window; its implicit step meets them at the window end, so the hydrostatic
///   and radiation forces lag by about one window: a negative damping ≈ K33·dt = 3.9 kN s/m
///   against B33 ≈ 90 kN s/m at resonance, −4.3 % (the coupled decrement is 4.7 % below the
///   monolithic one). That error peaks near t ≈ 1/δ cycles at ≈ Δδ/(δe) of the release plus the
///   phase drift: ~2 cm at 5 ms [19.5 mm]. Bound 25 mm; the 10 ms run must give an error ratio
///   within 1.5…2.5 (first order: 2) [2.05].
/// - Linear expectation. The trace is not a single damped mode: the release also excites the
///   radiation memory's non-modal part (branch cut), and the pole itself depends on how A, B are
///   continued off the real axis (see [`frequency_domain_pole`]; the textbook real-part reading is
///   printed too: its decrement is ~12 % below the traces'). Against the continued pole, over the
///   first 3 cycles: period within 2 % and decrement within 3 % for the monolithic trace
///   [+0.5 %, +1.0 %]; the coupled trace carries the coupling lag above on top, so its decrement
///   is allowed 7 % [−3.7 %] and its period 2 %.
#[test]
fn sphere_heave_decay_matches_the_linear_expectation() {
    let start = Instant::now();
    let h = WINDOW / 2.0;
    let mono = monolithic(h, DURATION);
    let mono_at = |t: f64| {
        let k = (t / h).round() as usize;
        assert!((k as f64 * h - t).abs() < 1e-6, "output rows on the monolithic grid: {t}");
        mono[k]
    };
    let probe = irf_table(&[0.0, IRF_SPAN]);
    println!("IRF K(0) = {:.4e} N/(m s), K({IRF_SPAN} s)/K(0) = {:.2e}", probe[0], probe[1] / probe[0]);
    println!("monolithic: {:.1} s", start.elapsed().as_secs_f64());
    // The file's A∞ and IRF must reproduce its A(ω) (Kramers–Kronig: A(ω) = A∞ − (1/ω)∫K sin ωt dt),
    // else the time domain (A∞ + IRF) and the frequency domain (A) would be two different models.
    // Checked near resonance, where the decay lives; the truncated span and the table's linear
    // interpolation leave under 0.5 %.
    let dt = IRF_STEP;
    let taus: Vec<f64> = (0..=(IRF_SPAN / dt).round() as usize).map(|i| i as f64 * dt).collect();
    let k = irf_table(&taus);
    for omega in [1.0, 1.43, 2.0] {
        let sine: f64 = taus.iter().zip(&k).map(|(t, k)| k * (omega * t).sin() * dt).sum();
        let from_irf = A_INF_BAR * mass() - sine / omega;
        let table = added_mass_and_damping(omega).0;
        println!(
            "A33({omega} rad/s): {:.4} from A∞ and the IRF, {:.4} Hulme (of ρV)",
            from_irf / mass(),
            table / mass()
        );
        assert!(
            (from_irf / table - 1.0).abs() < 0.02,
            "A∞ and the IRF give A33({omega}) = {from_irf}, the table {table}"
        );
    }

    let max_error = |trace: &[(f64, f64)]| trace.iter().map(|(t, z)| (z - mono_at(*t)).abs()).fold(0.0, f64::max);
    let t0 = Instant::now();
    let trace = coupled(WINDOW);
    println!("coupled run at {WINDOW} s: {:.1} s", t0.elapsed().as_secs_f64());
    assert!((trace.last().expect("rows").0 - DURATION).abs() < 1e-6, "the run reaches {DURATION} s");
    assert!((trace[0].1 - Z0).abs() < 1e-9, "released at {Z0} m: {}", trace[0].1);
    let t1 = Instant::now();
    let trace2 = coupled(2.0 * WINDOW);
    println!("coupled run at {} s: {:.1} s", 2.0 * WINDOW, t1.elapsed().as_secs_f64());
    let (e1, e2) = (max_error(&trace), max_error(&trace2));
    println!(
        "max |z_coupled − z_monolithic| over 0–{DURATION} s: {:.2} mm at {WINDOW} s, {:.2} mm at {} s (ratio {:.2})",
        e1 * 1e3,
        e2 * 1e3,
        2.0 * WINDOW,
        e2 / e1
    );

    let cycles = 3;
    let (t_real, d_real) = frequency_domain_pole(false);
    println!("frequency-domain pole, A and B at its real part: period {t_real:.4} s, log decrement {d_real:.4}");
    let (t_fd, d_fd) = frequency_domain_pole(true);
    let mono_trace: Vec<(f64, f64)> = mono.iter().enumerate().map(|(k, z)| (k as f64 * h, *z)).collect();
    let (t_mono, d_mono) = period_and_decrement(&mono_trace, cycles);
    let (t_c, d_c) = period_and_decrement(&trace, cycles);
    println!("frequency-domain pole, A − iB/ω continued: period {t_fd:.4} s, log decrement {d_fd:.4}");
    println!(
        "first {cycles} cycles, monolithic: period {t_mono:.4} s ({:+.2} %), decrement {d_mono:.4} ({:+.2} %)",
        (t_mono / t_fd - 1.0) * 100.0,
        (d_mono / d_fd - 1.0) * 100.0
    );
    println!(
        "first {cycles} cycles, coupled:    period {t_c:.4} s ({:+.2} %), decrement {d_c:.4} ({:+.2} %)",
        (t_c / t_fd - 1.0) * 100.0,
        (d_c / d_fd - 1.0) * 100.0
    );
    println!("test time {:.1} s", start.elapsed().as_secs_f64());

    assert!(e1 < 0.025 * Z0, "coupled vs monolithic: {e1} m");
    assert!(
        (1.5..2.5).contains(&(e2 / e1)),
        "the coupling error is not first order: {e1} m, {e2} m at twice the window"
    );
    for (what, period, decrement, tol) in [("monolithic", t_mono, d_mono, 0.03), ("coupled", t_c, d_c, 0.07)] {
        assert!((period / t_fd - 1.0).abs() < 0.02, "{what}: period {period} s vs the pole's {t_fd} s");
        assert!((decrement / d_fd - 1.0).abs() < tol, "{what}: decrement {decrement} vs the pole's {d_fd}");
    }
}
