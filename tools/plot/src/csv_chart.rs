//! Charts of CSV columns, for the `tidelink-plot` program: several runs of one kind (the trio of
//! PTO modules of `pto/examples/run_visual_verification.py`, say) side by side, one panel per
//! quantity and one series per run, so scripts without matplotlib still draw with this crate.
//!
//! A file is `#` comment lines, a header naming the columns, then rows of numbers separated by
//! commas (the layout of every CSV file Tidelink writes).

use crate::{Chart, Colour, Panel, Series, BLUE, GREEN, GREY, ORANGE, RED};
use std::collections::HashMap;

/// Why a chart of CSV columns could not be made.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CsvError {
    /// The file has no header line.
    #[error("{source_name}: no header line (a CSV file: `#` comments, a header naming the columns, then rows)")]
    NoHeader {
        /// The file.
        source_name: String,
    },
    /// A field is not a number.
    #[error("{source_name}:{line}: `{field}` in column `{column}` is not a number")]
    NotANumber {
        /// The file.
        source_name: String,
        /// Its line, from 1.
        line: usize,
        /// The column's name.
        column: String,
        /// The field.
        field: String,
    },
    /// A row has another number of fields than the header.
    #[error("{source_name}:{line}: {found} fields, the header has {expected}")]
    Width {
        /// The file.
        source_name: String,
        /// Its line, from 1.
        line: usize,
        /// Fields in the row.
        found: usize,
        /// Columns in the header.
        expected: usize,
    },
    /// A column asked for is not in the file.
    #[error("{source_name}: no column `{column}`; its columns: {columns}")]
    NoColumn {
        /// The file.
        source_name: String,
        /// The column asked for.
        column: String,
        /// The header's columns, comma separated.
        columns: String,
    },
}

/// The columns of one CSV file, by name.
#[derive(Debug, Clone)]
pub struct Table {
    source_name: String,
    names: Vec<String>,
    columns: Vec<Vec<f64>>,
}

impl Table {
    /// Reads `text` (from `source_name`, for messages).
    pub fn parse(text: &str, source_name: &str) -> Result<Self, CsvError> {
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty());
        let (_, header) = lines.next().ok_or_else(|| CsvError::NoHeader { source_name: source_name.into() })?;
        let names: Vec<String> = header.split(',').map(|s| s.trim().to_string()).collect();
        let mut columns = vec![Vec::new(); names.len()];
        for (i, line) in lines {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            if fields.len() != names.len() {
                return Err(CsvError::Width {
                    source_name: source_name.into(),
                    line: i + 1,
                    found: fields.len(),
                    expected: names.len(),
                });
            }
            for ((col, field), name) in columns.iter_mut().zip(&fields).zip(&names) {
                col.push(field.parse().map_err(|_| CsvError::NotANumber {
                    source_name: source_name.into(),
                    line: i + 1,
                    column: name.clone(),
                    field: field.to_string(),
                })?);
            }
        }
        Ok(Table { source_name: source_name.into(), names, columns })
    }

    /// The column `name`.
    pub fn column(&self, name: &str) -> Result<&[f64], CsvError> {
        let index: HashMap<&str, usize> = self.names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
        index.get(name).map(|&i| self.columns[i].as_slice()).ok_or_else(|| CsvError::NoColumn {
            source_name: self.source_name.clone(),
            column: name.into(),
            columns: self.names.join(", "),
        })
    }
}

/// One panel of the chart: its y label (with the unit) and the column it draws.
#[derive(Debug, Clone)]
pub struct PanelSpec {
    /// The y axis label, e.g. `heave z [m]`.
    pub label: String,
    /// The column drawn from every file.
    pub column: String,
}

/// The series colours, in file order.
const PALETTE: [Colour; 5] = [BLUE, ORANGE, GREEN, RED, GREY];

