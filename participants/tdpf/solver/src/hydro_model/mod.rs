//! The total linear hydrodynamic load on N bodies — hydrostatics, radiation memory and wave
//! excitation — as one stepped model: the physics behind the TDPF participant, with no I/O and no
//! coupling, so it can be integrated monolithically in tests exactly as the participant uses it.
//!
//! * Bodies: the i-th body of the model is `/body{i+1}` of the hydrodynamic file (matched by index,
//!   never by name); the model may use the first N bodies of a file with more.
//! * Inputs ([`BodyState`]): per body the CG position, the orientation as a rotation vector
//!   (axis × angle, rad, world axes; in linear theory its components are the small roll, pitch and
//!   yaw angles about the BEM equilibrium, which has no rotation), the CG velocity and the angular
//!   velocity, all in world axes.
//! * Output ([`BodyLoad`]): per body the force and the moment about its CG (world axes), split
//!   into hydrostatic, radiation and excitation parts. Gravity on the body is not included.
//! * A∞ is deliberately absent: the infinite-frequency added mass multiplies the acceleration, so it
//!   belongs in the solid's mass matrix (docs/design/added-mass.md §1), not in a force.
//! * Radiation: `−∫ K(τ) v(t − τ) dτ` of the velocities of ALL bodies (Chrono/HydroChrono: full 6N
//!   coupling) when `body_to_body` is true; with `body_to_body: false` the off-diagonal 6 × 6 body
//!   blocks of K (or of the state-space set) are zeroed, so each body feels only its own motion —
//!   WEC-Sim's default (`simu.b2b = 0`).
//!
//! State time: [`HydroModel::evaluate`]`(t, states)` returns the loads of the states AT `t` (the
//! excitation is taken at `t`, the velocity sample enters the radiation history as `v(t)`). The
//! radiation history is stepped at the fixed `dt` (the coupling window), so the k-th evaluation must
//! be at `t = k·dt` (k = 0, 1, …); any other time is [`HydroError::StateTime`], never a silent
//! re-stamping. [`HydroModel::peek`] gives the loads at the next time without recording the sample
//! (for a participant's initial data).

mod error;
mod excitation_set;
mod model;
mod options;
mod radiation_set;
mod state;

pub use error::HydroError;
pub use model::HydroModel;
pub use options::{ComponentSpec, HydroOptions, IrregularMethod, RadiationMethod, WaveSpec};
pub use radiation_set::{Identifier, RadiationChoice};
pub use state::{BodyLoad, BodyState};
