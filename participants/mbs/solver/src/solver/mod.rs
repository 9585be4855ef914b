//! How a step is taken: the Newton matrix assembled from per-element blocks ([`assembly`]),
//! the Jacobian policy, declared dependencies and verification
//! ([`jacobian`]), coloured finite differences where an element has no Jacobian ([`colouring`]), Newton with a
//! line search ([`newton`]) whose saddle system the chosen [`linear`] solver solves, and the integrators behind the [`integrator::Integrator`] trait
//! (HHT-α, linearized implicit Euler, Newton backward Euler and BDF2, semi-implicit Euler).

pub mod assembly;
pub(crate) mod assembly_into;
pub mod assembly_sparse;
pub mod bdf;
pub mod colouring;
pub mod euler_implicit;
pub mod hht;
pub mod integrator;
pub mod jacobian;
pub mod linear;
pub mod newton;
pub mod newton_system;
pub mod topology;
