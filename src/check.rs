//! `tidelink check`: every validation that can run without starting a run — the XML, each
//! participant file, each participant's own files (through its `--check`), and the agreements
//! between files that nothing else checks.

use crate::launch;
use crate::manifest::{Case, ParticipantEntry};
use crate::participant_check;
use crate::paths;
use crate::{bodies, gravity};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use tidelink_adapter_core::config::{self, PreciceConfig};
use tidelink_adapter_core::coupling::{native, Backend, PRECICE_AVAILABLE};
use tidelink_adapter_core::diagnostics::{nearest, Diagnostics};
use tidelink_adapter_core::spec::{self, ParticipantFile};

/// What `check` found; `run` goes on only without errors.
pub struct Checked {
    pub case: Option<Case>,
    pub config: Option<PreciceConfig>,
    pub diags: Diagnostics,
}

/// Whether `path` is a preCICE configuration file rather than a case: a file named `*.xml`, or
/// whose text starts with `<` (a manifest is YAML).
pub fn is_xml_file(path: &Path) -> bool {
    if !path.is_file() {
        return false;
    }
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml")) {
        return true;
    }
    let Ok(bytes) = std::fs::read(path) else { return false };
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(512)]);
    text.trim_start_matches('\u{feff}').trim_start().starts_with('<')
}

/// Checks a preCICE configuration alone, without a case: preCICE's validation catalogue, then,
/// on the native backend, for every participant what the native engine would refuse at its start
/// (and the output it would not write). On the precice backend the XML rules are all: the real
/// library runs every feature they accept.
pub fn check_xml(path: &Path, backend: Backend) -> Checked {
    let mut diags = Diagnostics::default();
    let config = match config::load(path) {
        Ok((cfg, warnings)) => {
            diags.extend(warnings);
            Some(cfg)
        }
        Err(errors) => {
            diags.extend(errors);
            None
        }
    };
    if let Some(cfg) = config.as_ref().filter(|_| backend == Backend::Native) {
        for p in &cfg.participants {
            for d in native::check(cfg, &p.name).0 {
                if !diags.0.contains(&d) {
                    diags.push(d);
                }
            }
        }
        diags.0.sort_by_key(|d| d.location.line);
    }
    Checked { case: None, config, diags }
}

/// Checks the case at `path` (a case directory or its manifest).
pub fn check_case(path: &std::path::Path) -> Checked {
    let case = match Case::load(path) {
        Ok(c) => c,
        Err(diags) => return Checked { case: None, config: None, diags },
    };
    let mut diags = Diagnostics::default();
    let config = match config::load(&case.xml_path()) {
        Ok((cfg, warnings)) => {
            diags.extend(warnings);
            Some(cfg)
        }
        Err(errors) => {
            diags.extend(errors);
            None
        }
    };
    check_manifest(&case, config.as_ref(), &mut diags);
    let specs = load_specs(&case, config.as_ref(), &mut diags);
    diags.extend(gravity::check(&specs));
    if let Some(cfg) = &config {
        diags.extend(bodies::check(cfg, &specs));
        diags.extend(crate::exchange::unusable(&case, cfg));
        check_native(&case, cfg, &mut diags);
    }
    if config.is_some() {
        let facts = participant_check::run_all(&case, &mut diags);
        diags.extend(participant_check::cross_rules(&facts));
    }
    Checked { case: Some(case), config, diags }
}

