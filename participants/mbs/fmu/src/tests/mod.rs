//! The C functions called as an importer calls them (through the rlib): instances side by side,
//! checkpoints bit for bit, derivatives against central differences of `fmi3DoStep`, errors
//! through the logger.

use crate::ffi::*;
use crate::instance::Mode;
use crate::stubs::fmi3GetInt32;
use crate::types::*;
use std::ffi::{c_void, CStr, CString};
use std::sync::Mutex;

mod rm3;

/// A spring-damped float on a slider (one coordinate) and a free tumbling body (six): the
/// float exercises joints and a parameter, the free body rotations and lever arms.
const MODEL: &str = include_str!("../../tests/data/two_bodies.yaml");

/// The logger's messages, kept in the instance environment (no global state).
pub(crate) type Log = Mutex<Vec<String>>;

unsafe extern "C" fn logger(env: Fmi3InstanceEnvironment, _status: Fmi3Status, _cat: Fmi3String, msg: Fmi3String) {
    // SAFETY: the tests pass a &Log as environment and NUL-terminated messages.
    let (log, text) = unsafe { (&*(env as *const Log), CStr::from_ptr(msg).to_string_lossy().into_owned()) };
    log.lock().unwrap().push(text);
}

pub(crate) struct Fmu {
    pub(crate) inst: Fmi3Instance,
    log: Box<Log>,
    _dir: tempfile::TempDir,
}

impl Drop for Fmu {
    fn drop(&mut self) {
        // SAFETY: our live instance, freed once.
        unsafe { fmi3FreeInstance(self.inst) };
    }
}

fn instantiate(model: &str) -> (Fmi3Instance, Box<Log>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(MODEL_FILE), model).unwrap();
    instantiate_in(dir)
}

/// Instantiates the FMU whose resources are the files in `dir`.
pub(crate) fn instantiate_in(dir: tempfile::TempDir) -> (Fmi3Instance, Box<Log>, tempfile::TempDir) {
    let log: Box<Log> = Box::default();
    let res = CString::new(format!("{}/", dir.path().display())).unwrap();
    // SAFETY: valid strings and callbacks; the environment outlives the instance.
    let inst = unsafe {
        fmi3InstantiateCoSimulation(
            c"test".as_ptr(),
            c"".as_ptr(),
            res.as_ptr(),
            false,
            true,
            false,
            false,
            std::ptr::null(),
            0,
            &*log as *const Log as *mut c_void,
            Some(logger),
            None,
        )
    };
    (inst, log, dir)
}

impl Fmu {
    fn new() -> Self {
        let (inst, log, dir) = instantiate(MODEL);
        Self::started(inst, log, dir)
    }
    /// Instantiated from resources of `dir`, taken through initialization.
    pub(crate) fn started(inst: Fmi3Instance, log: Box<Log>, dir: tempfile::TempDir) -> Self {
        assert!(!inst.is_null(), "{:?}", log.lock().unwrap());
        let f = Fmu { inst, log, _dir: dir };
        // SAFETY: live instance.
        unsafe {
            assert_eq!(fmi3EnterInitializationMode(f.inst, false, 0.0, 0.0, false, 0.0), Fmi3Status::Ok);
            assert_eq!(fmi3ExitInitializationMode(f.inst), Fmi3Status::Ok);
        }
        f
    }
    pub(crate) fn vars(&self) -> &crate::Variables {
        // SAFETY: live instance of ours.
        unsafe { &(*(self.inst as *const crate::Instance)).vars }
    }
    pub(crate) fn vr(&self, name: &str) -> u32 {
        self.vars().list.iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no variable {name}")).vr
    }
    pub(crate) fn set(&self, vr: &[u32], v: &[f64]) -> Fmi3Status {
        // SAFETY: live instance, arrays of the lengths given.
        unsafe { fmi3SetFloat64(self.inst, vr.as_ptr(), vr.len(), v.as_ptr(), v.len()) }
    }
    pub(crate) fn get(&self, vr: &[u32]) -> Vec<f64> {
        let mut out = vec![0.0; vr.len()];
        // SAFETY: live instance, arrays of the lengths given.
        let s = unsafe { fmi3GetFloat64(self.inst, vr.as_ptr(), vr.len(), out.as_mut_ptr(), out.len()) };
        assert_eq!(s, Fmi3Status::Ok, "{:?}", self.log.lock().unwrap());
        out
    }
    pub(crate) fn step(&self, t: f64, h: f64) -> Fmi3Status {
        let (mut a, mut b, mut c, mut last) = (true, true, true, 0.0);
        // SAFETY: live instance, valid out pointers.
        unsafe { fmi3DoStep(self.inst, t, h, false, &mut a, &mut b, &mut c, &mut last) }
    }
    pub(crate) fn inputs(&self) -> Vec<u32> {
        self.vars().inputs().map(|v| v.vr).collect()
    }
    pub(crate) fn outputs(&self) -> Vec<u32> {
        self.vars().outputs().map(|v| v.vr).collect()
    }
    pub(crate) fn bits(&self) -> Vec<u64> {
        self.get(&self.outputs()).iter().map(|x| x.to_bits()).collect()
    }
    pub(crate) fn messages(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }
}

