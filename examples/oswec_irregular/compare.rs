//! The OSWEC flap against WEC-Sim's stored irregular, directionally spread run: our flap rows and
//! WEC-Sim's series on its 0.1 s grid, the figures over a window, and a chart. Shared by the
//! example `oswec_irregular` (a `tidelink run` output) and tests/oswec.rs (a run in threads).

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;
use tidelink_mbs::io::output::Row;
use tidelink_plot::{Chart, Panel, Series, BLUE, ORANGE};

/// The PTO's rotary damping at the hinge (N·m·s/rad), as in configs/oswec/solid/model.yaml.
pub const PTO_DAMPING: f64 = 12000.0;
/// The comparison window (s): after WEC-Sim's 100 s ramp, to the end of its series.
pub const WINDOW: (f64, f64) = (100.0, 200.0);
/// The reference's file name in the shared OSWEC folder.
pub const REFERENCE: &str = "wecsim_oswec_irregularSpread_reference.csv";

/// Ours and WEC-Sim's series on WEC-Sim's times: flap pitch (rad) and PTO power (W, WEC-Sim's
/// sign: negative = absorbed).
pub struct Compared {
    /// Times (s).
    pub time: Vec<f64>,
    /// Ours: [pitch, power].
    pub ours: [Vec<f64>; 2],
    /// WEC-Sim's: [pitch, power].
    pub theirs: [Vec<f64>; 2],
}

/// The figures over a window.
#[derive(Debug, Clone, Copy)]
pub struct Figures {
    /// RMS(ours − WEC-Sim's pitch) / std(WEC-Sim's pitch).
    pub rms_relative: f64,
    /// Pitch standard deviations (rad): ours, WEC-Sim's.
    pub std: (f64, f64),
    /// Largest |pitch| (rad): ours, WEC-Sim's.
    pub max: (f64, f64),
    /// Mean PTO power (W, negative = absorbed): ours, WEC-Sim's.
    pub power: (f64, f64),
}

/// Columns `names` of the reference CSV (`#` comments, then a header).
pub fn reference(path: &Path, names: &[&str]) -> Result<Vec<Vec<f64>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().ok_or_else(|| format!("{}: no header", path.display()))?.split(',').collect();
    let mut idx = Vec::new();
    for n in names {
        idx.push(header.iter().position(|h| h == n).ok_or_else(|| format!("{}: no column {n}", path.display()))?);
    }
    let mut cols = vec![Vec::new(); names.len()];
    for (k, l) in lines.enumerate() {
        let v: Vec<f64> = l
            .split(',')
            .map(|x| x.trim().parse().map_err(|_| format!("{}: data line {}: not a number", path.display(), k + 1)))
            .collect::<Result<_, _>>()?;
        for (c, &i) in cols.iter_mut().zip(&idx) {
            c.push(v[i]);
        }
    }
    Ok(cols)
}

/// Our flap rows matched to the reference's times (both every 0.1 s): pitch from the start (as
/// WEC-Sim's `position(:,5) − position(1,5)`) and the PTO power `−c θ̇²` (the base is fixed).
pub fn compare(flap: &[Row], reference_csv: &Path) -> Result<Compared, String> {
    let r = reference(reference_csv, &["time_s", "flap_pitch_rad", "pto_power_W"])?;
    let key = |t: f64| (t * 10.0).round() as i64;
    let ry0 = flap.first().ok_or("no flap rows")?.rotation.y;
    let ours: HashMap<i64, [f64; 2]> =
        flap.iter().map(|f| (key(f.time), [f.rotation.y - ry0, -PTO_DAMPING * f.angvel.y.powi(2)])).collect();
    let mut c = Compared { time: vec![], ours: Default::default(), theirs: Default::default() };
    for (i, &t) in r[0].iter().enumerate() {
        let Some(o) = ours.get(&key(t)) else { continue };
        c.time.push(t);
        c.ours[0].push(o[0]);
        c.ours[1].push(o[1]);
        c.theirs[0].push(r[1][i]);
        c.theirs[1].push(r[2][i]);
    }
    if c.time.len() < r[0].len() * 9 / 10 {
        return Err(format!("only {} of WEC-Sim's {} times found in our rows", c.time.len(), r[0].len()));
    }
    Ok(c)
}

