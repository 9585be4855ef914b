//! Wave excitation force on one body's 6 DOFs from the BEM excitation coefficients X(ω, β)
//! (already × ρg, per unit wave amplitude) of a [`tidelink_hydro_data::HydroData`].
//!
//! Conventions: for η(0, t) = A cos(ωt + phase) at the global origin the force is
//! F(t) = A Re{X(ω) e^{i(ωt + phase)}} = A|X| cos(ωt + phase + arg X). Every `force(t)` takes the
//! **absolute** simulation time `t` (s) on the same clock as the wave (the wave's t = 0 and the
//! ramp's start coincide); nothing is stateful, so a step may be evaluated twice or out of order.
//!
//! Three models, all built once and cheap per call:
//! * [`RegularExcitation`]: X interpolated once at the wave's ω and heading; force ramped.
//! * [`SuperpositionExcitation`]: Σ over the components of an irregular wave; force ramped.
//! * [`IrfExcitation`]: trapezoid convolution of the excitation IRF with η(t − τ); the ramp is
//!   applied to η (so the force fades in smoothly over T_r plus the IRF span, as HydroChrono does).
//!
//! Unlike HydroChrono, X is interpolated by binary search on the file's (possibly non-uniform)
//! frequency grid, re and im separately, and linearly between headings; a frequency or heading
//! outside the file is an error rather than an extrapolation.

mod convolution;
mod error;
mod grid;
mod regular;
mod superposition;
mod table;
#[cfg(test)]
mod test_support;

pub use convolution::IrfExcitation;
pub use error::ExcitationError;
pub use regular::RegularExcitation;
pub use superposition::{OutsideGrid, SuperpositionExcitation};
pub use table::ExcitationTable;
