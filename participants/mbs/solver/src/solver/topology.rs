//! The body-level structure of a mechanism's saddle system ([`Structure`]): each free body's
//! coordinates, each joint's rows and the bodies they touch, and the bodies each force element
//! (with its declared dependencies) and the added mass couple. It is known before anything is
//! assembled, so `auto` can pick the linear solver, and the assembly its storage, from it.

use crate::added_mass::AddedMass;
use crate::dynamics::body_set::{BodyHandle, BodySet};
use crate::solver::assembly::{DofMap, System};
use crate::solver::linear::Structure;

/// The structure of `sys` over `bodies` (with `added`'s couplings, if any).
pub fn structure(sys: &System, bodies: &BodySet, dofs: &DofMap, added: Option<&AddedMass>) -> Structure {
    let mut index = vec![None; bodies.len()];
    let mut s = Structure::default();
    for (h, _) in bodies.iter() {
        if let Some(o) = dofs.offset(h) {
            index[h.index()] = Some(s.bodies.len());
            s.bodies.push((format!("body {}", h.index()), o..o + 6));
        }
    }
    let free = |h: BodyHandle| index.get(h.index()).copied().flatten();
    let mut row = 0;
    for j in sys.joints.iter() {
        let rows = j.kind.equations();
        let touched: Vec<usize> = [j.body1, j.body2].into_iter().filter_map(free).collect();
        s.rows.push((row..row + rows, touched));
        row += rows;
    }
    let mut couple = |group: Vec<usize>| {
        for (k, &a) in group.iter().enumerate() {
            for &b in &group[k + 1..] {
                if a != b {
                    s.links.push((a, b));
                }
            }
        }
    };
    for (e, deps) in sys.forces.iter_with_dependencies() {
        let own = e.bodies();
        let mut group: Vec<usize> = own.iter().copied().filter_map(free).collect();
        group.extend(deps.per_body(own).into_iter().filter_map(|(h, _)| free(h)));
        group.sort_unstable();
        group.dedup();
        couple(group);
    }
    if let Some(a) = added {
        couple(a.bodies().iter().copied().filter_map(free).collect());
    }
    s
}
