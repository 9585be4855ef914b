//! Which outputs can depend on which inputs, for `ModelStructure`: bodies interact only through
//! joints, force elements and added-mass coupling blocks between them, so the motions of a body
//! depend on the loads of the bodies it is connected to (directly or through others) and on no
//! other. A fixed body (the ground) connects nothing: it does not move. Within a connected group
//! every output may depend on every input (lever arms, rotations and joints mix the axes).

use tidelink_mbs_solver::{BodyHandle, MultibodySystem};

/// A group number per body of `bodies` (equal numbers: connected), numbered from 0 in order
/// of first appearance.
pub fn groups(system: &MultibodySystem, bodies: &[(String, BodyHandle)]) -> Vec<usize> {
    let n = system.bodies.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let free = |h: BodyHandle| system.bodies.get(h).is_some_and(|b| !b.is_fixed());
    let mut join = |a: BodyHandle, b: BodyHandle| {
        if free(a) && free(b) && a.index() < n && b.index() < n {
            let (ra, rb) = (root(&mut parent, a.index()), root(&mut parent, b.index()));
            parent[ra] = rb;
        }
    };
    for j in system.joints.iter() {
        join(j.body1, j.body2);
    }
    for e in system.forces.iter() {
        let [a, b] = e.bodies();
        join(a, b);
    }
    if let Some(am) = &system.added_mass {
        for (i, block) in am.blocks().iter().enumerate() {
            for (k, &other) in am.bodies().iter().enumerate() {
                let cols = block.columns(6 * k, 6.min(block.ncols().saturating_sub(6 * k)));
                if k != i && cols.iter().any(|x| *x != 0.0) {
                    join(am.bodies()[i], other);
                }
            }
        }
    }
    let mut numbers: Vec<usize> = Vec::new();
    bodies
        .iter()
        .map(|(_, h)| {
            let r = if h.index() < n { root(&mut parent, h.index()) } else { usize::MAX };
            match numbers.iter().position(|&x| x == r) {
                Some(g) => g,
                None => {
                    numbers.push(r);
                    numbers.len() - 1
                }
            }
        })
        .collect()
}
