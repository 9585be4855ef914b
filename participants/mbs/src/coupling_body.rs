//! The bodies of the model that take part in the coupling, shared by the adapter (meshes on them)
//! and the added mass (coefficients in their order).

use nalgebra::Vector3;
use tidelink_mbs_solver::dynamics::body_set::BodyHandle;

/// A body of the model that takes part in the coupling, with its initial pose (the
/// reference of DISPLACEMENTS).
#[derive(Debug, Clone)]
pub struct CouplingBody {
    /// The body's name in the model and the participant file.
    pub name: String,
    /// The body in the solver's body set.
    pub handle: BodyHandle,
    /// The coupling points in the body's reference frame (empty: the body is coupled
    /// through its reference frame on RIGID_BODY_REFS meshes).
    pub points: Vec<Vector3<f64>>,
    /// Triangles over `points` (indices), from the surface file the points came from; given
    /// to the coupling where a mapping projects onto them.
    pub faces: Vec<[usize; 3]>,
}
