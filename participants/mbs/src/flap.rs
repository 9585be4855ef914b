//! The rigid flap of `configs/flap`, built in code: the coded construction route (docs/design/participants.md §1.2)
//! that the `tidelink-flap` program runs. A 0.2 × 0.02 m flap hinged at the origin on a
//! revolute joint about z, held by a rotational spring, coupled through the 36 points of its
//! outline on a 2D RIGID_BODY_POINTS mesh (DISPLACEMENTS out, FORCES in), and a before-step
//! callback that stiffens the spring during the run. `configs/flap/solid/*.yaml` describe
//! the same flap for `tidelink-mbs` (the YAML route, spring constant throughout).

use crate::adapter::{MbsAdapter, OutputSettings};
use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use tidelink_adapter_core::spec::{DataType, MeshType};
use tidelink_adapter_core::{AdapterError, AdapterResult};
use tidelink_mbs_solver::dynamics::body::RigidBodyBuilder;
use tidelink_mbs_solver::dynamics::body_set::BodySet;
use tidelink_mbs_solver::dynamics::force_element::ForceElementSet;
use tidelink_mbs_solver::dynamics::joint::{Joint, JointKind, JointSet};
use tidelink_mbs_solver::dynamics::rsda::Rsda;
use tidelink_mbs_solver::solver::hht::Hht;
use tidelink_mbs_solver::Model;

/// The flap's data (SI units); the defaults are those of Chrono's flap_openfoam model.
#[derive(Debug, Clone, PartialEq)]
pub struct FlapSettings {
    /// The participant's name in the preCICE XML.
    pub participant: String,
    /// The RIGID_BODY_POINTS mesh of the outline.
    pub mesh: String,
    /// The DISPLACEMENTS data written on the mesh.
    pub displacement: String,
    /// The FORCES data read on the mesh.
    pub force: String,
    /// Flap mass (kg).
    pub mass: f64,
    /// COM distance from the hinge along the flap (m).
    pub com: f64,
    /// Principal moments of inertia about the COM (kg·m²).
    pub inertia: Vector3<f64>,
    /// Flap length (m): the outline the coupling points lie on.
    pub length: f64,
    /// Flap thickness (m).
    pub thickness: f64,
    /// Spring coefficient (N m/rad) before `stiffen_at`.
    pub stiffness: f64,
    /// Spring coefficient (N m/rad) from `stiffen_at` on: exercises a callback changing the model mid-run.
    pub stiffness_after: f64,
    /// When the spring stiffens (s).
    pub stiffen_at: f64,
    /// HHT step (s); the driver takes min(step, rest of the window).
    pub time_step: f64,
}

impl Default for FlapSettings {
    fn default() -> Self {
        FlapSettings {
            participant: "Solid".into(),
            mesh: "SolidMesh".into(),
            displacement: "Displacement".into(),
            force: "Force".into(),
            mass: 40.0,
            com: 0.1,
            inertia: Vector3::new(0.2, 0.2, 0.534),
            length: 0.2,
            thickness: 0.02,
            stiffness: 25.0,
            stiffness_after: 100.0,
            stiffen_at: 1.5,
            time_step: 1e-3,
        }
    }
}

/// The name of the spring, for callbacks that change it.
pub const SPRING: &str = "spring";

/// The outline of a `length` × `thickness` flap along +x from the hinge: 7 points across
/// each end and 11 along each face (36 in all, the layout of Chrono's `flap.txt`).
pub fn outline(length: f64, thickness: f64) -> Vec<[f64; 3]> {
    let h = thickness / 2.0;
    let mut pts = Vec::with_capacity(36);
    for x in [0.0, length] {
        pts.extend((0..7).map(|j| [x, -h + thickness * j as f64 / 6.0, 0.0]));
    }
    for y in [-h, h] {
        pts.extend((1..12).map(|i| [length * i as f64 / 12.0, y, 0.0]));
    }
    pts
}

/// The flap's multibody model: a fixed ground, the flap, the hinge and the spring.
pub fn model(s: &FlapSettings) -> AdapterResult<Model> {
    let solver = |e: tidelink_mbs_solver::MbsError| AdapterError::from(crate::error::Error::Flap(Box::new(e)));
    let mut bodies = BodySet::new(Vector3::zeros());
    let ground = bodies.insert(RigidBodyBuilder::fixed().build().map_err(solver)?);
    let com = Isometry3::from_parts(Translation3::new(s.com, 0.0, 0.0), UnitQuaternion::identity());
    let flap = bodies.insert(RigidBodyBuilder::dynamic(s.mass, s.inertia).com_offset(com).build().map_err(solver)?);
    let mut joints = JointSet::new();
    joints.insert(
        Joint::new("hinge", JointKind::Revolute, &bodies, ground, flap, Isometry3::identity()).map_err(solver)?,
    );
    let mut forces = ForceElementSet::new();
    let spring = Rsda::new(SPRING, &bodies, ground, flap, Vector3::z(), s.stiffness, 0.0, 0.0, 0.0).map_err(solver)?;
    forces.insert(Box::new(spring));
    let names = vec![("ground".to_string(), ground), ("flap".to_string(), flap)];
    Ok(Model { name: Some("flap".into()), bodies, joints, forces, names, shapes: Vec::new() })
}

/// The coupled flap: model, coupling body with its outline points, the mesh, and the
/// callback that sets the spring to `stiffness_after` from `stiffen_at` on.
pub fn adapter(s: &FlapSettings, output: Option<OutputSettings>) -> AdapterResult<MbsAdapter> {
    let mut a = MbsAdapter::from_system(s.participant.clone(), model(s)?, Box::new(Hht::default()), s.time_step);
    a.add_coupling_body("flap", Some(outline(s.length, s.thickness)))?;
    a.add_interface(
        &s.mesh,
        MeshType::RigidBodyPoints,
        &[(s.displacement.as_str(), DataType::Displacements)],
        &[(s.force.as_str(), DataType::Forces)],
    )?;
    a.set_output(output);
    let (at, k) = (s.stiffen_at, s.stiffness_after);
    a.on_before_step(Box::new(move |sys, t| {
        if t >= at - 1e-12 {
            if let Some(spring) = sys.forces.find_mut::<Rsda>(SPRING) {
                spring.stiffness = k;
            }
        }
    }));
    Ok(a)
}
