//! `depends_on` of a TSDA, RSDA or external force: the body states its outputs depend on, as a
//! list of body names (every state of that body) and `<body>.<channel>` entries (one channel of
//! the external modules' body state: `pos_x` … `omega_z`). Finite differences perturb only
//! these; absent, every state of the element's own bodies counts.

use tidelink_adapter_core::diagnostics::{Diagnostics, Location};
use tidelink_mbs_solver::dynamics::body_set::BodyHandle;
use tidelink_mbs_solver::external::body_force::BODY_CHANNELS;
use tidelink_mbs_solver::solver::jacobian::dependencies::{channel_coords, union, CoordMask, Dependencies, ALL_COORDS};

/// The declared dependencies of `entries`; `None` after an error (reported at the entry's line).
pub(super) fn parse(
    entries: &[String],
    names: &[(String, BodyHandle)],
    what: &str,
    at: &dyn Fn(usize) -> Location,
    errors: &mut Diagnostics,
) -> Option<Dependencies> {
    if entries.is_empty() {
        errors.error(
            at(0),
            format!("{what}: `depends_on` is empty; list bodies or `<body>.<channel>` entries, or leave it out"),
        );
        return None;
    }
    let mut per_body: Vec<(BodyHandle, CoordMask)> = Vec::new();
    let mut ok = true;
    for (j, entry) in entries.iter().enumerate() {
        let (body, channel) = match entry.split_once('.') {
            Some((b, c)) => (b, Some(c)),
            None => (entry.as_str(), None),
        };
        let Some(h) = names.iter().find(|(n, _)| n == body).map(|(_, h)| *h) else {
            let all: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
            errors.error(
                at(j),
                format!("{what}: `depends_on` names no body `{body}`; the model's bodies: {}", all.join(", ")),
            );
            ok = false;
            continue;
        };
        let mask = match channel {
            None => ALL_COORDS,
            Some(c) => match channel_coords(c) {
                Some(m) => m,
                None => {
                    errors.error(
                        at(j),
                        format!("{what}: `{entry}`: no channel `{c}`; the channels are {}", BODY_CHANNELS.join(", ")),
                    );
                    ok = false;
                    continue;
                }
            },
        };
        match per_body.iter_mut().find(|(b, _)| *b == h) {
            Some((_, m)) => *m = union(*m, mask),
            None => per_body.push((h, mask)),
        }
    }
    ok.then_some(Dependencies::Only(per_body))
}

#[cfg(test)]
mod tests {
    use super::super::parse_str;
    use nalgebra::Vector3;
    use std::path::Path;
    use tidelink_mbs_solver::solver::assembly::{DofMap, System};
    use tidelink_mbs_solver::solver::jacobian::dependencies::{channel_coords, union, Dependencies, ALL_COORDS};
    use tidelink_mbs_solver::solver::jacobian::JacobianPolicy;

    /// Three bodies hanging from ground by vertical TSDAs at their free length, attached at the
    /// COM (line 15 is the first TSDA's `depends_on`).
    fn hanging(depends: &str) -> String {
        let mut t = String::from("model:\n  bodies:\n    - {name: ground, location: [0, 0, 0], fixed: true}\n");
        for i in 0..3 {
            t += &format!("    - {{name: b{i}, location: [{i}, 0, -1], mass: 2, inertia: {{moments: [1, 1, 1]}}}}\n");
        }
        t += "  tsdas:\n";
        for i in 0..3 {
            t += &format!(
                "    - name: s{i}\n      body1: ground\n      body2: b{i}\n      point1: [{i}, 0, 0]\n      \
                 point2: [{i}, 0, -1]\n      spring_coefficient: 100\n      damping_coefficient: 5\n"
            );
            if !depends.is_empty() {
                t += &format!("      depends_on: {}\n", depends.replace("BODY", &format!("b{i}")));
            }
        }
        t
    }

    #[test]
    fn depends_on_is_read_per_body_and_channel() {
        let (m, _) =
            parse_str(&hanging("[BODY.pos_z, BODY.vel_z, ground]"), Path::new("m.yaml"), Vector3::zeros()).unwrap();
        let (_, deps) = m.forces.iter_with_dependencies().next().unwrap();
        let z = union(channel_coords("pos_z").unwrap(), channel_coords("vel_z").unwrap());
        let expected =
            Dependencies::Only(vec![(m.handle("b0").unwrap(), z), (m.handle("ground").unwrap(), ALL_COORDS)]);
        assert_eq!(deps, &expected);
        let (m, _) = parse_str(&hanging(""), Path::new("m.yaml"), Vector3::zeros()).unwrap();
        assert!(m.forces.iter_with_dependencies().all(|(_, d)| d == &Dependencies::All));
    }