/// The figures over `window`.
pub fn figures(c: &Compared, window: (f64, f64)) -> Figures {
    let inside: Vec<usize> =
        (0..c.time.len()).filter(|&i| c.time[i] >= window.0 - 1e-9 && c.time[i] <= window.1 + 1e-9).collect();
    let n = inside.len() as f64;
    let mean = |v: &[f64]| inside.iter().map(|&i| v[i]).sum::<f64>() / n;
    let std = |v: &[f64]| {
        let m = mean(v);
        (inside.iter().map(|&i| (v[i] - m).powi(2)).sum::<f64>() / n).sqrt()
    };
    let max = |v: &[f64]| inside.iter().map(|&i| v[i].abs()).fold(0.0, f64::max);
    let (ours, theirs) = (&c.ours[0], &c.theirs[0]);
    let rms = (inside.iter().map(|&i| (ours[i] - theirs[i]).powi(2)).sum::<f64>() / n).sqrt();
    Figures {
        rms_relative: rms / std(theirs),
        std: (std(ours), std(theirs)),
        max: (max(ours), max(theirs)),
        power: (mean(&c.ours[1]), mean(&c.theirs[1])),
    }
}

/// The figures as the lines the example and the test print.
pub fn report(f: &Figures, window: (f64, f64)) -> String {
    format!(
        "{}-{} s: flap pitch RMS difference {:.1} % of WEC-Sim's std; std {:.4} rad (WEC-Sim {:.4}, {:+.1} %); \
         max |pitch| {:.4} rad (WEC-Sim {:.4}, {:+.1} %); mean PTO power {:.1} W (WEC-Sim {:.1} W, {:+.1} %)",
        window.0,
        window.1,
        100.0 * f.rms_relative,
        f.std.0,
        f.std.1,
        100.0 * (f.std.0 / f.std.1 - 1.0),
        f.max.0,
        f.max.1,
        100.0 * (f.max.0 / f.max.1 - 1.0),
        f.power.0,
        f.power.1,
        100.0 * (f.power.0 / f.power.1 - 1.0)
    )
}

/// The series as CSV and a chart (pitch, difference, PTO power) in `dir`, named `name`; the
/// PNG's path.
pub fn plot(c: &Compared, dir: &Path, name: &str, title: &str) -> Result<std::path::PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut csv = String::from("time_s,flap_pitch_rad,wecsim_flap_pitch_rad,pto_power_W,wecsim_pto_power_W\n");
    for i in 0..c.time.len() {
        csv += &format!("{},{},{},{},{}\n", c.time[i], c.ours[0][i], c.theirs[0][i], c.ours[1][i], c.theirs[1][i]);
    }
    let csv_path = dir.join(format!("{name}.csv"));
    std::fs::write(&csv_path, csv).map_err(|e| format!("{}: {e}", csv_path.display()))?;
    let pts = |v: &[f64]| c.time.iter().copied().zip(v.iter().copied()).collect::<Vec<_>>();
    let pair = |k: usize, what: &str| {
        Panel::new(
            what.to_string(),
            vec![
                Series::line("WEC-Sim (irregularSpread_OSWEC)", pts(&c.theirs[k]), ORANGE),
                Series::line("Tidelink (MBS + TDPF, WEC-Sim's excitation replayed)", pts(&c.ours[k]), BLUE),
            ],
        )
    };
    let diff: Vec<f64> = c.ours[0].iter().zip(&c.theirs[0]).map(|(a, b)| a - b).collect();
    let chart = Chart::new(title, "time (s)")
        .panel(pair(0, "flap pitch (rad)"))
        .panel(Panel::new("pitch, Tidelink − WEC-Sim (rad)", vec![Series::line("difference", pts(&diff), BLUE)]))
        .panel(pair(1, "PTO power (W, negative = absorbed)"))
        .size(1400, 1000);
    let png = dir.join(format!("{name}.png"));
    chart.write_png(&png).map_err(|e| format!("{}: {e}", png.display()))?;
    Ok(png)
}
