//! The linear model on disk, readable without us: one CSV per matrix (a header line naming the
//! columns, then the rows; `numpy.loadtxt(f, delimiter=",", skiprows=1)`, MATLAB
//! `readmatrix(f)`) and `linear_model.json` naming the rows, the states, inputs and outputs,
//! with the eigenvalues and notes.

use anyhow::{Context, Result};
use nalgebra::{Complex, DMatrix};
use serde_json::json;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Names of a linear model's states, inputs and outputs (in the matrices' order).
#[derive(Debug, Clone, Default)]
pub struct Names {
    /// One per state (`float.z`, then `float.vz`).
    pub states: Vec<String>,
    /// One per input channel (`float.fz`).
    pub inputs: Vec<String>,
    /// One per output channel (`float.z`, `float.vz`).
    pub outputs: Vec<String>,
}

/// A matrix as CSV: `header`, then one line per row, values in Rust's shortest round-trip form.
pub fn csv(m: &DMatrix<f64>, header: &[String]) -> String {
    let mut s = header.join(",");
    s.push('\n');
    for r in 0..m.nrows() {
        let row: Vec<String> = (0..m.ncols()).map(|c| format!("{:e}", m[(r, c)])).collect();
        let _ = writeln!(s, "{}", row.join(","));
    }
    s
}

/// The eigenvalues as JSON objects with the natural frequency and damping ratio of each.
fn eigen_json(eig: &[Complex<f64>]) -> Vec<serde_json::Value> {
    eig.iter()
        .map(|e| {
            let wn = e.norm();
            let zeta = if wn > 0.0 { -e.re / wn } else { 0.0 };
            json!({"re": e.re, "im": e.im, "natural_frequency_rad_s": wn, "damping_ratio": zeta,
                   "period_s": if e.im.abs() > 0.0 { 2.0 * std::f64::consts::PI / e.im.abs() } else { f64::INFINITY }})
        })
        .collect()
}

/// Writes `A.csv`, `B.csv`, `C.csv`, `D.csv` and `linear_model.json` into `dir` (created);
/// returns the index's path.
pub fn write_all(
    dir: &Path,
    [a, b, c, d]: [&DMatrix<f64>; 4],
    names: &Names,
    eig: &[Complex<f64>],
    extra: serde_json::Value,
) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the output folder", dir.display()))?;
    for (file, m, cols) in [
        ("A.csv", a, &names.states),
        ("B.csv", b, &names.inputs),
        ("C.csv", c, &names.states),
        ("D.csv", d, &names.inputs),
    ] {
        let p = dir.join(file);
        std::fs::write(&p, csv(m, cols)).with_context(|| format!("{}: cannot write", p.display()))?;
    }
    let mut index = json!({
        "time": "continuous",
        "equations": "dx/dt = A x + B u, y = C x + D u (increments from the operating point)",
        "states": names.states,
        "inputs": names.inputs,
        "outputs": names.outputs,
        "files": {
            "A": {"file": "A.csv", "rows": names.states, "columns": names.states},
            "B": {"file": "B.csv", "rows": names.states, "columns": names.inputs},
            "C": {"file": "C.csv", "rows": names.outputs, "columns": names.states},
            "D": {"file": "D.csv", "rows": names.outputs, "columns": names.inputs},
        },
        "eigenvalues": eigen_json(eig),
    });
    if let (Some(obj), serde_json::Value::Object(more)) = (index.as_object_mut(), extra) {
        obj.extend(more);
    }
    let p = dir.join("linear_model.json");
    let text = serde_json::to_string_pretty(&index).context("the index")?;
    std::fs::write(&p, text).with_context(|| format!("{}: cannot write", p.display()))?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values survive the text round trip exactly (`{:e}` is the shortest exact form).
    #[test]
    fn csv_round_trips() {
        let m = DMatrix::from_row_slice(2, 2, &[0.1, -1.0 / 3.0, 2.5e-300, 7.0]);
        let text = csv(&m, &["a".into(), "b".into()]);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("a,b"));
        let back: Vec<f64> = lines.flat_map(|l| l.split(',').map(|v| v.parse::<f64>().unwrap())).collect();
        assert_eq!(back, vec![0.1, -1.0 / 3.0, 2.5e-300, 7.0]);
    }
}
