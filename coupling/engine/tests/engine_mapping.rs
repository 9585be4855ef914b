//! Data mapping through coupled runs (docs/design/coupling-semantics.md §7): scenario A21,
//! nearest-neighbor, with B's read-consistent mapping from A's mesh and its write-conservative
//! mapping onto it; then every method end to end (the cases of `mapping/cases.rs`): A's mesh
//! with its elements sent to B, B mapping A's field onto its points and its forces onto A's
//! mesh, checked against what each method guarantees — linear fields reproduced to round-off
//! at points on A's elements where the method is exact for them, and the total force kept to
//! round-off by every conservative mapping.

#[path = "mapping/cases.rs"]
mod cases;
mod common;
#[path = "mapping/gradient.rs"]
mod gradient;

use common::*;

/// A provides x = 0, 1, 2 (y = 0); B provides (0.4, 0) and (1.6, 0). A writes the scalar
/// DataOne, B writes the vector DataTwo; two serial-explicit windows of size 1.
#[test]
fn a21_nearest_neighbor_consistent_and_conservative() {
    let case = Xml::new(2)
        .vector("DataTwo")
        .scheme(Scheme::serial("A", "B").window(1).windows(2).ex("DataOne", "A", "B").ex("DataTwo", "B", "A"))
        .case();
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (a, _) = run2(
        move || {
            let mut a = open_at(&ca, "A", Some(&[0.0, 0.0, 1.0, 0.0, 2.0, 0.0]));
            a.initialize().unwrap();
            let mut got = Vec::new();
            for k in 0..2 {
                let shift = 10.0 * k as f64;
                a.write_data("A-Mesh", "DataOne", &[0, 1, 2], &[10.0 + shift, 20.0 + shift, 30.0 + shift]).unwrap();
                a.advance(1.0).unwrap();
                let mut v = [0.0; 6];
                a.read_data("A-Mesh", "DataTwo", &[0, 1, 2], 0.0, &mut v).unwrap();
                got.push(v.to_vec());
            }
            a.finalize().unwrap();
            got
        },
        move || {
            let mut b = open_at(&cb, "B", Some(&[0.4, 0.0, 1.6, 0.0]));
            b.initialize().unwrap();
            assert_eq!(b.get_mesh_vertex_size("A-Mesh").unwrap(), 3, "B received A's mesh");
            for k in 0..2 {
                let shift = 10.0 * k as f64;
                let mut v = [0.0; 2];
                b.read_data("B-Mesh", "DataOne", &[0, 1], 1.0, &mut v).unwrap();
                assert_eq!(v, [10.0 + shift, 30.0 + shift], "window {}: consistent picks the nearest input", k + 1);
                b.read_data("B-Mesh", "DataOne", &[0, 1], 0.5, &mut v).unwrap();
                let start = if k == 0 { [0.0, 0.0] } else { [10.0, 30.0] };
                for i in 0..2 {
                    close(
                        format!("window {} vertex {i} at rel 0.5 (mapped samples interpolated)", k + 1),
                        v[i],
                        0.5 * (start[i] + [10.0, 30.0][i] + shift),
                    );
                }
                let s = k as f64 + 1.0;
                b.write_data("B-Mesh", "DataTwo", &[0, 1], &[5.0 * s, -5.0 * s, 7.0 * s, -7.0 * s]).unwrap();
                b.advance(1.0).unwrap();
            }
            b.finalize().unwrap();
            vec![]
        },
    );
    for (k, v) in a.iter().enumerate() {
        let s = k as f64 + 1.0;
        assert_eq!(
            v,
            &vec![5.0 * s, -5.0 * s, 0.0, 0.0, 7.0 * s, -7.0 * s],
            "window {}: conservative adds onto the nearest output",
            k + 1
        );
    }
}

use cases::{cases, force, linear, linear_vector, play_a, play_b, xml, Case, LINEAR};
use std::time::Duration;

/// Runs `case` with the linear field; (T read by B, F read by A), or what failed.
fn run(case: &Case) -> Result<(Vec<f64>, Vec<f64>), String> {
    let tc = temp_case(&xml(case));
    let (ca, cb) = (cfg(&tc), cfg(&tc));
    let (a, b) = (case_clone(case), case_clone(case));
    let (f, t) = run2(
        move || opened(&ca, "A").and_then(|mut p| play_a(&mut p, &a, LINEAR)).map_err(|e| format!("A: {e}")),
        move || opened(&cb, "B").and_then(|mut p| play_b(&mut p, &b)).map_err(|e| format!("B: {e}")),
    );
    Ok((t?, f?))
}