    #[test]
    fn depends_on_errors_name_the_entry() {
        let e = parse_str(&hanging("[BODY.heave]"), Path::new("m.yaml"), Vector3::zeros()).unwrap_err().to_string();
        assert!(
            e.contains("m.yaml:15: error: TSDA `s0`: `b0.heave`: no channel `heave`; the channels are pos_x"),
            "{e}"
        );
        let e = parse_str(&hanging("[float]"), Path::new("m.yaml"), Vector3::zeros()).unwrap_err().to_string();
        assert!(e.contains("m.yaml:15: error: TSDA `s0`: `depends_on` names no body `float`"), "{e}");
        let e = parse_str(&hanging("[]"), Path::new("m.yaml"), Vector3::zeros()).unwrap_err().to_string();
        assert!(e.contains("TSDA `s0`: `depends_on` is empty"), "{e}");
    }

    #[test]
    fn declared_heave_dependencies_cut_the_perturbations() {
        // At the free length the TSDAs pull nothing, so their lateral stiffness F/L is zero and
        // declaring heave only (`pos_z`, `vel_z`) is exact here. Under `numerical` the bodies'
        // own terms add their rotations and angular velocities: 6 + 6 evaluations with every
        // state declared, 4 + 4 with heave only.
        let count = |text: &str| {
            let (m, _) = parse_str(text, Path::new("m.yaml"), Vector3::new(0.0, 0.0, -9.81)).unwrap();
            let dofs = DofMap::new(&m.bodies);
            let sys = System { joints: &m.joints, forces: &m.forces, force_numerical: false };
            let asm = sys.assemble_as(&m.bodies, &dofs, JacobianPolicy::Numerical).unwrap();
            (asm.stats.perturbations, asm.stiffness, asm.damping)
        };
        let (all, k_all, c_all) = count(&hanging(""));
        let (sparse, k_sparse, c_sparse) = count(&hanging("[BODY.pos_z, BODY.vel_z]"));
        assert_eq!((all, sparse), (12, 8));
        // Forward differences with step 1e-7 of forces of order 100 N/m · 1e-7: round-off
        // 1e-16·|Q|/1e-7 with |Q| ≈ 20 N, far below 1e-5.
        assert!((&k_all - &k_sparse).amax() < 1e-5 && (&c_all - &c_sparse).amax() < 1e-5);
        assert!((k_sparse[(2, 2)] + 100.0).abs() < 1e-4, "{}", k_sparse[(2, 2)]);
    }

    #[test]
    fn an_element_or_joint_joining_a_body_to_itself_is_refused_at_its_line() {
        let text = hanging("").replacen("body1: ground", "body1: b0", 1);
        let e = parse_str(&text, Path::new("m.yaml"), Vector3::zeros()).unwrap_err().to_string();
        assert!(e.contains("m.yaml:8: error: TSDA `s0`: `s0` connects a body to itself"), "{e}");
        let rsda =
            "model:\n  bodies:\n    - {name: a, location: [0, 0, 0], mass: 1, inertia: {moments: [1, 1, 1]}}\n  \
                    rsdas:\n    - {name: r, body1: a, body2: a, axis: [0, 0, 1], spring_coefficient: 1}\n";
        let e = parse_str(rsda, Path::new("m.yaml"), Vector3::zeros()).unwrap_err().to_string();
        assert!(e.contains("m.yaml:5: error: RSDA `r`: `r` connects a body to itself"), "{e}");
        let joint = rsda
            .replace("rsdas:\n    - {name: r,", "joints:\n    - {name: j, type: REVOLUTE, location: [0, 0, 0],")
            .replace(", spring_coefficient: 1}", "}");
        let e = parse_str(&joint, Path::new("m.yaml"), Vector3::zeros()).unwrap_err().to_string();
        assert!(e.contains("m.yaml:5: error: joint `j`: `j` connects a body to itself"), "{e}");
    }
}
