//! The grid file of `tidelink sweep`: which values of which keys of the case's files make the
//! cells (rows × columns), how long each cell runs, and which figures are taken from its output.
//! Every error names the grid file and line, and says how to fix it.
//!
//! ```yaml
//! title: RM3 in regular waves       # the heat maps' title (default: the case's name)
//! duration: 300                     # s: the XML's max-time in every cell (default: as the case)
//! average_from: 150                 # s: figures over t >= this (default: half the duration)
//! rows:
//!   name: H                         # short name: cell folders, CSV headers
//!   label: wave height              # axis label (default: the name)
//!   unit: m
//!   file: fluid/tdpf_model.yaml     # a YAML file of the case, relative to its folder
//!   key: model.waves.height         # the number to set; list entries as `tsdas[0]`
//!   values: [1, 2, 3]
//! columns: {name: T, label: wave period, unit: s, file: fluid/tdpf_model.yaml,
//!           key: model.waves.period, values: [6, 8, 10, 12]}   # optional: one column
//! power: {link: pto}                # mean of links.csv's `pto_power_W`
//! heave: {body: float}              # optional: RMS of float.csv's z_m about its mean
//! ```

use super::keys::{self, Step};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::spec::{self, YamlLines};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GridFile {
    title: Option<String>,
    duration: Option<f64>,
    average_from: Option<f64>,
    rows: AxisEntry,
    columns: Option<AxisEntry>,
    power: PowerEntry,
    heave: Option<HeaveEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AxisEntry {
    name: String,
    label: Option<String>,
    #[serde(default)]
    unit: String,
    file: String,
    key: String,
    values: Vec<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PowerEntry {
    link: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaveEntry {
    body: String,
}

/// One axis of the matrix: a number in one file of the case, and its values.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// Short name (folders, CSV headers).
    pub name: String,
    /// Axis label of the heat map.
    pub label: String,
    /// Unit of the values ("" for none).
    pub unit: String,
    /// The file, relative to the case folder.
    pub file: String,
    /// The key's path in it.
    pub key: String,
    /// Its parsed steps.
    pub steps: Vec<Step>,
    /// The values, in order.
    pub values: Vec<f64>,
}

impl Axis {
    /// `label [unit]`, or the label alone.
    pub fn title(&self) -> String {
        if self.unit.is_empty() {
            self.label.clone()
        } else {
            format!("{} [{}]", self.label, self.unit)
        }
    }
}

/// A checked grid.
#[derive(Debug, Clone)]
pub struct Grid {
    /// The grid file.
    pub path: PathBuf,
    /// The heat maps' title.
    pub title: Option<String>,
    /// The simulated time of every cell (s), if the grid sets it.
    pub duration: Option<f64>,
    /// The figures' averaging start (s), if the grid sets it.
    pub average_from: Option<f64>,
    /// The rows' axis.
    pub rows: Axis,
    /// The columns' axis, if any.
    pub columns: Option<Axis>,
    /// The link whose absorbed power is averaged.
    pub power_link: String,
    /// The body whose heave RMS is taken, if any.
    pub heave_body: Option<String>,
    /// Where `duration` is written (for errors found later, such as an XML without max-time).
    pub duration_at: Location,
}

/// Reads and checks `path` against the case folder `case_dir`: every error, with its line.
pub fn load(path: &Path, case_dir: &Path) -> Result<Grid, Diagnostics> {
    let (file, lines): (GridFile, YamlLines) = spec::load_yaml_with_lines(path)?;
    let mut errors = Diagnostics::default();
    let rows = axis(&file.rows, "rows", &lines, case_dir, &mut errors);
    let columns = file.columns.as_ref().and_then(|c| axis(c, "columns", &lines, case_dir, &mut errors));
    if let (Some(r), Some(c)) = (&rows, &columns) {
        if r.name == c.name {
            errors.error(
                lines.loc("columns.name"),
                format!("rows and columns are both named `{}`; name them apart", r.name),
            );
        }
        if r.file == c.file && r.key == c.key {
            errors.error(lines.loc("columns.key"), format!("rows and columns both set `{}` of {}", r.key, r.file));
        }
    }
    if let Some(d) = file.duration {
        if !(d.is_finite() && d > 0.0) {
            errors.error(lines.loc("duration"), format!("`duration` must be a positive number of seconds, got {d}"));
        }
    }
    if let Some(a) = file.average_from {
        if !(a.is_finite() && a >= 0.0) {
            errors.error(lines.loc("average_from"), format!("`average_from` must be a time >= 0 s, got {a}"));
        } else if file.duration.is_some_and(|d| a >= d) {
            errors.error(
                lines.loc("average_from"),
                format!(
                    "`average_from` ({a} s) is not before the end of the run (`duration` {} s); average over the \
                     steady part of the run, e.g. its second half",
                    file.duration.unwrap_or_default()
                ),
            );
        }
    }
    if file.power.link.trim().is_empty() {
        errors.error(lines.loc("power.link"), "`power.link` must name the TSDA or RSDA of the power take-off");
    }
    if file.heave.as_ref().is_some_and(|h| h.body.trim().is_empty()) {
        errors.error(lines.loc("heave.body"), "`heave.body` must name a body of the MBS model");
    }
    if errors.has_errors() {
        return Err(errors);
    }
    let (Some(rows), false) = (rows, file.columns.is_some() && columns.is_none()) else {
        return Err(errors);
    };
    Ok(Grid {
        path: path.to_path_buf(),
        title: file.title,
        duration: file.duration,
        average_from: file.average_from,
        rows,
        columns,
        power_link: file.power.link,
        heave_body: file.heave.map(|h| h.body),
        duration_at: lines.loc("duration"),
    })
}

/// One axis checked: name, values, the file in the case and the number at the key.
fn axis(e: &AxisEntry, node: &str, lines: &YamlLines, case_dir: &Path, errors: &mut Diagnostics) -> Option<Axis> {
    let at = |k: &str| lines.loc(&format!("{node}.{k}"));
    let before = errors.0.len();
    let valid_name = !e.name.is_empty() && e.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !valid_name {
        errors.error(at("name"), format!("`name` `{}` must be letters, digits, `_` or `-` (it names folders)", e.name));
    }
    if e.values.is_empty() {
        errors.error(at("values"), "`values` is empty; list the values of the axis, e.g. [1, 2, 3]");
    } else if let Some(v) = e.values.iter().find(|v| !v.is_finite()) {
        errors.error(at("values"), format!("`values` holds {v}; every value must be a finite number"));
    } else if let Some((i, v)) = e.values.iter().enumerate().find(|(i, v)| e.values[..*i].contains(v)) {
        errors.error(at(&format!("values[{i}]")), format!("the value {v} is listed twice"));
    }
    let steps = match keys::parse(&e.key) {
        Ok(s) => Some(s),
        Err(why) => {
            errors.error(at("key"), why);
            None
        }
    };
    let file = case_dir.join(&e.file);
    let is_yaml = matches!(Path::new(&e.file).extension().and_then(|x| x.to_str()), Some("yaml" | "yml"));
    if Path::new(&e.file).is_absolute() {
        errors.error(
            at("file"),
            format!("`file` `{}` must be relative to the case folder, where the cells copy it", e.file),
        );
    } else if !file.is_file() {
        errors.error(at("file"), format!("no file `{}` in the case folder {}", e.file, case_dir.display()));
    } else if !is_yaml {
        errors.error(at("file"), format!("`{}` is not a YAML file; the grid sets numbers in YAML files", e.file));
    } else if let Some(steps) = &steps {
        match read_number(&file, steps) {
            Ok(_) => {}
            Err(why) => errors.error(at("key"), format!("{}: {why}", e.file)),
        }
    }
    (errors.0.len() == before).then(|| Axis {
        name: e.name.clone(),
        label: e.label.clone().unwrap_or_else(|| e.name.clone()),
        unit: e.unit.clone(),
        file: e.file.clone(),
        key: e.key.clone(),
        steps: steps.unwrap_or_default(),
        values: e.values.clone(),
    })
}

/// The number at `steps` in the YAML file `path`.
fn read_number(path: &Path, steps: &[Step]) -> Result<f64, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read it: {e}"))?;
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).map_err(|e| format!("not YAML: {e}"))?;
    let v = keys::get(&doc, steps)?;
    v.as_f64().ok_or_else(|| {
        format!("the value there is not a number (`{}`)", serde_yaml::to_string(v).unwrap_or_default().trim())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("fluid")).unwrap();
        std::fs::write(
            dir.path().join("fluid/waves.yaml"),
            "model:\n  waves: {height: 2.5, period: 8, type: REGULAR}\n",
        )
        .unwrap();
        dir
    }

    const GOOD: &str = "duration: 60\naverage_from: 30\nrows:\n  name: H\n  unit: m\n  file: fluid/waves.yaml\n  \
                        key: model.waves.height\n  values: [1, 2]\ncolumns:\n  name: T\n  unit: s\n  \
                        file: fluid/waves.yaml\n  key: model.waves.period\n  values: [6, 8, 10]\npower: {link: pto}\n";

    fn check(text: &str) -> Result<Grid, String> {
        let c = case();
        let p = c.path().join("grid.yaml");
        std::fs::write(&p, text).unwrap();
        load(&p, c.path()).map_err(|d| d.to_string())
    }

    #[test]
    fn a_good_grid_reads() {
        let g = check(GOOD).unwrap();
        assert_eq!(g.rows.values, [1.0, 2.0]);
        assert_eq!(g.columns.as_ref().unwrap().title(), "T [s]");
        assert_eq!((g.duration, g.average_from, g.power_link.as_str()), (Some(60.0), Some(30.0), "pto"));
    }

    #[test]
    fn errors_name_the_line_and_say_how_to_fix() {
        let e = check(&GOOD.replace("model.waves.period", "model.waves.perod")).unwrap_err();
        assert!(
            e.contains(
                "grid.yaml:13: error: fluid/waves.yaml: no key `perod` under `model.waves` (did you mean `period`?)"
            ),
            "{e}"
        );
        let e = check(
            &GOOD.replace("fluid/waves.yaml\n  key: model.waves.height", "fluid/wave.yaml\n  key: model.waves.height"),
        )
        .unwrap_err();
        assert!(e.contains("grid.yaml:6: error: no file `fluid/wave.yaml` in the case folder"), "{e}");
        let e = check(&GOOD.replace("values: [6, 8, 10]", "values: [6, 8, 6]")).unwrap_err();
        assert!(e.contains("grid.yaml:14: error: the value 6 is listed twice"), "{e}");
        let e = check(&GOOD.replace("average_from: 30", "average_from: 90")).unwrap_err();
        assert!(e.contains("grid.yaml:2: error: `average_from` (90 s) is not before the end"), "{e}");
        let e = check(&GOOD.replace("model.waves.period", "model.waves.type")).unwrap_err();
        assert!(
            e.contains("grid.yaml:13: error: fluid/waves.yaml: the value there is not a number (`REGULAR`)"),
            "{e}"
        );
        let e = check(&GOOD.replace("power: {link: pto}", "power: {lnk: pto}")).unwrap_err();
        assert!(e.contains("grid.yaml:15") && e.contains("lnk"), "{e}");
        let e = check(&GOOD.replace("name: T", "name: H")).unwrap_err();
        assert!(e.contains("grid.yaml:10: error: rows and columns are both named `H`"), "{e}");
    }
}
