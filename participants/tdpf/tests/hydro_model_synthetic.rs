//! `HydroModel` on a synthetic two-body file: the body-to-body switch, the state-time rule, `peek`,
//! hydrostatics about the file's equilibrium, and the state-space route.

use nalgebra::{DMatrix, Matrix6, Vector3};
use std::path::PathBuf;
use tidelink_bemio::{BodyHydro, Excitation, HydroData, RadiationIrf, StateSpace, StateSpaceEntry, WaterDepth};
use tidelink_tdpf_solver::hydro_model::{BodyState, HydroError, HydroModel, HydroOptions, RadiationMethod, WaveSpec};
use tidelink_tdpf_solver::radiation::Feedthrough;

const DT: f64 = 0.5;

/// Body `i` of a two-body file: K(t) = 1000·(1 − t/4) on every entry of its 6 × 12 block (so the
/// coupling blocks are as large as the own ones), K33 stiffness 2e6, one order-1 state space per entry.
fn body(i: usize) -> BodyHydro {
    let t: Vec<f64> = (0..=8).map(|s| s as f64 * 0.5).collect();
    let k = t.iter().map(|&x| DMatrix::from_element(6, 12, 1000.0 * (1.0 - x / 4.0))).collect();
    let mut stiffness = Matrix6::zeros();
    stiffness[(2, 2)] = 2.0e6;
    stiffness[(4, 4)] = 3.0e7;
    let entry = StateSpaceEntry {
        a: DMatrix::from_element(1, 1, -1.0),
        b: DMatrix::from_element(1, 1, 1.0),
        c: DMatrix::from_element(1, 1, 1000.0),
        d: 0.0,
    };
    BodyHydro {
        name: format!("b{i}"),
        cg: Vector3::new(10.0 * i as f64, 0.0, -1.0),
        cb: Vector3::new(10.0 * i as f64, 0.0, -2.0),
        displaced_volume: 100.0,
        hydrostatic_stiffness: stiffness,
        added_mass_inf: DMatrix::zeros(6, 12),
        added_mass: Vec::new(),
        radiation_damping: Vec::new(),
        radiation_irf: Some(RadiationIrf { t, k }),
        state_space: Some(StateSpace { entries: vec![vec![entry; 12]; 6] }),
        excitation: Excitation { re: vec![DMatrix::zeros(6, 1); 2], im: vec![DMatrix::zeros(6, 1); 2], irf: None },
    }
}

fn data() -> HydroData {
    HydroData {
        source: PathBuf::from("synthetic.h5"),
        code: None,
        rho: 1000.0,
        g: 9.81,
        depth: WaterDepth::Infinite,
        omega: vec![0.5, 2.0],
        headings_deg: vec![0.0],
        bodies: vec![body(0), body(1)],
    }
}

fn options(body_to_body: bool) -> HydroOptions {
    HydroOptions {
        bodies: 2,
        dt: DT,
        body_to_body,
        radiation: RadiationMethod::Convolution { truncation: None, entry_tolerance: 0.0 },
        waves: WaveSpec::None,
        gravity: None,
    }
}

/// Both bodies at equilibrium, body 1 heaving at 1 m/s.
fn states(d: &HydroData) -> Vec<BodyState> {
    let mut s: Vec<BodyState> = d.bodies.iter().map(|b| BodyState::at_rest(b.cg, Vector3::zeros())).collect();
    s[1].velocity.z = 1.0;
    s
}

#[test]
fn body_to_body_switch_zeroes_the_coupling_blocks() {
    let d = data();
    for radiation in [
        RadiationMethod::Convolution { truncation: None, entry_tolerance: 0.0 },
        RadiationMethod::StateSpace { feedthrough: Feedthrough::Ignored },
    ] {
        for b2b in [true, false] {
            let mut m = HydroModel::new(&d, &HydroOptions { radiation, ..options(b2b) }).expect("model");
            let mut loads = Vec::new();
            for k in 0..4 {
                loads = m.evaluate(k as f64 * DT, &states(&d)).expect("evaluate");
            }
            let on_0 = loads[0].radiation.norm();
            let on_1 = loads[1].radiation.norm();
            println!(
                "{radiation:?}, body_to_body {b2b}: |F_rad| on the still body {on_0:.3e}, on the moving one {on_1:.3e}"
            );
            assert!(on_1 > 100.0, "the moving body feels its own radiation");
            if b2b {
                assert!((on_0 - on_1).abs() < 1e-9 * on_1, "full coupling: equal blocks give equal forces");
            } else {
                assert_eq!(on_0, 0.0, "own blocks only: the still body feels nothing");
            }
        }
    }
}

