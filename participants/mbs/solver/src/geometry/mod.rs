//! Shapes attached to bodies (visualization and contact geometry; later the source of SPH
//! boundary markers). Kept with the model, not used by the dynamics.

pub mod shape;
