//! Named columns of a wave input CSV file (explicit wave components, an imported elevation
//! record): `#` comment lines and blank lines are skipped, the first other line names the
//! columns, each later line is one row of numbers. Every error names the file and the line, and
//! a file too large to be a sea state is refused before it is read.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use tidelink_adapter_core::diagnostics::Location;

/// Largest wave input file read (bytes): 256 MiB holds ten million rows of a few columns, far
/// more than any sea state; a larger file is a mistake (or hostile) and is refused unread.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Why a wave input file could not be used: where (file, 1-based line; 0 = the file) and what.
#[derive(Debug, Clone, PartialEq)]
pub struct CsvError {
    /// The file and line at fault.
    pub loc: Location,
    /// What is wrong and how to fix it.
    pub message: String,
}

/// The columns `names` of `path`, in that order, each with one value per row; at most
/// `max_rows` rows (`what` names them in messages, e.g. "wave components").
pub fn read_columns(path: &Path, names: &[&str], max_rows: usize, what: &str) -> Result<Vec<Vec<f64>>, CsvError> {
    let at = |line: usize, message: String| CsvError { loc: Location::new(path, line), message };
    let file = std::fs::File::open(path).map_err(|e| at(0, format!("cannot open the {what} file: {e}")))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    if size > MAX_FILE_BYTES {
        return Err(at(0, format!("the {what} file has {size} bytes, more than the {MAX_FILE_BYTES} read")));
    }
    // The limit also holds for a file that grows while it is read.
    let reader = BufReader::new(file.take(MAX_FILE_BYTES + 1));
    let mut index: Option<Vec<usize>> = None;
    let mut width = 0;
    let mut columns: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for (n, line) in reader.lines().enumerate() {
        let number = n + 1;
        let line = line.map_err(|e| at(number, format!("cannot read the {what} file: {e}")))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = text.split(',').map(|f| f.trim().trim_matches('"')).collect();
        let Some(idx) = &index else {
            let mut found = Vec::with_capacity(names.len());
            for name in names {
                match fields.iter().position(|f| f == name) {
                    Some(i) => found.push(i),
                    None => {
                        return Err(at(
                            number,
                            format!(
                                "no column `{name}` in the header of the {what} file; its columns are {}",
                                fields.join(", ")
                            ),
                        ))
                    }
                }
            }
            width = fields.len();
            index = Some(found);
            continue;
        };
        if fields.len() != width {
            return Err(at(number, format!("{} values, but the header names {width} columns", fields.len())));
        }
        if columns[0].len() >= max_rows {
            return Err(at(number, format!("more than {max_rows} rows of {what}; split or thin the record")));
        }
        for (column, (&i, name)) in columns.iter_mut().zip(idx.iter().zip(names)) {
            let value: f64 = fields[i]
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| at(number, format!("column `{name}`: `{}` is not a finite number", fields[i])))?;
            column.push(value);
        }
    }
    if index.is_none() {
        return Err(at(0, format!("the {what} file has no header line naming its columns")));
    }
    if columns[0].is_empty() {
        return Err(at(0, format!("the {what} file has a header but no rows")));
    }
    Ok(columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("waves.csv");
        std::fs::write(&p, text).unwrap();
        (dir, p)
    }

    #[test]
    fn reads_named_columns_in_the_order_asked() {
        let (_d, p) = file("# comment\n\nt,eta,other\n0,1.5,x\n0.1,-2e-1,y\n");
        let c = read_columns(&p, &["eta", "t"], 10, "elevation").unwrap();
        assert_eq!(c, vec![vec![1.5, -0.2], vec![0.0, 0.1]]);
    }

    #[test]
    fn errors_name_the_line() {
        let (_d, p) = file("# c\nt,eta\n0,1\n0.1,abc\n");
        let e = read_columns(&p, &["t", "eta"], 10, "elevation").unwrap_err();
        assert_eq!(e.loc.line, 4);
        assert!(e.message.contains("column `eta`: `abc` is not a finite number"), "{}", e.message);
        let (_d, p) = file("t,eta\n0,1,2\n");
        let e = read_columns(&p, &["t", "eta"], 10, "elevation").unwrap_err();
        assert!(e.loc.line == 2 && e.message.contains("3 values"), "{e:?}");
        let (_d, p) = file("#\ntime,eta\n0,1\n");
        let e = read_columns(&p, &["t", "eta"], 10, "elevation").unwrap_err();
        assert!(e.loc.line == 2 && e.message.contains("no column `t`") && e.message.contains("time, eta"), "{e:?}");
        let (_d, p) = file("t,eta\n0,NaN\n");
        assert!(read_columns(&p, &["t", "eta"], 10, "elevation").is_err());
        let (_d, p) = file("# only\n");
        assert!(read_columns(&p, &["t"], 10, "elevation").unwrap_err().message.contains("no header"));
        let (_d, p) = file("t\n");
        assert!(read_columns(&p, &["t"], 10, "elevation").unwrap_err().message.contains("no rows"));
    }

    #[test]
    fn refuses_too_many_rows_and_missing_files() {
        let (_d, p) = file("t\n1\n2\n3\n");
        let e = read_columns(&p, &["t"], 2, "wave components").unwrap_err();
        assert!(e.loc.line == 4 && e.message.contains("more than 2 rows"), "{e:?}");
        let e = read_columns(Path::new("/nonexistent/waves.csv"), &["t"], 2, "elevation").unwrap_err();
        assert!(e.loc.line == 0 && e.message.contains("cannot open"), "{e:?}");
    }
}
