//! The fluid side of a `RIGID_BODY_REFS` coupling, written once for every participant that takes
//! bodies' motion and gives back their loads (SPH, TDPF, the buoyancy stand-in): one mesh, one
//! vertex per body, the motion it reads and the FORCES (and optional TORQUES) it writes.
//!
//! A participant states at construction which motion it reads, through the type `M` of
//! [`BodyInterface<M>`]: [`RigidMotion`] (positions and velocities required, rotations and angular
//! velocities optional) or [`Translation`] (positions required, velocities optional). What is
//! required is then a name, not an `Option`: a file that does not exchange it is refused at
//! construction, at its line, before any connection.

use crate::adapter::{AdapterError, AdapterResult};
use crate::coupling::{CouplingData, VertexId};
use crate::spec::{AdapterConfig, BodyRefs, DataType, InterfaceSpec};

/// How a participant speaks of itself and of its needs in the messages of its body interface.
#[derive(Debug, Clone, Copy)]
pub struct Needs<N> {
    /// The participant as messages name it, e.g. "the SPH participant".
    pub who: &'static str,
    /// Why the mesh must be 3D: the end of "mesh `m` has 2 dimensions; …".
    pub three_d: &'static str,
    /// Why it needs the motion it requires (see [`RigidNeeds`], [`TranslationNeeds`]).
    pub motion: N,
    /// What is lost when the file writes no TORQUES (a warning), or `None` for no warning.
    pub without_torques: Option<&'static str>,
}

/// A kind of motion a fluid participant reads: which data, which of them are required, and
/// what one read returns.
pub trait Motion: Sized + Clone + std::fmt::Debug {
    /// The motion data types it can read; any other is refused at its line.
    const READS: &'static [DataType];
    /// Why the participant needs the required data (their messages say it).
    type Needs: Copy;
    /// The motion of every body, as one read returns it.
    type Values;
    /// The names the file gives; an error at the interface for a required datum it does not read.
    fn names(refs: &BodyRefs, needs: &Self::Needs) -> AdapterResult<Self>;
    /// Logs what is lost without the optional data the file does not read.
    fn warn(refs: &BodyRefs, needs: &Self::Needs);
    /// The names read, in the order their dimensions are checked.
    fn data(&self) -> Vec<&str>;
    /// Reads every body's motion sampled at `rel` after the window start.
    fn read(
        &self,
        side: &BodyInterface<Self>,
        coupling: &mut dyn CouplingData,
        rel: f64,
    ) -> AdapterResult<Self::Values>;
}

/// Poses and velocities of rigid bodies (SPH, TDPF): POSITIONS and LINEAR_VELOCITIES required,
/// ROTATIONS and ANGULAR_VELOCITIES optional.
#[derive(Debug, Clone, PartialEq)]
pub struct RigidMotion {
    /// POSITIONS: the bodies' reference points (m).
    pub positions: String,
    /// ROTATIONS (rotation vectors, rad); without them a participant keeps the initial orientation.
    pub rotations: Option<String>,
    /// LINEAR_VELOCITIES (m/s).
    pub velocities: String,
    /// ANGULAR_VELOCITIES (rad/s, world axes); without them the bodies do not turn.
    pub angular_velocities: Option<String>,
}

/// Why a [`RigidMotion`] participant needs its required data, e.g. "the bodies' reference points".
#[derive(Debug, Clone, Copy)]
pub struct RigidNeeds {
    /// Why POSITIONS: "mesh `m` must read POSITIONS (…)".
    pub positions: &'static str,
    /// Why LINEAR_VELOCITIES: "mesh `m` must read LINEAR_VELOCITIES (…)".
    pub velocities: &'static str,
}

/// One read of a [`RigidMotion`], per body (world axes).
#[derive(Debug, Clone, PartialEq)]
pub struct RigidMotionValues {
    /// The reference points (m).
    pub positions: Vec<[f64; 3]>,
    /// The rotation vectors (rad), when the file reads ROTATIONS.
    pub rotations: Option<Vec<[f64; 3]>>,
    /// The velocities of the reference points (m/s).
    pub velocities: Vec<[f64; 3]>,
    /// The angular velocities (rad/s), when the file reads ANGULAR_VELOCITIES.
    pub angular_velocities: Option<Vec<[f64; 3]>>,
}

impl Motion for RigidMotion {
    const READS: &'static [DataType] =
        &[DataType::Positions, DataType::Rotations, DataType::LinearVelocities, DataType::AngularVelocities];
    type Needs = RigidNeeds;
    type Values = RigidMotionValues;

