//! The TDPF participant coupled through the native engine, in threads, against a scripted solid
//! that holds the RM3 float and plate at the file's equilibrium with zero velocity:
//!
//! * still water: each body gets exactly its buoyancy ρ g V (the weight m g = ρ V g is balanced: zero
//!   net vertical force), nothing horizontal, no moment; the added-mass increments are zero on all
//!   36·Nb vertices;
//! * regular wave: the load the solid reads for a window [t_j, t_j + Δ] is hydrostatics + excitation
//!   at t_j (radiation is zero for zero velocity), checked against the excitation built here from the
//!   file, for Fluid first (TDPF reads at the window start) and for Solid first (TDPF second, reading
//!   at the window end, forces initialised): the state time follows the read time in both.
//!
//! Needs `../shared/data/rm3/rm3.h5`; reported as ignored without it (docs/testing.md).

mod common;

use common::{model_yaml, participant_yaml, rm3, run_coupled, write_case, Xml, FLOAT, PLATE};
use nalgebra::Vector6;
use tidelink_adapter_core::spec::ReadDataTime;
use tidelink_adapter_core::testing::temp_case;
use tidelink_bemio as bemio;
use tidelink_tdpf_solver::excitation::{ExcitationTable, RegularExcitation};
use tidelink_tdpf_solver::waves::{Ramp, RegularWave};

const BODIES: [(&str, [f64; 3]); 2] = [("float", FLOAT), ("plate", PLATE)];

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn still_water_buoyancy_balances_the_weight_and_added_mass_increments_are_zero() {
    let h5 = rm3();
    let data = bemio::read(&h5).expect("rm3.h5");
    let xml = Xml { windows: 5, added_mass: true, ..Default::default() };
    let case = temp_case(&xml.text());
    let fluid = write_case(
        &case,
        &participant_yaml(&BODIES, "WINDOW_START", "RIGID_BODY_REFS"),
        &model_yaml(&h5, "    type: NO_WAVE\n"),
    );
    let readings = run_coupled(&case, fluid, vec![FLOAT, PLATE], ReadDataTime::WindowEnd, true);
    assert_eq!(readings.len(), 5, "one reading per window");
    let g = 9.81;
    for r in &readings {
        for (b, body) in data.bodies.iter().enumerate().take(2) {
            let weight = data.rho * body.displaced_volume * g;
            let f = &r.forces[3 * b..3 * b + 3];
            let m = &r.torques[3 * b..3 * b + 3];
            println!("t = {:.1} s, body {b}: F = {f:?} N, M = {m:?} N·m, ρVg = {weight:.6e} N", r.t);
            assert!((f[2] - weight).abs() <= 1e-9 * weight, "body {b}: Fz {} vs ρVg {weight}", f[2]);
            assert!(f[0].abs() + f[1].abs() <= 1e-9 * weight, "body {b}: horizontal force {f:?}");
            // The buoyancy's moment about the CG, (cb − cg) × ρVg ẑ (the file's cb is a few µm off the axis).
            let arm = body.cb - body.cg;
            let moment = [arm.y * weight, -arm.x * weight, 0.0];
            assert!(
                m.iter().zip(moment).all(|(x, y)| (x - y).abs() <= 1e-9 * weight),
                "body {b}: moment {m:?} vs {moment:?}"
            );
        }
        assert_eq!(r.added_mass.len(), 72);
        assert!(r.added_mass.iter().all(|&x| x == 0.0), "added-mass increments {:?}", r.added_mass);
    }
}

/// Hydrostatics at equilibrium (`buoyancy[b]`: ρVg ẑ and its moment) + excitation at `t` on body `b`.
fn expected(exc: &[RegularExcitation], buoyancy: &[Vector6<f64>], b: usize, t: f64) -> Vector6<f64> {
    exc[b].force(t) + buoyancy[b]
}

fn regular_wave_case(fluid_first: bool) {
    let bodies = BODIES.iter().map(|(n, l)| (*n, *l, *l)).collect::<Vec<_>>();
    regular_wave_with(fluid_first, &bodies);
}

