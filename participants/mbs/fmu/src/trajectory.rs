//! `tidelink-mbs-fmu trajectory`: the outputs of a model stepped by the Rust side (an
//! [`Instance`] driven directly, not through the C functions or an importer), as CSV; the FMPy
//! test compares an FMU simulated by FMPy with it.

use crate::instance::Instance;
use std::fmt::Write;
use std::path::Path;

/// `args`: `<model.yaml> <step> <steps> [name=value ...]` (values set before initialization
/// ends: inputs held constant, parameters). Returns `time,<outputs...>` rows, the start included;
/// step `k` goes from `(k-1) step` to `k step`.
pub fn run(args: &[String]) -> Result<String, String> {
    let [model, step, steps, sets @ ..] = args else {
        return Err("trajectory needs <model.yaml> <step> <steps> [name=value ...]".into());
    };
    let h: f64 = step.parse().map_err(|_| format!("step `{step}` is not a number"))?;
    let n: usize = steps.parse().map_err(|_| format!("steps `{steps}` is not a whole number"))?;
    let source = crate::setup::Source::Model(Path::new(model).to_path_buf());
    let mut inst = Instance::new("trajectory", &source, None, std::ptr::null_mut(), false)?;
    inst.enter_initialization(0.0)?;
    for s in sets {
        let (name, value) = s.split_once('=').ok_or_else(|| format!("`{s}` is not name=value"))?;
        let vr = inst.vars.list.iter().find(|v| v.name == name).ok_or_else(|| format!("no variable `{name}`"))?.vr;
        inst.set(vr, value.parse().map_err(|_| format!("`{value}` is not a number"))?)?;
    }
    inst.exit_initialization()?;
    let outs: Vec<(u32, String)> = inst.vars.outputs().map(|v| (v.vr, v.name.clone())).collect();
    let mut csv = String::from("time");
    outs.iter().for_each(|(_, name)| csv.push_str(&format!(",{name}")));
    csv.push('\n');
    for k in 0..=n {
        if k > 0 {
            // The grid of a master that counts steps (FMPy): from (k-1) h to k h, so the step
            // sizes carry the same round-off as its communication steps.
            let (t0, t1) = ((k - 1) as f64 * h, k as f64 * h);
            inst.do_step(t0, t1 - t0)?;
        }
        let _ = write!(csv, "{:?}", inst.get(0)?);
        for (vr, _) in &outs {
            let _ = write!(csv, ",{:?}", inst.get(*vr)?);
        }
        csv.push('\n');
    }
    Ok(csv)
}