/// Some loads: a push on the float, a force and torque on the buoy.
fn loads(f: &Fmu, scale: f64) {
    let vr = [f.vr("float.fz"), f.vr("buoy.fx"), f.vr("buoy.fy"), f.vr("buoy.tz")];
    assert_eq!(f.set(&vr, &[3e3 * scale, 20.0 * scale, -10.0 * scale, 5.0 * scale]), Fmi3Status::Ok);
}

#[test]
fn the_variables_are_the_models_bodies_and_coefficients() {
    let f = Fmu::new();
    let names: Vec<&str> = f.vars().list.iter().map(|v| v.name.as_str()).collect();
    // 1 time + 2 bodies × (6 inputs + 12 outputs) + 2 coefficients + the time step and the
    // derivatives' step.
    assert_eq!(names.len(), 1 + 2 * 18 + 2 + 2, "{names:?}");
    for n in
        ["time", "float.fz", "buoy.tx", "float.z", "buoy.rx", "buoy.vy", "buoy.wz", "pto.damping", "solver.time_step"]
    {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    assert_eq!(f.get(&[f.vr("pto.damping")]), vec![2.0e3]);
    assert_eq!(f.get(&[f.vr("float.z")]), vec![0.2]);
}

#[test]
fn two_instances_side_by_side_do_not_interfere() {
    let (a, b, alone) = (Fmu::new(), Fmu::new(), Fmu::new());
    loads(&a, 1.0);
    loads(&b, -2.0);
    loads(&alone, 1.0);
    assert_eq!(b.set(&[b.vr("pto.damping")], &[9e3]), Fmi3Status::Ok);
    let h = 0.05;
    for k in 0..10 {
        let t = k as f64 * h;
        assert_eq!(a.step(t, h), Fmi3Status::Ok, "{}", a.messages());
        assert_eq!(b.step(t, h), Fmi3Status::Ok, "{}", b.messages());
    }
    for k in 0..10 {
        assert_eq!(alone.step(k as f64 * h, h), Fmi3Status::Ok);
    }
    // Bit for bit: `a` stepped between `b`'s steps exactly as `alone` did on its own.
    assert_eq!(a.bits(), alone.bits());
    assert_ne!(a.bits(), b.bits());
    assert!((a.get(&[0])[0] - 0.5).abs() < 1e-12, "time {:?}", a.get(&[0]));
}

#[test]
fn fmu_state_round_trips_bit_for_bit() {
    let f = Fmu::new();
    loads(&f, 1.0);
    for k in 0..3 {
        assert_eq!(f.step(k as f64 * 0.02, 0.02), Fmi3Status::Ok);
    }
    let mut state: Fmi3FmuState = std::ptr::null_mut();
    // SAFETY: live instance, valid state pointer.
    assert_eq!(unsafe { fmi3GetFMUState(f.inst, &mut state) }, Fmi3Status::Ok);
    let saved = f.bits();
    for k in 3..8 {
        assert_eq!(f.step(k as f64 * 0.02, 0.02), Fmi3Status::Ok);
    }
    let first = f.bits();
    loads(&f, 5.0); // changed after the checkpoint: restored with it
                    // SAFETY: our checkpoint.
    assert_eq!(unsafe { fmi3SetFMUState(f.inst, state) }, Fmi3Status::Ok);
    assert_eq!(f.bits(), saved);
    assert!((f.get(&[0])[0] - 0.06).abs() < 1e-12, "time {:?}", f.get(&[0]));
    for k in 3..8 {
        assert_eq!(f.step(k as f64 * 0.02, 0.02), Fmi3Status::Ok);
    }
    assert_eq!(f.bits(), first);
    // SAFETY: our checkpoint, freed once.
    assert_eq!(unsafe { fmi3FreeFMUState(f.inst, &mut state) }, Fmi3Status::Ok);
    assert!(state.is_null());
}

/// `dy/du` through fmi3GetDirectionalDerivative (one seed per input) and through
/// fmi3GetAdjointDerivative (one seed per output).
pub(crate) fn jacobians(f: &Fmu) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let (ins, outs) = (f.inputs(), f.outputs());
    let mut fwd = vec![vec![0.0; ins.len()]; outs.len()];
    let mut adj = fwd.clone();
    for j in 0..ins.len() {
        let mut seed = vec![0.0; ins.len()];
        seed[j] = 1.0;
        let mut out = vec![0.0; outs.len()];
        // SAFETY: live instance, arrays of the lengths given.
        let s = unsafe {
            fmi3GetDirectionalDerivative(
                f.inst,
                outs.as_ptr(),
                outs.len(),
                ins.as_ptr(),
                ins.len(),
                seed.as_ptr(),
                seed.len(),
                out.as_mut_ptr(),
                out.len(),
            )
        };
        assert_eq!(s, Fmi3Status::Ok, "{}", f.messages());
        (0..outs.len()).for_each(|i| fwd[i][j] = out[i]);
    }
    for i in 0..outs.len() {
        let mut seed = vec![0.0; outs.len()];
        seed[i] = 1.0;
        let mut out = vec![0.0; ins.len()];
        // SAFETY: live instance, arrays of the lengths given.
        let s = unsafe {
            fmi3GetAdjointDerivative(
                f.inst,
                outs.as_ptr(),
                outs.len(),
                ins.as_ptr(),
                ins.len(),
                seed.as_ptr(),
                seed.len(),
                out.as_mut_ptr(),
                out.len(),
            )
        };
        assert_eq!(s, Fmi3Status::Ok, "{}", f.messages());
        adj[i] = out;
    }
    (fwd, adj)
}

