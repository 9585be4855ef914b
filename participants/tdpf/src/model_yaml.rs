//! The TDPF model file (`model:` of a TDPF participant file): Chrono's keys plus Tidelink's
//! documented extensions. For example (RM3 in regular waves):
//!
//! ```yaml
//! model:
//!   name: rm3
//!   angle_degrees: true        # Chrono key; here it sets the unit of waves.phase (default true = degrees)
//!   data_path: {type: RELATIVE, root: ../data}   # optional; default: next to this file
//!   h5_file: rm3.h5            # required: the BEMIO HDF5 file
//!   body_to_body: true         # extension: full 6N radiation coupling (Chrono; default) or own blocks only (WEC-Sim)
//!   strict_body_names: false   # extension: a body-name mismatch with the file is an error, not a warning
//!   radiation:                 # extension
//!     method: IDENTIFIED       # default: our state space identified from the IRF (falls back to the
//!                              # convolution, with a warning, if an entry misses fit_target);
//!                              # CONVOLUTION; or STATE_SPACE (the file's realisations)
//!     truncation_time: 20      # s, IDENTIFIED (fit span) and CONVOLUTION (memory); default the IRF span
//!     fit_target: 0.99999      # IDENTIFIED only: the fit quality (R²) every IRF entry must reach
//!     max_order: 24            # IDENTIFIED only: the largest order tried per entry
//!     entry_tolerance: 1e-3    # convolution only: skip IRF entries whose peak is below this fraction of
//!                              # the geometric mean of their diagonal peaks (BEM noise); default 0
//!   waves:
//!     type: REGULAR            # NO_WAVE | REGULAR | IRREGULAR (values are case-insensitive, as in Chrono)
//!     height: 2.5              # m (amplitude = height / 2)
//!     period: 8                # s
//!     phase: 0                 # degrees or radians, after angle_degrees
//!     stretching: true         # Chrono key, accepted; no effect (no wave kinematics are computed)
//!     heading: 0               # extension: degrees, 0 = towards +x
//!     ramp_time: 100           # extension: s, 0 = none (Chrono has no ramp)
//!     ramp: COSINE             # extension: LINEAR | COSINE (default COSINE, WEC-Sim's)
//! ```
//!
//! COMPONENTS rebuilds a given irregular sea: `file` (a CSV file, found as `h5_file` is) with
//! `columns: {omega: …, amplitude: …, phase: …}` (rad/s, m, rad; defaults `omega`, `amplitude`,
//! `phase`), or inline lists `omegas`, `amplitudes`, `phases` (phases after `angle_degrees`), plus
//! `method`, `heading`, `ramp_time`, `ramp`; a component outside the file's frequencies is an
//! error. ELEVATION_IMPORT (WEC-Sim's `elevationImport`) takes a measured elevation at the origin,
//! `file` with `columns: {time: …, elevation: …}` (s, m; defaults `time`, `elevation`) or inline
//! `times`, `elevations`, turned into excitation through the file's excitation impulse response;
//! `ramp_time` then fades η in (0, the default, when the record starts from still water).
//!
//! IRREGULAR takes `spectrum: JONSWAP | PIERSON_MOSKOWITZ` (default PIERSON_MOSKOWITZ), `hs`, `tp`
//! (required), `gamma` (JONSWAP, default 3.3), `seed` (default 1), `omega_min`, `omega_max` (rad/s,
//! default the file's range), `count` (default 500), `method: SUPERPOSITION | CONVOLUTION`, plus
//! `heading`, `ramp_time`, `ramp`. Unknown keys are errors naming the key, the file and the line.

mod imported;
mod waves;

use serde::Deserialize;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_adapter_core::spec::{self, YamlLines};
use tidelink_tdpf_solver::hydro_model::{RadiationMethod, WaveSpec};
use tidelink_tdpf_solver::radiation::Feedthrough;