    fn names(refs: &BodyRefs, needs: &RigidNeeds) -> AdapterResult<Self> {
        let positions = refs.need(&refs.positions, &format!("read POSITIONS ({})", needs.positions))?;
        let velocities = refs.need(&refs.velocities, &format!("read LINEAR_VELOCITIES ({})", needs.velocities))?;
        Ok(RigidMotion {
            positions,
            rotations: refs.rotations.clone(),
            velocities,
            angular_velocities: refs.angular_velocities.clone(),
        })
    }

    fn warn(_: &BodyRefs, _: &RigidNeeds) {}

    fn data(&self) -> Vec<&str> {
        let (r, w) = (self.rotations.as_deref(), self.angular_velocities.as_deref());
        [Some(self.positions.as_str()), r, Some(self.velocities.as_str()), w].into_iter().flatten().collect()
    }

    fn read(
        &self,
        side: &BodyInterface<Self>,
        coupling: &mut dyn CouplingData,
        rel: f64,
    ) -> AdapterResult<RigidMotionValues> {
        let positions = side.read_vectors(coupling, &self.positions, rel)?;
        let velocities = side.read_vectors(coupling, &self.velocities, rel)?;
        let rotations = self.rotations.as_ref().map(|d| side.read_vectors(coupling, d, rel)).transpose()?;
        let angular_velocities =
            self.angular_velocities.as_ref().map(|d| side.read_vectors(coupling, d, rel)).transpose()?;
        Ok(RigidMotionValues { positions, rotations, velocities, angular_velocities })
    }
}

/// Where bodies are and how fast they move, without their orientation (the buoyancy stand-in):
/// POSITIONS required, LINEAR_VELOCITIES optional.
#[derive(Debug, Clone, PartialEq)]
pub struct Translation {
    /// POSITIONS: the bodies' reference points (m).
    pub positions: String,
    /// LINEAR_VELOCITIES (m/s), when the file reads them.
    pub velocities: Option<String>,
}

/// Why a [`Translation`] participant needs POSITIONS, and what is lost without velocities.
#[derive(Debug, Clone, Copy)]
pub struct TranslationNeeds {
    /// Why POSITIONS: "mesh `m` must read POSITIONS (…)".
    pub positions: &'static str,
    /// What a file without LINEAR_VELOCITIES loses: "mesh `m` reads no LINEAR_VELOCITIES: …".
    pub without_velocities: &'static str,
}

/// One read of a [`Translation`], per body.
#[derive(Debug, Clone, PartialEq)]
pub struct TranslationValues {
    /// The reference points (m).
    pub positions: Vec<[f64; 3]>,
    /// Their velocities (m/s), when the file reads LINEAR_VELOCITIES.
    pub velocities: Option<Vec<[f64; 3]>>,
}

impl Motion for Translation {
    const READS: &'static [DataType] = &[DataType::Positions, DataType::LinearVelocities];
    type Needs = TranslationNeeds;
    type Values = TranslationValues;

    fn names(refs: &BodyRefs, needs: &TranslationNeeds) -> AdapterResult<Self> {
        let positions = refs.need(&refs.positions, &format!("read POSITIONS ({})", needs.positions))?;
        Ok(Translation { positions, velocities: refs.velocities.clone() })
    }

    fn warn(refs: &BodyRefs, needs: &TranslationNeeds) {
        refs.warn_without(&refs.velocities, &format!("reads no LINEAR_VELOCITIES: {}", needs.without_velocities));
    }

    fn data(&self) -> Vec<&str> {
        [Some(self.positions.as_str()), self.velocities.as_deref()].into_iter().flatten().collect()
    }

    fn read(
        &self,
        side: &BodyInterface<Self>,
        coupling: &mut dyn CouplingData,
        rel: f64,
    ) -> AdapterResult<TranslationValues> {
        let positions = side.read_vectors(coupling, &self.positions, rel)?;
        let velocities = self.velocities.as_ref().map(|d| side.read_vectors(coupling, d, rel)).transpose()?;
        Ok(TranslationValues { positions, velocities })
    }
}

/// The one RIGID_BODY_REFS mesh of a fluid participant: vertex i is body i; it reads the motion
/// `M` and writes FORCES and, when the file names them, TORQUES (world axes, about the
/// reference points).
#[derive(Debug, Clone)]
pub struct BodyInterface<M> {
    who: &'static str,
    three_d: &'static str,
    mesh: String,
    motion: M,
    forces: String,
    torques: Option<String>,
    ids: Vec<VertexId>,
}