/// The worst difference, relative to each column's largest entry, between the FMU's
/// derivatives over `fmi3DoStep(t, h)` and central differences of that call, with perturbations
/// `eps(name)` per input; also checks adjoint = transpose of forward to round-off.
pub(crate) fn derivative_error(f: &Fmu, t: f64, h: f64, eps: impl Fn(&str) -> f64) -> f64 {
    let (ins, outs) = (f.inputs(), f.outputs());
    assert_eq!(f.set(&[f.vr("derivative.step")], &[h]), Fmi3Status::Ok);
    let (fwd, adj) = jacobians(f);
    // Adjoint = transpose of forward, to round-off (the same products, transposed).
    let scale = fwd.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
    for i in 0..outs.len() {
        for j in 0..ins.len() {
            assert!((fwd[i][j] - adj[i][j]).abs() <= 1e-12 * scale, "({i},{j}) {} vs {}", fwd[i][j], adj[i][j]);
        }
    }
    let mut state: Fmi3FmuState = std::ptr::null_mut();
    // SAFETY: live instance, valid state pointer.
    assert_eq!(unsafe { fmi3GetFMUState(f.inst, &mut state) }, Fmi3Status::Ok);
    let u0 = f.get(&ins);
    let mut worst = 0.0f64;
    for (j, &vr) in ins.iter().enumerate() {
        let e = eps(&f.vars().get(vr).unwrap().name);
        let mut y = [vec![], vec![]];
        for (k, sign) in [1.0, -1.0].into_iter().enumerate() {
            assert_eq!(f.set(&[vr], &[u0[j] + sign * e]), Fmi3Status::Ok);
            assert_eq!(f.step(t, h), Fmi3Status::Ok, "{}", f.messages());
            y[k] = f.get(&outs);
            // SAFETY: our checkpoint.
            assert_eq!(unsafe { fmi3SetFMUState(f.inst, state) }, Fmi3Status::Ok);
        }
        let col = (0..outs.len()).fold(0.0f64, |m, r| m.max(fwd[r][j].abs()));
        for i in 0..outs.len() {
            let fd = (y[0][i] - y[1][i]) / (2.0 * e);
            // A direction the joints hold (a zero column, e.g. a sideways force on the slider):
            // the differences are Newton's round-off, measured against the largest entry.
            let err = (fd - fwd[i][j]).abs() / if col > 1e-12 * scale { col } else { scale };
            if err >= FD_TOLERANCE {
                eprintln!("d {} / d {}: fd {fd:e}, derivative {:e}, column {col:e}", outs[i], vr, fwd[i][j]);
            }
            worst = worst.max(err);
        }
    }
    // SAFETY: our checkpoint, freed once.
    unsafe { fmi3FreeFMUState(f.inst, &mut state) };
    worst
}

