//! Closed triangle meshes from `.obj` or `.stl` files: inside test by ray parity and the
//! distance to the surface, both by brute force over the triangles (meshes of bodies are small
//! next to the marker count, and markers are built once).

use crate::error::{Result, SphError};
use nalgebra::{Point3, Vector3};
use std::path::Path;

/// A triangle soup that is expected to be closed (watertight) and consistently meshed.
#[derive(Debug, Clone, PartialEq)]
pub struct TriMesh {
    /// The triangles, body frame.
    pub triangles: Vec<[Point3<f64>; 3]>,
}

impl TriMesh {
    /// Reads a Wavefront `.obj` (all objects, faces triangulated) or an `.stl` (ASCII or
    /// binary), by extension.
    pub fn read(path: &Path) -> Result<Self> {
        let mesh = tidelink_mesh::read_surface(path)?;
        if let Some(reason) = super::mesh_checks::problem(&mesh) {
            return Err(SphError::Mesh { path: path.display().to_string(), reason });
        }
        let point = |p: [f64; 3]| Point3::new(p[0], p[1], p[2]);
        let triangles = (0..mesh.triangles.len()).map(|t| mesh.corners(t).map(point)).collect();
        Self::new(triangles).map_err(|e| SphError::Mesh { path: path.display().to_string(), reason: e.to_string() })
    }

    /// A mesh from triangles; refuses an empty one.
    pub fn new(triangles: Vec<[Point3<f64>; 3]>) -> Result<Self> {
        if triangles.is_empty() {
            return Err(SphError::Geometry { body: "mesh".into(), reason: "no triangles".into() });
        }
        Ok(TriMesh { triangles })
    }

    /// Bounding box.
    pub fn bounds(&self) -> (Point3<f64>, Point3<f64>) {
        let mut lo = Point3::new(f64::INFINITY, f64::INFINITY, f64::INFINITY);
        let mut hi = -lo;
        for p in self.triangles.iter().flatten() {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        (lo, hi)
    }

    /// Enclosed volume (divergence theorem; correct for closed, consistently oriented meshes).
    pub fn volume(&self) -> f64 {
        self.triangles.iter().map(|[a, b, c]| a.coords.dot(&b.coords.cross(&c.coords)) / 6.0).sum::<f64>().abs()
    }

    /// Inside by the parity of crossings of a ray in a direction no mesh of ours is aligned with.
    pub fn contains(&self, p: &Point3<f64>) -> bool {
        let dir = Vector3::new(0.5773503, 0.5773491, 0.5773515).normalize();
        self.triangles.iter().filter(|t| ray_hits(p, &dir, t)).count() % 2 == 1
    }

    /// Distance from `p` to the nearest triangle.
    pub fn distance(&self, p: &Point3<f64>) -> f64 {
        self.triangles.iter().map(|t| (closest_on_triangle(p, t) - p).norm()).fold(f64::INFINITY, f64::min)
    }
}

/// Möller–Trumbore: does the ray `o + t d` (t > 0) cross the triangle?
fn ray_hits(o: &Point3<f64>, d: &Vector3<f64>, [a, b, c]: &[Point3<f64>; 3]) -> bool {
    let (e1, e2) = (b - a, c - a);
    let pv = d.cross(&e2);
    let det = e1.dot(&pv);
    if det.abs() < 1e-14 {
        return false;
    }
    let s = o - a;
    let u = s.dot(&pv) / det;
    if !(0.0..=1.0).contains(&u) {
        return false;
    }
    let qv = s.cross(&e1);
    let v = d.dot(&qv) / det;
    if v < 0.0 || u + v > 1.0 {
        return false;
    }
    e2.dot(&qv) / det > 0.0
}

/// The point of triangle `abc` nearest to `p` (by the Voronoi regions of its vertices and edges).
fn closest_on_triangle(p: &Point3<f64>, [a, b, c]: &[Point3<f64>; 3]) -> Point3<f64> {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Write;

    /// The 12 triangles of the cube `[-e, e]³`, outward normals.
    pub(crate) fn cube(e: f64) -> TriMesh {
        let v = |i: usize| {
            Point3::new(
                if i & 1 == 1 { e } else { -e },
                if i & 2 == 2 { e } else { -e },
                if i & 4 == 4 { e } else { -e },
            )
        };
        let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
        let mut t = Vec::new();
        for q in quads {
            t.push([v(q[0]), v(q[1]), v(q[2])]);
            t.push([v(q[0]), v(q[2]), v(q[3])]);
        }
        TriMesh::new(t).unwrap()
    }

    #[test]
    fn cube_inside_distance_volume() {
        let m = cube(0.5);
        assert!((m.volume() - 1.0).abs() < 1e-12);
        assert!(m.contains(&Point3::new(0.1, 0.2, -0.3)));
        assert!(m.contains(&Point3::new(0.49, 0.49, 0.49)));
        assert!(!m.contains(&Point3::new(0.6, 0.0, 0.0)));
        assert!((m.distance(&Point3::new(0.1, 0.0, 0.0)) - 0.4).abs() < 1e-12);
        assert!((m.distance(&Point3::new(1.0, 1.0, 0.0)) - 0.5f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn reads_obj_and_stl() {
        let dir = tempfile::tempdir().unwrap();
        let m = cube(0.25);
        let obj = dir.path().join("cube.obj");
        let mut f = std::fs::File::create(&obj).unwrap();
        for t in &m.triangles {
            for p in t {
                writeln!(f, "v {} {} {}", p.x, p.y, p.z).unwrap();
            }
        }
        for i in 0..m.triangles.len() {
            writeln!(f, "f {} {} {}", 3 * i + 1, 3 * i + 2, 3 * i + 3).unwrap();
        }
        drop(f);
        let read = TriMesh::read(&obj).unwrap();
        assert!((read.volume() - 0.125).abs() < 1e-6);
        let stl = dir.path().join("cube.STL");
        let tris: Vec<stl_io::Triangle> = m
            .triangles
            .iter()
            .map(|t| stl_io::Triangle {
                normal: stl_io::Normal::new([0.0, 0.0, 0.0]),
                vertices: t.map(|p| stl_io::Vertex::new([p.x as f32, p.y as f32, p.z as f32])),
            })
            .collect();
        let mut f = std::fs::File::create(&stl).unwrap();
        stl_io::write_stl(&mut f, tris.iter()).unwrap();
        drop(f);
        let read = TriMesh::read(&stl).unwrap();
        assert!((read.volume() - 0.125).abs() < 1e-6);
        assert!(read.contains(&Point3::new(0.0, 0.0, 0.0)));
        let e = TriMesh::read(&dir.path().join("x.ply")).unwrap_err().to_string();
        assert!(e.contains(".obj or .stl"), "{e}");
    }
}
