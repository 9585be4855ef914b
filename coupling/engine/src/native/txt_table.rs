//! libprecice's text tables (its `TXTTableWriter`), the format of the watch-point and
//! watch-integral logs: a header of column names each preceded by two spaces, then one line
//! per row of numbers in scientific notation (8 decimals) right-aligned in 15 characters,
//! separated by two spaces, with no newline after the last row. Every row is flushed, so the
//! file is complete whenever the run stops.

use super::cxx_format::scientific;
use crate::{CouplingError, Result};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// One open table file.
pub(crate) struct TxtTable {
    out: BufWriter<File>,
    path: PathBuf,
    /// What the file is, for error messages ("watch-point").
    what: &'static str,
}

/// The column names of a datum of `components` components: its name for a scalar, the name
/// with the component index appended for a vector (`Force0`, `Force1`).
pub(crate) fn data_columns(name: &str, components: usize) -> Vec<String> {
    match components {
        1 => vec![name.to_string()],
        c => (0..c).map(|k| format!("{name}{k}")).collect(),
    }
}

/// A number of a row: scientific, 8 decimals, right-aligned in 15 characters.
pub(crate) fn cell(x: f64) -> String {
    format!("{:>15}", scientific(x, 8))
}

impl TxtTable {
    /// Creates (or truncates) the file at `path` and writes the header of `columns`.
    pub fn create(path: PathBuf, what: &'static str, columns: &[String]) -> Result<Self> {
        let file = File::create(&path)
            .map_err(|e| CouplingError::io(format!("cannot create the {what} file \"{}\": {e}", path.display())))?;
        let mut table = TxtTable { out: BufWriter::new(file), path, what };
        let header: String = columns.iter().map(|c| format!("  {c}")).collect();
        table.write(&header)?;
        Ok(table)
    }

    /// Appends one row.
    pub fn row(&mut self, values: &[f64]) -> Result<()> {
        let line = format!("\n{}", values.iter().map(|&v| cell(v)).collect::<Vec<_>>().join("  "));
        self.write(&line)
    }

    fn write(&mut self, text: &str) -> Result<()> {
        self.out.write_all(text.as_bytes()).and_then(|_| self.out.flush()).map_err(|e| {
            CouplingError::io(format!("cannot write the {} file \"{}\": {e}", self.what, self.path.display()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_written_as_libprecice_s_tables_write_them() {
        assert_eq!(cell(1.0), " 1.00000000e+00");
        assert_eq!(cell(-2.5e-7), "-2.50000000e-07");
        assert_eq!(cell(0.0), " 0.00000000e+00");
        assert_eq!(cell(1.234e123), "1.23400000e+123");
    }

    #[test]
    fn a_table_is_a_header_then_rows_without_a_final_newline() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.log");
        let mut columns = vec!["Time".to_string()];
        columns.extend(data_columns("F", 2));
        let mut t = TxtTable::create(path.clone(), "test", &columns).unwrap();
        t.row(&[0.0, 1.0, -2.0]).unwrap();
        t.row(&[0.5, 3.0, 0.25]).unwrap();
        let expected = "  Time  F0  F1\n 0.00000000e+00   1.00000000e+00  -2.00000000e+00\n \
                        5.00000000e-01   3.00000000e+00   2.50000000e-01";
        assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
    }
}
