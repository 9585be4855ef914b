//! A body shape as triangles in its body's reference frame, for the ParaView scene: spheres as
//! latitude–longitude grids, boxes as 12 triangles, cylinders as a side of quads split in two
//! and two capped ends, meshes read from their `.obj` or `.stl` file and scaled.

use nalgebra::{Point3, Vector3};
use std::path::Path;
use tidelink_mbs_solver::geometry::shape::{BodyShape, ShapeKind};

/// Triangles: the points and, per triangle, three indices into them.
pub type Triangles = (Vec<Vector3<f64>>, Vec<[usize; 3]>);

/// Rings of latitude of a sphere (poles excluded) and segments around a sphere or cylinder.
const RINGS: usize = 12;
const SEGMENTS: usize = 24;

/// The shape's triangles in its body's reference frame (the shape's pose applied); mesh
/// files are resolved against `model_dir`. The error names the file and what is wrong.
pub fn body_frame_triangles(shape: &BodyShape, model_dir: &Path) -> Result<Triangles, String> {
    let (points, triangles) = match &shape.kind {
        ShapeKind::Sphere { radius } => sphere(*radius),
        ShapeKind::Box { dimensions } => cuboid(dimensions),
        ShapeKind::Cylinder { radius, length, axis } => cylinder(*radius, *length, axis),
        ShapeKind::Mesh { filename, scale, .. } => mesh(&model_dir.join(filename), *scale)?,
    };
    let points = points.iter().map(|p| (shape.pose * Point3::from(*p)).coords).collect();
    Ok((points, triangles))
}

fn sphere(r: f64) -> Triangles {
    use std::f64::consts::PI;
    let mut points = vec![Vector3::new(0.0, 0.0, r)];
    for i in 1..=RINGS {
        let theta = PI * i as f64 / (RINGS + 1) as f64;
        for j in 0..SEGMENTS {
            let phi = 2.0 * PI * j as f64 / SEGMENTS as f64;
            points.push(r * Vector3::new(theta.sin() * phi.cos(), theta.sin() * phi.sin(), theta.cos()));
        }
    }
    points.push(Vector3::new(0.0, 0.0, -r));
    let south = points.len() - 1;
    let at = |ring: usize, j: usize| 1 + ring * SEGMENTS + j % SEGMENTS;
    let mut tris = Vec::new();
    for j in 0..SEGMENTS {
        tris.push([0, at(0, j), at(0, j + 1)]);
        tris.push([south, at(RINGS - 1, j + 1), at(RINGS - 1, j)]);
        for ring in 0..RINGS - 1 {
            tris.push([at(ring, j), at(ring + 1, j), at(ring + 1, j + 1)]);
            tris.push([at(ring, j), at(ring + 1, j + 1), at(ring, j + 1)]);
        }
    }
    (points, tris)
}

fn cuboid(d: &Vector3<f64>) -> Triangles {
    let h = d / 2.0;
    let points = (0..8)
        .map(|k| {
            Vector3::new(
                if k & 1 == 0 { -h.x } else { h.x },
                if k & 2 == 0 { -h.y } else { h.y },
                if k & 4 == 0 { -h.z } else { h.z },
            )
        })
        .collect();
    // Two triangles per face, outward normals.
    let faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    let tris = faces.iter().flat_map(|f| [[f[0], f[1], f[2]], [f[0], f[2], f[3]]]).collect();
    (points, tris)
}

fn cylinder(r: f64, length: f64, axis: &Vector3<f64>) -> Triangles {
    use std::f64::consts::PI;
    let a = axis.normalize();
    let seed = if a.x.abs() < 0.9 { Vector3::x() } else { Vector3::y() };
    let u = a.cross(&seed).normalize();
    let v = a.cross(&u);
    let mut points = Vec::new();
    for end in [-0.5, 0.5] {
        for j in 0..SEGMENTS {
            let phi = 2.0 * PI * j as f64 / SEGMENTS as f64;
            points.push(a * (end * length) + r * (u * phi.cos() + v * phi.sin()));
        }
    }
    points.push(a * (-0.5 * length));
    points.push(a * (0.5 * length));
    let (bottom, top) = (2 * SEGMENTS, 2 * SEGMENTS + 1);
    let mut tris = Vec::new();
    for j in 0..SEGMENTS {
        let k = (j + 1) % SEGMENTS;
        tris.push([j, k, SEGMENTS + k]);
        tris.push([j, SEGMENTS + k, SEGMENTS + j]);
        tris.push([bottom, k, j]);
        tris.push([top, SEGMENTS + j, SEGMENTS + k]);
    }
    (points, tris)
}

