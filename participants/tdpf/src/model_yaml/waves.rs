//! The `waves:` section of the TDPF model file: the wave type and its inputs checked (each
//! error at the line of the input it is about), turned into the solver's [`WaveSpec`].

use super::imported::{components, elevation};
use super::{choice, WavesSection, WAVE_TYPES};
use std::path::Path;
use tidelink_adapter_core::diagnostics::Diagnostics;
use tidelink_adapter_core::spec::YamlLines;
use tidelink_tdpf_solver::hydro_model::{IrregularMethod, WaveSpec};
use tidelink_tdpf_solver::waves::{FrequencyBand, Ramp, Spectrum, WaveError};

/// The waves the section describes, or `None` with the reasons in `d`.
pub(super) fn waves(
    w: &WavesSection,
    degrees: bool,
    base: &Path,
    lines: &YamlLines,
    d: &mut Diagnostics,
) -> Option<WaveSpec> {
    let kind = match &w.kind {
        None => "NO_WAVE".to_string(),
        Some(k) => {
            let v = k.trim().to_ascii_uppercase();
            if !WAVE_TYPES.contains(&v.as_str()) {
                d.error(
                    lines.loc("model.waves.type"),
                    format!(
                        "wave type `{k}` is not implemented by the TDPF participant; it implements {}",
                        WAVE_TYPES.join(", ")
                    ),
                );
                return None;
            }
            v
        }
    };
    let misplaced = |keys: &[(&str, bool)], d: &mut Diagnostics| {
        for (key, present) in keys {
            if *present {
                d.error(
                    lines.loc(&format!("model.waves.{key}")),
                    format!("`{key}` does not apply to waves of type {kind}"),
                );
            }
        }
    };
    let irregular_keys = [
        ("spectrum", w.spectrum.is_some()),
        ("hs", w.hs.is_some()),
        ("tp", w.tp.is_some()),
        ("gamma", w.gamma.is_some()),
        ("seed", w.seed.is_some()),
        ("omega_min", w.omega_min.is_some()),
        ("omega_max", w.omega_max.is_some()),
        ("count", w.count.is_some()),
        ("method", w.method.is_some()),
    ];
    let regular_keys = [("height", w.height.is_some()), ("period", w.period.is_some()), ("phase", w.phase.is_some())];
    let component_keys =
        [("omegas", w.omegas.is_some()), ("amplitudes", w.amplitudes.is_some()), ("phases", w.phases.is_some())];
    let import_keys = [
        ("file", w.file.is_some()),
        ("columns", w.columns.is_some()),
        ("times", w.times.is_some()),
        ("elevations", w.elevations.is_some()),
    ];
    // At the line of the input the error names, else at `key`'s.
    let wave_err = |e: WaveError, key: &str, d: &mut Diagnostics| {
        let named = match e.input() {
            Some("wave height" | "wave amplitude") => "height",
            Some("wave period") => "period",
            Some("wave phase") => "phase",
            Some("wave heading") => "heading",
            Some("Hs") => "hs",
            Some("Tp") => "tp",
            Some("gamma") => "gamma",
            _ => key,
        };
        d.error(lines.loc(&format!("model.waves.{named}")), format!("invalid waves: {e}"));
    };
    let ramp = || -> Result<Ramp, WaveError> {
        let t = w.ramp_time.unwrap_or(0.0);
        match w.ramp.as_deref().map(|r| r.trim().to_ascii_uppercase()).as_deref() {
            Some("LINEAR") => Ramp::linear(t),
            _ => Ramp::cosine(t),
        }
    };
    if let Some(r) = &w.ramp {
        choice(r, &["LINEAR", "COSINE"], "model.waves.ramp", lines, d)?;
    }
    let heading = w.heading.unwrap_or(0.0);
    match kind.as_str() {
        "NO_WAVE" => {
            misplaced(&irregular_keys, d);
            misplaced(&component_keys, d);
            misplaced(&import_keys, d);
            Some(WaveSpec::None)
        }
        "COMPONENTS" => {
            misplaced(&regular_keys, d);
            misplaced(&irregular_keys[..8], d);
            misplaced(&import_keys[2..], d);
            let method = irregular_method(w, lines, d)?;
            let ramp = ramp().map_err(|e| wave_err(e, "ramp_time", d)).ok()?;
            let components = components(w, degrees, base, lines, d)?;
            Some(WaveSpec::Components { components, heading_deg: heading, ramp, method })
        }
        "ELEVATION_IMPORT" => {
            misplaced(&regular_keys, d);
            misplaced(&irregular_keys, d);
            misplaced(&component_keys, d);
            let ramp = ramp().map_err(|e| wave_err(e, "ramp_time", d)).ok()?;
            let series = elevation(w, base, lines, d)?;
            Some(WaveSpec::Elevation { series, heading_deg: heading, ramp })
        }
        "REGULAR" => {
            misplaced(&irregular_keys, d);
            misplaced(&component_keys, d);
            misplaced(&import_keys, d);
            let (Some(height), Some(period)) = (w.height, w.period) else {
                d.error(lines.loc("model.waves"), "waves of type REGULAR need `height` (m) and `period` (s)");
                return None;
            };
            let phase = w.phase.unwrap_or(0.0);
            let phase = if degrees { phase.to_radians() } else { phase };
            let ramp = ramp().map_err(|e| wave_err(e, "ramp_time", d)).ok()?;
            if let Err(e) = tidelink_tdpf_solver::waves::RegularWave::from_height(height, period, phase, heading) {
                wave_err(e, "height", d);
                return None;
            }
            Some(WaveSpec::Regular { height, period, phase, heading_deg: heading, ramp })
        }
        _ => {
            misplaced(&regular_keys, d);
            misplaced(&component_keys, d);
            misplaced(&import_keys, d);
            let (Some(hs), Some(tp)) = (w.hs, w.tp) else {
                d.error(lines.loc("model.waves"), "waves of type IRREGULAR need `hs` (m) and `tp` (s)");
                return None;
            };
            let kinds = ["PIERSON_MOSKOWITZ", "JONSWAP"];
            let spectrum = match w.spectrum.as_deref() {
                Some(s) => choice(s, &kinds, "model.waves.spectrum", lines, d)?,
                None => "PIERSON_MOSKOWITZ".to_string(),
            };
            if spectrum != "JONSWAP" && w.gamma.is_some() {
                d.error(lines.loc("model.waves.gamma"), "`gamma` applies to spectrum: JONSWAP only");
            }
            let spectrum = if spectrum == "JONSWAP" {
                Spectrum::jonswap(hs, tp, w.gamma.unwrap_or(3.3))
            } else {
                Spectrum::pierson_moskowitz(hs, tp)
            };
            let spectrum = spectrum.map_err(|e| wave_err(e, "hs", d)).ok()?;
            let method = irregular_method(w, lines, d)?;
            let band = match (w.omega_min, w.omega_max, w.count) {
                (None, None, None) => None,
                (Some(lo), Some(hi), count) => {
                    Some(FrequencyBand { omega_min: lo, omega_max: hi, count: count.unwrap_or(500) })
                }
                _ => {
                    d.error(lines.loc("model.waves"), "give both `omega_min` and `omega_max` (rad/s), or neither");
                    return None;
                }
            };
            let ramp = ramp().map_err(|e| wave_err(e, "ramp_time", d)).ok()?;
            let seed = w.seed.unwrap_or(1);
            Some(WaveSpec::Irregular { spectrum, band, seed, heading_deg: heading, ramp, method })
        }
    }
}

/// `waves.method`: SUPERPOSITION (the default) or CONVOLUTION.
fn irregular_method(w: &WavesSection, lines: &YamlLines, d: &mut Diagnostics) -> Option<IrregularMethod> {
    Some(match w.method.as_deref() {
        Some(m) => match choice(m, &["SUPERPOSITION", "CONVOLUTION"], "model.waves.method", lines, d)?.as_str() {
            "CONVOLUTION" => IrregularMethod::Convolution,
            _ => IrregularMethod::Superposition,
        },
        None => IrregularMethod::Superposition,
    })
}
