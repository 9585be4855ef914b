//! The sweep's results: the compact matrices (`mean_power_W.csv`, `heave_rms_m.csv`: one row
//! per row value, one column per column value, an empty field for a failed cell), every cell in
//! long form (`cells.csv`: values, status, figures, folder, reason) and a heat map per figure.

use super::figures::Figures;
use super::grid::{Axis, Grid};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use tidelink_adapter_core::records::number;
use tidelink_plot::HeatMap;

/// How a cell ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Run now, figures taken.
    Done(Figures),
    /// Finished by an earlier sweep (its marker), not rerun.
    Resumed(Figures),
    /// The run or its figures failed.
    Failed(String),
    /// Stopped by an interrupt before it ended.
    Interrupted,
}

impl Status {
    /// The figures, for a finished cell.
    pub fn figures(&self) -> Option<&Figures> {
        match self {
            Status::Done(f) | Status::Resumed(f) => Some(f),
            _ => None,
        }
    }
}

/// One cell's place, settings and outcome.
#[derive(Debug, Clone)]
pub struct CellResult {
    /// Row and column index.
    pub at: (usize, usize),
    /// Its folder.
    pub dir: PathBuf,
    /// How it ended.
    pub status: Status,
}

/// Entries by row and column; `None` where a cell has no figure.
type Matrix = Vec<Vec<Option<f64>>>;

/// A value as a category label and in folder names: plain decimals, never an exponent
/// (`1000`, `0.5`).
pub fn label(v: f64) -> String {
    format!("{v}")
}

/// The header word of an axis: `H_m`, or `H` without a unit.
fn head(a: &Axis) -> String {
    if a.unit.is_empty() {
        a.name.clone()
    } else {
        format!("{}_{}", a.name, a.unit.replace('/', "_").replace(' ', ""))
    }
}

/// Writes the matrices, `cells.csv` and the heat maps into `out`; returns the files written.
pub fn write(grid: &Grid, title: &str, cells: &[CellResult], out: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    let nc = grid.columns.as_ref().map_or(1, |c| c.values.len());
    let grid_of = |f: &dyn Fn(&Figures) -> Option<f64>| {
        let mut m = vec![vec![None; nc]; grid.rows.values.len()];
        for c in cells {
            m[c.at.0][c.at.1] = c.status.figures().and_then(f);
        }
        m
    };
    let span = cells.iter().find_map(|c| c.status.figures().map(|f| f.span));
    let over = span.map(|(a, b)| format!(", t from {a:.3} to {b:.3} s")).unwrap_or_default();
    let mut figures: Vec<(&str, String, String, Matrix)> = vec![(
        "mean_power_W",
        format!("mean absorbed power of `{}` [W]{over}", grid.power_link),
        "mean absorbed power [kW]".into(),
        grid_of(&|f| Some(f.mean_power_w)),
    )];
    if let Some(body) = &grid.heave_body {
        figures.push((
            "heave_rms_m",
            format!("RMS of `{body}` heave about its mean [m]{over}"),
            format!("{body} heave RMS [m]"),
            grid_of(&|f| f.heave_rms_m),
        ));
    }
    let cols: Vec<String> =
        grid.columns.as_ref().map_or(vec![String::new()], |c| c.values.iter().map(|v| label(*v)).collect());
    for (stem, what, legend, m) in &figures {
        let mut csv = format!("# tidelink sweep {}: {what}; rows {}", grid.path.display(), grid.rows.title());
        if let Some(c) = &grid.columns {
            csv.push_str(&format!(", columns {}", c.title()));
        }
        csv.push('\n');
        let corner = match &grid.columns {
            Some(c) => format!("{}\\{}", head(&grid.rows), head(c)),
            None => head(&grid.rows),
        };
        csv.push_str(&format!("{corner},{}\n", cols.join(",")));
        for (i, row) in m.iter().enumerate() {
            let cells: Vec<String> = row.iter().map(|v| v.map(number).unwrap_or_default()).collect();
            csv.push_str(&format!("{},{}\n", label(grid.rows.values[i]), cells.join(",")));
        }
        let path = out.join(format!("{stem}.csv"));
        std::fs::write(&path, csv).with_context(|| format!("writing {}", path.display()))?;
        written.push(path);
        let kilo = stem.starts_with("mean_power");
        let values: Vec<Vec<Option<f64>>> =
            m.iter().map(|r| r.iter().map(|v| v.map(|x| if kilo { x / 1e3 } else { x })).collect()).collect();
        if values.iter().flatten().any(Option::is_some) {
            let map = HeatMap {
                title: format!("{title}: {}", legend.split(" [").next().unwrap_or(legend)),
                x_label: grid.columns.as_ref().map_or_else(String::new, Axis::title),
                y_label: grid.rows.title(),
                columns: cols.clone(),
                rows: grid.rows.values.iter().map(|v| label(*v)).collect(),
                values,
                legend: legend.clone(),
                size: ((300 + 130 * nc as u32).max(900), (200 + 90 * grid.rows.values.len() as u32).max(600)),
            };
            let path = out.join(format!("{}.png", stem.trim_end_matches("_W").trim_end_matches("_m")));
            map.write_png(&path)?;
            written.push(path);
        }
    }
    let mut long = format!("{},", head(&grid.rows));
    if let Some(c) = &grid.columns {
        long.push_str(&format!("{},", head(c)));
    }
    long.push_str("status,mean_power_W,heave_rms_m,folder,reason\n");
    for c in cells {
        let f = c.status.figures();
        let (status, reason) = match &c.status {
            Status::Done(_) => ("done", String::new()),
            Status::Resumed(_) => ("resumed", String::new()),
            Status::Failed(r) => ("failed", r.clone()),
            Status::Interrupted => ("interrupted", String::new()),
        };
        long.push_str(&format!("{},", label(grid.rows.values[c.at.0])));
        if let Some(col) = &grid.columns {
            long.push_str(&format!("{},", label(col.values[c.at.1])));
        }
        long.push_str(&format!(
            "{status},{},{},{},\"{}\"\n",
            f.map(|f| number(f.mean_power_w)).unwrap_or_default(),
            f.and_then(|f| f.heave_rms_m).map(number).unwrap_or_default(),
            c.dir.display(),
            reason.replace('"', "'")
        ));
    }
    let path = out.join("cells.csv");
    std::fs::write(&path, long).with_context(|| format!("writing {}", path.display()))?;
    written.push(path);
    Ok(written)
}
