//! The demo's figures and closing table from plain series: ours, the frequency-domain steady
//! state of the same file, and WEC-Sim's regression series when it is there.

use tidelink_plot::{Chart, Panel, Series, Style, BLACK, BLUE, GREEN, ORANGE};

/// One run's series against time (s).
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// Float heave from its start position (m).
    pub float: Vec<(f64, f64)>,
    /// Spar heave from its start position (m).
    pub spar: Vec<(f64, f64)>,
    /// PTO force on the float (N); empty when not known.
    pub pto_force: Vec<(f64, f64)>,
    /// PTO absorbed power (W).
    pub pto_power: Vec<(f64, f64)>,
}

/// The frequency-domain steady state: amplitudes (m), phases (degrees) and mean power (W).
#[derive(Debug, Clone, Copy)]
pub struct Steady {
    /// Float heave amplitude and phase.
    pub float: (f64, f64),
    /// Spar heave amplitude and phase.
    pub spar: (f64, f64),
    /// Mean absorbed PTO power.
    pub power: f64,
}

/// Least-squares fit of `y ≈ a cos ωt + b sin ωt + c` over `[t0, t1]`: amplitude and phase
/// (degrees) of `A cos(ωt + φ)`; NaN when the window holds fewer than three points.
pub fn fit(series: &[(f64, f64)], omega: f64, (t0, t1): (f64, f64)) -> (f64, f64) {
    let pts: Vec<&(f64, f64)> = series.iter().filter(|p| p.0 >= t0 - 1e-9 && p.0 <= t1 + 1e-9).collect();
    if pts.len() < 3 {
        return (f64::NAN, f64::NAN);
    }
    let a = nalgebra::DMatrix::from_fn(pts.len(), 3, |i, j| match j {
        0 => (omega * pts[i].0).cos(),
        1 => (omega * pts[i].0).sin(),
        _ => 1.0,
    });
    let y = nalgebra::DVector::from_iterator(pts.len(), pts.iter().map(|p| p.1));
    match (a.transpose() * &a).lu().solve(&(a.transpose() * y)) {
        Some(x) => (x[0].hypot(x[1]), (-x[1]).atan2(x[0]).to_degrees()),
        None => (f64::NAN, f64::NAN),
    }
}

/// Mean of the values over `[t0, t1]` (NaN when none).
pub fn mean(series: &[(f64, f64)], (t0, t1): (f64, f64)) -> f64 {
    let v: Vec<f64> = series.iter().filter(|p| p.0 >= t0 - 1e-9 && p.0 <= t1 + 1e-9).map(|p| p.1).collect();
    v.iter().sum::<f64>() / v.len() as f64
}

/// The steady figures of a run over `window`.
pub fn steady_of(run: &Run, omega: f64, window: (f64, f64)) -> Steady {
    Steady {
        float: fit(&run.float, omega, window),
        spar: fit(&run.spar, omega, window),
        power: mean(&run.pto_power, window),
    }
}

/// `a` relative to `b` in percent.
fn pct(a: f64, b: f64) -> String {
    if a.is_finite() && b.is_finite() && b != 0.0 {
        format!("{:+.2} %", 100.0 * (a / b - 1.0))
    } else {
        "–".into()
    }
}

/// Phase difference `a − b` in degrees, wrapped to (−180, 180].
fn dphase(a: f64, b: f64) -> String {
    if a.is_finite() && b.is_finite() {
        format!("{:+.2}°", (a - b + 540.0).rem_euclid(360.0) - 180.0)
    } else {
        "–".into()
    }
}

