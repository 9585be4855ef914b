//! What a BEMIO file adds to a linear model of floating bodies: the hydrostatic stiffness
//! `K_hs` of each coupling body (the `i`-th coupling body is the file's `/body{i+1}`, as for
//! the added mass), and `A∞` when the participant has none of its own.

use anyhow::{bail, Context, Result};
use nalgebra::{DMatrix, Matrix6, Vector3};
use std::path::Path;
use tidelink_mbs_solver::derivatives::ExtraStiffness;
use tidelink_mbs_solver::{AddedMass, MultibodySystem};

use crate::coupling_body::CouplingBody;

/// Distance (m) between a body's centre of mass and the file's centre of gravity above which the
/// stiffness (given about the file's point) is reported as applied at another point.
pub const CG_TOLERANCE: f64 = 1e-3;

/// The hydrostatics of `path` for `coupled`: one [`ExtraStiffness`] per body (the weight taken
/// as balanced by buoyancy at the state: a body floating at equilibrium), the stiffness scaled
/// from the file's g to the model's; and, when `system` has no added mass, the file's `A∞`
/// (each body's own 6 × 6 block) put in. Returns notes for the index (cg mismatches, what was
/// taken from the file).
pub fn apply(
    path: &Path,
    coupled: &[CouplingBody],
    system: &mut MultibodySystem,
) -> Result<(Vec<ExtraStiffness>, Vec<String>)> {
    let data = tidelink_bemio::read(path).with_context(|| format!("{}: cannot read the BEMIO file", path.display()))?;
    if data.bodies.len() < coupled.len() {
        bail!(
            "{}: the file has {} bodies, the participant couples {} ({}); the i-th coupling body takes the file's \
             /body{{i}}: give a file with a body per coupling body",
            path.display(),
            data.bodies.len(),
            coupled.len(),
            coupled.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
        );
    }
    let g_model = system.bodies.gravity.norm();
    let scale = if data.g > 0.0 && g_model > 0.0 { g_model / data.g } else { 1.0 };
    let mut notes = vec![format!(
        "hydrostatic stiffness of {} (g {} m/s², scaled to the model's {} m/s²)",
        path.display(),
        data.g,
        g_model
    )];
    let mut extra = Vec::new();
    for (c, hb) in coupled.iter().zip(&data.bodies) {
        let body =
            system.bodies.get(c.handle).with_context(|| format!("coupling body `{}` is not in the model", c.name))?;
        let gap: Vector3<f64> = body.com_position() - hb.cg;
        if gap.norm() > CG_TOLERANCE {
            notes.push(format!(
                "`{}`: its centre of mass is {:.4} m from the file's cg of `{}`; the stiffness is applied about the centre \
                 of mass as given",
                c.name,
                gap.norm(),
                hb.name
            ));
        }
        let k: Matrix6<f64> = hb.hydrostatic_stiffness * scale;
        extra.push(ExtraStiffness { body: c.handle, k, balances_weight: true });
    }
    if system.added_mass.is_none() {
        let blocks: Vec<DMatrix<f64>> = coupled
            .iter()
            .enumerate()
            .map(|(i, _)| {
                let mut b = DMatrix::zeros(6, 6 * coupled.len());
                b.view_mut((0, 6 * i), (6, 6)).copy_from(&data.bodies[i].added_mass_inf.columns(6 * i, 6));
                b
            })
            .collect();
        let am = AddedMass::new(coupled.iter().map(|c| c.handle).collect(), blocks)
            .and_then(|a| a.with_names(coupled.iter().map(|c| c.name.clone()).collect()))
            .with_context(|| format!("{}: the added mass A∞", path.display()))?;
        system.set_added_mass(am).with_context(|| format!("{}: the added mass A∞", path.display()))?;
        notes.push(format!("A∞ of {} (each body's own block): the participant has no added mass", path.display()));
    } else {
        notes.push("A∞ of the participant's own added_mass entry".into());
    }
    Ok((extra, notes))
}