/// Participant `name` of the case at `path`, with a short handshake wait.
fn opened(path: &std::path::Path, name: &str) -> Result<NativeParticipant, CouplingError> {
    let mut p = NativeParticipant::new(name, path)?;
    p.set_handshake_timeout(Duration::from_secs(20));
    Ok(p)
}

/// The cases are built again by name inside each thread (they hold no handles).
fn case_clone(case: &Case) -> Case {
    cases().into_iter().find(|c| c.name == case.name).expect("known case")
}

#[test]
fn every_method_keeps_the_total_force_and_the_exact_ones_reproduce_linear_fields() {
    let mut failures = Vec::new();
    for case in cases() {
        let (t, f) = match run(&case) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{}: {e}", case.name));
                continue;
            }
        };
        if case.exact_for_linear {
            // Round-off of a weighted sum of O(1) values (or of an RBF solve on a small, well-posed system).
            let worst = (0..case.b.len()).map(|i| (t[i] - linear(case.b.vertex(i))).abs()).fold(0.0, f64::max);
            if worst > 1e-9 {
                failures.push(format!("{}: linear field off by {worst:e} at B's points", case.name));
            }
        }
        let dim = case.a.dim;
        if case.consistent_write {
            // B's linear vector field at A's vertices (none of them one of B's points): the
            // same round-off as T above.
            let exact = (0..case.a.len() * dim).map(|k| linear_vector(case.a.vertex(k / dim), k % dim));
            let worst = f.iter().zip(exact).map(|(x, e)| (x - e).abs()).fold(0.0, f64::max);
            if worst > 1e-9 {
                failures.push(format!("{}: linear vector field off by {worst:e} at A's vertices", case.name));
            }
        }
        for c in (0..dim).filter(|_| case.conserves_sum) {
            let written: f64 = (0..case.b.len()).map(|i| force(i, c)).sum();
            let arrived: f64 = f.iter().skip(c).step_by(dim).sum();
            // Sums of a few dozen O(1) terms: round-off is below 1e-13 of the total.
            if (written - arrived).abs() > 1e-12 * written.abs() {
                failures.push(format!("{}: force component {c}: B wrote {written}, A got {arrived}", case.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn nearest_neighbor_gradient_carries_initial_data_substeps_and_relaxed_gradients() {
    use gradient::{field, initial, play_a, play_b, A_VERTICES, XML};
    let case = temp_case(XML);
    let (ca, cb) = (cfg(&case), cfg(&case));
    let (a, _) = run2(
        move || {
            let mut a = opened(&ca, "A").unwrap();
            assert!(!a.requires_gradient_data_for("A-Mesh", "T").unwrap(), "A reads T");
            assert!(!a.requires_gradient_data_for("A-Mesh", "S").unwrap(), "S is mapped without gradients");
            play_a(&mut a).unwrap()
        },
        move || {
            let mut b = opened(&cb, "B").unwrap();
            assert!(b.requires_gradient_data_for("B-Mesh", "T").unwrap(), "A maps B's T by its gradients");
            play_b(&mut b).unwrap()
        },
    );
    let at = |k: usize| &A_VERTICES[2 * k..2 * k + 2];
    assert_eq!(a.len(), 4 * 4, "two iterations of two steps, four numbers each: {a:?}");
    for r in a.chunks_exact(4) {
        let (iteration, t) = (r[0], r[1]);
        for (k, got) in r[2..].iter().enumerate() {
            // Iteration 1 reads the initial data (with its own gradient); iteration 2 the
            // first iteration's sub-steps relaxed by ½ — values and gradients alike, so the
            // relaxed field is linear with the relaxed gradient, mapped exactly.
            let want = if iteration == 1.0 { initial(at(k)) } else { 0.5 * field(t, at(k)) + 0.5 * initial(at(k)) };
            // O(1) values: a few ulps of round-off.
            close(format!("iteration {iteration}, t = {t}, A's vertex {k}"), *got, want);
        }
    }
}
