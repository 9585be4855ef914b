//! The imported sea states of the TDPF model file: explicit wave components (`COMPONENTS`) and
//! a recorded elevation (`ELEVATION_IMPORT`), read from named CSV columns or inline lists.

use super::{WavesSection, MAX_COMPONENTS, MAX_ELEVATION_SAMPLES};
use crate::wave_csv;
use std::path::Path;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::YamlLines;
use tidelink_tdpf_solver::hydro_model::ComponentSpec;
use tidelink_tdpf_solver::waves::ElevationSeries;

/// Two or three columns of numbers, from `waves.file` (with `waves.columns`, or `defaults`) or
/// from the inline lists `inline` (their keys); the error names the file's line or the YAML key.
fn table(
    w: &WavesSection,
    base: &Path,
    names: &[(&str, &str, Option<&String>)],
    inline: &[(&str, Option<&Vec<f64>>)],
    limit: (usize, &str),
    lines: &YamlLines,
    d: &mut Diagnostics,
) -> Option<Vec<Vec<f64>>> {
    let given: Vec<(&str, &Vec<f64>)> = inline.iter().filter_map(|(k, v)| v.map(|v| (*k, v))).collect();
    let keys: Vec<&str> = inline.iter().map(|(k, _)| *k).collect();
    let (max_rows, what) = limit;
    match (&w.file, given.len()) {
        (Some(_), 0) => {}
        (None, n) if n == inline.len() => {
            let (first, rows) = (given[0].0, given[0].1.len());
            for (key, v) in &given {
                let loc = lines.loc(&format!("model.waves.{key}"));
                if v.len() > max_rows {
                    d.error(loc, format!("more than {max_rows} {what}"));
                    return None;
                }
                if v.len() != rows {
                    d.error(loc, format!("`{key}` has {} values, `{first}` {rows}; give one per row", v.len()));
                    return None;
                }
            }
            if w.columns.is_some() {
                d.error(lines.loc("model.waves.columns"), "`columns` applies to a `file` only");
                return None;
            }
            return Some(given.into_iter().map(|(_, v)| v.clone()).collect());
        }
        _ => {
            d.error(
                lines.loc("model.waves"),
                format!("give the {what} either as `file` (a CSV file) or as all of `{}`, not both", keys.join("`, `")),
            );
            return None;
        }
    }
    let file = base.join(w.file.as_ref()?);
    let columns: Vec<&str> = names.iter().map(|(_, default, given)| given.map_or(*default, |s| s.as_str())).collect();
    match wave_csv::read_columns(&file, &columns, max_rows, what) {
        Ok(c) => Some(c),
        Err(e) => {
            d.error(e.loc, e.message);
            d.error(lines.loc("model.waves.file"), format!("the {what} file `{}` above is unusable", file.display()));
            None
        }
    }
}

/// The components of a COMPONENTS wave, checked (ω > 0, amplitude ≥ 0, phases finite).
pub(super) fn components(
    w: &WavesSection,
    degrees: bool,
    base: &Path,
    lines: &YamlLines,
    d: &mut Diagnostics,
) -> Option<Vec<ComponentSpec>> {
    let c = w.columns.as_ref();
    if let Some(c) = c {
        for (key, present) in [("time", c.time.is_some()), ("elevation", c.elevation.is_some())] {
            if present {
                d.error(
                    lines.loc(&format!("model.waves.columns.{key}")),
                    format!("column `{key}` applies to ELEVATION_IMPORT"),
                );
            }
        }
    }
    let names = [
        ("omega", "omega", c.and_then(|c| c.omega.as_ref())),
        ("amplitude", "amplitude", c.and_then(|c| c.amplitude.as_ref())),
        ("phase", "phase", c.and_then(|c| c.phase.as_ref())),
    ];
    let inline = [("omegas", w.omegas.as_ref()), ("amplitudes", w.amplitudes.as_ref()), ("phases", w.phases.as_ref())];
    let cols = table(w, base, &names, &inline, (MAX_COMPONENTS, "wave components"), lines, d)?;
    let from_file = w.file.is_some();
    let mut out = Vec::with_capacity(cols[0].len());
    let rows = cols[0].iter().zip(&cols[1]).zip(&cols[2]).map(|((&w, &a), &p)| (w, a, p));
    for (i, (omega, amplitude, phase)) in rows.enumerate() {
        let phase = if degrees && !from_file { phase.to_radians() } else { phase };
        if !(omega > 0.0 && omega.is_finite() && amplitude >= 0.0 && amplitude.is_finite() && phase.is_finite()) {
            d.error(
                lines.loc("model.waves"),
                format!(
                    "wave component {} (ω {omega} rad/s, amplitude {amplitude} m, phase {phase} rad): ω must be \
                     positive, the amplitude not negative, all finite",
                    i + 1
                ),
            );
            return None;
        }
        out.push(ComponentSpec { omega, amplitude, phase });
    }
    Some(out)
}

/// The record of an ELEVATION_IMPORT wave.
pub(super) fn elevation(
    w: &WavesSection,
    base: &Path,
    lines: &YamlLines,
    d: &mut Diagnostics,
) -> Option<ElevationSeries> {
    let c = w.columns.as_ref();
    if let Some(c) = c {
        for (key, present) in
            [("omega", c.omega.is_some()), ("amplitude", c.amplitude.is_some()), ("phase", c.phase.is_some())]
        {
            if present {
                d.error(
                    lines.loc(&format!("model.waves.columns.{key}")),
                    format!("column `{key}` applies to COMPONENTS"),
                );
            }
        }
    }
    let names = [
        ("time", "time", c.and_then(|c| c.time.as_ref())),
        ("elevation", "elevation", c.and_then(|c| c.elevation.as_ref())),
    ];
    let inline = [("times", w.times.as_ref()), ("elevations", w.elevations.as_ref())];
    let mut cols = table(w, base, &names, &inline, (MAX_ELEVATION_SAMPLES, "elevation samples"), lines, d)?;
    let values = cols.pop()?;
    let times = cols.pop()?;
    match ElevationSeries::new(times, values) {
        Ok(s) => Some(s),
        Err(e) => {
            let key = if w.file.is_some() { "model.waves.file" } else { "model.waves.times" };
            d.error(lines.loc(key), format!("invalid elevation record: {e} (sample 0 is the first row)"));
            None
        }
    }
}
