//! The rm3_reg_waves case as the tests and the benchmark run it: the shipped implicit
//! coupling or the explicit variant, written flat into a temporary case whose files reach
//! the hydrodynamic data wherever it is (`#[path]`-included by benches/rm3.rs).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use tidelink_adapter_core::testing::{self, TempCase};

pub const XML: &str = include_str!("../../configs/rm3_reg_waves/precice-config.xml");
pub const SOLID: &str = include_str!("../../configs/rm3_reg_waves/solid/participant.yaml");
pub const SOLID_MODEL: &str = include_str!("../../configs/rm3_reg_waves/solid/model.yaml");
pub const PLATE_FREE_MODEL: &str = include_str!("../../configs/rm3_reg_waves/plate_free/solid/model.yaml");
pub const SOLID_SOLVER: &str = include_str!("../../configs/rm3_reg_waves/solid/solver.yaml");
pub const FLUID: &str = include_str!("../../configs/rm3_reg_waves/fluid/participant.yaml");
pub const FLUID_MODEL: &str = include_str!("../../configs/rm3_reg_waves/fluid/tdpf_model.yaml");

/// The radiation section of the shipped Fluid model (what variants replace).
pub const SHIPPED_RADIATION: &str = "method: IDENTIFIED\n    truncation_time: 20";

/// The files in which the case's two couplings differ, and the window they ship with.
pub struct Coupling {
    pub xml: &'static str,
    pub solid: &'static str,
    pub solver: &'static str,
    pub fluid: &'static str,
    pub window: &'static str,
}

/// The coupling window of the shipped case (s): one HHT step of the Solid.
pub const SHIPPED_WINDOW: f64 = 0.04;
/// The shipped coupling: serial-implicit at 40 ms, loads of the window-end state.
pub const IMPLICIT: Coupling = Coupling { xml: XML, solid: SOLID, solver: SOLID_SOLVER, fluid: FLUID, window: "0.04" };
/// `configs/rm3_reg_waves/explicit`: serial-explicit at 5 ms, loads of the window-start state.
pub const EXPLICIT: Coupling = Coupling {
    xml: include_str!("../../configs/rm3_reg_waves/explicit/precice-config.xml"),
    solid: include_str!("../../configs/rm3_reg_waves/explicit/solid/participant.yaml"),
    solver: include_str!("../../configs/rm3_reg_waves/explicit/solid/solver.yaml"),
    fluid: include_str!("../../configs/rm3_reg_waves/explicit/fluid/participant.yaml"),
    window: "0.005",
};

/// The earlier shipped coupling's forces measure (beside the velocities measure), which the
/// studies of docs/performance.md put back.
pub const FORCES_MEASURE: &str =
    r#"<absolute-or-relative-convergence-measure data="forces" mesh="SolidMesh" abs-limit="1e-2" rel-limit="1e-7" />"#;
/// The shipped velocities measure, where a study inserts the forces measure after it.
pub const VELOCITIES_MEASURE: &str = r#"<absolute-or-relative-convergence-measure data="velocities" mesh="SolidMesh" abs-limit="1e-6" rel-limit="1e-5" />"#;

/// `c` with `from` replaced by `to` in its XML (a variant for a study; the text is leaked, which
/// a test or bench process can afford).
pub fn with_xml(c: &Coupling, from: &str, to: &str) -> Coupling {
    let xml: &'static str = Box::leak(edit(c.xml, from, to).into_boxed_str());
    Coupling { xml, ..*c }
}

/// The coupling shipped before the forces measure was dropped: both measures (3 iterations per
/// window), for the comparisons of docs/performance.md.
pub fn two_measures() -> Coupling {
    with_xml(&IMPLICIT, VELOCITIES_MEASURE, &format!("{VELOCITIES_MEASURE}\n    {FORCES_MEASURE}"))
}

/// Replaces `from` (which must be there) by `to`.
pub fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the shipped file no longer contains `{from}`");
    text.replace(from, to)
}

/// A shipped file made to fit a flat temporary case: the hydrodynamic data at `data` (the
/// shipped files reach it relative to the repository), a variant's model files beside it.
pub fn absolute(text: &str, data: &Path) -> String {
    let t = text.replace("type: RELATIVE", "type: ABSOLUTE");
    let t = t.replace("model: ../../solid/model.yaml", "model: model.yaml");
    let t = t.replace("model: ../../fluid/tdpf_model.yaml", "model: tdpf_model.yaml");
    t.lines()
        .map(|l| match l.split_once("root: ") {
            Some((indent, _)) => format!("{indent}root: {}\n", data.display()),
            None => format!("{l}\n"),
        })
        .collect()
}

/// Writes a case of `duration` s at `window` with coupling `c`, the Solid's model `model`,
/// the body-to-body switch and the Solid's output format: (case, Solid file, Fluid file).
pub fn write(
    data: &Path,
    c: &Coupling,
    model: &str,
    body_to_body: bool,
    duration: f64,
    window: f64,
    output: &str,
) -> (TempCase, PathBuf, PathBuf) {
    let xml = edit(c.xml, r#"exchange-directory=".""#, r#"exchange-directory="{dir}""#);
    let xml = edit(
        &xml,
        &format!(r#"<time-window-size value="{}" />"#, c.window),
        &format!(r#"<time-window-size value="{window}" />"#),
    );
    let xml = edit(&xml, r#"<max-time value="200" />"#, &format!(r#"<max-time value="{duration}" />"#));
    let case = testing::temp_case(&xml);
    let b2b = format!("body_to_body: {body_to_body}");
    let solid = edit(c.solid, "body_to_body: false", &b2b);
    let solid = edit(&solid, "format: CSV", &format!("format: {output}"));
    let solid_file = case.write("solid/participant.yaml", &absolute(&solid, data));
    case.write("solid/model.yaml", model);
    let step = format!("time_step: {}", c.window);
    case.write("solid/solver.yaml", &edit(c.solver, &step, &format!("time_step: {window}")));
    let fluid_file = case.write("fluid/participant.yaml", &absolute(c.fluid, data));
    case.write("fluid/tdpf_model.yaml", &absolute(&edit(FLUID_MODEL, "body_to_body: false", &b2b), data));
    (case, solid_file, fluid_file)
}
