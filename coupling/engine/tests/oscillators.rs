//! Two coupled oscillators through the native engine (docs/oscillators.md): both masses of
//! `examples/oscillator.rs` run as participants in threads, serial-implicit with sub-steps,
//! relative measures of 1e-10 on both displacements and no acceleration unless stated; the
//! errors against the normal-mode solution give the observed orders in the window size Δ
//! (4 equal sub-steps per window, so the step is Δ/4 and halves with Δ).
//!
//! Tolerances on orders: each order is log₂ of the ratio of two errors at Δ and Δ/2 with
//! Δ ≤ 0.05 (errors between 5e-2 and 3e-7). There the measured orders lie within 0.15 of the
//! theoretical value (docs/oscillators.md has the full table), and the iteration tolerance (1e-10
//! relative, on displacements of order 1) is over 1000 times below the smallest error used, so
//! it does not show. ±0.3 leaves room for what is left of the pre-asymptotic range while a wrong
//! order, the nearest being 1 away, fails.
//!
//! `cargo test -p tidelink-coupling --test oscillators -- --ignored --nocapture error_table`
//! prints the tables of docs/oscillators.md.

mod common;

#[path = "../examples/oscillator.rs"]
mod oscillator;

use common::*;
use oscillator::{Exact, Integrator, Mass, Options, Outcome, Params, State};
use std::path::PathBuf;
use tidelink_coupling::native::time::Waveform;

const LEFT: &str = "Mass-Left";
const RIGHT: &str = "Mass-Right";
const MAX_ITERATIONS: u32 = 200;

/// The case of configs/oscillators with window `window`, waveform degree `degree` on both data
/// and `extra` children of the scheme (an acceleration), over 1 s.
fn case(window: f64, degree: u32, extra: &[&str]) -> TempCase {
    case_until(window, 1.0, degree, extra)
}

