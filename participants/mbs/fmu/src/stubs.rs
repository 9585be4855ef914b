//! The fmi3 functions an FMU must export that this co-simulation FMU does not support (other
//! variable types, clocks, event mode, serialisation, model exchange): each logs why and
//! returns `fmi3Error` (or NULL for the other instantiate functions).

use crate::types::*;
use std::ffi::c_void;

/// Logs that `call` is not supported by this FMU and returns `fmi3Error`.
///
/// # Safety
/// `instance` NULL or a live instance of this library.
unsafe fn unsupported(instance: Fmi3Instance, call: &str) -> Fmi3Status {
    let why = format!("{call} is not supported by this FMU (co-simulation, Float64 variables only; docs/fmi.md)");
    // SAFETY: forwarded caller contract.
    unsafe { crate::ffi::report(instance, &why) }
}

/// Getters and setters of the types this FMU has no variable of: `(instance, vr, nvr, values, nValues)`.
macro_rules! typed {
    ($($get:ident $set:ident $t:ty;)*) => {$(
        /// Not supported: the FMU has no variable of this type.
        ///
        /// # Safety
        /// `instance` NULL or a live instance of this library.
        #[no_mangle]
        pub unsafe extern "C" fn $get(
            instance: Fmi3Instance, _vr: *const Fmi3ValueReference, _nvr: usize, _values: *mut $t, _n: usize,
        ) -> Fmi3Status {
            // SAFETY: forwarded caller contract.
            unsafe { unsupported(instance, stringify!($get)) }
        }
        /// Not supported: the FMU has no variable of this type.
        ///
        /// # Safety
        /// `instance` NULL or a live instance of this library.
        #[no_mangle]
        pub unsafe extern "C" fn $set(
            instance: Fmi3Instance, _vr: *const Fmi3ValueReference, _nvr: usize, _values: *const $t, _n: usize,
        ) -> Fmi3Status {
            // SAFETY: forwarded caller contract.
            unsafe { unsupported(instance, stringify!($set)) }
        }
    )*};
}

typed! {
    fmi3GetFloat32 fmi3SetFloat32 f32;
    fmi3GetInt8 fmi3SetInt8 i8;
    fmi3GetUInt8 fmi3SetUInt8 u8;
    fmi3GetInt16 fmi3SetInt16 i16;
    fmi3GetUInt16 fmi3SetUInt16 u16;
    fmi3GetInt32 fmi3SetInt32 i32;
    fmi3GetUInt32 fmi3SetUInt32 u32;
    fmi3GetInt64 fmi3SetInt64 i64;
    fmi3GetUInt64 fmi3SetUInt64 u64;
    fmi3GetBoolean fmi3SetBoolean bool;
    fmi3GetString fmi3SetString Fmi3String;
}

/// Functions whose only argument that matters is the instance: they all fail.
macro_rules! simple {
    ($($name:ident ( $($arg:ident : $t:ty),* ) ;)*) => {$(
        /// Not supported by this co-simulation FMU (logs why, returns `fmi3Error`).
        ///
        /// # Safety
        /// `instance` NULL or a live instance of this library.
        #[no_mangle]
        pub unsafe extern "C" fn $name(instance: Fmi3Instance $(, $arg: $t)*) -> Fmi3Status {
            $(let _ = $arg;)*
            // SAFETY: forwarded caller contract.
            unsafe { unsupported(instance, stringify!($name)) }
        }
    )*};
}

