//! The ParaView scene (`output.vtk: true`): the bodies' visualization shapes (their contact
//! shapes when a body has none) as triangles, one `scene/bodies_NNNNNN.vtu` per output time
//! and the index `bodies.pvd` beside the other outputs, so ParaView plays the run. Each
//! triangle carries the cell scalar `body` (the body's number in the model's order).

use crate::io::schedule::Schedule;
use crate::io::tessellate::{body_frame_triangles, Triangles};
use nalgebra::{Isometry3, Point3};
use std::path::{Path, PathBuf};
use thiserror::Error;
use tidelink_mbs_solver::dynamics::body_set::BodyHandle;
use tidelink_mbs_solver::geometry::shape::BodyShape;
use tidelink_vtk::{CellType, PvdIndex, UnstructuredGrid, VtkError, VtuOptions};

/// Why the scene could not be set up or written.
#[derive(Debug, Error)]
pub enum SceneError {
    /// A shape cannot be drawn (a mesh file missing or unreadable); the message names the file.
    #[error("{0}")]
    Shape(String),
    /// The `scene` folder could not be created.
    #[error("{}: {source}", path.display())]
    Folder {
        /// The folder.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A VTU file or the index could not be written.
    #[error(transparent)]
    Vtk(#[from] VtkError),
}

/// The scene being written: the shapes in their bodies' frames, the index, the schedule.
pub struct Scene {
    dir: PathBuf,
    shapes: Vec<(BodyHandle, f64, Triangles)>,
    pvd: PvdIndex,
    frame: usize,
    schedule: Schedule,
}

/// Whether every shape can be drawn (mesh files readable), so `--check` finds what the run's
/// first output would stop on.
pub fn check(shapes: &[BodyShape], model_dir: &Path) -> Result<(), SceneError> {
    shapes.iter().try_for_each(|s| body_frame_triangles(s, model_dir).map(|_| ()).map_err(SceneError::Shape))
}

impl Scene {
    /// Tessellates the shapes drawn for each body (`bodies` in model order); files go to
    /// `dir/scene/` and `dir/bodies.pvd`, mesh files resolve against `model_dir`.
    pub fn new(
        dir: &Path,
        shapes: &[BodyShape],
        bodies: &[BodyHandle],
        model_dir: &Path,
        fps: Option<f64>,
    ) -> Result<Self, SceneError> {
        let mut drawn = Vec::new();
        for (k, &b) in bodies.iter().enumerate() {
            let own: Vec<&BodyShape> = shapes.iter().filter(|s| s.body == b).collect();
            let visual: Vec<&BodyShape> = own.iter().copied().filter(|s| !s.contact).collect();
            for s in if visual.is_empty() { own } else { visual } {
                drawn.push((b, k as f64, body_frame_triangles(s, model_dir).map_err(SceneError::Shape)?));
            }
        }
        let folder = dir.join("scene");
        std::fs::create_dir_all(&folder).map_err(|source| SceneError::Folder { path: folder, source })?;
        Ok(Scene {
            dir: dir.to_path_buf(),
            shapes: drawn,
            pvd: PvdIndex::new(dir.join("bodies.pvd")),
            frame: 0,
            schedule: Schedule::new(fps),
        })
    }

    /// The index file.
    pub fn pvd_path(&self) -> &Path {
        self.pvd.path()
    }

    /// Whether a frame is due at `time` (the body outputs' schedule).
    pub fn due(&mut self, time: f64) -> bool {
        self.schedule.due(time)
    }

    /// Writes the frame at `time`, each shape placed by its body's pose (`pose` of a handle;
    /// a body without a pose is left out), and adds it to the index.
    pub fn write(&mut self, time: f64, pose: impl Fn(BodyHandle) -> Option<Isometry3<f64>>) -> Result<(), SceneError> {
        let mut points = Vec::new();
        let mut tris = Vec::new();
        let mut body = Vec::new();
        for (handle, number, (local, t)) in &self.shapes {
            let Some(p) = pose(*handle) else { continue };
            let base = points.len();
            points.extend(local.iter().map(|x| {
                let w = p * Point3::from(*x);
                [w.x, w.y, w.z]
            }));
            tris.extend(t.iter().flat_map(|t| [base + t[0], base + t[1], base + t[2]]));
            body.extend(std::iter::repeat_n(*number, t.len()));
        }
        let mut grid = UnstructuredGrid::new(points);
        grid.add_cells(CellType::Triangle, &tris)?;
        grid.add_cell_scalars("body", body)?;
        let name = format!("scene/bodies_{:06}.vtu", self.frame);
        grid.write(&self.dir.join(&name), &VtuOptions::default())?;
        self.pvd.push(time, 0, &name)?;
        self.frame += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Translation3, UnitQuaternion, Vector3};
    use tidelink_mbs_solver::dynamics::body_set::BodySet;
    use tidelink_mbs_solver::geometry::shape::ShapeKind;
    use tidelink_mbs_solver::RigidBodyBuilder;

    #[test]
    fn frames_read_back_with_their_times_and_the_moving_geometry() {
        let mut set = BodySet::new(Vector3::zeros());
        let ball = set.insert(RigidBodyBuilder::dynamic(1.0, Vector3::repeat(0.1)).build().unwrap());
        let plate = set.insert(RigidBodyBuilder::dynamic(1.0, Vector3::repeat(0.1)).build().unwrap());
        let offset = Isometry3::translation(0.0, 0.0, 0.5);
        let shapes = vec![
            BodyShape {
                body: ball,
                kind: ShapeKind::Sphere { radius: 0.12 },
                pose: offset,
                color: None,
                contact: false,
            },
            BodyShape { body: ball, kind: ShapeKind::Sphere { radius: 9.0 }, pose: offset, color: None, contact: true },
            BodyShape {
                body: plate,
                kind: ShapeKind::Box { dimensions: Vector3::new(1.0, 2.0, 0.1) },
                pose: Isometry3::identity(),
                color: None,
                contact: true,
            },
        ];
        let dir = tempfile::tempdir().unwrap();
        let mut scene = Scene::new(dir.path(), &shapes, &[ball, plate], dir.path(), Some(10.0)).unwrap();
        let times: Vec<f64> = (0..=25).map(|k| k as f64 * 0.01).filter(|&t| scene.due(t)).collect();
        assert_eq!(times, [0.0, 0.1, 0.2]);
        let pose = |t: f64| Isometry3::from_parts(Translation3::new(t, 0.0, -t), UnitQuaternion::identity());
        for &t in &times {
            scene.write(t, |h| if h == ball { Some(pose(t)) } else { Some(Isometry3::identity()) }).unwrap();
        }
        // The index lists the three frames at their times.
        let pvd = PvdIndex::read(scene.pvd_path()).unwrap();
        let listed: Vec<(f64, String)> = pvd.entries().iter().map(|e| (e.time, e.file.clone())).collect();
        assert_eq!(listed[2], (0.2, "scene/bodies_000002.vtu".to_string()));
        assert_eq!(listed.iter().map(|e| e.0).collect::<Vec<_>>(), times);
        // The last frame (coordinates stored as Float32): the ball's visual sphere (radius 0.12, not the contact one) centred at
        // (0.2, 0, −0.2 + 0.5), the plate's box (its contact shape: no visual one) at the origin.
        let grid = tidelink_vtk::read_vtu(&dir.path().join(&listed[2].1)).unwrap();
        let body = grid.cell_array("body").unwrap();
        let mut ball_points = std::collections::BTreeSet::new();
        let mut plate_points = std::collections::BTreeSet::new();
        for k in 0..grid.cell_count() {
            let (kind, ids) = grid.cell(k).unwrap();
            assert_eq!(kind, CellType::Triangle);
            let set = if body.values[k] == 0.0 { &mut ball_points } else { &mut plate_points };
            set.extend(ids);
        }
        let centre = Vector3::new(0.2, 0.0, 0.3);
        for &i in &ball_points {
            let p = grid.points()[i];
            let r = (Vector3::new(p[0], p[1], p[2]) - centre).norm();
            assert!((r - 0.12).abs() < 1e-6, "ball point {p:?} at {r} m from the centre");
        }
        assert_eq!(plate_points.len(), 8);
        for &i in &plate_points {
            let p = grid.points()[i];
            assert!(p[0].abs() == 0.5 && p[1].abs() == 1.0 && (p[2].abs() - 0.05).abs() < 1e-8, "{p:?}");
        }
    }
}