/// The closing table: ours, frequency domain, WEC-Sim (when given), and the differences.
pub fn table(ours: &Steady, fd: &Steady, wecsim: Option<&Steady>) -> String {
    let mut head = format!("{:<26}{:>12}{:>12}", "steady state", "ours", "freq.-dom.");
    if wecsim.is_some() {
        head.push_str(&format!("{:>12}", "WEC-Sim"));
    }
    head.push_str(&format!("{:>13}", "ours-FD"));
    if wecsim.is_some() {
        head.push_str(&format!("{:>14}", "ours-WEC-Sim"));
    }
    let mut out = vec![head];
    type Pick = fn(&Steady) -> f64;
    let rows: [(&str, Pick, f64, &str, bool); 5] = [
        ("float heave amplitude", |s| s.float.0, 1.0, "m", false),
        ("spar heave amplitude", |s| s.spar.0, 1.0, "m", false),
        ("float heave phase", |s| s.float.1, 1.0, "°", true),
        ("spar heave phase", |s| s.spar.1, 1.0, "°", true),
        ("mean PTO power", |s| s.power, 1e-3, "kW", false),
    ];
    for (name, pick, scale, unit, phase) in rows {
        let cell = |s: &Steady| format!("{:.4}", pick(s) * scale);
        let diff = |a: &Steady, b: &Steady| if phase { dphase(pick(a), pick(b)) } else { pct(pick(a), pick(b)) };
        let mut line = format!("{:<26}{:>12}{:>12}", format!("{name} [{unit}]"), cell(ours), cell(fd));
        if let Some(w) = wecsim {
            line.push_str(&format!("{:>12}", cell(w)));
        }
        line.push_str(&format!("{:>13}", diff(ours, fd)));
        if let Some(w) = wecsim {
            line.push_str(&format!("{:>14}", diff(ours, w)));
        }
        out.push(line);
    }
    out.join("\n")
}

/// `±amplitude` over `[t0, t1]` as one outline (upper edge, then lower edge back).
fn envelope(amplitude: f64, (t0, t1): (f64, f64)) -> Vec<(f64, f64)> {
    vec![(t0, amplitude), (t1, amplitude), (t1, -amplitude), (t0, -amplitude)]
}

/// The heave figure: float and spar, ours against the frequency-domain envelope (after the
/// ramp) and WEC-Sim's series; with WEC-Sim, a third panel of ours minus theirs.
pub fn heave_chart(case: &str, ours: &Run, fd: &Steady, steady_from: f64, wecsim: Option<&Run>) -> Chart {
    let t_end = ours.float.last().map_or(steady_from, |p| p.0);
    let mut chart = Chart::new(format!("{case}: RM3 heave in regular waves"), "time t [s]");
    for (body, series, amp, other) in [
        ("float", &ours.float, fd.float.0, wecsim.map(|w| &w.float)),
        ("spar", &ours.spar, fd.spar.0, wecsim.map(|w| &w.spar)),
    ] {
        let mut s = vec![
            Series::line(format!("{body}, tidelink"), series.clone(), BLUE),
            Series::line(
                format!("frequency domain ±{amp:.3} m (steady state)"),
                envelope(amp, (steady_from, t_end)),
                BLACK,
            )
            .styled(Style::Dashed),
        ];
        if let Some(o) = other {
            s.push(Series::line(format!("{body}, WEC-Sim regression series"), o.clone(), ORANGE));
        }
        chart = chart.panel(Panel::new(format!("{body} heave z − z₀ [m]"), s));
    }
    if let Some(w) = wecsim {
        let diff = |a: &[(f64, f64)], b: &[(f64, f64)]| {
            a.iter()
                .filter_map(|p| b.iter().find(|q| (q.0 - p.0).abs() < 1e-6).map(|q| (p.0, (p.1 - q.1) * 1e3)))
                .collect::<Vec<_>>()
        };
        chart = chart.panel(Panel::new(
            "tidelink − WEC-Sim [mm]",
            vec![
                Series::line("float", diff(&ours.float, &w.float), BLUE),
                Series::line("spar", diff(&ours.spar, &w.spar), GREEN),
            ],
        ));
    }
    chart
}

