//! Post-processing of the rm3_reg_waves demo. Reads the case's own files (the wave, the PTO
//! damping, the masses, the hydrodynamic file) and the Solid's `bodies.h5`, computes the
//! linear frequency-domain steady state of the same file, and writes to `<out>`:
//!
//! - `heave.png`: float and spar heave, ours against the frequency-domain amplitude (dashed,
//!   after the ramp) and WEC-Sim's regression series when given; then ours minus WEC-Sim's;
//! - `pto.png`: the PTO force on the float and the absorbed power (the links' output), with
//!   the steady means;
//! - `rm3_results.csv`: the series behind the plots, columns with units;
//!
//! and prints a table: ours, frequency domain, WEC-Sim (when given), differences.
//!
//! `cargo run --release --example rm3_plots -- <demo folder> <wecsim.csv or -> <out folder> [width]`
//! (`width` in pixels, 1200 by default; the docs' figures are drawn smaller).

mod case;
mod report;

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::records::{number, Provenance};
use tidelink_mbs::io::hdf5_output;
use tidelink_tdpf_solver::frequency_domain::{steady_heave, HeaveSystem};

/// Whole wave periods at the end of the run that the steady figures are taken over.
const STEADY_PERIODS: f64 = 6.0;

/// (time, heave from the start, vertical velocity) of one body.
fn body(h5: &Path, name: &str) -> Result<Vec<(f64, f64, f64)>> {
    let (time, ch) =
        hdf5_output::read(h5, name).with_context(|| format!("reading body `{name}` of {}", h5.display()))?;
    if time.len() < 2 {
        bail!("{}: body `{name}` has {} rows; the run did not get far", h5.display(), time.len());
    }
    let z0 = ch[0][2];
    Ok(time.iter().enumerate().map(|(i, &t)| (t, ch[0][3 * i + 2] - z0, ch[2][3 * i + 2])).collect())
}

/// WEC-Sim's regression series: heave of float and spar, PTO force and power.
fn wecsim(path: &Path) -> Result<report::Run> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut run = report::Run::default();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.starts_with("time")) {
        let v: Vec<f64> = line
            .split(',')
            .map(|x| x.trim().parse())
            .collect::<Result<_, _>>()
            .with_context(|| format!("{}:{}: not a row of numbers", path.display(), i + 1))?;
        if v.len() < 5 {
            bail!("{}:{}: {} columns, expected at least 5", path.display(), i + 1, v.len());
        }
        run.float.push((v[0], v[1]));
        run.spar.push((v[0], v[2]));
        run.pto_force.push((v[0], v[3]));
        run.pto_power.push((v[0], v[4]));
    }
    Ok(run)
}

