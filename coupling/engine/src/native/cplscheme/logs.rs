//! The iteration and convergence logs of implicit schemes, in preCICE's text-table layout so
//! existing post-processing scripts read them (docs/design/coupling-semantics.md §11.8):
//! a header of column names each preceded by two spaces, one row per line, integers
//! right-aligned in 6 characters, reals in C's `%15.8e`, values separated by two spaces,
//! no newline after the last row.
//!
//! libprecice flushes its stream after every row (`io::TXTTableWriter`), one `write` system
//! call per row; that is one call per iteration on the hot path of a fast coupling (several µs
//! per window). Rows are formatted into a reused line and kept in a buffer here, written out
//! with the first row that comes [`FLUSH_EVERY`] or more after the last write, when the buffer
//! is full, at [`Table::flush`] (the participant's finalize and abort) and when the table is
//! dropped (an error's unwinding too): a running case can still be watched, a row late at
//! most by that time while windows keep coming (a run stalled on its partner shows its last
//! rows when it goes on or ends).

use crate::{CouplingError, Result};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// The longest a written row waits in the buffer before it reaches the file.
pub const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// One value of a row.
#[derive(Debug, Clone, Copy)]
pub enum Cell {
    /// A count.
    Int(i64),
    /// A residual.
    Real(f64),
}

/// A text table written row by row (flushed at least every [`FLUSH_EVERY`], so a running case
/// can be watched).
pub struct Table {
    file: BufWriter<File>,
    /// The row being formatted (reused: no allocation per row).
    line: String,
    /// When the buffer was last written out.
    flushed: Instant,
}

/// `x` as C's `printf("%15.8e")` writes it: `1.00000000e+00`, right-aligned in 15 characters.
#[cfg(test)]
fn c_scientific(x: f64) -> String {
    let mut s = String::new();
    push_c_scientific(&mut s, x);
    s
}

/// Appends `x` as C's `printf("%15.8e")` writes it (`1.00000000e+00`, right-aligned in 15
/// characters) to `out`.
fn push_c_scientific(out: &mut String, x: f64) {
    let _ = write!(out, "{:>15}", c_body(x));
}

/// The text of `%15.8e` before its padding.
fn c_body(x: f64) -> String {
    let body = if x.is_nan() {
        "nan".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        let s = format!("{x:.8e}");
        let (mantissa, exp) = s.split_once('e').expect("Rust's {:e} has an exponent");
        let exp: i32 = exp.parse().expect("integer exponent");
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    };
    body
}

impl Table {
    /// Creates `dir/name` with the header line.
    pub fn create(dir: &Path, name: &str, columns: &[String]) -> Result<Table> {
        let path = dir.join(name);
        let mut file = File::create(&path)
            .map_err(|e| CouplingError::io(format!("cannot create the log file \"{}\": {e}", path.display())))?;
        let header: String = columns.iter().map(|c| format!("  {c}")).collect();
        file.write_all(header.as_bytes())
            .map_err(|e| CouplingError::io(format!("cannot write the log file \"{}\": {e}", path.display())))?;
        // The header reaches the file at once (as libprecice's does).
        Ok(Table { file: BufWriter::with_capacity(16 * 1024, file), line: String::new(), flushed: Instant::now() })
    }

    /// Appends one row on a new line.
    pub fn row(&mut self, cells: &[Cell]) {
        self.line.clear();
        self.line.push('\n');
        for (i, c) in cells.iter().enumerate() {
            if i > 0 {
                self.line.push_str("  ");
            }
            match c {
                Cell::Int(v) => {
                    let _ = write!(self.line, "{v:>6}");
                }
                Cell::Real(x) => push_c_scientific(&mut self.line, *x),
            }
        }
        // A log that cannot be written must not stop the coupling; warn once per row.
        let mut written = self.file.write_all(self.line.as_bytes());
        if written.is_ok() && self.flushed.elapsed() >= FLUSH_EVERY {
            written = self.flush_now();
        }
        if let Err(e) = written {
            log::warn!("cannot write an iteration log row: {e}");
        }
    }

    fn flush_now(&mut self) -> std::io::Result<()> {
        self.flushed = Instant::now();
        self.file.flush()
    }

    /// Writes the buffered rows out (the participant's finalize; dropping the table does too).
    pub fn flush(&mut self) {
        if let Err(e) = self.flush_now() {
            log::warn!("cannot write an iteration log row: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals_are_written_as_c_does() {
        assert_eq!(c_scientific(1.0), " 1.00000000e+00");
        assert_eq!(c_scientific(-0.000123456789), "-1.23456789e-04");
        assert_eq!(c_scientific(0.0), " 0.00000000e+00");
        assert_eq!(c_scientific(6.02e123), "6.02000000e+123", "15 characters already");
        assert_eq!(c_scientific(f64::INFINITY), "            inf");
    }

    #[test]
    fn rows_follow_the_header_without_a_trailing_newline() {
        let dir = tempfile::tempdir().unwrap();
        let mut t = Table::create(dir.path(), "t.log", &["TimeWindow".into(), "Iterations".into()]).unwrap();
        t.row(&[Cell::Int(1), Cell::Int(3)]);
        t.row(&[Cell::Int(2), Cell::Real(0.5)]);
        drop(t);
        let text = std::fs::read_to_string(dir.path().join("t.log")).unwrap();
        assert_eq!(text, "  TimeWindow  Iterations\n     1       3\n     2   5.00000000e-01");
    }

    #[test]
    fn a_log_in_a_missing_folder_is_an_io_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing");
        let e = Table::create(&missing, "t.log", &["TimeWindow".into()]).err().expect("no such folder");
        assert_eq!(e.kind, crate::ErrorKind::Io);
        let prefix = format!("cannot create the log file \"{}\": ", missing.join("t.log").display());
        assert!(e.to_string().starts_with(&prefix), "{e}");
    }
}
