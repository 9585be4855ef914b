//! From the XML to the declaration and to `build`: every child is kept, defaults resolve as
//! documented in `settings`, unsupported settings are refused with the tag's location.

use crate::native::acceleration::{build, settings};
use crate::ErrorKind;
use std::path::Path;
use tidelink_precice_config::testing::pair_xml;
use tidelink_precice_config::{
    parse_str, AccelerationDecl, AccelerationKind, BoundViolation, DataKey, FilterDecl, FilterKind, ImvjRestartDecl,
    ImvjRestartKind, PreconditionerDecl, PreconditionerKind,
};

/// A serial-implicit file whose scheme holds `acc` (F goes from the second participant B to A).
fn parse(acc: &str) -> AccelerationDecl {
    let text = pair_xml(
        r#"<data:scalar name="F"/>"#,
        "serial-implicit",
        &format!(
            r#"    <max-time value="1"/><time-window-size value="0.1"/><max-iterations value="5"/>
    <exchange data="T" mesh="MA" from="A" to="B"/>
    <exchange data="F" mesh="MA" from="B" to="A"/>
{acc}"#
        ),
    );
    let (cfg, _) = parse_str(&text, Path::new("case/precice.xml")).unwrap_or_else(|e| panic!("{e}"));
    cfg.schemes[0].acceleration.clone().expect("an acceleration")
}

#[test]
fn every_child_of_iqn_imvj_is_kept() {
    let d = parse(
        r#"    <acceleration:IQN-IMVJ reduced-time-grid="false" on-bound-violation="ignore" always-build-jacobian="true">
      <initial-relaxation value="0.3" enforce="true"/>
      <max-used-iterations value="7"/>
      <time-windows-reused value="2"/>
      <data name="F" mesh="MA" scaling="2.5"/>
      <filter type="QR1-absolute"/>
      <preconditioner type="value" update-on-threshold="false" freeze-after="4"/>
      <imvj-restart-mode type="RS-LS" chunk-size="3" reused-time-windows-at-restart="5" truncation-threshold="1e-3"/>
    </acceleration:IQN-IMVJ>"#,
    );
    assert_eq!(d.kind, AccelerationKind::IqnImvj);
    assert_eq!(d.data, [DataKey::new("MA", "F")]);
    assert_eq!(d.scaling, [Some(2.5)]);
    assert_eq!((d.initial_relaxation, d.enforce_initial_relaxation), (Some(0.3), Some(true)));
    assert_eq!((d.max_used_iterations, d.time_windows_reused), (Some(7), Some(2)));
    assert_eq!(d.filter, Some(FilterDecl { kind: FilterKind::Qr1Absolute, limit: None }));
    assert_eq!(
        d.preconditioner,
        Some(PreconditionerDecl {
            kind: PreconditionerKind::Value,
            update_on_threshold: Some(false),
            freeze_after: Some(4)
        })
    );
    assert_eq!((d.reduced_time_grid, d.on_bound_violation), (Some(false), Some(BoundViolation::Ignore)));
    assert_eq!(d.always_build_jacobian, Some(true));
    assert_eq!(
        d.imvj_restart,
        Some(ImvjRestartDecl {
            kind: ImvjRestartKind::RsLs,
            chunk_size: Some(3),
            reused_time_windows_at_restart: Some(5),
            truncation_threshold: Some(1e-3)
        })
    );
    // Resolved: the filter tag without a limit means 1e-16; the scaling reaches the preconditioner.
    let s = settings::qn(&d).unwrap();
    assert_eq!((s.filter, s.filter_limit), (FilterKind::Qr1Absolute, 1e-16));
    assert_eq!(s.preconditioner.scaling_of(&DataKey::new("MA", "F")), 2.5);
    assert_eq!(s.preconditioner.freeze_after, Some(4));
    let im = settings::imvj(&d);
    assert_eq!((im.chunk_size, im.reused_time_windows_at_restart, im.truncation_threshold), (3, 5, 1e-3));
    assert!(im.always_build_jacobian);
    assert!(build(&d).is_ok());
}