/// The PTO figure: force on the float (when known) and absorbed power, ours against the
/// frequency-domain mean and WEC-Sim's series.
pub fn pto_chart(case: &str, ours: &Run, fd: &Steady, window: (f64, f64), wecsim: Option<&Run>) -> Chart {
    let kilo = |s: &[(f64, f64)]| s.iter().map(|p| (p.0, p.1 * 1e-3)).collect::<Vec<_>>();
    let mut chart = Chart::new(format!("{case}: RM3 power take-off"), "time t [s]");
    if !ours.pto_force.is_empty() {
        chart = chart.panel(Panel::new(
            "PTO force on the float [kN]",
            vec![Series::line("PTO force, tidelink", kilo(&ours.pto_force), BLUE)],
        ));
    }
    let mean_ours = mean(&ours.pto_power, window);
    let mut power = vec![
        Series::line("absorbed power, tidelink (links output)", kilo(&ours.pto_power), BLUE),
        Series::line(
            format!("mean, tidelink {:.1} kW", mean_ours * 1e-3),
            vec![(window.0, mean_ours * 1e-3), (window.1, mean_ours * 1e-3)],
            GREEN,
        ),
        Series::line(
            format!("mean, frequency domain {:.1} kW", fd.power * 1e-3),
            vec![(window.0, fd.power * 1e-3), (window.1, fd.power * 1e-3)],
            BLACK,
        )
        .styled(Style::Dashed),
    ];
    if let Some(w) = wecsim {
        power.push(Series::line("absorbed power, WEC-Sim regression series", kilo(&w.pto_power), ORANGE));
    }
    chart.panel(Panel::new("absorbed power P = −F·v [kW]", power))
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: f64 = std::f64::consts::PI / 4.0;

    fn run(amp: f64, phase_deg: f64, power: f64) -> Run {
        let t: Vec<f64> = (0..2000).map(|i| i as f64 * 0.1).collect();
        let s = |a: f64| t.iter().map(|&t| (t, a * (W * t + phase_deg.to_radians()).cos())).collect::<Vec<_>>();
        Run {
            float: s(amp),
            spar: s(amp / 8.0),
            pto_force: s(1e5),
            pto_power: t.iter().map(|&t| (t, power * (1.0 + (2.0 * W * t).cos()))).collect(),
        }
    }

    #[test]
    fn the_fit_recovers_amplitude_phase_and_the_mean_power() {
        let s = steady_of(&run(0.9, -30.0, 8e4), W, (152.0, 200.0));
        assert!((s.float.0 - 0.9).abs() < 1e-9 && (s.float.1 + 30.0).abs() < 1e-6, "{:?}", s.float);
        assert!((s.spar.0 - 0.1125).abs() < 1e-9);
        // The mean of 1 + cos(2ωt) over whole periods (48 s = 12 of them) is 1.
        assert!((s.power / 8e4 - 1.0).abs() < 1e-2, "{}", s.power);
    }

    #[test]
    fn the_table_states_each_difference() {
        let ours = Steady { float: (1.01, -40.0), spar: (0.125, 170.0), power: 81e3 };
        let fd = Steady { float: (1.0, -41.0), spar: (0.125, -175.0), power: 80e3 };
        let t = table(&ours, &fd, None);
        assert!(t.contains("float heave amplitude [m]") && t.contains("+1.00 %"), "{t}");
        // 170° − (−175°) wraps to −15°.
        assert!(t.contains("-15.00°"), "{t}");
        assert!(t.contains("+1.25 %") && !t.contains("WEC-Sim"), "{t}");
        let t = table(&ours, &fd, Some(&Steady { float: (1.02, -40.0), spar: (0.1, 170.0), power: 90e3 }));
        assert!(t.contains("WEC-Sim") && t.contains("-10.00 %") && t.contains("+25.00 %"), "{t}");
    }

    #[test]
    fn the_charts_have_their_texts() {
        let (ours, theirs) = (run(1.0, 0.0, 8e4), run(0.99, 1.0, 7.9e4));
        let fd = Steady { float: (0.984, -40.0), spar: (0.124, 170.0), power: 80e3 };
        for chart in [
            heave_chart("rm3_reg_waves", &ours, &fd, 100.0, None),
            heave_chart("rm3_reg_waves", &ours, &fd, 100.0, Some(&theirs)),
            pto_chart("rm3_reg_waves", &ours, &fd, (152.0, 200.0), Some(&theirs)),
        ] {
            let svg = chart.to_svg().unwrap();
            assert_eq!(chart.missing_texts(&svg), Vec::<String>::new(), "{}", chart.title);
            assert!(svg.contains("time t [s]"));
        }
        let svg = heave_chart("rm3_reg_waves", &ours, &fd, 100.0, Some(&theirs)).to_svg().unwrap();
        for t in [
            "rm3_reg_waves: RM3 heave in regular waves",
            "float heave z − z₀ [m]",
            "spar heave z − z₀ [m]",
            "frequency domain ±0.984 m (steady state)",
            "float, WEC-Sim regression series",
            "tidelink − WEC-Sim [mm]",
        ] {
            assert!(svg.contains(t), "`{t}` missing");
        }
        let svg = pto_chart("rm3_reg_waves", &ours, &fd, (152.0, 200.0), None).to_svg().unwrap();
        for t in ["rm3_reg_waves: RM3 power take-off", "absorbed power P = −F·v [kW]", "mean, frequency domain 80.0 kW"]
        {
            assert!(svg.contains(t), "`{t}` missing");
        }
    }
}