/// A chart with one panel per `panels` entry and, in each, one series per `(legend, table)` of
/// `runs` (its `x` column against the panel's column), restricted to `x_range` when given (an
/// infinite bound leaves that side open).
pub fn chart(
    title: &str,
    x_label: &str,
    x: &str,
    panels: &[PanelSpec],
    runs: &[(String, Table)],
    x_range: Option<(f64, f64)>,
) -> Result<Chart, CsvError> {
    let inside = |t: f64| x_range.is_none_or(|(lo, hi)| t >= lo && t <= hi);
    let mut chart = Chart::new(title, x_label);
    for p in panels {
        let mut series = Vec::new();
        for (i, (legend, table)) in runs.iter().enumerate() {
            let xs = table.column(x)?;
            let ys = table.column(&p.column)?;
            let points = xs.iter().zip(ys).filter(|(t, _)| inside(**t)).map(|(t, y)| (*t, *y)).collect();
            series.push(Series::line(legend.clone(), points, PALETTE[i % PALETTE.len()]));
        }
        chart = chart.panel(Panel::new(p.label.clone(), series));
    }
    // A one-sided range (an infinite bound) only filters; the axis then spans the data.
    Ok(match x_range {
        Some((lo, hi)) if lo.is_finite() && hi.is_finite() => chart.x_range(lo, hi),
        _ => chart,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "# case a\ntime_s,z_m,power_W\n0,0.5,10\n1,1.5,20\n2,2.5,30\n";

    #[test]
    fn reads_columns_after_the_comments() {
        let t = Table::parse(A, "a.csv").unwrap();
        assert_eq!(t.column("z_m").unwrap(), &[0.5, 1.5, 2.5]);
        assert_eq!(t.column("time_s").unwrap(), &[0.0, 1.0, 2.0]);
    }

    #[test]
    fn bad_input_names_the_file_line_and_column() {
        let e = Table::parse("time_s,z_m\n0,1\n1,x\n", "b.csv").unwrap_err();
        assert_eq!(e.to_string(), "b.csv:3: `x` in column `z_m` is not a number");
        let e = Table::parse("time_s,z_m\n0,1,2\n", "b.csv").unwrap_err();
        assert_eq!(e.to_string(), "b.csv:2: 3 fields, the header has 2");
        assert!(matches!(Table::parse("# only\n", "c.csv"), Err(CsvError::NoHeader { .. })));
        let t = Table::parse(A, "a.csv").unwrap();
        assert_eq!(
            t.column("heave").unwrap_err().to_string(),
            "a.csv: no column `heave`; its columns: time_s, z_m, power_W"
        );
    }

    #[test]
    fn one_panel_per_column_one_series_per_run_within_the_range() {
        let runs = vec![
            ("linear".to_string(), Table::parse(A, "a.csv").unwrap()),
            ("adaptive".to_string(), Table::parse(A, "b.csv").unwrap()),
        ];
        let panels = [
            PanelSpec { label: "heave z [m]".into(), column: "z_m".into() },
            PanelSpec { label: "power P [W]".into(), column: "power_W".into() },
        ];
        let c = chart("RM3 trio", "time t [s]", "time_s", &panels, &runs, Some((0.5, 2.0))).unwrap();
        assert_eq!(c.panels.len(), 2);
        assert_eq!(c.panels[1].series[1].label, "adaptive");
        assert_eq!(c.panels[1].series[0].points, vec![(1.0, 20.0), (2.0, 30.0)]);
        assert_ne!(c.panels[0].series[0].colour, c.panels[0].series[1].colour);
        let svg = c.to_svg().unwrap();
        assert!(c.missing_texts(&svg).is_empty(), "{:?}", c.missing_texts(&svg));
        let missing =
            chart("t", "x", "time_s", &[PanelSpec { label: "f".into(), column: "force_N".into() }], &runs, None);
        assert!(matches!(missing, Err(CsvError::NoColumn { .. })));
    }
}
