//! `configs/flap_rbf`: the flap coupled in 3D surface to surface, the Solid's coarse mesh from
//! an `.obj` and the Fluid's finer points of its own, through thin-plate-spline RBF mappings on
//! the Fluid. Run as a user runs it (`tidelink run`), then checked on the Fluid's exports of
//! both meshes (legacy VTK, 17 significant digits): the conservative mapping keeps the total
//! force and its moment about the hinge to round-off, and the consistent one (with its linear
//! polynomial) reproduces the flap's rigid rotation exactly at the Fluid's points.

mod support;

use std::path::Path;
use support::case::{shipped_case, text, tidelink};

/// The points and one vector datum of a legacy VTK file the engine exported.
fn read_vtk(path: &Path, datum: &str) -> (Vec<[f64; 3]>, Vec<[f64; 3]>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut tokens = text.split_whitespace();
    let triples = |n: usize, tokens: &mut std::str::SplitWhitespace| -> Vec<[f64; 3]> {
        (0..n).map(|_| std::array::from_fn(|_| tokens.next().expect("a number").parse().expect("a number"))).collect()
    };
    let (mut points, mut values) = (Vec::new(), Vec::new());
    while let Some(t) = tokens.next() {
        match t {
            "POINTS" => {
                let n: usize = tokens.next().expect("a count").parse().expect("a count");
                tokens.next(); // the type
                points = triples(n, &mut tokens);
            }
            "VECTORS" if tokens.next() == Some(datum) => {
                tokens.next(); // the type
                values = triples(points.len(), &mut tokens);
            }
            _ => {}
        }
    }
    assert!(!points.is_empty() && values.len() == points.len(), "{}: {datum} at every point", path.display());
    (points, values)
}

/// Total force and its moment about the hinge axis (z through the origin).
fn force_and_moment(points: &[[f64; 3]], forces: &[[f64; 3]]) -> ([f64; 3], f64) {
    let mut total = [0.0; 3];
    let mut moment = 0.0;
    for (p, f) in points.iter().zip(forces) {
        (0..3).for_each(|k| total[k] += f[k]);
        moment += p[0] * f[1] - p[1] * f[0];
    }
    (total, moment)
}

#[test]
fn forces_are_conserved_and_the_rigid_motion_reproduced_across_the_two_meshes() {
    support::participant_programs(&[("tidelink-mbs", "tidelink-mbs"), ("tidelink-buoyancy", "tidelink-stream")]);
    let files = [
        "tidelink.yaml",
        "precice-config.xml",
        "solid/participant.yaml",
        "solid/model.yaml",
        "solid/solver.yaml",
        "solid/flap.obj",
        "fluid/participant.yaml",
        "fluid/stream_model.yaml",
        "fluid/fluid_points.txt",
    ];
    // 20 windows (0.5 s) are enough: exports at windows 10 and 20.
    let dir = shipped_case("flap_rbf", &files, |f, text| {
        if f == "precice-config.xml" {
            text.replace(r#"<max-time value="2.5" />"#, r#"<max-time value="0.5" />"#)
        } else {
            text
        }
    });
    let out = tidelink(&["run"], dir.path());
    assert!(out.status.success(), "{}", text(&out));
    let exports = dir.path().join("fluid-exports");
    for k in [10, 20] {
        let (fp, ff) = read_vtk(&exports.join(format!("FluidMesh-Fluid.dt{k}.vtk")), "Force");
        let (sp, sf) = read_vtk(&exports.join(format!("SolidMesh-Fluid.dt{k}.vtk")), "Force");
        assert_eq!((fp.len(), sp.len()), (132, 30), "the two resolutions");
        let ((f_fluid, m_fluid), (f_solid, m_solid)) = (force_and_moment(&fp, &ff), force_and_moment(&sp, &sf));
        // The drag of the 0.5 m/s stream on the flap: 5 N broadside at rest (the stream model's
        // figure), within 10 % while the flap swings (its velocity changes the relative stream).
        assert!((f_fluid[1] - 5.0).abs() < 0.5, "window {k}: {f_fluid:?}");
        // Sums of O(100) terms of O(0.1 N): round-off below 1e-13 of the total.
        for c in 0..3 {
            assert!(
                (f_fluid[c] - f_solid[c]).abs() <= 1e-12 * f_fluid[1].abs(),
                "window {k}, force {c}: {f_fluid:?} vs {f_solid:?}"
            );
        }
        assert!((m_fluid - m_solid).abs() <= 1e-12 * m_fluid.abs(), "window {k}: moment {m_fluid} vs {m_solid}");

        // The flap's rotation θ about z from one Solid vertex, then the rigid displacement
        // (R(θ) − I)·p — linear in p — expected at every Fluid point.
        let (sp, sd) = read_vtk(&exports.join(format!("SolidMesh-Fluid.dt{k}.vtk")), "Displacement");
        let (fp, fd) = read_vtk(&exports.join(format!("FluidMesh-Fluid.dt{k}.vtk")), "Displacement");
        let tip = (0..sp.len()).max_by(|&a, &b| sp[a][0].total_cmp(&sp[b][0])).expect("vertices");
        let (p, d) = (sp[tip], sd[tip]);
        let theta = (p[1] + d[1]).atan2(p[0] + d[0]) - p[1].atan2(p[0]);
        assert!(theta.abs() > 1e-3, "window {k}: the flap has turned (θ = {theta})");
        let (c, s) = (theta.cos(), theta.sin());
        let scale = 0.2 * theta.abs();
        for (q, got) in fp.iter().zip(&fd) {
            let want = [(c - 1.0) * q[0] - s * q[1], s * q[0] + (c - 1.0) * q[1], 0.0];
            // The RBF solve's round-off on a 30-vertex system (condition number about 1e6): 1e-9 of the motion.
            let err = (0..3).map(|i| (got[i] - want[i]).abs()).fold(0.0, f64::max);
            assert!(err <= 1e-9 * scale, "window {k}, point {q:?}: displacement {got:?}, rigid {want:?}");
        }
    }
}