fn case_until(window: f64, max_time: f64, degree: u32, extra: &[&str]) -> TempCase {
    let measure =
        |d: &str| format!(r#"<relative-convergence-measure data="{d}" mesh="{}" limit="1e-10"/>"#, mesh(LEFT));
    let both = r#"initialize="true" substeps="true""#;
    let mut s = Scheme::serial_implicit(LEFT, RIGHT)
        .window(window)
        .max_time(max_time)
        .child(format!(r#"<max-iterations value="{MAX_ITERATIONS}"/>"#))
        .child(measure("Displacement-Left"))
        .child(measure("Displacement-Right"))
        .ex_with("Displacement-Left", LEFT, RIGHT, both)
        .ex_with("Displacement-Right", RIGHT, LEFT, both);
    for e in extra {
        s = s.child(*e);
    }
    Xml::new(2).degree("Displacement-Left", degree).degree("Displacement-Right", degree).scheme(s).case()
}

/// Both masses of `config` in threads, with iteration logs in the case folder.
fn couple(config: PathBuf, left: Options, right: Options) -> (Outcome, Outcome) {
    let c2 = config.clone();
    let p = Params::tutorial();
    run2(
        move || {
            oscillator::simulate(&mut open_logged(&config, LEFT), &p, &left).unwrap_or_else(|e| panic!("{LEFT}: {e}"))
        },
        move || {
            oscillator::simulate(&mut open_logged(&c2, RIGHT), &p, &right).unwrap_or_else(|e| panic!("{RIGHT}: {e}"))
        },
    )
}

fn opts(integrator: Integrator) -> Options {
    Options { integrator, substeps: 4 }
}

/// The larger of the two masses' largest errors at the window ends.
fn error(l: &Outcome, r: &Outcome) -> f64 {
    let exact = Exact::new(&Params::tutorial());
    l.max_error(&exact, 0).max(r.max_error(&exact, 1))
}

/// One coupled run: error, mean iterations per window, most iterations in a window.
struct Run {
    error: f64,
    mean_iterations: f64,
    max_iterations: u32,
    min_iterations: u32,
}

fn coupled(window: f64, degree: u32, integrator: Integrator) -> Run {
    let c = case(window, degree, &[]);
    let (l, r) = couple(cfg(&c), opts(integrator), opts(integrator));
    assert_eq!(l.iterations, r.iterations, "both participants count the same iterations");
    assert_eq!(l.iterations.len(), (1.0 / window).round() as usize, "windows in 1 s");
    Run {
        error: error(&l, &r),
        mean_iterations: l.mean_iterations(),
        max_iterations: *l.iterations.iter().max().expect("windows"),
        min_iterations: *l.iterations.iter().min().expect("windows"),
    }
}

/// log₂ of successive error ratios.
fn orders(errors: &[f64]) -> Vec<f64> {
    errors.windows(2).map(|e| (e[0] / e[1]).log2()).collect()
}

/// The same integrator on the whole two-mass system (no partitioning), `steps` steps of `h`;
/// the displacements after every `every` steps, t = 0 first.
fn monolithic(integrator: Integrator, h: f64, steps: usize, every: usize) -> Vec<[f64; 2]> {
    let p = Params::tutorial();
    let k = [[p.k_wall[0] + p.k12, -p.k12], [-p.k12, p.k_wall[1] + p.k12]];
    let kx = |u: [f64; 2]| [k[0][0] * u[0] + k[0][1] * u[1], k[1][0] * u[0] + k[1][1] * u[1]];
    let acc = |u: [f64; 2]| {
        let f = kx(u);
        [-f[0] / p.m[0], -f[1] / p.m[1]]
    };
    let (mut u, mut v, mut a) = (p.x0, p.v0, acc(p.x0));
    let mut out = vec![u];
    for n in 1..=steps {
        match integrator {
            Integrator::GeneralizedAlpha { rho_inf } => {
                let am = (2.0 * rho_inf - 1.0) / (rho_inf + 1.0);
                let af = rho_inf / (rho_inf + 1.0);
                let (gamma, beta) = (0.5 - am + af, 0.25 * (1.0 - am + af).powi(2));
                let up: [f64; 2] = std::array::from_fn(|i| u[i] + h * v[i] + h * h * (0.5 - beta) * a[i]);
                // [(1−αm)M + (1−αf)βh²K] a₊ = −αm M a − K(αf u + (1−αf) u_pred)
                let rhs_u: [f64; 2] = std::array::from_fn(|i| af * u[i] + (1.0 - af) * up[i]);
                let ku = kx(rhs_u);
                let b: [f64; 2] = std::array::from_fn(|i| -am * p.m[i] * a[i] - ku[i]);
                let c = (1.0 - af) * beta * h * h;
                let m = [
                    [(1.0 - am) * p.m[0] + c * k[0][0], c * k[0][1]],
                    [c * k[1][0], (1.0 - am) * p.m[1] + c * k[1][1]],
                ];
                let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
                let an = [(b[0] * m[1][1] - m[0][1] * b[1]) / det, (m[0][0] * b[1] - m[1][0] * b[0]) / det];
                for i in 0..2 {
                    u[i] = up[i] + beta * h * h * an[i];
                    v[i] += h * ((1.0 - gamma) * a[i] + gamma * an[i]);
                }
                a = an;
            }
            Integrator::RungeKutta4 => {
                let f = |u: [f64; 2], v: [f64; 2]| (v, acc(u));
                let add = |x: [f64; 2], s: f64, d: [f64; 2]| [x[0] + s * d[0], x[1] + s * d[1]];
                let k1 = f(u, v);
                let k2 = f(add(u, h / 2.0, k1.0), add(v, h / 2.0, k1.1));
                let k3 = f(add(u, h / 2.0, k2.0), add(v, h / 2.0, k2.1));
                let k4 = f(add(u, h, k3.0), add(v, h, k3.1));
                for i in 0..2 {
                    u[i] += h / 6.0 * (k1.0[i] + 2.0 * k2.0[i] + 2.0 * k3.0[i] + k4.0[i]);
                    v[i] += h / 6.0 * (k1.1[i] + 2.0 * k2.1[i] + 2.0 * k3.1[i] + k4.1[i]);
                }
            }
        }
        if n % every == 0 {
            out.push(u);
        }
    }
    out
}

/// The largest error of the monolithic scheme at the window ends of Δ = `window`.
fn monolithic_error(integrator: Integrator, window: f64) -> f64 {
    let windows = (1.0 / window).round() as usize;
    let exact = Exact::new(&Params::tutorial());
    monolithic(integrator, window / 4.0, 4 * windows, 4)
        .iter()
        .enumerate()
        .map(|(k, u)| {
            let x = exact.displacement(k as f64 * window);
            (u[0] - x[0]).abs().max((u[1] - x[1]).abs())
        })
        .fold(0.0, f64::max)
}

#[test]
fn exact_solution_is_the_sum_of_the_normal_modes() {
    let p = Params::tutorial();
    let e = Exact::new(&p);
    let two_pi = 2.0 * std::f64::consts::PI;
    assert!((e.omega[0] - two_pi).abs() < 1e-12 && (e.omega[1] - 3.0 * two_pi).abs() < 1e-12, "{:?}", e.omega);
    assert!((e.shape[0][0] - e.shape[0][1]).abs() < 1e-9, "in-phase mode: {:?}", e.shape[0]);
    assert!((e.shape[1][0] + e.shape[1][1]).abs() < 1e-9, "opposite-phase mode: {:?}", e.shape[1]);
    assert_eq!(e.displacement(0.0), [1.0, 0.0]);
    // x(t) = (cos 2πt ± cos 6πt)/2 here; and m ẍ + K x = 0 by central differences at any time.
    for t in [0.1, 0.37, 0.8] {
        let (c1, c3) = ((two_pi * t).cos(), (3.0 * two_pi * t).cos());
        let x = e.displacement(t);
        assert!((x[0] - 0.5 * (c1 + c3)).abs() < 1e-12 && (x[1] - 0.5 * (c1 - c3)).abs() < 1e-12);
        let h = 1e-4;
        let (xm, xp) = (e.displacement(t - h), e.displacement(t + h));
        for i in 0..2 {
            let acc = (xp[i] - 2.0 * x[i] + xm[i]) / (h * h);
            let force = -(p.k_wall[i] + p.k12) * x[i] + p.k12 * x[1 - i];
            assert!((p.m[i] * acc - force).abs() < 1e-4 * p.k12, "mass {i} at t = {t}");
        }
    }
}

/// Generalized-α (second order): second order for every degree. With degree 1 the partner's
/// displacement at t + (1 − αf)·dt is the linear interpolation of its sub-step samples, which
/// is what the monolithic generalized-α uses for the coupling spring: the converged coupled run
/// is the monolithic run, to the iteration tolerance.
#[test]
fn generalized_alpha_is_second_order_for_every_degree_and_degree_one_is_the_monolithic_scheme() {
    let alpha = Integrator::GENERALIZED_ALPHA;
    let windows = [0.05, 0.025, 0.0125];
    for degree in 1..=3 {
        let runs: Vec<Run> = windows.iter().map(|&w| coupled(w, degree, alpha)).collect();
        for (w, r) in windows.iter().zip(&runs) {
            assert!(r.min_iterations >= 2, "degree {degree}, Δ = {w}: implicit, every window iterates");
            assert!(r.max_iterations < MAX_ITERATIONS, "degree {degree}, Δ = {w}: every window converged");
        }
        let o = orders(&runs.iter().map(|r| r.error).collect::<Vec<_>>());
        assert!(o.iter().all(|o| (o - 2.0).abs() <= 0.3), "degree {degree}: orders {o:?}");
    }
    // Degree 1 against the monolithic generalized-α at the window ends.
    let window = 0.025;
    let c = case(window, 1, &[]);
    let (l, r) = couple(cfg(&c), opts(alpha), opts(alpha));
    let mono = monolithic(alpha, window / 4.0, 4 * l.iterations.len(), 4);
    assert_eq!(mono.len(), l.trajectory.len());
    let mut worst: f64 = 0.0;
    for ((m, (_, sl)), (_, sr)) in mono.iter().zip(&l.trajectory).zip(&r.trajectory) {
        worst = worst.max((m[0] - sl.u).abs()).max((m[1] - sr.u).abs());
    }
    assert!(worst < 1e-8, "coupled degree 1 against monolithic generalized-α: {worst:e}");
}

/// Runge–Kutta 4 reads the partner at the sub-steps' midpoints, where the waveform interpolates:
/// degree 1 limits the coupled scheme to second order, degrees 2 and 3 give fourth order (for
/// degree 2 see `degree_two_midpoint_errors_cancel_over_a_window`). With degree 3 the coupled
/// error is not larger than the monolithic Runge–Kutta 4 error at the same step (about a third
/// of it: the coupled stages see the partner's converged, interpolated trajectory instead of its
/// stage values, a different and here more accurate scheme).
#[test]
fn runge_kutta_4_order_follows_the_waveform_degree() {
    let rk4 = Integrator::RungeKutta4;
    let windows = [0.05, 0.025, 0.0125];
    for (degree, want) in [(1, 2.0), (2, 4.0), (3, 4.0)] {
        let runs: Vec<Run> = windows.iter().map(|&w| coupled(w, degree, rk4)).collect();
        assert!(runs.iter().all(|r| r.min_iterations >= 2 && r.max_iterations < MAX_ITERATIONS));
        let errors: Vec<f64> = runs.iter().map(|r| r.error).collect();
        let o = orders(&errors);
        assert!(o.iter().all(|o| (o - want).abs() <= 0.3), "degree {degree}: errors {errors:?}, orders {o:?}");
        if degree == 3 {
            for (w, e) in windows.iter().zip(&errors) {
                let mono = monolithic_error(rk4, *w);
                assert!(*e <= mono, "Δ = {w}: coupled {e:e}, monolithic {mono:e}");
            }
        }
    }
}

/// Why degree 2 gives fourth order with Runge–Kutta 4: sampled at the midpoints of the four
/// sub-steps of a window, the degree-2 waveform of a smooth function is only third order, but
/// its leading error term is odd about the window's centre (the spline through equally spaced
/// samples with averaged knots is symmetric), so the sum of the midpoint errors, which is what a
/// symmetric quadrature such as Runge–Kutta 4's over equal sub-steps sees, is fourth order.
#[test]
fn degree_two_midpoint_errors_cancel_over_a_window() {
    let f = |t: f64| (3.0 * t).exp();
    let midpoint_errors = |degree: u32, window: f64| -> Vec<f64> {
        let mut w = Waveform::new(degree);
        let t0 = 0.2;
        for i in 0..=4 {
            let t = t0 + window * i as f64 / 4.0;
            w.set(t, vec![f(t)]);
        }
        [0.125, 0.375, 0.625, 0.875]
            .iter()
            .map(|s| {
                let t = t0 + window * s;
                w.sample(t).expect("samples")[0] - f(t)
            })
            .collect()
    };
    let (coarse, fine) = (0.025, 0.0125);
    let pointwise = |d: u32| {
        let (a, b) = (midpoint_errors(d, coarse), midpoint_errors(d, fine));
        let o: Vec<f64> = a.iter().zip(&b).map(|(x, y)| (x / y).abs().log2()).collect();
        let sum = (a.iter().sum::<f64>() / b.iter().sum::<f64>()).abs().log2();
        (o, sum)
    };
    let (p1, s1) = pointwise(1);
    let (p2, s2) = pointwise(2);
    assert!(p1.iter().all(|o| (o - 2.0).abs() < 0.5) && (s1 - 2.0).abs() < 0.3, "degree 1: {p1:?}, sum {s1}");
    assert!(p2.iter().all(|o| (o - 3.0).abs() < 0.3), "degree 2 pointwise: {p2:?}");
    assert!((s2 - 4.0).abs() < 0.5, "degree 2, sum over the window: {s2}");
}

/// configs/oscillators/precice-config.xml (written for the example, with a write-consistent
/// mapping where the test builder uses a conservative one: the same on one vertex) gives
/// exactly the run of the builder's case with its settings.
#[test]
fn shipped_config_is_the_tested_case() {
    let c = temp_case(&oscillator::config_variant(0.01, 3, 1.0, "{dir}", ""));
    let (l, r) = couple(cfg(&c), Options::default(), Options::default());
    let b = case(0.01, 3, &[]);
    let (bl, br) = couple(cfg(&b), Options::default(), Options::default());
    assert_eq!(l.iterations, bl.iterations);
    for (x, y) in l.trajectory.iter().zip(&bl.trajectory).chain(r.trajectory.iter().zip(&br.trajectory)) {
        assert_eq!(x, y);
    }
    assert!(l.iterations.iter().all(|&i| (2..MAX_ITERATIONS).contains(&i)));
    let e = error(&l, &r);
    assert!(e > 1e-4 && e < 2e-3, "generalized-α at Δ = 0.01: {e:e}");
}

/// Aitken on this case, by an implementation of its formula written for this test: one window of
/// the coupled generalized-α with degree-1 waveforms (linear between the partners' sub-step
/// samples), Mass-Left's iteration reading Mass-Right's relaxed samples and Mass-Right's reading
/// Mass-Left's new ones; the factor from the window-end residuals only
/// (ω = −ω_prev·r_prev·(r − r_prev)/(r − r_prev)², ω₀ = 0.5 in a window's first iteration, the
/// sign of the last factor kept), applied to every sample. Returns the relative residuals
/// (Mass-Left, Mass-Right) of every iteration of the first window.
fn aitken_by_hand(window: f64) -> Vec<(f64, f64)> {
    let (p, alpha, n) = (Params::tutorial(), Integrator::GENERALIZED_ALPHA, 4);
    let h = window / n as f64;
    let lin = |xs: &[f64], t: f64| {
        let i = ((t / h).floor() as usize).min(n - 1);
        let s = t / h - i as f64;
        (1.0 - s) * xs[i] + s * xs[i + 1]
    };
    let sub_steps = |m: &Mass, s0: State, partner: &[f64]| -> Vec<f64> {
        let mut s = s0;
        let mut xs = vec![s0.u];
        for k in 0..n {
            s = m.step(alpha, s, h, |rel| Ok::<f64, ()>(lin(partner, k as f64 * h + rel))).expect("no error");
            xs.push(s.u);
        }
        xs
    };
    let (ml, mr) = (Mass::new(&p, 0), Mass::new(&p, 1));
    let sl = State { u: p.x0[0], v: p.v0[0], a: ml.acceleration(p.x0[0], p.x0[1]) };
    let sr = State { u: p.x0[1], v: p.v0[1], a: mr.acceleration(p.x0[1], p.x0[0]) };
    // The first measurement of the received Displacement-Left is against zero, not against the
    // initial data (as in preCICE: docs/design/coupling-semantics.md §11.3).
    let (mut x_right, mut left_before, mut omega, mut r_prev) = (vec![sr.u; n + 1], 0.0, 0.5f64, None);
    let mut residuals = Vec::new();
    for _ in 0..MAX_ITERATIONS {
        let x_left = sub_steps(&ml, sl, &x_right);
        let new_right = sub_steps(&mr, sr, &x_left);
        let res =
            ((x_left[n] - left_before).abs() / x_left[n].abs(), (new_right[n] - x_right[n]).abs() / new_right[n].abs());
        residuals.push(res);
        if res.0 <= 1e-10 && res.1 <= 1e-10 {
            break;
        }
        let r = new_right[n] - x_right[n];
        omega = match r_prev {
            None => omega.signum() * f64::min(0.5, omega.abs()),
            Some(rp) => -omega * rp * (r - rp) / ((r - rp) * (r - rp)),
        };
        for i in 1..=n {
            x_right[i] = omega * new_right[i] + (1.0 - omega) * x_right[i];
        }
        (r_prev, left_before) = (Some(r), x_left[n]);
    }
    residuals
}

/// Aitken is erratic here, and that is its formula, not the engine: at Δ = 0.2 the first
/// window takes over 100 iterations where plain iterations take 9, and the engine's
/// convergence log agrees with `aitken_by_hand` to the log's precision for the first 60
/// iterations. (The factor comes from one number, the window-end residual, and relaxes all
/// four sub-step samples alike; docs/oscillators.md.)
#[test]
fn aitken_follows_its_formula_iteration_by_iteration() {
    let window = 0.2;
    let aitken = format!(
        r#"<acceleration:aitken><data name="Displacement-Right" mesh="{}"/></acceleration:aitken>"#,
        mesh(LEFT)
    );
    let c = case_until(window, window, 1, &[&aitken]);
    let alpha = opts(Integrator::GENERALIZED_ALPHA);
    let (l, _) = couple(cfg(&c), alpha.clone(), alpha.clone());
    let by_hand = aitken_by_hand(window);
    assert!(by_hand.len() > 100, "by hand: {} iterations", by_hand.len());
    assert_eq!(l.iterations, vec![by_hand.len() as u32]);
    let log = std::fs::read_to_string(c.path().join("precice-Mass-Right-convergence.log")).expect("convergence log");
    let rows: Vec<Vec<f64>> =
        log.lines().skip(1).map(|l| l.split_whitespace().map(|x| x.parse().expect("number")).collect()).collect();
    assert_eq!(rows.len(), by_hand.len());
    for (i, (row, want)) in rows.iter().zip(&by_hand).take(60).enumerate() {
        let rel = |a: f64, b: f64| ((a - b) / b).abs();
        assert!(
            rel(row[2], want.0) < 1e-6 && rel(row[3], want.1) < 1e-6,
            "iteration {}: log {row:?}, by hand {want:?}",
            i + 1
        );
    }
    // Without acceleration the same window converges in 9 iterations.
    let plain = case_until(window, window, 1, &[]);
    let (l, _) = couple(cfg(&plain), alpha.clone(), alpha);
    assert_eq!(l.iterations, vec![9]);
}

/// Prints the tables of docs/oscillators.md.
#[test]
#[ignore = "prints the error table of docs/oscillators.md"]
fn error_table() {
    let windows = [0.1, 0.05, 0.025, 0.0125, 0.00625];
    for integrator in [Integrator::GENERALIZED_ALPHA, Integrator::RungeKutta4] {
        println!("\n{integrator:?}\n");
        println!("| Δ | monolithic | degree 1 | order | it./window | degree 2 | order | it./window | degree 3 | order | it./window |");
        println!("|---|---|---|---|---|---|---|---|---|---|---|");
        let runs: Vec<Vec<Run>> =
            (1..=3).map(|d| windows.iter().map(|&w| coupled(w, d, integrator)).collect()).collect();
        let mono: Vec<f64> = windows.iter().map(|&w| monolithic_error(integrator, w)).collect();
        let mono_orders = orders(&mono);
        for (i, w) in windows.iter().enumerate() {
            let order = |o: &[f64]| if i == 0 { "–".to_string() } else { format!("{:.2}", o[i - 1]) };
            let mut row = format!("| {w} | {:.2e} ({}) |", mono[i], order(&mono_orders));
            for d in &runs {
                let o = orders(&d.iter().map(|r| r.error).collect::<Vec<_>>());
                row += &format!(" {:.3e} | {} | {:.2} |", d[i].error, order(&o), d[i].mean_iterations);
            }
            println!("{row}");
        }
    }
}

/// Prints the acceleration table of docs/oscillators.md.
#[test]
#[ignore = "prints the acceleration table of docs/oscillators.md"]
fn acceleration_table() {
    let methods = oscillator::acceleration_variants();
    let windows = [0.2, 0.1, 0.05, 0.025, 0.0125];
    println!("| acceleration | {} |", windows.map(|w| format!("Δ = {w}")).join(" | "));
    println!("|---|{}", "---|".repeat(windows.len()));
    let alpha = opts(Integrator::GENERALIZED_ALPHA);
    for (name, tag) in &methods {
        let mut row = format!("| {name} |");
        for w in windows {
            let extra: Vec<&str> = if tag.is_empty() { vec![] } else { vec![tag.as_str()] };
            let c = case(w, 3, &extra);
            let (l, r) = couple(cfg(&c), alpha.clone(), alpha.clone());
            let forced = l.iterations.iter().filter(|&&i| i >= MAX_ITERATIONS).count();
            let e = error(&l, &r);
            row += &format!(" {:.2} ({})", l.mean_iterations(), l.iterations.iter().max().expect("windows"));
            if forced > 0 {
                row += &format!(", {forced} at {MAX_ITERATIONS}, error {e:.0e}");
            }
            row += " |";
        }
        println!("{row}");
    }
}
