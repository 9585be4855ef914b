//! The tutorial-style configurations of `configs/tutorials/` under `tidelink check`: each is
//! accepted, or refused only for features the native engine does not have, each refusal at its
//! tag and naming the feature; the native engine refuses exactly the same at a run's start, and
//! on the precice backend every file is accepted as it is.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tidelink_adapter_core::coupling::native::NativeParticipant;

/// What `tidelink check` must say about one configuration on the native engine: every error
/// is at a line holding one of `refused` (the opening of the tag) and reads `<feature> is not
/// supported by the native engine`. Nothing else: no warnings (its output files, watch-points,
/// watch-integrals and exports, it writes: they are never refused).
struct Expected {
    name: &'static str,
    /// (start of the refused tag, the feature named in the message).
    refused: &'static [(&'static str, &'static str)],
}

const TUTORIALS: [Expected; 5] = [
    Expected { name: "oscillator", refused: &[] },
    Expected { name: "partitioned-heat-conduction", refused: &[] },
    Expected { name: "perpendicular-flap", refused: &[] },
    Expected { name: "multiple-perpendicular-flaps", refused: &[] },
    Expected { name: "flow-over-heated-plate", refused: &[] },
];

fn config(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/tutorials").join(name).join("precice-config.xml")
}

fn check(args: &[&str], xml: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tidelink")).arg("check").args(args).arg(xml).output().expect("start tidelink")
}

/// The 1-based lines of `xml` that hold `fragment`.
fn lines_with(xml: &Path, fragment: &str) -> BTreeSet<usize> {
    let text = std::fs::read_to_string(xml).expect("read the configuration");
    text.lines().enumerate().filter(|(_, l)| l.contains(fragment)).map(|(i, _)| i + 1).collect()
}

/// (line, message) of every `<xml>:<line>: <severity>: <message>` line of the output.
fn findings(out: &str, xml: &Path, severity: &str) -> Vec<(usize, String)> {
    let prefix = format!("{}:", xml.display());
    out.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter_map(|rest| {
            let (line, rest) = rest.split_once(": ")?;
            let message = rest.strip_prefix(&format!("{severity}: "))?;
            Some((line.parse().ok()?, message.to_string()))
        })
        .collect()
}

/// Every line of `out` is a finding about `xml` or the summary: nothing about other files.
fn only_findings_and_summary(out: &str, xml: &Path) {
    let prefix = format!("{}:", xml.display());
    let summary = format!("configuration `{}`: ", xml.display());
    for l in out.lines() {
        assert!(l.starts_with(&prefix) || l.starts_with(&summary), "unexpected output line {l:?} in:\n{out}");
    }
}

#[test]
fn each_tutorial_is_accepted_or_refused_only_for_features_the_native_engine_lacks() {
    for t in &TUTORIALS {
        let xml = config(t.name);
        let o = check(&[], &xml);
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        only_findings_and_summary(&out, &xml);

        let errors = findings(&out, &xml, "error");
        let mut expected_errors = BTreeSet::new();
        for (tag, feature) in t.refused {
            let at = lines_with(&xml, tag);
            assert!(!at.is_empty(), "{}: no {tag} in the file", t.name);
            for line in at {
                expected_errors.insert((line, format!("{feature} is not supported by the native engine")));
            }
        }
        let got: BTreeSet<(usize, String)> = errors
            .iter()
            .map(|(line, m)| {
                let feature = m.split(" is not supported by the native engine").next().unwrap_or("");
                assert!(
                    m.contains("run with the precice backend"),
                    "{}:{line}: the refusal gives no way out: {m}",
                    t.name
                );
                (*line, format!("{feature} is not supported by the native engine"))
            })
            .collect();
        assert_eq!(got, expected_errors, "{}: the errors are not exactly the refused features:\n{out}", t.name);
        assert_eq!(got.len(), errors.len(), "{}: one error per refused tag:\n{out}", t.name);

        let warnings = findings(&out, &xml, "warning");
        assert!(warnings.is_empty(), "{}: unexpected warnings:\n{out}", t.name);

        let summary = format!(
            "configuration `{}`: {}",
            xml.display(),
            if errors.is_empty() {
                format!("no errors ({} warning(s))", warnings.len())
            } else {
                format!("{} error(s), {} warning(s)", errors.len(), warnings.len())
            }
        );
        assert!(out.lines().any(|l| l == summary), "{}: no line {summary:?} in:\n{out}", t.name);
        assert_eq!(o.status.success(), errors.is_empty(), "{}: exit status {:?}:\n{out}", t.name, o.status);
    }
}

/// The rule behind `check`: a run refuses exactly what `check` refuses, with the same words
/// and location, at the start, before any connection.
#[test]
fn a_run_on_the_native_engine_refuses_what_check_refuses_at_the_same_lines() {
    for t in &TUTORIALS {
        let xml = config(t.name);
        let out = String::from_utf8_lossy(&check(&[], &xml).stdout).into_owned();
        let checked: BTreeSet<String> = findings(&out, &xml, "error")
            .into_iter()
            .map(|(line, m)| format!("{}:{line}: {m}", xml.display()))
            .collect();
        let cfg = tidelink_adapter_core::config::load(&xml).unwrap_or_else(|d| panic!("{d}")).0;
        let mut refused = BTreeSet::new();
        for p in &cfg.participants {
            match NativeParticipant::new(&p.name, &xml) {
                Ok(_) => {}
                Err(e) => refused.extend(e.message.lines().map(str::to_string)),
            }
        }
        assert_eq!(refused, checked, "{}: a run and check disagree", t.name);
    }
}

#[test]
fn on_the_precice_backend_every_tutorial_is_accepted_as_it_is() {
    for t in &TUTORIALS {
        let xml = config(t.name);
        let o = check(&["--backend", "precice"], &xml);
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success(), "{}:\n{out}", t.name);
        assert_eq!(
            out.trim_end(),
            format!("configuration `{}`: no errors (0 warning(s))", xml.display()),
            "{}",
            t.name
        );
    }
}