/// Forces of 10 N and torques of 0.1 N m: large enough that Newton's 1e-10 residual tolerance
/// is far below the change, small enough for the O(ε²) truncation, which is what limits the
/// comparison (on the 50 kg buoy over five sub-steps: 1.6e-5, 1.6e-7, 1.6e-9 of the column's
/// largest entry at 100, 10, 1 N, measured through FMPy).
fn two_bodies_eps(name: &str) -> f64 {
    if name.contains(".f") {
        10.0
    } else {
        0.1
    }
}

// Tolerance of the comparisons with central differences, relative to each column's largest
// entry: the step is nearly linear in the loads (the lever arms and turning inertia bend it
// slightly); measured worst 1.7e-7 for one sub-step (the buoy's rotation rows, Newton's stopping
// point over ε); 1e-6 bounds it with margin.
pub(crate) const FD_TOLERANCE: f64 = 1e-6;

#[test]
fn derivatives_match_central_differences_of_do_step() {
    let f = Fmu::new();
    loads(&f, 1.0);
    let h = 0.01; // = solver.time_step: one backward-Euler sub-step
    assert_eq!(f.step(0.0, h), Fmi3Status::Ok); // away from the initial state
    let worst = derivative_error(&f, h, h, two_bodies_eps);
    eprintln!("one sub-step: worst relative difference to central differences: {worst:e}");
    assert!(worst < FD_TOLERANCE, "{worst:e}");
}

#[test]
fn derivatives_over_several_sub_steps_chain_the_steps() {
    let f = Fmu::new();
    loads(&f, 1.0);
    assert_eq!(f.step(0.0, 0.01), Fmi3Status::Ok);
    // A communication step of 5 sub-steps of solver.time_step (0.01 s): the derivative chains
    // the five steps' state transitions; a single step's derivative is off by far more here.
    let worst = derivative_error(&f, 0.01, 0.05, two_bodies_eps);
    eprintln!("five sub-steps: worst relative difference to central differences: {worst:e}");
    assert!(worst < FD_TOLERANCE, "{worst:e}");
}

