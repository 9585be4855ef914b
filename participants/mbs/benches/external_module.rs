//! Cost of an external power take-off per accepted step: a 1000 kg float on a slider with a
//! spring and a damper, stepped with HHT, first with the built-in damper (the baseline) and
//! then with the damper as the worked Python module `pto/examples/linear_damper_pto.py`
//! (one loopback round trip per step). Prints µs per step of each, their ratio, and the mean
//! round trip (the difference per step). The MBS step here is tiny (two bodies, one joint),
//! so the ratio is the worst case; in a coupled case the fluid's cost dilutes it
//! (docs/performance.md has the RM3 figures).
//!
//! `cargo bench -p tidelink-mbs --bench external_module` (needs `python3`; without it the
//! bench says so and measures nothing).

use nalgebra::Vector3;
use std::path::Path;
use std::time::Instant;
use tidelink_adapter_core::Adapter;
use tidelink_mbs::adapter::MbsAdapter;
use tidelink_mbs::io::model_yaml;
use tidelink_mbs_solver::Hht;

const STEPS: usize = 5000;
const DT: f64 = 0.01;

fn model(damping: f64, external: &str) -> String {
    include_str!("../tests/modules/heave_pto.yaml")
        .replace("DAMPING", &damping.to_string())
        .replace("EXTERNAL", external)
}

/// Seconds of wall time for `STEPS` steps of the model in `yaml`.
fn time_steps(yaml: &str) -> f64 {
    let (m, _) = model_yaml::parse_str(yaml, Path::new("model.yaml"), Vector3::zeros()).expect("the bench model");
    let mut a = MbsAdapter::from_system("Solid", m, Box::new(Hht::default()), DT);
    a.start_external_modules().expect("start the module");
    let start = Instant::now();
    for n in 0..STEPS {
        a.advance(n as f64 * DT, DT).expect("a step");
    }
    let wall = start.elapsed().as_secs_f64();
    a.finish().expect("finish");
    wall
}

fn main() {
    if std::process::Command::new("python3").arg("--version").output().is_err() {
        println!("external_module: python3 not found; nothing measured");
        return;
    }
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../pto/examples/linear_damper_pto.py");
    let external = format!(
        "  external_ptos:\n    - {{link: pto, command: [python3, {}], combine_native: true, config: {{damping: 4.0e3}}}}\n",
        module.display()
    );
    for round in 1..=3 {
        let builtin = time_steps(&model(4.0e3, ""));
        let with_module = time_steps(&model(0.0, &external));
        let per = |w: f64| w / STEPS as f64 * 1e6;
        println!(
            "round {round}: built-in damper {:.1} µs/step, Python module {:.1} µs/step ({:.1}x); \
             round trip {:.1} µs per accepted step",
            per(builtin),
            per(with_module),
            with_module / builtin,
            per(with_module - builtin)
        );
    }
}
