//! The fmi3 C functions of co-simulation that this FMU implements. Each catches panics and
//! reports errors through the importer's logger: an FMU must never bring its importer down.

use crate::instance::{log_to, Checkpoint, Instance, Mode};
use crate::types::*;
use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

/// The model file inside the FMU's `resources/` folder (an FMU of a model file).
pub const MODEL_FILE: &str = "model.yaml";
/// The participant file inside `resources/` (an FMU of a participant or case); the preCICE
/// configuration beside it is [`CONFIG_FILE`].
pub const PARTICIPANT_FILE: &str = "participant.yaml";
/// The preCICE configuration inside `resources/` (it turns the added mass on, as in a run).
pub const CONFIG_FILE: &str = "precice-config.xml";

/// What the FMU's `resources/` folder `dir` holds: a participant file and its configuration,
/// or a model file.
pub fn resource_source(dir: &std::path::Path) -> crate::setup::Source {
    if dir.join(PARTICIPANT_FILE).is_file() {
        crate::setup::Source::Participant { participant: dir.join(PARTICIPANT_FILE), config: dir.join(CONFIG_FILE) }
    } else {
        crate::setup::Source::Model(dir.join(MODEL_FILE))
    }
}

/// A slice from an importer's pointer and length (empty for a length of 0, whatever the pointer).
///
/// # Safety
/// `ptr` must point to `n` valid values when `n > 0`.
unsafe fn slice<'a, T>(ptr: *const T, n: usize) -> Result<&'a [T], String> {
    if n == 0 {
        Ok(&[])
    } else if ptr.is_null() {
        Err("an array argument is NULL".into())
    } else {
        // SAFETY: the caller promises n values at ptr.
        Ok(unsafe { std::slice::from_raw_parts(ptr, n) })
    }
}

/// As [`slice`], writable.
///
/// # Safety
/// As [`slice`].
unsafe fn slice_mut<'a, T>(ptr: *mut T, n: usize) -> Result<&'a mut [T], String> {
    if n == 0 {
        Ok(&mut [])
    } else if ptr.is_null() {
        Err("an array argument is NULL".into())
    } else {
        // SAFETY: the caller promises n values at ptr.
        Ok(unsafe { std::slice::from_raw_parts_mut(ptr, n) })
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_default()
}

/// Runs `f` on the instance behind `inst`, catching panics; an error is logged and returned as
/// `fmi3Error`, a panic also leaves the instance failed (only reset or free).
///
/// # Safety
/// `inst` must be NULL or a pointer from [`fmi3InstantiateCoSimulation`] not yet freed.
pub(crate) unsafe fn with(
    inst: Fmi3Instance,
    call: &str,
    f: impl FnOnce(&mut Instance) -> Result<(), String>,
) -> Fmi3Status {
    if inst.is_null() {
        return Fmi3Status::Error;
    }
    // SAFETY: the caller promises a live instance of ours; importers call one instance from one thread at a time.
    let i = unsafe { &mut *(inst as *mut Instance) };
    match catch_unwind(AssertUnwindSafe(|| f(&mut *i))) {
        Ok(Ok(())) => Fmi3Status::Ok,
        Ok(Err(msg)) => {
            let text = if call.is_empty() { msg } else { format!("{call}: {msg}") };
            i.log(Fmi3Status::Error, "logStatusError", &text);
            Fmi3Status::Error
        }
        Err(p) => {
            i.mode = Mode::Failed;
            let msg = format!("{call}: internal error (a bug of the FMU, please report): {}", panic_text(&*p));
            i.log(Fmi3Status::Error, "logStatusError", &msg);
            Fmi3Status::Error
        }
    }
}

/// `fmi3GetVersion`: "3.0".
#[no_mangle]
pub extern "C" fn fmi3GetVersion() -> *const c_char {
    c"3.0".as_ptr()
}

/// `fmi3SetDebugLogging`: turns messages of status OK on or off (categories are not filtered).
///
/// # Safety
/// `instance` as for every call: from this library, not freed.
#[no_mangle]
pub unsafe extern "C" fn fmi3SetDebugLogging(
    instance: Fmi3Instance,
    logging_on: bool,
    _n_categories: usize,
    _categories: *const Fmi3String,
) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        with(instance, "fmi3SetDebugLogging", |i| {
            i.logging_on = logging_on;
            Ok(())
        })
    }
}