#[test]
fn absent_children_resolve_to_the_documented_defaults() {
    let d = parse(r#"    <acceleration:IQN-ILS><data name="F" mesh="MA"/></acceleration:IQN-ILS>"#);
    assert_eq!((d.filter, d.preconditioner, d.max_used_iterations, d.on_bound_violation), (None, None, None, None));
    let s = settings::qn(&d).unwrap();
    assert_eq!((s.initial_relaxation, s.enforce_initial_relaxation), (0.1, false));
    assert_eq!((s.max_used_iterations, s.time_windows_reused, s.reduced_time_grid), (100, 10, true));
    assert_eq!((s.filter, s.filter_limit), (FilterKind::Qr3, 1e-2));
    assert_eq!(s.preconditioner.kind, PreconditionerKind::ResidualSum);
    assert!(s.preconditioner.update_on_threshold && s.preconditioner.freeze_after.is_none());
    assert_eq!(s.preconditioner.scaling_of(&DataKey::new("MA", "F")), 1.0);

    let d = parse(r#"    <acceleration:IQN-IMVJ><data name="F" mesh="MA"/></acceleration:IQN-IMVJ>"#);
    let s = settings::qn(&d).unwrap();
    assert_eq!((s.max_used_iterations, s.time_windows_reused), (20, 0));
    let im = settings::imvj(&d);
    assert_eq!(im.restart, ImvjRestartKind::RsSvd);
    assert_eq!((im.chunk_size, im.reused_time_windows_at_restart, im.truncation_threshold), (8, 8, 1e-4));
    assert!(!im.always_build_jacobian);

    let d = parse(r#"    <acceleration:aitken><data name="F" mesh="MA"/></acceleration:aitken>"#);
    let (omega, pre) = settings::aitken(&d).unwrap();
    assert_eq!((omega, pre.kind), (0.5, PreconditionerKind::ResidualSum));

    let d = parse(r#"    <acceleration:constant><relaxation value="0.25"/></acceleration:constant>"#);
    assert_eq!(settings::constant(&d).unwrap(), 0.25);
}

#[test]
fn on_bound_violation_other_than_ignore_is_refused_at_the_tag() {
    for v in ["clamp", "discard", "scale"] {
        let d = parse(&format!(
            r#"    <acceleration:IQN-ILS on-bound-violation="{v}"><data name="F" mesh="MA"/></acceleration:IQN-ILS>"#
        ));
        assert_eq!(d.on_bound_violation.map(|b| b.tag()), Some(v));
        let e = build(&d).err().expect("refused");
        assert_eq!(e.kind, ErrorKind::Config);
        let line = d.loc.line;
        assert!(line > 0 && e.message.contains(&format!("case/precice.xml:{line}")), "{}", e.message);
        assert!(e.message.contains(v) && e.message.contains("on-bound-violation"), "{}", e.message);
    }
}

#[test]
fn constant_preconditioner_with_zero_scaling_is_refused() {
    let d = parse(
        r#"    <acceleration:IQN-ILS><data name="F" mesh="MA" scaling="0"/><preconditioner type="constant"/></acceleration:IQN-ILS>"#,
    );
    let e = build(&d).err().expect("refused");
    assert_eq!(e.kind, ErrorKind::Config);
    assert!(e.message.contains("scaling") && e.message.contains("\"F\""), "{}", e.message);
}

#[test]
fn bad_restart_counts_are_reported() {
    let text = r#"<precice-configuration><data:scalar name="F"/><mesh name="MA" dimensions="2"><use-data name="F"/></mesh>
<participant name="A"><provide-mesh name="MA"/><read-data name="F" mesh="MA"/></participant>
<participant name="B"><receive-mesh name="MA" from="A"/><write-data name="F" mesh="MA"/></participant>
<m2n:sockets acceptor="A" connector="B"/>
<coupling-scheme:parallel-implicit><participants first="A" second="B"/><max-time value="1"/><time-window-size value="0.1"/>
<max-iterations value="3"/><exchange data="F" mesh="MA" from="B" to="A"/>
<acceleration:IQN-IMVJ><data name="F" mesh="MA"/><imvj-restart-mode type="RS-0" chunk-size="0"/></acceleration:IQN-IMVJ>
</coupling-scheme:parallel-implicit></precice-configuration>"#;
    let e = parse_str(text, Path::new("x.xml")).expect_err("chunk-size 0");
    assert!(e.errors().any(|d| d.message.contains("chunk-size (0)")), "{e}");
}
