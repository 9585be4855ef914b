//! Post-processing of the rm3_reg_waves demo: reads the Solid's `bodies.h5`, writes
//! `rm3_results.csv` (heave of float and spar with WEC-Sim's regression series where it
//! exists, PTO force and absorbed power) and two PNG plots without text:
//!
//! - `heave.png`: float (top) and spar (middle) heave, ours in blue, WEC-Sim's in orange on
//!   top of it, and (bottom) ours minus WEC-Sim's, float blue, spar green;
//! - `pto.png`: PTO force on the float (top) and absorbed power (bottom).
//!
//! `cargo run --release --example rm3_plots -- <bodies.h5> <wecsim.csv or -> <out folder>`

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use tidelink_mbs::io::hdf5_output;
use tidelink_mbs::io::plot::{plot_panels, Line};

const PTO_DAMPING: f64 = 1.2e6;
const OMEGA: f64 = 2.0 * std::f64::consts::PI / 8.0;
const BLUE: plotters::style::RGBColor = plotters::style::RGBColor(30, 80, 200);
const ORANGE: plotters::style::RGBColor = plotters::style::RGBColor(230, 120, 20);
const GREEN: plotters::style::RGBColor = plotters::style::RGBColor(0, 140, 0);

/// (time, heave from the start, vertical velocity) of one body.
fn body(h5: &Path, name: &str) -> Result<Vec<(f64, f64, f64)>> {
    let (time, ch) =
        hdf5_output::read(h5, name).with_context(|| format!("reading body `{name}` of {}", h5.display()))?;
    if time.is_empty() {
        bail!("{}: body `{name}` has no rows", h5.display());
    }
    let z0 = ch[0][2];
    Ok(time.iter().enumerate().map(|(i, &t)| (t, ch[0][3 * i + 2] - z0, ch[2][3 * i + 2])).collect())
}

/// WEC-Sim's (time, float heave, spar heave), if a file is given.
fn wecsim(path: &Path) -> Result<Vec<(f64, f64, f64)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.starts_with("time")) {
        let v: Vec<f64> = line.split(',').map(|x| x.trim().parse()).collect::<Result<_, _>>()?;
        rows.push((v[0], v[1], v[2]));
    }
    Ok(rows)
}

/// Amplitude of the best fit `a cos ωt + b sin ωt + c` over the last 48 s.
fn amplitude(series: &[(f64, f64)]) -> f64 {
    let t_end = series.last().map(|p| p.0).unwrap_or(0.0);
    let pts: Vec<_> = series.iter().filter(|p| p.0 >= t_end - 48.0).collect();
    let a = nalgebra::DMatrix::from_fn(pts.len(), 3, |i, j| match j {
        0 => (OMEGA * pts[i].0).cos(),
        1 => (OMEGA * pts[i].0).sin(),
        _ => 1.0,
    });
    let y = nalgebra::DVector::from_iterator(pts.len(), pts.iter().map(|p| p.1));
    match (a.transpose() * &a).lu().solve(&(a.transpose() * y)) {
        Some(x) => x[0].hypot(x[1]),
        None => f64::NAN,
    }
}

fn main() -> Result<()> {
    let args: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let [h5, reference, out] = args.as_slice() else { bail!("usage: rm3_plots <bodies.h5> <wecsim.csv|-> <out>") };
    std::fs::create_dir_all(out)?;
    let (float, plate) = (body(h5, "float")?, body(h5, "spar")?);
    let reference = if reference.as_os_str() == "-" { Vec::new() } else { wecsim(reference)? };
    let at = |t: f64| reference.iter().find(|r| (r.0 - t).abs() < 1e-6);

    let csv_path = out.join("rm3_results.csv");
    let mut csv = std::io::BufWriter::new(std::fs::File::create(&csv_path)?);
    writeln!(
        csv,
        "time_s,float_heave_m,spar_heave_m,wecsim_float_heave_m,wecsim_spar_heave_m,pto_force_N,pto_power_W"
    )?;
    let (mut force, mut power) = (Vec::new(), Vec::new());
    for (f, p) in float.iter().zip(&plate) {
        let v_rel = f.2 - p.2;
        let (fp, pw) = (-PTO_DAMPING * v_rel, PTO_DAMPING * v_rel * v_rel);
        force.push((f.0, fp));
        power.push((f.0, pw));
        let (rf, rs) = at(f.0).map(|r| (r.1.to_string(), r.2.to_string())).unwrap_or_default();
        writeln!(csv, "{},{},{},{rf},{rs},{fp},{pw}", f.0, f.1, p.1)?;
    }
    csv.flush()?;

    let ours = |b: &[(f64, f64, f64)]| b.iter().map(|r| (r.0, r.1)).collect::<Vec<_>>();
    let theirs = |k: usize| reference.iter().map(|r| (r.0, if k == 0 { r.1 } else { r.2 })).collect::<Vec<_>>();
    let mut heave: Vec<Vec<Line>> =
        vec![vec![(ours(&float), BLUE), (theirs(0), ORANGE)], vec![(ours(&plate), BLUE), (theirs(1), ORANGE)]];
    if !reference.is_empty() {
        // Ours minus WEC-Sim's, where both exist: float blue, spar green.
        let diff = |b: &[(f64, f64, f64)], k: usize| {
            b.iter().filter_map(|r| at(r.0).map(|x| (r.0, r.1 - if k == 0 { x.1 } else { x.2 }))).collect::<Vec<_>>()
        };
        heave.push(vec![(diff(&float, 0), BLUE), (diff(&plate, 1), GREEN)]);
    }
    plot_panels(&out.join("heave.png"), &heave, 1200, 1000).map_err(anyhow::Error::msg)?;
    let pto: Vec<Vec<Line>> = vec![vec![(force, BLUE)], vec![(power.clone(), BLUE)]];
    plot_panels(&out.join("pto.png"), &pto, 1200, 800).map_err(anyhow::Error::msg)?;

    let t_end = power.last().map(|p| p.0).unwrap_or(0.0);
    let steady: Vec<f64> = power.iter().filter(|p| p.0 >= t_end - 48.0).map(|p| p.1).collect();
    let mean = steady.iter().sum::<f64>() / steady.len().max(1) as f64;
    println!("steady heave amplitude: float {:.4} m, spar {:.4} m", amplitude(&ours(&float)), amplitude(&ours(&plate)));
    if !reference.is_empty() {
        println!("WEC-Sim (0–200 s):      float {:.4} m, spar {:.4} m", amplitude(&theirs(0)), amplitude(&theirs(1)));
    }
    println!("mean absorbed PTO power over the last 48 s: {:.1} kW", mean / 1e3);
    println!("written: {}, {}, {}", csv_path.display(), out.join("heave.png").display(), out.join("pto.png").display());
    Ok(())
}
