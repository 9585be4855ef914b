//! An FMI 3.0 co-simulation FMU of an MBS model (docs/fmi.md): the fmi3 C functions, written
//! from the FMI 3.0 standard, over the rigid-body solver. The model file sits in the FMU's
//! `resources/model.yaml`; inputs are forces and torques on the free bodies, outputs their
//! motions, parameters the spring-dampers' coefficients. Each instance owns everything it uses
//! (no global state), so several run side by side in one process.
#![warn(missing_docs)]

pub mod dependencies;
pub mod ffi;
pub mod instance;
pub mod model_description;
pub mod pack;
pub mod setup;
pub mod stubs;
pub mod trajectory;
pub mod types;
pub mod variables;

#[cfg(test)]
mod tests;

pub use instance::Instance;
pub use variables::Variables;