#[test]
fn loads_belong_to_the_state_time_and_other_times_are_refused() {
    let d = data();
    let mut m = HydroModel::new(&d, &options(true)).expect("model");
    assert_eq!(m.next_time(), 0.0);
    let err = m.evaluate(DT, &states(&d)).unwrap_err();
    assert_eq!(err, HydroError::StateTime { t: DT, expected: 0.0, dt: DT });
    assert_eq!(m.evaluations(), 0, "a refused call changes nothing");
    let peeked = m.peek(0.0, &states(&d)).expect("peek");
    assert_eq!(m.evaluations(), 0, "peek records nothing");
    let first = m.evaluate(0.0, &states(&d)).expect("evaluate");
    assert_eq!(peeked, first, "peek gives what evaluate then gives");
    // F_rad(0) = −K(0)·dt/2·v (trapezoid end weight): 1000 · 0.25 per entry of the heaving column.
    assert!((first[1].radiation[2] + 250.0).abs() < 1e-9, "{:?}", first[1].radiation);
    assert!(m.evaluate(0.0, &states(&d)).is_err(), "the same time twice is refused");
    assert!(m.evaluate(DT, &states(&d)).is_ok());
    assert!(m.evaluate(DT, &states(&d)[..1]).is_err(), "one state per body");
}

#[test]
fn hydrostatics_restore_about_the_file_equilibrium() {
    let d = data();
    let mut m = HydroModel::new(&d, &options(true)).expect("model");
    let mut s = states(&d);
    s[1].velocity.z = 0.0;
    s[0].position.z += 0.1;
    s[0].rotation.y = 0.01;
    let loads = m.evaluate(0.0, &s).expect("evaluate");
    let buoyancy = 1000.0 * 9.81 * 100.0;
    let h = loads[0].hydrostatic;
    assert!((h[2] - (buoyancy - 2.0e6 * 0.1)).abs() < 1e-6, "{h:?}");
    assert!((h[4] - (-3.0e7 * 0.01)).abs() < 1e-6, "{h:?}");
    assert!((loads[1].total()[2] - buoyancy).abs() < 1e-6, "body 1 at equilibrium: buoyancy only");
    assert_eq!(loads[0].excitation.norm(), 0.0, "still water");
}

/// A radiation-only file (no excitation, as `tidelink hydro --wamit` writes, docs/hydro.md) serves
/// still water, and any wave is refused naming what to do.
#[test]
fn a_file_without_excitation_serves_still_water_only() {
    use tidelink_tdpf_solver::waves::Ramp;
    let mut d = data();
    for b in &mut d.bodies {
        b.excitation = Excitation { re: Vec::new(), im: Vec::new(), irf: None };
    }
    let mut m = HydroModel::new(&d, &options(true)).expect("still water needs no excitation");
    assert!(m.evaluate(0.0, &states(&d)).is_ok());
    let regular = WaveSpec::Regular { height: 1.0, period: 8.0, phase: 0.0, heading_deg: 0.0, ramp: Ramp::None };
    let e = HydroModel::new(&d, &HydroOptions { waves: regular, ..options(true) }).unwrap_err();
    let cause = std::error::Error::source(&e).map(|c| c.to_string()).unwrap_or_default();
    assert!(e.to_string() == "excitation of body 0" && cause.contains("no excitation coefficients"), "{e}: {cause}");
    assert!(cause.contains("NO_WAVE"), "{cause}");
}