/// The wave types this participant implements (Chrono's names, then Tidelink's imports).
pub const WAVE_TYPES: [&str; 5] = ["NO_WAVE", "REGULAR", "IRREGULAR", "COMPONENTS", "ELEVATION_IMPORT"];

/// Most wave components read: each costs one complex exponential per body and step, and a sea
/// state needs hundreds to a few thousand; more is a mistake (or hostile) and is refused.
pub const MAX_COMPONENTS: usize = 100_000;

/// Most samples of an imported elevation record: ten million (over 11 days at 0.1 s).
pub const MAX_ELEVATION_SAMPLES: usize = 10_000_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(rename = "chrono-version")]
    _chrono_version: Option<serde::de::IgnoredAny>,
    model: ModelSection,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModelSection {
    name: Option<String>,
    angle_degrees: Option<bool>,
    data_path: Option<DataPathSection>,
    h5_file: String,
    waves: Option<WavesSection>,
    radiation: Option<RadiationSection>,
    body_to_body: Option<bool>,
    strict_body_names: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DataPathSection {
    #[serde(rename = "type")]
    kind: Option<String>,
    root: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RadiationSection {
    method: Option<String>,
    truncation_time: Option<f64>,
    entry_tolerance: Option<f64>,
    fit_target: Option<f64>,
    max_order: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct WavesSection {
    #[serde(rename = "type")]
    kind: Option<String>,
    height: Option<f64>,
    period: Option<f64>,
    phase: Option<f64>,
    #[serde(rename = "stretching")]
    _stretching: Option<bool>,
    heading: Option<f64>,
    ramp_time: Option<f64>,
    ramp: Option<String>,
    spectrum: Option<String>,
    hs: Option<f64>,
    tp: Option<f64>,
    gamma: Option<f64>,
    seed: Option<u64>,
    omega_min: Option<f64>,
    omega_max: Option<f64>,
    count: Option<usize>,
    method: Option<String>,
    file: Option<String>,
    columns: Option<ColumnsSection>,
    omegas: Option<Vec<f64>>,
    amplitudes: Option<Vec<f64>>,
    phases: Option<Vec<f64>>,
    times: Option<Vec<f64>>,
    elevations: Option<Vec<f64>>,
}

/// The column names of a wave input file (`waves.columns`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ColumnsSection {
    omega: Option<String>,
    amplitude: Option<String>,
    phase: Option<String>,
    time: Option<String>,
    elevation: Option<String>,
}

/// What the model file describes, ready for [`tidelink_tdpf_solver::hydro_model::HydroOptions`].
#[derive(Debug, Clone, PartialEq)]
pub struct TdpfModel {
    /// `model.name`, for logs.
    pub name: String,
    /// The hydrodynamic file, resolved (exists when `load` returns).
    pub h5_file: PathBuf,
    /// Where `h5_file` is set: the place of every error of the hydrodynamic file.
    pub h5_file_loc: Location,
    /// The incident wave (`waves:`); still water when absent.
    pub waves: WaveSpec,
    /// The radiation memory model (`radiation:`); by default the state space identified from the
    /// IRF over its span (the convolution when the fit misses its target).
    pub radiation: RadiationMethod,
    /// Default true (Chrono/HydroChrono); false reproduces WEC-Sim's default `b2b = 0`.
    pub body_to_body: bool,
    /// Where `body_to_body` is set (the `model` key when it is the default).
    pub body_to_body_loc: Location,
    /// Whether a body-name mismatch with the hydrodynamic file is an error rather than a warning.
    pub strict_body_names: bool,
}

/// Reads and checks `path`; every error names the file, the line and the key.
pub fn load(path: &Path) -> Result<TdpfModel, Diagnostics> {
    let (file, lines) = spec::load_yaml_with_lines::<File>(path)?;
    let m = file.model;
    let mut d = Diagnostics::default();
    let base = base_dir(path, &m);
    let h5_file = base.join(&m.h5_file);
    if h5_file.is_dir() {
        d.error(
            lines.loc("model.h5_file"),
            format!(
                "h5_file `{}` is a directory ({}), not an HDF5 file; name the .h5 file itself",
                m.h5_file,
                h5_file.display()
            ),
        );
    } else if !h5_file.is_file() {
        d.error(
            lines.loc("model.h5_file"),
            format!("h5_file `{}` not found (looked for {}){}", m.h5_file, h5_file.display(), generate_hint(&h5_file)),
        );
    }
    let degrees = m.angle_degrees.unwrap_or(true);
    let waves = waves::waves(&m.waves.unwrap_or_default(), degrees, &base, &lines, &mut d);
    let radiation = radiation(m.radiation.as_ref(), &lines, &mut d);
    if d.has_errors() {
        return Err(d);
    }
    Ok(TdpfModel {
        name: m.name.unwrap_or_default(),
        h5_file,
        h5_file_loc: lines.loc("model.h5_file"),
        waves: waves.unwrap_or_default(),
        radiation: radiation.unwrap_or_default(),
        body_to_body: m.body_to_body.unwrap_or(true),
        body_to_body_loc: lines.loc(if m.body_to_body.is_some() { "model.body_to_body" } else { "model" }),
        strict_body_names: m.strict_body_names.unwrap_or(false),
    })
}

/// Where `h5_file` (and a wave input file) is found: next to the model file, or under
/// `data_path.root` (RELATIVE: to the model file; ABSOLUTE: as given).
fn base_dir(path: &Path, m: &ModelSection) -> PathBuf {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let base = match &m.data_path {
        None => dir,
        Some(dp) => {
            let root = dp.root.clone().unwrap_or_else(|| ".".into());
            if dp.kind.as_deref().is_some_and(|k| k.eq_ignore_ascii_case("ABSOLUTE")) {
                PathBuf::from(root)
            } else {
                dir.join(root)
            }
        }
    };
    base
}

/// Upper-cased `value` if it is one of `valid`, else an error at `key` listing them.
fn choice(value: &str, valid: &[&str], key: &str, lines: &YamlLines, d: &mut Diagnostics) -> Option<String> {
    let v = value.trim().to_ascii_uppercase();
    if valid.contains(&v.as_str()) {
        return Some(v);
    }
    d.error(lines.loc(key), format!("invalid value `{value}` for {key}; valid values are {}", valid.join(", ")));
    None
}

/// For a missing hydrodynamic file with a `tidelink hydro` description of the same name beside
/// it (`oswec.yaml` for `oswec.h5`, as `configs/oswec/hydro` ships): how to make it.
fn generate_hint(h5: &Path) -> String {
    let description = h5.with_extension("yaml");
    if description.is_file() {
        // Absolute: the participant runs in the case folder, the user's shell elsewhere.
        let description = description.canonicalize().unwrap_or(description);
        format!("; it is generated: run `tidelink hydro {}` first", description.display())
    } else {
        String::new()
    }
}

fn radiation(r: Option<&RadiationSection>, lines: &YamlLines, d: &mut Diagnostics) -> Option<RadiationMethod> {
    let Some(r) = r else { return Some(RadiationMethod::default()) };
    let method = match &r.method {
        Some(m) => choice(m, &["IDENTIFIED", "CONVOLUTION", "STATE_SPACE"], "model.radiation.method", lines, d)?,
        None => "IDENTIFIED".to_string(),
    };
    if let Some(t) = r.truncation_time {
        if !(t > 0.0 && t.is_finite()) {
            d.error(lines.loc("model.radiation.truncation_time"), format!("truncation_time must be positive, got {t}"));
            return None;
        }
    }
    if let Some(tol) = r.entry_tolerance {
        if !(tol >= 0.0 && tol.is_finite()) {
            d.error(lines.loc("model.radiation.entry_tolerance"), format!("entry_tolerance must be >= 0, got {tol}"));
            return None;
        }
    }
    if let Some(q) = r.fit_target {
        if !(q > 0.0 && q < 1.0) {
            d.error(lines.loc("model.radiation.fit_target"), format!("fit_target must lie in (0, 1), got {q}"));
            return None;
        }
    }
    if let Some(o) = r.max_order {
        if !(1..=40).contains(&o) {
            d.error(lines.loc("model.radiation.max_order"), format!("max_order must lie in 1..=40, got {o}"));
            return None;
        }
    }
    let only = |key: &str, set: bool, methods: &str, d: &mut Diagnostics| {
        if set {
            d.error(lines.loc(&format!("model.radiation.{key}")), format!("{key} applies to method: {methods} only"));
        }
        set
    };
    if method != "CONVOLUTION" && only("entry_tolerance", r.entry_tolerance.is_some(), "CONVOLUTION", d) {
        return None;
    }
    if method != "IDENTIFIED"
        && (only("fit_target", r.fit_target.is_some(), "IDENTIFIED", d)
            || only("max_order", r.max_order.is_some(), "IDENTIFIED", d))
    {
        return None;
    }
    match method.as_str() {
        "STATE_SPACE" => {
            if r.truncation_time.is_some() {
                d.error(
                    lines.loc("model.radiation.truncation_time"),
                    "truncation_time applies to methods IDENTIFIED and CONVOLUTION only (the file's state space has \
                     no fixed memory length)",
                );
                return None;
            }
            Some(RadiationMethod::StateSpace { feedthrough: Feedthrough::Ignored })
        }
        "CONVOLUTION" => Some(RadiationMethod::Convolution {
            truncation: r.truncation_time,
            entry_tolerance: r.entry_tolerance.unwrap_or(0.0),
        }),
        _ => {
            let default = RadiationMethod::identified(r.truncation_time);
            let RadiationMethod::Identified { truncation, target, max_order } = default else { return Some(default) };
            Some(RadiationMethod::Identified {
                truncation,
                target: r.fit_target.unwrap_or(target),
                max_order: r.max_order.unwrap_or(max_order),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tidelink_tdpf_solver::hydro_model::ComponentSpec;
    use tidelink_tdpf_solver::hydro_model::IrregularMethod;
    use tidelink_tdpf_solver::waves::Ramp;

    fn write(dir: &Path, text: &str) -> PathBuf {
        std::fs::write(dir.join("data.h5"), b"").unwrap();
        let p = dir.join("tdpf_model.yaml");
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn regular_waves_with_extensions() {
        let dir = tempfile::tempdir().unwrap();
        let p = write(
            dir.path(),
            "model:\n  h5_file: data.h5\n  body_to_body: false\n  waves:\n    type: regular\n    height: 2.5\n    \
             period: 8\n    phase: 90\n    ramp_time: 100\n",
        );
        let m = load(&p).unwrap();
        assert!(!m.body_to_body && !m.strict_body_names);
        assert_eq!(m.h5_file, dir.path().join("data.h5"));
        match m.waves {
            WaveSpec::Regular { height, period, phase, ramp, .. } => {
                assert_eq!((height, period), (2.5, 8.0));
                assert!((phase - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
                assert_eq!(ramp, Ramp::Cosine { duration: 100.0 });
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(m.radiation, RadiationMethod::default());
        let p = write(
            dir.path(),
            "model:\n  h5_file: data.h5\n  radiation:\n    method: CONVOLUTION\n    truncation_time: 20\n    \
             entry_tolerance: 1e-3\n",
        );
        let m = load(&p).unwrap();
        assert_eq!(m.radiation, RadiationMethod::Convolution { truncation: Some(20.0), entry_tolerance: 1e-3 });
        let p = write(
            dir.path(),
            "model:\n  h5_file: data.h5\n  radiation:\n    truncation_time: 20\n    fit_target: 0.9999\n    \
             max_order: 12\n",
        );
        let m = load(&p).unwrap();
        assert_eq!(m.radiation, RadiationMethod::Identified { truncation: Some(20.0), target: 0.9999, max_order: 12 });
        let p = write(dir.path(), "model:\n  h5_file: data.h5\n  radiation:\n    entry_tolerance: 1e-3\n");
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains(":4:") && e.contains("entry_tolerance applies to method: CONVOLUTION only"), "{e}");
        assert_eq!(m.waves, WaveSpec::None);
    }

    #[test]
    fn unknown_keys_and_unimplemented_waves_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let p = write(dir.path(), "model:\n  h5_file: data.h5\n  waves:\n    type: REGULAR\n    hieght: 2\n");
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains("tdpf_model.yaml:5") && e.contains("unknown key `hieght`"), "{e}");
        let p = write(dir.path(), "model:\n  h5_file: data.h5\n  waves:\n    type: IRREGULAR_ETA_IMPORT\n");
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains(":4:") && e.contains("NO_WAVE, REGULAR, IRREGULAR"), "{e}");
        let p = write(dir.path(), "model:\n  h5_file: missing.h5\n");
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains(":2:") && e.contains("h5_file `missing.h5` not found"), "{e}");
    }

    #[test]
    fn irregular_and_state_space() {
        let dir = tempfile::tempdir().unwrap();
        let p = write(
            dir.path(),
            "model:\n  h5_file: data.h5\n  radiation:\n    method: STATE_SPACE\n  waves:\n    type: IRREGULAR\n    \
             spectrum: JONSWAP\n    hs: 2\n    tp: 8\n    gamma: 2\n    method: CONVOLUTION\n    seed: 7\n",
        );
        let m = load(&p).unwrap();
        assert_eq!(m.radiation, RadiationMethod::StateSpace { feedthrough: Feedthrough::Ignored });
        assert!(matches!(m.waves, WaveSpec::Irregular { seed: 7, method: IrregularMethod::Convolution, .. }));
        let p = write(
            dir.path(),
            "model:\n  h5_file: data.h5\n  waves:\n    type: IRREGULAR\n    hs: 2\n    tp: 8\n    height: 1\n",
        );
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains(":7:") && e.contains("`height` does not apply"), "{e}");
    }

    #[test]
    fn a_bad_wave_input_is_reported_at_its_own_line() {
        let dir = tempfile::tempdir().unwrap();
        // Line 6 is the period (line 5 the height): the message must point at the period.
        let p = write(
            dir.path(),
            "model:\n  h5_file: data.h5\n  waves:\n    type: REGULAR\n    height: 2\n    period: -8\n",
        );
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains(":6:") && e.contains("wave period"), "{e}");
        let p = write(dir.path(), "model:\n  h5_file: data.h5\n  waves:\n    type: IRREGULAR\n    hs: 2\n    tp: 0\n");
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains(":6:") && e.contains("Tp"), "{e}");
    }

    #[test]
    fn components_from_a_file_or_inline() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("sea.csv"), "# a sea\nw,a,p\n0.5,0.1,1.0\n0.6,0.2,2.0\n").unwrap();
        let p = write(
            dir.path(),
            "model:\n  h5_file: data.h5\n  waves:\n    type: COMPONENTS\n    file: sea.csv\n    columns: \
             {omega: w, amplitude: a, phase: p}\n    ramp_time: 100\n    method: CONVOLUTION\n",
        );
        match load(&p).unwrap().waves {
            WaveSpec::Components { components, ramp, method, heading_deg } => {
                assert_eq!(components[1], ComponentSpec { omega: 0.6, amplitude: 0.2, phase: 2.0 });
                assert_eq!(
                    (ramp, method, heading_deg),
                    (Ramp::Cosine { duration: 100.0 }, IrregularMethod::Convolution, 0.0)
                );
            }
            other => panic!("{other:?}"),
        }
        // Inline phases follow angle_degrees (degrees by default).
        let p = write(
            dir.path(),
            "model:\n  h5_file: data.h5\n  waves:\n    type: COMPONENTS\n    omegas: [0.5]\n    amplitudes: [1]\n    \
             phases: [90]\n",
        );
        match load(&p).unwrap().waves {
            WaveSpec::Components { components, .. } => {
                assert!((components[0].phase - std::f64::consts::FRAC_PI_2).abs() < 1e-15)
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_component_inputs_name_their_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("sea.csv"), "w,a,p\n0.5,0.1,1.0\n0.6,x,2.0\n").unwrap();
        let yaml = |cols: &str| {
            format!(
                "model:\n  h5_file: data.h5\n  waves:\n    type: COMPONENTS\n    file: sea.csv\n    columns: {cols}\n"
            )
        };
        let e = load(&write(dir.path(), &yaml("{omega: w, amplitude: a, phase: p}"))).unwrap_err().to_string();
        assert!(e.contains("sea.csv:3") && e.contains("column `a`: `x` is not a finite number"), "{e}");
        assert!(e.contains("tdpf_model.yaml:5"), "{e}");
        let e = load(&write(dir.path(), &yaml("{omega: omega, amplitude: a, phase: p}"))).unwrap_err().to_string();
        assert!(e.contains("sea.csv:1") && e.contains("no column `omega`") && e.contains("w, a, p"), "{e}");
        let e = load(&write(dir.path(), &yaml("{omega: w, amplitude: a, phase: p, time: t}"))).unwrap_err().to_string();
        assert!(e.contains(":6:") && e.contains("column `time` applies to ELEVATION_IMPORT"), "{e}");
        let p = write(
            dir.path(),
            "model:\n  h5_file: data.h5\n  waves:\n    type: COMPONENTS\n    omegas: [0.5, 0.6]\n    \
             amplitudes: [1]\n    phases: [0, 0]\n",
        );
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains(":6:") && e.contains("`amplitudes` has 1 values"), "{e}");
        let p = write(
            dir.path(),
            "model:\n  h5_file: data.h5\n  waves:\n    type: COMPONENTS\n    omegas: [-0.5]\n    \
             amplitudes: [1]\n    phases: [0]\n",
        );
        assert!(load(&p).unwrap_err().to_string().contains("wave component 1"));
        let p = write(dir.path(), "model:\n  h5_file: data.h5\n  waves:\n    type: COMPONENTS\n    hs: 2\n");
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains("`hs` does not apply") && e.contains("either as `file`"), "{e}");
        // More components than any sea state needs: refused at the row past the limit.
        let many: String = (0..=MAX_COMPONENTS).map(|i| format!("{},0.1,0\n", 0.1 + i as f64 * 1e-5)).collect();
        std::fs::write(dir.path().join("sea.csv"), format!("w,a,p\n{many}")).unwrap();
        let e = load(&write(dir.path(), &yaml("{omega: w, amplitude: a, phase: p}"))).unwrap_err().to_string();
        assert!(e.contains(&format!("sea.csv:{}", MAX_COMPONENTS + 2)) && e.contains("more than 100000 rows"), "{e}");
    }

    #[test]
    fn elevation_import() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("eta.csv"), "time,elevation\n0,0\n0.1,0.2\n0.2,0.1\n").unwrap();
        let p =
            write(dir.path(), "model:\n  h5_file: data.h5\n  waves:\n    type: elevation_import\n    file: eta.csv\n");
        match load(&p).unwrap().waves {
            WaveSpec::Elevation { series, ramp, .. } => {
                assert_eq!((series.len(), series.span()), (3, (0.0, 0.2)));
                assert_eq!(ramp.duration(), 0.0);
            }
            other => panic!("{other:?}"),
        }
        std::fs::write(dir.path().join("eta.csv"), "time,elevation\n0,0\n0.1,0.2\n0.1,0.1\n").unwrap();
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains(":5:") && e.contains("sample 2: times must increase strictly"), "{e}");
        let p = write(
            dir.path(),
            "model:\n  h5_file: data.h5\n  waves:\n    type: ELEVATION_IMPORT\n    times: [0, 1]\n    \
             elevations: [0, 1]\n    omegas: [1]\n",
        );
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains(":7:") && e.contains("`omegas` does not apply"), "{e}");
    }
}