/// `fmi3InstantiateCoSimulation`: reads `<resourcePath>/participant.yaml` (with its preCICE
/// configuration) or `<resourcePath>/model.yaml`; NULL (with a logged message) if it cannot.
///
/// # Safety
/// String arguments NULL or NUL-terminated; callbacks valid for the instance's life.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fmi3InstantiateCoSimulation(
    instance_name: Fmi3String,
    _instantiation_token: Fmi3String,
    resource_path: Fmi3String,
    _visible: bool,
    logging_on: bool,
    _event_mode_used: bool,
    _early_return_allowed: bool,
    _required_intermediate_variables: *const Fmi3ValueReference,
    _n_required_intermediate_variables: usize,
    instance_environment: Fmi3InstanceEnvironment,
    log_message: Fmi3LogMessageCallback,
    _intermediate_update: Fmi3IntermediateUpdateCallback,
) -> Fmi3Instance {
    let text = |p: Fmi3String| {
        // SAFETY: the importer passes NUL-terminated strings or NULL.
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    };
    let result = catch_unwind(AssertUnwindSafe(|| {
        let name = text(instance_name).unwrap_or_else(|| "tidelink-mbs".into());
        let Some(resources) = text(resource_path) else {
            return Err("no resource path: the FMU's model file is under resources/".to_string());
        };
        // FMI 3.0 passes a path; tolerate a file URI as FMI 2.0 did.
        let dir = PathBuf::from(resources.strip_prefix("file://").unwrap_or(&resources));
        Instance::new(&name, &resource_source(&dir), log_message, instance_environment, logging_on)
    }));
    match result {
        Ok(Ok(i)) => Box::into_raw(Box::new(i)) as Fmi3Instance,
        Ok(Err(msg)) => {
            // SAFETY: the importer's callback and environment of this call.
            unsafe { log_to(log_message, instance_environment, Fmi3Status::Error, "logStatusError", &msg) };
            std::ptr::null_mut()
        }
        Err(p) => {
            let msg = format!("fmi3InstantiateCoSimulation: internal error: {}", panic_text(&*p));
            // SAFETY: the importer's callback and environment of this call.
            unsafe { log_to(log_message, instance_environment, Fmi3Status::Error, "logStatusError", &msg) };
            std::ptr::null_mut()
        }
    }
}

/// `fmi3FreeInstance`.
///
/// # Safety
/// `instance` from this library, not freed before; not used after.
#[no_mangle]
pub unsafe extern "C" fn fmi3FreeInstance(instance: Fmi3Instance) {
    if !instance.is_null() {
        // SAFETY: made by Box::into_raw in fmi3InstantiateCoSimulation, freed once.
        let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(instance as *mut Instance) })));
    }
}

/// `fmi3EnterInitializationMode` (tolerance and stop time are not used).
///
/// # Safety
/// As [`fmi3SetDebugLogging`].
#[no_mangle]
pub unsafe extern "C" fn fmi3EnterInitializationMode(
    instance: Fmi3Instance,
    _tolerance_defined: bool,
    _tolerance: f64,
    start_time: f64,
    _stop_time_defined: bool,
    _stop_time: f64,
) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe { with(instance, "fmi3EnterInitializationMode", |i| i.enter_initialization(start_time)) }
}

/// `fmi3ExitInitializationMode`: the parameters take effect; the FMU is in step mode.
///
/// # Safety
/// As [`fmi3SetDebugLogging`].
#[no_mangle]
pub unsafe extern "C" fn fmi3ExitInitializationMode(instance: Fmi3Instance) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe { with(instance, "fmi3ExitInitializationMode", |i| i.exit_initialization()) }
}

/// `fmi3EnterStepMode`: already there after initialization (no event mode).
///
/// # Safety
/// As [`fmi3SetDebugLogging`].
#[no_mangle]
pub unsafe extern "C" fn fmi3EnterStepMode(instance: Fmi3Instance) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        with(instance, "fmi3EnterStepMode", |i| match i.mode {
            Mode::Step => Ok(()),
            m => Err(format!("not allowed in mode {m:?}")),
        })
    }
}

