//! Unit tests of the whole reader: the reference files, value rules, defaults, hash and
//! "all problems at once". The broken-file corpus is in `tests/config_corpus.rs`.

use super::*;

/// The reference file `rel` of ../shared (docs/testing.md).
#[track_caller]
fn shared(rel: &str) -> std::path::PathBuf {
    tidelink_shared_data::require(env!("TIDELINK_SHARED_DIR"), rel)
}
use crate::testing::pair_xml;
use std::path::Path;

fn ok(text: &str) -> (PreciceConfig, Diagnostics) {
    match parse_str(text, Path::new("case/precice.xml")) {
        Ok(r) => r,
        Err(e) => panic!("unexpected errors:\n{e}"),
    }
}

fn errors(text: &str) -> Vec<Diagnostic> {
    match parse_str(text, Path::new("case/precice.xml")) {
        Ok((_, w)) => panic!("expected errors, got success with warnings:\n{w}"),
        Err(e) => e.errors().cloned().collect(),
    }
}

/// A valid two-participant file of scheme `kind`; `scheme_body` comes before its two exchanges.
fn base(kind: &str, scheme_body: &str) -> String {
    pair_xml(
        r#"<data:vector name="F" waveform-degree="2"/>"#,
        kind,
        &format!(
            r#"{scheme_body}
    <exchange data="T" mesh="MA" from="A" to="B" initialize="maybe"/>
    <exchange data="F" mesh="MA" from="B" to="A" substeps="on"/>"#
        ),
    )
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/compat/chrono (reference data beside the repository)")]
fn compat_files_parse_without_errors() {
    for rel in [
        "compat/chrono/sphere_drop/precice_config_explicit.xml",
        "compat/chrono/sphere_drop/precice_config_implicit.xml",
        "compat/chrono/flap_openfoam/precice_config.xml",
    ] {
        let p = shared(rel);
        let (cfg, warnings) = match load(&p) {
            Ok(r) => r,
            Err(e) => panic!("{rel}:\n{e}"),
        };
        assert_eq!(warnings.errors().count(), 0);
        assert_eq!(cfg.participants.len(), 2, "{rel}");
        assert_eq!(cfg.schemes.len(), 1, "{rel}");
        assert_eq!(cfg.hash.len(), 32);
        assert!(cfg.path.ends_with(rel));
    }
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/compat/chrono (reference data beside the repository)")]
fn compat_explicit_model_content() {
    let p = shared("compat/chrono/sphere_drop/precice_config_explicit.xml");
    let (cfg, _) = load(&p).expect("valid");
    let s = &cfg.schemes[0];
    assert_eq!(s.kind, SchemeKind::SerialExplicit);
    assert_eq!((s.first.as_str(), s.second.as_str()), ("Solid", "Fluid"));
    assert_eq!(s.max_time_windows, Some(1000));
    assert_eq!(s.time_window_size, TimeWindowSize::Fixed(0.001));
    assert_eq!(s.exchanges.len(), 4);
    assert!(s.exchanges[0].initialize && !s.exchanges[2].initialize);
    assert!(s.exchanges.iter().all(|x| !x.substeps));
    let fluid = cfg.participant("Fluid").expect("Fluid");
    assert_eq!(fluid.mappings.len(), 2);
    assert_eq!(fluid.mappings[0].direction, MappingDirection::Write);
    assert_eq!(fluid.mappings[0].constraint, MappingConstraint::Conservative);
    assert_eq!(cfg.m2ns[0].exchange_directory, ".");
    assert_eq!(cfg.data_dimensions("SolidMesh", "forces"), Some(3));
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/compat/chrono (reference data beside the repository)")]
fn compat_implicit_and_flap_content() {
    {
        let p = shared("compat/chrono/sphere_drop/precice_config_implicit.xml");
        let (cfg, _) = load(&p).expect("valid");
        let s = &cfg.schemes[0];
        assert_eq!(s.kind, SchemeKind::SerialImplicit);
        assert_eq!(s.max_iterations, Some(3));
        assert!(s.exchanges.iter().all(|x| x.substeps), "implicit default is substeps=true");
    }
    {
        let p = shared("compat/chrono/flap_openfoam/precice_config.xml");
        let (cfg, _) = load(&p).expect("valid");
        let fluid = cfg.participant("Fluid").expect("Fluid");
        assert_eq!(fluid.mappings[0].method, MappingMethod::Rbf);
        assert_eq!(fluid.mappings[0].basis_functions[0].name, "thin-plate-splines");
        let solid = cfg.participant("Solid").expect("Solid");
        assert_eq!(solid.watch_points[0].coordinate, vec![0.25, 0.0]);
        assert_eq!(solid.exports[0].format, "vtu");
        assert_eq!(cfg.schemes[0].max_time, Some(2.5));
        assert_eq!(cfg.m2ns[0].exchange_directory, "..");
    }
}

#[test]
fn bools_fractions_and_defaults() {
    let (cfg, _) = ok(&base("serial-explicit", r#"    <max-time value="1"/><time-window-size value="1/4"/>"#));
    let s = &cfg.schemes[0];
    assert_eq!(s.time_window_size, TimeWindowSize::Fixed(0.25));
    assert!(!s.exchanges[0].initialize, "\"maybe\" is silently false");
    assert!(!s.exchanges[0].substeps, "explicit default");
    assert!(s.exchanges[1].substeps, "\"on\" is true");
    assert_eq!(cfg.data("T").map(|d| d.waveform_degree), Some(1));
    assert_eq!(cfg.data("F").map(|d| d.waveform_degree), Some(2));
    let m = &cfg.m2ns[0];
    assert_eq!((m.port, m.network.as_str(), m.exchange_directory.as_str()), (0, "lo", "."));
    assert_eq!(m.kind, M2nKind::Sockets);
}

#[test]
fn implicit_substeps_default_true() {
    let body = r#"    <max-time-windows value="3"/><time-window-size value="0.1"/><max-iterations value="5"/>"#;
    let (cfg, _) = ok(&base("parallel-implicit", body));
    assert!(cfg.schemes[0].exchanges[0].substeps);
    assert_eq!(cfg.schemes[0].max_iterations, Some(5));
}

#[test]
fn hash_changes_with_one_whitespace_character() {
    let a = base("serial-explicit", r#"    <max-time value="1"/><time-window-size value="0.1"/>"#);
    let b = a.replacen("<participant name=\"A\">", "<participant  name=\"A\">", 1);
    let (ca, _) = ok(&a);
    let (cb, _) = ok(&b);
    assert_ne!(ca.hash, cb.hash);
    assert_eq!(ca.hash, ok(&a).0.hash);
    assert_eq!(ca.hash, content_hash(a.as_bytes()));
}

#[test]
fn all_independent_problems_are_reported() {
    // Three unrelated mistakes: bad mesh dimension, exchange from == to, no termination.
    let text = base("serial-explicit", r#"    <time-window-size value="0.1"/>"#)
        .replace(r#"dimensions="2""#, r#"dimensions="4""#)
        .replace(r#"from="B" to="A" substeps="on""#, r#"from="B" to="B" substeps="on""#);
    let e = errors(&text);
    assert_eq!(e.len(), 3, "{e:#?}");
    assert!(e.iter().any(|d| d.message.contains("must be 2 or 3") && d.location.line == 4));
    assert!(e.iter().any(|d| d.message.contains("You cannot define an exchange from and to the same participant")));
    assert!(e.iter().any(|d| d.message.contains("At least one termination condition is required")));
    assert!(e.iter().all(|d| d.location.file == Path::new("case/precice.xml")));
}

#[test]
fn attribute_lines_in_multi_line_tags() {
    let text = "<precice-configuration>\n  <data:scalar\n    name=\"T\"\n    waveform-degre=\"1\"/>\n</precice-configuration>\n";
    let e = errors(text);
    let d = e.iter().find(|d| d.message.contains("contains an unknown attribute")).expect("unknown attribute");
    assert_eq!(d.location.line, 4);
    assert!(d.message.contains("Did you mean \"waveform-degree\"?"), "{}", d.message);
}

#[test]
fn malformed_xml_never_panics() {
    for text in
        ["", "<", "<precice-configuration", "<a></b>", "<a x=1/>", "<a/><b/>", "\u{feff}<a>", "<a x=\"&bogus;\"/>"]
    {
        let r = parse_str(text, Path::new("x.xml"));
        let e = r.err().unwrap_or_else(|| panic!("{text:?} should fail"));
        assert!(e.has_errors());
        assert!(e.0.iter().all(|d| d.location.file == Path::new("x.xml")));
    }
}

#[test]
fn window_end_and_warnings_surface() {
    // Degree 2 with substeps on, T received by B who reads it: no errors; Aitken warning in parallel.
    let body = r#"    <max-time-windows value="3"/><time-window-size value="0.1"/><max-iterations value="5"/>
    <acceleration:aitken><data name="F" mesh="MA"/></acceleration:aitken>"#;
    let (_, w) = ok(&base("parallel-implicit", body));
    assert!(w.warnings().any(|d| d.message.contains("known to perform bad in parallel coupling schemes")), "{w}");
}

#[test]
fn load_reports_missing_file() {
    let e = load(Path::new("definitely/not/here.xml")).expect_err("error");
    assert!(e.0[0].message.contains("Cannot read"));
    assert_eq!(e.0[0].location.file, Path::new("definitely/not/here.xml"));
}

#[test]
fn truncated_and_mangled_input_never_panics() {
    let text = base(
        "serial-implicit",
        r#"    <max-time value="1"/><time-window-size value="0.1"/>
    <acceleration:IQN-ILS><data name="F" mesh="MA"/><filter type="QR2"/></acceleration:IQN-ILS>"#,
    );
    for (i, _) in text.char_indices() {
        let _ = parse_str(&text[..i], Path::new("t.xml"));
    }
    let lines: Vec<&str> = text.lines().collect();
    for skip in 0..lines.len() {
        let mangled: Vec<&str> = lines.iter().enumerate().filter(|(i, _)| *i != skip).map(|(_, l)| *l).collect();
        let _ = parse_str(&mangled.join("\n"), Path::new("t.xml"));
        let swapped = text.replace(lines[skip].trim(), "<x a=\"1/0\" b=\"\"/>");
        let _ = parse_str(&swapped, Path::new("t.xml"));
    }
}

#[test]
fn validate_reports_nothing_for_a_clean_model() {
    let (cfg, _) = ok(&base("serial-explicit", r#"    <max-time value="1"/><time-window-size value="0.1"/>"#));
    assert!(!validate(&cfg).has_errors());
}

#[test]
fn tiny_limits_are_printed_compactly() {
    let body = r#"    <max-time-windows value="3"/><time-window-size value="0.1"/><max-iterations value="2"/>
    <relative-convergence-measure data="F" mesh="MA" limit="1e-300"/>
    <absolute-convergence-measure data="F" mesh="MA" limit="-1e-300"/>"#;
    let e = errors(&base("serial-implicit", body));
    let neg = e.iter().find(|d| d.message.contains("has to be larger than zero")).expect("negative limit refused");
    assert!(neg.message.contains("The limit -1e-300 of <absolute-convergence-measure>"), "{}", neg.message);
    let body = body.replace(r#"limit="-1e-300""#, r#"limit="1e-300""#);
    let (_, w) = ok(&base("serial-implicit", &body));
    let tiny = w.warnings().find(|d| d.message.contains("machine tolerance")).expect("a warning for 1e-300");
    assert!(tiny.message.starts_with("The limit 1e-300 of <relative-convergence-measure>"), "{}", tiny.message);
    assert!(!w.to_string().contains("0.0000"), "no 300-digit decimals: {w}");
}

#[test]
fn a_strict_measure_needs_max_iterations() {
    let strict = r#"<absolute-convergence-measure data="F" mesh="MA" limit="1e-3" strict="true"/>"#;
    let body = format!(r#"    <max-time-windows value="3"/><time-window-size value="0.1"/>{strict}"#);
    let e = errors(&base("serial-implicit", &body));
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(e[0].message.contains("is strict, but <coupling-scheme:serial-implicit>"), "{}", e[0].message);
    assert!(e[0].message.contains("Add <max-iterations"), "{}", e[0].message);
    let body = body.replace("<max-time-windows", r#"<max-iterations value="3"/><max-time-windows"#);
    let (cfg, _) = ok(&base("serial-implicit", &body));
    assert!(cfg.schemes[0].convergence_measures[0].strict);
}

#[test]
fn load_refuses_a_device_without_reading_it() {
    let e = load(Path::new("/dev/zero")).expect_err("a device is no configuration");
    assert!(e.0[0].message.contains("not a regular file"), "{}", e.0[0].message);
}

#[test]
fn nesting_deeper_than_the_limit_is_one_error_not_a_stack_overflow() {
    // 200 000 levels: without the limit the tree's drop alone overflows the stack.
    let depth = 200_000;
    let text = format!("{}{}", "<a>\n".repeat(depth), "</a>".repeat(depth));
    let e = parse_str(&text, Path::new("deep.xml")).expect_err("too deep");
    assert_eq!(e.0.len(), 1);
    assert_eq!(e.0[0].location.line, crate::xml::MAX_DEPTH + 1, "the first tag past the limit");
    assert!(e.0[0].message.contains("more than the 100 levels"), "{}", e.0[0].message);
    // At the limit itself the file is read (and refused only for its unknown tags).
    let text = format!("{}{}", "<a>".repeat(crate::xml::MAX_DEPTH), "</a>".repeat(crate::xml::MAX_DEPTH));
    let e = parse_str(&text, Path::new("deep.xml")).expect_err("unknown tags");
    assert!(e.0.iter().all(|d| !d.message.contains("nested")), "{e:?}");
}
