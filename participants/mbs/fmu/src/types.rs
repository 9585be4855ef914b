//! The FMI 3.0 C types this library exchanges with an importer, written from the standard's
//! function and type list (`fmi3PlatformTypes`, `fmi3FunctionTypes`).

use std::ffi::{c_char, c_void};

/// `fmi3Instance`: the opaque pointer an importer passes back on every call.
pub type Fmi3Instance = *mut c_void;
/// `fmi3InstanceEnvironment`: the importer's pointer, handed back to its callbacks.
pub type Fmi3InstanceEnvironment = *mut c_void;
/// `fmi3FMUState`: an opaque checkpoint.
pub type Fmi3FmuState = *mut c_void;
/// `fmi3ValueReference`.
pub type Fmi3ValueReference = u32;
/// `fmi3String`.
pub type Fmi3String = *const c_char;

/// `fmi3Status` (a C enum: `int`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fmi3Status {
    /// All well.
    Ok = 0,
    /// Something noteworthy; the result is usable.
    Warning = 1,
    /// The call did not do what was asked (a step was not taken); the instance is usable.
    Discard = 2,
    /// The call failed; the instance may only be reset or freed (or the call repeated rightly).
    Error = 3,
    /// The instance is unusable.
    Fatal = 4,
}

/// `fmi3LogMessageCallback`.
pub type Fmi3LogMessageCallback = Option<
    unsafe extern "C" fn(env: Fmi3InstanceEnvironment, status: Fmi3Status, category: Fmi3String, message: Fmi3String),
>;

/// `fmi3IntermediateUpdateCallback` (accepted and never called: no intermediate updates).
pub type Fmi3IntermediateUpdateCallback = Option<
    unsafe extern "C" fn(
        env: Fmi3InstanceEnvironment,
        intermediate_update_time: f64,
        intermediate_variable_set_requested: bool,
        intermediate_variable_get_allowed: bool,
        intermediate_step_finished: bool,
        can_return_early: bool,
        early_return_requested: *mut bool,
        early_return_time: *mut f64,
    ),
>;