/// `fmi3DoStep`: backward-Euler sub-steps of at most `solver.time_step` with the inputs held;
/// never returns early, never asks for event handling.
///
/// # Safety
/// As [`fmi3SetDebugLogging`]; the out pointers valid or NULL.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fmi3DoStep(
    instance: Fmi3Instance,
    current_communication_point: f64,
    communication_step_size: f64,
    _no_set_fmu_state_prior: bool,
    event_handling_needed: *mut bool,
    terminate_simulation: *mut bool,
    early_return: *mut bool,
    last_successful_time: *mut f64,
) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        with(instance, "fmi3DoStep", |i| {
            let r = i.do_step(current_communication_point, communication_step_size);
            for p in [event_handling_needed, terminate_simulation, early_return] {
                if !p.is_null() {
                    // SAFETY: the importer's out pointer.
                    *p = false;
                }
            }
            if !last_successful_time.is_null() {
                // SAFETY: the importer's out pointer.
                *last_successful_time = i.get(0).unwrap_or(current_communication_point);
            }
            if r.is_err() {
                i.mode = Mode::Failed;
            }
            r
        })
    }
}

/// `fmi3Terminate`.
///
/// # Safety
/// As [`fmi3SetDebugLogging`].
#[no_mangle]
pub unsafe extern "C" fn fmi3Terminate(instance: Fmi3Instance) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        with(instance, "fmi3Terminate", |i| {
            i.mode = Mode::Terminated;
            Ok(())
        })
    }
}

/// `fmi3Reset`: back to the instantiated state (model as read, start values).
///
/// # Safety
/// As [`fmi3SetDebugLogging`].
#[no_mangle]
pub unsafe extern "C" fn fmi3Reset(instance: Fmi3Instance) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        with(instance, "fmi3Reset", |i| {
            i.reset();
            Ok(())
        })
    }
}

/// `fmi3GetFloat64`: one value per value reference (all variables are scalars).
///
/// # Safety
/// As [`fmi3SetDebugLogging`]; `vr` holds `nvr` references and `values` room for `n_values`.
#[no_mangle]
pub unsafe extern "C" fn fmi3GetFloat64(
    instance: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    values: *mut f64,
    n_values: usize,
) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        with(instance, "fmi3GetFloat64", |i| {
            let (refs, out) = (slice(vr, nvr)?, slice_mut(values, n_values)?);
            if refs.len() != out.len() {
                return Err(format!(
                    "{} value references but room for {} values (all variables are scalars)",
                    nvr, n_values
                ));
            }
            for (r, o) in refs.iter().zip(out.iter_mut()) {
                *o = i.get(*r)?;
            }
            Ok(())
        })
    }
}

/// `fmi3SetFloat64`: inputs, parameters, `solver.time_step` (see [`Instance::set`]).
///
/// # Safety
/// As [`fmi3GetFloat64`].
#[no_mangle]
pub unsafe extern "C" fn fmi3SetFloat64(
    instance: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    values: *const f64,
    n_values: usize,
) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        with(instance, "fmi3SetFloat64", |i| {
            let (refs, vals) = (slice(vr, nvr)?, slice(values, n_values)?);
            if refs.len() != vals.len() {
                return Err(format!("{nvr} value references but {n_values} values (all variables are scalars)"));
            }
            refs.iter().zip(vals).try_for_each(|(r, v)| i.set(*r, *v))
        })
    }
}

/// `fmi3GetFMUState`: a new checkpoint, or the one at `*state` overwritten.
///
/// # Safety
/// As [`fmi3SetDebugLogging`]; `state` valid; `*state` NULL or from this instance.
#[no_mangle]
pub unsafe extern "C" fn fmi3GetFMUState(instance: Fmi3Instance, state: *mut Fmi3FmuState) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        with(instance, "fmi3GetFMUState", |i| {
            if state.is_null() {
                return Err("the state pointer is NULL".into());
            }
            let c = i.checkpoint();
            if (*state).is_null() {
                *state = Box::into_raw(Box::new(c)) as Fmi3FmuState;
            } else {
                *(*state as *mut Checkpoint) = c;
            }
            Ok(())
        })
    }
}

