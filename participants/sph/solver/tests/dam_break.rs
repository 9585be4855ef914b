//! 2D dam break (Martin & Moyce's geometry, column a × 2a): the surge front against the
//! experiments up to T = t √(2g/a) = 3, at a coarse a/dp = 25. Writes the PNG of front against
//! data to `target/tmp/sph_dam_break_front.png` (or `$TIDELINK_SPH_PLOT_DIR`).

mod support;

use std::path::PathBuf;
use support::{at, dam_break_2d, plot, run_dam_break, KOSHIZUKA_OKA, MARTIN_MOYCE, MARTIN_MOYCE_SMALL};

/// The chart's text is there: title, both axis labels with their (dimensionless) units, and a
/// legend entry for the run and each experiment.
#[test]
fn the_front_chart_names_axes_and_every_series() {
    let history = [(0.0, 1.0), (1.0, 1.3), (2.0, 2.4)];
    let chart = plot::front_chart(
        "2D dam break: surge front",
        &[plot::Run { label: "SPH, a/dp = 25".into(), points: &history }],
    );
    let svg = chart.to_svg().expect("an SVG");
    assert_eq!(chart.missing_texts(&svg), Vec::<String>::new());
    for t in [
        "2D dam break: surge front",
        "T = t √(2g/a)  [–]",
        "Z = x_front / a  [–]",
        "SPH, a/dp = 25",
        "Koshizuka &amp; Oka 1996, experiment",
    ] {
        assert!(svg.contains(t), "`{t}` missing from the SVG");
    }
}

#[test]
fn surge_front_follows_the_experiments() {
    let a = 1.0;
    let resolution = 25;
    let mut sim = dam_break_2d(a, resolution);
    let history = run_dam_break(&mut sim, a, 3.0, 30);
    let dir = std::env::var_os("TIDELINK_SPH_PLOT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")));
    let png = dir.join("sph_dam_break_front.png");
    let runs =
        [plot::Run { label: format!("SPH, a/dp = {resolution} ({} particles)", sim.fluid_count()), points: &history }];
    match plot::front_png(&png, "2D dam break: surge front", &runs) {
        Ok(()) => eprintln!("plot: {}", png.display()),
        Err(e) => eprintln!("plot not written: {e}"),
    }
    // Criteria (docs/sph.md, "Dam break", has the resolution and model study behind them):
    // (1) at every measured point of the three series with 1 ≤ T ≤ 3, the simulated front is
    //     at most 18 % ahead and at most 5 % behind. 18 %: the converged model (a/dp = 100)
    //     leads by up to 15.5 % on Koshizuka & Oka and 17.4 % on Martin & Moyce's
    //     T = 1.22 point; the lead does not shrink with resolution, the no-slip option, the
    //     initial state or a front that skips isolated particles, so it is the model's error
    //     (an instantaneous release over a nearly frictionless floor leaving a thin fast
    //     tongue; an independent code with the same model gives the same front to 1 %,
    //     docs/sph.md "Code-to-code check"), and this coarse
    //     run must not be further off than that. The ±10 % one would like for 1 ≤ T < 2 is
    //     not met (11–14 % at this resolution).
    // (2) From T = 2 on, within 10 % of Koshizuka & Oka (the experiments scatter by ~5 %).
    // (3) The front speed dZ/dT over 2 ≤ T ≤ 3 within 10 % of theirs.
    let mut worst_late: f64 = 0.0;
    for (name, data) in
        [("K&O", &KOSHIZUKA_OKA[..]), ("M&M 2.25 in", &MARTIN_MOYCE[..]), ("M&M 1.125 in", &MARTIN_MOYCE_SMALL[..])]
    {
        for &(t, z) in data.iter().filter(|p| (1.0..=3.0).contains(&p.0)) {
            let zs = at(&history, t);
            let rel = zs / z - 1.0;
            eprintln!("{name}: T = {t:.2}: experiment Z = {z:.2}, SPH {zs:.3} ({rel:+.3})");
            assert!((-0.05..0.18).contains(&rel), "{name} at T = {t}: SPH front {zs:.3} against {z:.2} ({rel:+.3})");
            if name == "K&O" && t >= 2.0 {
                worst_late = worst_late.max(rel.abs());
            }
        }
    }
    let late: Vec<(f64, f64)> = KOSHIZUKA_OKA.iter().copied().filter(|p| (1.95..=3.15).contains(&p.0)).collect();
    let slope = |pts: &[(f64, f64)]| {
        let n = pts.len() as f64;
        let (mt, mz) = (pts.iter().map(|p| p.0).sum::<f64>() / n, pts.iter().map(|p| p.1).sum::<f64>() / n);
        pts.iter().map(|p| (p.0 - mt) * (p.1 - mz)).sum::<f64>() / pts.iter().map(|p| (p.0 - mt).powi(2)).sum::<f64>()
    };
    let sph_late: Vec<(f64, f64)> = history.iter().copied().filter(|p| p.0 >= 2.0 - 1e-9).collect();
    let (s_exp, s_sph) = (slope(&late), slope(&sph_late));
    eprintln!(
        "front speed dZ/dT over 2 ≤ T ≤ 3: SPH {s_sph:.3}, K&O {s_exp:.3}; worst difference from K&O at T ≥ 2: {worst_late:.3}; {} steps",
        sim.steps()
    );
    assert!(worst_late < 0.10, "front differs from Koshizuka & Oka by {worst_late:.3} at T ≥ 2");
    assert!((s_sph / s_exp - 1.0).abs() < 0.10, "front speed {s_sph:.3} against {s_exp:.3}");
}