fn main() -> Result<()> {
    let args: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let (dir, reference, out, width) = match args.as_slice() {
        [d, r, o] => (d, r, o, 1200),
        [d, r, o, w] => (d, r, o, w.to_string_lossy().parse::<u32>().context("the width is a whole number of pixels")?),
        _ => bail!("usage: rm3_plots <demo folder> <wecsim.csv|-> <out> [width in pixels]"),
    };
    std::fs::create_dir_all(out)?;
    let c = case::read(dir)?;
    let omega = 2.0 * std::f64::consts::PI / c.wave_period;
    let hydro = tidelink_bemio::read(&c.hydro_h5).with_context(|| format!("reading {}", c.hydro_h5.display()))?;
    if hydro.bodies.len() < 2 {
        bail!("{}: {} bodies, RM3 has two (float, spar)", c.hydro_h5.display(), hydro.bodies.len());
    }
    // `mass: equilibrium` is ρ V of the file, as the Solid computed it.
    let masses = (0..2).map(|i| c.masses[i].unwrap_or(hydro.rho * hydro.bodies[i].displaced_volume)).collect();
    let system = HeaveSystem { masses, dampers: vec![(0, 1, c.pto_damping)], body_to_body: c.body_to_body };
    let z = steady_heave(&hydro, &system, omega, c.wave_height / 2.0)?;
    let fd = report::Steady {
        float: z.amplitude_phase(0).unwrap_or_default(),
        spar: z.amplitude_phase(1).unwrap_or_default(),
        power: z.damper_power[0],
    };

    let (float, spar) = (body(&c.bodies_h5, "float")?, body(&c.bodies_h5, "spar")?);
    let (link_time, links) = hdf5_output::read_links(&c.bodies_h5)?;
    let Some((_, power)) = links.iter().find(|(n, _)| n == "pto") else {
        bail!("{}: no absorbed power of the link `pto` in its `links` group", c.bodies_h5.display());
    };
    let ours = report::Run {
        float: float.iter().map(|r| (r.0, r.1)).collect(),
        spar: spar.iter().map(|r| (r.0, r.1)).collect(),
        pto_force: float.iter().zip(&spar).map(|(f, s)| (f.0, -c.pto_damping * (f.2 - s.2))).collect(),
        pto_power: link_time.iter().copied().zip(power.iter().copied()).collect(),
    };
    let theirs = if reference.as_os_str() == "-" { None } else { Some(wecsim(reference)?) };

    let t_end = ours.float.last().map_or(0.0, |p| p.0);
    let window = (t_end - STEADY_PERIODS * c.wave_period, t_end);
    let mine = report::steady_of(&ours, omega, window);
    let theirs_steady = theirs.as_ref().map(|w| {
        let end = w.float.last().map_or(0.0, |p| p.0);
        report::steady_of(w, omega, (end - STEADY_PERIODS * c.wave_period, end))
    });

    let csv_path = out.join("rm3_results.csv");
    write_csv(&csv_path, &c, &ours, theirs.as_ref())?;
    let sized = |chart: tidelink_plot::Chart| {
        let (w, h) = chart.pixels();
        let height = (h as u64 * width as u64 / w as u64) as u32;
        chart.size(width, height)
    };
    sized(report::heave_chart(&c.name, &ours, &fd, c.ramp_time, theirs.as_ref())).write_png(&out.join("heave.png"))?;
    sized(report::pto_chart(&c.name, &ours, &fd, window, theirs.as_ref())).write_png(&out.join("pto.png"))?;

    println!(
        "steady state over the last {STEADY_PERIODS} periods ({:.0}–{:.0} s; WEC-Sim over the last {STEADY_PERIODS} of its \
         series), frequency domain from {}:",
        window.0,
        window.1,
        c.hydro_h5.display()
    );
    println!("{}", report::table(&mine, &fd, theirs_steady.as_ref()));
    println!("written: {}, {}, {}", csv_path.display(), out.join("heave.png").display(), out.join("pto.png").display());
    Ok(())
}

/// The series behind the plots, one row per output time, WEC-Sim's where it has the time.
fn write_csv(path: &Path, c: &case::Rm3Case, ours: &report::Run, theirs: Option<&report::Run>) -> Result<()> {
    let mut csv = std::io::BufWriter::new(std::fs::File::create(path)?);
    let provenance =
        Provenance { case: c.name.clone(), participant: "Solid (rm3_plots)".into(), run_at: records_now() };
    writeln!(csv, "{}", provenance.line())?;
    writeln!(
        csv,
        "time_s,float_heave_m,spar_heave_m,pto_force_N,pto_power_W,wecsim_float_heave_m,wecsim_spar_heave_m,wecsim_pto_power_W"
    )?;
    let at =
        |s: &[(f64, f64)], t: f64| s.iter().find(|p| (p.0 - t).abs() < 1e-6).map(|p| number(p.1)).unwrap_or_default();
    for (i, (t, zf)) in ours.float.iter().enumerate() {
        let (zs, f, p) = (ours.spar[i].1, ours.pto_force[i].1, at(&ours.pto_power, *t));
        let (wf, ws, wp) = match theirs {
            Some(w) => (at(&w.float, *t), at(&w.spar, *t), at(&w.pto_power, *t)),
            None => Default::default(),
        };
        writeln!(csv, "{},{},{},{},{p},{wf},{ws},{wp}", number(*t), number(*zf), number(zs), number(f))?;
    }
    csv.flush()?;
    Ok(())
}

/// The time the results were written (UTC).
fn records_now() -> String {
    tidelink_adapter_core::records::utc_now()
}