simple! {
    fmi3GetBinary(vr: *const Fmi3ValueReference, nvr: usize, sizes: *mut usize, values: *mut *const u8, n: usize);
    fmi3SetBinary(vr: *const Fmi3ValueReference, nvr: usize, sizes: *const usize, values: *const *const u8, n: usize);
    fmi3GetClock(vr: *const Fmi3ValueReference, nvr: usize, values: *mut bool);
    fmi3SetClock(vr: *const Fmi3ValueReference, nvr: usize, values: *const bool);
    fmi3EnterEventMode();
    fmi3EnterConfigurationMode();
    fmi3ExitConfigurationMode();
    fmi3GetNumberOfVariableDependencies(vr: Fmi3ValueReference, n: *mut usize);
    fmi3GetVariableDependencies(
        dependent: Fmi3ValueReference, element_dependent: *mut usize, independents: *mut Fmi3ValueReference,
        element_independents: *mut usize, kinds: *mut i32, n: usize
    );
    fmi3SerializedFMUStateSize(state: Fmi3FmuState, size: *mut usize);
    fmi3SerializeFMUState(state: Fmi3FmuState, bytes: *mut u8, size: usize);
    fmi3DeserializeFMUState(bytes: *const u8, size: usize, state: *mut Fmi3FmuState);
    fmi3GetIntervalDecimal(vr: *const Fmi3ValueReference, nvr: usize, intervals: *mut f64, qualifiers: *mut i32);
    fmi3GetIntervalFraction(
        vr: *const Fmi3ValueReference, nvr: usize, counters: *mut u64, resolutions: *mut u64, qualifiers: *mut i32
    );
    fmi3GetShiftDecimal(vr: *const Fmi3ValueReference, nvr: usize, shifts: *mut f64);
    fmi3GetShiftFraction(vr: *const Fmi3ValueReference, nvr: usize, counters: *mut u64, resolutions: *mut u64);
    fmi3SetIntervalDecimal(vr: *const Fmi3ValueReference, nvr: usize, intervals: *const f64);
    fmi3SetIntervalFraction(vr: *const Fmi3ValueReference, nvr: usize, counters: *const u64, resolutions: *const u64);
    fmi3SetShiftDecimal(vr: *const Fmi3ValueReference, nvr: usize, shifts: *const f64);
    fmi3SetShiftFraction(vr: *const Fmi3ValueReference, nvr: usize, counters: *const u64, resolutions: *const u64);
    fmi3EvaluateDiscreteStates();
    fmi3UpdateDiscreteStates(
        update: *mut bool, terminate: *mut bool, nominals: *mut bool, values: *mut bool, defined: *mut bool,
        next: *mut f64
    );
    fmi3GetOutputDerivatives(
        vr: *const Fmi3ValueReference, nvr: usize, orders: *const i32, values: *mut f64, n: usize
    );
    fmi3EnterContinuousTimeMode();
    fmi3CompletedIntegratorStep(no_set: bool, enter_event: *mut bool, terminate: *mut bool);
    fmi3SetTime(time: f64);
    fmi3SetContinuousStates(x: *const f64, n: usize);
    fmi3GetContinuousStateDerivatives(dx: *mut f64, n: usize);
    fmi3GetEventIndicators(z: *mut f64, n: usize);
    fmi3GetContinuousStates(x: *mut f64, n: usize);
    fmi3GetNominalsOfContinuousStates(x: *mut f64, n: usize);
    fmi3GetNumberOfEventIndicators(n: *mut usize);
    fmi3GetNumberOfContinuousStates(n: *mut usize);
    fmi3ActivateModelPartition(clock: Fmi3ValueReference, time: f64);
}

/// `fmi3InstantiateModelExchange`: not supported (this is a co-simulation FMU): NULL.
///
/// # Safety
/// `log` and `env` valid for this call, as an importer gives them.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fmi3InstantiateModelExchange(
    _name: Fmi3String,
    _token: Fmi3String,
    _resources: Fmi3String,
    _visible: bool,
    _logging_on: bool,
    env: Fmi3InstanceEnvironment,
    log: Fmi3LogMessageCallback,
) -> Fmi3Instance {
    let why = "fmi3InstantiateModelExchange: this FMU supports co-simulation only";
    // SAFETY: the importer's callback and environment of this call.
    let _ = std::panic::catch_unwind(|| unsafe {
        crate::instance::log_to(log, env, Fmi3Status::Error, "logStatusError", why)
    });
    std::ptr::null_mut()
}

/// `fmi3InstantiateScheduledExecution`: not supported (co-simulation only): NULL.
///
/// # Safety
/// `log` and `env` valid for this call, as an importer gives them.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn fmi3InstantiateScheduledExecution(
    _name: Fmi3String,
    _token: Fmi3String,
    _resources: Fmi3String,
    _visible: bool,
    _logging_on: bool,
    env: Fmi3InstanceEnvironment,
    log: Fmi3LogMessageCallback,
    _clock_update: *mut c_void,
    _lock_preemption: *mut c_void,
    _unlock_preemption: *mut c_void,
) -> Fmi3Instance {
    let why = "fmi3InstantiateScheduledExecution: this FMU supports co-simulation only";
    // SAFETY: the importer's callback and environment of this call.
    let _ = std::panic::catch_unwind(|| unsafe {
        crate::instance::log_to(log, env, Fmi3Status::Error, "logStatusError", why)
    });
    std::ptr::null_mut()
}