/// `fmi3SetFMUState`: restores a checkpoint bit for bit.
///
/// # Safety
/// As [`fmi3SetDebugLogging`]; `state` from [`fmi3GetFMUState`] of this library, not freed.
#[no_mangle]
pub unsafe extern "C" fn fmi3SetFMUState(instance: Fmi3Instance, state: Fmi3FmuState) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        with(instance, "fmi3SetFMUState", |i| {
            if state.is_null() {
                return Err("the state is NULL".into());
            }
            i.restore(&*(state as *const Checkpoint))
        })
    }
}

/// `fmi3FreeFMUState`: frees `*state` and sets it to NULL.
///
/// # Safety
/// As [`fmi3SetFMUState`].
#[no_mangle]
pub unsafe extern "C" fn fmi3FreeFMUState(instance: Fmi3Instance, state: *mut Fmi3FmuState) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        with(instance, "fmi3FreeFMUState", |_| {
            if !state.is_null() && !(*state).is_null() {
                drop(Box::from_raw(*state as *mut Checkpoint));
                *state = std::ptr::null_mut();
            }
            Ok(())
        })
    }
}

/// The derivative behind both directional calls: `(unknowns × knowns)`.
///
/// # Safety
/// The arrays as the caller says.
unsafe fn derivative_call(
    instance: Fmi3Instance,
    call: &str,
    adjoint: bool,
    args: (*const Fmi3ValueReference, usize, *const Fmi3ValueReference, usize),
    seed: (*const f64, usize),
    sensitivity: (*mut f64, usize),
) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        with(instance, call, |i| {
            let (unknowns, knowns) = (slice(args.0, args.1)?, slice(args.2, args.3)?);
            let (seed, out) = (slice(seed.0, seed.1)?, slice_mut(sensitivity.0, sensitivity.1)?);
            let (nin, nout) = if adjoint { (unknowns.len(), knowns.len()) } else { (knowns.len(), unknowns.len()) };
            if seed.len() != nin || out.len() != nout {
                return Err(format!(
                    "seed has {} values and sensitivity {}; expected {nin} and {nout}",
                    seed.len(),
                    out.len()
                ));
            }
            let d = i.derivative(unknowns, knowns)?;
            let s = nalgebra::DVector::from_column_slice(seed);
            let r = if adjoint { d.transpose() * s } else { d * s };
            out.copy_from_slice(r.as_slice());
            Ok(())
        })
    }
}

/// `fmi3GetDirectionalDerivative`: `sensitivity = (d unknowns / d knowns) seed` for one
/// backward-Euler step of `solver.time_step` from the current state (docs/fmi.md).
///
/// # Safety
/// As [`fmi3SetDebugLogging`]; arrays of the lengths given.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fmi3GetDirectionalDerivative(
    instance: Fmi3Instance,
    unknowns: *const Fmi3ValueReference,
    n_unknowns: usize,
    knowns: *const Fmi3ValueReference,
    n_knowns: usize,
    seed: *const f64,
    n_seed: usize,
    sensitivity: *mut f64,
    n_sensitivity: usize,
) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        derivative_call(
            instance,
            "fmi3GetDirectionalDerivative",
            false,
            (unknowns, n_unknowns, knowns, n_knowns),
            (seed, n_seed),
            (sensitivity, n_sensitivity),
        )
    }
}

/// `fmi3GetAdjointDerivative`: `sensitivity = seedᵀ (d unknowns / d knowns)`, the exact
/// transpose of [`fmi3GetDirectionalDerivative`].
///
/// # Safety
/// As [`fmi3GetDirectionalDerivative`].
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fmi3GetAdjointDerivative(
    instance: Fmi3Instance,
    unknowns: *const Fmi3ValueReference,
    n_unknowns: usize,
    knowns: *const Fmi3ValueReference,
    n_knowns: usize,
    seed: *const f64,
    n_seed: usize,
    sensitivity: *mut f64,
    n_sensitivity: usize,
) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe {
        derivative_call(
            instance,
            "fmi3GetAdjointDerivative",
            true,
            (unknowns, n_unknowns, knowns, n_knowns),
            (seed, n_seed),
            (sensitivity, n_sensitivity),
        )
    }
}

/// Logs `why` as an error of `instance` (if there is one) and returns `fmi3Error`.
///
/// # Safety
/// As [`with`].
pub(crate) unsafe fn report(instance: Fmi3Instance, why: &str) -> Fmi3Status {
    // SAFETY: forwarded caller contract.
    unsafe { with(instance, "", |_| Err(why.to_string())) }
}