#[test]
fn irregular_waves_build_by_superposition_and_need_an_irf_for_convolution() {
    use tidelink_tdpf_solver::hydro_model::IrregularMethod;
    use tidelink_tdpf_solver::waves::{Ramp, Spectrum};
    let d = data();
    let spec = |method| WaveSpec::Irregular {
        spectrum: Spectrum::pierson_moskowitz(2.0, 8.0).expect("spectrum"),
        band: None,
        seed: 1,
        heading_deg: 0.0,
        ramp: Ramp::None,
        method,
    };
    let mut m = HydroModel::new(&d, &HydroOptions { waves: spec(IrregularMethod::Superposition), ..options(true) })
        .expect("superposition over the file's band");
    assert!(m.evaluate(0.0, &states(&d)).is_ok());
    let e =
        HydroModel::new(&d, &HydroOptions { waves: spec(IrregularMethod::Convolution), ..options(true) }).unwrap_err();
    // The cause is the error's source (said once in the printed chain).
    let cause = std::error::Error::source(&e).map(|c| c.to_string()).unwrap_or_default();
    assert!(
        e.to_string() == "excitation of body 0" && cause.contains("no excitation impulse response"),
        "{e}: {cause}"
    );
}

#[test]
fn a_restored_state_repeats_a_window_bit_for_bit() {
    // What an implicit scheme does: save at a window start, iterate, restore, iterate again.
    let d = data();
    let heave = |k: usize| {
        let mut s = states(&d);
        s[1].velocity.z = (0.3 * k as f64).sin();
        s[0].velocity.x = (0.2 * k as f64).cos();
        s
    };
    for radiation in [
        RadiationMethod::Convolution { truncation: None, entry_tolerance: 0.0 },
        RadiationMethod::StateSpace { feedthrough: Feedthrough::Ignored },
    ] {
        let mut m = HydroModel::new(&d, &HydroOptions { radiation, ..options(true) }).expect("model");
        for k in 0..12 {
            m.evaluate(k as f64 * DT, &heave(k)).expect("evaluate");
        }
        let saved = m.save_state();
        let run = |m: &mut HydroModel, shift: usize| -> Vec<u64> {
            (12..20)
                .flat_map(|k| {
                    let loads = m.evaluate(k as f64 * DT, &heave(k + shift)).expect("evaluate");
                    loads.into_iter().flat_map(|l| l.radiation.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
                })
                .collect()
        };
        let first = run(&mut m, 0);
        m.restore_state(&saved).expect("restore");
        assert!((m.next_time() - 12.0 * DT).abs() < 1e-15, "{radiation:?}: the clock of the memory is restored");
        assert_eq!(run(&mut m, 0), first, "{radiation:?}: the repeated window differs");
        m.restore_state(&saved).expect("restore");
        assert_ne!(run(&mut m, 5), first, "{radiation:?}: other motion must give other loads");
    }
}

#[test]
fn explicit_components_must_lie_in_the_file_and_an_elevation_record_needs_an_irf() {
    use tidelink_tdpf_solver::hydro_model::{ComponentSpec, IrregularMethod};
    use tidelink_tdpf_solver::waves::{ElevationSeries, Ramp};
    let d = data();
    let spec = |omega: f64| WaveSpec::Components {
        components: vec![
            ComponentSpec { omega: 1.0, amplitude: 0.5, phase: 0.0 },
            ComponentSpec { omega, amplitude: 0.1, phase: 1.0 },
        ],
        heading_deg: 0.0,
        ramp: Ramp::None,
        method: IrregularMethod::Superposition,
    };
    assert!(HydroModel::new(&d, &HydroOptions { waves: spec(1.5), ..options(true) }).is_ok());
    // Unlike a spectrum's band, a given component is never dropped silently.
    let e = HydroModel::new(&d, &HydroOptions { waves: spec(2.5), ..options(true) }).unwrap_err();
    let cause = std::error::Error::source(&e).map(|c| c.to_string()).unwrap_or_default();
    assert!(cause.contains("2.5"), "{e}: {cause}");
    let series = ElevationSeries::new(vec![0.0, 1.0], vec![0.0, 0.1]).expect("a record");
    let waves = WaveSpec::Elevation { series, heading_deg: 0.0, ramp: Ramp::None };
    let e = HydroModel::new(&d, &HydroOptions { waves, ..options(true) }).unwrap_err();
    let cause = std::error::Error::source(&e).map(|c| c.to_string()).unwrap_or_default();
    assert!(cause.contains("no excitation impulse response"), "{e}: {cause}");
}
