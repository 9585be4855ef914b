//! `modelDescription.xml` from the variable table: FMI 3.0 co-simulation, every variable a
//! scalar Float64, the outputs' dependencies on the inputs declared in `ModelStructure`.

use crate::variables::{Kind, Variables};
use std::fmt::Write;

/// The model identifier: the shared library's name in `binaries/<platform>/`.
pub const MODEL_IDENTIFIER: &str = "tidelink_mbs";

/// Escapes text for an XML attribute.
fn attr(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Text that reads back as the same `f64` (Rust's `Debug` of `f64` round-trips; `1e-7` style for small values).
fn number(x: f64) -> String {
    format!("{x:?}")
}

/// The XML text for `vars` of a model called `model_name`; `token` is the instantiation token.
pub fn write(vars: &Variables, model_name: &str, token: &str) -> String {
    let mut x = String::new();
    let v = env!("CARGO_PKG_VERSION");
    let _ = writeln!(x, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        x,
        r#"<fmiModelDescription fmiVersion="3.0" modelName="{}" instantiationToken="{}" description="Tidelink MBS model: forces and torques on the free bodies in, their motions out" generationTool="tidelink-mbs-fmu {v}" variableNamingConvention="flat">"#,
        attr(model_name),
        attr(token)
    );
    let _ = writeln!(
        x,
        r#"  <CoSimulation modelIdentifier="{MODEL_IDENTIFIER}" canHandleVariableCommunicationStepSize="true" canGetAndSetFMUState="true" canSerializeFMUState="false" providesDirectionalDerivatives="true" providesAdjointDerivatives="true" hasEventMode="false" canReturnEarlyAfterIntermediateUpdate="false"/>"#
    );
    let step = vars.list.iter().find(|v| v.kind == Kind::TimeStep).map_or(0.01, |v| v.start);
    let _ = writeln!(x, r#"  <DefaultExperiment startTime="0" stopTime="10" stepSize="{}"/>"#, number(step));
    let _ = writeln!(x, "  <ModelVariables>");
    for var in &vars.list {
        let (causality, variability, start) = match var.kind {
            Kind::Time => ("independent", "continuous", None),
            Kind::Load { .. } => ("input", "continuous", Some(var.start)),
            Kind::Motion { .. } => ("output", "continuous", None),
            Kind::Parameter(_) => ("parameter", "tunable", Some(var.start)),
            Kind::TimeStep => ("parameter", "fixed", Some(var.start)),
            Kind::DerivativeStep => ("parameter", "tunable", Some(var.start)),
        };
        let start = start.map(|s| format!(r#" start="{}""#, number(s))).unwrap_or_default();
        let _ = writeln!(
            x,
            r#"    <Float64 name="{}" valueReference="{}" description="{}" causality="{causality}" variability="{variability}"{start}/>"#,
            attr(&var.name),
            var.vr,
            attr(&var.description)
        );
    }
    let _ = writeln!(x, "  </ModelVariables>");
    let _ = writeln!(x, "  <ModelStructure>");
    // An output depends on the inputs of the bodies connected to its body (joints, force
    // elements, added-mass coupling: `dependencies.rs`), on no other; the directional
    // derivatives give the values (docs/fmi.md says over which step).
    for out in vars.outputs() {
        let inputs: Vec<String> = vars.inputs().filter(|i| vars.depends(out, i)).map(|v| v.vr.to_string()).collect();
        let kinds = vec!["dependent"; inputs.len()].join(" ");
        let _ = writeln!(
            x,
            r#"    <Output valueReference="{}" dependencies="{}" dependenciesKind="{kinds}"/>"#,
            out.vr,
            inputs.join(" ")
        );
    }
    for out in vars.outputs() {
        let _ = writeln!(x, r#"    <InitialUnknown valueReference="{}" dependencies=""/>"#, out.vr);
    }
    let _ = writeln!(x, "  </ModelStructure>");
    let _ = writeln!(x, "</fmiModelDescription>");
    x
}