/// `bodies`: (name, vertex location in the participant file, where the solid holds the reference point).
fn regular_wave_with(fluid_first: bool, bodies: &[(&str, [f64; 3], [f64; 3])]) {
    let h5 = rm3();
    let data = bemio::read(&h5).expect("rm3.h5");
    let wave = RegularWave::from_height(2.5, 8.0, 0.0, 0.0).expect("wave");
    let ramp = Ramp::cosine(1.0).expect("ramp");
    let nb = bodies.len();
    let exc: Vec<RegularExcitation> = (0..nb)
        .map(|b| {
            RegularExcitation::new(&ExcitationTable::from_hydro(&data, b).expect("table"), &wave, ramp).expect("X")
        })
        .collect();
    let buoyancy: Vec<Vector6<f64>> = data
        .bodies
        .iter()
        .map(|b| {
            let w = data.rho * 9.81 * b.displaced_volume;
            let arm = b.cb - b.cg;
            Vector6::new(0.0, 0.0, w, arm.y * w, -arm.x * w, 0.0)
        })
        .collect();
    let window = 0.1;
    let xml = Xml { fluid_first, window, windows: 30, init_forces: !fluid_first, ..Default::default() };
    let case = temp_case(&xml.text());
    let (fluid_read, solid_read) =
        if fluid_first { ("WINDOW_START", ReadDataTime::WindowEnd) } else { ("WINDOW_END", ReadDataTime::WindowStart) };
    let waves = "    type: REGULAR\n    height: 2.5\n    period: 8\n    ramp_time: 1\n";
    let listed: Vec<(&str, [f64; 3])> = bodies.iter().map(|(n, l, _)| (*n, *l)).collect();
    let fluid = write_case(&case, &participant_yaml(&listed, fluid_read, "RIGID_BODY_REFS"), &model_yaml(&h5, waves));
    let held: Vec<[f64; 3]> = bodies.iter().map(|(_, _, p)| *p).collect();
    // Offset from each reference point to its CG (the solid holds the bodies without rotation).
    let arms: Vec<nalgebra::Vector3<f64>> =
        bodies.iter().enumerate().map(|(b, (_, l, _))| data.bodies[b].cg - nalgebra::Vector3::from(*l)).collect();
    let readings = run_coupled(&case, fluid, held, solid_read, false);
    assert_eq!(readings.len(), 30);
    let mut worst: f64 = 0.0;
    for r in &readings {
        for b in 0..nb {
            let got = Vector6::from_fn(|i, _| if i < 3 { r.forces[3 * b + i] } else { r.torques[3 * b + i - 3] });
            let mut want = expected(&exc, &buoyancy, b, r.t);
            let moment_shift = arms[b].cross(&want.fixed_rows::<3>(0).into_owned());
            for i in 0..3 {
                want[3 + i] += moment_shift[i];
            }
            let scale = exc[b].amplitudes().norm();
            let err = (got - want).norm() / scale;
            worst = worst.max(err);
            assert!(err < 1e-9, "t = {} s, body {b}: got {got:?}, want {want:?}", r.t);
            // The check can tell one window of offset apart (after the ramp).
            if r.t > 1.5 {
                let shifted = (expected(&exc, &buoyancy, b, r.t + window) - want).norm() / scale;
                assert!(shifted > 1e-3, "t = {} s: a window of offset would not be detected", r.t);
            }
        }
    }
    println!("fluid first = {fluid_first}: largest relative gap to hydrostatics + excitation(t_j): {worst:.2e}");
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn regular_wave_load_on_held_bodies_is_excitation_plus_hydrostatics_fluid_first() {
    regular_wave_case(true);
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn regular_wave_load_on_held_bodies_is_excitation_plus_hydrostatics_fluid_second_window_end() {
    regular_wave_case(false);
}

/// The float alone (the first body of the two-body file), its reference point 0.72 m above the CG:
/// the hydrodynamics are evaluated at the CG and the moment written is about the reference point,
/// `M_cg + (cg − ref) × F` (the surge excitation gives a pitch moment about the reference point).
#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn reference_point_away_from_the_cg_shifts_the_moment() {
    regular_wave_with(true, &[("float", [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])]);
}

/// Both bodies heaving as prescribed by the solid (z = cg + a sin ωt, so radiation is active): the
/// load the solid reads for window [t_j, t_j + Δ] is `HydroModel::evaluate(t_j, state at t_j)` run
/// here offline over the same sequence of states, in both scheme orders; this pins the velocity
/// history's time stamps (including the t = 0 sample taken at the window start when reading at
/// WINDOW_END). With Solid first, the first forces are the TDPF's initial data: the loads of the
/// listed initial poses at rest (sent before any state has arrived).
fn moving_case(fluid_first: bool) {
    use tidelink_tdpf_solver::hydro_model::{BodyState, HydroModel, HydroOptions, RadiationMethod, WaveSpec};
    let h5 = rm3();
    let data = bemio::read(&h5).expect("rm3.h5");
    let (window, windows) = (0.1, 60);
    let (amp, omega) = ([0.3, 0.1], 2.0 * std::f64::consts::PI / 6.0);
    let cg = [data.bodies[0].cg, data.bodies[1].cg];
    let motion: common::Motion = std::sync::Arc::new(move |t: f64| {
        (0..2)
            .map(|b| {
                let c = cg[b];
                ([c.x, c.y, c.z + amp[b] * (omega * t).sin()], [0.0, 0.0, amp[b] * omega * (omega * t).cos()])
            })
            .collect()
    });
    let waves = "    type: REGULAR\n    height: 2.5\n    period: 8\n    ramp_time: 2\n";
    let xml = Xml { fluid_first, window, windows, init_forces: !fluid_first, ..Default::default() };
    let case = temp_case(&xml.text());
    let (fluid_read, solid_read) =
        if fluid_first { ("WINDOW_START", ReadDataTime::WindowEnd) } else { ("WINDOW_END", ReadDataTime::WindowStart) };
    let fluid = write_case(&case, &participant_yaml(&BODIES, fluid_read, "RIGID_BODY_REFS"), &model_yaml(&h5, waves));
    let readings =
        common::run_coupled_moving(&case, fluid, vec![FLOAT, PLATE], Some(motion.clone()), solid_read, false);
    assert_eq!(readings.len(), windows);

    let options = HydroOptions {
        bodies: 2,
        dt: window,
        body_to_body: true,
        radiation: RadiationMethod::default(),
        waves: WaveSpec::Regular {
            height: 2.5,
            period: 8.0,
            phase: 0.0,
            heading_deg: 0.0,
            ramp: Ramp::cosine(2.0).expect("ramp"),
        },
        gravity: Some(9.81),
    };
    let mut offline = HydroModel::new(&data, &options).expect("model");
    let mut worst: f64 = 0.0;
    let mut radiation_seen: f64 = 0.0;
    for (j, r) in readings.iter().enumerate() {
        let t = j as f64 * window;
        assert!((r.t - t).abs() < 1e-9, "reading {j} at {} s", r.t);
        let states: Vec<BodyState> = motion(t)
            .into_iter()
            .map(|(p, v)| BodyState {
                position: nalgebra::Vector3::from(p),
                velocity: nalgebra::Vector3::from(v),
                ..Default::default()
            })
            .collect();
        let mut loads = offline.evaluate(t, &states).expect("offline evaluate");
        if j == 0 && !fluid_first {
            // The forces the solid reads first are the TDPF's initial data, sent before it has seen a state:
            // the loads of the listed initial poses at rest.
            let rest: Vec<BodyState> = states.iter().map(|s| BodyState::at_rest(s.position, s.rotation)).collect();
            let mut fresh = HydroModel::new(&data, &options).expect("model");
            loads = fresh.evaluate(0.0, &rest).expect("initial data");
        }
        for (b, load) in loads.iter().enumerate() {
            let want = load.total();
            let got = Vector6::from_fn(|i, _| if i < 3 { r.forces[3 * b + i] } else { r.torques[3 * b + i - 3] });
            let err = (got - want).norm() / want.norm();
            worst = worst.max(err);
            radiation_seen = radiation_seen.max(load.radiation.norm() / want.norm());
            assert!(err < 1e-9, "t = {t} s, body {b}: got {got:?}, want {want:?}");
        }
    }
    println!("fluid first = {fluid_first}: largest relative gap {worst:.2e}; radiation up to {radiation_seen:.3} of the load");
    assert!(radiation_seen > 1e-3, "the motion must make radiation matter");
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn heaving_bodies_get_the_offline_model_loads_fluid_first() {
    moving_case(true);
}

#[test]
#[cfg_attr(not(tidelink_shared), ignore = "needs ../shared/data/rm3/rm3.h5 (reference data beside the repository)")]
fn heaving_bodies_get_the_offline_model_loads_fluid_second_window_end() {
    moving_case(false);
}