/// Names, commands and directories in the manifest, and its agreement with the XML.
fn check_manifest(case: &Case, cfg: Option<&PreciceConfig>, d: &mut Diagnostics) {
    check_backends(case, d);
    let mut seen = HashSet::new();
    for (i, p) in case.manifest.participants.iter().enumerate() {
        let at = |key: &str| case.loc(&format!("participants[{i}].{key}"));
        if !seen.insert(p.name.as_str()) {
            d.error(at("name"), format!("participant `{}` is listed twice in the manifest", p.name));
        }
        if let Some(cfg) = cfg {
            if cfg.participant(&p.name).is_none() {
                let names: Vec<&str> = cfg.participants.iter().map(|p| p.name.as_str()).collect();
                let hint = match nearest(&p.name, names.iter().copied()) {
                    Some(n) => format!("did you mean `{n}`?"),
                    None => format!("it declares {}", names.join(", ")),
                };
                let msg = format!("participant `{}` is not a <participant> in {}; {hint}", p.name, cfg.path.display());
                d.error(at("name"), msg);
            }
        }
        if p.external {
            continue;
        }
        let wd = case.working_dir(p);
        if !wd.is_dir() {
            d.error(at("working_directory"), format!("working directory {} does not exist", wd.display()));
        }
        match &p.command {
            None => d.error(
                at("name"),
                format!("participant `{}` needs a `command` (or `external: true` if you start it yourself)", p.name),
            ),
            Some(cmd) => {
                if wd.is_dir() && paths::resolve_program(cmd.program(), &wd).is_none() {
                    let msg = if cmd.program().contains('/') {
                        format!("program `{}` not found (or not executable) in {}", cmd.program(), wd.display())
                    } else {
                        format!("program `{}` not found next to tidelink or on PATH", cmd.program())
                    };
                    // `tidelink run` could not start it: an error, so that check passing means the case starts.
                    d.error(at("command"), msg);
                }
                let configured = cmd.args().iter().any(|a| a == "--precice-config");
                if p.spec.is_none() && cmd.program().starts_with("tidelink-") && !configured {
                    let msg = format!("`{}` needs a participant file; add `spec:` to this entry", cmd.program());
                    d.warning(at("command"), msg);
                }
            }
        }
    }
    if let Some(cfg) = cfg {
        for xp in &cfg.participants {
            if !case.manifest.participants.iter().any(|p| p.name == xp.name) {
                let msg = format!(
                    "participant `{}` of the XML is not in {}; `tidelink run` will not start it \
                     (add an entry with `external: true` if you start it yourself)",
                    xp.name,
                    case.manifest_path.display()
                );
                d.warning(xp.loc.clone(), msg);
            }
        }
    }
}

/// The `backend` keys: known values, and where they have no effect.
fn check_backends(case: &Case, d: &mut Diagnostics) {
    let mut keys: Vec<(String, &str)> = Vec::new();
    if let Some(b) = &case.manifest.backend {
        keys.push(("backend".to_string(), b));
    }
    for (i, p) in case.manifest.participants.iter().enumerate() {
        let Some(b) = &p.backend else { continue };
        let key = format!("participants[{i}].backend");
        if p.external {
            d.warning(case.loc(&key), format!("`backend` has no effect on `{}`: it is external", p.name));
        } else if let Some(cmd) = p.command.as_ref().filter(|c| !launch::takes_backend(c)) {
            let why = if cmd.args().iter().any(|a| a == "--backend" || a.starts_with("--backend=")) {
                "its command already passes --backend"
            } else {
                "only Tidelink's own `tidelink-*` programs take --backend"
            };
            d.warning(case.loc(&key), format!("`backend` is not passed to `{}`: {why}", cmd.program()));
        }
        keys.push((key, b));
    }
    check_one_backend(case, d);
    for (key, value) in keys {
        match value.parse::<Backend>() {
            Err(_) => {
                let hint = nearest(value, ["native", "precice"]).map(|n| format!("; did you mean `{n}`?"));
                let msg = format!("unknown backend `{value}`: use `native` or `precice`{}", hint.unwrap_or_default());
                d.error(case.loc(&key), msg);
            }
            Ok(Backend::Precice) if !PRECICE_AVAILABLE => d.warning(
                case.loc(&key),
                "this tidelink was built without the preCICE backend; the participant programs need a build with \
                 `cargo build --workspace --features precice` (libprecice 3.4, see docs/precice-backend.md)",
            ),
            Ok(_) => {}
        }
    }
}

/// What the native engine would refuse (or not write) for each participant `run` starts on it:
/// found here, before any process starts, for the programs without a participant file too.
fn check_native(case: &Case, cfg: &PreciceConfig, d: &mut Diagnostics) {
    for (_, p) in case.launched() {
        if tidelink_backend(case, p) != Some("native") || cfg.participant(&p.name).is_none() {
            continue;
        }
        for diag in native::check(cfg, &p.name).0 {
            if !d.0.contains(&diag) {
                d.push(diag);
            }
        }
    }
}

/// The backend `run` gives a launched `tidelink-*` program (its own `--backend`, else the
/// manifest's, else the programs' default, native); `None` for any other program.
fn tidelink_backend<'a>(case: &'a Case, p: &'a ParticipantEntry) -> Option<&'a str> {
    let cmd = p.command.as_ref()?;
    let program = std::path::Path::new(cmd.program()).file_name().and_then(|n| n.to_str()).unwrap_or("");
    if !program.starts_with("tidelink-") {
        return None;
    }
    let own = cmd.args().windows(2).find(|w| w[0] == "--backend").map(|w| w[1].as_str());
    let own = own.or_else(|| cmd.args().iter().find_map(|a| a.strip_prefix("--backend=")));
    Some(own.or(case.backend_for(p)).unwrap_or("native"))
}

