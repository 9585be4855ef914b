//! What every data file the participants write shares: numbers in their shortest exact form,
//! and a first comment line saying which case, which participant and when
//! (`# case rm3_reg_waves, participant Solid, run at 2026-12-02T17:20:32Z`), so a file found
//! later still says where it came from.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// `x` in the shortest text that reads back to the same `f64`: Rust's round-trip digits, in
/// plain (`0.25`) or exponent form (`1.5109394846390956e-9`), whichever is shorter.
pub fn number(x: f64) -> String {
    let plain = format!("{x}");
    let exp = format!("{x:e}");
    if exp.len() < plain.len() {
        exp
    } else {
        plain
    }
}

/// Where a file's data came from: the case, the participant, the run's start (UTC).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    /// The case: the name of the folder of its preCICE XML file.
    pub case: String,
    /// The participant that wrote the file.
    pub participant: String,
    /// When the run started, ISO 8601 in UTC (`2026-12-02T17:20:32Z`).
    pub run_at: String,
}

impl Provenance {
    /// A provenance stamped now, for the case whose XML is `config` (its folder names it).
    pub fn now(config: &Path, participant: &str) -> Self {
        Provenance { case: case_name(config), participant: participant.to_string(), run_at: utc_now() }
    }

    /// The comment line, without a newline: `# case C, participant P, run at T`.
    pub fn line(&self) -> String {
        format!("# case {}, participant {}, run at {}", self.case, self.participant, self.run_at)
    }

    /// Reads a line written by [`Self::line`]; `None` for any other line.
    pub fn parse(line: &str) -> Option<Self> {
        let rest = line.trim_end().strip_prefix("# case ")?;
        let (case, rest) = rest.split_once(", participant ")?;
        let (participant, run_at) = rest.rsplit_once(", run at ")?;
        Some(Provenance { case: case.into(), participant: participant.into(), run_at: run_at.into() })
    }
}

/// The case's name: the folder that holds its preCICE XML file (`unnamed case` when the path
/// has none).
pub fn case_name(config: &Path) -> String {
    let dir = config.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "unnamed case".into())
}

/// The current time as ISO 8601 in UTC, to the second.
pub fn utc_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    utc(secs)
}

/// `secs` after 1970-01-01T00:00:00Z as ISO 8601 (the proleptic Gregorian calendar).
pub fn utc(secs: u64) -> String {
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    // Days to civil date (H. Hinnant's algorithm, eras of 400 years from 0000-03-01).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_shortest_and_exact() {
        let cases = [
            (0.0, "0"),
            (0.25, "0.25"),
            (-3.0, "-3"),
            (123456.5, "123456.5"),
            (1.5109394846390956e-9, "1.5109394846390956e-9"),
            (1.1512700000000001e-29, "1.1512700000000001e-29"),
            (1e21, "1e21"),
            (725833.0, "725833"),
            (0.001, "1e-3"),
            (0.01, "0.01"),
            (0.0001, "1e-4"),
        ];
        for (x, want) in cases {
            assert_eq!(number(x), want, "{x:e}");
            assert_eq!(number(x).parse::<f64>().unwrap().to_bits(), x.to_bits());
        }
        // Bit-exact round trip over a spread of magnitudes and signs.
        let mut x = 0.123_456_789_012_345_67_f64;
        for k in 0..400 {
            let v = if k % 2 == 0 { x } else { -x };
            assert_eq!(number(v).parse::<f64>().unwrap().to_bits(), v.to_bits(), "{v:e}");
            x *= 7.3;
            if x > 1e300 {
                x = 1e-300;
            }
        }
    }

    #[test]
    fn provenance_line_round_trips() {
        let p = Provenance { case: "rm3_reg_waves".into(), participant: "Solid".into(), run_at: utc(1_796_232_032) };
        assert_eq!(p.line(), "# case rm3_reg_waves, participant Solid, run at 2026-12-02T17:20:32Z");
        assert_eq!(Provenance::parse(&p.line()), Some(p));
        assert_eq!(Provenance::parse("time_s,z_m"), None);
    }

    #[test]
    fn utc_dates_match_known_instants() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_709_251_199), "2024-02-29T23:59:59Z");
    }

    #[test]
    fn the_case_is_the_folder_of_the_xml() {
        assert_eq!(case_name(Path::new("/cases/rm3_reg_waves/precice-config.xml")), "rm3_reg_waves");
        // `..` is resolved first: the folder is this crate's, named `adapter-core`.
        let xml = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/../precice-config.xml");
        assert_eq!(case_name(&xml), "adapter-core");
    }
}