/// A triangle mesh from an `.obj` (faces triangulated) or `.stl` file, scaled.
fn mesh(path: &Path, scale: f64) -> Result<Triangles, String> {
    let m = tidelink_mesh::read_surface(path).map_err(|e| e.to_string())?;
    let points = m.vertices.iter().map(|p| scale * Vector3::new(p[0], p[1], p[2])).collect();
    Ok((points, m.triangles))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Isometry3, Translation3, UnitQuaternion};
    use tidelink_mbs_solver::dynamics::body_set::BodySet;
    use tidelink_mbs_solver::RigidBodyBuilder;

    fn shape(kind: ShapeKind, pose: Isometry3<f64>) -> BodyShape {
        let mut set = BodySet::new(Vector3::zeros());
        let body = set.insert(RigidBodyBuilder::dynamic(1.0, Vector3::repeat(1.0)).build().unwrap());
        BodyShape { body, kind, pose, color: None, contact: false }
    }

    /// Closed and consistently oriented: every edge is used once in each direction.
    fn closed(tris: &[[usize; 3]]) -> bool {
        let mut edges = std::collections::HashMap::new();
        for t in tris {
            for k in 0..3 {
                *edges.entry((t[k], t[(k + 1) % 3])).or_insert(0) += 1;
            }
        }
        edges.iter().all(|(&(a, b), &n)| n == 1 && edges.get(&(b, a)) == Some(&1))
    }

    #[test]
    fn primitives_have_their_dimensions_and_are_closed() {
        let off =
            Isometry3::from_parts(Translation3::new(1.0, 2.0, 3.0), UnitQuaternion::from_euler_angles(0.3, 0.0, 0.0));
        let (p, t) = body_frame_triangles(&shape(ShapeKind::Sphere { radius: 0.12 }, off), Path::new(".")).unwrap();
        assert!(p.iter().all(|x| ((x - Vector3::new(1.0, 2.0, 3.0)).norm() - 0.12).abs() < 1e-12));
        assert!(closed(&t));
        let d = Vector3::new(1.0, 2.0, 4.0);
        let (p, t) =
            body_frame_triangles(&shape(ShapeKind::Box { dimensions: d }, Isometry3::identity()), Path::new("."))
                .unwrap();
        assert_eq!((p.len(), t.len()), (8, 12));
        assert!(p.iter().all(|x| x.x.abs() == 0.5 && x.y.abs() == 1.0 && x.z.abs() == 2.0));
        assert!(closed(&t));
        let axis = Vector3::new(0.0, 1.0, 0.0);
        let cyl = ShapeKind::Cylinder { radius: 0.5, length: 3.0, axis };
        let (p, t) = body_frame_triangles(&shape(cyl, Isometry3::identity()), Path::new(".")).unwrap();
        assert!(closed(&t));
        for x in &p[..2 * SEGMENTS] {
            assert!((x.x.hypot(x.z) - 0.5).abs() < 1e-12 && (x.y.abs() - 1.5).abs() < 1e-12, "{x}");
        }
    }

    #[test]
    fn meshes_are_read_and_scaled_and_bad_files_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("t.obj"),
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n",
        )
        .unwrap();
        let kind = ShapeKind::Mesh { filename: "t.obj".into(), scale: 2.0, convex_hull: false };
        let (p, t) = body_frame_triangles(&shape(kind, Isometry3::identity()), dir.path()).unwrap();
        assert_eq!((p.len(), t.len()), (4, 4));
        assert!(p.contains(&Vector3::new(0.0, 0.0, 2.0)));
        let kind = ShapeKind::Mesh { filename: "missing.stl".into(), scale: 1.0, convex_hull: false };
        let e = body_frame_triangles(&shape(kind, Isometry3::identity()), dir.path()).unwrap_err();
        assert!(e.contains("missing.stl"), "{e}");
    }
}