/// The backends of the `tidelink-*` programs `run` starts must agree: the native engine and
/// libprecice do not speak the same protocol, so a mixed case fails at its first connection.
fn check_one_backend(case: &Case, d: &mut Diagnostics) {
    let mut first: Option<(&str, &str)> = None;
    for (i, p) in case.launched() {
        let Some(backend) = tidelink_backend(case, p) else { continue };
        match first {
            None => first = Some((p.name.as_str(), backend)),
            Some((name, b)) if b != backend => {
                let msg = format!(
                    "`{}` runs on the {backend} backend but `{name}` on {b}: all participants of a case must use the \
                     same backend (the native engine and libprecice do not talk to each other)",
                    p.name
                );
                d.error(case.loc(&format!("participants[{i}].name")), msg);
            }
            Some(_) => {}
        }
    }
}

/// Reads every participant file, cross-checks it with the XML and the manifest name.
fn load_specs(case: &Case, cfg: Option<&PreciceConfig>, d: &mut Diagnostics) -> Vec<ParticipantFile> {
    let mut specs = Vec::new();
    let mut read: HashSet<PathBuf> = HashSet::new();
    for (i, p) in case.manifest.participants.iter().enumerate() {
        let Some(path) = case.spec_path(p) else { continue };
        let file = match spec::load(&path) {
            Ok((file, warnings)) => {
                // Two participants may share a file; report its warnings once.
                if read.insert(path.clone()) {
                    d.extend(warnings);
                }
                file
            }
            Err(errors) => {
                d.extend(errors);
                continue;
            }
        };
        if file.adapter.participant_name != p.name {
            let msg = format!(
                "participant_name `{}` does not match the manifest entry `{}` ({}); they must be the same preCICE participant",
                file.adapter.participant_name,
                p.name,
                case.loc(&format!("participants[{i}].name"))
            );
            d.error(file.adapter.loc.clone(), msg);
        } else if let Some(cfg) = cfg {
            d.extend(spec::check_against(cfg, &file));
        }
        specs.push(file);
    }
    specs
}

#[cfg(test)]
mod backend_tests {
    use super::check_case;

    /// A two-participant case whose manifest ends with `tail`; the diagnostics as text.
    fn check_with(tail: &str) -> String {
        let dir = tempfile::tempdir().expect("temporary case");
        let xml = include_str!("../configs/sphere_drop/precice-config.xml");
        std::fs::write(dir.path().join("precice-config.xml"), xml).expect("write the XML");
        let manifest = format!(
            "precice_config: precice-config.xml\nparticipants:\n  - name: Fluid\n    command: tidelink-buoyancy\n  \
             - name: Solid\n    command: tidelink-mbs\n{tail}"
        );
        std::fs::write(dir.path().join("tidelink.yaml"), manifest).expect("write the manifest");
        check_case(dir.path()).diags.to_string()
    }

    #[test]
    fn an_unknown_backend_is_an_error_with_its_line() {
        let text = check_with("backend: precise\n");
        assert!(text.contains("tidelink.yaml:7: error: unknown backend `precise`"), "{text}");
        assert!(text.contains("did you mean `precice`?"), "{text}");
    }

    #[test]
    fn participants_must_not_mix_backends() {
        let text = check_with("    backend: native\nbackend: precice\n");
        assert!(
            text.contains("tidelink.yaml:5: error: `Solid` runs on the native backend but `Fluid` on precice"),
            "{text}"
        );
        // (The programs themselves are not next to this unit-test binary: only backend findings count.)
        let one = check_with("backend: native\n");
        assert!(
            !one.lines().any(|l| l.contains("error") && l.contains("backend")),
            "one backend for all is fine: {one}"
        );
    }

    #[test]
    fn a_folder_without_a_manifest_points_to_its_xml() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let text = check_case(dir.path()).diags.to_string();
        assert!(text.contains("no tidelink.yaml here: a case folder needs this manifest"), "{text}");
        assert!(!text.contains("tidelink check"), "no XML to suggest: {text}");

        std::fs::write(dir.path().join("precice-config.xml"), "<precice-configuration/>").expect("write the XML");
        let text = check_case(dir.path()).diags.to_string();
        let xml = dir.path().join("precice-config.xml");
        assert!(text.contains(&format!("give the file: `tidelink check {}`", xml.display())), "{text}");
    }
}
