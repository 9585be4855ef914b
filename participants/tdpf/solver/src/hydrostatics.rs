//! Linear hydrostatics about the BEM file's equilibrium, as WEC-Sim and HydroChrono compute it:
//! `F = −K_hs (q − q_eq) + ρ g V ẑ` at the centre of buoyancy, plus `(cb − cg) × ρ g V ẑ` on the moment rows.
//!
//! Conventions: global axes, z up, origin at the still-water level. Forces in N, moments in N·m about the
//! CG. The 6-vector `q − q_eq` is [CG position minus the file's `cg` (m), small rotation angles (rad)].
//! Body weight is not included (the multibody side applies it at the CG); the file's K_hs rotational terms
//! already hold the gravitational part of the restoring moment (WAMIT's "hydrostatic and gravitational").

use nalgebra::{Vector3, Vector6};
use tidelink_hydro_data::{BodyHydro, HydroData};

/// The equilibrium state `q_eq` of a body as the file defines it: CG at the file's `cg`, no rotation.
pub fn equilibrium(body: &BodyHydro) -> Vector6<f64> {
    Vector6::new(body.cg.x, body.cg.y, body.cg.z, 0.0, 0.0, 0.0)
}

/// `q − q_eq` from the CG position (global, m) and small rotation angles (rad) of a body.
pub fn displacement(body: &BodyHydro, cg_position: &Vector3<f64>, angles: &Vector3<f64>) -> Vector6<f64> {
    let d = cg_position - body.cg;
    Vector6::new(d.x, d.y, d.z, angles.x, angles.y, angles.z)
}

/// Linear hydrostatic force and moment on `body` (one of `data.bodies`) displaced by `displacement`.
/// Gravity: `g` (magnitude, m/s²) when given, else the file's `data.g`; K_hs is rescaled to it (the file
/// stores K_hs/(ρg)), and so is the buoyancy ρ g V. Density is always the file's ρ.
pub fn hydrostatic_force(
    data: &HydroData,
    body: &BodyHydro,
    displacement: &Vector6<f64>,
    g: Option<f64>,
) -> Vector6<f64> {
    let g_used = g.map_or(data.g, f64::abs);
    let stiffness_scale = if data.g > 0.0 { g_used / data.g } else { 1.0 };
    let restoring = -(body.hydrostatic_stiffness * stiffness_scale) * displacement;
    restoring + buoyancy_at_equilibrium(body, data.rho, g_used)
}

/// Buoyancy at equilibrium: `ρ g V` upward (N) and its moment `(cb − cg) × F` about the CG (N·m).
/// `V`, `cb` and `cg` are the file's equilibrium values and are not rotated with the body.
pub fn buoyancy_at_equilibrium(body: &BodyHydro, rho: f64, g: f64) -> Vector6<f64> {
    let force = Vector3::new(0.0, 0.0, rho * g * body.displaced_volume);
    let moment = (body.cb - body.cg).cross(&force);
    Vector6::new(force.x, force.y, force.z, moment.x, moment.y, moment.z)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, Matrix6};
    use std::path::PathBuf;
    use tidelink_hydro_data::{Excitation, WaterDepth};

    fn body() -> BodyHydro {
        let mut k = Matrix6::zeros();
        k[(2, 2)] = 2.0e6;
        k[(3, 3)] = 5.0e7;
        k[(4, 4)] = 5.0e7;
        BodyHydro {
            name: "b".into(),
            cg: Vector3::new(0.0, 0.0, -1.0),
            cb: Vector3::new(0.5, 0.0, -2.0),
            displaced_volume: 100.0,
            hydrostatic_stiffness: k,
            added_mass_inf: DMatrix::zeros(6, 6),
            added_mass: Vec::new(),
            radiation_damping: Vec::new(),
            radiation_irf: None,
            state_space: None,
            excitation: Excitation { re: Vec::new(), im: Vec::new(), irf: None },
        }
    }

    fn data() -> HydroData {
        HydroData {
            source: PathBuf::from("test.h5"),
            code: None,
            rho: 1000.0,
            g: 9.81,
            depth: WaterDepth::Infinite,
            omega: vec![1.0],
            headings_deg: vec![0.0],
            bodies: vec![body()],
        }
    }

    #[test]
    fn at_equilibrium_only_buoyancy_and_its_moment() {
        let d = data();
        let b = &d.bodies[0];
        let f = hydrostatic_force(&d, b, &Vector6::zeros(), None);
        let fb = 1000.0 * 9.81 * 100.0;
        assert!((f[2] - fb).abs() < 1e-6);
        // (cb − cg) = (0.5, 0, −1); × (0, 0, Fb) = (0·Fb − (−1)·0, (−1)·0 − 0.5·Fb, 0) = (0, −0.5 Fb, 0).
        assert!(f[3].abs() < 1e-9 && (f[4] + 0.5 * fb).abs() < 1e-6 && f[5].abs() < 1e-9);
        assert!(f[0].abs() < 1e-12 && f[1].abs() < 1e-12);
    }

    #[test]
    fn heave_and_pitch_restore_against_displacement() {
        let d = data();
        let b = &d.bodies[0];
        let q = displacement(b, &Vector3::new(0.0, 0.0, -0.9), &Vector3::new(0.0, 0.01, 0.0));
        assert!((q[2] - 0.1).abs() < 1e-12 && (q[4] - 0.01).abs() < 1e-15);
        let f = hydrostatic_force(&d, b, &q, None);
        let fb = 1000.0 * 9.81 * 100.0;
        assert!((f[2] - (fb - 2.0e6 * 0.1)).abs() < 1e-6);
        assert!((f[4] - (-0.5 * fb - 5.0e7 * 0.01)).abs() < 1e-6);
    }

    #[test]
    fn caller_gravity_rescales_stiffness_and_buoyancy() {
        let d = data();
        let b = &d.bodies[0];
        let q = Vector6::new(0.0, 0.0, 0.1, 0.0, 0.0, 0.0);
        let f = hydrostatic_force(&d, b, &q, Some(-9.8));
        let expected = 1000.0 * 9.8 * 100.0 - 2.0e6 * (9.8 / 9.81) * 0.1;
        assert!((f[2] - expected).abs() < 1e-6, "{} vs {expected}", f[2]);
        assert_eq!(equilibrium(b), Vector6::new(0.0, 0.0, -1.0, 0.0, 0.0, 0.0));
    }
}
