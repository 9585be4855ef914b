//! The nearest-neighbor-gradient scenario in time, shared by the end-to-end test
//! (`engine_mapping.rs`) and the differential test (`mapping_differential.rs`): B (second,
//! measuring) writes T = [`field`] at every half-window step with its gradient, and initial
//! data [`initial`] with its gradient; A reads T on its own vertices through
//! nearest-neighbor-gradient, sub-steps exchanged, in a serial-implicit window of two
//! iterations with constant relaxation ω = ½ on T. Also the gradient calls' misuse, played
//! by B alone before `initialize`.

use tidelink_coupling::{Coupling, CouplingError};

/// The configuration (the m2n's `{dir}` filled in by the test).
pub const XML: &str = r#"<?xml version="1.0"?>
<precice-configuration experimental="true">
  <data:scalar name="T" waveform-degree="1"/>
  <data:scalar name="S"/>
  <mesh name="A-Mesh" dimensions="2"><use-data name="T"/><use-data name="S"/></mesh>
  <mesh name="B-Mesh" dimensions="2"><use-data name="T"/><use-data name="S"/></mesh>
  <participant name="A">
    <provide-mesh name="A-Mesh"/>
    <receive-mesh name="B-Mesh" from="B"/>
    <write-data name="S" mesh="A-Mesh"/>
    <read-data name="T" mesh="A-Mesh"/>
    <mapping:nearest-neighbor-gradient direction="read" from="B-Mesh" to="A-Mesh" constraint="consistent"/>
  </participant>
  <participant name="B">
    <provide-mesh name="B-Mesh"/>
    <receive-mesh name="A-Mesh" from="A"/>
    <write-data name="T" mesh="B-Mesh"/>
    <read-data name="S" mesh="B-Mesh"/>
    <mapping:nearest-neighbor direction="read" from="A-Mesh" to="B-Mesh" constraint="consistent"/>
  </participant>
  <m2n:sockets acceptor="A" connector="B" exchange-directory="{dir}"/>
  <coupling-scheme:serial-implicit>
    <participants first="A" second="B"/>
    <max-time value="1"/>
    <time-window-size value="1"/>
    <max-iterations value="2"/>
    <exchange data="S" mesh="A-Mesh" from="A" to="B"/>
    <exchange data="T" mesh="B-Mesh" from="B" to="A" substeps="true" initialize="true"/>
    <relative-convergence-measure data="T" mesh="B-Mesh" limit="1e-10"/>
    <acceleration:constant><relaxation value="0.5"/></acceleration:constant>
  </coupling-scheme:serial-implicit>
</precice-configuration>
"#;

/// A's vertices.
pub const A_VERTICES: [f64; 4] = [0.0, 0.0, 1.0, 0.0];
/// B's: (0.25, 0.5) and (1.5, −0.5), the nearest to one of A's each, on neither.
pub const B_VERTICES: [f64; 4] = [0.25, 0.5, 1.5, -0.5];

/// T at time t: t (1 + 2x − 3y), gradient t (2, −3).
pub fn field(t: f64, x: &[f64]) -> f64 {
    t * (1.0 + 2.0 * x[0] - 3.0 * x[1])
}

/// T's initial data: 5 + x, gradient (1, 0).
pub fn initial(x: &[f64]) -> f64 {
    5.0 + x[0]
}

/// A: reads T at the end of every half-window step; (iteration, t, T at its two vertices),
/// flat, for every step.
pub fn play_a(a: &mut dyn Coupling) -> Result<Vec<f64>, CouplingError> {
    let mut ids = [0; 2];
    a.set_mesh_vertices("A-Mesh", &A_VERTICES, &mut ids)?;
    a.initialize()?;
    let mut reads = Vec::new();
    let (mut t, mut iteration) = (0.0, 1.0);
    while a.is_coupling_ongoing()? {
        a.requires_writing_checkpoint()?;
        let mut v = [0.0; 2];
        a.read_data("A-Mesh", "T", &ids, 0.5, &mut v)?;
        reads.extend([iteration, t + 0.5, v[0], v[1]]);
        a.write_data("A-Mesh", "S", &ids, &[1.0, 1.0])?;
        a.advance(0.5)?;
        t += 0.5;
        if a.requires_reading_checkpoint()? {
            (t, iteration) = (0.0, iteration + 1.0);
        }
    }
    a.finalize()?;
    Ok(reads)
}

/// B: initial data, then T with its gradients at every step end.
pub fn play_b(b: &mut dyn Coupling) -> Result<Vec<f64>, CouplingError> {
    let mut ids = [0; 2];
    b.set_mesh_vertices("B-Mesh", &B_VERTICES, &mut ids)?;
    let at = |k: usize| &B_VERTICES[2 * k..2 * k + 2];
    if b.requires_initial_data()? {
        b.write_data("B-Mesh", "T", &ids, &[initial(at(0)), initial(at(1))])?;
        b.write_gradient_data("B-Mesh", "T", &ids, &[1.0, 0.0, 1.0, 0.0])?;
    }
    b.initialize()?;
    let mut t = 0.0;
    while b.is_coupling_ongoing()? {
        b.requires_writing_checkpoint()?;
        let end = t + 0.5;
        b.write_data("B-Mesh", "T", &ids, &[field(end, at(0)), field(end, at(1))])?;
        b.write_gradient_data("B-Mesh", "T", &ids, &[2.0 * end, -3.0 * end, 2.0 * end, -3.0 * end])?;
        b.advance(0.5)?;
        t = if b.requires_reading_checkpoint()? { 0.0 } else { end };
    }
    b.finalize()?;
    Ok(vec![])
}

/// B alone, before `initialize`: the gradient calls with bad arguments, one line each —
/// `ok <answer>` or `error <message>` — to be compared between the backends.
#[allow(dead_code)] // used by mapping_differential.rs only
pub fn misuse(b: &mut dyn Coupling) -> Vec<String> {
    let mut ids = [0; 2];
    let mut lines = Vec::new();
    let mut record = |r: Result<String, CouplingError>| {
        lines.push(match r {
            Ok(v) => format!("ok {v}"),
            Err(e) => format!("error {}", e.message.trim_end()),
        })
    };
    record(b.set_mesh_vertices("B-Mesh", &B_VERTICES, &mut ids).map(|_| "vertices".into()));
    for (mesh, data) in [("B-Mesh", "T"), ("B-Mesh", "S"), ("A-Mesh", "S"), ("A-Mesh", "T")] {
        record(b.requires_gradient_data_for(mesh, data).map(|r| format!("{mesh} {data} {r}")));
    }
    let calls: [(&str, &str, &[i32], &[f64]); 8] = [
        ("B-Mesh", "T", &[0, 1], &[1.0, 0.0, 1.0, 0.0]),
        ("B-Mesh", "T", &[], &[]),
        ("B-Mesh", "T", &[0, 5], &[1.0; 4]),
        ("B-Mesh", "T", &[0, -1], &[1.0; 3]),
        ("B-Mesh", "T", &[0, 1], &[1.0; 3]),
        ("B-Mesh", "S", &[0], &[1.0, 2.0]),
        ("A-Mesh", "T", &[0], &[1.0, 2.0]),
        ("Nope", "T", &[0], &[1.0, 2.0]),
    ];
    for (mesh, data, ids, g) in calls {
        record(b.write_gradient_data(mesh, data, ids, g).map(|_| "written".into()));
    }
    lines
}