impl<M: Motion> BodyInterface<M> {
    /// The one RIGID_BODY_REFS interface among `interfaces` of `adapter`, checked against what
    /// the participant reads (`M`) and needs: errors name the file and line and say what to use
    /// (no interface or several, another mesh type, a datum it cannot read or write, a required
    /// datum missing); then the warnings for optional data the file does not exchange.
    pub fn find(adapter: &AdapterConfig, interfaces: &[&InterfaceSpec], needs: Needs<M::Needs>) -> AdapterResult<Self> {
        let refs = BodyRefs::find(needs.who, adapter, interfaces, M::READS)?;
        let motion = M::names(&refs, &needs.motion)?;
        let forces = refs.need(&refs.forces, "write FORCES")?;
        M::warn(&refs, &needs.motion);
        if let Some(lost) = needs.without_torques {
            refs.warn_without(&refs.torques, &format!("writes no TORQUES: {lost}"));
        }
        Ok(BodyInterface {
            who: needs.who,
            three_d: needs.three_d,
            mesh: refs.mesh,
            motion,
            forces,
            torques: refs.torques,
            ids: Vec::new(),
        })
    }

    /// The mesh's name.
    pub fn mesh(&self) -> &str {
        &self.mesh
    }

    /// The names of the motion read.
    pub fn motion(&self) -> &M {
        &self.motion
    }

    /// The FORCES written.
    pub fn forces(&self) -> &str {
        &self.forces
    }

    /// The TORQUES written, when the file names them.
    pub fn torques(&self) -> Option<&str> {
        self.torques.as_deref()
    }

    /// Checks that the mesh is 3D and every datum a 3D vector, then registers one vertex per
    /// body at `points` (the bodies' initial reference points), in body order.
    pub fn register(&mut self, coupling: &mut dyn CouplingData, points: &[[f64; 3]]) -> AdapterResult<()> {
        let mesh = self.mesh.as_str();
        let dims = coupling.get_mesh_dimensions(mesh)?;
        if dims != 3 {
            return Err(AdapterError::Unsupported(format!("mesh `{mesh}` has {dims} dimensions; {}", self.three_d)));
        }
        let loads = [Some(self.forces.as_str()), self.torques.as_deref()];
        for d in self.motion.data().into_iter().chain(loads.into_iter().flatten()) {
            let n = coupling.get_data_dimensions(mesh, d)?;
            if n != 3 {
                return Err(AdapterError::config(format!(
                    "data `{d}` on mesh `{mesh}` has {n} component(s); {} exchanges 3D vectors (declare it \
                     <data:vector>)",
                    self.who
                )));
            }
        }
        let coords: Vec<f64> = points.iter().flatten().copied().collect();
        let mut ids = vec![0; points.len()];
        coupling.set_mesh_vertices(mesh, &coords, &mut ids)?;
        self.ids = ids;
        Ok(())
    }

    /// Every body's motion sampled at `rel` after the window start.
    pub fn read(&self, coupling: &mut dyn CouplingData, rel: f64) -> AdapterResult<M::Values> {
        self.motion.read(self, coupling, rel)
    }

    /// Writes every body's `(force, torque)`: the forces, and the torques when the file names them.
    pub fn write_loads(&self, coupling: &mut dyn CouplingData, loads: &[([f64; 3], [f64; 3])]) -> AdapterResult<()> {
        let forces: Vec<f64> = loads.iter().flat_map(|(f, _)| *f).collect();
        coupling.write_data(&self.mesh, &self.forces, &self.ids, &forces)?;
        if let Some(t) = &self.torques {
            let torques: Vec<f64> = loads.iter().flat_map(|(_, t)| *t).collect();
            coupling.write_data(&self.mesh, t, &self.ids, &torques)?;
        }
        Ok(())
    }