#[test]
fn declared_independent_outputs_have_zero_derivatives() {
    // The float (on its slider, sprung to the fixed plate) and the free buoy share no joint,
    // force element or added mass: two groups, each output depending on its own body's inputs.
    let f = Fmu::new();
    let vars = f.vars();
    assert_eq!(vars.groups, vec![0, 1]);
    let xml = crate::model_description::write(vars, "t", "{t}");
    let float_z = f.vr("float.z");
    let line = xml.lines().find(|l| l.contains(&format!("<Output valueReference=\"{float_z}\""))).unwrap();
    let float_inputs: Vec<String> =
        vars.inputs().filter(|v| v.name.starts_with("float.")).map(|v| v.vr.to_string()).collect();
    assert!(line.contains(&format!("dependencies=\"{}\"", float_inputs.join(" "))), "{line}");
    loads(&f, 1.0);
    assert_eq!(f.set(&[f.vr("derivative.step")], &[0.05]), Fmi3Status::Ok);
    let (fwd, _) = jacobians(&f);
    let (ins, outs) = (f.inputs(), f.outputs());
    let mut nonzero_declared = 0;
    for (i, &o) in outs.iter().enumerate() {
        for (j, &u) in ins.iter().enumerate() {
            let dep = vars.depends(vars.get(o).unwrap(), vars.get(u).unwrap());
            if dep {
                nonzero_declared += usize::from(fwd[i][j] != 0.0);
            } else {
                // Exactly zero: the chained matrices have no path between the groups.
                assert_eq!(fwd[i][j], 0.0, "d {} / d {}", vars.get(o).unwrap().name, vars.get(u).unwrap().name);
            }
        }
    }
    assert!(nonzero_declared > 0);
}

#[test]
fn errors_are_logged_not_crashes() {
    let (inst, log, _dir) = instantiate("model: {bodies: [{name: a}]}");
    assert!(inst.is_null());
    assert!(log.lock().unwrap().iter().any(|m| m.contains("model.yaml")), "{:?}", log.lock().unwrap());

    let f = Fmu::new();
    assert_eq!(f.set(&[f.vr("float.z")], &[1.0]), Fmi3Status::Error);
    assert!(f.messages().contains("float.z is not settable"), "{}", f.messages());
    let mut out = [0.0];
    // SAFETY: live instance, arrays of the lengths given.
    assert_eq!(unsafe { fmi3GetFloat64(f.inst, [9999].as_ptr(), 1, out.as_mut_ptr(), 1) }, Fmi3Status::Error);
    assert!(f.messages().contains("unknown value reference 9999"));
    assert_eq!(f.step(1.0, 0.1), Fmi3Status::Error, "a step from the wrong time");
    assert!(f.messages().contains("but the FMU is at t = 0"), "{}", f.messages());
    let mut i = [0i32];
    // SAFETY: live instance.
    assert_eq!(unsafe { fmi3GetInt32(f.inst, [0].as_ptr(), 1, i.as_mut_ptr(), 1) }, Fmi3Status::Error);
    assert!(f.messages().contains("fmi3GetInt32 is not supported"));
    // A panic inside an entry point is caught, logged, and leaves the instance failed.
    // SAFETY: live instance.
    let s = unsafe { with(f.inst, "fmi3Test", |_| panic!("boom")) };
    assert_eq!(s, Fmi3Status::Error);
    assert!(f.messages().contains("internal error") && f.messages().contains("boom"), "{}", f.messages());
    // SAFETY: live instance.
    assert_eq!(unsafe { (*(f.inst as *const crate::Instance)).mode }, Mode::Failed);
    // SAFETY: live instance.
    assert_eq!(unsafe { fmi3Reset(f.inst) }, Fmi3Status::Ok);
    // SAFETY: the version string is static and NUL-terminated.
    assert_eq!(unsafe { CStr::from_ptr(fmi3GetVersion()) }.to_str().unwrap(), "3.0");
}
