//! The trios of external PTO modules (`configs/rm3_pto_trio/`, `configs/oswec_pto_trio/`: the
//! linear damper, the adaptive damper and the hydraulic accumulator in one irregular sea per
//! platform) pass `tidelink check` as shipped, with no error and no warning, so that a warning
//! there means something (docs/external-modules.md, "The trios").
//!
//! The RM3 cases need `../shared/data/rm3/rm3.h5`, the OSWEC cases the generated
//! `configs/oswec/hydro/oswec.h5` (`tidelink hydro configs/oswec/hydro/oswec.yaml`, not in git);
//! without them the tests are reported as ignored (docs/testing.md). Running them takes minutes
//! each: `pto/examples/run_visual_verification.py` does it.

use std::path::Path;

mod support;
use support::case::tidelink_ok;

/// `tidelink check` of `configs/<trio>/<module>` as shipped: no error, no warning, and the
/// module the case names.
fn checks_clean(trio: &str, module: &str, script: &str) {
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs").join(trio).join(module);
    let out = tidelink_ok(&["check"], &case);
    assert!(out.contains("no errors (0 warning(s))") && !out.contains("warning:"), "{trio}/{module}:\n{out}");
    let model = std::fs::read_to_string(case.join("solid/model.yaml")).expect("read the case's model");
    assert!(model.contains(&format!("pto/examples/{script}")), "{trio}/{module} runs {script}");
}

/// The three cases of a trio share one sea: their manifests name the trio's Fluid.
fn one_sea(trio: &str) {
    for module in ["linear", "adaptive", "accumulator"] {
        let manifest =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("configs").join(trio).join(module).join("tidelink.yaml");
        let text = std::fs::read_to_string(&manifest).expect("read the manifest");
        assert!(text.contains("spec: ../fluid/participant.yaml"), "{}", manifest.display());
    }
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn the_rm3_trio_checks_without_warnings() {
    one_sea("rm3_pto_trio");
    checks_clean("rm3_pto_trio", "linear", "linear_damper_pto.py");
    checks_clean("rm3_pto_trio", "adaptive", "adaptive_damping_pto.py");
    checks_clean("rm3_pto_trio", "accumulator", "hydraulic_accumulator_pto.py");
}

#[test]
#[cfg_attr(
    not(tidelink_oswec_h5),
    ignore = "needs configs/oswec/hydro/oswec.h5 (generate it: tidelink hydro configs/oswec/hydro/oswec.yaml)"
)]
fn the_oswec_trio_checks_without_warnings() {
    one_sea("oswec_pto_trio");
    checks_clean("oswec_pto_trio", "linear", "linear_damper_pto.py");
    checks_clean("oswec_pto_trio", "adaptive", "adaptive_damping_pto.py");
    checks_clean("oswec_pto_trio", "accumulator", "hydraulic_accumulator_pto.py");
}
