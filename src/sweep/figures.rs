//! A cell's figures from its MBS output: the mean absorbed power of the power take-off (from
//! `links.csv`, `<link>_power_W`) and the RMS of a body's heave about its mean (from
//! `<body>.csv`, `z_m`), both over `t >= from`. The mean power is the trapezoidal integral of the
//! power over that span divided by its length, so unequal row spacing weighs rightly.

use std::path::{Path, PathBuf};

/// What a cell yields.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Figures {
    /// Mean absorbed power (W).
    pub mean_power_w: f64,
    /// Heave RMS about the mean (m), when a body is named.
    pub heave_rms_m: Option<f64>,
    /// The averaging span's start and end (s).
    pub span: (f64, f64),
}

/// The one file named `name` under `dir` (the MBS participant's output folder, wherever the
/// case puts it), or why not.
pub fn find(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == name) {
                found.push(p);
            }
        }
    }
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(format!("the run wrote no {name} (is the MBS output format CSV?)")),
        _ => Err(format!("the run wrote {} files named {name}; the sweep needs one", found.len())),
    }
}

/// `(time, value)` of column `column` in the CSV file `path` (comment lines skipped).
pub fn column(path: &Path, column: &str) -> Result<Vec<(f64, f64)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let header: Vec<&str> = lines.next().ok_or_else(|| format!("{}: empty", path.display()))?.split(',').collect();
    let k = header
        .iter()
        .position(|h| *h == column)
        .ok_or_else(|| format!("{} has no column `{column}`; its columns: {}", path.display(), header.join(", ")))?;
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        let num = |j: usize| cells.get(j).and_then(|c| c.trim().parse::<f64>().ok());
        match (num(0), num(k)) {
            (Some(t), Some(v)) => rows.push((t, v)),
            _ => return Err(format!("{}: data row {} is not numbers: {line}", path.display(), i + 1)),
        }
    }
    Ok(rows)
}

/// The rows from `from` on; at least two, spanning some time.
fn window(rows: &[(f64, f64)], from: f64, what: &str) -> Result<Vec<(f64, f64)>, String> {
    let w: Vec<(f64, f64)> = rows.iter().copied().filter(|(t, _)| *t >= from).collect();
    match (w.first(), w.last()) {
        (Some(a), Some(b)) if w.len() >= 2 && b.0 > a.0 => Ok(w),
        _ => Err(format!(
            "{what}: fewer than two rows from t = {from} s on (the run ended at t = {} s)",
            rows.last().map_or(0.0, |r| r.0)
        )),
    }
}

/// The trapezoidal mean of `rows` over their span.
pub fn mean(rows: &[(f64, f64)]) -> f64 {
    let integral: f64 = rows.windows(2).map(|w| 0.5 * (w[0].1 + w[1].1) * (w[1].0 - w[0].0)).sum();
    integral / (rows[rows.len() - 1].0 - rows[0].0)
}

/// The RMS of `rows` about their trapezoidal mean.
pub fn rms_about_mean(rows: &[(f64, f64)]) -> f64 {
    let m = mean(rows);
    let sq: Vec<(f64, f64)> = rows.iter().map(|(t, v)| (*t, (v - m) * (v - m))).collect();
    mean(&sq).sqrt()
}

/// The figures of the run whose output lies under `dir`; averaged from `from` (s), or over the
/// second half of the run when `None`.
pub fn of_run(dir: &Path, link: &str, body: Option<&str>, from: Option<f64>) -> Result<Figures, String> {
    let power = column(&find(dir, "links.csv")?, &format!("{link}_power_W"))?;
    let end = power.last().map_or(0.0, |r| r.0);
    let from = from.unwrap_or(0.5 * end);
    let p = window(&power, from, "links.csv")?;
    let heave_rms_m = match body {
        None => None,
        Some(b) => {
            let z = column(&find(dir, &format!("{b}.csv"))?, "z_m")?;
            Some(rms_about_mean(&window(&z, from, &format!("{b}.csv"))?))
        }
    };
    Ok(Figures { mean_power_w: mean(&p), heave_rms_m, span: (p[0].0, p[p.len() - 1].0) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_rms_of_a_sampled_sine() {
        // P = 1 + sin(t) over whole periods: the trapezoidal mean of a periodic function over
        // whole periods is exact to round-off, and the RMS of sin is 1/√2.
        let n = 400;
        let rows: Vec<(f64, f64)> =
            (0..=n).map(|k| k as f64 * 4.0 * std::f64::consts::PI / n as f64).map(|t| (t, 1.0 + t.sin())).collect();
        assert!((mean(&rows) - 1.0).abs() < 1e-12);
        assert!((rms_about_mean(&rows) - 0.5f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn figures_come_from_the_runs_files_and_a_missing_column_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("solid/output");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("links.csv"), "# case x\ntime_s,pto_power_W\n0,100\n1,0\n2,10\n3,20\n4,30\n").unwrap();
        std::fs::write(out.join("float.csv"), "# case x\ntime_s,x_m,y_m,z_m\n0,0,0,5\n2,0,0,1\n3,0,0,-1\n4,0,0,1\n")
            .unwrap();
        let f = of_run(dir.path(), "pto", Some("float"), None).unwrap();
        // From t = 2 (half of 4): the trapezoids of 10, 20, 30 over 2 s: mean 20.
        assert_eq!(f.mean_power_w, 20.0);
        assert_eq!(f.span, (2.0, 4.0));
        // z = 1, −1, 1: trapezoidal mean 0; the squares' mean 1.
        assert_eq!(f.heave_rms_m, Some(1.0));
        let e = of_run(dir.path(), "ptoo", None, None).unwrap_err();
        assert!(e.contains("no column `ptoo_power_W`; its columns: time_s, pto_power_W"), "{e}");
        let e = of_run(dir.path(), "pto", None, Some(10.0)).unwrap_err();
        assert!(e.contains("fewer than two rows from t = 10 s on (the run ended at t = 4 s)"), "{e}");
    }
}