    /// One 3D vector per body of `data` on the mesh, sampled at `rel` (for [`Motion::read`]).
    pub fn read_vectors(&self, coupling: &mut dyn CouplingData, data: &str, rel: f64) -> AdapterResult<Vec<[f64; 3]>> {
        let mut v = vec![0.0; 3 * self.ids.len()];
        coupling.read_data(&self.mesh, data, &self.ids, rel, &mut v)?;
        Ok(v.chunks(3).map(|c| [c[0], c[1], c[2]]).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::body_refs::tests::{file, REFS};
    use crate::testing::ScriptedCoupling;

    const RIGID: Needs<RigidNeeds> = Needs {
        who: "the X participant",
        three_d: "the X participant needs a 3D mesh",
        motion: RigidNeeds { positions: "where they are", velocities: "how they move" },
        without_torques: Some("no moments"),
    };

    fn find<M: Motion>(a: &AdapterConfig, needs: Needs<M::Needs>) -> AdapterResult<BodyInterface<M>> {
        BodyInterface::find(a, &a.interfaces.iter().collect::<Vec<_>>(), needs)
    }

    #[test]
    fn required_data_are_names_and_a_missing_one_is_refused_at_the_interface() {
        let a = file(REFS);
        let b: BodyInterface<RigidMotion> = find(&a, RIGID).unwrap();
        assert_eq!((b.mesh(), b.motion().positions.as_str(), b.motion().velocities.as_str()), ("Refs", "x", "v"));
        assert_eq!((b.forces(), b.torques(), &b.motion().rotations), ("f", None, &None));
        let no_v = file(&REFS.replace("        - {name: v, type: LINEAR_VELOCITIES}\n", ""));
        let e = find::<RigidMotion>(&no_v, RIGID).unwrap_err().to_string();
        assert_eq!(e, "p.yaml:6: mesh `Refs` must read LINEAR_VELOCITIES (how they move)");
        let translation = Needs {
            who: "the T participant",
            three_d: "3D only",
            motion: TranslationNeeds { positions: "the centre", without_velocities: "no drag" },
            without_torques: None,
        };
        let t: BodyInterface<Translation> = find(&no_v, translation).unwrap();
        assert_eq!(t.motion(), &Translation { positions: "x".into(), velocities: None });
        let t: BodyInterface<Translation> = find(&a, translation).unwrap();
        assert_eq!(t.motion().velocities.as_deref(), Some("v"));
        let rot = file(&REFS.replace("type: LINEAR_VELOCITIES", "type: ROTATIONS"));
        let e = find::<Translation>(&rot, translation).unwrap_err().to_string();
        assert!(
            e.contains("the T participant cannot read ROTATIONS (`v`); it reads POSITIONS and LINEAR_VELOCITIES"),
            "{e}"
        );
    }

    #[test]
    fn registers_one_vertex_per_body_reads_motion_and_writes_loads() {
        let a = file(&format!("{REFS}        - {{name: t, type: TORQUES}}\n"));
        let mut b: BodyInterface<RigidMotion> = find(&a, RIGID).unwrap();
        let mut c = ScriptedCoupling::new("Fluid");
        b.register(&mut c, &[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).unwrap();
        assert_eq!(c.vertices("Refs"), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        c.serve("Refs", "x", &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        c.serve("Refs", "v", &[0.0, 0.0, -1.0, 0.0, 0.0, 1.0]);
        let m = b.read(&mut c, 0.0).unwrap();
        assert_eq!(m.positions, vec![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
        assert_eq!(m.velocities, vec![[0.0, 0.0, -1.0], [0.0, 0.0, 1.0]]);
        assert_eq!((m.rotations, m.angular_velocities), (None, None));
        b.write_loads(&mut c, &[([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]), ([2.0, 0.0, 0.0], [0.0, 2.0, 0.0])]).unwrap();
        assert_eq!(c.written("Refs", "f"), [1.0, 0.0, 0.0, 2.0, 0.0, 0.0]);
        assert_eq!(c.written("Refs", "t"), [0.0, 1.0, 0.0, 0.0, 2.0, 0.0]);
    }

    #[test]
    fn a_2d_mesh_and_scalar_data_are_refused_naming_the_participant() {
        let a = file(REFS);
        let mut b: BodyInterface<RigidMotion> = find(&a, RIGID).unwrap();
        let e = b.register(&mut ScriptedCoupling::new("Fluid").with_dimensions(2), &[[0.0; 3]]).unwrap_err();
        assert!(matches!(e, AdapterError::Unsupported(_)));
        assert_eq!(e.to_string(), "mesh `Refs` has 2 dimensions; the X participant needs a 3D mesh");
        let mut c = ScriptedCoupling::new("Fluid").with_data_dimensions("Refs", "v", 1);
        let e = b.register(&mut c, &[[0.0; 3]]).unwrap_err().to_string();
        assert_eq!(
            e,
            "data `v` on mesh `Refs` has 1 component(s); the X participant exchanges 3D vectors (declare it <data:vector>)"
        );
        assert!(c.vertices("Refs").is_empty(), "nothing registered before the checks pass");
    }
}
